package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
	"github.com/sdcopt/sdcopt/tabular/primary"
	"github.com/sdcopt/sdcopt/tabular/suppress"
	"github.com/sdcopt/sdcopt/tabular/synth"
)

// TableProtectOptions configure TableProtect; nil means
// DefaultTableProtectOptions().
type TableProtectOptions struct {
	// Cases are "PRESET:METHOD": a synth preset (synth.Presets: one
	// table) or linked preset (synth.LinkedPresets: its tables linked in
	// one tabular.System and protected jointly), and a method of
	// suppress.Settings.Method (optimal, fast or auto).
	Cases []string
	Seed  uint64 // of the microdata
	// Rules are the primary rules (package primary), applied to every
	// table; default "freq:3".
	Rules string
	// Cost is the cost rule of a suppressed cell (suppress.ParseCostRule:
	// value, unity, freq or log); default "value".
	Cost string
	// Zero is the empty cells' policy: "never" (suppress.EmptyNever, the
	// default) or "allowed".
	Zero string
	// TimeLimit bounds each case's suppression (suppress: the best safe
	// pattern found is returned; the fast method's cubes, audit and
	// repairs always finish); 0: none.
	TimeLimit time.Duration
	// Solver is the LP engine of the audit (and of suppress's LPs);
	// default auto.
	Solver string
	// Insiders makes the suppression protect against insiders too
	// (suppress.InsidersAuto). Default false: outsiders only, as the
	// R tools of table-baselines, and what the audit column checks.
	Insiders bool
	// Keep, when not empty, is a directory (created if missing) that
	// receives each case's protected table or system as a JJ file
	// (tabular.WriteJJ; PRESET-METHOD.jj, created 0600: it holds the
	// suppressed values), which `sdcopt table audit --jj` audits again.
	Keep     string
	Progress Progress
}

// DefaultTableProtectCases are the runs of the benchmark: the optimal
// method where it finishes, the fast one on the large tables, and every
// linked preset with the fast method.
var DefaultTableProtectCases = []string{"2way-1300:optimal", "3way-5000:fast", "2way-100k:fast", "linked-2000:fast", "linked-66k:fast", "linked-100k:fast"}

// DefaultTableProtectOptions: the default cases, seed 7, freq:3, costs
// the cells' values, empty cells never suppressed, 10 minutes per case.
func DefaultTableProtectOptions() *TableProtectOptions {
	return &TableProtectOptions{Cases: DefaultTableProtectCases, Seed: 7, Rules: "freq:3", Cost: "value", Zero: "never",
		TimeLimit: 10 * time.Minute}
}

// TableProtectRow is one case: the suppression and our audit of its
// pattern.
type TableProtectRow struct {
	Case   string `json:"case"`
	Preset string `json:"preset"`
	Method string `json:"method"` // the method run (auto resolved)
	Tables int    `json:"tables"` // 1, or the linked tables of the System
	// Cells are the table's (or System's, every shared cell once);
	// Primary and Empty count them by status after the rules.
	Cells   int `json:"cells"`
	Primary int `json:"primary"`
	Empty   int `json:"empty"`
	// Status is "ok" or "error" (Message says why; the row has no
	// pattern).
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	// Secondary and Cost are the pattern's (suppress.Result); LowerBound
	// and Gap the optimal method's proven bound and relative gap (nil for
	// the fast method, which proves none); Stop why the search stopped.
	Secondary  int      `json:"secondary"`
	Cost       float64  `json:"cost"`
	LowerBound *float64 `json:"lower_bound"`
	Gap        *float64 `json:"gap"`
	Stop       string   `json:"stop"`
	// SolveSeconds is suppress.Solve (or SolveSystem) with its own audit;
	// its parts: the optimal method's separation, heuristic and MIPs;
	// the fast method's cube phase (CubeSeconds, from its progress) and
	// repairs (HeuristicSeconds), the rest of its time being its audits.
	SolveSeconds      float64 `json:"solve_seconds"`
	SeparationSeconds float64 `json:"separation_seconds"`
	HeuristicSeconds  float64 `json:"heuristic_seconds"`
	MIPSeconds        float64 `json:"mip_seconds"`
	CubeSeconds       float64 `json:"cube_seconds"`
	RepairRounds      int     `json:"repair_rounds"`
	// SolveAuditOK is Solve's own verdict (suppress.Result.Audit).
	SolveAuditOK bool `json:"solve_audit_ok"`
	// AuditSeconds is our audit of the published pattern, independent of
	// Solve: intervals.Compute (ComputeSystem for linked tables) over the
	// pattern, then intervals.AuditProtection with the primary cells'
	// levels (a shared cell's the largest its tables give it).
	// UnderProtected counts the primary cells whose interval misses
	// their levels, DisclosedPrimary and DisclosedSecondary the
	// suppressed cells recomputed exactly; Failures is the primary cells
	// failing either way (the safety verdict: 0 is safe).
	AuditSeconds       float64 `json:"audit_seconds"`
	UnderProtected     int     `json:"under_protected"`
	DisclosedPrimary   int     `json:"disclosed_primary"`
	DisclosedSecondary int     `json:"disclosed_secondary"`
	Failures           int     `json:"failures"`
	Example            string  `json:"example,omitempty"` // one failing cell, with its interval
	Zero               string  `json:"zero"`
	// LoadStart and LoadEnd are the 1-minute load average (/proc/loadavg) when the case
	// started and ended (nil where it cannot be read).
	LoadStart *float64 `json:"load_start"`
	LoadEnd   *float64 `json:"load_end"`
	// Trace is the search's progress (seconds, incumbent, lower bound),
	// ending with the result when Solve returned.
	Trace []TracePoint `json:"trace"`
}

// TableProtectReport is the outcome of TableProtect.
type TableProtectReport struct {
	Method    string            `json:"method"` // "table-protect"
	Seed      uint64            `json:"seed"`
	Rules     string            `json:"rules"`
	CostRule  string            `json:"cost_rule"`
	TimeLimit float64           `json:"time_limit"`
	Started   string            `json:"started"` // RFC 3339, UTC
	Rows      []TableProtectRow `json:"rows"`
	Seconds   float64           `json:"seconds"`
}

// TableProtect generates each case's preset (seed Seed), applies the
// primary rules to each table, links the tables of a linked preset in one
// tabular.System, protects it with suppress.Solve (SolveSystem) by the
// case's method, and audits the pattern itself (see TableProtectRow). A
// failure of one case is its row's error; bad options are a
// *SettingsError.
func TableProtect(opt *TableProtectOptions) (*TableProtectReport, error) {
	start := time.Now()
	if opt == nil {
		opt = DefaultTableProtectOptions()
	}
	o := *opt
	if o.Rules == "" {
		o.Rules = "freq:3"
	}
	if o.Cost == "" {
		o.Cost = "value"
	}
	if o.Zero == "" {
		o.Zero = "never"
	}
	rs, err := primary.ParseRuleSet(o.Rules)
	if err != nil {
		return nil, settingsErr("rules", "%v", err)
	}
	rule, err := suppress.ParseCostRule(o.Cost)
	if err != nil {
		return nil, settingsErr("cost", "%v", err)
	}
	empty := suppress.EmptyNever
	switch o.Zero {
	case "never":
	case "allowed":
		empty = suppress.EmptyAllowed
	default:
		return nil, settingsErr("zero", "%q: want never or allowed", o.Zero)
	}
	if o.TimeLimit < 0 {
		return nil, settingsErr("time-limit", "%v: want ≥ 0", o.TimeLimit)
	}
	type job struct{ preset, method string }
	var jobs []job
	for _, c := range o.Cases {
		preset, method, ok := strings.Cut(c, ":")
		if !ok {
			method = suppress.MethodAuto
		}
		if !slices.Contains(synth.Presets(), preset) && !slices.Contains(synth.LinkedPresets(), preset) {
			return nil, settingsErr("cases", "%q: unknown preset %q (want one of %s)", c, preset,
				strings.Join(append(synth.Presets(), synth.LinkedPresets()...), ", "))
		}
		switch method {
		case suppress.MethodOptimal, suppress.MethodFast, suppress.MethodAuto:
		default:
			return nil, settingsErr("cases", "%q: unknown method %q (want optimal, fast or auto)", c, method)
		}
		jobs = append(jobs, job{preset, method})
	}
	if len(jobs) == 0 {
		return nil, settingsErr("cases", "no case")
	}
	prog := progressOf(o.Progress)
	rep := &TableProtectReport{Method: "table-protect", Seed: o.Seed, Rules: rs.Spec(), CostRule: o.Cost,
		TimeLimit: o.TimeLimit.Seconds(), Started: start.UTC().Format(time.RFC3339)}
	prog.Start("cases", len(jobs))
	for _, j := range jobs {
		prog.Describe(j.preset + ":" + j.method)
		row := TableProtectRow{Case: j.preset + ":" + j.method, Preset: j.preset, Method: j.method, Zero: o.Zero, LoadStart: loadAverage()}
		set := &suppress.Settings{Method: j.method, Empty: empty, LPSolver: o.Solver,
			Params: &solvers.Params{TimeLimit: o.TimeLimit}, Insiders: suppress.InsidersOff}
		if o.Insiders {
			set.Insiders = suppress.InsidersAuto
		}
		set.Progress = func(p suppress.Progress) {
			row.Trace = append(row.Trace, TracePoint{Seconds: p.Elapsed.Seconds(), Incumbent: p.Cost, Bound: p.LowerBound})
			if p.Phase == "cubes" {
				row.CubeSeconds = p.Elapsed.Seconds()
			}
			prog.Printf("%s: %s, cost %.10g, bound %.10g, %.1f s", row.Case, p.Phase, p.Cost, p.LowerBound, p.Elapsed.Seconds())
		}
		if err := protectCase(&row, o.Seed, rs, rule, set, o.Solver, o.Keep); err != nil {
			row.Status, row.Message = "error", err.Error()
		}
		row.LoadEnd = loadAverage()
		rep.Rows = append(rep.Rows, row)
		prog.Add(1)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// protectCase runs one case into row.
func protectCase(row *TableProtectRow, seed uint64, rs *primary.RuleSet, rule suppress.CostRule, set *suppress.Settings, solver, keep string) error {
	var tabs [][]string
	var spec synth.Spec
	if ls, err := synth.LinkedPreset(row.Preset, seed); err == nil {
		spec, tabs = ls.Spec, ls.Tables
	} else {
		if spec, err = synth.Preset(row.Preset, seed); err != nil {
			return err
		}
	}
	d, err := synth.Generate(spec)
	if err != nil {
		return err
	}
	var tables []*tabular.Table
	if tabs == nil {
		t, err := d.Table()
		if err != nil {
			return err
		}
		tables = []*tabular.Table{t}
	} else if tables, err = d.Tables(tabs); err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := tabular.ApplyPrimary(t, rs); err != nil {
			return err
		}
		suppress.SetCosts(t.Cells, rule)
	}
	row.Tables = len(tables)
	var res *suppress.Result
	var audit func() (*intervals.Result, intervals.Protection, error)
	var linear func() *tabular.LinearSystem // the pattern, for Keep
	if tabs == nil {
		t := tables[0]
		row.Cells = len(t.Cells)
		for _, c := range t.Cells {
			countStatus(row, c.Status)
		}
		res, err = suppress.Solve(t, set)
		audit = func() (*intervals.Result, intervals.Protection, error) {
			pat := *t
			pat.Cells = slices.Clone(t.Cells)
			res.Apply(&pat)
			ir, err := intervals.Compute(&pat, &intervals.Settings{Solver: solver, NoCertificates: true})
			return ir, intervals.CellProtection(t.Cells), err
		}
		linear = func() *tabular.LinearSystem {
			pat := *t
			pat.Cells = slices.Clone(t.Cells)
			res.Apply(&pat)
			return pat.Linear()
		}
	} else {
		sys, err := tabular.NewSystem(tables, nil)
		if err != nil {
			return err
		}
		row.Cells = sys.Len()
		for _, c := range sys.Cells {
			countStatus(row, c.Status)
		}
		res, err = suppress.SolveSystem(sys, set)
		audit = func() (*intervals.Result, intervals.Protection, error) {
			pat := *sys
			pat.Cells = slices.Clone(sys.Cells)
			for g := range pat.Cells {
				pat.Cells[g].Status = res.Status[g]
			}
			ir, err := intervals.ComputeSystem(&pat, &intervals.Settings{Solver: solver, NoCertificates: true})
			return ir, systemProtection(sys), err
		}
		linear = func() *tabular.LinearSystem {
			ls := sys.Linear()
			for g := range ls.Cells {
				ls.Cells[g].Status = res.Status[g]
				lo, up, sl := systemProtection(sys)(g)
				ls.Cells[g].Lower, ls.Cells[g].Upper, ls.Cells[g].Sliding = lo, up, sl
			}
			return ls
		}
	}
	if err != nil && (res == nil || !errors.Is(err, suppress.ErrUnsafe)) {
		return err
	}
	if err != nil {
		row.Message = err.Error()
	}
	row.Status, row.Method, row.Secondary, row.Cost, row.Stop = "ok", res.Method, res.Secondary, res.Cost, res.Stop.String()
	if res.Method == suppress.MethodOptimal {
		lb, gap := res.LowerBound, res.Gap
		row.LowerBound, row.Gap = &lb, &gap
	}
	row.SolveSeconds, row.SeparationSeconds, row.HeuristicSeconds, row.MIPSeconds = res.Seconds, res.SeparationSeconds, res.HeuristicSeconds, res.MIPSeconds
	// The state at the end (the final audit included), so that the
	// trace's last step lasts until Solve returned.
	row.Trace = append(row.Trace, TracePoint{Seconds: res.Seconds, Incumbent: res.Cost, Bound: res.LowerBound})
	row.RepairRounds = res.RepairRounds
	row.SolveAuditOK = res.Audit != nil && res.Audit.OK()
	if keep != "" {
		path := filepath.Join(keep, row.Preset+"-"+row.Method+".jj")
		if err := writePrivate(path, func(w io.Writer) error { return tabular.WriteJJ(w, linear()) }); err != nil {
			return fmt.Errorf("keep: %w", err)
		}
	}
	t0 := time.Now()
	ir, levels, err := audit()
	row.AuditSeconds = time.Since(t0).Seconds()
	if err != nil {
		return fmt.Errorf("auditing the pattern: %w", err)
	}
	ar := intervals.AuditProtection(ir, levels)
	failed := map[int]bool{}
	for _, f := range ar.UnderProtected {
		failed[f.Cell] = true
	}
	for _, f := range ar.Disclosed {
		if f.Status == tabular.Primary {
			row.DisclosedPrimary++
			failed[f.Cell] = true
		} else {
			row.DisclosedSecondary++
		}
	}
	row.UnderProtected, row.Failures = len(ar.UnderProtected), len(failed)
	for _, fl := range [][]intervals.Finding{ar.UnderProtected, ar.Disclosed} {
		if len(fl) > 0 && row.Example == "" {
			f := fl[0]
			row.Example = fmt.Sprintf("cell %d (%s): %g in [%g, %g], needs [%g, %g]", f.Cell, f.Status, f.Value, f.Lower, f.Upper,
				f.Value-f.RequiredLower, f.Value+f.RequiredUpper)
		}
	}
	return nil
}

// writePrivate writes path (its directory created if missing) through a
// temporary file renamed into place, with mode 0600.
func writePrivate(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(tmp)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// countStatus counts a cell's status into row.
func countStatus(row *TableProtectRow, st tabular.Status) {
	switch st {
	case tabular.Primary:
		row.Primary++
	case tabular.Empty:
		row.Empty++
	}
}

// systemProtection gives each System cell the largest levels its tables
// give it (as suppress.SolveSystem protects it).
func systemProtection(sys *tabular.System) intervals.Protection {
	return func(g int) (lo, up, sl float64) {
		for _, r := range sys.Cells[g].Refs {
			c := &sys.Tables[r.Table].Cells[r.Cell]
			lo, up, sl = max(lo, c.Lower), max(up, c.Upper), max(sl, c.Sliding)
		}
		return lo, up, sl
	}
}

// loadAverage returns the 1-minute load average of /proc/loadavg, or nil.
func loadAverage() *float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return nil
	}
	x, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return nil
	}
	return &x
}

// Tables returns the runs and, per optimal case, its trace.
func (r *TableProtectReport) Tables() []*Table {
	runs := &Table{Name: "runs", Columns: []string{"case", "preset", "method", "tables", "cells", "primary", "empty", "status", "secondary",
		"cost", "lower_bound", "gap", "stop", "solve_seconds", "separation_seconds", "heuristic_seconds", "mip_seconds", "cube_seconds",
		"repair_rounds", "solve_audit_ok", "audit_seconds", "under_protected", "disclosed_primary", "disclosed_secondary", "failures",
		"zero", "load_start", "load_end", "message"}}
	trace := &Table{Name: "trace", Columns: []string{"case", "seconds", "incumbent", "bound"}}
	for _, x := range r.Rows {
		runs.add(x.Case, x.Preset, x.Method, x.Tables, x.Cells, x.Primary, x.Empty, x.Status, x.Secondary, x.Cost, x.LowerBound, x.Gap,
			x.Stop, x.SolveSeconds, x.SeparationSeconds, x.HeuristicSeconds, x.MIPSeconds, x.CubeSeconds, x.RepairRounds, x.SolveAuditOK,
			x.AuditSeconds, x.UnderProtected, x.DisclosedPrimary, x.DisclosedSecondary, x.Failures, x.Zero, x.LoadStart, x.LoadEnd, x.Message)
		for _, p := range x.Trace {
			trace.add(x.Case, p.Seconds, p.Incumbent, p.Bound)
		}
	}
	return []*Table{runs, trace}
}

// WriteText writes one line per case.
func (r *TableProtectReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Secondary cell suppression on synth presets (seed %d, rules %s, cost %s, time limit %gs; started %s)\n",
		r.Seed, r.Rules, r.CostRule, r.TimeLimit, r.Started)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tTABLES\tCELLS\tPRIMARY\tSECONDARY\tCOST\tBOUND\tGAP\tSTOP\tSOLVE S\tAUDIT S\tFAILS (UNDER/DISCL)\tZERO\tLOAD")
	num := func(p *float64, f string) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf(f, *p)
	}
	for _, x := range r.Rows {
		if x.Status != "ok" {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\terror: %s\n", x.Case, x.Tables, x.Cells, x.Primary, x.Message)
			continue
		}
		gap := "-"
		if x.Gap != nil {
			gap = fmt.Sprintf("%.2f%%", 100**x.Gap)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%g\t%s\t%s\t%s\t%.1f\t%.1f\t%d (%d/%d)\t%s\t%s-%s\n", x.Case, x.Tables, x.Cells, x.Primary,
			x.Secondary, x.Cost, num(x.LowerBound, "%.10g"), gap, x.Stop, x.SolveSeconds, x.AuditSeconds, x.Failures, x.UnderProtected,
			x.DisclosedPrimary, x.Zero, num(x.LoadStart, "%.1f"), num(x.LoadEnd, "%.1f"))
	}
	tw.Flush()
	for _, x := range r.Rows {
		if x.Status != "ok" {
			continue
		}
		switch x.Method {
		case suppress.MethodOptimal:
			fmt.Fprintf(w, "%s: separation %.1f s, heuristic %.1f s, MIP %.1f s", x.Case, x.SeparationSeconds, x.HeuristicSeconds, x.MIPSeconds)
		default:
			fmt.Fprintf(w, "%s: cubes %.1f s, repairs %.1f s (%d rounds), Solve's audits %.1f s", x.Case, x.CubeSeconds, x.HeuristicSeconds,
				x.RepairRounds, max(0, x.SolveSeconds-x.CubeSeconds-x.HeuristicSeconds))
		}
		fmt.Fprintf(w, "; %d secondary disclosed", x.DisclosedSecondary)
		if !x.SolveAuditOK {
			fmt.Fprint(w, "; Solve's own audit FAILED")
		}
		if x.Message != "" {
			fmt.Fprintf(w, "; %s", x.Message)
		}
		if x.Example != "" {
			fmt.Fprintf(w, "; e.g. %s", x.Example)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// Figures draws, for each case of the optimal method, the incumbent's
// cost and the lower bound against time (TraceFigure), named
// "suppress-trace-PRESET". Steps before the first incumbent (cost 0
// while later costs are positive) are left out.
func (r *TableProtectReport) Figures() ([]*Figure, error) {
	var figs []*Figure
	for _, x := range r.Rows {
		if x.Status != "ok" || x.Method != suppress.MethodOptimal || len(x.Trace) == 0 {
			continue
		}
		pts := x.Trace
		for len(pts) > 1 && !(pts[0].Incumbent > 0) && slices.ContainsFunc(pts, func(p TracePoint) bool { return p.Incumbent > 0 }) {
			pts = pts[1:]
		}
		title := fmt.Sprintf("Secondary suppression, %s (%s): cost against time", x.Preset, r.Rules)
		f, err := TraceFigure("suppress-trace-"+x.Preset, title, pts)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}
