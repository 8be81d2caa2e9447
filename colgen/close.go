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
	rounds   int // integer programs over enumerated groups
}

// closeGrowth is the factor by which the cap on the groups grows from one
// round of the gap-closing stage to the next, and closeMaxColumns the
// largest cap it grows to (the groups and the integer program must fit in
// memory: a million groups of up to 2k-1 records).
const (
	closeGrowth     = 4
	closeMaxColumns = 1_000_000
	// closeShrink is the factor by which the listing threshold falls
	// when more than the cap's groups lie below it.
	closeShrink = 0.7
	// closeBisect is the number of bisection steps that then move the
	// threshold up between the last that overflowed and the first that fits.
	closeBisect = 4
)

// closeGap proves optimality after convergence (beyond the paper). With
// the final duals λ (z = Σ_v λ_v = the master LP value, every reduced cost
// ≥ 0), every partition x has SSE(x) = z + Σ_C rc_C·x_C, so a partition at
// least as good as the incumbent (SSE ≤ ub) uses only groups with
// rc_C ≤ ub − z. Complete enumeration lists all of them (sizes k..2k-1);
// the set-partitioning integer program over that list then has the
// optimal SSE as its optimum.
//
// When more than maxCols groups qualify, the stage lists the groups of
// reduced cost below a smaller threshold t instead (t shrinks until at
// most maxCols groups lie below it). A partition that uses a group not
// listed has SSE ≥ z + t, and one that uses listed groups only has SSE ≥
// the integer program's optimum v over them, so min(v, z + t) is a lower
// bound, and v is the optimum when v ≤ z + t: the threshold need not
// reach the incumbent's gap, only the optimum's. Otherwise v (a new
// incumbent when it is better) narrows the gap and, while the deadline
// leaves time, the next round lists up to closeGrowth times more groups
// (at most closeMaxColumns) below the new gap. Each round's bound is kept.
// Integer programs stopped by the deadline contribute their own bound in
// place of v.
//
// With subset-row cuts (duals σ ≤ 0, z = Σ λ + Σ σ, every reduced cost
// with the cut terms ≥ 0), SSE(x) ≥ z + Σ_C rc_C·x_C still holds, because
// a partition's groups hit each cut at most once; pen (cutTerms) is then
// the enumeration's penalty, so that it lists the groups whose reduced
// cost with the cut terms is below a threshold. nil: no cuts. The cuts of src
// (nil: none) are rows of the integer programs: valid for every
// partition, they give the MIP engine the relaxation the master had.
//
// The incumbent is first improved by the same integer program over the
// master's own columns (a few hundred; the restricted master IP), because
// the number of groups within the gap falls fast as the gap narrows.
func closeGap(d *model.SqDist, prep *enumerate.Prepared, k int, lambda []float64, z, ub float64, masterCols [][]int,
	maxCols, workers int, mipSolver string, deadline time.Time, pen enumerate.Penalty, src *srcPool) (*closeOutcome, error) {
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
	// a partition with SSE ≤ ub (extra groups are harmless), and is taken
	// off the bound z + t of a partition with a group not listed.
	margin := float64(n/k)*math.Abs(rcTolerance(lambda)) + 1e-9*math.Max(1, math.Abs(ub))
	prevT := math.Inf(-1) // the last round's threshold
	for cap := maxCols; ; cap = min(cap*closeGrowth, max(maxCols, closeMaxColumns)) {
		if !deadline.IsZero() && time.Now().After(deadline) {
			if out.status == "" {
				out.status = "time limit after the restricted master integer program"
			}
			return out, nil
		}
		thr := ub - z + margin
		groups, t, status, err := listWithin(prep, k, n, lambda, thr, margin, cap, workers, deadline, pen)
		if err != nil {
			return nil, err
		}
		if groups == nil && status == "" {
			// More than cap groups even below the margin (reduced costs
			// at 0: a degenerate master): a larger cap, if any.
			out.overflow = true
			if cap >= closeMaxColumns || cap >= maxCols && maxCols >= closeMaxColumns {
				out.status = joinStatus(out.status, fmt.Sprintf("more than %d groups within the gap", cap))
				return out, nil
			}
			continue
		}
		if status != "" {
			out.status = joinStatus(out.status, status)
			return out, nil
		}
		full := t == thr
		if !full && t <= prevT {
			// No group beyond the last round's: it would repeat it.
			out.status = joinStatus(out.status, fmt.Sprintf("more than %d groups within the gap %.6g and none beyond the last round's", cap, thr))
			return out, nil
		}
		prevT = t
		note := ""
		if !full {
			out.overflow = true
			note = fmt.Sprintf("more than %d groups within the gap %.6g; %d below %.6g: ", cap, thr, len(groups), t)
		}
		out.columns = len(groups)
		if len(groups) == 0 {
			if full {
				// Cannot happen unless the incumbent's groups were lost:
				// they are within the gap.
				out.status = joinStatus(out.status, "no group within the gap")
				return out, nil
			}
			// No group below t: every partition has SSE ≥ z + t.
			out.bound = maxNaN(out.bound, z+t-margin)
			out.status = joinStatus(out.status, note+"none")
			return out, nil
		}
		t0 := time.Now()
		r, err := solvePartitioningCuts(eng, d, groups, deadline, src)
		if err != nil {
			return nil, err
		}
		if r == nil {
			out.status = joinStatus(out.status, note+"time limit before the integer program")
			return out, nil
		}
		out.rounds++
		if out.rounds > 1 || !full {
			note = fmt.Sprintf("round %d: %s", out.rounds, note)
		}
		out.status = joinStatus(out.status, fmt.Sprintf("%s%s over %d groups (%.1f s)", note, r.status, len(groups), time.Since(t0).Seconds()))
		if r.groups != nil && (out.groups == nil || r.sse < out.sse) {
			out.groups, out.sse = r.groups, r.sse
			ub = min(ub, r.sse)
		}
		// ipBound bounds every partition of listed groups only.
		ipBound := math.NaN()
		switch {
		case r.status == solvers.Optimal && r.groups != nil:
			ipBound = r.sse
			if !math.IsNaN(r.bound) {
				ipBound = min(r.sse, r.bound)
			}
		case r.status == solvers.Infeasible && full:
			// Cannot happen in exact arithmetic: some optimal partition has
			// groups of k..2k-1 records only (splitting a larger group never
			// raises the SSE), and its groups are within the gap.
			return nil, fmt.Errorf("colgen: gap-closing integer program (%s) infeasible over %d groups", eng.Name(), len(groups))
		case r.status == solvers.Infeasible:
			// No partition of groups below t: each uses one not listed.
			ipBound = math.Inf(1)
		case !math.IsNaN(r.bound) && !math.IsInf(r.bound, 0):
			ipBound = r.bound
		}
		if math.IsNaN(ipBound) {
			return out, nil
		}
		b := ipBound
		if !full {
			b = min(b, z+t-margin)
		}
		if !math.IsInf(b, 1) {
			out.bound = maxNaN(out.bound, b)
		}
		if out.bound >= ub-exactTol*math.Max(1, ub) {
			// The incumbent (the run's or this stage's) is optimal.
			out.bound = min(out.bound, ub)
			out.optimal = out.groups != nil && out.sse <= ub
			return out, nil
		}
		if r.status != solvers.Optimal && r.status != solvers.Infeasible || full || cap >= closeMaxColumns {
			// Stopped by the deadline, or nothing more to list.
			return out, nil
		}
	}
}

// listWithin lists the groups of k..2k-1 records whose reduced cost
// (with the cut terms of pen, when not nil) is below thr when at most maxCols
// of them qualify, with t = thr; otherwise the groups below a smaller
// threshold t below which at most maxCols qualify (thr shrunk by
// closeShrink until they fit, then closeBisect bisection steps up). status
// is not empty when the deadline stopped the listing; groups is nil
// without a status when more than maxCols groups lie below every
// threshold above floor.
func listWithin(prep *enumerate.Prepared, k, n int, lambda []float64, thr, floor float64, maxCols, workers int, deadline time.Time,
	pen enumerate.Penalty) (groups [][]int, t float64, status string, err error) {
	// listAt lists the groups below u; fits is false when more than
	// maxCols qualify.
	listAt := func(u float64) (gs [][]int, fits, timedOut bool, err error) {
		gs = [][]int{}
		for eta := k; eta <= 2*k-1 && eta <= n; eta++ {
			res, err := prep.Solve(lambda, eta, &enumerate.Options{
				All: true, Threshold: u, MaxColumns: maxCols - len(gs) + 1, Workers: workers, Deadline: deadline, Penalty: pen,
			})
			if err != nil {
				return nil, false, false, err
			}
			if res.Overflow {
				return nil, false, false, nil
			}
			if !res.Complete {
				return nil, false, true, nil
			}
			for _, c := range res.Columns {
				gs = append(gs, c.Members)
			}
			if len(gs) > maxCols {
				return nil, false, false, nil
			}
		}
		return gs, true, false, nil
	}
	t = thr
	hi := math.NaN() // the smallest threshold known to overflow
	for {
		gs, fits, timedOut, err := listAt(t)
		if err != nil {
			return nil, 0, "", err
		}
		if timedOut {
			return nil, 0, "time limit during enumeration", nil
		}
		if fits {
			groups = gs
			break
		}
		hi = t
		if t *= closeShrink; t <= floor {
			return nil, 0, "", nil
		}
	}
	// A few bisection steps between the threshold that fits and the one
	// that overflowed, so that the list fills more of the cap (a round
	// whose threshold did not move would repeat the last).
	for i := 0; i < closeBisect && !math.IsNaN(hi); i++ {
		mid := (t + hi) / 2
		gs, fits, timedOut, err := listAt(mid)
		if err != nil {
			return nil, 0, "", err
		}
		if timedOut {
			break
		}
		if fits {
			groups, t = gs, mid
		} else {
			hi = mid
		}
	}
	return groups, t, "", nil
}

// joinStatus appends one round's status to the stage's.
func joinStatus(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// maxNaN is max(a, b) with NaN as "none".
func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	return max(a, b)
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
	return solvePartitioningCuts(eng, d, groups, deadline, nil)
}

// partitioningProblem is the set-partitioning LP over groups (lp.MasterProblem),
// with one row Σ_{C hits S} x_C ≤ 1 per subset-row cut S of src (nil or
// empty: none). The cuts hold for every partition, so they leave the
// integer optimum alone and tighten the relaxation the MIP engine starts
// from.
func partitioningProblem(d *model.SqDist, groups [][]int, src *srcPool) (*solvers.Problem, error) {
	if src == nil || len(src.cuts) == 0 {
		return lp.MasterProblem(d, groups)
	}
	obj, lo, up, start, rows, vals, err := src.columns(d, groups)
	if err != nil {
		return nil, err
	}
	p := &solvers.Problem{Sense: solvers.Minimize}
	for v := 0; v < d.N; v++ {
		p.AddRow(1, 1, fmt.Sprintf("r%d", v))
	}
	for i := range src.cuts {
		p.AddRow(math.Inf(-1), 1, fmt.Sprintf("s%d", i))
	}
	p.Reserve(len(obj), len(rows), false)
	for c := range obj {
		p.AddCol(obj[c], lo[c], up[c], solvers.Continuous, rows[start[c]:start[c+1]], vals[start[c]:start[c+1]], "")
	}
	return p, nil
}

// solvePartitioningCuts is solvePartitioning with the subset-row cuts of
// src as rows of the integer program (partitioningProblem).
func solvePartitioningCuts(eng solvers.Solver, d *model.SqDist, groups [][]int, deadline time.Time, src *srcPool) (*spResult, error) {
	p, err := partitioningProblem(d, groups, src)
	if err != nil {
		return nil, err
	}
	p.ColType = make([]solvers.VarType, len(p.Obj))
	for j := range p.Obj {
		p.ColUpper[j] = 1
		p.ColType[j] = solvers.Binary
	}
	// HardStop: CBC checks its limit only between nodes; on a program of
	// 10^5-10^6 groups (the gap-closing rounds) its root alone ran 5
	// minutes past a 600 s run's deadline (EIA k = 4). A one-shot solve,
	// so an abandoned call leaves no session behind.
	prm := &solvers.Params{MIPRelGap: 1e-9, MIPAbsGap: 1e-9, HardStop: true}
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
