package lp

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"sdcopt/model"
	"sdcopt/solvers"
)

// ErrInfeasible is wrapped by the errors of CellBounds when the margins
// are inconsistent or admit no non-negative table (the polytope Q is
// empty).
var ErrInfeasible = errors.New("lp: the margins admit no non-negative table")

// ErrNotSolved is wrapped when an engine stopped without proving a bound
// (a time or iteration limit, numerical trouble).
var ErrNotSolved = errors.New("lp: a bound was not proven")

// snapTol is the distance to the nearest integer below which an LP bound
// is reported as that integer (engine round-off on integral vertices).
const snapTol = 1e-7

// intTol is the slack when rounding a MIP's dual bound to an integer
// bound: an objective of whole numbers whose best bound is 312.0000004 is
// at most 312.
const intTol = 1e-6

// Options select what to bound and how. A nil *Options means defaults.
type Options struct {
	// Marginal, when non-nil, asks for bounds on the cells of the marginal
	// over these variable positions (increasing) instead of the cells of
	// the full table: the objective is the sum of the full-table cells
	// projecting to a marginal cell. Default nil: full-table cells.
	Marginal []int
	// Cells restricts the solves to these targets (indices of full-table
	// cells, or of marginal cells with Marginal). Default nil: every one.
	// The bounds of other targets are NaN in the result.
	Cells []int
	// Progress, when non-nil, is called after each target with the number
	// done and the total.
	Progress func(done, total int)
	// Cold re-solves every LP from scratch (a reloading session) instead of
	// warm-starting in one engine session; for benchmarks.
	Cold bool
	// Stats, when non-nil, receives counts about the run.
	Stats *Stats
}

// Stats describe a run of CellBounds.
type Stats struct {
	Targets    int   // cells bounded
	Solves     int   // engine solves
	Presolved  int   // targets fixed at 0 without a solve
	Iterations int64 // simplex iterations summed over the solves
	Nodes      int64 // branch-and-bound nodes (integer solves)
	// Unproven counts integer bounds taken from the engine's dual bound
	// because it stopped on a limit or with a gap: valid, maybe not sharp.
	Unproven int
	// LowerAttained and UpperAttained (one entry per target) report that
	// an integer table attaining the bound was found: for an LP, the
	// optimal vertex returned by the engine was integral (so the LP bound
	// is also the sharp integer bound); for an IP, the bound was proven
	// optimal. Presolved targets ([0, 0]) are attained.
	LowerAttained, UpperAttained []bool
}

// attainTol is the distance from an integer below which an LP vertex
// coordinate counts as integral.
const attainTol = 1e-7

// integral reports whether every coordinate of x is within attainTol of an
// integer.
func integral(x []float64) bool {
	for _, v := range x {
		if math.Abs(v-math.Round(v)) > attainTol {
			return false
		}
	}
	return true
}

// CellBoundsProblem returns the polytope Q of the margin set as a problem
// with a zero objective: one column per full-table cell (x_c ≥ 0; integer
// when integer is true; upper bound min_M n_M(c_M)), one equality row per
// released marginal cell. It panics when a marginal's shape does not match
// ms.Vars (check ms with MarginSet.Check first).
func CellBoundsProblem(ms *model.MarginSet, integer bool) *solvers.Problem {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	p := &solvers.Problem{Name: "cellbounds", Sense: solvers.Minimize}
	rowOf := make([]int, len(ms.Margins)) // first row of each marginal
	for k, m := range ms.Margins {
		if len(m.Counts) != model.NumCells(model.SubDims(dims, m.Vars)) {
			panic(fmt.Sprintf("lp: marginal %d has %d counts for %v", k, len(m.Counts), model.SubDims(dims, m.Vars)))
		}
		rowOf[k] = p.NumRows()
		for i, c := range m.Counts {
			v := float64(c)
			p.AddRow(v, v, "m"+strconv.Itoa(k)+"_"+strconv.Itoa(i))
		}
	}
	typ := solvers.Continuous
	if integer {
		typ = solvers.Integer
	}
	lv := make([]int, len(dims))
	rows := make([]int, len(ms.Margins))
	vals := make([]float64, len(ms.Margins))
	for j := range vals {
		vals[j] = 1
	}
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		up := solvers.Inf
		for k, m := range ms.Margins {
			mi := model.Project(dims, m.Vars, lv)
			rows[k] = rowOf[k] + mi
			up = math.Min(up, float64(m.Counts[mi]))
		}
		p.AddCol(0, 0, up, typ, rows, vals, "x"+strconv.Itoa(c))
	}
	if n == 0 {
		p.ColStart = nil
	}
	return p
}

// CellBounds returns the LP bounds min/max x_c over Q for every cell (or
// the cells of a marginal, or a subset; see Options), with two solves per
// cell in one warm-started engine session of s. Errors: ErrInfeasible
// (wrapped, together with the *model.InconsistencyError when the margins
// disagree), ErrNotSolved, engine errors, and MarginSet.Check's errors for
// malformed margins. A nil prm means solvers.DefaultParams().
func CellBounds(ms *model.MarginSet, s solvers.Solver, prm *solvers.Params, opt *Options) (*model.CellBounds, error) {
	return Solve(ms, s, prm, opt, false)
}

// target is a set of full-table cells whose sum is bounded.
type target struct {
	cols []int
}

// Solve is the driver behind CellBounds (integer false) and ip.CellBounds
// (integer true): it builds CellBoundsProblem(ms, integer) and bounds each
// target with two solves in one session.
func Solve(ms *model.MarginSet, s solvers.Solver, prm *solvers.Params, opt *Options, integer bool) (*model.CellBounds, error) {
	if opt == nil {
		opt = &Options{}
	}
	infeasible := ErrInfeasible
	method := "lp"
	if integer {
		infeasible = ErrNoIntegerTable
		method = "ip"
	}
	if err := ms.Check(); err != nil {
		var ie *model.InconsistencyError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("%w: %w", infeasible, err)
		}
		return nil, err
	}
	p := CellBoundsProblem(ms, integer)
	targets, err := makeTargets(ms, opt.Marginal)
	if err != nil {
		return nil, err
	}
	which := opt.Cells
	if which == nil {
		which = make([]int, len(targets))
		for i := range which {
			which[i] = i
		}
	}
	for _, t := range which {
		if t < 0 || t >= len(targets) {
			panic(fmt.Sprintf("lp: Options.Cells names target %d of %d", t, len(targets)))
		}
	}
	nt := len(targets)
	b := &model.CellBounds{Lower: make([]float64, nt), Upper: make([]float64, nt), Method: make([]string, nt)}
	for i := range b.Lower {
		b.Lower[i], b.Upper[i] = math.NaN(), math.NaN()
	}
	st := opt.Stats
	if st == nil {
		st = &Stats{}
	}
	*st = Stats{Targets: len(which), LowerAttained: make([]bool, nt), UpperAttained: make([]bool, nt)}

	// Presolve: a target whose cells are all fixed at 0 is [0, 0].
	var todo []int
	for _, t := range which {
		zero := true
		for _, j := range targets[t].cols {
			zero = zero && p.ColUpper[j] == 0
		}
		if zero {
			b.Lower[t], b.Upper[t], b.Method[t] = 0, 0, method
			st.LowerAttained[t], st.UpperAttained[t] = true, true
			st.Presolved++
			continue
		}
		todo = append(todo, t)
	}
	done := len(which) - len(todo)
	if opt.Progress != nil && done > 0 {
		opt.Progress(done, len(which))
	}
	if len(todo) == 0 {
		// Q may still be empty (consistent pairwise, no table): check once.
		if len(which) > 0 {
			if err := checkFeasible(s, p, prm, infeasible); err != nil {
				return nil, err
			}
		}
		return b, nil
	}

	var sess solvers.Session
	if opt.Cold {
		sess, err = solvers.NewReloadSession(s, p, prm)
	} else {
		sess, err = s.NewSession(p, prm)
		if errors.Is(err, solvers.ErrUnsupported) {
			sess, err = solvers.NewReloadSession(s, p, prm)
		}
	}
	if err != nil {
		return nil, err
	}
	defer sess.Close()

	var prev []int
	cols := make([]int, 0, 16)
	obj := make([]float64, 0, 16)
	for _, t := range todo {
		cols, obj = cols[:0], obj[:0]
		for _, j := range prev {
			cols = append(cols, j)
			obj = append(obj, 0)
		}
		for _, j := range targets[t].cols {
			cols = append(cols, j)
			obj = append(obj, 1)
		}
		if err := sess.SetObjective(cols, obj); err != nil {
			return nil, err
		}
		prev = targets[t].cols
		for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
			if err := sess.SetSense(sense); err != nil {
				return nil, err
			}
			r, err := sess.Solve()
			if err != nil {
				return nil, err
			}
			st.Solves++
			st.Iterations += r.Iterations
			st.Nodes += r.Nodes
			v, unproven, err := boundValue(r, sense, integer)
			if err != nil {
				if errors.Is(err, errEmpty) {
					return nil, fmt.Errorf("%w (engine %s: %v)", infeasible, s.Name(), r.Status)
				}
				return nil, fmt.Errorf("%w: target %d (%v, engine %s): %v", ErrNotSolved, t, sense, s.Name(), err)
			}
			if unproven {
				st.Unproven++
			}
			attained := !unproven && (integer || (r.HasSolution && integral(r.X)))
			if attained && !integer {
				v = math.Round(v)
			}
			if sense == solvers.Minimize {
				b.Lower[t], st.LowerAttained[t] = v, attained
			} else {
				b.Upper[t], st.UpperAttained[t] = v, attained
			}
		}
		b.Method[t] = method
		done++
		if opt.Progress != nil {
			opt.Progress(done, len(which))
		}
	}
	return b, nil
}

// ErrNoIntegerTable is wrapped by the integer solves (package ip) when the
// margins admit no integer table, or are inconsistent.
// It lives here, not in package ip, because ip builds on this driver;
// ip.ErrInfeasible is the same value.
var ErrNoIntegerTable = errors.New("ip: the margins admit no integer table")

var errEmpty = errors.New("empty")

// checkFeasible solves the zero-objective problem once.
func checkFeasible(s solvers.Solver, p *solvers.Problem, prm *solvers.Params, infeasible error) error {
	r, err := s.Solve(p, prm)
	if err != nil {
		return err
	}
	switch r.Status {
	case solvers.Optimal:
		return nil
	case solvers.Infeasible, solvers.InfeasibleOrUnbounded:
		return fmt.Errorf("%w (engine %s: %v)", infeasible, s.Name(), r.Status)
	}
	return fmt.Errorf("%w: feasibility check (engine %s): %v", ErrNotSolved, s.Name(), r.Status)
}

// boundValue turns a solve result into a bound. For integer solves the
// engine's dual bound, rounded inward to an integer, is used when the
// engine stopped on a limit or with a gap (unproven = true: valid, maybe
// not sharp).
func boundValue(r *solvers.Result, sense solvers.Sense, integer bool) (v float64, unproven bool, err error) {
	switch r.Status {
	case solvers.Infeasible, solvers.InfeasibleOrUnbounded:
		return 0, false, errEmpty
	case solvers.Unbounded:
		if sense == solvers.Maximize {
			return math.Inf(1), false, nil
		}
		return 0, false, fmt.Errorf("minimum unbounded")
	case solvers.Optimal:
		if !integer {
			return snap(r.Objective), false, nil
		}
		obj := math.Round(r.Objective)
		bb := r.BestBound
		if math.IsNaN(bb) || math.IsInf(bb, 0) {
			return obj, false, nil
		}
		if sense == solvers.Maximize {
			if ub := math.Floor(bb + intTol); ub > obj {
				return ub, true, nil
			}
		} else if lb := math.Ceil(bb - intTol); lb < obj {
			return lb, true, nil
		}
		return obj, false, nil
	}
	if integer && r.Status.Limit() && !math.IsNaN(r.BestBound) && !math.IsInf(r.BestBound, 0) {
		if sense == solvers.Maximize {
			return math.Floor(r.BestBound + intTol), true, nil
		}
		return math.Max(0, math.Ceil(r.BestBound-intTol)), true, nil
	}
	return 0, false, fmt.Errorf("engine stopped: %v", r.Status)
}

// snap rounds v to the nearest integer when it is within snapTol of it.
func snap(v float64) float64 {
	if r := math.Round(v); math.Abs(v-r) <= snapTol*math.Max(1, math.Abs(v)) {
		if r == 0 {
			return 0 // not -0
		}
		return r
	}
	return v
}

// makeTargets lists the cell sets to bound: single full-table cells, or
// the cells of the marginal over sub.
func makeTargets(ms *model.MarginSet, sub []int) ([]target, error) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	if sub == nil {
		ts := make([]target, n)
		for c := range ts {
			ts[c] = target{cols: []int{c}}
		}
		return ts, nil
	}
	for i, j := range sub {
		if j < 0 || j >= len(dims) || (i > 0 && sub[i-1] >= j) {
			panic(fmt.Sprintf("lp: Options.Marginal %v is not an increasing list of variable positions < %d", sub, len(dims)))
		}
	}
	ts := make([]target, model.NumCells(model.SubDims(dims, sub)))
	lv := make([]int, len(dims))
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		m := model.Project(dims, sub, lv)
		ts[m].cols = append(ts[m].cols, c)
	}
	return ts, nil
}
