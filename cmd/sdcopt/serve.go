package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/internal/filelock"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/server"
)

// serveSettings are the flags of `sdcopt serve`.
type serveSettings struct {
	db            string
	addr          string
	tokenFile     string
	readyFile     string
	maxConcurrent int
	timeLimit     float64
	quiet         bool
	solver        string
	trustHeader   string
	trustedProxy  []string
	requireID     bool
}

func newServeCmd() *cobra.Command {
	var s serveSettings
	c := &cobra.Command{
		Use:   "serve --db FILE [--addr 127.0.0.1:8080] [--admin-token-file F]",
		Short: "Run the query service: margin requests decided by the release auditor, stored in SQLite",
		Long: "An HTTP service over the release auditor (sdcopt audit): users list the\n" +
			"confidential tables, request margins (release or simulate) and read the\n" +
			"public releases; every decision is written to the SQLite database --db (WAL,\n" +
			"synchronous) before it is answered. JSON API under /v1, a web page at /.\n" +
			"Operator endpoints (/v1/admin: load a table, set its policy, read the audit\n" +
			"log) need \"Authorization: Bearer TOKEN\" with the token of --admin-token-file\n" +
			"(disabled without it). SIGINT/SIGTERM: stop accepting, finish the decisions\n" +
			"under way (or roll them back), close the database.\n\n" +
			"Anonymous users see each table's variables, policy and public releases, never\n" +
			"the confidential file's name or hash (the operator's GET /v1/admin/tables).\n" +
			"Simulate mode is refused unless the operator allows it in the table's policy\n" +
			"(simulate=true); simulated answers say that they are not data and depend on\n" +
			"the public releases only (none while nothing is released). One server per\n" +
			"database: it holds an exclusive lock on --db, and a second one exits 2 naming\n" +
			"the holder; it also locks the file DB-serving beside the name it was started\n" +
			"with (removed when it stops). serve load, analyst and labels work beside it\n" +
			"through that name only (not through a hard link). A database that is not sdcopt's, or fails SQLite's integrity\n" +
			"check, is refused (exit 2). A token file writable by every user is refused.\n\n" +
			"Analysts identify themselves with a token the operator issues (sdcopt serve\n" +
			"analyst add --db FILE NAME), sent as \"Authorization: Bearer TOKEN\" (the page\n" +
			"has a sign-in field), or through a fronting proxy that authenticates them and\n" +
			"sets a header named by --trust-header, taken only from the addresses of\n" +
			"--trusted-proxy (default loopback: then every local user can set it).\n" +
			"\"anonymous\" and \"operator\" are nobody's names. Decisions record the analyst's name;\n" +
			"anonymous requests are recorded as \"anonymous\" and refused with\n" +
			"--require-analyst. The operator's page is at /operator.html.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runServe(&s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.db, "db", "", "the SQLite database file (created when missing)")
	f.StringVar(&s.addr, "addr", "127.0.0.1:8080", "listen address (port 0: a free port)")
	f.StringVar(&s.tokenFile, "admin-token-file", "", "file holding the operator's bearer token (one line; never logged)")
	f.StringVar(&s.readyFile, "ready-file", "", "write the server's URL to this file once it listens")
	f.IntVar(&s.maxConcurrent, "max-concurrent", 0, "decisions computed at once (0 = 2 x cores)")
	f.Float64Var(&s.timeLimit, "decision-time-limit", 30, "time limit of each decision in seconds (its bounds, certified bounds and simulation together)")
	f.BoolVar(&s.quiet, "quiet", false, "no request log on stderr")
	f.StringVar(&s.solver, "solver", "", "engine of the auditor (default auto)")
	f.StringVar(&s.trustHeader, "trust-header", "", "take the requester's name from this header set by a fronting proxy (e.g. X-Remote-User); only when every request comes through that proxy")
	f.StringArrayVar(&s.trustedProxy, "trusted-proxy", nil, "with --trust-header: an address or CIDR range of the fronting proxy, the only peers the header is taken from (repeatable; default loopback only, 127.0.0.0/8 and ::1)")
	f.BoolVar(&s.requireID, "require-analyst", false, "refuse margin requests without an analyst token or --trust-header name (401)")
	c.AddCommand(newServeLoadCmd(), newServeAnalystCmd(), newServeLabelsCmd())
	return c
}

// readToken reads the operator's token. A file every user may write is
// refused (anyone could set the token and act as the operator); one that
// others may read gets a warning on warn.
func readToken(path string, warn io.Writer) (string, error) {
	if path == "" {
		return "", nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", cli.BadInput("--admin-token-file: %v", err)
	}
	if perm := st.Mode().Perm(); perm&0o002 != 0 {
		return "", cli.BadInput("--admin-token-file %s is writable by every user (mode %#o): anyone could set the operator's token; chmod 600 %s", path, perm, path)
	} else if perm&0o066 != 0 {
		fmt.Fprintf(warn, "sdcopt serve: warning: --admin-token-file %s may be read or written by other users (mode %#o); chmod 600 %s\n", path, perm, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", cli.BadInput("--admin-token-file: %v", err)
	}
	tok := strings.TrimSpace(string(b))
	if len(tok) < 16 || strings.ContainsAny(tok, " \t\r\n") {
		return "", cli.BadInput("--admin-token-file %s: the token must be one word of at least 16 characters", path)
	}
	return tok, nil
}

func runServe(s *serveSettings) error {
	if s.db == "" {
		return cli.BadInput("--db FILE is required")
	}
	if s.maxConcurrent < 0 {
		return cli.BadInput("--max-concurrent %d is negative", s.maxConcurrent)
	}
	limit, err := cli.TimeLimit("--decision-time-limit", s.timeLimit)
	if err != nil {
		return err
	}
	if s.solver != "" {
		if err := cli.Solver("--solver", s.solver, false); err != nil {
			return err
		}
	}
	tok, err := readToken(s.tokenFile, os.Stderr)
	if err != nil {
		return err
	}
	sigs := cli.TakeSignals()
	store, err := server.OpenExclusive(s.db)
	if err != nil {
		var busy *filelock.BusyError
		if errors.As(err, &busy) {
			holder := "another process"
			if busy.PID > 0 {
				holder = fmt.Sprintf("process %d", busy.PID)
			}
			return cli.BadInput("--db %s is in use by %s (another sdcopt serve, or a serve load, analyst or labels under way): one server per database", s.db, holder)
		}
		return cli.BadInput("--db: %v", err)
	}
	defer store.Close()
	// The ready file must not be the database (which exists now), its
	// serving file (the lock that marks the server's name) or the token
	// file.
	if err := checkFiles([]string{"--db", s.db, "--db's serving file", server.ServingFile(s.db), "--admin-token-file", s.tokenFile}, []string{"--ready-file", s.readyFile}); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return cli.BadInput("--addr: %v", err)
	}
	if s.trustHeader != "" {
		if strings.EqualFold(s.trustHeader, "Authorization") || strings.ContainsAny(s.trustHeader, " :\t\r\n") {
			return cli.BadInput("--trust-header %q: want a header name such as X-Remote-User", s.trustHeader)
		}
	}
	proxies, err := server.ParseTrustedProxies(s.trustedProxy)
	if err != nil {
		return cli.BadInput("--trusted-proxy %v", err)
	}
	if proxies != nil && s.trustHeader == "" {
		return cli.BadInput("--trusted-proxy needs --trust-header (the header the proxy sets)")
	}
	cfg := server.Config{AdminToken: tok, MaxConcurrent: s.maxConcurrent, DecisionTimeLimit: limit, Solver: s.solver,
		TrustHeader: s.trustHeader, TrustedProxies: proxies, RequireIdentity: s.requireID,
		ErrorLog: log.New(os.Stderr, "sdcopt serve: error: ", log.LstdFlags|log.Lmicroseconds)}
	if !s.quiet {
		cfg.Log = log.New(os.Stderr, "sdcopt serve: ", log.LstdFlags|log.Lmicroseconds)
	}
	srv := &http.Server{
		Handler:           server.New(store, cfg).Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      limit + 60*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	url := "http://" + ln.Addr().String()
	fmt.Fprintf(os.Stderr, "sdcopt serve: listening on %s (database %s, operator endpoints %s)\n", url, s.db,
		map[bool]string{true: "enabled", false: "disabled"}[tok != ""])
	if s.readyFile != "" {
		if err := cli.WriteFileAtomic(s.readyFile, func(w io.Writer) error { _, err := io.WriteString(w, url+"\n"); return err }); err != nil {
			return cli.BadInput("--ready-file: %v", err)
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("serve: %w", err)}
	case sig := <-sigs:
		fmt.Fprintf(os.Stderr, "sdcopt serve: %v: finishing the decisions under way\n", sig)
		ctx, cancel := context.WithTimeout(context.Background(), limit+30*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "sdcopt serve: shutdown: %v (uncommitted decisions are rolled back)\n", err)
		}
		fmt.Fprintln(os.Stderr, "sdcopt serve: stopped")
		return nil
	}
}

// serveLoadSettings are the flags of `sdcopt serve load`.
type serveLoadSettings struct {
	tableFlags
	micro                           auditMicroFlags
	db, name, table, policy, labels string
}

func newServeLoadCmd() *cobra.Command {
	var s serveLoadSettings
	c := &cobra.Command{
		Use:   "load --db FILE --name NAME (--table FILE.csv | --microdata FILE.csv --vars V1,V2,...) [--policy small=3,min_width=3,...] [--labels FILE]",
		Short: "Load a confidential table into the service's database (operator)",
		Long: "Store a table (long CSV: variables + count) under NAME with its policy, the\n" +
			"file's name and sha256. A name in use is refused: a table with a release\n" +
			"history cannot be replaced. The server may be running: use the path it was\n" +
			"started with (another hard link to the file is refused, exit 2).\n\n" +
			"--microdata FILE --vars V1,V2,... stores microdata instead (one row per\n" +
			"respondent; the table is the cross-classification of the variables, never\n" +
			"built: each decision works on the table over the variables it involves).\n" +
			"--levels, --min-level-count, --max-cells and --protect-collapsed as for\n" +
			"sdcopt audit. The levels are public (the analysts' page lists them): without\n" +
			"--levels they are the data's labels sorted, and a level held by one\n" +
			"respondent is itself a disclosure; --min-level-count M merges the levels\n" +
			"fewer than M records hold into \"(other)\". The microdata are read\n" +
			"comma-separated: --sep, --decimal and --count are for --table only.\n\n" +
			"--labels FILE says what the variables and their levels mean, shown on the\n" +
			"analysts' page: JSON {\"A\": {\"label\": \"Smoker\", \"levels\": {\"1\": \"yes\"}}}\n" +
			"or CSV with the header variable,level,label (an empty level labels the\n" +
			"variable). Unknown variables or levels are refused.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runServeLoad(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.db, "db", "", "the SQLite database file (created when missing)")
	f.StringVar(&s.name, "name", "", "the table's name in the service")
	f.StringVar(&s.table, "table", "", "the table, long CSV")
	addTableFlags(f, &s.tableFlags)
	s.micro.register(c)
	f.StringVar(&s.labels, "labels", "", "labels of the variables and levels (JSON or CSV variable,level,label)")
	f.StringVar(&s.policy, "policy", "", "policy over the defaults small=3,min_width=3,min_rel_width=0,simulate=false (simulate=true lets requesters ask for simulated answers)")
	return c
}

func runServeLoad(w io.Writer, s *serveLoadSettings) error {
	if s.db == "" || s.name == "" {
		return cli.BadInput("--db and --name are required")
	}
	if err := s.micro.check(s.table, &s.tableFlags); err != nil {
		return err
	}
	if err := server.CheckName(s.name); err != nil {
		return cli.BadInput("--name: %v", err)
	}
	pol, err := audit.ParsePolicy(s.policy)
	if err != nil {
		return cli.BadInput("--policy: %v", err)
	}
	var t *model.Table
	var md *datasets.Microdata
	source := s.table
	if s.micro.file != "" {
		source = s.micro.file
		if md, err = s.micro.load(); err != nil {
			return err
		}
		t = &model.Table{Vars: md.Vars}
	}
	data, err := os.ReadFile(source)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	if md == nil {
		opt, err := s.tableFlags.options()
		if err != nil {
			return err
		}
		if t, err = datasets.LoadTableCSVWith(s.table, nil, opt); err != nil {
			return cli.BadInput("%v", err)
		}
	}
	var labels server.Labels
	if s.labels != "" {
		f, err := os.Open(s.labels)
		if err != nil {
			return cli.BadInput("--labels: %v", err)
		}
		labels, err = server.ParseLabels(f, s.labels)
		f.Close()
		if err != nil {
			return cli.BadInput("--labels: %v", err)
		}
		if err := labels.Check(t.Vars); err != nil {
			return cli.BadInput("--labels %s: %v", s.labels, err)
		}
	}
	store, err := server.Open(s.db)
	if err != nil {
		return cli.BadInput("--db: %v", err)
	}
	defer store.Close()
	if md != nil {
		err = store.LoadMicrodata(context.Background(), s.name, md, s.micro.options(), pol, labels, source, data)
	} else {
		err = store.LoadLabeledTable(context.Background(), s.name, t, pol, labels, source, data)
	}
	if err != nil {
		if errors.Is(err, server.ErrExists) || errors.Is(err, server.ErrName) || errors.Is(err, audit.ErrPolicy) || errors.Is(err, server.ErrLabels) {
			return cli.BadInput("%v", err)
		}
		return libraryError("serve load", err)
	}
	if md != nil {
		fmt.Fprintf(w, "loaded %s: microdata, %d records over %d variables (%s cells, never built), policy %s; %s\n",
			s.name, md.N, len(md.Vars), cellCount(md.Vars), pol.Version(), s.micro.summary(md))
		return nil
	}
	fmt.Fprintf(w, "loaded %s: %d variables, %d cells, total %d, policy %s\n", s.name, len(t.Vars), len(t.Counts), t.Total(), pol.Version())
	return nil
}

// newServeAnalystCmd is `sdcopt serve analyst add|revoke|list`.
func newServeAnalystCmd() *cobra.Command {
	var db string
	c := &cobra.Command{
		Use:   "analyst add|revoke|list --db FILE [NAME]",
		Short: "Issue, revoke and list analysts' tokens (operator)",
		Long: "add NAME prints a new token for the analyst NAME, once: the database keeps\n" +
			"only its sha256. The analyst sends it as \"Authorization: Bearer TOKEN\" (or\n" +
			"pastes it in the page's sign-in field); decisions record NAME as the\n" +
			"requester. revoke NAME makes the token stop working (its decisions keep the\n" +
			"name); list shows the analysts. The server may be running (--db the path it\n" +
			"was started with; another hard link to the file is refused, exit 2).",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.BadInput("serve analyst: want add NAME, revoke NAME or list")
			}
			switch args[0] {
			case "add", "revoke":
				if len(args) != 2 {
					return cli.BadInput("serve analyst %s: want exactly one NAME", args[0])
				}
			case "list":
				if len(args) != 1 {
					return cli.BadInput("serve analyst list takes no NAME")
				}
			default:
				return cli.BadInput("serve analyst: unknown action %q (add, revoke, list)", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runServeAnalyst(c.OutOrStdout(), c.ErrOrStderr(), db, args)
		},
	}
	c.Flags().StringVar(&db, "db", "", "the SQLite database file")
	return c
}

func runServeAnalyst(w, diag io.Writer, db string, args []string) error {
	if db == "" {
		return cli.BadInput("--db FILE is required")
	}
	if args[0] != "list" {
		if err := server.CheckAnalystName(args[1]); err != nil {
			return cli.BadInput("%v", err)
		}
	}
	store, err := server.Open(db)
	if err != nil {
		return cli.BadInput("--db: %v", err)
	}
	defer store.Close()
	ctx := context.Background()
	switch args[0] {
	case "add":
		tok, err := store.AddAnalyst(ctx, args[1])
		if err != nil {
			if errors.Is(err, server.ErrAnalyst) {
				return cli.BadInput("%v", err)
			}
			return libraryError("serve analyst", err)
		}
		fmt.Fprintln(w, tok)
		fmt.Fprintf(diag, "sdcopt serve analyst: token issued to %s (shown once; the database keeps only its sha256)\n", args[1])
	case "revoke":
		if err := store.RevokeAnalyst(ctx, args[1]); err != nil {
			if errors.Is(err, server.ErrAnalyst) {
				return cli.BadInput("%v", err)
			}
			return libraryError("serve analyst", err)
		}
		fmt.Fprintf(w, "revoked %s\n", args[1])
	case "list":
		as, err := store.Analysts(ctx)
		if err != nil {
			return libraryError("serve analyst", err)
		}
		for _, a := range as {
			state := "active"
			if a.RevokedAt != "" {
				state = "revoked " + a.RevokedAt
			}
			fmt.Fprintf(w, "%s\tissued %s\t%s\n", a.Name, a.CreatedAt, state)
		}
	}
	return nil
}

// newServeLabelsCmd is `sdcopt serve labels`: labels for a table already
// loaded.
func newServeLabelsCmd() *cobra.Command {
	var db, name, labels string
	c := &cobra.Command{
		Use:   "labels --db FILE --name NAME --labels FILE",
		Short: "Set the labels of a loaded table's variables and levels (operator)",
		Long: "Replace the labels of table NAME (the format of serve load --labels). The\n" +
			"counts, decisions and releases are unchanged. The server may be running\n" +
			"(--db the path it was started with; another hard link is refused, exit 2).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if db == "" || name == "" || labels == "" {
				return cli.BadInput("--db, --name and --labels are required")
			}
			f, err := os.Open(labels)
			if err != nil {
				return cli.BadInput("--labels: %v", err)
			}
			l, err := server.ParseLabels(f, labels)
			f.Close()
			if err != nil {
				return cli.BadInput("--labels: %v", err)
			}
			store, err := server.Open(db)
			if err != nil {
				return cli.BadInput("--db: %v", err)
			}
			defer store.Close()
			if err := store.SetLabels(context.Background(), name, l); err != nil {
				if errors.Is(err, server.ErrNotFound) || errors.Is(err, server.ErrLabels) {
					return cli.BadInput("--labels %s: %v", labels, err)
				}
				return libraryError("serve labels", err)
			}
			fmt.Fprintf(c.OutOrStdout(), "labelled %s: %d variables\n", name, len(l))
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&db, "db", "", "the SQLite database file")
	f.StringVar(&name, "name", "", "the table's name in the service")
	f.StringVar(&labels, "labels", "", "labels of the variables and levels (JSON or CSV variable,level,label)")
	return c
}
