package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/internal/filelock"
	"github.com/sdcopt/sdcopt/model"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

const token = "in-package-test-token-0123456789"

// confidential is the 2 x 2 table A x B with counts [[1, 5], [4, 6]]
// (row-major), its CSV and the path it is said to come from.
const (
	confidentialCSV  = "A,B,count\nx,x,1\nx,y,5\ny,x,4\ny,y,6\n"
	confidentialPath = "/srv/secret/confidential-2026.csv"
)

func confidential(t *testing.T) *model.Table {
	t.Helper()
	bin := []string{"x", "y"}
	tab, err := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}}, []int64{1, 5, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fixture is a Server over a fresh database with the table "conf" loaded
// under policy pol, behind an httptest server.
type fixture struct {
	store  *Store
	srv    *httptest.Server
	client *Client
	log    *syncBuffer
}

func newFixture(t *testing.T, pol audit.Policy) *fixture {
	t.Helper()
	store, err := Open(filepath.Join(t.TempDir(), "sdc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.LoadTable(context.Background(), "conf", confidential(t), pol, confidentialPath, []byte(confidentialCSV)); err != nil {
		t.Fatal(err)
	}
	buf := &syncBuffer{}
	srv := httptest.NewServer(New(store, Config{AdminToken: token, Log: log.New(buf, "", 0)}).Handler())
	t.Cleanup(srv.Close)
	return &fixture{store: store, srv: srv, client: &Client{Base: srv.URL, Token: token}, log: buf}
}

// do sends a request and returns the status and the body.
func (f *fixture) do(t *testing.T, method, path, body string, admin bool) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if admin {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func status(err error) int {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return 0
}

// Anonymous answers and the page's data carry no path, hash or file
// metadata of the confidential table; the operator's endpoints do.
func TestAnonymousSeesNoFileMetadata(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	sum := sha256.Sum256([]byte(confidentialCSV))
	hash := hex.EncodeToString(sum[:])
	secrets := []string{hash, confidentialPath, "confidential-2026", "sha256", "source", "loaded_at"}
	for _, path := range []string{"/v1/tables", "/v1/tables/conf", "/v1/tables/conf/releases", "/", "/app.js"} {
		code, body := f.do(t, "GET", path, "", false)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, code, body)
		}
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("GET %s shows %q:\n%s", path, s, body)
			}
		}
	}
	for _, path := range []string{"/v1/admin/tables", "/v1/admin/tables/conf"} {
		code, body := f.do(t, "GET", path, "", true)
		if code != http.StatusOK || !strings.Contains(body, hash) || !strings.Contains(body, confidentialPath) {
			t.Errorf("operator GET %s: %d %s", path, code, body)
		}
		if code, _ := f.do(t, "GET", path, "", false); code != http.StatusUnauthorized {
			t.Errorf("anonymous GET %s: %d", path, code)
		}
	}
	tabs, err := f.client.Tables(context.Background())
	if err != nil || len(tabs) != 1 || tabs[0].Name != "conf" || tabs[0].Cells != 4 || len(tabs[0].Variables) != 2 {
		t.Errorf("public listing: %+v %v", tabs, err)
	}
}

// A policy update merges into the current policy: for every subset of the
// fields, each field left out (or null) keeps its value, so no omission
// weakens the policy; {} changes nothing.
func TestPolicyUpdateNeverWeakensByOmission(t *testing.T) {
	strong := audit.Policy{Small: 5, MinWidth: 4, MinRelWidth: 0.3, AllowSimulate: false}
	f := newFixture(t, strong)
	ctx := context.Background()
	fields := []string{`"small": 9`, `"min_width": 7`, `"min_rel_width": 0.6`, `"allow_simulate": false`}
	for mask := 0; mask < 1<<len(fields); mask++ {
		// Reset to the strong policy, then send only the fields of mask.
		if err := f.client.SetPolicy(ctx, "conf", strong); err != nil {
			t.Fatal(err)
		}
		var parts []string
		want := strong
		for i, fl := range fields {
			if mask&(1<<i) == 0 {
				continue
			}
			parts = append(parts, fl)
			switch i {
			case 0:
				want.Small = 9
			case 1:
				want.MinWidth = 7
			case 2:
				want.MinRelWidth = 0.6
			}
		}
		code, body := f.do(t, "PUT", "/v1/admin/tables/conf/policy", "{"+strings.Join(parts, ", ")+"}", true)
		if code != http.StatusOK {
			t.Fatalf("fields %v: %d %s", parts, code, body)
		}
		got, err := f.store.Table(ctx, "conf")
		if err != nil {
			t.Fatal(err)
		}
		if got.Policy != want {
			t.Errorf("fields %v: policy %+v, want %+v", parts, got.Policy, want)
		}
		if got.Policy.Small < strong.Small || got.Policy.MinWidth < strong.MinWidth || got.Policy.MinRelWidth < strong.MinRelWidth || got.Policy.AllowSimulate {
			t.Errorf("fields %v weakened the policy: %+v", parts, got.Policy)
		}
	}
	// Nulls are omissions; {} records nothing new.
	if err := f.client.SetPolicy(ctx, "conf", strong); err != nil {
		t.Fatal(err)
	}
	var before int
	f.store.db.QueryRow(`SELECT COUNT(*) FROM policies`).Scan(&before)
	for _, body := range []string{`{}`, `{"small": null, "min_width": null, "min_rel_width": null, "allow_simulate": null}`} {
		code, ans := f.do(t, "PUT", "/v1/admin/tables/conf/policy", body, true)
		var pa PolicyAnswer
		json.Unmarshal([]byte(ans), &pa)
		if code != http.StatusOK || pa.Policy != strong || pa.PolicyVersion != strong.Version() {
			t.Errorf("%s: %d %s", body, code, ans)
		}
	}
	var after int
	f.store.db.QueryRow(`SELECT COUNT(*) FROM policies`).Scan(&after)
	if after != before {
		t.Errorf("updates that change nothing recorded %d policies", after-before)
	}
	// Refused, nothing changed: unknown fields, wrong types, bad values.
	for _, body := range []string{`{"smal": 1}`, `{"small": "4"}`, `{"min_width": -1}`, `{"min_rel_width": 2}`, `[]`} {
		if code, ans := f.do(t, "PUT", "/v1/admin/tables/conf/policy", body, true); code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", body, code, ans)
		}
	}
	if got, _ := f.store.Table(ctx, "conf"); got.Policy != strong {
		t.Errorf("refused updates changed the policy: %+v", got.Policy)
	}
	if code, _ := f.do(t, "PUT", "/v1/admin/tables/conf/policy", `{"small": 1}`, false); code != http.StatusUnauthorized {
		t.Errorf("anonymous policy update: %d", code)
	}
}

// Simulate mode is refused until the operator allows it; then every
// answer that comes from the simulated table says it is not data, also
// later answers in release mode that it implies, and the table's
// description and release list say so.
func TestSimulationNeedsOperatorAndSaysSo(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	ctx := context.Background()
	c := f.client
	whole := []string{"A", "B"}
	_, _, err := c.Request(ctx, "conf", whole, audit.ModeSimulate, "s1", "")
	if status(err) != http.StatusForbidden || !strings.Contains(err.Error(), "operator") {
		t.Fatalf("simulate under the default policy: %v", err)
	}
	if rel, _ := c.Releases(ctx, "conf"); len(rel) != 0 {
		t.Fatalf("a refused request released %v", rel)
	}
	if log, _ := c.AuditLog(ctx, "conf"); len(log) != 0 {
		t.Fatalf("a refused request was logged as a decision: %v", log)
	}
	// The true whole table is denied in release mode (cell count 1).
	if d, _, err := c.Request(ctx, "conf", whole, audit.ModeRelease, "r1", ""); err != nil || d.Outcome != audit.Denied || d.Notice != "" {
		t.Fatalf("whole table: %+v %v", d, err)
	}
	allow := true
	if p, err := c.UpdatePolicy(ctx, "conf", audit.PolicyUpdate{AllowSimulate: &allow}); err != nil || !p.AllowSimulate || p.Small != 3 {
		t.Fatalf("operator allows simulation: %+v %v", p, err)
	}
	// Nothing released yet: not even the total is public, so nothing is
	// simulated (issue 44, item 5; this test used to expect a table
	// simulated with the confidential total). The same key now refers to
	// a decided request: a new key.
	if d, _, err := c.Request(ctx, "conf", whole, audit.ModeSimulate, "s2", ""); err != nil || d.Outcome != audit.Denied || d.Counts != nil {
		t.Fatalf("simulate with nothing released: %+v %v", d, err)
	}
	if d, _, err := c.Request(ctx, "conf", []string{"A"}, audit.ModeRelease, "r0", ""); err != nil || d.Outcome != audit.Released {
		t.Fatalf("[A]: %+v %v", d, err)
	}
	d, _, err := c.Request(ctx, "conf", whole, audit.ModeSimulate, "s3", "")
	if err != nil || d.Outcome != audit.Simulated || !d.Simulated || !strings.Contains(d.Notice, "NOT DATA") {
		t.Fatalf("simulate after the operator allowed it: %+v %v", d, err)
	}
	// A release-mode request implied by the simulated table: simulated,
	// and it says so (also on a retry).
	for i := 0; i < 2; i++ {
		d, replay, err := c.Request(ctx, "conf", []string{"B"}, audit.ModeRelease, "r2", "")
		if err != nil || d.Outcome != audit.Simulated || !strings.Contains(d.Notice, "NOT DATA") || replay != (i == 1) {
			t.Errorf("implied request (try %d): %+v replay %t %v", i, d, replay, err)
		}
	}
	tabs, _ := c.Tables(ctx)
	if len(tabs) != 1 || tabs[0].Releases != 3 || tabs[0].SimulatedReleases != 2 || !strings.Contains(tabs[0].Notice, "SIMULATED, NOT DATA") {
		t.Errorf("table description: %+v", tabs)
	}
	code, body := f.do(t, "GET", "/v1/tables/conf/releases", "", false)
	var rl ReleaseList
	json.Unmarshal([]byte(body), &rl)
	if code != http.StatusOK || len(rl.Releases) != 3 || !strings.Contains(rl.Notice, "NOT DATA") {
		t.Errorf("releases: %d %s", code, body)
	}
}

// Request paths and values are escaped in the log: a %0a (or %0d) in a
// path cannot start a new log line or forge a field.
func TestLogLinesEscaped(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	paths := []string{
		"/v1/tables/x%0a2026/01/01%2000:00:00%20GET%20/v1/admin%20200/releases",
		"/v1/tables/x%0d%0aFORGED/releases",
		"/v1/tables/%22quoted%22%20name",
		"/v1/tables/conf",
	}
	for _, p := range paths {
		req, err := http.NewRequest("GET", f.srv.URL+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.URL.RawPath, req.URL.Path = "", "" // set Opaque so the client sends the path as written
		req.URL.Opaque = p
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	lines := strings.Split(strings.TrimSuffix(f.log.String(), "\n"), "\n")
	if len(lines) != len(paths) {
		t.Fatalf("%d requests gave %d log lines:\n%s", len(paths), len(lines), f.log.String())
	}
	// One line per request, of the form "METHOD PATH STATUS TIME ms" with
	// no space or control character inside the path.
	// The fields after it are key=value, a value with a space or quote
	// Go-quoted.
	line := regexp.MustCompile(`^GET [!-~]+ [0-9]{3} [0-9.]+ ms( [a-z]+=([!-~]+|"([^"\\]|\\.)*"))*$`)
	for i, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("line %d: %q", i, l)
		}
	}
	if !strings.Contains(lines[0], "x%0A2026") && !strings.Contains(lines[0], "x%0a2026") {
		t.Errorf("the newline is not shown escaped: %q", lines[0])
	}
}

// The body limit holds whatever follows the JSON value: 5 MB of spaces
// after a valid request is 413, nothing decided.
func TestBodyLimitNotBypassed(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	pad := strings.Repeat(" ", 5<<20)
	for _, c := range []struct{ path, body string }{
		{"/v1/tables/conf/requests", `{"margin": "A", "idempotency_key": "big"}` + pad},
		{"/v1/tables/conf/requests", pad + `{"margin": "A", "idempotency_key": "big"}`},
		{"/v1/tables/conf/requests", `{"margin": "A", "idempotency_key": "big"}` + strings.Repeat("\n\t", 40<<10)},
	} {
		code, body := f.do(t, "POST", c.path, c.body, false)
		if code != http.StatusRequestEntityTooLarge {
			t.Errorf("%d-byte body: %d %s", len(c.body), code, body)
		}
	}
	if code, body := f.do(t, "PUT", "/v1/admin/tables/conf/policy", `{"small": 1}`+pad, true); code != http.StatusRequestEntityTooLarge {
		t.Errorf("policy with padding: %d %s", code, body)
	}
	if log, _ := f.client.AuditLog(context.Background(), "conf"); len(log) != 0 {
		t.Errorf("oversized requests were decided: %d", len(log))
	}
	// Just under the limit with padding is fine.
	body := `{"margin": "A", "idempotency_key": "ok"}`
	if code, ans := f.do(t, "POST", "/v1/tables/conf/requests", body+strings.Repeat(" ", 64<<10-len(body)), false); code != http.StatusOK {
		t.Errorf("64 KiB body: %d %s", code, ans)
	}
}

// An idempotent retry with the margin's variables in another order (or
// written as a list instead of "A:B") is the same request.
func TestIdempotencyMarginOrder(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	post := func(body string) (int, string, bool) {
		req, _ := http.NewRequest("POST", f.srv.URL+"/v1/tables/conf/requests", strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header.Get("Idempotent-Replay") == "true"
	}
	code, first, replay := post(`{"margin": "B:A", "idempotency_key": "k"}`)
	if code != http.StatusOK || replay {
		t.Fatalf("first: %d %s", code, first)
	}
	for _, retry := range []string{`{"margin": "A:B", "idempotency_key": "k"}`, `{"margin": ["B", "A"], "idempotency_key": "k"}`,
		`{"margin": ["A", "B"], "mode": "release", "idempotency_key": "k"}`} {
		code, body, replay := post(retry)
		if code != http.StatusOK || !replay || body != first {
			t.Errorf("retry %s: %d replay %t %s", retry, code, replay, body)
		}
	}
	for _, other := range []string{`{"margin": "A", "idempotency_key": "k"}`, `{"margin": "A:B", "mode": "simulate", "idempotency_key": "k"}`} {
		if code, body, _ := post(other); code != http.StatusConflict {
			t.Errorf("another request with the key %s: %d %s", other, code, body)
		}
	}
	// A request stored before margins were put in table order.
	tab := confidential(t)
	if !sameRequest(tab, `{"margin":["B","A"],"mode":"release"}`, canonicalRequest(tab, []string{"A", "B"}, "release")) {
		t.Error("a stored request in another order is not recognized")
	}
}

// The cause of a 500 is logged (the client gets only "internal error").
func TestInternalErrorLogged(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	f.store.db.Close()
	code, body := f.do(t, "GET", "/v1/tables", "", false)
	if code != http.StatusInternalServerError || strings.Contains(body, "closed") {
		t.Errorf("closed database: %d %s", code, body)
	}
	if !strings.Contains(f.log.String(), "GET /v1/tables 500: ") || !strings.Contains(f.log.String(), "database is closed") {
		t.Errorf("log lacks the cause:\n%s", f.log.String())
	}
}

// Open refuses a file that is not SQLite, another application's database
// and a corrupted one; it accepts an empty file and its own databases.
func TestOpenChecksTheDatabase(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()

	foreign := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(foreign)
	if _, err := Open(foreign); !errors.Is(err, ErrDatabase) || !strings.Contains(err.Error(), "customers") {
		t.Errorf("foreign database: %v", err)
	}
	if after, _ := os.ReadFile(foreign); !bytes.Equal(before, after) {
		t.Error("the foreign database was changed")
	}

	text := filepath.Join(dir, "notes.db")
	os.WriteFile(text, []byte(strings.Repeat("not a database\n", 400)), 0o644)
	if _, err := Open(text); !errors.Is(err, ErrDatabase) {
		t.Errorf("text file: %v", err)
	}

	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	s, err := Open(empty)
	if err != nil {
		t.Fatalf("empty file: %v", err)
	}
	if err := s.LoadTable(ctx, "conf", confidential(t), audit.DefaultPolicy(), "x.csv", []byte(confidentialCSV)); err != nil {
		t.Fatal(err)
	}
	// Enough rows that the tables span several pages.
	for i := 0; i < 200; i++ {
		if err := s.SetPolicy(ctx, "conf", audit.Policy{Small: int64(3 + i%5), MinWidth: 3}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = Open(empty) // its own database, reopened
	if err != nil {
		t.Fatalf("reopening: %v", err)
	}
	s.Close()

	// Overwrite the last page (a leaf of the policies table, the one that
	// grew last) with garbage, its header included.
	data, _ := os.ReadFile(empty)
	const page = 4096
	if len(data) < 4*page || data[len(data)-page] != 13 {
		t.Fatalf("database of %d bytes whose last page has type %d, want several pages and a table leaf (13)", len(data), data[len(data)-page])
	}
	for i := len(data) - page; i < len(data); i++ {
		data[i] = byte(i*7 + 3)
	}
	corrupt := filepath.Join(dir, "corrupt.db")
	os.WriteFile(corrupt, data, 0o600)
	if _, err := Open(corrupt); !errors.Is(err, ErrDatabase) || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("corrupted database: %v", err)
	}
}

// One server per database: a second OpenExclusive is refused (a flock
// belongs to the open file description, so this holds within one
// process too); after Close the database is free again.
func TestOpenExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sdc.db")
	s, err := OpenExclusive(path)
	if err != nil {
		t.Fatal(err)
	}
	var busy *filelock.BusyError
	if _, err := OpenExclusive(path); !errors.As(err, &busy) {
		t.Fatalf("second server: %v", err)
	}
	// serve load beside the running server still works.
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.LoadTable(context.Background(), "conf", confidential(t), audit.DefaultPolicy(), "x.csv", nil); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if tabs, err := s.Tables(context.Background()); err != nil || len(tabs) != 1 {
		t.Errorf("the server sees the loaded table: %d %v", len(tabs), err)
	}
	// Issue 44, item 2: another name of the file (a hard link) has its
	// own write-ahead log; it is refused while the server runs.
	hard := filepath.Join(filepath.Dir(path), "hard.db")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	var inUse *InUseError
	if _, err := Open(hard); !errors.As(err, &inUse) || inUse.Path != hard {
		t.Errorf("Open through a hard link beside the server: %v", err)
	}
	s.Close()
	if _, err := os.Stat(ServingFile(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the serving file outlives the server: %v", err)
	}
	// A Store opened while no server runs keeps one from starting.
	l, err = Open(hard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenExclusive(path); !errors.As(err, &busy) {
		t.Errorf("a server beside an open Store: %v", err)
	}
	l.Close()
	s2, err := OpenExclusive(path)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	s2.Close()
}

func TestCheckName(t *testing.T) {
	for _, n := range []string{"", ".", "..", "a/b", "a b", "ü", strings.Repeat("x", 65)} {
		if err := CheckName(n); !errors.Is(err, ErrName) {
			t.Errorf("%q: %v", n, err)
		}
	}
	for _, n := range []string{"a", "...", "t.1", "A-b_c"} {
		if err := CheckName(n); err != nil {
			t.Errorf("%q: %v", n, err)
		}
	}
	if code, _ := newFixture(t, audit.DefaultPolicy()).do(t, "PUT", "/v1/admin/tables/..", confidentialCSV, true); code < 400 {
		t.Errorf("PUT ..: %d", code)
	}
}

// The fixture's server decides: [A] of the 2 x 2 table is released with
// the row sums 1+5 and 4+6.
func TestFixtureDecides(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	d, _, err := f.client.Request(context.Background(), "conf", []string{"A"}, "", "a", "")
	if err != nil || d.Outcome != audit.Released || !slices.Equal(d.Counts, []int64{6, 10}) {
		t.Errorf("[A]: %+v %v", d, err)
	}
}
