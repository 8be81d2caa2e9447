package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
	"github.com/sdcopt/sdcopt/tabular/primary"
	"github.com/sdcopt/sdcopt/tabular/synth"
)

// The side-by-side driver runs the R script below once per tool and case.
//
//go:embed baselines/tables.R
var tablesR []byte

// TableBaselinesOptions configure TableBaselines; nil means
// DefaultTableBaselinesOptions().
type TableBaselinesOptions struct {
	// Cases are synth presets ("2way-1300", "3way-5000", ...), generated
	// with Seed.
	Cases []string
	Seed  uint64
	// Rules is the primary rule, which every tool applies, empty cells
	// never primary: "freq:N" on the frequency table (a cell with
	// 0 < freq < N is primary), with an optional safety range
	// ("freq:3,safety:0%") that sets the protection levels our audit
	// demands (default 10 %, package primary); or "p:P" (P an integer in
	// [1, 100)) on the magnitude table of the presets' records with a
	// turnover each (synth.Spec.Response), every record one respondent,
	// whose levels are the p% rule's (package primary).
	Rules string
	// Tools are the runs: "sdcTable:METHOD" (SIMPLEHEURISTIC, GAUSS,
	// HITAS, OPT, ...) and "GaussSuppression" through R, and
	// SdcoptOptimalTool ("sdcopt:optimal", in this process, without R).
	Tools []string
	// TimeLimit bounds each tool run (the R process is killed after it;
	// sdcopt:optimal returns its best safe pattern; 0: none).
	TimeLimit time.Duration
	// Rscript is the R front end; default "Rscript" on $PATH. RLib is the
	// library holding the packages (R's .libPaths); default $RLIB, else
	// ~/R/sdcopt-baselines.
	Rscript, RLib string
	// Keep, when not empty, is a directory (created if missing) that keeps
	// the generated microdata, the hierarchy files, the R script, each
	// tool's pattern (an sdcopt table file) and its log; default: a
	// temporary directory, removed at the end.
	Keep string
	// Solver is the engine of our audit (default auto).
	Solver   string
	Progress Progress
}

// DefaultTableBaselinesCases are the table sizes of the benchmark: a 2-way
// hierarchical table of 1,296 cells and a 3-way one of 4,913 cells.
var DefaultTableBaselinesCases = []string{"2way-1300", "3way-5000"}

// DefaultTableBaselinesTools are the runs of the benchmark.
var DefaultTableBaselinesTools = []string{"sdcTable:SIMPLEHEURISTIC", "sdcTable:GAUSS", "sdcTable:HITAS", "GaussSuppression",
	SdcoptOptimalTool}

// DefaultTableBaselinesOptions: both cases with seed 7, freq:3, every
// tool, 10 minutes per run.
func DefaultTableBaselinesOptions() *TableBaselinesOptions {
	return &TableBaselinesOptions{Cases: DefaultTableBaselinesCases, Seed: 7, Rules: "freq:3", Tools: DefaultTableBaselinesTools,
		TimeLimit: 10 * time.Minute}
}

// TableBaselineRow is one tool run on one case, audited by us.
type TableBaselineRow struct {
	Case    string `json:"case"`
	Cells   int    `json:"cells"`
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Status is "ok", "error" (the tool failed; Message says how) or
	// "time_limit" (the run was stopped after TimeLimit before the tool
	// published its pattern; a run stopped during the tool's own check is
	// "ok", its Check marked "(stopped)").
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	// Primaries is the tool's number of primary cells; PrimaryMismatch the
	// cells where the tool's primaries and ours differ (0 when the tools
	// apply the same rule; an example in MismatchExample).
	Primaries       int    `json:"primaries"`
	PrimaryMismatch int    `json:"primary_mismatch"`
	MismatchExample string `json:"mismatch_example,omitempty"`
	// Suppressed counts the primary and secondary cells, SuppressedValue
	// sums their values; Secondary and SecondaryValue are the same for the
	// secondary cells alone (what secondary suppression adds; the tools'
	// primary cells are the same where PrimaryMismatch is 0).
	Suppressed      int     `json:"suppressed"`
	SuppressedValue float64 `json:"suppressed_value"`
	Secondary       int     `json:"secondary"`
	SecondaryValue  float64 `json:"secondary_value"`
	// Cost, LowerBound and Gap are sdcopt:optimal's (suppress.Result: the
	// cost of its secondary cells, each costing its value, a proven lower
	// bound on that cost and the relative gap), and Stop why it stopped;
	// nil and "" for the other tools.
	Cost       *float64 `json:"cost"`
	LowerBound *float64 `json:"lower_bound"`
	Gap        *float64 `json:"gap"`
	Stop       string   `json:"stop,omitempty"`
	// ToolSeconds is the tool's time from microdata to the protected
	// table (tabulation, primary and secondary suppression), measured in
	// R (on an error, the time to the failure, loading the package
	// included); ProtectSeconds the secondary suppression alone where the
	// tool separates it (sdcTable's protectTable), else nil.
	ToolSeconds    *float64 `json:"tool_seconds"`
	ProtectSeconds *float64 `json:"protect_seconds"`
	// Check names the tool's own interval check (sdcTable's attack(),
	// GaussSuppression's ComputeIntervals()), CheckSeconds its time and
	// CheckFailures the primary cells it finds unprotected (sdcTable: upper
	// bound not above the lower; GaussSuppression: a one-point interval).
	Check         string   `json:"check"`
	CheckSeconds  *float64 `json:"check_seconds"`
	CheckFailures *int     `json:"check_failures"`
	// AuditSeconds is our audit (tabular/intervals: every suppressed
	// cell's LP interval, then the protection levels of our primaries).
	AuditSeconds float64 `json:"audit_seconds"`
	Engine       string  `json:"engine"`
	// UnderProtected counts the tool's primary cells whose interval does
	// not reach the levels of Rules; DisclosedPrimary the primary and
	// DisclosedSecondary the secondary cells whose interval is one point.
	// The examples name one cell with its value and interval.
	UnderProtected     int    `json:"under_protected"`
	DisclosedPrimary   int    `json:"disclosed_primary"`
	DisclosedSecondary int    `json:"disclosed_secondary"`
	UnderExample       string `json:"under_example,omitempty"`
	DisclosedExample   string `json:"disclosed_example,omitempty"`
}

// TableBaselinesReport is the outcome of TableBaselines.
type TableBaselinesReport struct {
	Method string `json:"method"` // "table-baselines"
	// Skipped says why the R tools did not run (R or the packages not
	// installed); the report then has only the rows of sdcopt:optimal (none
	// when it was not asked for) and the run is a success.
	Skipped  string             `json:"skipped,omitempty"`
	R        string             `json:"r,omitempty"` // R's version line
	Rules    string             `json:"rules"`
	Zero     string             `json:"zero_cells"`
	Seed     uint64             `json:"seed"`
	Rows     []TableBaselineRow `json:"rows"`
	Dir      string             `json:"dir,omitempty"` // Keep
	Seconds  float64            `json:"seconds"`
	ToolRule string             `json:"tool_rule"` // the rule as the tools get it: "maxN = 2", "p = 15"
	Safety   string             `json:"safety"`
	Finished string             `json:"finished"` // RFC 3339 time of the end of the run
}

// toolRule is the primary rule as the R script takes it.
type toolRule struct {
	args      []string // --maxN N, or --p P --response turnover --respondent id
	magnitude bool     // p%: a magnitude table of synth's turnover by respondent id
	desc      string   // "maxN = 2", "p = 15"
}

// baselineRule reads the rule specification: freq:N or p:P (P an integer
// in [1, 100), as both tools require), empty cells never primary.
func baselineRule(spec string) (*primary.RuleSet, toolRule, error) {
	rs, err := primary.ParseRuleSet(spec)
	if err != nil {
		return nil, toolRule{}, settingsErr("rules", "%v", err)
	}
	rules := rs.Rules()
	if rs.Settings().Zero != primary.ZeroSafe {
		return nil, toolRule{}, settingsErr("rules", "%q: the tools run with empty cells never primary; leave zero: out", spec)
	}
	if len(rules) == 1 {
		switch r := rules[0]; r.Kind {
		case primary.KindFrequency:
			n := strconv.Itoa(r.N - 1)
			return rs, toolRule{args: []string{"--maxN", n}, desc: "maxN = " + n}, nil
		case primary.KindPPercent:
			if r.P != math.Trunc(r.P) || r.P < 1 || r.P >= 100 {
				return nil, toolRule{}, settingsErr("rules", "%q: the tools take an integer p in [1, 100)", spec)
			}
			p := strconv.Itoa(int(r.P))
			return rs, toolRule{args: []string{"--p", p, "--response", "turnover", "--respondent", "id"}, magnitude: true,
				desc: "p = " + p}, nil
		}
	}
	return nil, toolRule{}, settingsErr("rules", "%q: the tools are run with one rule, freq:N or p:P", spec)
}

// rAvailable reports why R or the packages cannot run, or "" when they
// can, and R's version line.
func rAvailable(ctx context.Context, rscript, rlib string) (why, version string) {
	path, err := exec.LookPath(rscript)
	if err != nil {
		return fmt.Sprintf("R/sdcTable not installed (%s not found)", rscript), ""
	}
	cmd := exec.CommandContext(ctx, path, "-e",
		`.libPaths(c(Sys.getenv("RLIB"), .libPaths())); for (p in c("sdcTable", "GaussSuppression", "Rglpk")) `+
			`if (!requireNamespace(p, quietly = TRUE)) { cat("missing", p, "\n"); quit(status = 3) }; cat(R.version.string, "\n")`)
	cmd.Env = append(os.Environ(), "RLIB="+rlib)
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if i := strings.LastIndex(msg, "missing "); i >= 0 {
			msg = msg[i:]
		}
		if len(msg) > 200 {
			msg = msg[len(msg)-200:]
		}
		return fmt.Sprintf("R/sdcTable not installed (%s in %s: %s)", rscript, rlib, msg), ""
	}
	return "", strings.TrimSpace(string(out))
}

// TableBaselines generates each case's microdata, runs every tool on it
// through the R script (bench/baselines/tables.R), and audits each tool's
// published pattern with our interval audit. Without R or the packages it
// returns a report whose Skipped says so, and no error.
func TableBaselines(o *TableBaselinesOptions) (*TableBaselinesReport, error) {
	if o == nil {
		o = DefaultTableBaselinesOptions()
	}
	start := time.Now()
	prog := progressOf(o.Progress)
	rs, rule, err := baselineRule(o.Rules)
	if err != nil {
		return nil, err
	}
	if len(o.Cases) == 0 {
		return nil, settingsErr("cases", "no case")
	}
	specs := make([]synth.Spec, len(o.Cases))
	for i, c := range o.Cases {
		if specs[i], err = synth.Preset(c, o.Seed); err != nil {
			return nil, settingsErr("cases", "%v", err)
		}
		specs[i].Response = rule.magnitude
	}
	if len(o.Tools) == 0 {
		return nil, settingsErr("tools", "no tool")
	}
	needR := false
	for _, t := range o.Tools {
		if t != "GaussSuppression" && !strings.HasPrefix(t, "sdcTable:") && t != SdcoptOptimalTool {
			return nil, settingsErr("tools", "%q: want sdcTable:METHOD, GaussSuppression or %s", t, SdcoptOptimalTool)
		}
		needR = needR || isRTool(t)
	}
	if o.TimeLimit < 0 {
		return nil, settingsErr("time-limit", "negative")
	}
	rscript, rlib := o.Rscript, o.RLib
	if rscript == "" {
		rscript = "Rscript"
	}
	if rlib == "" {
		rlib = os.Getenv("RLIB")
	}
	if rlib == "" {
		if home, err := os.UserHomeDir(); err == nil {
			rlib = filepath.Join(home, "R", "sdcopt-baselines")
		}
	}
	set := rs.Settings()
	rep := &TableBaselinesReport{Method: "table-baselines", Rules: o.Rules, Zero: set.Zero.String(), Seed: o.Seed, ToolRule: rule.desc,
		Safety: set.Safety.String(), Dir: o.Keep, Rows: []TableBaselineRow{}}
	defer func() {
		rep.Seconds = time.Since(start).Seconds()
		rep.Finished = time.Now().UTC().Format(time.RFC3339)
	}()
	tools := o.Tools
	if needR {
		why, version := rAvailable(context.Background(), rscript, rlib)
		if why != "" {
			rep.Skipped = why
			tools = nil
			for _, t := range o.Tools {
				if !isRTool(t) {
					tools = append(tools, t)
				}
			}
			if len(tools) == 0 {
				return rep, nil
			}
		}
		rep.R = version
	}

	dir := o.Keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "sdcopt-baselines-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, settingsErr("keep", "%v", err)
	}
	script := filepath.Join(dir, "tables.R")
	if err := os.WriteFile(script, tablesR, 0o600); err != nil {
		return nil, err
	}
	prog.Start("table-baselines", len(o.Cases)*len(tools))
	for ci, spec := range specs {
		name := o.Cases[ci]
		cdir := filepath.Join(dir, name)
		if err := os.MkdirAll(cdir, 0o700); err != nil {
			return nil, err
		}
		data, err := synth.Generate(spec)
		if err != nil {
			return nil, err
		}
		micro, hrcs, err := data.WriteFiles(cdir, "microdata")
		if err != nil {
			return nil, err
		}
		ours, err := data.Table()
		if err != nil {
			return nil, err
		}
		if _, err := tabular.ApplyPrimary(ours, rs); err != nil {
			return nil, err
		}
		dims := make([]string, len(spec.Dims))
		for d, dim := range spec.Dims {
			dims[d] = dim.Name + ":" + hrcs[d]
		}
		for _, tool := range tools {
			prog.Describe(name + " " + tool)
			prefix := filepath.Join(cdir, strings.ReplaceAll(tool, ":", "-"))
			row := TableBaselineRow{Case: name, Cells: ours.Len(), Tool: tool}
			if !isRTool(tool) {
				runOptimal(&row, ours, o.TimeLimit, o.Solver)
				rep.Rows = append(rep.Rows, row)
				prog.Add(1)
				continue
			}
			runErr := runTool(rscript, rlib, script, o.TimeLimit, prefix, micro, strings.Join(dims, ","), tool, rule.args)
			info, infoErr := readToolInfo(prefix + ".info.csv")
			if infoErr == nil {
				row.fill(info)
			}
			switch {
			case errors.Is(runErr, context.DeadlineExceeded) && infoErr == nil && row.Status == "ok":
				// The pattern was written; the tool's own check was stopped.
				row.Check += " (stopped)"
				row.CheckSeconds, row.CheckFailures = nil, nil
				row.Message = fmt.Sprintf("the tool's own check was stopped after %v", o.TimeLimit)
			case errors.Is(runErr, context.DeadlineExceeded):
				row.Status, row.Message = "time_limit", fmt.Sprintf("stopped after %v", o.TimeLimit)
			case runErr != nil && infoErr == nil && row.Status == "error":
				// the tool's error, from the info file
			case runErr != nil:
				row.Status, row.Message = "error", runErr.Error()
			case infoErr != nil:
				row.Status, row.Message = "error", infoErr.Error()
			}
			if row.Status == "ok" {
				if err := auditPattern(&row, ours, prefix, o.Solver); err != nil {
					row.Status, row.Message = "error", err.Error()
				}
			}
			rep.Rows = append(rep.Rows, row)
			prog.Add(1)
		}
	}
	return rep, nil
}

// runTool runs the R script for one tool; its output goes to prefix.log.
func runTool(rscript, rlib, script string, limit time.Duration, prefix, micro, dims, tool string, rule []string) error {
	ctx := context.Background()
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	log, err := os.OpenFile(prefix+".log", os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	for _, ext := range []string{".csv", ".info.csv"} {
		os.Remove(prefix + ext) // never read a previous run's files
	}
	args := append([]string{script, "--data", micro, "--dims", dims, "--tool", tool, "--out", prefix}, rule...)
	if limit > 0 {
		args = append(args, "--time-limit", strconv.FormatFloat(limit.Seconds(), 'f', -1, 64))
	}
	cmd := exec.CommandContext(ctx, rscript, args...)
	cmd.Env = append(os.Environ(), "RLIB="+rlib)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v (log %s)", filepath.Base(rscript), tool, err, prefix+".log")
	}
	return nil
}

// readToolInfo reads the one-row info file the R script writes.
func readToolInfo(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("no info file: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(recs) != 2 || len(recs[0]) != len(recs[1]) {
		return nil, fmt.Errorf("%s: want a header and one row, got %d rows", path, len(recs))
	}
	m := map[string]string{}
	for j, k := range recs[0] {
		m[k] = recs[1][j]
	}
	for _, k := range []string{"status", "version", "seconds"} {
		if _, ok := m[k]; !ok {
			return nil, fmt.Errorf("%s: line 1: no column %q", path, k)
		}
	}
	return m, nil
}

// fill copies the tool's own numbers from its info file; "NA" stays nil.
func (r *TableBaselineRow) fill(info map[string]string) {
	num := func(k string) *float64 {
		v, err := strconv.ParseFloat(info[k], 64)
		if err != nil || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	r.Version, r.Status, r.Message, r.Check = info["version"], info["status"], info["message"], info["check"]
	r.ToolSeconds, r.ProtectSeconds, r.CheckSeconds = num("seconds"), num("protect_seconds"), num("check_seconds")
	if v := num("check_failures"); v != nil {
		n := int(*v)
		r.CheckFailures = &n
	}
}

// auditPattern reads the tool's pattern (prefix.csv over the hierarchy
// files prefix.<dim>.hrc), checks that it is our table (same cells,
// values and frequencies), gives the tool's primary cells the protection
// levels of our rule, and audits it.
func auditPattern(row *TableBaselineRow, ours *tabular.Table, prefix, solver string) error {
	dims := make([]tabular.Dimension, len(ours.Dims))
	for d, dim := range ours.Dims {
		path := prefix + "." + dim.Name + ".hrc"
		h, err := tabular.LoadHRC(path, nil)
		if err != nil {
			return err
		}
		if !h.Equal(dim.H) {
			return fmt.Errorf("%s: not the hierarchy of dimension %s", path, dim.Name)
		}
		dims[d] = tabular.Dimension{Name: dim.Name, H: h}
	}
	pat, err := tabular.LoadTableFile(prefix+".csv", dims, nil)
	if err != nil {
		return err
	}
	return auditTable(row, ours, pat, solver)
}

// auditTable is auditPattern on a pattern already read: pat must have the
// cells, values and frequencies of ours (with the tool's statuses).
func auditTable(row *TableBaselineRow, ours, pat *tabular.Table, solver string) error {
	if pat.Len() != ours.Len() {
		return fmt.Errorf("the tool's table has %d cells, ours %d", pat.Len(), ours.Len())
	}
	row.Primaries, row.PrimaryMismatch, row.Suppressed, row.SuppressedValue = 0, 0, 0, 0
	row.Secondary, row.SecondaryValue = 0, 0
	for i := range pat.Cells {
		c, o := &pat.Cells[i], &ours.Cells[i]
		if c.Freq != o.Freq || math.Abs(c.Value-o.Value) > 1e-9*math.Max(1, math.Abs(o.Value)) {
			return fmt.Errorf("cell (%s): the tool's value %s, freq %d; ours %s, freq %d", ours.CellName(i),
				datasets.FormatValue(c.Value), c.Freq, datasets.FormatValue(o.Value), o.Freq)
		}
		if c.Status == tabular.Safe && c.Freq == 0 {
			c.Status = tabular.Empty
		}
		if (c.Status == tabular.Primary) != (o.Status == tabular.Primary) {
			if row.PrimaryMismatch == 0 {
				row.MismatchExample = fmt.Sprintf("(%s) freq %d: tool %s, ours %s", ours.CellName(i), o.Freq, c.Status, o.Status)
			}
			row.PrimaryMismatch++
		}
		if c.Status == tabular.Primary {
			row.Primaries++
		}
		if c.Status.Suppressed() {
			row.Suppressed++
			row.SuppressedValue += c.Value
			if c.Status != tabular.Primary {
				row.Secondary++
				row.SecondaryValue += c.Value
			}
		}
		c.Upper, c.Lower, c.Rule = 0, 0, ""
		if o.Status == tabular.Primary {
			c.Upper, c.Lower, c.Rule = o.Upper, o.Lower, o.Rule
		}
	}
	t0 := time.Now()
	res, err := intervals.Compute(pat, &intervals.Settings{Solver: solver, NoCertificates: true})
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	lower, upper := make([]float64, pat.Len()), make([]float64, pat.Len())
	for i, c := range pat.Cells {
		lower[i], upper[i] = c.Lower, c.Upper
	}
	a := intervals.Audit(res, intervals.LevelSlices(lower, upper))
	row.AuditSeconds, row.Engine = time.Since(t0).Seconds(), res.Engine
	row.UnderProtected, row.DisclosedPrimary, row.DisclosedSecondary = len(a.UnderProtected), 0, 0
	row.UnderExample, row.DisclosedExample = "", ""
	if len(a.UnderProtected) > 0 {
		f := a.UnderProtected[0]
		row.UnderExample = fmt.Sprintf("(%s) %s in [%s, %s], needs [%s, %s]", f.Name, datasets.FormatValue(f.Value),
			end(f.Lower), end(f.Upper), datasets.FormatValue(f.Value-f.RequiredLower), datasets.FormatValue(f.Value+f.RequiredUpper))
	}
	for _, f := range a.Disclosed {
		if f.Status == tabular.Primary {
			if row.DisclosedPrimary == 0 {
				row.DisclosedExample = fmt.Sprintf("(%s) %s in [%s, %s]", f.Name, datasets.FormatValue(f.Value), end(f.Lower), end(f.Upper))
			}
			row.DisclosedPrimary++
		} else {
			row.DisclosedSecondary++
		}
	}
	return nil
}

// end formats an interval's end, rounded to 6 decimals for reading.
func end(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

// Tables returns one row per case and tool.
func (r *TableBaselinesReport) Tables() []*Table {
	t := &Table{Name: "table_baselines", Columns: []string{"case", "cells", "tool", "version", "status", "message", "primaries",
		"primary_mismatch", "suppressed", "suppressed_value", "secondary", "secondary_value", "cost", "lower_bound", "gap", "stop", "tool_seconds", "protect_seconds", "check", "check_seconds",
		"check_failures", "audit_seconds", "engine", "under_protected", "disclosed_primary", "disclosed_secondary",
		"under_example", "disclosed_example", "mismatch_example"}}
	for _, x := range r.Rows {
		t.add(x.Case, x.Cells, x.Tool, x.Version, x.Status, x.Message, x.Primaries, x.PrimaryMismatch, x.Suppressed,
			x.SuppressedValue, x.Secondary, x.SecondaryValue, x.Cost, x.LowerBound, x.Gap, x.Stop, x.ToolSeconds, x.ProtectSeconds, x.Check, x.CheckSeconds, x.CheckFailures, x.AuditSeconds,
			x.Engine, x.UnderProtected, x.DisclosedPrimary, x.DisclosedSecondary, x.UnderExample, x.DisclosedExample,
			x.MismatchExample)
	}
	return []*Table{t}
}

// WriteText writes one line per case and tool, then the examples.
func (r *TableBaselinesReport) WriteText(w io.Writer) error {
	if r.Skipped != "" {
		if _, err := fmt.Fprintf(w, "table-baselines: skipped: %s\n", r.Skipped); err != nil || len(r.Rows) == 0 {
			return err
		}
	}
	safety := ""
	if strings.HasPrefix(r.ToolRule, "maxN") { // the safety range is the frequency rule's level
		safety = ", safety " + r.Safety
	}
	fmt.Fprintf(w, "Side by side: the tools' patterns audited by sdcopt (rules %s%s, empty cells %s; the tools' %s; seed %d)\n",
		r.Rules, safety, r.Zero, r.ToolRule, r.Seed)
	if r.R != "" {
		fmt.Fprintf(w, "%s\n", r.R)
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tCELLS\tTOOL\tSTATUS\tPRIMARY\tSUPPR ALL/SEC\tVALUE ALL\tVALUE SEC\tBOUND (GAP)\tTOOL S\tCHECK S (FAILS)\tAUDIT S\tUNDER-PROTECTED\tDISCLOSED PRIM/SEC")
	opt := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatFloat(*p, 'f', 2, 64)
	}
	for _, x := range r.Rows {
		if x.Status != "ok" {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\t\t\t\t\t%s\t\t\t\t\n", x.Case, x.Cells, x.Tool, x.Status, opt(x.ToolSeconds))
			continue
		}
		fails := "-"
		if x.CheckFailures != nil {
			fails = strconv.Itoa(*x.CheckFailures)
		}
		prim := strconv.Itoa(x.Primaries)
		if x.PrimaryMismatch > 0 {
			prim += fmt.Sprintf(" (%d differ)", x.PrimaryMismatch)
		}
		bound := "-"
		if x.LowerBound != nil && x.Gap != nil {
			bound = fmt.Sprintf("%s (%.2f%%)", strconv.FormatFloat(*x.LowerBound, 'f', 1, 64), 100**x.Gap)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\t%s (%s)\t%.2f\t%d\t%d/%d\n", x.Case, x.Cells, x.Tool, x.Status, prim,
			x.Suppressed, x.Secondary, datasets.FormatValue(x.SuppressedValue), datasets.FormatValue(x.SecondaryValue), bound,
			opt(x.ToolSeconds), opt(x.CheckSeconds), fails, x.AuditSeconds, x.UnderProtected, x.DisclosedPrimary, x.DisclosedSecondary)
	}
	tw.Flush()
	buf.WriteTo(w)
	for _, x := range r.Rows {
		var notes []string
		if x.Version != "" {
			notes = append(notes, "version "+x.Version)
		}
		if x.Message != "" {
			notes = append(notes, x.Message)
		}
		if x.MismatchExample != "" {
			notes = append(notes, "primary differs: "+x.MismatchExample)
		}
		if x.UnderExample != "" {
			notes = append(notes, "under-protected: "+x.UnderExample)
		}
		if x.DisclosedExample != "" {
			notes = append(notes, "disclosed: "+x.DisclosedExample)
		}
		if len(notes) > 0 {
			fmt.Fprintf(w, "  %s %s: %s\n", x.Case, x.Tool, strings.Join(notes, "; "))
		}
	}
	if r.Dir != "" {
		fmt.Fprintf(w, "files in %s\n", r.Dir)
	}
	_, err := fmt.Fprintf(w, "%.1f s\n", r.Seconds)
	return err
}
