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

	"sdcopt/internal/cli"
	"sdcopt/solvers"
	"sdcopt/solvers/mps"
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

func (f *engineFlags) register(c *cobra.Command, allowAll bool) {
	help := "engine: auto|highs|lpsolve|clp|cbc"
	if allowAll {
		help += "|all (every available engine, compared)"
	}
	c.Flags().StringVar(&f.solver, "solver", "auto", help)
	c.Flags().Float64Var(&f.timeLimit, "time-limit", 0, "time limit per solve in seconds (0 = none)")
	c.Flags().Float64Var(&f.relGap, "mip-gap", solvers.DefaultMIPRelGap, "relative MIP gap")
	c.Flags().Float64Var(&f.absGap, "mip-abs-gap", solvers.DefaultMIPAbsGap, "absolute MIP gap")
	c.Flags().IntVar(&f.threads, "threads", 0, "engine threads (0 = 1)")
	c.Flags().BoolVar(&f.verbose, "engine-log", false, "show the engine's own log on stderr")
	c.Flags().StringArrayVar(&f.options, "option", nil, "raw engine option NAME=VALUE (repeatable)")
	c.Flags().StringVar(&f.writeModel, "write-model", "", "write the model to this file (free MPS) before solving")
}

func (f *engineFlags) params() (*solvers.Params, error) {
	if f.timeLimit < 0 || math.IsNaN(f.timeLimit) {
		return nil, cli.BadInput("--time-limit must be >= 0, got %v", f.timeLimit)
	}
	if f.relGap < 0 || f.absGap < 0 {
		return nil, cli.BadInput("MIP gaps must be >= 0")
	}
	p := &solvers.Params{
		TimeLimit: time.Duration(f.timeLimit * float64(time.Second)),
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
	var format string
	var printX bool
	c := &cobra.Command{
		Use:   "solve MODEL.mps",
		Short: "Solve an LP/MIP given as a free-format MPS file",
		Long: "Solve an LP/MIP given as a free-format MPS file with one engine, or with\n" +
			"every available engine (--solver all) and compare their objectives.",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cli.BadInput("solve takes exactly one MPS file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			if err := cli.CheckFormat(format, "text", "json"); err != nil {
				return err
			}
			prm, err := ef.params()
			if err != nil {
				return err
			}
			p, err := mps.ReadFile(args[0])
			if err != nil {
				return cli.BadInput("%v", err)
			}
			if ef.writeModel != "" {
				if err := mps.WriteFile(ef.writeModel, p); err != nil {
					return cli.BadInput("--write-model: %v", err)
				}
			}
			ss, err := ef.engines(p, true)
			if err != nil {
				return err
			}
			var runs []solveRun
			for _, s := range ss {
				r, err := s.Solve(p, prm)
				if err != nil {
					return err
				}
				runs = append(runs, solveRun{s.Name(), s.Version(), r})
			}
			out := c.OutOrStdout()
			if format == "json" {
				err = writeSolveJSON(out, args[0], p, runs, ef.solver == "all")
			} else {
				err = writeSolveText(out, args[0], p, runs, printX)
			}
			if err != nil {
				return err
			}
			return solveExit(runs)
		},
	}
	ef.register(c, true)
	c.Flags().StringVar(&format, "format", "text", "output format: text|json")
	c.Flags().BoolVar(&printX, "print-solution", false, "print the primal solution (text; JSON always has it)")
	return c
}

type solveRun struct {
	name, version string
	r             *solvers.Result
}

// solveExit: 1 when no engine found a solution, 3 when engines that proved
// optimality disagree on the objective.
func solveExit(runs []solveRun) error {
	any := false
	for _, run := range runs {
		any = any || run.r.HasSolution
	}
	if !any {
		return cli.NoSolution("no solution: %v", runs[0].r.Status)
	}
	if ok, msg := agree(runs); !ok {
		return &cli.ExitError{Code: cli.ExitEngine, Err: errors.New(msg)}
	}
	return nil
}

// agreeTol is the relative tolerance for engines' optimal objectives.
const agreeTol = 1e-6

func agree(runs []solveRun) (bool, string) {
	var ref *solveRun
	for i := range runs {
		if runs[i].r.Status != solvers.Optimal {
			continue
		}
		if ref == nil {
			ref = &runs[i]
			continue
		}
		a, b := ref.r.Objective, runs[i].r.Objective
		if math.Abs(a-b) > agreeTol*math.Max(1, math.Abs(a)) {
			return false, fmt.Sprintf("engines disagree: %s %.10g vs %s %.10g", ref.name, a, runs[i].name, b)
		}
	}
	return true, ""
}

type solveJSON struct {
	Solver      string             `json:"solver"`
	Version     string             `json:"version"`
	Status      solvers.Status     `json:"status"`
	HasSolution bool               `json:"has_solution"`
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
// a "results" array and "agree".
func writeSolveJSON(w io.Writer, file string, p *solvers.Problem, runs []solveRun, all bool) error {
	var res []solveJSON
	for _, run := range runs {
		j := solveJSON{Solver: run.name, Version: run.version, Status: run.r.Status, HasSolution: run.r.HasSolution,
			BestBound: finite(run.r.BestBound), Iterations: run.r.Iterations, Nodes: run.r.Nodes,
			Seconds: run.r.Seconds, Warnings: run.r.Warnings}
		if run.r.HasSolution {
			j.Objective = finite(run.r.Objective)
			j.X = map[string]float64{}
			for k, v := range run.r.X {
				j.X[p.ColName(k)] = v
			}
		}
		res = append(res, j)
	}
	ok, _ := agree(runs)
	doc := map[string]any{
		"model": file, "rows": p.NumRows(), "cols": p.NumCols(), "nonzeros": p.NumNonzeros(),
		"integer": p.IsMIP(), "sense": p.Sense.String(), "method": "solve",
	}
	if !all {
		for k, v := range structToMap(res[0]) {
			doc[k] = v
		}
	} else {
		doc["results"] = res
		doc["agree"] = ok
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
		if run.r.HasSolution {
			obj = fmt.Sprintf("%.10g", run.r.Objective)
		}
		bb := "-"
		if f := finite(run.r.BestBound); f != nil {
			bb = fmt.Sprintf("%.10g", *f)
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\t%d\t%d\t%.3f\n", run.name, run.version, run.r.Status, obj, bb, run.r.Iterations, run.r.Nodes, run.r.Seconds)
	}
	tw.Flush()
	for _, run := range runs {
		for _, warn := range run.r.Warnings {
			fmt.Fprintf(os.Stderr, "sdcopt: %s: %s\n", run.name, warn)
		}
	}
	if len(runs) > 1 {
		if ok, msg := agree(runs); ok {
			fmt.Fprintf(w, "engines agree on the optimal objective (relative tolerance %g)\n", agreeTol)
		} else {
			fmt.Fprintln(w, msg)
		}
	}
	if printX && runs[0].r.HasSolution {
		for k, v := range runs[0].r.X {
			if v != 0 {
				fmt.Fprintf(w, "%s = %.10g\n", p.ColName(k), v)
			}
		}
	}
	return nil
}
