package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/server"
)

const testToken = "test-token-0123456789abcdef"

// testServer is `sdcopt serve` running as a process on loopback.
type testServer struct {
	cmd    *exec.Cmd
	wait   func() proc
	client *server.Client
	cancel context.CancelFunc
}

// startServer starts sdcopt serve on a free loopback port over db.
func startServer(t *testing.T, db string) *testServer {
	t.Helper()
	return startServerArgs(t, db)
}

// startServerArgs is startServer with more flags of sdcopt serve.
func startServerArgs(t *testing.T, db string, extra ...string) *testServer {
	t.Helper()
	dir := filepath.Dir(db)
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, fmt.Sprintf("ready-%d", time.Now().UnixNano()))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cmd, wait := startSdcopt(t, ctx, dir, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--admin-token-file", tok,
		"--ready-file", ready, "--quiet"}, extra...)...)
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(ready)
		if err == nil && strings.HasSuffix(string(b), "\n") {
			s := &testServer{cmd: cmd, wait: wait, cancel: cancel,
				client: &server.Client{Base: strings.TrimSpace(string(b)), Token: testToken, HTTP: &http.Client{Timeout: time.Minute}}}
			t.Cleanup(func() { s.stop(t) })
			return s
		}
		if time.Now().After(deadline) {
			cancel()
			p := wait()
			t.Fatalf("server did not start: exit %d %s", p.code, p.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits for a clean exit (idempotent).
func (s *testServer) stop(t *testing.T) {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	p := s.wait()
	s.cancel()
	s.cmd = nil
	if p.code != 0 || !strings.Contains(p.stderr, "stopped") {
		t.Errorf("server exit %d: %s", p.code, p.stderr)
	}
}

// kill9 kills the server without warning.
func (s *testServer) kill9() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.wait()
	s.cancel()
	s.cmd = nil
}

func loadTables(t *testing.T, db, csv string, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, msg, code := run(t, "serve", "load", "--db", db, "--name", n, "--table", csv); code != 0 {
			t.Fatalf("serve load %s: exit %d %s", n, code, msg)
		}
	}
}

func apiStatus(err error) int {
	var ae *server.APIError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return 0
}

// End to end: tables, releases, denials without a reason, idempotent
// retries, the operator's audit log, and bad requests answered 4xx with
// nothing written.
func TestServeEndToEnd(t *testing.T) {
	csv := autoworkersCSV(t)
	db := filepath.Join(t.TempDir(), "sdc.db")
	loadTables(t, db, csv, "autoworkers")
	if _, msg, code := run(t, "serve", "load", "--db", db, "--name", "autoworkers", "--table", csv); code != 2 || !strings.Contains(msg, "exists") {
		t.Errorf("loading a name twice: exit %d %q", code, msg)
	}
	if _, msg, code := run(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--ready-file", db); code != 2 || !strings.Contains(msg, "--ready-file") {
		t.Errorf("--ready-file naming the database: exit %d %q", code, msg)
	}
	s := startServer(t, db)
	c, ctx := s.client, context.Background()
	tabs, err := c.Tables(ctx)
	if err != nil || len(tabs) != 1 || tabs[0].Name != "autoworkers" || len(tabs[0].Variables) != 6 || tabs[0].Cells != 64 {
		t.Fatalf("tables: %+v %v", tabs, err)
	}
	// The file's path and hash are the operator's only.
	admin, err := c.AdminTables(ctx)
	if err != nil || len(admin) != 1 || admin[0].SHA256 == "" || admin[0].Source != csv {
		t.Fatalf("operator's tables: %+v %v", admin, err)
	}
	for _, path := range []string{"/v1/tables", "/v1/tables/autoworkers"} {
		resp, err := http.Get(c.Base + path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		resp.Body.Close()
		if strings.Contains(b.String(), admin[0].SHA256) || strings.Contains(b.String(), "autoworkers.csv") || strings.Contains(b.String(), "loaded_at") {
			t.Errorf("anonymous %s shows file metadata:\n%s", path, b.String())
		}
	}
	d, replay, err := c.Request(ctx, "autoworkers", []string{"B", "F"}, "", "k1", "alice")
	if err != nil || d.Outcome != audit.Released || len(d.Counts) != 4 || replay {
		t.Fatalf("[BF]: %+v %v", d, err)
	}
	d2, replay, err := c.Request(ctx, "autoworkers", []string{"B", "F"}, "", "k1", "alice")
	if err != nil || !replay || !slices.Equal(d2.Counts, d.Counts) {
		t.Errorf("retry: %+v replay %t %v", d2, replay, err)
	}
	if _, _, err := c.Request(ctx, "autoworkers", []string{"A"}, "", "k1", "alice"); apiStatus(err) != http.StatusConflict {
		t.Errorf("key reused for another margin: %v", err)
	}
	den, _, err := c.Request(ctx, "autoworkers", []string{"A", "B", "C", "D", "E", "F"}, "", "k2", "bob")
	if err != nil || den.Outcome != audit.Denied || den.Counts != nil {
		t.Errorf("whole table: %+v %v", den, err)
	}
	// Simulation needs the operator.
	if _, _, err := c.Request(ctx, "autoworkers", []string{"A", "B", "C", "D", "E", "F"}, audit.ModeSimulate, "k3", "bob"); apiStatus(err) != http.StatusForbidden {
		t.Errorf("simulate under the default policy: %v", err)
	}
	allow := true
	if _, err := c.UpdatePolicy(ctx, "autoworkers", audit.PolicyUpdate{AllowSimulate: &allow}); err != nil {
		t.Fatal(err)
	}
	sim, _, err := c.Request(ctx, "autoworkers", []string{"A", "B", "C", "D", "E", "F"}, audit.ModeSimulate, "k3", "bob")
	if err != nil || sim.Outcome != audit.Simulated || !sim.Simulated || len(sim.Counts) != 64 || !strings.Contains(sim.Notice, "NOT DATA") {
		t.Errorf("simulate: %+v %v", sim, err)
	}
	rel, err := c.Releases(ctx, "autoworkers")
	if err != nil || len(rel) != 2 || rel[0].RequestID != "k1" || !rel[1].Simulated {
		t.Fatalf("releases: %+v %v", rel, err)
	}
	logs, err := c.AuditLog(ctx, "autoworkers")
	if err != nil || len(logs) != 3 || logs[1].Outcome != audit.Denied || !strings.Contains(string(logs[1].Decision), "disclosed") {
		t.Fatalf("audit log: %d entries %v", len(logs), err)
	}

	// Bad requests: 4xx with a message, nothing written.
	post := func(path, body string, hdr map[string]string) (int, string) {
		req, _ := http.NewRequest("POST", c.Base+path, strings.NewReader(body))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	bad := []struct {
		name, path, body string
		status           int
		msg              string
	}{
		{"malformed JSON", "/v1/tables/autoworkers/requests", `{"margin": [`, 400, "malformed JSON"},
		{"unknown field", "/v1/tables/autoworkers/requests", `{"margin": "A", "idempotency_key": "x", "extra": 1}`, 400, "unknown field"},
		{"no key", "/v1/tables/autoworkers/requests", `{"margin": "A"}`, 400, "idempotency_key"},
		{"no margin", "/v1/tables/autoworkers/requests", `{"idempotency_key": "x"}`, 400, "margin"},
		{"unknown variable", "/v1/tables/autoworkers/requests", `{"margin": "A:Z", "idempotency_key": "x"}`, 400, "unknown variable"},
		{"unknown mode", "/v1/tables/autoworkers/requests", `{"margin": "A", "mode": "publish", "idempotency_key": "x"}`, 400, "mode"},
		{"unknown table", "/v1/tables/nosuch/requests", `{"margin": "A", "idempotency_key": "x"}`, 404, "no such table"},
		{"oversized", "/v1/tables/autoworkers/requests", `{"margin": "A", "requester": "` + strings.Repeat("x", 100<<10) + `"}`, 413, "larger than"},
		{"unknown endpoint", "/v1/nothing", `{}`, 404, "no such endpoint"},
	}
	for _, b := range bad {
		status, body := post(b.path, b.body, nil)
		if status != b.status || !strings.Contains(body, b.msg) || !strings.Contains(body, `"error"`) {
			t.Errorf("%s: %d %s, want %d containing %q", b.name, status, body, b.status, b.msg)
		}
	}
	for _, tok := range []string{"", "wrong-token-0123456789"} {
		bc := *c
		bc.Token = tok
		if _, err := bc.AuditLog(ctx, "autoworkers"); apiStatus(err) != http.StatusUnauthorized {
			t.Errorf("token %q: %v", tok, err)
		}
		if _, err := bc.LoadTable(ctx, "other", []byte("A,count\nx,1\n"), ""); apiStatus(err) != http.StatusUnauthorized {
			t.Errorf("load with token %q: %v", tok, err)
		}
	}
	if _, err := c.LoadTable(ctx, "broken", []byte("A,count\nx,-1\n"), ""); apiStatus(err) != http.StatusBadRequest {
		t.Errorf("bad table upload: %v", err)
	}
	if err := c.SetPolicy(ctx, "autoworkers", audit.Policy{Small: 3, MinWidth: -1}); apiStatus(err) != http.StatusBadRequest {
		t.Errorf("negative width: %v", err)
	}
	if rel2, _ := c.Releases(ctx, "autoworkers"); len(rel2) != len(rel) {
		t.Errorf("bad requests wrote releases: %d, want %d", len(rel2), len(rel))
	}
	if logs2, _ := c.AuditLog(ctx, "autoworkers"); len(logs2) != len(logs) {
		t.Errorf("bad requests wrote decisions: %d, want %d", len(logs2), len(logs))
	}
	if tabs, _ := c.Tables(ctx); len(tabs) != 1 {
		t.Errorf("bad uploads created tables: %d", len(tabs))
	}
	// The operator loads a table and tightens its policy over HTTP.
	info, err := c.LoadTable(ctx, "tiny", []byte("A,B,count\nx,p,1\nx,q,5\ny,p,4\ny,q,6\n"), "min_width=2")
	if err != nil || info.Cells != 4 || info.Policy.MinWidth != 2 {
		t.Fatalf("upload: %+v %v", info, err)
	}
	if err := c.SetPolicy(ctx, "tiny", audit.Policy{Small: 3, MinWidth: 3, AllowSimulate: true}); err != nil {
		t.Fatal(err)
	}
	if d, _, err := c.Request(ctx, "tiny", []string{"A"}, "", "t1", ""); err != nil || d.PolicyVersion != "v1:small=3,min_width=3,min_rel_width=0,simulate=true" {
		t.Errorf("policy not applied: %+v %v", d, err)
	}
}

// concurrentPair finds a small table and two margins each released alone
// but not both: the test of per-table serialization.
func concurrentPair(t *testing.T) (*model.Table, []string, []string) {
	for seed := uint64(1); seed < 500; seed++ {
		r := rand.New(rand.NewPCG(seed, 17))
		bin := []string{"0", "1"}
		vars := []model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}}
		counts := make([]int64, 8)
		for i := range counts {
			counts[i] = int64(r.IntN(7))
		}
		tab, _ := model.NewTable(vars, counts)
		a, _ := audit.New(tab, audit.DefaultPolicy(), audit.Options{})
		m1, m2 := []string{"A", "B"}, []string{"B", "C"}
		h := audit.NewHistory(tab)
		d1, err1 := a.Decide(h, audit.Request{Margin: m1})
		d2, err2 := a.Decide(h, audit.Request{Margin: m2})
		if err1 != nil || err2 != nil || d1.Outcome != audit.Released || d2.Outcome != audit.Released {
			continue
		}
		h.Append(d1)
		if d3, err := a.Decide(h, audit.Request{Margin: m2}); err == nil && d3.Outcome == audit.Denied {
			return tab, m1, m2
		}
	}
	t.Fatal("no table where two margins breach together")
	return nil, nil, nil
}

func tableCSV(t *model.Table) string {
	var b strings.Builder
	for _, v := range t.Vars {
		b.WriteString(v.Name + ",")
	}
	b.WriteString("count\n")
	dims := model.Dims(t.Vars)
	for i, c := range t.Counts {
		lv := model.CellLevels(dims, i, nil)
		for j, v := range t.Vars {
			b.WriteString(v.Levels[lv[j]] + ",")
		}
		fmt.Fprintf(&b, "%d\n", c)
	}
	return b.String()
}

// Two concurrent requests that together breach the policy are never both
// released; different tables proceed in parallel.
func TestServeConcurrentBreach(t *testing.T) {
	tab, m1, m2 := concurrentPair(t)
	dir := t.TempDir()
	csv := filepath.Join(dir, "pair.csv")
	os.WriteFile(csv, []byte(tableCSV(tab)), 0o644)
	db := filepath.Join(dir, "sdc.db")
	var names []string
	for i := 0; i < 12; i++ {
		names = append(names, fmt.Sprintf("pair%d", i))
	}
	loadTables(t, db, csv, names...)
	s := startServer(t, db)
	var wg sync.WaitGroup
	outcomes := make([][2]string, len(names))
	for i, n := range names {
		for j, m := range [][]string{m1, m2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, _, err := s.client.Request(context.Background(), n, m, "", fmt.Sprintf("%s-%d", n, j), "")
				if err != nil {
					t.Errorf("%s: %v", n, err)
					return
				}
				outcomes[i][j] = d.Outcome
			}()
		}
	}
	wg.Wait()
	for i, o := range outcomes {
		released := 0
		for _, x := range o {
			if x == audit.Released {
				released++
			}
		}
		if released != 1 {
			t.Errorf("%s: outcomes %v, want exactly one release", names[i], o)
		}
		rel, _ := s.client.Releases(context.Background(), names[i])
		if len(rel) != 1 {
			t.Errorf("%s: %d releases stored", names[i], len(rel))
		}
	}
}

// kill -9 in the middle of a burst: after a restart every acknowledged
// release is in the database, nothing that was not requested is, no
// request is released twice, and retries return the stored decisions.
func TestServeKill9(t *testing.T) {
	csv := autoworkersCSV(t)
	db := filepath.Join(t.TempDir(), "sdc.db")
	names := []string{"w0", "w1", "w2", "w3"}
	loadTables(t, db, csv, names...)
	s := startServer(t, db)
	margins := [][]string{{"B", "F"}, {"A", "B", "C", "E"}, {"A", "D", "E"}, {"A", "B"}, {"C", "D"}, {"E", "F"}, {"A", "C", "F"}, {"B", "D", "E"}}
	type ack struct {
		table, key string
		d          server.Answer
	}
	var mu sync.Mutex
	var acks []ack
	sent := map[string]bool{}
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	const n = 200
	for i := 0; i < n; i++ {
		table, key := names[i%len(names)], fmt.Sprintf("burst-%d", i)
		sent[table+"/"+key] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, _, err := s.client.Request(ctx, table, margins[i%len(margins)], "", key, "burst")
			if err == nil {
				mu.Lock()
				acks = append(acks, ack{table, key, d})
				mu.Unlock()
			}
		}()
	}
	for {
		mu.Lock()
		k := len(acks)
		mu.Unlock()
		if k >= 20 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	s.kill9()
	cancel()
	wg.Wait()
	t.Logf("%d of %d requests acknowledged before kill -9", len(acks), n)

	s2 := startServer(t, db)
	c := s2.client
	stored := map[string]server.PublicRelease{}
	for _, name := range names {
		rel, err := c.Releases(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rel {
			k := name + "/" + r.RequestID
			if r.Seq != i+1 {
				t.Errorf("%s: release %d has seq %d", name, i+1, r.Seq)
			}
			if _, dup := stored[k]; dup {
				t.Errorf("%s released twice", k)
			}
			if !sent[k] {
				t.Errorf("%s released but never requested", k)
			}
			stored[k] = r
		}
	}
	for _, a := range acks {
		r, ok := stored[a.table+"/"+a.key]
		switch {
		case a.d.Outcome == audit.Denied && ok:
			t.Errorf("%s/%s: denied but stored as released", a.table, a.key)
		case a.d.Outcome != audit.Denied && !ok:
			t.Errorf("%s/%s: acknowledged release lost", a.table, a.key)
		case ok && !slices.Equal(r.Counts, a.d.Counts):
			t.Errorf("%s/%s: stored counts differ from the acknowledged ones", a.table, a.key)
		}
		// A retry returns the acknowledged decision.
		d, replay, err := c.Request(context.Background(), a.table, margins[keyIndex(a.key)%len(margins)], "", a.key, "burst")
		if err != nil || !replay || d.Outcome != a.d.Outcome || !slices.Equal(d.Counts, a.d.Counts) {
			t.Errorf("retry of %s/%s: %+v replay %t %v", a.table, a.key, d, replay, err)
		}
	}
	// Every decision in the log has its release (or is a denial).
	for _, name := range names {
		logs, err := c.AuditLog(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range logs {
			_, ok := stored[name+"/"+e.IdempotencyKey]
			if (e.Outcome != audit.Denied) != ok {
				t.Errorf("%s/%s: decision %s, release stored %t", name, e.IdempotencyKey, e.Outcome, ok)
			}
		}
	}
}

func keyIndex(key string) int {
	var i int
	fmt.Sscanf(key, "burst-%d", &i)
	return i
}

// A bounded load test on loopback: 32 clients, 2,000 requests, no error,
// no request released twice; percentiles logged (bench/README.md).
func TestServeLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	csv := autoworkersCSV(t)
	db := filepath.Join(t.TempDir(), "sdc.db")
	names := []string{"l0", "l1", "l2", "l3"}
	loadTables(t, db, csv, names...)
	s := startServer(t, db)
	margins := [][]string{{"B", "F"}, {"A", "B", "C", "E"}, {"A", "D", "E"}, {"A", "B"}, {"C", "D"}, {"E", "F"}, {"A", "C", "F"}, {"B", "D", "E"}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep := server.LoadTest(ctx, s.client, names, margins, 32, 2000, "load")
	t.Logf("load: %d requests from %d clients in %.2f s (%.0f/s): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms; %d released, %d denied",
		rep.Requests, rep.Clients, rep.Seconds, rep.Throughput, rep.P50Ms, rep.P95Ms, rep.P99Ms, rep.MaxMs, rep.Released, rep.Denied)
	if rep.Errors > 0 {
		t.Fatalf("%d errors, first: %s", rep.Errors, rep.FirstError)
	}
	total := 0
	for _, n := range names {
		rel, _ := s.client.Releases(ctx, n)
		seen := map[string]bool{}
		for _, r := range rel {
			if seen[r.RequestID] {
				t.Errorf("%s: %s released twice", n, r.RequestID)
			}
			seen[r.RequestID] = true
		}
		total += len(rel)
	}
	if total != rep.Released {
		t.Errorf("%d releases stored, %d acknowledged", total, rep.Released)
	}
	// The same keys again: all retries, nothing new.
	again := server.LoadTest(ctx, s.client, names, margins, 32, 2000, "load")
	if again.Errors > 0 || again.Replays != 2000 {
		t.Errorf("retries: %d errors, %d replays", again.Errors, again.Replays)
	}
}

// browser starts headless Chromium (skipping when it is not installed
// unless SDCOPT_REQUIRE_BROWSER is set) and returns a context for a page
// of 1280 x 900 CSS pixels.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("SDCOPT_REQUIRE_BROWSER") != "" {
			t.Fatalf("chromium not found (make deps installs Debian's chromium): %v", err)
		}
		t.Skip("chromium not installed")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil { // start the browser, no timeout
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bctx, 2*time.Minute)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// screenshot takes a PNG of the whole page and checks it is one; with
// SDCOPT_WRITE_SCREENSHOTS set it is written to docs/service/NAME (the
// pictures of the README), else to the test's directory.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10000 {
		t.Fatalf("screenshot %s: %d bytes, not a PNG of a page", name, len(png))
	}
	dir := t.TempDir()
	if os.Getenv("SDCOPT_WRITE_SCREENSHOTS") != "" {
		dir = filepath.Join("..", "..", "docs", "service")
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The pages in headless Chromium. The analysts' page: sign in with an
// analyst's token, labels of the variables and levels shown, request a
// margin, read the answer with its totals from the page, download it as
// CSV, a denial, the compact history; the decision records the analyst.
// Simulation: not offered until the operator allows it, then a simulated
// answer says plainly that it is not data. The operator's page: sign in
// with the operator's token, the policy in words, the activity per
// requester and the evidence of a denial.
func TestServeWebPage(t *testing.T) {
	ctx := browser(t)
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	labels := filepath.Join("..", "..", "docs", "service", "autoworkers-labels.csv")
	if _, msg, code := run(t, "serve", "load", "--db", db, "--name", "autoworkers", "--table", csv, "--labels", labels); code != 0 {
		t.Fatalf("serve load --labels: exit %d %s", code, msg)
	}
	alice, msg, code := run(t, "serve", "analyst", "add", "--db", db, "alice")
	alice = strings.SplitN(alice, "\n", 2)[0] // stdout and stderr together: the token is the first line
	if code != 0 || !strings.HasPrefix(alice, "sdca_") {
		t.Fatalf("serve analyst add: exit %d %q %s", code, alice, msg)
	}
	s := startServer(t, db)
	bg := context.Background()
	t0 := time.Now()
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	text := func(sel string) string {
		v, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/"),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
		chromedp.SendKeys(css(`#token`), alice),
		chromedp.Click(css(`#signin`)),
		chromedp.WaitVisible(css(`#who-name`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if who := text(`#who-name`); !strings.Contains(who, "alice") {
		t.Errorf("signed in as %q", who)
	}
	vars, policy := text(`#vars`), text(`#policy`)
	for _, want := range []string{"Smoking", "non-smoker", "Systolic blood pressure", ">=140 = 140 mmHg or more", "Family history"} {
		if !strings.Contains(vars, want) {
			t.Errorf("variables on the page lack %q:\n%s", want, vars)
		}
	}
	if !strings.Contains(policy, "from 1 to 2 must stay within a range at least 3 wide") || !strings.Contains(policy, "not offered") {
		t.Errorf("policy in words: %q", policy)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(`#var-A`)),
		chromedp.Click(css(`#var-D`)),
		chromedp.Click(css(`#request`)),
		chromedp.WaitVisible(css(`#download`)),
		chromedp.WaitVisible(css(`#history tr#release-1`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f s: answered", time.Since(t0).Seconds())
	outcome, cells := strings.ToLower(text(`#outcome`)), text(`#result table.margin`)
	rel, err := s.client.Releases(bg, "autoworkers")
	if err != nil || len(rel) != 1 {
		t.Fatalf("releases after the page's request: %+v %v", rel, err)
	}
	if !strings.Contains(outcome, "released") || !strings.Contains(outcome, "smoking × systolic blood pressure") {
		t.Errorf("page outcome %q", outcome)
	}
	// A x D as a cross-table: the levels' labels, every count, the row,
	// column and grand totals (1841 men, the table's total).
	var total int64
	for _, c := range rel[0].Counts {
		total += c
	}
	rowTotal := fmt.Sprint(rel[0].Counts[0] + rel[0].Counts[1])
	for _, want := range []string{"non-smoker", "140 mmHg or more", "Total", "1,841", rowTotal} {
		if !strings.Contains(cells, want) {
			t.Errorf("answer table lacks %q:\n%s", want, cells)
		}
	}
	if total != 1841 {
		t.Errorf("released A x D totals %d, want 1841 (datasets README: 1841 men)", total)
	}
	// The download is the release as CSV.
	href, err := chromedp.Run(ctx, chromedp.AttributeValue(css(`#download`), "href"))
	if err != nil || !href.Exists {
		t.Fatalf("download link: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.getElementById("download").href).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	want := "A,D,count\n" + fmt.Sprintf("no,<140,%d\nno,>=140,%d\nyes,<140,%d\nyes,>=140,%d\n", rel[0].Counts[0], rel[0].Counts[1], rel[0].Counts[2], rel[0].Counts[3])
	if got != want {
		t.Errorf("downloaded CSV (%s):\n%s\nwant\n%s", href.Value, got, want)
	}
	// A denial says so without a reason; the history stays one row per
	// release, the margin shown on demand.
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/"),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
		chromedp.Click(css(`#var-A`)), chromedp.Click(css(`#var-B`)), chromedp.Click(css(`#var-C`)),
		chromedp.Click(css(`#var-D`)), chromedp.Click(css(`#var-E`)), chromedp.Click(css(`#var-F`)),
		chromedp.Click(css(`#request`)),
		chromedp.WaitVisible(css(`#denied`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if o := strings.ToLower(text(`#outcome`)); !strings.Contains(o, "denied") {
		t.Errorf("whole table: outcome %q", o)
	}
	for _, m := range [][]string{{"B", "F"}, {"A", "B", "C", "E"}} {
		bc := *s.client
		bc.AnalystToken = alice
		if _, _, err := bc.Request(bg, "autoworkers", m, "", strings.Join(m, ""), ""); err != nil {
			t.Fatal(err)
		}
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/"),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
		chromedp.Click(css(`#var-B`)), chromedp.Click(css(`#var-C`)),
		chromedp.Click(css(`#request`)),
		chromedp.WaitVisible(css(`#download`)),
		chromedp.Click(css(`#release-3 button.show`)),
		chromedp.WaitVisible(css(`#history tr.detail button.show-all`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#history tr.detail tbody tr").length`))
	if err != nil || rows > 14 {
		t.Errorf("a 16-cell release shows %d rows before 'show all' (%v)", rows, err)
	}
	t.Logf("%.1f s: history", time.Since(t0).Seconds())
	screenshot(t, ctx, "analyst-page.png")
	logs, err := s.client.AuditLog(bg, "autoworkers")
	if err != nil || len(logs) != 5 {
		t.Fatalf("audit log: %d entries %v", len(logs), err)
	}
	for _, e := range logs {
		if e.Requester != "alice" {
			t.Errorf("decision %d recorded as %q, want alice", e.ID, e.Requester)
		}
	}
	// An anonymous request is recorded as such, with the name it gave.
	if _, _, err := s.client.Request(bg, "autoworkers", []string{"C", "E"}, "", "anon-1", "carol"); err != nil {
		t.Fatal(err)
	}
	if logs, _ := s.client.AuditLog(bg, "autoworkers"); len(logs) != 6 || logs[5].Requester != "anonymous (carol)" {
		t.Errorf("anonymous request recorded as %+v", logs[len(logs)-1])
	}
	// No file metadata on the page; simulation not offered.
	html, err := chromedp.Run(ctx, chromedp.OuterHTML(css("html")))
	if err != nil {
		t.Fatal(err)
	}
	simDisabled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("mode-simulate").disabled`))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := s.client.AdminTables(bg)
	if err != nil || len(admin) != 1 {
		t.Fatalf("operator's tables: %v", err)
	}
	if strings.Contains(html, admin[0].SHA256) || strings.Contains(html, "autoworkers.csv") {
		t.Error("the page shows the confidential file's hash or path")
	}
	if !simDisabled {
		t.Error("simulate mode offered although the policy does not allow it")
	}

	// The operator's page: the policy, the decisions with their reasons
	// and evidence, the activity per requester.
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/operator.html"),
		chromedp.SendKeys(css(`#op-token`), "wrong-token-0123456789"),
		chromedp.Click(css(`#op-signin`)),
		chromedp.WaitVisible(css(`#op-error:not(:empty)`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if e := text(`#op-error`); !strings.Contains(e, "Wrong token") {
		t.Errorf("wrong operator token: %q", e)
	}
	err = chromedp.Do(ctx,
		chromedp.SetValue(css(`#op-token`), testToken),
		chromedp.Click(css(`#op-signin`)),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f s: operator signed in", time.Since(t0).Seconds())
	err = chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll("tr.decision")].find((r) => r.textContent.includes("denied")).querySelector("button.evidence").click()`),
		chromedp.WaitVisible(css(`#op-decisions tr.detail`)))
	if err != nil {
		t.Fatal(err)
	}
	info, act, dec, an := text(`#op-info`), text(`#op-activity`), text(`#op-decisions`), text(`#op-analysts`)
	if !strings.Contains(info, admin[0].SHA256) || !strings.Contains(text(`#op-policy`), "Simulated answers are not offered") {
		t.Errorf("operator's table view: %q", info)
	}
	if !strings.Contains(act, "alice\t5\t4\t0\t1") || !strings.Contains(act, "anonymous (carol)\t1\t1") {
		t.Errorf("activity per requester: %q", act)
	}
	if !strings.Contains(strings.ToLower(dec), "denied") || !strings.Contains(dec, "Required width") || !strings.Contains(dec, "alice") {
		t.Errorf("decisions with evidence: %q", dec)
	}
	if !strings.Contains(an, "alice") {
		t.Errorf("analysts: %q", an)
	}
	screenshot(t, ctx, "operator-page.png")

	// The operator allows simulation; a simulated answer and the page
	// after it say plainly that it is not data.
	allow := true
	if _, err := s.client.UpdatePolicy(bg, "autoworkers", audit.PolicyUpdate{AllowSimulate: &allow}); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/"),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
		chromedp.Click(css(`#mode-simulate`)),
		chromedp.Click(css(`#var-A`)), chromedp.Click(css(`#var-B`)), chromedp.Click(css(`#var-C`)),
		chromedp.Click(css(`#var-D`)), chromedp.Click(css(`#var-E`)), chromedp.Click(css(`#var-F`)),
		chromedp.Click(css(`#request`)),
		chromedp.WaitVisible(css(`#answer-notice`)),
		chromedp.WaitVisible(css(`#notice`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	outcome, answer, banner := strings.ToLower(text(`#outcome`)), text(`#answer-notice`), text(`#notice`)
	if !strings.Contains(outcome, "simulated") || !strings.Contains(answer, "This answer is simulated") || !strings.Contains(answer, "NOT DATA") ||
		!strings.Contains(banner, "SIMULATED, NOT DATA") {
		t.Errorf("simulated answer on the page: outcome %q, notice %q, banner %q", outcome, answer, banner)
	}
}

// Two servers on one database: the second exits 2 naming the first's
// process id, the first keeps serving; once it stops, a server starts
// again. serve load beside the running server works.
func TestServeTwoProcesses(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	loadTables(t, db, csv, "autoworkers")
	s := startServer(t, db)
	p := runSdcopt(t, dir, "serve", "--db", db, "--addr", "127.0.0.1:0", "--quiet")
	if want := fmt.Sprintf("process %d", s.cmd.Process.Pid); p.code != 2 || !strings.Contains(p.stderr, want) || !strings.Contains(p.stderr, "one server per database") {
		t.Errorf("second server: exit %d %q, want 2 naming %s", p.code, p.stderr, want)
	}
	// The second path to the same file (a symbolic link) is the same lock.
	link := filepath.Join(dir, "link.db")
	os.Symlink("sdc.db", link)
	if p := runSdcopt(t, dir, "serve", "--db", link, "--addr", "127.0.0.1:0", "--quiet"); p.code != 2 {
		t.Errorf("second server through a link: exit %d %q", p.code, p.stderr)
	}
	loadTables(t, db, csv, "second")
	ctx := context.Background()
	if d, _, err := s.client.Request(ctx, "second", []string{"B", "F"}, "", "x", ""); err != nil || d.Outcome != audit.Released {
		t.Errorf("a table loaded beside the server: %+v %v", d, err)
	}
	s.stop(t)
	s2 := startServer(t, db)
	if rel, err := s2.client.Releases(ctx, "second"); err != nil || len(rel) != 1 {
		t.Errorf("after the restart: %v %v", rel, err)
	}
}

// Databases the server must not use, table names serve load must refuse,
// token files anyone can write: exit 2 with the reason, nothing changed.
func TestServeRefusesBadInputs(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	// Another application's database.
	foreign := filepath.Join(dir, "other.db")
	sdb, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec(`CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	text := writeTemp(t, "notes.db", strings.Repeat("plain text, not SQLite\n", 300))
	for _, c := range []struct{ name, db, msg string }{
		{"foreign database", foreign, "not an sdcopt database"},
		{"not SQLite", text, "not a readable SQLite database"},
	} {
		before := snapshot(t, filepath.Dir(c.db))
		if _, msg, code := run(t, "serve", "--db", c.db, "--addr", "127.0.0.1:0", "--quiet"); code != 2 || !strings.Contains(msg, c.msg) {
			t.Errorf("serve %s: exit %d %q", c.name, code, msg)
		}
		if _, msg, code := run(t, "serve", "load", "--db", c.db, "--name", "t", "--table", csv); code != 2 || !strings.Contains(msg, c.msg) {
			t.Errorf("serve load %s: exit %d %q", c.name, code, msg)
		}
		if d := diffSnapshots(before, snapshot(t, filepath.Dir(c.db))); len(d) > 0 {
			t.Errorf("%s: files changed: %v", c.name, d)
		}
	}

	db := filepath.Join(dir, "sdc.db")
	for _, name := range []string{".", "..", "a/b", "a b", ""} {
		_, msg, code := run(t, "serve", "load", "--db", db, "--name", name, "--table", csv)
		if code != 2 || (name != "" && !strings.Contains(msg, "table name")) {
			t.Errorf("serve load --name %q: exit %d %q", name, code, msg)
		}
	}

	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte(testToken+"\n"), 0o600)
	os.Chmod(tok, 0o666)
	if _, msg, code := run(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--admin-token-file", tok, "--quiet"); code != 2 || !strings.Contains(msg, "writable by every user") {
		t.Errorf("world-writable token: exit %d %q", code, msg)
	}
	// Readable by others: a warning, the server starts.
	os.Chmod(tok, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ready := filepath.Join(dir, "ready")
	cmd, wait := startSdcopt(t, ctx, dir, "serve", "--db", db, "--addr", "127.0.0.1:0", "--admin-token-file", tok, "--quiet", "--ready-file", ready)
	for i := 0; i < 1500; i++ {
		if b, err := os.ReadFile(ready); err == nil && strings.HasSuffix(string(b), "\n") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if p := wait(); p.code != 0 || !strings.Contains(p.stderr, "warning: --admin-token-file") {
		t.Errorf("token readable by others: exit %d %q", p.code, p.stderr)
	}
}

// A corrupted database is refused at start (exit 2, the cause named).
func TestServeCorruptDatabase(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	loadTables(t, db, csv, "t1", "t2", "t3", "t4", "t5", "t6")
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	// The last page holds rows of the last table that grew; garbage over
	// it, its header included.
	const page = 4096
	if len(data) < 4*page {
		t.Fatalf("database of %d bytes", len(data))
	}
	for i := len(data) - page; i < len(data); i++ {
		data[i] = byte(i*13 + 5)
	}
	os.WriteFile(db, data, 0o600)
	if _, msg, code := run(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--quiet"); code != 2 || !strings.Contains(msg, "corrupt") {
		t.Errorf("corrupted database: exit %d %q", code, msg)
	}
}

// The operator's commands around the page: analysts' tokens issued,
// listed and revoked; labels files checked (file, line, field named;
// nothing loaded); a trusted header that is not a plain header name
// refused. Bad usage exits 2.
func TestServeAnalystAndLabels(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	// run gives stdout and stderr together: the token is the first line.
	out, msg, code := run(t, "serve", "analyst", "add", "--db", db, "alice")
	tok := strings.SplitN(out, "\n", 2)[0]
	if code != 0 || !strings.HasPrefix(tok, "sdca_") || len(tok) < 40 || !strings.Contains(out, "shown once") {
		t.Fatalf("analyst add: exit %d %q %q", code, tok, msg)
	}
	if _, msg, code := run(t, "serve", "analyst", "add", "--db", db, "alice"); code != 2 || !strings.Contains(msg, "exists") {
		t.Errorf("second token for alice: exit %d %q", code, msg)
	}
	for _, args := range [][]string{{"add"}, {"add", "a b"}, {"frobnicate", "x"}, {"list", "x"}, {}} {
		if _, msg, code := run(t, append([]string{"serve", "analyst", "--db", db}, args...)...); code != 2 {
			t.Errorf("analyst %v: exit %d %q", args, code, msg)
		}
	}
	if out, msg, code := run(t, "serve", "analyst", "revoke", "--db", db, "alice"); code != 0 || !strings.Contains(out, "revoked alice") {
		t.Errorf("revoke: exit %d %q %q", code, out, msg)
	}
	if _, msg, code := run(t, "serve", "analyst", "revoke", "--db", db, "alice"); code != 2 {
		t.Errorf("revoke twice: exit %d %q", code, msg)
	}
	if out, _, code := run(t, "serve", "analyst", "list", "--db", db); code != 0 || !strings.Contains(out, "alice") || !strings.Contains(out, "revoked") {
		t.Errorf("list: exit %d %q", code, out)
	}
	for _, c := range []struct{ name, text, msg string }{
		{"labels.csv", "variable,level,label\nA,no,non-smoker\nA,no,again\n", "labels.csv: line 3"},
		{"labels2.csv", "variable,level,label\nZ,,unknown\n", `no variable "Z"`},
		{"labels3.csv", "variable,level,label\nD,<150,below 150\n", `no level "<150"`},
		{"labels.json", `{"A": {"label": 1}}`, "labels.json"},
	} {
		f := writeTemp(t, c.name, c.text)
		if _, msg, code := run(t, "serve", "load", "--db", db, "--name", "w", "--table", csv, "--labels", f); code != 2 || !strings.Contains(msg, c.msg) {
			t.Errorf("labels %s: exit %d %q, want %q", c.name, code, msg, c.msg)
		}
	}
	st, err := server.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if ts, err := st.Tables(context.Background()); err != nil || len(ts) != 0 {
		t.Errorf("refused labels loaded %d tables (%v)", len(ts), err)
	}
	st.Close()
	// Labels for a table loaded without them.
	loadTables(t, db, csv, "plain")
	good := writeTemp(t, "good.csv", "variable,level,label\nA,,Smoking\n")
	if out, msg, code := run(t, "serve", "labels", "--db", db, "--name", "plain", "--labels", good); code != 0 || !strings.Contains(out, "labelled plain") {
		t.Errorf("serve labels: exit %d %q %q", code, out, msg)
	}
	if _, msg, code := run(t, "serve", "labels", "--db", db, "--name", "nosuch", "--labels", good); code != 2 || !strings.Contains(msg, "no such table") {
		t.Errorf("serve labels of an unknown table: exit %d %q", code, msg)
	}
	st, err = server.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := st.Table(context.Background(), "plain"); err != nil || info.Variables[0].Label != "Smoking" {
		t.Errorf("after serve labels: %+v %v", info, err)
	}
	st.Close()
	for _, h := range []string{"Authorization", "X Remote"} {
		if _, msg, code := run(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--trust-header", h, "--quiet"); code != 2 || !strings.Contains(msg, "--trust-header") {
			t.Errorf("--trust-header %q: exit %d %q", h, code, msg)
		}
	}
}

// Issue 44, item 2: SQLite keeps a WAL per name, so a table loaded or an
// analyst added through a second hard link to a running server's
// database would never reach the server (and be lost when it stops).
// They are refused as a second server is; through the server's own name
// (and through a symbolic link to it) they still work beside it.
func TestServeHardLinkRefused(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	loadTables(t, db, csv, "autoworkers")
	s := startServer(t, db)
	hard := filepath.Join(dir, "hard.db")
	if err := os.Link(db, hard); err != nil {
		t.Skip(err)
	}
	labels := writeTemp(t, "labels.csv", "variable,level,label\nA,,Smoking\n")
	for _, args := range [][]string{
		{"serve", "load", "--db", hard, "--name", "aw2", "--table", csv},
		{"serve", "analyst", "add", "--db", hard, "bob"},
		{"serve", "analyst", "list", "--db", hard},
		{"serve", "labels", "--db", hard, "--name", "autoworkers", "--labels", labels},
	} {
		out, msg, code := run(t, args...)
		want := fmt.Sprintf("process %d", s.cmd.Process.Pid)
		if code != 2 || !strings.Contains(msg, hard) || !strings.Contains(msg, want) || !strings.Contains(msg, "another name") {
			t.Errorf("%s %s through a hard link: exit %d %q %q, want 2 naming %s and %s", args[1], args[2], code, out, msg, hard, want)
		}
	}
	if p := runSdcopt(t, dir, "serve", "--db", hard, "--addr", "127.0.0.1:0", "--quiet"); p.code != 2 {
		t.Errorf("second server through a hard link: exit %d %q", p.code, p.stderr)
	}
	// The server's own name, and a symbolic link to it, share its WAL.
	sym := filepath.Join(dir, "sym.db")
	if err := os.Symlink("sdc.db", sym); err != nil {
		t.Fatal(err)
	}
	loadTables(t, db, csv, "second")
	loadTables(t, sym, csv, "third")
	if out, msg, code := run(t, "serve", "analyst", "add", "--db", db, "carol"); code != 0 {
		t.Errorf("analyst add beside the server: exit %d %q %q", code, out, msg)
	}
	ctx := context.Background()
	for _, name := range []string{"second", "third"} {
		if d, _, err := s.client.Request(ctx, name, []string{"B", "F"}, "", "k-"+name, ""); err != nil || d.Outcome != audit.Released {
			t.Errorf("table %s loaded beside the server: %+v %v", name, d, err)
		}
	}
	if _, err := s.client.Releases(ctx, "aw2"); apiStatus(err) != http.StatusNotFound {
		t.Errorf("aw2 (refused) is served: %v", err)
	}
	s.stop(t)
	// Without a server, the hard link is an ordinary name of the file.
	if out, msg, code := run(t, "serve", "analyst", "list", "--db", hard); code != 0 || !strings.Contains(out, "carol") {
		t.Errorf("analyst list through the hard link, no server: exit %d %q %q", code, out, msg)
	}
}

// Issue 44, item 6: --trust-header is taken only from --trusted-proxy
// (default loopback); bad proxy addresses, --trusted-proxy without
// --trust-header and the built-in names as analysts are refused (exit 2).
func TestServeTrustedProxy(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	loadTables(t, db, csv, "autoworkers")
	for _, name := range []string{"operator", "anonymous", "Anonymous"} {
		if _, msg, code := run(t, "serve", "analyst", "add", "--db", db, name); code != 2 || !strings.Contains(msg, "reserved") {
			t.Errorf("serve analyst add %s: exit %d %q, want 2", name, code, msg)
		}
	}
	for _, args := range [][]string{
		{"--trust-header", "X-Remote-User", "--trusted-proxy", "10.0.0.300"},
		{"--trust-header", "X-Remote-User", "--trusted-proxy", "proxy.example"},
		{"--trusted-proxy", "127.0.0.1"},
	} {
		if _, msg, code := run(t, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--quiet"}, args...)...); code != 2 || !strings.Contains(msg, "--trusted-proxy") {
			t.Errorf("serve %v: exit %d %q, want 2", args, code, msg)
		}
	}
	ask := func(s *testServer, user, key string) int {
		req, _ := http.NewRequest("POST", s.client.Base+"/v1/tables/autoworkers/requests",
			strings.NewReader(`{"margin": "B:F", "idempotency_key": "`+key+`"}`))
		req.Header.Set("X-Remote-User", user)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	// Loopback is trusted by default; a proxy elsewhere makes it not.
	s := startServerArgs(t, db, "--trust-header", "X-Remote-User")
	if code := ask(s, "carol", "k1"); code != http.StatusOK {
		t.Errorf("from loopback by default: %d", code)
	}
	if code := ask(s, "anonymous", "k2"); code != http.StatusBadRequest {
		t.Errorf("X-Remote-User: anonymous: %d", code)
	}
	s.stop(t)
	s = startServerArgs(t, db, "--trust-header", "X-Remote-User", "--trusted-proxy", "192.0.2.0/24", "--trusted-proxy", "2001:db8::1")
	if code := ask(s, "mallory", "k3"); code != http.StatusForbidden {
		t.Errorf("from loopback, proxies elsewhere: %d", code)
	}
	logs, err := s.client.AuditLog(context.Background(), "autoworkers")
	if err != nil || len(logs) != 1 || logs[0].Requester != "carol" {
		t.Errorf("decisions: %+v %v", logs, err)
	}
}
