//go:build cgo && lpsolve

package lpsolve

import (
	"math"
	"strconv"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// model is an lp_solve instance together with the Go-side copy of what the
// engine cannot be asked back reliably: the user's bounds (before the binary
// intersection and before lo > up is patched for the engine), column types,
// the sense and the offset. Both Solver.Solve (build, solve, free) and
// Session (keep) use it.
type model struct {
	lp      *lprec
	opts    *options
	sense   solvers.Sense
	offset  float64
	colLo   []float64
	colUp   []float64
	colType []solvers.VarType
	nInt    int
	rowLo   []float64
	rowUp   []float64
	// scratch for merging duplicate entries of one column
	mark []int32
	// prob is the loaded problem (Solve only, where it cannot change); used
	// to recompute row activities after presolve.
	prob *solvers.Problem
}

// toLP maps a bound to lp_solve's range: ±Inf (and anything beyond ±1e30)
// become ±1e30, which set_infinite declares infinite.
func toLP(v float64) float64 {
	if v >= lpInf {
		return lpInf
	}
	if v <= -lpInf {
		return -lpInf
	}
	return v
}

// newModel loads p (already validated) into a fresh lp_solve instance.
func newModel(p *solvers.Problem, o *options) (*model, error) {
	m, n := p.NumRows(), p.NumCols()
	lp, good := newLprec(m)
	if !good {
		return nil, solvers.Errorf(engineName, "load", solvers.ErrEngine, "make_lp(%d, 0) failed", m)
	}
	md := &model{lp: lp, opts: o}
	md.lp.setQuiet(o.verbose)
	if !lp.resize(m, n) {
		md.free()
		return nil, solvers.Errorf(engineName, "load", solvers.ErrEngine, "resize_lp(%d, %d) failed", m, n)
	}
	md.rowLo = make([]float64, 0, m)
	md.rowUp = make([]float64, 0, m)
	for i := 0; i < m; i++ {
		md.rowLo = append(md.rowLo, p.RowLower[i])
		md.rowUp = append(md.rowUp, p.RowUpper[i])
		if err := md.applyRowBounds(i); err != nil {
			md.free()
			return nil, err
		}
	}
	if n > 0 {
		if err := md.addCols(p.Obj, p.ColLower, p.ColUpper, p.ColType, p.ColStart, p.RowIndex, p.Value); err != nil {
			md.free()
			return nil, err
		}
	}
	md.setSense(p.Sense)
	md.offset = p.Offset
	if !lp.setRH(0, p.Offset) {
		md.free()
		return nil, solvers.Errorf(engineName, "load", solvers.ErrEngine, "set_rh(0, %g) failed", p.Offset)
	}
	o.apply(lp)
	return md, nil
}

func (md *model) free() {
	if md.lp != nil {
		md.lp.free()
		md.lp = nil
	}
}

func (md *model) numCols() int { return len(md.colLo) }
func (md *model) numRows() int { return len(md.rowLo) }

func (md *model) setSense(s solvers.Sense) {
	md.sense = s
	md.lp.setMaxim(s == solvers.Maximize)
}

// applyRowBounds pushes the Go copy of row i's bounds to the engine:
//
//	[lo, up] both infinite -> LE with rh = 1e30 (free row; lp_solve's
//	                         add_constraintex rejects the FR type, and
//	                         set_constr_type(FR) itself stores LE 1e30)
//	lo == up               -> EQ rh = lo
//	lo = -inf              -> LE rh = up
//	up = +inf              -> GE rh = lo
//	lo < up both finite    -> LE rh = up, then set_rh_range(up - lo)
//	lo > up                -> EQ rh = lo (the model is reported infeasible
//	                         before the engine runs)
//
// set_constr_type drops any range, so the three calls are always issued in
// the order type, rh, range.
func (md *model) applyRowBounds(i int) error {
	lo, up := toLP(md.rowLo[i]), toLP(md.rowUp[i])
	r := i + 1
	typ, rh, width := rowLE, up, 0.0
	switch {
	case lo <= -lpInf && up >= lpInf:
		typ, rh = rowLE, lpInf
	case lo == up || lo > up:
		typ, rh = rowEQ, lo
	case lo <= -lpInf:
		typ, rh = rowLE, up
	case up >= lpInf:
		typ, rh = rowGE, lo
	default:
		typ, rh, width = rowLE, up, up-lo
	}
	good := md.lp.setConstrType(r, typ) && md.lp.setRH(r, rh)
	if good && width > 0 {
		good = md.lp.setRHRange(r, width)
	}
	if !good {
		return solvers.Errorf(engineName, "set row bounds", solvers.ErrEngine, "row %d: lp_solve rejected bounds [%g, %g]", i, md.rowLo[i], md.rowUp[i])
	}
	return nil
}

// effBounds returns column j's bounds as the engine sees them (binary
// columns intersected with [0, 1]).
func (md *model) effBounds(j int) (lo, up float64) {
	lo, up = md.colLo[j], md.colUp[j]
	if md.colType[j] == solvers.Binary {
		lo, up = math.Max(lo, 0), math.Min(up, 1)
	}
	return lo, up
}

func (md *model) applyColBounds(j int) error {
	lo, up := md.effBounds(j)
	lo, up = toLP(lo), toLP(up)
	var good bool
	switch {
	case lo <= -lpInf && up >= lpInf:
		good = md.lp.setUnbounded(j + 1)
	case lo > up:
		good = md.lp.setBounds(j+1, lo, lo) // infeasible; caught before solving
	default:
		good = md.lp.setBounds(j+1, lo, up)
	}
	if !good {
		return solvers.Errorf(engineName, "set column bounds", solvers.ErrEngine, "column %d: lp_solve rejected bounds [%g, %g]", j, md.colLo[j], md.colUp[j])
	}
	return nil
}

// addCols appends columns in CSC form (arguments already checked).
func (md *model) addCols(obj, lo, up []float64, types []solvers.VarType, start, rows []int, vals []float64) error {
	m := md.numRows()
	if len(md.mark) < m+1 {
		md.mark = make([]int32, m+1)
	}
	for i := range md.mark {
		md.mark[i] = -1
	}
	var ri []int32
	var rv []float64
	for k := range obj {
		ri, rv = ri[:0], rv[:0]
		if obj[k] != 0 {
			ri = append(ri, 0)
			rv = append(rv, obj[k])
		}
		for t := start[k]; t < start[k+1]; t++ {
			r := rows[t] + 1
			if pos := md.mark[r]; pos >= 0 && int(pos) < len(ri) && ri[pos] == int32(r) {
				rv[pos] += vals[t] // duplicate entry: lp_solve wants distinct rows
				continue
			}
			md.mark[r] = int32(len(ri))
			ri = append(ri, int32(r))
			rv = append(rv, vals[t])
		}
		for _, r := range ri {
			md.mark[r] = -1
		}
		if !md.lp.addColumn(ri, rv) {
			return solvers.Errorf(engineName, "add columns", solvers.ErrEngine, "add_columnex failed for column %d", md.numCols())
		}
		t := solvers.Continuous
		if types != nil {
			t = types[k]
		}
		md.colLo = append(md.colLo, lo[k])
		md.colUp = append(md.colUp, up[k])
		md.colType = append(md.colType, t)
		j := len(md.colLo) - 1
		if t != solvers.Continuous {
			md.nInt++
			if !md.lp.setInt(j+1, true) {
				return solvers.Errorf(engineName, "add columns", solvers.ErrEngine, "set_int failed for column %d", j)
			}
		}
		if err := md.applyColBounds(j); err != nil {
			return err
		}
	}
	return nil
}

// addRows appends rows in CSR form (arguments already checked).
func (md *model) addRows(lo, up []float64, start, cols []int, vals []float64) error {
	n := md.numCols()
	if len(md.mark) < n+1 {
		md.mark = make([]int32, n+1)
	}
	for i := range md.mark {
		md.mark[i] = -1
	}
	var ci []int32
	var cv []float64
	for k := range lo {
		ci, cv = ci[:0], cv[:0]
		for t := start[k]; t < start[k+1]; t++ {
			c := cols[t] + 1
			if pos := md.mark[c]; pos >= 0 && int(pos) < len(ci) && ci[pos] == int32(c) {
				cv[pos] += vals[t]
				continue
			}
			md.mark[c] = int32(len(ci))
			ci = append(ci, int32(c))
			cv = append(cv, vals[t])
		}
		for _, c := range ci {
			md.mark[c] = -1
		}
		// Added as a provisional GE 0 row; applyRowBounds sets the real bounds.
		if !md.lp.addRow(ci, cv, rowGE, 0) {
			return solvers.Errorf(engineName, "add rows", solvers.ErrEngine, "add_constraintex failed for row %d", md.numRows())
		}
		md.rowLo = append(md.rowLo, lo[k])
		md.rowUp = append(md.rowUp, up[k])
		if err := md.applyRowBounds(len(md.rowLo) - 1); err != nil {
			return err
		}
	}
	return nil
}

// solve runs lp_solve on the current model and builds the Result.
func (md *model) solve() (res *solvers.Result, err error) {
	defer func() {
		if res != nil {
			res.Normalize()
		}
	}()
	res = &solvers.Result{Solver: engineName, BestBound: math.NaN(), Objective: math.NaN()}
	res.Warnings = append(res.Warnings, md.opts.warnings...)
	n, m := md.numCols(), md.numRows()
	isMIP := md.nInt > 0

	// Bounds that exclude every point: reported without running the engine
	// (lp_solve itself refuses lo > up in set_bounds).
	for j := 0; j < n; j++ {
		if lo, up := md.effBounds(j); lo > up {
			res.Status = solvers.Infeasible
			return res, nil
		}
	}
	for i := 0; i < m; i++ {
		if md.rowLo[i] > md.rowUp[i] {
			res.Status = solvers.Infeasible
			return res, nil
		}
	}
	if n == 0 {
		return md.solveEmpty(res), nil
	}

	pre := md.opts.presolve &^ presolveDuals
	if !isMIP {
		pre |= presolveDuals
	}
	md.lp.setPresolve(pre)
	timeout := md.opts.timeoutSec
	if !md.opts.deadline.IsZero() {
		// Whole seconds, at least 1: lp_solve's 0 means no limit.
		left := int64(math.Ceil(max(time.Until(md.opts.deadline), solvers.MinDeadlineLimit).Seconds()))
		if timeout == 0 || left < timeout {
			timeout = left
		}
	}
	md.lp.setTimeout(timeout)

	t0 := time.Now()
	ret := md.lp.solve()
	res.Seconds = time.Since(t0).Seconds()
	res.Iterations = md.lp.totalIter()
	res.Nodes = md.lp.totalNodes()
	if !isMIP {
		res.Nodes = 0
	}

	switch ret {
	case retOptimal, retPresolved:
		res.Status = solvers.Optimal
		res.HasSolution = true
	case retSubOptimal:
		// A MIP stopped early with an incumbent: lp_solve does not say why.
		// With a time limit set and (nearly) used up it was the timeout.
		res.HasSolution = true
		if timeout > 0 && res.Seconds >= 0.9*float64(timeout) {
			res.Status = solvers.TimeLimit
		} else {
			res.Status = solvers.Interrupted
			res.Warnings = append(res.Warnings, "lp_solve returned SUBOPTIMAL (branch-and-bound stopped early)")
		}
	case retInfeasible:
		res.Status = solvers.Infeasible
	case retUnbounded:
		res.Status = solvers.Unbounded
	case retTimeout:
		res.Status = solvers.TimeLimit
		res.HasSolution = isMIP && md.lp.solutionCount() > 0
	case retUserAbort:
		res.Status = solvers.Interrupted
	case retProcBreak:
		res.Status = solvers.SolutionLimit
		res.HasSolution = isMIP && md.lp.solutionCount() > 0
	case retNumFailure, retAccuracy, retDegenerate:
		res.Status = solvers.NumericalTrouble
	case retNoMemory:
		return nil, solvers.Errorf(engineName, "solve", solvers.ErrEngine, "lp_solve: out of memory (NOMEMORY)")
	case retNoBFP, retProcFail, retNotRun:
		return nil, solvers.Errorf(engineName, "solve", solvers.ErrEngine, "lp_solve: solve returned %d", ret)
	default:
		res.Status = solvers.StatusUnknown
		res.Warnings = append(res.Warnings, "lp_solve: unmapped return code "+strconv.Itoa(ret))
	}

	if !res.HasSolution {
		return res, nil
	}
	res.X = make([]float64, n)
	res.RowActivity = make([]float64, m)
	if md.opts.presolve != 0 {
		// Presolve removed rows or columns from the engine's model; the
		// values are read by original index.
		om, _ := md.lp.origCounts()
		for j := range res.X {
			res.X[j] = md.lp.primalResult(om + 1 + j)
		}
		// lp_solve does not restore the activities of the rows presolve
		// removed (they read as stale values): recompute A x.
		res.RowActivity = md.prob.RowActivity(res.X)
	} else if !md.lp.variables(res.X) || !md.lp.constraints(res.RowActivity) {
		return nil, solvers.Errorf(engineName, "solve", solvers.ErrEngine, "lp_solve: could not read the solution")
	}
	if atInfinity(res.X) {
		// lp_solve reports OPTIMAL for a column without matrix entries
		// whose objective pushes it to an infinite bound, with the column
		// at its infinity (1e30): the problem is unbounded.
		res.Status = solvers.Unbounded
		res.Warnings = append(res.Warnings, "lp_solve: a column is at infinity (unbounded ray)")
		return res, nil
	}
	res.Objective = md.lp.objective()
	switch {
	case res.Status == solvers.Optimal:
		res.BestBound = res.Objective
	case isMIP:
		res.BestBound = md.mipBound(res.Objective)
	}
	if !isMIP && res.Status == solvers.Optimal && md.opts.presolve != 0 {
		res.Warnings = append(res.Warnings, "lp_solve: no duals when the raw option presolve removes rows or columns")
	} else if !isMIP && res.Status == solvers.Optimal {
		y := make([]float64, m)
		d := make([]float64, n)
		if md.lp.duals(y, d) && md.reducedCosts(y, d) {
			res.Duals, res.ReducedCosts, res.HasDuals = y, d, true
		} else {
			res.Warnings = append(res.Warnings, "lp_solve: sensitivity duals unavailable")
		}
	}
	return res, nil
}

// atInfinity reports whether a value is at lp_solve's infinity: bounds are
// clipped to ±1e30 (toLP), so only an unbounded column can get there.
func atInfinity(x []float64) bool {
	for _, v := range x {
		if math.Abs(v) >= lpInf {
			return true
		}
	}
	return false
}

// reducedCosts overwrites d with c - Aᵀy computed from the engine's own
// matrix and objective. lp_solve's sensitivity array gets two cases wrong
// (see doc.go): a column without matrix entries gets 0, and a column with
// only an upper bound has its sign flipped.
func (md *model) reducedCosts(y, d []float64) bool {
	m := md.numRows()
	vals := make([]float64, m+1)
	rows := make([]int32, m+1)
	for j := range d {
		k := md.lp.column(j+1, vals, rows)
		if k < 0 {
			return false
		}
		s := 0.0
		for t := 0; t < k; t++ {
			if r := rows[t]; r == 0 {
				s += vals[t]
			} else {
				s -= vals[t] * y[r-1]
			}
		}
		d[j] = s
	}
	return true
}

// mipBound returns a proven bound after an early stop: lp_solve's
// bb_limitOF holds the objective of the root relaxation (the bound the
// branch-and-bound starts from). It is used only when it lies on the right
// side of the incumbent; otherwise NaN.
func (md *model) mipBound(incumbent float64) float64 {
	b := md.lp.bbLimitOF()
	if math.IsNaN(b) || math.Abs(b) >= lpInf {
		return math.NaN()
	}
	if md.sense == solvers.Maximize {
		if b < incumbent-1e-9*math.Max(1, math.Abs(incumbent)) {
			return math.NaN()
		}
	} else if b > incumbent+1e-9*math.Max(1, math.Abs(incumbent)) {
		return math.NaN()
	}
	return b
}

// solveEmpty handles a model without columns: A x = 0, so it is feasible iff
// every row admits 0; the objective is the offset and all duals are zero.
func (md *model) solveEmpty(res *solvers.Result) *solvers.Result {
	m := md.numRows()
	for i := 0; i < m; i++ {
		if md.rowLo[i] > 0 || md.rowUp[i] < 0 {
			res.Status = solvers.Infeasible
			return res
		}
	}
	res.Status = solvers.Optimal
	res.HasSolution = true
	res.X = []float64{}
	res.RowActivity = make([]float64, m)
	res.Objective = md.offset
	res.BestBound = md.offset
	res.Duals = make([]float64, m)
	res.ReducedCosts = []float64{}
	res.HasDuals = true
	return res
}
