package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/internal/filelock"
	"github.com/sdcopt/sdcopt/model"
)

// auditSettings are the flags of `sdcopt audit` and `sdcopt audit replay`.
type auditSettings struct {
	tableFlags
	table    string
	history  string
	request  string
	requests string
	mode     string
	policy   string
	seed     uint64
	format   string
	out      string
	update   bool
	create   bool
	public   bool
	lockWait float64
	ef       engineFlags
	micro    auditMicroFlags
}

func newAuditCmd() *cobra.Command {
	var s auditSettings
	c := &cobra.Command{
		Use:   "audit --table FILE --history HISTORY.json --request SPEC [--mode release|simulate] [--update]",
		Short: "Decide whether releasing another margin is safe given every release before it",
		Long: "The release auditor of a query system over a confidential table (Dobra &\n" +
			"Fienberg, Sections 1-2). It computes the sharp integer bounds of every cell\n" +
			"given the public releases of HISTORY.json plus the requested margin and\n" +
			"applies the policy: every non-zero cell keeps upper - lower >= 1; cells with\n" +
			"count 1..small-1 keep at least min_width; the others, when min_rel_width > 0,\n" +
			"at least ceil(min_rel_width * count). The answer is released, denied, or in\n" +
			"--mode simulate (when the policy allows it) a margin of a table simulated\n" +
			"from the public releases (seeded by --seed): it depends on the releases,\n" +
			"the request and the seed only, so with nothing released (not even the\n" +
			"total public) a denied request stays denied. The output is the operator's:\n" +
			"it names the cells a denied release would disclose; --public prints only\n" +
			"what a requester may see. --update appends the release to HISTORY.json\n" +
			"(atomically; --create starts a new history file, mode 0600; an updated one\n" +
			"keeps its mode) under an exclusive lock on the history file itself, held\n" +
			"from reading the history to writing it, so that two runs on one history\n" +
			"never lose a release; a second run waits up to --lock-wait seconds. A\n" +
			"HISTORY.json that is a symbolic link is updated through the link (the file\n" +
			"it points to is replaced, the link stays); one with several hard links is\n" +
			"refused. --out is created 0600 (0644 with --public).\n" +

			"With --microdata FILE --vars V1,V2,... the confidential table is the\n" +
			"cross-classification of the records over those variables, never built: each\n" +
			"decision collapses the records to the table over the variables of the\n" +
			"history and the request.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runAudit(c.OutOrStdout(), os.Stderr, &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.table, "table", "", "the confidential table, long CSV (variables + count)")
	addTableFlags(f, &s.tableFlags)
	f.StringVar(&s.history, "history", "", "the release history (JSON; see --create)")
	f.StringVar(&s.request, "request", "", "the requested margin, e.g. A:C or AC")
	f.StringVar(&s.mode, "mode", audit.ModeRelease, "release (the true margin or nothing) or simulate (a simulated margin when the true one is denied)")
	f.StringVar(&s.policy, "policy", "", "policy parameters over the defaults small=3,min_width=3,min_rel_width=0,simulate=false")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the simulation")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.StringVar(&s.out, "out", "", "write the decision to this file (atomically) instead of stdout")
	f.BoolVar(&s.update, "update", false, "append the released margin to the history file")
	f.BoolVar(&s.create, "create", false, "with --update: create the history file when it does not exist")
	f.BoolVar(&s.public, "public", false, "print only the public answer (no operator evidence)")
	f.Float64Var(&s.lockWait, "lock-wait", 60, "with --update: seconds to wait for another run that holds the history's lock")
	s.ef.registerSolver(c, false, "time limit of each decision in seconds, its bounds and simulation together (0 = the default, 60 s); what it leaves undecided is denied")
	s.micro.register(c)
	c.AddCommand(newAuditReplayCmd())
	return c
}

func newAuditReplayCmd() *cobra.Command {
	var s auditSettings
	c := &cobra.Command{
		Use:   "replay --table FILE --requests SPEC1,SPEC2,... [--history HISTORY.json]",
		Short: "Decide a whole sequence of requests and print the decisions as a table",
		Long: "Run a sequence of margin requests through the auditor, starting from an empty\n" +
			"history (or --history, which is not changed), each decision seeing the\n" +
			"releases before it, and print one row per request: outcome, how the bounds\n" +
			"were computed, latency, cells at risk and the operator's explanation.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runAuditReplay(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.table, "table", "", "the confidential table, long CSV (variables + count)")
	addTableFlags(f, &s.tableFlags)
	f.StringVar(&s.history, "history", "", "a history to start from (read only)")
	f.StringVar(&s.requests, "requests", "", "margins separated by commas, e.g. BF,ABCE,ADE or B:F,A:B:C:E")
	f.StringVar(&s.mode, "mode", audit.ModeRelease, "mode of every request: release or simulate")
	f.StringVar(&s.policy, "policy", "", "policy parameters over the defaults small=3,min_width=3,min_rel_width=0,simulate=false")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the simulations (request i uses seed + i)")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.StringVar(&s.out, "out", "", "write the decisions to this file (atomically) instead of stdout")
	s.ef.registerSolver(c, false, "time limit of each decision in seconds, its bounds and simulation together (0 = the default, 60 s)")
	s.micro.register(c)
	return c
}

// newAuditor loads the table and the policy.
func newAuditor(s *auditSettings) (*audit.Auditor, error) {
	if err := s.micro.check(s.table, &s.tableFlags); err != nil {
		return nil, err
	}
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return nil, err
	}
	if s.mode != audit.ModeRelease && s.mode != audit.ModeSimulate {
		return nil, cli.BadInput("--mode %q: want release or simulate", s.mode)
	}
	pol, err := audit.ParsePolicy(s.policy)
	if err != nil {
		return nil, cli.BadInput("--policy: %v", err)
	}
	// The engine is checked even where the decision may need none.
	if err := s.ef.check(false); err != nil {
		return nil, err
	}
	prm, _ := s.ef.params()
	opt, err := s.tableFlags.options()
	if err != nil {
		return nil, err
	}
	if s.micro.file != "" {
		return s.micro.auditor(pol, audit.Options{Solver: s.ef.solver, TimeLimit: prm.TimeLimit})
	}
	t, err := datasets.LoadTableCSVWith(s.table, nil, opt)
	if err != nil {
		return nil, cli.BadInput("%v", err)
	}
	a, err := audit.New(t, pol, audit.Options{Solver: s.ef.solver, TimeLimit: prm.TimeLimit})
	if err != nil {
		return nil, libraryError("", err)
	}
	return a, nil
}

// readHistory reads a history file and checks it against the table.
func readHistory(path string, a *audit.Auditor, create bool) (*audit.History, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) && create {
		return a.NewHistory(), nil
	}
	if err != nil {
		return nil, cli.BadInput("--history: %v", err)
	}
	defer f.Close()
	h, err := audit.ReadHistory(bufio.NewReader(f))
	if err != nil {
		return nil, cli.BadInput("--history %s: %v", path, err)
	}
	if err := a.CheckHistory(h); err != nil {
		return nil, cli.BadInput("--history %s: %v", path, err)
	}
	return h, nil
}

func runAudit(w, errw io.Writer, s *auditSettings) error {
	if s.history == "" {
		return cli.BadInput("--history FILE is required (with --update --create a new one is started)")
	}
	if s.request == "" {
		return cli.BadInput("--request SPEC is required")
	}
	if s.create && !s.update {
		return cli.BadInput("--create needs --update")
	}
	// The history is read and, with --update, replaced atomically (the
	// file a symbolic link points to, the link staying; its directory must
	// take a new file); the decision output must be neither the table nor
	// the history, whether or not it exists yet.
	histFile := s.history
	var files cli.Files
	files.Input("--table", s.table)
	files.Input("--microdata", s.micro.file)
	files.Input("--levels", s.micro.levels)
	if s.update {
		var err error
		if histFile, err = historyTarget(s.history); err != nil {
			return err
		}
		files.Update("--history", histFile)
	} else {
		files.Input("--history", s.history)
	}
	files.Output("--out", s.out)
	if err := files.Check(); err != nil {
		return err
	}
	wait, err := lockWait(s)
	if err != nil {
		return err
	}
	a, err := newAuditor(s)
	if err != nil {
		return err
	}
	if s.update {
		// Held from reading the history to writing it back: a second
		// run decides against the history that includes this release.
		// The lock is on the history file itself (its directory while it
		// does not exist), so every name of it shares the lock.
		lock, err := filelock.AcquireFile(histFile, wait)
		if err != nil {
			var busy *filelock.BusyError
			if errors.As(err, &busy) {
				return cli.BadInput("--history %s: another sdcopt audit --update is using it: %v", s.history, err)
			}
			return cli.BadInput("--history %s: %v", s.history, err)
		}
		defer lock.Release()
		// An update replaces one name of the file; another hard link
		// would keep the old history and decide against it.
		var st unix.Stat_t
		if err := unix.Stat(histFile, &st); err == nil && st.Nlink > 1 {
			return cli.BadInput("--history %s has %d hard links: an update would replace this name only and the others would keep the old history; keep one name (a symbolic link is fine)", s.history, st.Nlink)
		}
	}
	h, err := readHistory(histFile, a, s.create)
	if err != nil {
		return err
	}
	margin, err := a.ParseMargin(s.request)
	if err != nil {
		return cli.BadInput("--request: %v", err)
	}
	start := time.Now()
	d, err := a.Decide(h, audit.Request{Margin: margin, Mode: s.mode, Seed: s.seed, Time: start.UTC()})
	secs := time.Since(start).Seconds()
	if err != nil {
		return libraryError("", err) // library errors name their package ("audit: ...")
	}
	render := func(w io.Writer) error {
		if s.format == "json" {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(newAuditResult(s, d, secs))
		}
		return writeDecisionText(w, &model.Table{Vars: a.Vars()}, d, s.public)
	}
	appended := s.update && d.Outcome != audit.Denied
	if !appended {
		return emitPrivate(w, s.out, !s.public, render)
	}
	// The release is in the history before anyone reads the answer: the
	// history and --out are committed together, stdout printed after.
	h.Append(d)
	var outs cli.Outputs
	defer outs.Abort()
	if err := outs.WritePrivate(histFile, func(w io.Writer) error { return audit.WriteHistory(w, h) }); err != nil {
		return cli.BadInput("--history: %v", err)
	}
	if s.out != "" {
		write := outs.WritePrivate // the operator's evidence holds confidential counts
		if s.public {
			write = outs.Write
		}
		if err := write(s.out, render); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	fmt.Fprintf(errw, "sdcopt: %s appended to %s (%d releases)\n", strings.Join(d.Margin, ":"), s.history, len(h.Releases))
	if s.out == "" {
		return emit(w, "", render)
	}
	return nil
}

// historyTarget is the file --update replaces: the history itself, or the
// file it links to (a dangling link is refused).
func historyTarget(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil // a missing file is left to --create
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", cli.BadInput("--history %s is a symbolic link that cannot be followed: %v", path, err)
	}
	return target, nil
}

// lockWait checks --lock-wait.
func lockWait(s *auditSettings) (time.Duration, error) {
	if math.IsNaN(s.lockWait) || s.lockWait < 0 || s.lockWait > 86400 {
		return 0, cli.BadInput("--lock-wait %g: want seconds in [0, 86400]", s.lockWait)
	}
	return time.Duration(s.lockWait * float64(time.Second)), nil
}

// writeDecisionText prints a decision and, unless public, its evidence.
func writeDecisionText(w io.Writer, t *model.Table, d *audit.Decision, public bool) error {
	fmt.Fprintf(w, "request [%s] (%s): %s", strings.Join(d.Margin, ":"), d.Mode, strings.ToUpper(d.Outcome))
	if d.Simulated {
		fmt.Fprint(w, " (SIMULATED, NOT DATA: a margin of a table simulated from the public releases)")
	}
	fmt.Fprintf(w, "\npolicy %s\n", d.PolicyVersion)
	if d.Counts != nil {
		if err := writeMarginCounts(w, t, d.Margin, d.Counts); err != nil {
			return err
		}
	}
	if public {
		return nil
	}
	op := d.Operator
	fmt.Fprintf(w, "operator: %s\n", op.Explanation)
	if !op.Implied {
		fmt.Fprintf(w, "operator: bounds by %s (sharp %t, cached %t, warm start %t) in %.3f s\n", op.Method, op.Sharp, op.Cached, op.Warm, op.Seconds)
	}
	for _, group := range []struct {
		name  string
		cells []audit.CellRisk
	}{{"disclosed", op.Disclosed}, {"undecided", op.Undecided}} {
		if len(group.cells) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  %s\tCOUNT\tBOUNDS\tATTAINED\tWIDTH NEEDED\n", strings.ToUpper(group.name))
		for i, c := range group.cells {
			if i == 20 {
				fmt.Fprintf(tw, "  ... %d more (--format json lists all)\n", len(group.cells)-20)
				break
			}
			fmt.Fprintf(tw, "  %s\t%d\t[%d, %d]\t[%d, %d]\t%d\n", c.Label, c.Count, c.Lower, c.Upper, c.AttainedLower, c.AttainedUpper, c.Required)
		}
		tw.Flush()
	}
	return nil
}

// writeMarginCounts prints a released margin, one row per cell.
func writeMarginCounts(w io.Writer, t *model.Table, names []string, counts []int64) error {
	var sub []int
	for _, n := range names {
		sub = append(sub, t.VarIndex(n))
	}
	dims := model.SubDims(model.Dims(t.Vars), sub)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  %s\tCOUNT\n", strings.Join(names, "\t"))
	lv := make([]int, len(dims))
	for i, c := range counts {
		model.CellLevels(dims, i, lv)
		parts := make([]string, len(sub))
		for k, j := range sub {
			parts[k] = t.Vars[j].Levels[lv[k]]
		}
		fmt.Fprintf(tw, "  %s\t%d\n", strings.Join(parts, "\t"), c)
	}
	return tw.Flush()
}

// replayRow is one decision of `sdcopt audit replay`.
type replayRow struct {
	Index    int             `json:"index"`
	Decision *audit.Decision `json:"decision"`
}

func runAuditReplay(w io.Writer, s *auditSettings) error {
	if s.requests == "" {
		return cli.BadInput("--requests SPEC1,SPEC2,... is required")
	}
	if err := checkFiles([]string{"--table", s.table, "--microdata", s.micro.file, "--levels", s.micro.levels, "--history", s.history}, []string{"--out", s.out}); err != nil {
		return err
	}
	a, err := newAuditor(s)
	if err != nil {
		return err
	}
	h := a.NewHistory()
	if s.history != "" {
		if h, err = readHistory(s.history, a, false); err != nil {
			return err
		}
	}
	subs, err := model.ParseMarginSpec(a.Vars(), s.requests)
	if err != nil {
		return cli.BadInput("--requests: %v", err)
	}
	var rows []replayRow
	start := time.Now()
	for i, sub := range subs {
		names := make([]string, len(sub))
		for k, j := range sub {
			names[k] = a.Vars()[j].Name
		}
		d, err := a.Decide(h, audit.Request{Margin: names, Mode: s.mode, Seed: s.seed + uint64(i), RequestID: fmt.Sprint(i + 1)})
		if err != nil {
			return libraryError(fmt.Sprintf("request %d [%s]", i+1, strings.Join(names, ":")), err)
		}
		h.Append(d)
		rows = append(rows, replayRow{Index: i + 1, Decision: d})
	}
	secs := time.Since(start).Seconds()
	// The decisions carry the operator's evidence (confidential counts).
	return emitPrivate(w, s.out, true, func(w io.Writer) error {
		if s.format == "json" {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(auditReplayResult{Method: "audit replay", Seconds: secs, Table: s.table, History: s.history,
				Requests: s.requests, Mode: s.mode, Seed: s.seed, Policy: s.policy, PolicyVersion: a.Policy().Version(), Decisions: rows})
		}
		return writeReplayText(w, a, rows)
	})
}

func writeReplayText(w io.Writer, a *audit.Auditor, rows []replayRow) error {
	fmt.Fprintf(w, "policy %s\n", a.Policy().Version())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tMARGIN\tMODE\tOUTCOME\tBOUNDS BY\tMS\tDISCLOSED\tUNDECIDED\tEXPLANATION")
	for _, r := range rows {
		d := r.Decision
		op := d.Operator
		how := op.Method
		switch {
		case op.Implied:
			how = "implied"
		case op.Cached:
			how += " (cached)"
		case op.Warm:
			how += " (warm)"
		}
		fmt.Fprintf(tw, "%d\t[%s]\t%s\t%s\t%s\t%.1f\t%d\t%d\t%s\n", r.Index, strings.Join(d.Margin, ":"), d.Mode, d.Outcome, how,
			1000*op.Seconds, len(op.Disclosed), len(op.Undecided), op.Explanation)
	}
	return tw.Flush()
}
