package suppress

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// Constants of the primal heuristic.
const (
	// RoundThreshold: a fractional y_j at or above it is rounded to 1
	// before the repair.
	RoundThreshold = 0.5
	// protectEps is the ε of the protection LP's weights
	// w_j = c_j·(1 − y_j + ε) on cells not suppressed: it keeps a cell
	// with y_j = 1 dearer than a suppressed one.
	protectEps = 0.01
	// flowTol is the flow u_j + v_j, relative to max(1, level), above
	// which an LP moves cell j.
	flowTol = 1e-7
)

// heuristic turns a y into a safe pattern: rounding, repair with the
// protection LP, then publication of redundant cells. Both of its LPs are
// over split deviations d = u − v (columns u_c, then v_c):
//
//	A (u − v) = 0,  0 ≤ u_c ≤ UB_c,  0 ≤ v_c ≤ LB_c,
//	u_p ≥ level, v_p = 0 (upper target; the other way round for lower).
//
// The protection LP (prot) leaves every cell free to move and weighs
// the cells not suppressed by their cost: the cells it moves are those
// to suppress. The witness LP (wit) lets only suppressed cells move
// (bounds times y) and minimizes the total movement Σ (u_c + v_c): it is
// feasible exactly when the target is reached (the attacker can follow
// u − v), and its optimum, a witness moving few cells, says which cells
// the protection depends on. (The attacker LP's own optimum moves almost
// every suppressed cell, which makes every cell look needed.)
type heuristic struct {
	m      *model
	att    *attacker
	sv     solvers.Solver // the witness LP's engine
	psv    solvers.Solver // the protection LP's engine
	prm    *solvers.Params
	prot   solvers.Session
	wit    solvers.Session
	w      []float64 // objective per column of prot
	wy     []float64 // y per cell column as the bounds of wit are set
	solves int       // LPs solved (protection and witness)
}

func newHeuristic(m *model, att *attacker, sv, psv solvers.Solver, prm *solvers.Params) (*heuristic, error) {
	h := &heuristic{m: m, att: att, sv: sv, psv: psv, prm: prm}
	if err := h.openProt(); err != nil {
		return nil, err
	}
	if err := h.openWit(); err != nil {
		h.prot.Close()
		return nil, err
	}
	return h, nil
}

// splitProblem returns the LP over u, v with objective weight obj[c] on
// u_c and v_c and column bounds times y[c] (nil: 1).
func (h *heuristic) splitProblem(obj, y []float64) *solvers.Problem {
	nc := len(h.m.cell)
	p := &solvers.Problem{Sense: solvers.Minimize}
	for range h.m.prob.NumRows() {
		p.AddRow(0, 0, "")
	}
	for sign := 1.0; sign >= -1; sign -= 2 {
		for c := range nc {
			rows, vals := h.m.prob.Column(c)
			v := make([]float64, len(vals))
			for k := range vals {
				v[k] = sign * vals[k]
			}
			up := h.m.ub[c]
			if sign < 0 {
				up = h.m.lb[c]
			}
			if y != nil {
				up *= y[c]
			}
			p.AddCol(obj[c], 0, up, solvers.Continuous, slices.Clone(rows), v, "")
		}
	}
	return p
}

func (h *heuristic) openProt() error {
	nc := len(h.m.cell)
	sess, err := openSession(h.psv, h.splitProblem(make([]float64, nc), nil), h.prm)
	if err != nil {
		return err
	}
	h.prot, h.w = sess, make([]float64, 2*nc)
	return nil
}

func (h *heuristic) openWit() error {
	nc := len(h.m.cell)
	ones := make([]float64, nc)
	for c := range ones {
		ones[c] = 1
	}
	if h.wy == nil {
		h.wy = slices.Clone(ones)
	}
	sess, err := openSession(h.sv, h.splitProblem(ones, h.wy), h.prm)
	if err != nil {
		return err
	}
	h.wit = sess
	return nil
}

func (h *heuristic) close() {
	if h.prot != nil {
		h.prot.Close()
	}
	if h.wit != nil {
		h.wit.Close()
	}
}

// setCol sets y of column c in the witness LP.
func (h *heuristic) setCol(c int, y float64) error {
	if h.wy[c] == y {
		return nil
	}
	h.wy[c] = y
	nc := len(h.m.cell)
	if err := h.wit.SetColBounds(c, 0, h.m.ub[c]*y); err != nil {
		return err
	}
	return h.wit.SetColBounds(nc+c, 0, h.m.lb[c]*y)
}

// setY sets the pattern of the witness LP.
func (h *heuristic) setY(y []float64) error {
	for c, v := range y {
		if err := h.setCol(c, v); err != nil {
			return err
		}
	}
	return nil
}

// targetBounds sets, in sess, the bounds of target t's columns (set) or
// restores them to y times the full bounds.
func (h *heuristic) targetBounds(sess solvers.Session, t target, set bool, y float64) error {
	nc := len(h.m.cell)
	if t.ov != nil {
		// An insider's bounds on its own columns (times y of the witness
		// LP's pattern; the protection LP's bounds are full).
		for k, c := range t.ov.cols {
			lb, ub := h.m.lb[c], h.m.ub[c]
			if set {
				lb, ub = t.ov.lb[k], t.ov.ub[k]
			}
			yc := 1.0
			if sess == h.wit {
				yc = h.wy[c]
			}
			if err := sess.SetColBounds(c, 0, ub*yc); err != nil {
				return err
			}
			if err := sess.SetColBounds(nc+c, 0, lb*yc); err != nil {
				return err
			}
		}
	}
	u, v := t.col, nc+t.col
	lb, ub := h.m.bounds(t, t.col)
	if !set {
		lb, ub = h.m.lb[t.col], h.m.ub[t.col]
	}
	uLo, uUp, vUp := 0.0, ub*y, lb*y
	vLo := 0.0
	if set {
		if t.up {
			uLo, vUp = t.level, 0
		} else {
			vLo, uUp = t.level, 0
		}
	}
	if err := sess.SetColBounds(u, uLo, uUp); err != nil {
		return err
	}
	return sess.SetColBounds(v, vLo, vUp)
}

// flowSolve solves sess for target t and returns the flow u_c + v_c per
// column, or nil when the LP is infeasible or stopped without a point.
func (h *heuristic) flowSolve(sess solvers.Session, t target, y float64) ([]float64, *solvers.Result, error) {
	if err := h.targetBounds(sess, t, true, y); err != nil {
		return nil, nil, err
	}
	r, err := sess.Solve()
	h.solves++
	if err != nil {
		return nil, nil, err
	}
	if r.Abandoned {
		return nil, r, nil
	}
	if err := h.targetBounds(sess, t, false, y); err != nil {
		return nil, nil, err
	}
	if r.Status != solvers.Optimal || !r.HasSolution {
		return nil, r, nil
	}
	nc := len(h.m.cell)
	flow := make([]float64, nc)
	for c := range flow {
		flow[c] = r.X[c] + r.X[nc+c]
	}
	return flow, r, nil
}

// witness reports whether target t is reached under the witness LP's
// pattern and, if so, the columns its least-movement d moves. An LP that
// ends neither optimal nor infeasible is decided by the attacker LP at
// the same pattern.
func (h *heuristic) witness(t target) (bool, []int, error) {
	flow, r, err := h.flowSolve(h.wit, t, 1)
	if err != nil {
		return false, nil, err
	}
	if r != nil && r.Abandoned {
		if err := h.openWit(); err != nil {
			return false, nil, err
		}
	}
	if flow != nil {
		var w []int
		for c, f := range flow {
			if f > flowTol*math.Max(1, t.level) {
				w = append(w, c)
			}
		}
		if !slices.Contains(w, t.col) {
			w = append(w, t.col)
			slices.Sort(w)
		}
		return true, w, nil
	}
	if r != nil && r.Status == solvers.Infeasible {
		return false, nil, nil
	}
	if err := h.att.setY(h.wy); err != nil {
		return false, nil, err
	}
	o, err := h.att.solve(t)
	if err != nil {
		return false, nil, err
	}
	return o.reached, o.witness, nil
}

// pattern is a suppression pattern over the master variables, with a
// witness (the columns a d reaching the level moves) for every target.
type pattern struct {
	sup     []bool
	witness [][]int
	cost    float64
}

func (m *model) patternCost(sup []bool) float64 {
	s := 0.0
	for v, on := range sup {
		if on {
			s += m.cost[v]
		}
	}
	return s
}

// colY returns y per column for the pattern sup.
func (m *model) colY(sup []bool) []float64 {
	y := make([]float64, len(m.cell))
	for c, v := range m.vr {
		if v < 0 || sup[v] {
			y[c] = 1
		}
	}
	return y
}

// round returns the pattern y_j ≥ RoundThreshold.
func round(y []float64) []bool {
	sup := make([]bool, len(y))
	for v, x := range y {
		sup[v] = x >= RoundThreshold
	}
	return sup
}

// repair suppresses more cells of sup (changed in place) until every
// target is reached, guided by y (per master variable; nil for none),
// and returns the pattern with its witnesses. At the deadline (zero:
// none) it gives up and returns nil: the caller keeps its incumbent.
func (h *heuristic) repair(sup []bool, guide []float64, deadline time.Time) (*pattern, error) {
	m := h.m
	y := m.colY(sup)
	if err := h.setY(y); err != nil {
		return nil, err
	}
	// The protection LP's weights.
	cols := make([]int, 0, 2*len(m.cell))
	obj := make([]float64, 0, 2*len(m.cell))
	nc := len(m.cell)
	for c := range nc {
		w := 0.0
		if y[c] == 0 {
			v := m.vr[c]
			g := 0.0
			if guide != nil {
				g = math.Min(math.Max(guide[v], 0), 1)
			}
			w = m.cost[v] * (1 - g + protectEps)
		}
		for _, k := range []int{c, nc + c} {
			if h.w[k] != w {
				cols, obj = append(cols, k), append(obj, w)
				h.w[k] = w
			}
		}
	}
	if len(cols) > 0 {
		if err := h.prot.SetObjective(cols, obj); err != nil {
			return nil, err
		}
	}
	suppress := func(c int) error {
		sup[m.vr[c]] = true
		y[c] = 1
		if err := h.setCol(c, 1); err != nil {
			return err
		}
		h.w[c], h.w[nc+c] = 0, 0
		return h.prot.SetObjective([]int{c, nc + c}, []float64{0, 0})
	}
	pt := &pattern{sup: sup, witness: make([][]int, len(m.targets))}
	for ti, t := range m.targets {
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, nil
		}
		ok, w, err := h.witness(t)
		if err != nil {
			return nil, err
		}
		if !ok {
			flow, r, err := h.flowSolve(h.prot, t, 1)
			if err != nil {
				return nil, err
			}
			if r != nil && r.Abandoned {
				if err := h.openProt(); err != nil {
					return nil, err
				}
			}
			for c, f := range flow {
				if y[c] == 0 && f > flowTol*math.Max(1, t.level) {
					if err := suppress(c); err != nil {
						return nil, err
					}
				}
			}
			if ok, w, err = h.witness(t); err != nil {
				return nil, err
			}
		}
		// Fallback (numerical trouble of the protection LP): add the cell
		// of the largest cut coefficient per unit cost until reached.
		for !ok {
			if err := h.att.setY(y); err != nil {
				return nil, err
			}
			o, err := h.att.solve(t)
			if err != nil {
				return nil, err
			}
			if o.reached {
				ok, w = true, o.witness
				break
			}
			ct, cok, infeasible := h.att.cutOf(t, o.res)
			best, bestScore := -1, 0.0
			if cok && !infeasible {
				for k, v := range ct.vars {
					if sup[v] {
						continue
					}
					score := ct.coef[k] / (m.cost[v] + 1e-12)
					if best < 0 || score > bestScore {
						best, bestScore = v, score
					}
				}
			}
			if best < 0 {
				return nil, fmt.Errorf("%w: primary cell (%s) cannot reach its level %g (the attacker reaches %g)", ErrInfeasible, m.src.name(t.cell), t.level, o.z)
			}
			if err := suppress(m.col[best]); err != nil {
				return nil, err
			}
		}
		pt.witness[ti] = w
	}
	pt.cost = m.patternCost(sup)
	return pt, nil
}

// dropUnused publishes every suppressed free cell of pt that no witness
// moves: each target's witness d stays feasible, so every target stays
// reached, and no LP is needed. A disclosed secondary cell (d_c = 0 in
// every feasible d) is always among them, so the pattern then passes
// the audit's disclosure check.
func (h *heuristic) dropUnused(pt *pattern) {
	used := make([]bool, len(h.m.cell))
	for _, w := range pt.witness {
		for _, c := range w {
			used[c] = true
		}
	}
	for v, on := range pt.sup {
		if on && !used[h.m.col[v]] {
			pt.sup[v] = false
		}
	}
	pt.cost = h.m.patternCost(pt.sup)
}

// cleanup tries to publish the suppressed free cells of pt, in decreasing
// order of cost (then increasing cell order), keeping each published when
// every target stays reached (only the targets whose witness moves the
// cell are solved again). It stops early, with a safe pattern, at the
// deadline (zero: none).
func (h *heuristic) cleanup(pt *pattern, deadline time.Time) error {
	return h.cleanupOnly(pt, nil, deadline)
}

// cleanupOnly is cleanup trying only the cells v with try[v] (nil: all).
func (h *heuristic) cleanupOnly(pt *pattern, try []bool, deadline time.Time) error {
	m := h.m
	h.dropUnused(pt)
	if err := h.setY(m.colY(pt.sup)); err != nil {
		return err
	}
	var order []int
	for v, on := range pt.sup {
		if on && (try == nil || try[v]) {
			order = append(order, v)
		}
	}
	m.byCostDesc(order)
	for _, v := range order {
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		c := m.col[v]
		if err := h.setCol(c, 0); err != nil {
			return err
		}
		ok := true
		for ti, t := range m.targets {
			if _, in := slices.BinarySearch(pt.witness[ti], c); !in {
				continue
			}
			reached, w, err := h.witness(t)
			if err != nil {
				return err
			}
			if !reached {
				ok = false
				break
			}
			// A witness without c is valid with c suppressed too, so it
			// is kept whether or not c is published in the end.
			pt.witness[ti] = w
		}
		if !ok {
			if err := h.setCol(c, 1); err != nil {
				return err
			}
			continue
		}
		pt.sup[v] = false
	}
	pt.cost = m.patternCost(pt.sup)
	return nil
}

// byCostDesc sorts cells (master variables) by decreasing cost, ties by
// index: the order in which cleanups try to publish them.
func (m *model) byCostDesc(order []int) {
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case m.cost[a] > m.cost[b]:
			return -1
		case m.cost[a] < m.cost[b]:
			return 1
		}
		return a - b
	})
}
