package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/mps"
)

// engineFlags are the solver flags shared by every command that solves a
// model.
type engineFlags struct {
	solver     string
	timeLimit  float64
	relGap     float64
	absGap     float64
	threads    int
	verbose    bool
	options    []string
	writeModel string
}

// register adds the engine flags to c; limitHelp describes --time-limit.
func (f *engineFlags) register(c *cobra.Command, allowAll bool, limitHelp string) {
	f.registerSolver(c, allowAll, limitHelp)
	c.Flags().Float64Var(&f.relGap, "mip-gap", solvers.DefaultMIPRelGap, "relative MIP gap")
	c.Flags().Float64Var(&f.absGap, "mip-abs-gap", solvers.DefaultMIPAbsGap, "absolute MIP gap")
	c.Flags().IntVar(&f.threads, "threads", 0, "engine threads (0 = 1)")
	c.Flags().BoolVar(&f.verbose, "engine-log", false, "show the engine's own log on stderr")
	c.Flags().StringArrayVar(&f.options, "option", nil, "raw engine option NAME=VALUE (repeatable)")
	c.Flags().StringVar(&f.writeModel, "write-model", "", "write the model to this file (free MPS) before solving")
}

// registerSolver adds only --solver and --time-limit, for a command whose
// library call takes no other engine setting and builds no single model
// to write (audit: its bounds and simulations are several models, chosen
// as it decides); the other fields keep their defaults.
func (f *engineFlags) registerSolver(c *cobra.Command, allowAll bool, limitHelp string) {
	help := "engine: auto|highs|lpsolve|clp|cbc"
	if allowAll {
		help += "|all (every available engine, compared)"
	}
	c.Flags().StringVar(&f.solver, "solver", "auto", help)
	c.Flags().Float64Var(&f.timeLimit, "time-limit", 0, limitHelp)
	f.relGap, f.absGap = solvers.DefaultMIPRelGap, solvers.DefaultMIPAbsGap
}

func (f *engineFlags) params() (*solvers.Params, error) {
	limit, err := cli.TimeLimit("--time-limit", f.timeLimit)
	if err != nil {
		return nil, err
	}
	switch {
	case cli.FloatRange("--mip-gap", f.relGap, 0, 1) != nil:
		return nil, cli.FloatRange("--mip-gap", f.relGap, 0, 1)
	case cli.FloatRange("--mip-abs-gap", f.absGap, 0, math.Inf(1)) != nil:
		return nil, cli.FloatRange("--mip-abs-gap", f.absGap, 0, math.Inf(1))
	}
	if err := cli.IntRange("--threads", f.threads, 0, maxThreads); err != nil {
		return nil, err
	}
	p := &solvers.Params{
		TimeLimit: limit,
		MIPRelGap: f.relGap,
		MIPAbsGap: f.absGap,
		Threads:   f.threads,
		Verbose:   f.verbose,
	}
	for _, o := range f.options {
		name, val, ok := strings.Cut(o, "=")
		if !ok || name == "" {
			return nil, cli.BadInput("--option %q: want NAME=VALUE", o)
		}
		if p.Raw == nil {
			p.Raw = map[string]string{}
		}
		p.Raw[name] = val
	}
	return p, nil
}

// maxThreads is the largest --threads accepted.
const maxThreads = 1024

// check validates the engine flags without building anything: the engine
// name (even where the run may need no engine) and the numbers.
func (f *engineFlags) check(allowAll bool) error {
	if err := cli.Solver("--solver", f.solver, allowAll); err != nil {
		return err
	}
	_, err := f.params()
	return err
}

// engines resolves --solver to engine instances for problem p.
func (f *engineFlags) engines(p *solvers.Problem, allowAll bool) ([]solvers.Solver, error) {
	if allowAll && f.solver == "all" {
		var out []solvers.Solver
		for _, info := range solvers.List() {
			if !info.Available || (p.IsMIP() && !info.Capabilities.Integer) {
				continue
			}
			s, err := solvers.New(info.Name, p.IsMIP())
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		if len(out) == 0 {
			return nil, cli.BadInput("no available engine can solve this model")
		}
		return out, nil
	}
	s, err := solvers.NewFor(f.solver, p)
	if err != nil {
		return nil, err
	}
	return []solvers.Solver{s}, nil
}

func newSolveCmd() *cobra.Command {
	var ef engineFlags
	var format, out string
	var printX bool
	c := &cobra.Command{
		Use:   "solve MODEL.mps",
		Short: "Solve an LP/MIP given as a free-format MPS file",
		Long: "Solve an LP/MIP given as a free-format MPS file with one engine, or with\n" +
			"every available engine (--solver all) and compare their outcomes.\n\n" +
			"Exit status: 0 when an engine proved an optimum or stopped at a limit with an\n" +
			"incumbent (labelled as such, never as the optimum); 1 when no engine found a\n" +
			"solution (infeasible, unbounded, a limit without an incumbent); 3 when engines\n" +
			"contradict each other.",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cli.BadInput("solve takes exactly one MPS file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runSolve(c.OutOrStdout(), args[0], &ef, format, out, printX)
		},
	}
	ef.register(c, true, "time limit per engine in seconds; an incumbent found by then is reported as such (0 = none)")
	c.Flags().StringVar(&format, "format", "text", "output format: text|json")
	c.Flags().StringVar(&out, "out", "", "write the result to this file (atomically) instead of stdout")
	c.Flags().BoolVar(&printX, "print-solution", false, "print the primal solution (text; JSON always has it)")
	return c
}

func runSolve(w io.Writer, model string, ef *engineFlags, format, out string, printX bool) error {
	if err := cli.CheckFormat(format, "text", "json"); err != nil {
		return err
	}
	if err := ef.check(true); err != nil {
		return err
	}
	prm, _ := ef.params()
	var files cli.Files
	files.Input("MODEL", model)
	files.Output("--write-model", ef.writeModel)
	files.Output("--out", out)
	if err := files.Check(); err != nil {
		return err
	}
	p, err := mps.ReadFile(model)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	ss, err := ef.engines(p, true)
	if err != nil {
		return err
	}
	var outs cli.Outputs
	defer outs.Abort()
	if ef.writeModel != "" {
		if err := outs.Write(ef.writeModel, func(w io.Writer) error { return mps.Write(w, p) }); err != nil {
			return cli.BadInput("--write-model: %v", err)
		}
	}
	start := time.Now()
	var runs []solveRun
	for _, s := range ss {
		r, err := s.Solve(p, prm)
		if err != nil {
			return err
		}
		runs = append(runs, solveRun{s.Name(), s.Version(), r})
	}
	secs := time.Since(start).Seconds()
	for _, run := range runs {
		for _, warn := range run.r.Warnings {
			fmt.Fprintf(os.Stderr, "sdcopt: %s: %s\n", run.name, warn)
		}
	}
	write := func(w io.Writer) error {
		if format == "json" {
			return writeSolveJSON(w, model, p, runs, ef.solver == "all", secs)
		}
		return writeSolveText(w, model, p, runs, printX)
	}
	if out == "" {
		if err := write(w); err != nil {
			return err
		}
	} else if err := outs.Write(out, write); err != nil {
		return cli.BadInput("--out: %v", err)
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	return solveExit(runs)
}

type solveRun struct {
	name, version string
	r             *solvers.Result
}

// usable reports whether a result is an answer: a proven optimum, or an
// incumbent found before a limit (reported as such).
func usable(r *solvers.Result) bool {
	return r.HasSolution && (r.Status == solvers.Optimal || r.Status.Limit())
}

// solveExit: 1 when no engine returned a usable result (infeasible,
// unbounded, a limit without an incumbent), 3 when engines contradict
// each other (see compareRuns), else nil.
func solveExit(runs []solveRun) error {
	if c := compareRuns(runs); c.conflict != "" {
		return &cli.ExitError{Code: cli.ExitEngine, Err: errors.New(c.conflict)}
	}
	for _, run := range runs {
		if usable(run.r) {
			return nil
		}
	}
	st := runs[0].r.Status
	for _, run := range runs[1:] {
		if run.r.Status != st {
			return cli.NoSolution("no solution: %s", statusList(runs))
		}
	}
	if st.Limit() {
		return cli.NoSolution("no solution: %s before any feasible point was found", st)
	}
	return cli.NoSolution("no solution: the model is %s", strings.ReplaceAll(st.String(), "_", " "))
}

func statusList(runs []solveRun) string {
	parts := make([]string, len(runs))
	for i, run := range runs {
		parts[i] = run.name + " " + run.r.Status.String()
	}
	return strings.Join(parts, ", ")
}

// agreeTol is the relative tolerance for engines' optimal objectives.
const agreeTol = 1e-6

// comparison is what several engines' outcomes on one model prove
// together.
type comparison struct {
	proven   int    // engines that proved an outcome (optimal, infeasible, unbounded)
	conflict string // two proven outcomes contradict each other; "" if none
}

// compareRuns compares the proven outcomes: optimal objectives must agree
// within agreeTol, and no engine may prove the model infeasible or
// unbounded when another proves an optimum (or infeasible when another
// proves unbounded). Outcomes at a limit prove nothing and are not
// compared.
func compareRuns(runs []solveRun) comparison {
	var c comparison
	var ref *solveRun
	var refStatus solvers.Status
	for i := range runs {
		run := &runs[i]
		st := run.r.Status
		switch st {
		case solvers.Optimal, solvers.Infeasible, solvers.Unbounded, solvers.InfeasibleOrUnbounded:
		default:
			continue
		}
		c.proven++
		if ref == nil {
			ref, refStatus = run, st
			continue
		}
		switch {
		case st == solvers.Optimal && refStatus == solvers.Optimal:
			a, b := ref.r.Objective, run.r.Objective
			if math.Abs(a-b) > agreeTol*math.Max(1, math.Abs(a)) && c.conflict == "" {
				c.conflict = fmt.Sprintf("engines disagree: %s %.10g vs %s %.10g", ref.name, a, run.name, b)
			}
		case outcomesConflict(refStatus, st) && c.conflict == "":
			c.conflict = fmt.Sprintf("engines disagree: %s says %s, %s says %s", ref.name, refStatus, run.name, st)
		}
	}
	return c
}

func outcomesConflict(a, b solvers.Status) bool {
	if a == b {
		return false
	}
	if a == solvers.Optimal || b == solvers.Optimal {
		return true
	}
	// infeasible_or_unbounded is compatible with either.
	return a != solvers.InfeasibleOrUnbounded && b != solvers.InfeasibleOrUnbounded
}

type solveJSON struct {
	Solver      string             `json:"solver"`
	Version     string             `json:"version"`
	Status      solvers.Status     `json:"status"`
	HasSolution bool               `json:"has_solution"`
	Optimal     bool               `json:"optimal"`
	Objective   *float64           `json:"objective"`
	BestBound   *float64           `json:"best_bound"`
	Iterations  int64              `json:"iterations"`
	Nodes       int64              `json:"nodes"`
	Seconds     float64            `json:"seconds"`
	Warnings    []string           `json:"warnings,omitempty"`
	X           map[string]float64 `json:"x,omitempty"`
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// writeSolveJSON prints one result object, or with all set (--solver all)
// a "results" array, "compared" (engines that proved an outcome) and
// "agree" (null when fewer than two engines proved an outcome).
// "objective" is set only for a usable result; "optimal" says whether it
// is proven.
func writeSolveJSON(w io.Writer, file string, p *solvers.Problem, runs []solveRun, all bool, secs float64) error {
	var res []solveJSON
	for _, run := range runs {
		j := solveJSON{Solver: run.name, Version: run.version, Status: run.r.Status, HasSolution: run.r.HasSolution,
			Optimal:   run.r.Status == solvers.Optimal && run.r.HasSolution,
			BestBound: finite(run.r.BestBound), Iterations: run.r.Iterations, Nodes: run.r.Nodes,
			Seconds: run.r.Seconds, Warnings: run.r.Warnings}
		if usable(run.r) {
			j.Objective = finite(run.r.Objective)
			j.X = map[string]float64{}
			for k, v := range run.r.X {
				j.X[p.ColName(k)] = v
			}
		}
		res = append(res, j)
	}
	doc := map[string]any{
		"model": file, "rows": p.NumRows(), "cols": p.NumCols(), "nonzeros": p.NumNonzeros(),
		"integer": p.IsMIP(), "sense": p.Sense.String(), "method": "solve",
	}
	if !all {
		for k, v := range structToMap(res[0]) {
			doc[k] = v
		}
	} else {
		c := compareRuns(runs)
		doc["results"] = res
		doc["compared"] = c.proven
		doc["seconds"] = secs
		if c.proven >= 2 {
			doc["agree"] = c.conflict == ""
		} else {
			doc["agree"] = nil
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func structToMap(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

func writeSolveText(w io.Writer, file string, p *solvers.Problem, runs []solveRun, printX bool) error {
	kind := "LP"
	if p.IsMIP() {
		kind = "MIP"
	}
	fmt.Fprintf(w, "model %s: %s, %s, %d rows, %d columns, %d nonzeros\n", file, kind, p.Sense, p.NumRows(), p.NumCols(), p.NumNonzeros())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ENGINE\tSTATUS\tOBJECTIVE\tBEST BOUND\tITER\tNODES\tSECONDS")
	for _, run := range runs {
		obj := "-"
		if usable(run.r) {
			obj = fmt.Sprintf("%.10g", run.r.Objective)
			if run.r.Status != solvers.Optimal {
				obj += " (incumbent)"
			}
		}
		bb := "-"
		if f := finite(run.r.BestBound); f != nil {
			bb = fmt.Sprintf("%.10g", *f)
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\t%d\t%d\t%.3f\n", run.name, run.version, run.r.Status, obj, bb, run.r.Iterations, run.r.Nodes, run.r.Seconds)
	}
	tw.Flush()
	if len(runs) > 1 {
		c := compareRuns(runs)
		switch {
		case c.conflict != "":
			fmt.Fprintln(w, c.conflict)
		case c.proven < 2:
			fmt.Fprintf(w, "not compared: %d of %d engines proved an outcome\n", c.proven, len(runs))
		default:
			fmt.Fprintf(w, "the %d engines that proved an outcome agree (objectives within relative tolerance %g)\n", c.proven, agreeTol)
		}
	}
	if printX && usable(runs[0].r) {
		for k, v := range runs[0].r.X {
			if v != 0 {
				fmt.Fprintf(w, "%s = %.10g\n", p.ColName(k), v)
			}
		}
	}
	return nil
}
