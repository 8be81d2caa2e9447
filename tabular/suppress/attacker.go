package suppress

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/solvers"
)

// cut is a capacity constraint over master variables: Σ Coef_k·y_Vars[k] ≥ 1,
// every coefficient in (0, 1], Vars increasing.
type cut struct {
	vars []int
	coef []float64
}

func newCut(vars []int, coef []float64) cut { return cut{vars: vars, coef: coef} }

// lhs returns Σ coef·y.
func (c *cut) lhs(y []float64) float64 {
	s := 0.0
	for k, v := range c.vars {
		s += c.coef[k] * y[v]
	}
	return s
}

// openSession opens an incremental session of sv over p, or a reloading
// one when the engine has none.
func openSession(sv solvers.Solver, p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	if sv.Capabilities().Incremental {
		return sv.NewSession(p, prm)
	}
	return solvers.NewReloadSession(sv, p, prm)
}

// attacker solves the attacker subproblems max ±d_p over P(y) in one
// session whose column bounds follow the pattern y.
type attacker struct {
	m      *model
	sv     solvers.Solver
	prm    *solvers.Params
	sess   solvers.Session
	y      []float64 // y per column, as the bounds are set
	objCol int       // the column with a non-zero objective, −1 for none
	solves int
	// delta widens every column's bounds by this much each way (0: the
	// attacker subproblems as they are). A widened session is only used
	// to choose the multipliers γ of a cut (see regularized.go): it
	// never decides whether a target is reached.
	delta float64
}

func newAttacker(m *model, sv solvers.Solver, prm *solvers.Params) (*attacker, error) {
	a := &attacker{m: m, sv: sv, prm: prm, objCol: -1}
	if err := a.open(); err != nil {
		return nil, err
	}
	return a, nil
}

// open (re)opens the session with every column at its full bounds
// (y = 1), then sets the bounds of a.y when it is set.
func (a *attacker) open() error {
	sess, err := openSession(a.sv, a.m.prob, a.prm)
	if err != nil {
		return err
	}
	a.sess, a.objCol = sess, -1
	old := a.y
	a.y = make([]float64, len(a.m.cell))
	for c := range a.y {
		a.y[c] = 1
		if a.delta != 0 {
			a.y[c] = math.NaN() // the session's bounds are not those of y = 1
		}
	}
	if old != nil {
		return a.setY(old)
	}
	return nil
}

// bounds returns the bounds of column c at y = v: [−LB·v, UB·v], widened
// by delta.
func (a *attacker) bounds(c int, v float64) (lo, up float64) {
	return -a.m.lb[c]*v - a.delta, a.m.ub[c]*v + a.delta
}

func (a *attacker) close() {
	if a.sess != nil {
		a.sess.Close()
	}
}

// setY sets the bounds of the columns whose y changed: [−LB·y, UB·y].
func (a *attacker) setY(y []float64) error {
	for c, v := range y {
		if v == a.y[c] {
			continue
		}
		lo, up := a.bounds(c, v)
		if err := a.sess.SetColBounds(c, lo, up); err != nil {
			return err
		}
		a.y[c] = v
	}
	return nil
}

// setCol sets y of one column.
func (a *attacker) setCol(c int, v float64) error {
	if a.y[c] == v {
		return nil
	}
	a.y[c] = v
	lo, up := a.bounds(c, v)
	return a.sess.SetColBounds(c, lo, up)
}

// outcome is the solution of one attacker subproblem.
type outcome struct {
	z       float64 // max of ±d_p
	reached bool    // z reaches the level (within levelTol)
	witness []int   // columns that move in the optimal d (sorted)
	res     *solvers.Result
}

// levelTol is the slack within which an attacker optimum counts as
// reaching a level: relative to max(1, level).
const levelTol = 1e-7

// solve solves target t at the current bounds.
func (a *attacker) solve(t target) (outcome, error) {
	obj := 1.0
	if !t.up {
		obj = -1
	}
	cols, vals := []int{t.col}, []float64{obj}
	if a.objCol >= 0 && a.objCol != t.col {
		cols, vals = []int{a.objCol, t.col}, []float64{0, obj}
	}
	if err := a.sess.SetObjective(cols, vals); err != nil {
		return outcome{}, err
	}
	a.objCol = t.col
	if err := a.overrideBounds(t, true); err != nil {
		return outcome{}, err
	}
	// Cap the primary cell's move at the level: the protection condition
	// is the same (P(y) is convex and contains 0, so a d moving it further
	// scales down to one moving it by exactly the level), the attacker
	// stops there, and its d (the witness) moves fewer cells by less.
	lo, up := a.capped(t)
	if err := a.sess.SetColBounds(t.col, lo, up); err != nil {
		return outcome{}, err
	}
	r, err := a.sess.Solve()
	if err != nil {
		return outcome{}, err
	}
	a.solves++
	if !r.Abandoned {
		lo, up := a.bounds(t.col, a.y[t.col])
		if err := a.sess.SetColBounds(t.col, lo, up); err != nil {
			return outcome{}, err
		}
		if err := a.overrideBounds(t, false); err != nil {
			return outcome{}, err
		}
	}
	if r.Abandoned {
		if err := a.open(); err != nil {
			return outcome{}, err
		}
	}
	if r.Status != solvers.Optimal || !r.HasSolution {
		return outcome{}, fmt.Errorf("%w: attacker LP of cell (%s), engine %s: %v", ErrNotSolved, a.m.src.name(t.cell), a.sv.Name(), r.Status)
	}
	o := outcome{z: r.Objective, res: r}
	o.reached = o.z >= t.level-levelTol*math.Max(1, t.level)
	for c, x := range r.X {
		lb, ub := a.m.bounds(t, c)
		if math.Abs(x) > witnessTol*math.Max(1, math.Max(lb, ub)) {
			o.witness = append(o.witness, c)
		}
	}
	return o, nil
}

// overrideBounds sets (set) the bounds of an insider target's own
// columns, [−LB^k·y, UB^k·y], or restores the model's.
func (a *attacker) overrideBounds(t target, set bool) error {
	if t.ov == nil {
		return nil
	}
	for k, c := range t.ov.cols {
		lb, ub := a.m.lb[c], a.m.ub[c]
		if set {
			lb, ub = t.ov.lb[k], t.ov.ub[k]
		}
		if err := a.sess.SetColBounds(c, -lb*a.y[c], ub*a.y[c]); err != nil {
			return err
		}
	}
	return nil
}

// capped returns the bounds of target t's column during its solve.
func (a *attacker) capped(t target) (lo, up float64) {
	lb, ub := a.m.bounds(t, t.col)
	lo, up = -lb, ub
	if t.up {
		up = math.Min(up, t.level)
	} else {
		lo = math.Max(lo, -t.level)
	}
	return lo, up
}

// witnessTol is the relative size of a deviation d_c below which cell c
// counts as not moved by the attacker's optimal d.
const witnessTol = 1e-9

// tinyCoef is the size, relative to the level, of a capacity-constraint
// coefficient that is moved to the right side instead of kept.
const tinyCoef = 1e-9

// cutOf builds the capacity constraint of target t from the duals of an
// optimal solve (see the package documentation), over the master
// variables, strengthened and scaled to right side 1. ok is false when
// the duals are missing, the constraint is trivially satisfied by the
// fixed cells, or the cut has no free variable (then the level cannot be
// reached by any pattern: infeasible is true).
func (a *attacker) cutOf(t target, r *solvers.Result) (c cut, ok, infeasible bool) {
	if !r.HasDuals || len(r.Duals) != a.m.prob.NumRows() {
		return cut{}, false, false
	}
	p := a.m.prob
	rhs := t.level
	var vars []int
	var coef []float64
	for col := 0; col < p.NumCols(); col++ {
		rc := 0.0
		if col == t.col {
			rc = 1
			if !t.up {
				rc = -1
			}
		}
		rows, vals := p.Column(col)
		for k, i := range rows {
			rc -= vals[k] * r.Duals[i]
		}
		lb, ub := a.m.bounds(t, col)
		if col == t.col {
			lo, up := a.capped(t)
			ub, lb = up, -lo
		}
		k := math.Max(rc, 0)*ub + math.Max(-rc, 0)*lb
		if !(k > 0) {
			continue
		}
		// A primary cell (y = 1) moves to the right side; so does a tiny
		// coefficient (y ≤ 1 makes the cut without it valid), which keeps
		// engine noise out of the master.
		if v := a.m.vr[col]; v < 0 || k < tinyCoef*t.level {
			rhs -= k
		} else {
			vars, coef = append(vars, v), append(coef, k)
		}
	}
	if rhs <= levelTol*math.Max(1, t.level) {
		return cut{}, false, false
	}
	if len(vars) == 0 {
		return cut{}, false, true
	}
	for k := range coef {
		coef[k] = math.Min(coef[k]/rhs, 1)
	}
	// vars come in column order, and master variables are numbered in
	// column order, so they are increasing.
	if !slices.IsSorted(vars) {
		panic("suppress: cut variables out of order")
	}
	return newCut(vars, coef), true, false
}
