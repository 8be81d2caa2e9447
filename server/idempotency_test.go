package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Issue 44, item 20: the idempotency key's limit counts characters, as
// its message says (it counted bytes), and a key that is not valid UTF-8
// (in the body, the header, or as an unpaired surrogate escape) is
// refused: decoding made every such key U+FFFD, so two different keys
// collided and the second got the first's decision.
func TestIdempotencyKeyText(t *testing.T) {
	f := identityFixture(t, Config{})
	h := f.srv.Config.Handler
	send := func(body, header string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/v1/tables/conf/requests", strings.NewReader(body))
		if header != "" {
			req.Header.Set("Idempotency-Key", header)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	e128, e129 := strings.Repeat("é", 128), strings.Repeat("é", 129)
	cases := []struct {
		name, body, header string
		status             int
	}{
		{"128 two-byte characters", `{"margin": "A", "idempotency_key": "` + e128 + `"}`, "", http.StatusOK},
		{"129 two-byte characters", `{"margin": "A", "idempotency_key": "` + e129 + `"}`, "", http.StatusBadRequest},
		{"128 ASCII", `{"margin": "A", "idempotency_key": "` + strings.Repeat("k", 128) + `"}`, "", http.StatusOK},
		{"129 ASCII", `{"margin": "A", "idempotency_key": "` + strings.Repeat("k", 129) + `"}`, "", http.StatusBadRequest},
		{"header of 128 characters", `{"margin": "A"}`, strings.Repeat("ü", 128), http.StatusOK},
		{"requester of 128 characters", `{"margin": "A", "idempotency_key": "r1", "requester": "` + e128 + `"}`, "", http.StatusOK},
		{"invalid UTF-8 key", "{\"margin\": \"A\", \"idempotency_key\": \"k\xff\"}", "", http.StatusBadRequest},
		{"another invalid UTF-8 key", "{\"margin\": \"B\", \"idempotency_key\": \"k\xfe\"}", "", http.StatusBadRequest},
		{"invalid UTF-8 header", `{"margin": "B"}`, "h\xff", http.StatusBadRequest},
		{"unpaired surrogate", `{"margin": "A", "idempotency_key": "s\ud800"}`, "", http.StatusBadRequest},
		{"another unpaired surrogate", `{"margin": "B", "idempotency_key": "s\udc01"}`, "", http.StatusBadRequest},
		{"invalid UTF-8 requester", "{\"margin\": \"A\", \"idempotency_key\": \"r2\", \"requester\": \"x\xff\"}", "", http.StatusBadRequest},
	}
	for _, c := range cases {
		rec := send(c.body, c.header)
		if rec.Code != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, rec.Code, strings.TrimSpace(rec.Body.String()), c.status)
		}
		if rec.Header().Get("Idempotent-Replay") != "" {
			t.Errorf("%s: answered as a replay of another key", c.name)
		}
	}
}
