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
	"runtime"
	"strings"
	"sync"
	"time"

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
	// Log receives one line per request (method, path, status, time);
	// nil: no log.
	Log *log.Logger
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
	table   *model.Table
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
	mux.HandleFunc("PUT /v1/admin/tables/{name}", s.admin(s.loadTable))
	mux.HandleFunc("PUT /v1/admin/tables/{name}/policy", s.admin(s.setPolicy))
	mux.HandleFunc("GET /v1/admin/tables/{name}/audit", s.admin(s.auditLog))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, map[string]string{"status": "ok"}) })
	web, _ := fs.Sub(webFS, "web")
	files := http.FileServerFS(web)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, http.StatusMethodNotAllowed, "method %s not allowed here", r.Method)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
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
		h.ServeHTTP(sw, r)
		if s.cfg.Log != nil {
			// Method, path and status only: never headers (the token).
			s.cfg.Log.Printf("%s %s %d %.1f ms", r.Method, r.URL.Path, sw.status, 1000*time.Since(start).Seconds())
		}
	})
}

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

// storeError maps a store error to an answer.
func storeError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "%v", err)
	case errors.Is(err, ErrExists):
		writeError(w, http.StatusConflict, "%v", err)
	case errors.Is(err, audit.ErrPolicy):
		writeError(w, http.StatusBadRequest, "%v", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusServiceUnavailable, "the request was cancelled")
	default:
		writeError(w, http.StatusInternalServerError, "internal error")
	}
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request) {
	ts, err := s.store.Tables(r.Context())
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": ts})
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request) {
	t, err := s.store.Table(r.Context(), r.PathValue("name"))
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (s *Server) releases(w http.ResponseWriter, r *http.Request) {
	rel, err := s.store.Releases(r.Context(), r.PathValue("name"))
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": r.PathValue("name"), "releases": rel})
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
	Requester      string `json:"requester,omitempty"`
}

// decodeBody decodes one JSON object of at most limit bytes.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	body := http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body larger than %d bytes", limit)
			return err
		}
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

func (s *Server) request(w http.ResponseWriter, r *http.Request) {
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
	case len(req.IdempotencyKey) > 128:
		writeError(w, http.StatusBadRequest, `"idempotency_key" longer than 128 characters`)
		return
	case len(req.Requester) > 128:
		writeError(w, http.StatusBadRequest, `"requester" longer than 128 characters`)
		return
	case req.Margin == nil:
		writeError(w, http.StatusBadRequest, `"margin" is required`)
		return
	}
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
		storeError(w, err)
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
	d, replay, status, msg := s.decide(r.Context(), ts, margin, &req)
	if msg != "" {
		writeError(w, status, "%s", msg)
		return
	}
	if replay {
		w.Header().Set("Idempotent-Replay", "true")
	}
	writeJSON(w, http.StatusOK, d)
}

// decide runs one decision under the table's lock: a stored decision for
// the key is returned as it was; otherwise the auditor decides and the
// decision (with its release) is committed before the answer.
func (s *Server) decide(ctx context.Context, ts *tableState, margin []string, req *MarginRequest) (audit.PublicDecision, bool, int, string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	canon, _ := json.Marshal(map[string]any{"margin": margin, "mode": req.Mode})
	old, err := s.store.decisionByKey(ctx, ts.info.ID, req.IdempotencyKey)
	if err != nil {
		return audit.PublicDecision{}, false, http.StatusInternalServerError, "internal error"
	}
	if old != nil {
		if old.request != string(canon) {
			return audit.PublicDecision{}, false, http.StatusConflict, "idempotency key already used for another request"
		}
		return old.public, true, 0, ""
	}
	if err := s.refreshPolicy(ctx, ts); err != nil {
		return audit.PublicDecision{}, false, http.StatusInternalServerError, "internal error"
	}
	sum := sha256.Sum256([]byte(ts.info.Name + "\x00" + req.IdempotencyKey))
	d, err := ts.auditor.Decide(ts.hist, audit.Request{Margin: margin, Mode: req.Mode, Seed: binary.LittleEndian.Uint64(sum[:8]),
		RequestID: req.IdempotencyKey, Requester: req.Requester, Time: time.Now().UTC()})
	if err != nil {
		if errors.Is(err, audit.ErrRequest) {
			return audit.PublicDecision{}, false, http.StatusBadRequest, err.Error()
		}
		return audit.PublicDecision{}, false, http.StatusInternalServerError, "internal error"
	}
	// The decision is durable before anyone hears of it; the request's
	// context is not used so that a client disconnect cannot cut the
	// commit in half.
	if err := s.store.record(context.WithoutCancel(ctx), ts.info.ID, req.IdempotencyKey, string(canon), d, len(ts.hist.Releases)+1); err != nil {
		return audit.PublicDecision{}, false, http.StatusInternalServerError, "internal error"
	}
	ts.hist.Append(d)
	return d.Public(), false, 0, ""
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
	t, err := s.store.loadTable(ctx, info)
	if err != nil {
		return nil, err
	}
	h, err := s.store.history(ctx, info, t)
	if err != nil {
		return nil, err
	}
	ts.info, ts.table, ts.hist = info, t, h
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
	a, err := audit.New(ts.table, p, audit.Options{Solver: s.cfg.Solver, TimeLimit: s.cfg.DecisionTimeLimit})
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
			writeError(w, http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		h(w, r)
	}
}

// loadTable stores an uploaded long CSV table; the query "policy" sets its
// policy (default audit.DefaultPolicy()).
func (s *Server) loadTable(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	pol, err := audit.ParsePolicy(r.URL.Query().Get("policy"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxTableBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "table larger than %d bytes", s.cfg.MaxTableBody)
		return
	}
	t, err := datasets.ReadTableCSV(bytes.NewReader(data), "upload")
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if err := checkName(name); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if err := s.store.LoadTable(r.Context(), name, t, pol, "upload", data); err != nil {
		storeError(w, err)
		return
	}
	info, err := s.store.Table(r.Context(), name)
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, info)
}

func (s *Server) setPolicy(w http.ResponseWriter, r *http.Request) {
	var p audit.Policy
	if err := decodeBody(w, r, s.cfg.MaxBody, &p); err != nil {
		return
	}
	if err := s.store.SetPolicy(r.Context(), r.PathValue("name"), p); err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"policy_version": p.Version()})
}

func (s *Server) auditLog(w http.ResponseWriter, r *http.Request) {
	log, err := s.store.AuditLog(r.Context(), r.PathValue("name"))
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": r.PathValue("name"), "decisions": log})
}
