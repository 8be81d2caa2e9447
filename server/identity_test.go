package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Issue 44, item 6: the proxy's header is taken only from the trusted
// proxies (by default loopback), the built-in names "operator" and
// "anonymous" are nobody's (in the header, so that --require-analyst
// cannot be passed with "H: anonymous", and as analysts' names), and the
// log says by which kind of identity each request came.
func TestTrustHeaderPeers(t *testing.T) {
	f := identityFixture(t, Config{TrustHeader: "X-Remote-User", RequireIdentity: true})
	h := f.srv.Config.Handler
	cases := []struct {
		remote, user string
		status       int
	}{
		{"127.0.0.1:5000", "carol", http.StatusOK},
		{"[::1]:5000", "dave", http.StatusOK},
		{"192.0.2.7:5000", "mallory", http.StatusForbidden},
		{"[2001:db8::7]:5000", "mallory", http.StatusForbidden},
		{"127.0.0.1:5000", "anonymous", http.StatusBadRequest},
		{"127.0.0.1:5000", "Anonymous", http.StatusBadRequest},
		{"127.0.0.1:5000", "operator", http.StatusBadRequest},
		{"192.0.2.7:5000", "", http.StatusUnauthorized}, // anonymous, refused by --require-analyst
	}
	for i, c := range cases {
		body := fmt.Sprintf(`{"margin": "A", "idempotency_key": "k%d"}`, i)
		req := httptest.NewRequest("POST", "/v1/tables/conf/requests", strings.NewReader(body))
		req.RemoteAddr = c.remote
		if c.user != "" {
			req.Header.Set("X-Remote-User", c.user)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Errorf("%s from %s: %d %s, want %d", c.user, c.remote, rec.Code, rec.Body, c.status)
		}
	}
	ctx := context.Background()
	logs, err := f.client.AuditLog(ctx, "conf")
	var got []string
	for _, l := range logs {
		got = append(got, l.Requester)
	}
	if err != nil || strings.Join(got, ",") != "carol,dave" {
		t.Errorf("decisions recorded for %v (%v), want carol and dave", got, err)
	}
	for _, name := range []string{"operator", "anonymous", "ANONYMOUS", "Operator"} {
		if _, err := f.store.AddAnalyst(ctx, name); err == nil {
			t.Errorf("analyst %q accepted", name)
		}
	}
	// The kind of identity in the log: token, header, anonymous, operator.
	tok, err := f.store.AddAnalyst(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	ac := *f.client
	ac.AnalystToken = tok
	f.log.mu.Lock()
	f.log.b.Reset()
	f.log.mu.Unlock()
	ac.Request(ctx, "conf", []string{"A"}, "", "t1", "")
	requestAs(t, f, map[string]string{"X-Remote-User": "carol"}, `{"margin": "A", "idempotency_key": "t2"}`)
	f.client.Request(ctx, "conf", []string{"A"}, "", "t3", "bob")
	f.client.AuditLog(ctx, "conf")
	f.client.WhoAmI(ctx)
	lines := strings.Split(strings.TrimSuffix(f.log.String(), "\n"), "\n")
	want := []string{"requester=alice identity=token", "requester=carol identity=header", `requester="anonymous (bob)" identity=anonymous`,
		"requester=operator identity=operator", "requester=anonymous identity=anonymous"}
	if len(lines) != len(want) {
		t.Fatalf("%d log lines:\n%s", len(lines), f.log.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("log line %d %q lacks %q", i, lines[i], w)
		}
	}
}
