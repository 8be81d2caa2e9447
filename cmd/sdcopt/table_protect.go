package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
	"github.com/sdcopt/sdcopt/tabular/primary"
	"github.com/sdcopt/sdcopt/tabular/suppress"
)

// tableProtectSettings are the flags of `sdcopt table protect`.
type tableProtectSettings struct {
	data, table, dims      string
	response, respondent   string
	holding, weight, rules string
	sep                    string
	topN                   int
	method, cost, zero     string
	out, statuses, format  string
	report, trace, plot    string
	quiet, insiders        bool
	exactAudit             bool
	engine                 engineFlags
}

func newTableProtectCmd() *cobra.Command {
	var s tableProtectSettings
	c := &cobra.Command{
		Use:   "protect",
		Short: "Secondary cell suppression: the cheapest safe pattern that protects the primary cells",
		Long: "sdcopt table protect chooses the secondary cells to suppress besides the primary\n" +
			"ones, at the least total cost, so that the interval an attacker derives for every\n" +
			"primary cell from the published cells and the table's relations reaches its\n" +
			"protection levels (Fischetti and Salazar-González's model: capacity cuts, an LP cut\n" +
			"loop, master MIPs and a heuristic; the pattern is always safe, with a lower bound).\n\n" +
			"Input: microdata (--data, --dims, --response, --rules: the primary rules are applied\n" +
			"first, as by `sdcopt table primary`) or a table file with statuses and protection\n" +
			"levels (--table, --dims, as `sdcopt table primary --out` writes it; --rules\n" +
			"re-applies rules to it). --cost unity|freq|value|log|COLUMN (a numeric column of\n" +
			"the --table file) is what a suppressed cell costs. --out writes the published table\n" +
			"(suppressed values and frequencies as x); --statuses the full table with statuses\n" +
			"(0600: it holds the suppressed values), which `sdcopt table audit` reads.\n\n" +
			"Exit 0 when the pattern is safe (the interval audit passes); 1 when no pattern can\n" +
			"protect a primary cell or the audit fails.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runTableProtect(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "microdata CSV file to tabulate")
	f.StringVar(&s.table, "table", "", "table file with statuses and protection levels instead of --data")
	f.StringVar(&s.dims, "dims", "", "spanning variables, e.g. region:region.hrc,sector or region:prefix=1,3")
	f.StringVar(&s.response, "response", "", "numeric column summed in a magnitude table (default: a frequency table)")
	f.StringVar(&s.respondent, "respondent", "", "column identifying respondents; default: one record, one respondent")
	f.StringVar(&s.holding, "holding", "", "column of each respondent's holding")
	f.StringVar(&s.weight, "weight", "", "column of sampling weights")
	f.IntVar(&s.topN, "top", tabular.DefaultTopN, "largest contributions kept per cell (nk:n needs n)")
	f.StringVar(&s.rules, "rules", "", "sensitivity rules, e.g. freq:3,p:15 (required with --data; with --table the file's statuses are used unless given)")
	f.StringVar(&s.sep, "sep", ",", "field separator of the input files: , or ; or tab")
	f.StringVar(&s.method, "method", "auto", "optimal (branch and cut: a proven lower bound), fast (hypercubes, which prove the audit exactly when every primary cell has one, else the full audit and LP repairs; no bound) or auto (optimal below 3,000 cells, else fast)")
	f.BoolVar(&s.exactAudit, "exact-audit", false, "with the fast method, compute the attacker's intervals and audit them even when the hypercubes prove the pattern safe")
	f.StringVar(&s.cost, "cost", "value", "cost of suppressing a cell: unity|freq|value|log|COLUMN (a numeric column of the --table file)")
	f.StringVar(&s.zero, "zero", "never", "empty cells: never (always published) or allowed (may be secondary suppressions)")
	f.StringVar(&s.out, "out", "", "write the published table (suppressed cells as x) to this file, atomically")
	f.StringVar(&s.statuses, "statuses", "", "write the full table with statuses to this file, atomically (created 0600: it holds the suppressed values)")
	f.StringVar(&s.format, "format", "text", "report format: text|json|csv")
	f.StringVar(&s.report, "report", "", "write the report to this file instead of stdout, atomically (created 0600)")
	f.StringVar(&s.trace, "trace", "", "write the search's trace (CSV: seconds, incumbent, bound) to this file")
	f.StringVar(&s.plot, "plot", "", "draw the trace (cost against time: incumbent and lower bound) in this directory (SVG and PNG)")
	f.BoolVar(&s.quiet, "quiet", false, "no progress messages on stderr")
	f.BoolVar(&s.insiders, "insiders", true, "protect against insiders too when the table has a freq column or contributions (contributors who know their own values, coalitions of a cell's two contributors): the search models them, and the insider audit of sdcopt table audit is the final gate (a finding blocks publication); false protects against outsiders only")
	s.engine.registerSolver(c, false, "time limit of the whole search in seconds (0 = none); the best safe pattern found is returned")
	f.Lookup("solver").Usage = "MIP engine of the master problem: auto|highs|cbc|lpsolve"
	return c
}

// tableProtectReport is the report of `sdcopt table protect` (JSON).
type tableProtectReport struct {
	Method         string   `json:"method"` // the method run: "optimal" or "fast" (auto resolved)
	Data           string   `json:"data,omitempty"`
	Table          string   `json:"table,omitempty"`
	Dims           []string `json:"dims"`
	Rules          string   `json:"rules,omitempty"`
	Cost           string   `json:"cost"`
	Zero           string   `json:"zero"`
	Out            string   `json:"out,omitempty"`
	Statuses       string   `json:"statuses,omitempty"`
	Cells          int      `json:"cells"`
	Primary        int      `json:"primary"`
	Secondary      int      `json:"secondary"`
	Suppressed     int      `json:"suppressed"`       // primary + secondary
	SuppressedSum  float64  `json:"suppressed_value"` // Σ |value| over suppressed cells
	PatternCost    float64  `json:"cost_of_secondary"`
	LowerBound     float64  `json:"lower_bound"`
	Gap            float64  `json:"gap"`
	Stop           string   `json:"stop"`
	Audit          string   `json:"audit"` // pass, fail or skipped
	UnderProtected int      `json:"under_protected"`
	Disclosed      int      `json:"disclosed"`
	// Insiders is the insider audit of the pattern (pass, fail, or why
	// it did not run); InsiderTargets the insider targets the search
	// added to its model (suppress.Result.InsiderTargets).
	Insiders        string  `json:"insiders"`
	InsiderFindings int     `json:"insider_findings"`
	InsiderTargets  int     `json:"insider_targets"`
	LPRounds        int     `json:"lp_rounds"`
	MIPSolves       int     `json:"mip_solves"`
	Cuts            int     `json:"cuts"`
	LPEngine        string  `json:"lp_engine,omitempty"`
	MIPEngine       string  `json:"mip_engine,omitempty"`
	Seconds         float64 `json:"seconds"`
}

// protectMethods are the --method values (suppress.Settings.Method).
var protectMethods = []string{"auto", "optimal", "fast"}

func runTableProtect(w io.Writer, s *tableProtectSettings) error {
	start := time.Now()
	if err := cli.CheckFormat(s.format, "text", "json", "csv"); err != nil {
		return err
	}
	switch {
	case s.data == "" && s.table == "":
		return cli.BadInput("give --data MICRODATA.csv or --table FILE")
	case s.data != "" && s.table != "":
		return cli.BadInput("give either --data or --table, not both")
	case s.dims == "":
		return cli.BadInput("--dims is required (e.g. --dims region:region.hrc,sector)")
	case s.data != "" && s.rules == "":
		return cli.BadInput("--rules is required with --data (e.g. --rules freq:3,p:15)")
	}
	if s.table != "" && (s.response != "" || s.respondent != "" || s.holding != "" || s.weight != "") {
		return cli.BadInput("--response, --respondent, --holding and --weight tabulate --data; a --table file is already a table")
	}
	method := s.method
	switch method {
	case suppress.MethodAuto, suppress.MethodOptimal, suppress.MethodFast:
	default:
		return cli.BadInput("--method %q: want %s", s.method, strings.Join(protectMethods, "|"))
	}
	empty := suppress.EmptyNever
	switch s.zero {
	case "never":
	case "allowed":
		empty = suppress.EmptyAllowed
	default:
		return cli.BadInput("--zero %q: want never or allowed", s.zero)
	}
	costCol := ""
	rule, err := suppress.ParseCostRule(s.cost)
	if err != nil {
		if s.table == "" || strings.TrimSpace(s.cost) == "" {
			return cli.BadInput("--cost %q: want unity, freq, value, log or (with --table) a numeric column of the table file", s.cost)
		}
		costCol = strings.TrimSpace(s.cost)
	}
	if err := cli.IntRange("--top", s.topN, 1, 1000); err != nil {
		return err
	}
	if err := s.engine.check(false); err != nil {
		return err
	}
	params, err := s.engine.params()
	if err != nil {
		return err
	}
	sep, err := datasets.ParseSep(s.sep)
	if err != nil {
		return cli.BadInput("--sep: %v", err)
	}
	var rs *primary.RuleSet
	if s.rules != "" {
		if rs, err = primary.ParseRuleSet(s.rules); err != nil {
			return cli.BadInput("--rules: %v", strings.TrimPrefix(err.Error(), "primary: "))
		}
	}
	dims, err := parseDims(s.dims)
	if err != nil {
		return err
	}
	var files cli.Files
	files.Input("--data", s.data)
	files.Input("--table", s.table)
	for _, d := range dims {
		if d.file != "" {
			files.Input("--dims", d.file)
		}
	}
	files.Output("--out", s.out)
	files.Output("--statuses", s.statuses)
	files.Output("--report", s.report)
	files.Output("--trace", s.trace)
	if s.plot != "" {
		// An existing directory must take new files; otherwise it is
		// created beside its parent, like a file (as bench --plot).
		if st, err := os.Stat(s.plot); err == nil && st.IsDir() {
			files.Output("--plot", filepath.Join(s.plot, protectFigure+".svg"))
		} else {
			files.Output("--plot", s.plot)
		}
	}
	if err := files.Check(); err != nil {
		return err
	}
	tab, err := loadProtectTable(s, dims, sep, costCol)
	if err != nil {
		return err
	}
	if s.rules != "" {
		if _, err := tabular.ApplyPrimary(tab, rs); err != nil {
			if s.table != "" && errors.Is(err, tabular.ErrPrimary) && !tab.Magnitude {
				return cli.BadInput("--rules: %v (a table file keeps no contributions: give --data and --response for nk, p and pq)", strings.TrimPrefix(err.Error(), "tabular: "))
			}
			return cli.BadInput("--rules: %v", strings.TrimPrefix(err.Error(), "tabular: "))
		}
	}
	if costCol == "" {
		suppress.SetCosts(tab.Cells, rule)
	}

	prog := cli.NewProgress(s.quiet)
	var trace []bench.TracePoint
	set := &suppress.Settings{Method: method, MIPSolver: s.engine.solver, Params: params, Empty: empty, ExactAudit: s.exactAudit,
		Progress: func(p suppress.Progress) {
			trace = append(trace, bench.TracePoint{Seconds: p.Elapsed.Seconds(), Incumbent: p.Cost, Bound: p.LowerBound})
			prog.Printf("%s: cost %s, lower bound %s, %d cuts, %.1f s", p.Phase, datasets.FormatValue(p.Cost),
				datasets.FormatValue(p.LowerBound), p.Cuts, p.Elapsed.Seconds())
		}}
	if s.engine.solver == "auto" {
		set.MIPSolver = ""
	}
	if !s.insiders {
		set.Insiders = suppress.InsidersOff
	}
	res, err := suppress.Solve(tab, set)
	prog.Flush()
	if err != nil && !errors.Is(err, suppress.ErrUnsafe) {
		if errors.Is(err, suppress.ErrInfeasible) || errors.Is(err, tabular.ErrInconsistent) {
			return cli.NoSolution("%s: %v", inputName(s), err)
		}
		if errors.Is(err, suppress.ErrInput) || errors.Is(err, suppress.ErrUnsupported) {
			return cli.BadInput("%s: %v", inputName(s), err)
		}
		return libraryError(inputName(s), err)
	}
	unsafe := err
	res.Apply(tab)
	rep := newProtectReport(s, res.Method, tab, res, costCol)
	rep.Insiders = "skipped"
	switch {
	case s.insiders && res.Insiders != nil:
		// Solve's final check: every insider, no cap.
		if res.Insiders.OK() {
			rep.Insiders = "pass"
		} else {
			rep.Insiders, rep.InsiderFindings = "fail", max(len(res.Insiders.Findings), 1)
		}
	case s.insiders:
		set := &intervals.Settings{NoCertificates: true}
		ir, err := intervals.Compute(tab, set)
		if err != nil {
			return libraryError(inputName(s), err)
		}
		sec, err := runInsiders(tab, ir, set, 0)
		if err != nil {
			return err
		}
		switch {
		case !sec.Ran:
			rep.Insiders = "not run: " + sec.Why
		case sec.Pass:
			rep.Insiders = "pass"
		default:
			rep.Insiders, rep.InsiderFindings = "fail", len(sec.Findings)
		}
	}

	var outs cli.Outputs
	defer outs.Abort()
	// An unsafe pattern (numerical trouble, or an insider no pattern can
	// resist; see suppress.ErrUnsafe), or one that the insider audit
	// breaks, is reported but never published; --insiders=false is the
	// user insisting on a pattern safe against outsiders only.
	insiderFail := rep.InsiderFindings > 0
	if s.out != "" && unsafe == nil && !insiderFail {
		if err := outs.Write(s.out, func(w io.Writer) error { return tabular.WritePublished(w, tab, s.table == "" || hasFreq(tab)) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if s.statuses != "" {
		if err := outs.WritePrivate(s.statuses, func(w io.Writer) error { return tabular.WriteTableFile(w, tab) }); err != nil {
			return cli.BadInput("--statuses: %v", err)
		}
	}
	if s.trace != "" {
		if err := outs.Write(s.trace, func(w io.Writer) error { return writeTrace(w, trace) }); err != nil {
			return cli.BadInput("--trace: %v", err)
		}
	}
	if s.plot != "" {
		fig, err := bench.TraceFigure(protectFigure, "Secondary suppression: cost of the pattern against time", trace)
		if err != nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("--plot: %w", err)}
		}
		if err := outs.Mkdir(s.plot); err != nil {
			return cli.BadInput("--plot: %v", err)
		}
		for _, ext := range bench.FigureFormats {
			if err := outs.Write(filepath.Join(s.plot, protectFigure+"."+ext), func(w io.Writer) error { return fig.Write(w, ext) }); err != nil {
				return cli.BadInput("--plot: %v", err)
			}
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	err = emitPrivate(w, s.report, true, func(w io.Writer) error {
		if err := outs.Commit(); err != nil {
			return cli.BadInput("--out: %v", err)
		}
		return rep.write(w, s.format)
	})
	if err != nil {
		return err
	}
	if unsafe != nil {
		return cli.NoSolution("%s: %v", inputName(s), unsafe)
	}
	if insiderFail {
		return cli.NoSolution("%s: the pattern is safe against outsiders, but %d insider finding(s) break primary cells (see sdcopt table audit); nothing published: --insiders=false protects against outsiders only", inputName(s), rep.InsiderFindings)
	}
	return nil
}

func inputName(s *tableProtectSettings) string {
	if s.data != "" {
		return s.data
	}
	return s.table
}

// loadProtectTable builds the table from --data or reads the --table
// file (its cost from column costCol when given).
func loadProtectTable(s *tableProtectSettings, dims []dimFlag, sep rune, costCol string) (*tabular.Table, error) {
	if s.table != "" {
		return loadTableFileWith(s.table, dims, &tabular.TableFileSettings{Sep: sep, CostColumn: costCol})
	}
	specs := make([]tabular.DimSpec, len(dims))
	for i, d := range dims {
		specs[i] = tabular.DimSpec{Column: d.name, Prefix: d.prefix}
		if d.file != "" {
			var err error
			if specs[i].H, err = loadHierarchy(d.file, sep); err != nil {
				return nil, libraryError("--dims", err)
			}
		}
	}
	tab, err := tabular.LoadMicrodata(s.data, specs, &tabular.BuildSettings{Response: s.response, Respondent: s.respondent,
		Holding: s.holding, Weight: s.weight, TopN: s.topN, Sep: sep})
	if err != nil {
		return nil, libraryError("", err)
	}
	return tab, nil
}

// hasFreq reports whether any cell of t has a frequency (a table file
// without a freq column has none).
func hasFreq(t *tabular.Table) bool {
	for _, c := range t.Cells {
		if c.Freq > 0 {
			return true
		}
	}
	return false
}

// protectFigure is the name of the --plot figure.
const protectFigure = "protect-trace"

// writeTrace writes the search's steps: seconds, incumbent, bound.
func writeTrace(w io.Writer, pts []bench.TracePoint) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"seconds", "incumbent", "bound"})
	for _, p := range pts {
		cw.Write([]string{strconv.FormatFloat(p.Seconds, 'f', 6, 64), datasets.FormatValue(p.Incumbent), datasets.FormatValue(p.Bound)})
	}
	cw.Flush()
	return cw.Error()
}

func newProtectReport(s *tableProtectSettings, method string, tab *tabular.Table, res *suppress.Result, costCol string) *tableProtectReport {
	rep := &tableProtectReport{Method: method, Data: s.data, Table: s.table, Cost: s.cost, Zero: s.zero, Out: s.out,
		Statuses: s.statuses, Cells: len(tab.Cells), Primary: res.Primary, Secondary: res.Secondary, PatternCost: res.Cost,
		LowerBound: res.LowerBound, Gap: res.Gap, Stop: res.Stop.String(), Audit: "skipped", LPRounds: res.LPRounds,
		MIPSolves: res.MIPSolves, Cuts: res.Cuts, LPEngine: res.LPEngine, MIPEngine: res.MIPEngine, InsiderTargets: res.InsiderTargets}
	if s.rules != "" {
		rs, _ := primary.ParseRuleSet(s.rules)
		rep.Rules = rs.Spec()
	}
	if costCol != "" {
		rep.Cost = "column " + costCol
	}
	for _, d := range tab.Dims {
		rep.Dims = append(rep.Dims, d.Name)
	}
	primaries := 0
	for _, c := range tab.Cells {
		if c.Status.Suppressed() {
			rep.Suppressed++
			rep.SuppressedSum += math.Abs(c.Value)
		}
		if c.Status == tabular.Primary {
			primaries++
		}
	}
	rep.Primary = primaries
	if res.Audit != nil {
		rep.Audit = "pass"
		rep.UnderProtected, rep.Disclosed = len(res.Audit.UnderProtected), len(res.Audit.Disclosed)
		if !res.Audit.OK() {
			rep.Audit = "fail"
		}
	}
	return rep
}

func (r *tableProtectReport) write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"measure", "value"})
		for _, kv := range [][2]string{
			{"cells", strconv.Itoa(r.Cells)}, {"primary", strconv.Itoa(r.Primary)}, {"secondary", strconv.Itoa(r.Secondary)},
			{"suppressed", strconv.Itoa(r.Suppressed)}, {"suppressed_value", datasets.FormatValue(r.SuppressedSum)},
			{"cost_of_secondary", datasets.FormatValue(r.PatternCost)}, {"lower_bound", datasets.FormatValue(r.LowerBound)},
			{"gap", datasets.FormatValue(r.Gap)}, {"stop", r.Stop}, {"audit", r.Audit},
			{"under_protected", strconv.Itoa(r.UnderProtected)}, {"disclosed", strconv.Itoa(r.Disclosed)},
			{"insiders", r.Insiders}, {"insider_findings", strconv.Itoa(r.InsiderFindings)}, {"insider_targets", strconv.Itoa(r.InsiderTargets)},
			{"seconds", strconv.FormatFloat(r.Seconds, 'f', 3, 64)},
		} {
			cw.Write(kv[:])
		}
		cw.Flush()
		return cw.Error()
	}
	src := r.Data
	if src == "" {
		src = r.Table
	}
	fmt.Fprintf(w, "table       %s over %s\n", src, strings.Join(r.Dims, " × "))
	if r.Rules != "" {
		fmt.Fprintf(w, "rules       %s\n", r.Rules)
	}
	fmt.Fprintf(w, "method      %s (cost %s, empty cells %s)\n", r.Method, r.Cost, r.Zero)
	fmt.Fprintf(w, "cells       %d\n", r.Cells)
	fmt.Fprintf(w, "primary     %d\n", r.Primary)
	fmt.Fprintf(w, "secondary   %d\n", r.Secondary)
	fmt.Fprintf(w, "suppressed  %d cells, total value %s\n", r.Suppressed, datasets.FormatValue(r.SuppressedSum))
	fmt.Fprintf(w, "cost        %s (secondary cells), lower bound %s, gap %.2f %%\n", datasets.FormatValue(r.PatternCost),
		datasets.FormatValue(r.LowerBound), 100*r.Gap)
	fmt.Fprintf(w, "stop        %s (%d LP rounds, %d MIPs, %d cuts)\n", r.Stop, r.LPRounds, r.MIPSolves, r.Cuts)
	verdict := r.Audit
	if verdict == "fail" {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "audit       %s (%d under-protected, %d disclosed)\n", verdict, r.UnderProtected, r.Disclosed)
	if r.Insiders == "fail" {
		fmt.Fprintf(w, "insiders    FAIL: %d finding(s) of an insider (a contributor, or a suppressed cell's own contributors) narrowing a primary cell below its levels (details: sdcopt table audit)\n", r.InsiderFindings)
	} else {
		fmt.Fprintf(w, "insiders    %s (%d insider targets modelled)\n", r.Insiders, r.InsiderTargets)
	}
	if r.Out != "" {
		fmt.Fprintf(w, "published   %s\n", r.Out)
	}
	if r.Statuses != "" {
		fmt.Fprintf(w, "statuses    %s (confidential)\n", r.Statuses)
	}
	fmt.Fprintf(w, "seconds     %.3f\n", r.Seconds)
	return nil
}
