package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

//go:embed web
var webFS embed.FS

// Config tunes a Server; the zero value means defaults.
type Config struct {
	// AdminToken enables the operator endpoints (/v1/admin/...) for
	// requests carrying "Authorization: Bearer AdminToken"; empty
	// disables them. It is never logged.
	AdminToken string
	// MaxBody bounds a request body (default 64 KiB); MaxTableBody an
	// uploaded table (default 64 MiB).
	MaxBody, MaxTableBody int64
	// MaxConcurrent bounds the decisions computed at once (default
	// 2 x GOMAXPROCS); QueueWait is how long a request waits for a slot
	// before 503 (default 30 s).
	MaxConcurrent int
	QueueWait     time.Duration
	// DecisionTimeLimit bounds each bounds computation of a decision
	// (default 30 s; what it leaves undecided is denied).
	DecisionTimeLimit time.Duration
	// Solver is the engine of the auditor ("" = auto).
	Solver string
	// TrustHeader names a request header set by a fronting proxy that
	// has authenticated the user ("X-Remote-User"): its value is the
	// requester. Empty: no header is trusted. Only for a server that
	// nobody reaches except through that proxy, which must drop the
	// header from the requests it passes on. The header is taken only
	// from the peers of TrustedProxies; from any other it is refused
	// (403). "anonymous" and "operator" are refused (400) as names.
	TrustHeader string
	// TrustedProxies are the addresses TrustHeader is taken from (nil:
	// loopback only, 127.0.0.0/8 and ::1).
	TrustedProxies []netip.Prefix
	// RequireIdentity refuses margin requests from anonymous callers
	// (401): only analysts with a token, or users named by TrustHeader,
	// may request. Reading the tables and the public releases stays open.
	RequireIdentity bool
	// Log receives one line per request (method, path, status, time,
	// then requester=, identity= (token, header, anonymous or operator),
	// table=, decision= where they apply); nil: no log. The path and every value a client supplied are
	// escaped: a log line is never split or forged by a request.
	Log *log.Logger
	// ErrorLog receives the cause of every 500 answer (nil: Log; both
	// nil: none).
	ErrorLog *log.Logger
}

func (c *Config) defaults() {
	if c.MaxBody <= 0 {
		c.MaxBody = 64 << 10
	}
	if c.MaxTableBody <= 0 {
		c.MaxTableBody = 64 << 20
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if c.QueueWait <= 0 {
		c.QueueWait = 30 * time.Second
	}
	if c.DecisionTimeLimit <= 0 {
		c.DecisionTimeLimit = 30 * time.Second
	}
	if c.ErrorLog == nil {
		c.ErrorLog = c.Log
	}
}

// Server serves the API and the web page over a Store.
type Server struct {
	store *Store
	cfg   Config
	sem   chan struct{}

	mu     sync.Mutex
	tables map[string]*tableState
}

// tableState is one table's decision state; mu serializes its decisions.
type tableState struct {
	mu      sync.Mutex
	info    *TableInfo
	table   *model.Table // for microdata: the variables only
	conf    *confData
	auditor *audit.Auditor
	hist    *audit.History
}

// New returns a Server over store.
func New(store *Store, cfg Config) *Server {
	cfg.defaults()
	return &Server{store: store, cfg: cfg, sem: make(chan struct{}, cfg.MaxConcurrent), tables: map[string]*tableState{}}
}

// Handler returns the HTTP handler: the API under /v1 and the web page.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/tables", s.listTables)
	mux.HandleFunc("GET /v1/tables/{name}", s.getTable)
	mux.HandleFunc("POST /v1/tables/{name}/requests", s.request)
	mux.HandleFunc("GET /v1/tables/{name}/releases", s.releases)
	mux.HandleFunc("GET /v1/tables/{name}/releases/{seq}/csv", s.releaseCSV)
	mux.HandleFunc("GET /v1/whoami", s.whoami)
	mux.HandleFunc("GET /v1/admin/analysts", s.admin(s.adminAnalysts))
	mux.HandleFunc("GET /v1/admin/tables", s.admin(s.adminTables))
	mux.HandleFunc("GET /v1/admin/tables/{name}", s.admin(s.adminTable))
	mux.HandleFunc("PUT /v1/admin/tables/{name}", s.admin(s.loadTable))
	mux.HandleFunc("PUT /v1/admin/tables/{name}/policy", s.admin(s.setPolicy))
	mux.HandleFunc("GET /v1/admin/tables/{name}/audit", s.admin(s.auditLog))
	mux.HandleFunc("PUT /v1/admin/tables/{name}/labels", s.admin(s.setLabels))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	web, _ := fs.Sub(webFS, "web")
	files := http.FileServerFS(web)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, http.StatusMethodNotAllowed, "method %s not allowed here", r.Method)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path)
	})
	return s.logged(mux)
}

// statusWriter records the status of a response for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (s *Server) logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		f := &logFields{}
		h.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), logKey{}, f)))
		if s.cfg.Log != nil {
			// Never headers (the tokens): the fields the handlers set,
			// each value escaped.
			var b strings.Builder
			fmt.Fprintf(&b, "%s %s %d %.1f ms", logSafe(r.Method), logSafe(r.URL.EscapedPath()), sw.status, 1000*time.Since(start).Seconds())
			for i := 0; i+1 < len(f.kv); i += 2 {
				fmt.Fprintf(&b, " %s=%s", f.kv[i], logSafe(f.kv[i+1]))
			}
			s.cfg.Log.Print(b.String())
		}
	})
}

// logSafe returns s as is when it is printable ASCII without spaces or
// quotes, else quoted with Go escapes (strconv.Quote): a value from a
// request can neither end a log line nor pass for another field.
func logSafe(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return strconv.Quote(s)
		}
	}
	return s
}

// fail answers a store or engine error: the known ones with their 4xx,
// anything else 500 with its cause logged (never sent: it may name files
// or internals).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var re *requestError
	switch {
	case errors.As(err, &re):
		writeError(w, re.status, "%s", re.msg)
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "%v", err)
	case errors.Is(err, ErrExists):
		writeError(w, http.StatusConflict, "%v", err)
	case errors.Is(err, ErrName), errors.Is(err, ErrLabels), errors.Is(err, ErrAnalyst), errors.Is(err, audit.ErrPolicy), errors.Is(err, audit.ErrRequest):
		writeError(w, http.StatusBadRequest, "%v", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusServiceUnavailable, "the request was cancelled")
	default:
		if s.cfg.ErrorLog != nil {
			s.cfg.ErrorLog.Printf("%s %s 500: %s", logSafe(r.Method), logSafe(r.URL.EscapedPath()), logSafe(err.Error()))
		}
		writeError(w, http.StatusInternalServerError, "internal error")
	}
}

// requestError is a refusal with its status and message.
type requestError struct {
	status int
	msg    string
}

func (e *requestError) Error() string { return e.msg }

// apiError is the body of every 4xx/5xx answer.
type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		status, buf = http.StatusInternalServerError, *bytes.NewBufferString(`{"error": "encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...)})
}

// listTables lists the tables as anyone may see them (PublicTable).
func (s *Server) listTables(w http.ResponseWriter, r *http.Request) {
	ts, err := s.store.Tables(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pub := make([]*PublicTable, len(ts))
	for i, t := range ts {
		pub[i] = t.Public()
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": pub})
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request) {
	setLog(r, "table", r.PathValue("name"))
	t, err := s.store.Table(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t.Public())
}

// adminTables lists the tables with the operator's metadata (TableInfo).
func (s *Server) adminTables(w http.ResponseWriter, r *http.Request) {
	ts, err := s.store.Tables(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": ts})
}

func (s *Server) adminTable(w http.ResponseWriter, r *http.Request) {
	t, err := s.store.Table(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

// ReleaseList is the answer of GET /v1/tables/{name}/releases.
type ReleaseList struct {
	Table    string          `json:"table"`
	Releases []PublicRelease `json:"releases"`
	// Notice says in words that some releases are simulated (empty
	// otherwise).
	Notice string `json:"notice,omitempty"`
}

func (s *Server) releases(w http.ResponseWriter, r *http.Request) {
	setLog(r, "table", r.PathValue("name"))
	rel, err := s.store.Releases(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	sim := 0
	for _, x := range rel {
		if x.Simulated {
			sim++
		}
	}
	writeJSON(w, http.StatusOK, ReleaseList{Table: r.PathValue("name"), Releases: rel, Notice: simulatedTableNotice(sim, len(rel))})
}

// MarginRequest is the body of POST /v1/tables/{name}/requests.
type MarginRequest struct {
	// Margin names the variables: ["A", "C"] or "A:C".
	Margin json.RawMessage `json:"margin"`
	// Mode is "release" (default) or "simulate".
	Mode string `json:"mode,omitempty"`
	// IdempotencyKey identifies the request: a retry with the same key
	// gets the same decision (also accepted as the Idempotency-Key
	// header). Required.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// Requester is the name an anonymous caller gives; it is recorded
	// as "anonymous (NAME)", a claim nobody checked. The name of an
	// analyst (token) or of the proxy's user (Config.TrustHeader)
	// replaces it.
	Requester string `json:"requester,omitempty"`
}

// decodeBody decodes one JSON object from a body of at most limit bytes:
// the whole body is read first, so that nothing after the value (spaces
// included) escapes the limit.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body larger than %d bytes", limit)
			return err
		}
		writeError(w, http.StatusBadRequest, "reading the body: %v", err)
		return err
	}
	// JSON is UTF-8; decoding would turn other bytes into U+FFFD.
	if !utf8.Valid(data) {
		writeError(w, http.StatusBadRequest, "malformed JSON body: not valid UTF-8")
		return errors.New("not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "malformed JSON body: %v", err)
		return err
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "malformed JSON body: more than one value")
		return errors.New("trailing data")
	}
	return nil
}

func parseMargin(raw json.RawMessage) ([]string, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, errors.New(`"margin" must be a list of variable names or a string "A:B"`)
	}
	if s == "" {
		return nil, errors.New(`"margin" is empty`)
	}
	return strings.Split(s, ":"), nil
}

// Answer is the answer to a margin request: the public decision and, for
// a table whose answers come from a simulated table, a notice saying so.
type Answer struct {
	audit.PublicDecision
	// Notice is SimulatedAnswerNotice for a simulated answer; for another
	// answer on a table with simulated releases, what they mean.
	Notice string `json:"notice,omitempty"`
}

func (s *Server) request(w http.ResponseWriter, r *http.Request) {
	setLog(r, "table", r.PathValue("name"))
	var req MarginRequest
	if err := decodeBody(w, r, s.cfg.MaxBody, &req); err != nil {
		return
	}
	if req.IdempotencyKey == "" {
		req.IdempotencyKey = r.Header.Get("Idempotency-Key")
	}
	switch {
	case req.IdempotencyKey == "":
		writeError(w, http.StatusBadRequest, `"idempotency_key" (or the Idempotency-Key header) is required`)
		return
	case !utf8.ValidString(req.IdempotencyKey) || strings.ContainsRune(req.IdempotencyKey, utf8.RuneError):
		// Decoding turns invalid UTF-8 and unpaired surrogate escapes
		// into U+FFFD, which would make different keys one.
		writeError(w, http.StatusBadRequest, `"idempotency_key" (or the Idempotency-Key header) is not valid UTF-8 text (it must not contain U+FFFD nor an unpaired surrogate)`)
		return
	case utf8.RuneCountInString(req.IdempotencyKey) > 128:
		writeError(w, http.StatusBadRequest, `"idempotency_key" longer than 128 characters`)
		return
	case utf8.RuneCountInString(req.Requester) > 128:
		writeError(w, http.StatusBadRequest, `"requester" longer than 128 characters`)
		return
	case req.Margin == nil:
		writeError(w, http.StatusBadRequest, `"margin" is required`)
		return
	}
	id, err := s.identify(r.Context(), r, req.Requester)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	logIdentity(r, id)
	if id.Kind == KindAnonymous && s.cfg.RequireIdentity {
		writeError(w, http.StatusUnauthorized, "anonymous requests are not accepted here: send your analyst token (Authorization: Bearer TOKEN) issued by the operator")
		return
	}
	req.Requester = id.Requester
	margin, err := parseMargin(req.Margin)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if req.Mode == "" {
		req.Mode = audit.ModeRelease
	}
	ts, err := s.state(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// A slot among the concurrent decisions.
	wait, cancel := context.WithTimeout(r.Context(), s.cfg.QueueWait)
	defer cancel()
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-wait.Done():
		writeError(w, http.StatusServiceUnavailable, "too many decisions under way; retry later")
		return
	}
	a, replay, err := s.decide(r.Context(), ts, margin, &req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	setLog(r, "decision", a.Outcome)
	if replay {
		w.Header().Set("Idempotent-Replay", "true")
		setLog(r, "replay", "true")
	}
	writeJSON(w, http.StatusOK, a)
}

// canonicalRequest is the request an idempotency key stands for: the
// margin in table order (so "C:A" and "A:C" are one margin) and the mode.
func canonicalRequest(t *model.Table, margin []string, mode string) string {
	b, _ := json.Marshal(map[string]any{"margin": tableOrder(t, margin), "mode": mode})
	return string(b)
}

// tableOrder sorts margin's variable names into table order; names the
// table does not have go last in their order (the decision refuses them).
func tableOrder(t *model.Table, margin []string) []string {
	out := slices.Clone(margin)
	pos := func(n string) int {
		if j := t.VarIndex(n); j >= 0 {
			return j
		}
		return len(t.Vars)
	}
	slices.SortStableFunc(out, func(a, b string) int { return pos(a) - pos(b) })
	return out
}

// sameRequest compares a stored request (its canonical JSON, perhaps
// written before margins were put in table order) with canon.
func sameRequest(t *model.Table, stored, canon string) bool {
	var old struct {
		Margin []string `json:"margin"`
		Mode   string   `json:"mode"`
	}
	if json.Unmarshal([]byte(stored), &old) != nil {
		return false
	}
	return canonicalRequest(t, old.Margin, old.Mode) == canon
}

// answer wraps a public decision with the notices that apply.
func answer(d audit.PublicDecision, h *audit.History) Answer {
	a := Answer{PublicDecision: d}
	if d.Simulated {
		a.Notice = SimulatedAnswerNotice
		return a
	}
	sim := 0
	for _, r := range h.Releases {
		if r.Simulated {
			sim++
		}
	}
	a.Notice = simulatedTableNotice(sim, len(h.Releases))
	return a
}

// decide runs one decision under the table's lock: a stored decision for
// the key is returned as it was; otherwise the auditor decides and the
// decision (with its release) is committed before the answer. A request
// in simulate mode on a table whose policy does not allow simulation is
// refused (403): only the operator turns simulation on.
func (s *Server) decide(ctx context.Context, ts *tableState, margin []string, req *MarginRequest) (Answer, bool, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	canon := canonicalRequest(ts.table, margin, req.Mode)
	old, err := s.store.decisionByKey(ctx, ts.info.ID, req.IdempotencyKey)
	if err != nil {
		return Answer{}, false, err
	}
	if old != nil {
		if old.request != canon && !sameRequest(ts.table, old.request, canon) {
			return Answer{}, false, &requestError{http.StatusConflict, "idempotency key already used for another request"}
		}
		return answer(old.public, ts.hist), true, nil
	}
	if err := s.refreshPolicy(ctx, ts); err != nil {
		return Answer{}, false, err
	}
	if req.Mode == audit.ModeSimulate && !ts.auditor.Policy().AllowSimulate {
		return Answer{}, false, &requestError{http.StatusForbidden, fmt.Sprintf(
			"simulate mode is not enabled for table %q: a simulated answer is not data, and only the operator can allow it (policy allow_simulate)", ts.info.Name)}
	}
	sum := sha256.Sum256([]byte(ts.info.Name + "\x00" + req.IdempotencyKey))
	d, err := ts.auditor.Decide(ts.hist, audit.Request{Margin: margin, Mode: req.Mode, Seed: binary.LittleEndian.Uint64(sum[:8]),
		RequestID: req.IdempotencyKey, Requester: req.Requester, Time: time.Now().UTC()})
	if err != nil {
		return Answer{}, false, err
	}
	// The decision is durable before anyone hears of it; the request's
	// context is not used so that a client disconnect cannot cut the
	// commit in half.
	if err := s.store.record(context.WithoutCancel(ctx), ts.info.ID, req.IdempotencyKey, canon, d, len(ts.hist.Releases)+1); err != nil {
		return Answer{}, false, err
	}
	ts.hist.Append(d)
	return answer(d.Public(), ts.hist), false, nil
}

// state returns the decision state of a table, loading it on first use.
func (s *Server) state(ctx context.Context, name string) (*tableState, error) {
	s.mu.Lock()
	ts := s.tables[name]
	if ts == nil {
		ts = &tableState{}
		s.tables[name] = ts
	}
	s.mu.Unlock()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.table != nil {
		return ts, nil
	}
	info, err := s.store.Table(ctx, name)
	if err != nil {
		s.mu.Lock()
		delete(s.tables, name)
		s.mu.Unlock()
		return nil, err
	}
	conf, err := s.store.loadTable(ctx, info)
	if err != nil {
		return nil, err
	}
	h, err := s.store.history(ctx, info, conf.table)
	if err != nil {
		return nil, err
	}
	ts.info, ts.table, ts.conf, ts.hist = info, conf.table, conf, h
	return ts, nil
}

// refreshPolicy rebuilds the auditor when the table's policy changed
// (lock held).
// It reads only the current policy: this runs on every decision.
func (s *Server) refreshPolicy(ctx context.Context, ts *tableState) error {
	p, err := s.store.policy(ctx, ts.info.ID)
	if err != nil {
		return err
	}
	if ts.auditor != nil && p == ts.auditor.Policy() {
		return nil
	}
	opt := audit.Options{Solver: s.cfg.Solver, TimeLimit: s.cfg.DecisionTimeLimit}
	var a *audit.Auditor
	if ts.conf.md != nil {
		a, err = audit.NewMicrodata(ts.conf.md, p, opt, ts.conf.mopt)
	} else {
		a, err = audit.New(ts.table, p, opt)
	}
	if err != nil {
		return err
	}
	ts.auditor = a
	return nil
}

// admin wraps an operator endpoint: the bearer token, compared in
// constant time.
func (s *Server) admin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.AdminToken == "" {
			writeError(w, http.StatusForbidden, "operator endpoints are disabled (start the server with --admin-token-file)")
			return
		}
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(s.cfg.AdminToken)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sdcopt"`)
			msg := "missing or wrong bearer token"
			if strings.HasPrefix(tok, analystTokenPrefix) {
				msg += " (this is an analyst's token, not the operator's)"
			}
			writeError(w, http.StatusUnauthorized, "%s", msg)
			return
		}
		logIdentity(r, Identity{Requester: KindOperator, Kind: KindOperator})
		setLog(r, "table", r.PathValue("name"))
		h(w, r)
	}
}

// loadTable stores an uploaded long CSV table, or microdata when the
// query names their variables (readUpload); the query "policy" sets its
// policy over audit.DefaultPolicy().
func (s *Server) loadTable(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := CheckName(name); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	u, err := s.readUpload(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if u.micro {
		// Microdata: one row per respondent over the variables named.
		md, err := datasets.ReadMicrodataWith(bytes.NewReader(u.data), "upload", u.vars, u.lopt)
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		if err := s.store.LoadMicrodata(r.Context(), name, md, u.mopt, u.policy, nil, "upload", u.data); err != nil {
			s.fail(w, r, err)
			return
		}
	} else {
		t, err := datasets.ReadTableCSV(bytes.NewReader(u.data), "upload")
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		if err := s.store.LoadTable(r.Context(), name, t, u.policy, "upload", u.data); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	info, err := s.store.Table(r.Context(), name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, info)
}

// PolicyAnswer is the answer of PUT /v1/admin/tables/{name}/policy: the
// table's policy after the update.
type PolicyAnswer struct {
	Policy        audit.Policy `json:"policy"`
	PolicyVersion string       `json:"policy_version"`
}

// setPolicy merges the fields of the body (audit.PolicyUpdate) into the
// table's current policy: a field left out (or null) keeps its value, so
// {"small": 4} changes small only and {} changes nothing.
func (s *Server) setPolicy(w http.ResponseWriter, r *http.Request) {
	var u audit.PolicyUpdate
	if err := decodeBody(w, r, s.cfg.MaxBody, &u); err != nil {
		return
	}
	p, err := s.store.UpdatePolicy(r.Context(), r.PathValue("name"), u)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, PolicyAnswer{Policy: p, PolicyVersion: p.Version()})
}

// setLabels replaces a table's labels with the body (JSON or CSV, as
// ParseLabels reads) and answers the table.
func (s *Server) setLabels(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "labels larger than %d bytes", s.cfg.MaxBody)
		return
	}
	l, err := ParseLabels(bytes.NewReader(data), "body")
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if err := s.store.SetLabels(r.Context(), r.PathValue("name"), l); err != nil {
		s.fail(w, r, err)
		return
	}
	info, err := s.store.Table(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// adminAnalysts lists the analysts (names and dates, never tokens).
func (s *Server) adminAnalysts(w http.ResponseWriter, r *http.Request) {
	as, err := s.store.Analysts(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"analysts": as})
}

func (s *Server) auditLog(w http.ResponseWriter, r *http.Request) {
	log, err := s.store.AuditLog(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": r.PathValue("name"), "decisions": log})
}
