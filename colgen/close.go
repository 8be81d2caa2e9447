package colgen

import (
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// Defaults of the gap-closing stage: the most groups its integer program
// takes, and its time limit.
const (
	DefaultCloseColumns   = 20_000
	DefaultCloseTimeLimit = 60 * time.Second
	rmipMaxTime           = 30 * time.Second
)

// closeOutcome reports the gap-closing stage.
type closeOutcome struct {
	columns  int
	overflow bool
	status   string
	optimal  bool
	bound    float64 // proven lower bound on the optimal SSE (NaN if none)
	groups   [][]int // the integer program's solution, nil if none
	sse      float64
}

// closeGap proves optimality after convergence (beyond the paper). With
// the final duals λ (z = Σ_v λ_v = the master LP value, every reduced cost
// ≥ 0), every partition x has SSE(x) = z + Σ_C rc_C·x_C, so a partition at
// least as good as the incumbent (SSE ≤ ub) uses only groups with
// rc_C ≤ ub − z. Complete enumeration lists all of them (sizes k..2k-1);
// the set-partitioning integer program over that list then has the
// optimal SSE as its optimum. It is skipped when more than maxCols groups
// qualify.
//
// With subset-row cuts (duals σ ≤ 0, z = Σ λ + Σ σ, every reduced cost
// with the cut terms ≥ 0), SSE(x) ≥ z + Σ_C rc_C·x_C still holds, because
// a partition's groups hit each cut at most once; filter then gives the
// enumeration's Accept for a threshold: the groups whose reduced cost with
// the cut terms is below it (the enumeration prunes on the reduced cost
// under λ alone, which is never larger). nil: no cuts.
//
// The incumbent is first improved by the same integer program over the
// master's own columns (a few hundred; the restricted master IP), because
// the number of groups within the gap falls fast as the gap narrows.
func closeGap(d *model.SqDist, prep *enumerate.Prepared, k int, lambda []float64, z, ub float64, masterCols [][]int,
	maxCols, workers int, mipSolver string, deadline time.Time, filter func(thr float64) func([]int) bool) (*closeOutcome, error) {
	out := &closeOutcome{bound: math.NaN()}
	n := d.N
	name := mipSolver
	if name == "" {
		name = "auto"
	}
	eng, err := solvers.New(name, true)
	if err != nil {
		return nil, err
	}
	// The restricted master IP is a heuristic step: it gets a third of the
	// remaining time, at most rmipMaxTime, because CBC checks its limit
	// only between nodes and can overrun it by as much again in the root.
	rmipDeadline := time.Now().Add(rmipMaxTime)
	if !deadline.IsZero() {
		if third := time.Now().Add(time.Until(deadline) / 3); third.Before(rmipDeadline) {
			rmipDeadline = third
		}
	}
	if r, err := solvePartitioning(eng, d, masterCols, rmipDeadline); err != nil {
		return nil, err
	} else if r != nil && r.groups != nil {
		out.groups, out.sse = r.groups, r.sse
		ub = min(ub, r.sse)
		if ub-z <= exactTol*math.Max(1, ub) {
			// The master's columns already hold an optimal partition.
			out.optimal, out.bound, out.status = true, ub, "optimal over the master's columns"
			return out, nil
		}
	}
	// z = Σ_v λ_v. Reduced costs may be as low as the pricing tolerance
	// (negative), so the other groups of a partition can lower its sum by
	// up to ⌊n/k⌋ times that: the margin keeps every group that can be in
	// a partition with SSE ≤ ub (extra groups are harmless).
	if !deadline.IsZero() && time.Now().After(deadline) {
		out.status = "time limit after the restricted master integer program"
		return out, nil
	}
	thr := ub - z + float64(n/k)*math.Abs(rcTolerance(lambda)) + 1e-9*math.Max(1, math.Abs(ub))
	var groups [][]int
	var accept func([]int) bool
	if filter != nil {
		accept = filter(thr)
	}
	for eta := k; eta <= 2*k-1 && eta <= n; eta++ {
		res, err := prep.Solve(lambda, eta, &enumerate.Options{
			All: true, Threshold: thr, MaxColumns: maxCols - len(groups) + 1, Workers: workers, Deadline: deadline, Accept: accept,
		})
		if err != nil {
			return nil, err
		}
		if res.Overflow {
			out.overflow = true
			out.status = fmt.Sprintf("more than %d groups within the gap", maxCols)
			return out, nil
		}
		if !res.Complete {
			out.status = "time limit during enumeration"
			return out, nil
		}
		for _, c := range res.Columns {
			groups = append(groups, c.Members)
		}
	}
	out.columns = len(groups)
	if len(groups) == 0 {
		out.status = "no group within the gap"
		return out, nil
	}
	r, err := solvePartitioning(eng, d, groups, deadline)
	if err != nil {
		return nil, err
	}
	if r == nil {
		out.status = "time limit before the integer program"
		return out, nil
	}
	out.status = r.status.String()
	if r.groups != nil && (out.groups == nil || r.sse < out.sse) {
		out.groups, out.sse = r.groups, r.sse
	}
	switch {
	case r.status == solvers.Optimal && r.groups != nil:
		out.optimal = true
		out.bound = min(r.sse, r.bound)
		if math.IsNaN(r.bound) {
			out.bound = r.sse
		}
	case r.status == solvers.Infeasible:
		// Cannot happen in exact arithmetic: some optimal partition has
		// groups of k..2k-1 records only (splitting a larger group never
		// raises the SSE), and its groups are within the gap.
		return nil, fmt.Errorf("colgen: gap-closing integer program (%s) infeasible over %d groups", eng.Name(), len(groups))
	case !math.IsNaN(r.bound) && !math.IsInf(r.bound, 0):
		out.bound = r.bound
	}
	return out, nil
}

// spResult is a solved set-partitioning integer program.
type spResult struct {
	status solvers.Status
	groups [][]int // nil without a solution
	sse    float64
	bound  float64
}

// solvePartitioning solves min Σ w_C x_C over partitions built from
// groups, x binary. It returns nil when the deadline has passed.
func solvePartitioning(eng solvers.Solver, d *model.SqDist, groups [][]int, deadline time.Time) (*spResult, error) {
	p, err := lp.MasterProblem(d, groups)
	if err != nil {
		return nil, err
	}
	p.ColType = make([]solvers.VarType, len(p.Obj))
	for j := range p.Obj {
		p.ColUpper[j] = 1
		p.ColType[j] = solvers.Binary
	}
	prm := &solvers.Params{MIPRelGap: 1e-9, MIPAbsGap: 1e-9}
	if !deadline.IsZero() {
		prm.TimeLimit = time.Until(deadline)
		if prm.TimeLimit <= 0 {
			return nil, nil
		}
	}
	r, err := eng.Solve(p, prm)
	if err != nil {
		return nil, fmt.Errorf("colgen: set-partitioning integer program: %w", err)
	}
	out := &spResult{status: r.Status, bound: r.BestBound}
	if r.HasSolution {
		for j, v := range r.X {
			if v > 0.5 {
				out.groups = append(out.groups, groups[j])
			}
		}
		out.sse = d.PartitionCost(out.groups)
		if _, err := model.NewClustering(d.N, out.groups); err != nil {
			return nil, fmt.Errorf("colgen: set-partitioning integer program (%s) returned no partition: %v", eng.Name(), err)
		}
	}
	return out, nil
}
