package server

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/audit"
)

// identityFixture is newFixture with a server configured by cfg (the
// admin token and log are set here).
func identityFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	f := newFixture(t, audit.DefaultPolicy())
	f.srv.Close()
	cfg.AdminToken, cfg.Log = token, log.New(f.log, "", 0)
	f.srv = httptest.NewServer(New(f.store, cfg).Handler())
	t.Cleanup(f.srv.Close)
	f.client = &Client{Base: f.srv.URL, Token: token}
	return f
}

func requestAs(t *testing.T, f *fixture, hdr map[string]string, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", f.srv.URL+"/v1/tables/conf/requests", strings.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Decisions record who asked: an analyst's token gives the analyst's
// name (whatever name the body claims), an anonymous request is recorded
// as anonymous with its claim in brackets; a wrong or revoked token is
// 401, never an anonymous request; the token is stored only hashed.
func TestAnalystTokens(t *testing.T) {
	f := identityFixture(t, Config{})
	ctx := context.Background()
	tok, err := f.store.AddAnalyst(ctx, "alice")
	if err != nil || !strings.HasPrefix(tok, analystTokenPrefix) {
		t.Fatalf("AddAnalyst: %q %v", tok, err)
	}
	if _, err := f.store.AddAnalyst(ctx, "alice"); err == nil {
		t.Error("a second token for one name")
	}
	for _, bad := range []string{"", "a b", "x\ny", strings.Repeat("n", 65)} {
		if _, err := f.store.AddAnalyst(ctx, bad); err == nil {
			t.Errorf("analyst name %q accepted", bad)
		}
	}
	var n int
	f.store.db.QueryRow(`SELECT COUNT(*) FROM analysts WHERE token_sha256 = ? AND name = 'alice'`, tokenHash(tok)).Scan(&n)
	var plain int
	f.store.db.QueryRow(`SELECT COUNT(*) FROM analysts WHERE token_sha256 = ? OR name = ?`, tok, tok).Scan(&plain)
	if n != 1 || plain != 0 {
		t.Errorf("token stored: %d rows by hash, %d in clear", n, plain)
	}
	ac := *f.client
	ac.AnalystToken = tok
	if id, err := ac.WhoAmI(ctx); err != nil || id.Requester != "alice" || id.Kind != KindAnalyst {
		t.Errorf("whoami with the token: %+v %v", id, err)
	}
	if _, _, err := ac.Request(ctx, "conf", []string{"A"}, "", "k1", "mallory"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.client.Request(ctx, "conf", []string{"B"}, "", "k2", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.client.Request(ctx, "conf", []string{"B"}, "", "k3", ""); err != nil {
		t.Fatal(err)
	}
	logs, err := f.client.AuditLog(ctx, "conf")
	if err != nil || len(logs) != 3 {
		t.Fatalf("audit log: %+v %v", logs, err)
	}
	for i, want := range []string{"alice", "anonymous (bob)", "anonymous"} {
		if logs[i].Requester != want {
			t.Errorf("decision %d recorded as %q, want %q", i, logs[i].Requester, want)
		}
	}
	// Wrong, malformed, revoked tokens: 401, nothing decided.
	if err := f.store.RevokeAnalyst(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if err := f.store.RevokeAnalyst(ctx, "alice"); err == nil {
		t.Error("revoking twice")
	}
	for _, h := range []string{"Bearer " + tok, "Bearer sdca_nosuchtoken", "Basic YWxpY2U6eA==", "Bearer "} {
		status, body := requestAs(t, f, map[string]string{"Authorization": h}, `{"margin": "A", "idempotency_key": "k9"}`)
		if status != http.StatusUnauthorized || !strings.Contains(body, "error") {
			t.Errorf("Authorization %q: %d %s", h, status, body)
		}
	}
	// An analyst's token does not open the operator's endpoints.
	bc := *f.client
	bc.Token = tok
	if _, err := bc.AuditLog(ctx, "conf"); status(err) != http.StatusUnauthorized || !strings.Contains(err.Error(), "analyst's token") {
		t.Errorf("analyst token on the operator's endpoint: %v", err)
	}
	as, err := f.client.Analysts(ctx)
	if err != nil || len(as) != 1 || as[0].Name != "alice" || as[0].RevokedAt == "" {
		t.Errorf("analysts: %+v %v", as, err)
	}
	_, body := f.do(t, "GET", "/v1/admin/analysts", "", true)
	if strings.Contains(body, tokenHash(tok)) || strings.Contains(body, tok) {
		t.Error("the analysts' list shows the token or its hash")
	}
	if logs, _ := f.client.AuditLog(ctx, "conf"); len(logs) != 3 {
		t.Errorf("refused requests decided: %d decisions", len(logs))
	}
	if strings.Contains(f.log.String(), tok) {
		t.Error("a token in the log")
	}
}

// --require-analyst: anonymous requests are 401 with what to do; reading
// stays open; a token or the proxy header passes.
func TestRequireIdentity(t *testing.T) {
	f := identityFixture(t, Config{RequireIdentity: true, TrustHeader: "X-Remote-User"})
	ctx := context.Background()
	if _, _, err := f.client.Request(ctx, "conf", []string{"A"}, "", "k1", "bob"); status(err) != http.StatusUnauthorized || !strings.Contains(err.Error(), "analyst token") {
		t.Errorf("anonymous request: %v", err)
	}
	if id, err := f.client.WhoAmI(ctx); err != nil || id.AnonymousAllowed || id.Kind != KindAnonymous {
		t.Errorf("whoami: %+v %v", id, err)
	}
	if _, err := f.client.Releases(ctx, "conf"); err != nil {
		t.Errorf("reading the releases: %v", err)
	}
	status, body := requestAs(t, f, map[string]string{"X-Remote-User": "carol@office"}, `{"margin": "A", "idempotency_key": "k2", "requester": "mallory"}`)
	if status != http.StatusOK {
		t.Fatalf("through the proxy: %d %s", status, body)
	}
	for _, bad := range []string{"carol office", "x\"y"} {
		if status, body := requestAs(t, f, map[string]string{"X-Remote-User": bad}, `{"margin": "A", "idempotency_key": "k3"}`); status != http.StatusBadRequest || !strings.Contains(body, "X-Remote-User") {
			t.Errorf("proxy header %q: %d %s", bad, status, body)
		}
	}
	logs, err := f.client.AuditLog(ctx, "conf")
	if err != nil || len(logs) != 1 || logs[0].Requester != "carol@office" {
		t.Errorf("audit log: %+v %v", logs, err)
	}
	// Without --trust-header the header means nothing.
	g := identityFixture(t, Config{})
	requestAs(t, g, map[string]string{"X-Remote-User": "carol"}, `{"margin": "A", "idempotency_key": "k4"}`)
	if logs, _ := g.client.AuditLog(ctx, "conf"); len(logs) != 1 || logs[0].Requester != "anonymous" {
		t.Errorf("untrusted header taken: %+v", logs)
	}
}

// A log line carries the requester, the table and the decision, each
// escaped; never a token.
func TestLogLineFields(t *testing.T) {
	f := identityFixture(t, Config{TrustHeader: "X-Remote-User"})
	ctx := context.Background()
	tok, _ := f.store.AddAnalyst(ctx, "alice")
	ac := *f.client
	ac.AnalystToken = tok
	ac.Request(ctx, "conf", []string{"A"}, "", "k1", "")
	f.client.Request(ctx, "conf", []string{"A", "B"}, "", "k2", "evil\nname \"x\"")
	f.client.AuditLog(ctx, "conf")
	lines := strings.Split(strings.TrimSuffix(f.log.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines:\n%s", len(lines), f.log.String())
	}
	// identity= since issue 44, item 6.
	want := []*regexp.Regexp{
		regexp.MustCompile(`^POST /v1/tables/conf/requests 200 [0-9.]+ ms table=conf requester=alice identity=token decision=released$`),
		regexp.MustCompile(`^POST /v1/tables/conf/requests 200 [0-9.]+ ms table=conf requester="anonymous \(evil\\nname \\"x\\"\)" identity=anonymous decision=denied$`),
		regexp.MustCompile(`^GET /v1/admin/tables/conf/audit 200 [0-9.]+ ms requester=operator identity=operator table=conf$`),
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d: %q", i, lines[i])
		}
	}
	if strings.Contains(f.log.String(), tok) || strings.Contains(f.log.String(), token) {
		t.Error("a token in the log")
	}
}

// Labels: JSON and CSV files read, errors name the file, line and field,
// unknown variables and levels refused, labels shown in the public
// description.
func TestLabels(t *testing.T) {
	tab := confidential(t)
	j, err := ParseLabels(strings.NewReader(`{"A": {"label": "Smoker", "levels": {"x": "no", "y": "yes"}}}`), "l.json")
	if err != nil || j["A"].Label != "Smoker" || j["A"].Levels["y"] != "yes" {
		t.Fatalf("JSON labels: %+v %v", j, err)
	}
	c, err := ParseLabels(strings.NewReader("\ufeffvariable,level,label\nA,,Smoker\nA,x,no\nA,y,yes\nB,,\"Region, 2026\"\n"), "l.csv")
	if err != nil || c["A"].Label != "Smoker" || c["A"].Levels["x"] != "no" || c["B"].Label != "Region, 2026" {
		t.Fatalf("CSV labels: %+v %v", c, err)
	}
	if err := c.Check(tab.Vars); err != nil {
		t.Error(err)
	}
	bad := []struct{ text, msg string }{
		{"variable,level\nA,x\n", "l.csv"},
		{"var,level,label\nA,x,no\n", "line 1"},
		{"variable,level,label\nA,x,no\nA,x,again\n", "line 3"},
		{"variable,level,label\n,x,no\n", "line 2: field variable"},
		{`{"A": {"label": 3}}`, "l.csv"},
		{`{"A": {"title": "x"}}`, "unknown field"},
		{"variable,level,label\nA,," + strings.Repeat("x", 300) + "\n", "longer than"},
		{"variable,level,label\nA,,\xff\n", "UTF-8"},
	}
	for _, b := range bad {
		if _, err := ParseLabels(strings.NewReader(b.text), "l.csv"); err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("%q: %v, want an error containing %q", b.text, err, b.msg)
		}
	}
	for _, l := range []Labels{{"Z": {Label: "z"}}, {"A": {Levels: map[string]string{"q": "no such level"}}}} {
		if err := l.Check(tab.Vars); err == nil {
			t.Errorf("labels %+v accepted", l)
		}
	}
	store, err := Open(filepath.Join(t.TempDir(), "sdc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if err := store.LoadLabeledTable(ctx, "bad", tab, audit.DefaultPolicy(), Labels{"Z": {}}, "x", nil); err == nil {
		t.Error("a table loaded with labels of an unknown variable")
	}
	if ts, _ := store.Tables(ctx); len(ts) != 0 {
		t.Errorf("refused labels left a table: %d", len(ts))
	}
	if err := store.LoadLabeledTable(ctx, "conf", tab, audit.DefaultPolicy(), Labels{"A": {Label: "Smoker", Levels: map[string]string{"y": "yes"}}}, "x", nil); err != nil {
		t.Fatal(err)
	}
	info, err := store.Table(ctx, "conf")
	if err != nil {
		t.Fatal(err)
	}
	a, b := info.Public().Variables[0], info.Public().Variables[1]
	if a.Label != "Smoker" || len(a.LevelLabels) != 2 || a.LevelLabels[0] != "" || a.LevelLabels[1] != "yes" || b.Label != "" || b.LevelLabels != nil {
		t.Errorf("variables: %+v %+v", a, b)
	}
	if err := store.SetLabels(ctx, "conf", Labels{"B": {Label: "Region"}}); err != nil {
		t.Fatal(err)
	}
	if info, _ := store.Table(ctx, "conf"); info.Variables[0].Label != "" || info.Variables[1].Label != "Region" {
		t.Errorf("after SetLabels: %+v", info.Variables)
	}
}

// A release downloads as CSV: the margin's levels and counts, a
// simulated one marked on every row; unknown releases 404, bad numbers 400.
func TestReleaseCSV(t *testing.T) {
	f := newFixture(t, audit.Policy{Small: 3, MinWidth: 3, AllowSimulate: true})
	ctx := context.Background()
	if d, _, err := f.client.Request(ctx, "conf", []string{"A"}, "", "k1", ""); err != nil || d.Outcome != audit.Released {
		t.Fatalf("[A]: %+v %v", d, err)
	}
	if d, _, err := f.client.Request(ctx, "conf", []string{"A", "B"}, audit.ModeSimulate, "k2", ""); err != nil || d.Outcome != audit.Simulated {
		t.Fatalf("[AB] simulated: %+v %v", d, err)
	}
	resp, err := http.Get(f.srv.URL + "/v1/tables/conf/releases/1/csv")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// A x B = [[1, 5], [4, 6]]: the margin of A is 1+5 = 6 and 4+6 = 10.
	if string(b) != "A,count\nx,6\ny,10\n" || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename="conf-release-1-A.csv"`) ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("release 1: %q %v", b, resp.Header)
	}
	status, body := f.do(t, "GET", "/v1/tables/conf/releases/2/csv", "", false)
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if status != 200 || len(lines) != 5 || lines[0] != "A,B,count,note" || !strings.HasSuffix(lines[1], ",SIMULATED, NOT DATA") && !strings.HasSuffix(lines[1], `,"SIMULATED, NOT DATA"`) {
		t.Errorf("simulated release: %d %q", status, body)
	}
	for path, want := range map[string]int{"/v1/tables/conf/releases/3/csv": 404, "/v1/tables/conf/releases/0/csv": 400,
		"/v1/tables/conf/releases/x/csv": 400, "/v1/tables/nosuch/releases/1/csv": 404} {
		if status, body := f.do(t, "GET", path, "", false); status != want || !strings.Contains(body, "error") {
			t.Errorf("%s: %d %s, want %d", path, status, body, want)
		}
	}
}

// The policy in words states each rule with the policy's numbers.
func TestPolicyText(t *testing.T) {
	for _, c := range []struct {
		p    audit.Policy
		want []string
		not  []string
	}{
		{audit.DefaultPolicy(), []string{"worked out exactly", "from 1 to 2 must stay within a range at least 3 wide", "not offered"}, []string{"%"}},
		{audit.Policy{Small: 5, MinWidth: 4, MinRelWidth: 0.25, AllowSimulate: true}, []string{"from 1 to 4", "at least 4 wide", "of 5 or more", "25% of its value", "Simulated answers are offered", "NOT DATA"}, nil},
		{audit.Policy{Small: 2, MinWidth: 2}, []string{"a count of 1 must stay"}, nil},
		{audit.Policy{Small: 0, MinWidth: 0, MinRelWidth: 0.1}, []string{"every count within a range at least 10%"}, []string{"from 1 to"}},
	} {
		got := PolicyText(c.p)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: %q lacks %q", c.p, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%+v: %q has %q", c.p, got, w)
			}
		}
	}
}

// The pages: served with a strict content security policy, no inline
// script or style (the policy would block them), no external asset.
func TestPagesSelfContained(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	inline := regexp.MustCompile(`<script>|<style|\sstyle="|\son[a-z]+="`)
	external := regexp.MustCompile(`(src|href)="(https?:)?//`)
	for _, p := range []string{"/", "/operator.html", "/app.js", "/operator.js", "/common.js", "/style.css"} {
		resp, err := http.Get(f.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %d, CSP %q", p, resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
		}
		if strings.HasSuffix(p, "html") || p == "/" {
			if inline.Match(b) || external.Match(b) {
				t.Errorf("%s has inline code or an external asset", p)
			}
		}
		if strings.Contains(string(b), `requester: "web"`) {
			t.Errorf("%s still sends a hard-coded requester", p)
		}
	}
}

// The operator labels a table already loaded over HTTP; bad labels are
// 400 and change nothing; anonymous callers cannot.
func TestSetLabelsEndpoint(t *testing.T) {
	f := newFixture(t, audit.DefaultPolicy())
	if status, body := f.do(t, "PUT", "/v1/admin/tables/conf/labels", "variable,level,label\nA,,Smoker\nA,y,yes\n", false); status != http.StatusUnauthorized {
		t.Errorf("anonymous: %d %s", status, body)
	}
	if status, body := f.do(t, "PUT", "/v1/admin/tables/conf/labels", "variable,level,label\nA,,Smoker\nA,y,yes\n", true); status != 200 || !strings.Contains(body, `"Smoker"`) {
		t.Errorf("labels: %d %s", status, body)
	}
	for _, bad := range []string{`{"Q": {"label": "x"}}`, "variable,level,label\nA,z,no such level\n", "not,labels\n"} {
		if status, body := f.do(t, "PUT", "/v1/admin/tables/conf/labels", bad, true); status != http.StatusBadRequest || !strings.Contains(body, "labels") {
			t.Errorf("%q: %d %s", bad, status, body)
		}
	}
	if status, _ := f.do(t, "PUT", "/v1/admin/tables/nosuch/labels", "{}", true); status != http.StatusNotFound {
		t.Errorf("unknown table: %d", status)
	}
	tabs, err := f.client.Tables(context.Background())
	if err != nil || tabs[0].Variables[0].Label != "Smoker" || tabs[0].Variables[0].LevelLabels[1] != "yes" {
		t.Errorf("public description after the bad updates: %+v %v", tabs, err)
	}
}
