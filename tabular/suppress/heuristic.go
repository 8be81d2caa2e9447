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
	// which the protection LP moves cell j (so the repair suppresses it).
	flowTol = 1e-7
)

// heuristic turns a y into a safe pattern: rounding, repair with the
// protection LP, then publication of redundant cells.
type heuristic struct {
	m      *model
	att    *attacker
	sv     solvers.Solver
	prm    *solvers.Params
	sess   solvers.Session // the protection LP: columns u (0..nc−1), v (nc..2nc−1)
	w      []float64       // current objective per column of the session
	solves int
}

func newHeuristic(m *model, att *attacker, sv solvers.Solver, prm *solvers.Params) (*heuristic, error) {
	h := &heuristic{m: m, att: att, sv: sv, prm: prm}
	if err := h.open(); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *heuristic) open() error {
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
			p.AddCol(0, 0, up, solvers.Continuous, slices.Clone(rows), v, "")
		}
	}
	sess, err := openSession(h.sv, p, h.prm)
	if err != nil {
		return err
	}
	h.sess, h.w = sess, make([]float64, 2*nc)
	return nil
}

func (h *heuristic) close() {
	if h.sess != nil {
		h.sess.Close()
	}
}

// pattern is a suppression pattern over the master variables, with the
// attacker's last optimal d (its moving columns) for every target.
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
// and returns the pattern with its witnesses.
func (h *heuristic) repair(sup []bool, guide []float64) (*pattern, error) {
	m := h.m
	y := m.colY(sup)
	if err := h.att.setY(y); err != nil {
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
		if err := h.sess.SetObjective(cols, obj); err != nil {
			return nil, err
		}
	}
	suppress := func(c int) error {
		sup[m.vr[c]] = true
		y[c] = 1
		if err := h.att.setCol(c, 1); err != nil {
			return err
		}
		h.w[c], h.w[nc+c] = 0, 0
		return h.sess.SetObjective([]int{c, nc + c}, []float64{0, 0})
	}
	pt := &pattern{sup: sup, witness: make([][]int, len(m.targets))}
	for ti, t := range m.targets {
		o, err := h.att.solve(t)
		if err != nil {
			return nil, err
		}
		if !o.reached {
			flow, err := h.protect(t)
			if err != nil {
				return nil, err
			}
			for c, f := range flow {
				if y[c] == 0 && f > flowTol*math.Max(1, t.level) {
					if err := suppress(c); err != nil {
						return nil, err
					}
				}
			}
			if o, err = h.att.solve(t); err != nil {
				return nil, err
			}
		}
		// Fallback (numerical trouble of the protection LP): add the cell
		// of the largest cut coefficient per unit cost until reached.
		for !o.reached {
			ct, ok, infeasible := h.att.cutOf(t, o.res)
			if infeasible || !ok {
				return nil, fmt.Errorf("%w: primary cell (%s) cannot reach its level %g (the attacker reaches %g)", ErrInfeasible, m.src.name(t.cell), t.level, o.z)
			}
			best, bestScore := -1, 0.0
			for k, v := range ct.vars {
				if sup[v] {
					continue
				}
				score := ct.coef[k] / (m.cost[v] + 1e-12)
				if best < 0 || score > bestScore {
					best, bestScore = v, score
				}
			}
			if best < 0 {
				return nil, fmt.Errorf("%w: primary cell (%s) cannot reach its level %g (the attacker reaches %g)", ErrInfeasible, m.src.name(t.cell), t.level, o.z)
			}
			if err := suppress(m.col[best]); err != nil {
				return nil, err
			}
			if o, err = h.att.solve(t); err != nil {
				return nil, err
			}
		}
		pt.witness[ti] = o.witness
	}
	pt.cost = m.patternCost(sup)
	return pt, nil
}

// protect solves the protection LP of target t and returns the flow
// u_c + v_c per column.
func (h *heuristic) protect(t target) ([]float64, error) {
	nc := len(h.m.cell)
	u, v := t.col, nc+t.col
	if t.up {
		if err := h.sess.SetColBounds(u, t.level, h.m.ub[t.col]); err != nil {
			return nil, err
		}
		if err := h.sess.SetColBounds(v, 0, 0); err != nil {
			return nil, err
		}
	} else {
		if err := h.sess.SetColBounds(v, t.level, h.m.lb[t.col]); err != nil {
			return nil, err
		}
		if err := h.sess.SetColBounds(u, 0, 0); err != nil {
			return nil, err
		}
	}
	r, err := h.sess.Solve()
	h.solves++
	if err != nil {
		return nil, err
	}
	if r.Abandoned {
		if err := h.open(); err != nil {
			return nil, err
		}
		return make([]float64, nc), nil
	}
	if err := h.sess.SetColBounds(u, 0, h.m.ub[t.col]); err != nil {
		return nil, err
	}
	if err := h.sess.SetColBounds(v, 0, h.m.lb[t.col]); err != nil {
		return nil, err
	}
	flow := make([]float64, nc)
	if !r.HasSolution {
		return flow, nil // the fallback of repair takes over
	}
	for c := range flow {
		flow[c] = r.X[c] + r.X[nc+c]
	}
	return flow, nil
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
// every target stays reached. It stops early, with a safe pattern, at the
// deadline (zero: none).
func (h *heuristic) cleanup(pt *pattern, deadline time.Time) error {
	m := h.m
	h.dropUnused(pt)
	if err := h.att.setY(m.colY(pt.sup)); err != nil {
		return err
	}
	var order []int
	for v, on := range pt.sup {
		if on {
			order = append(order, v)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case m.cost[a] > m.cost[b]:
			return -1
		case m.cost[a] < m.cost[b]:
			return 1
		}
		return a - b
	})
	for _, v := range order {
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		c := m.col[v]
		if err := h.att.setCol(c, 0); err != nil {
			return err
		}
		ok := true
		for ti, t := range m.targets {
			if _, in := slices.BinarySearch(pt.witness[ti], c); !in {
				continue
			}
			o, err := h.att.solve(t)
			if err != nil {
				return err
			}
			if !o.reached {
				ok = false
				break
			}
			pt.witness[ti] = o.witness
		}
		if !ok {
			if err := h.att.setCol(c, 1); err != nil {
				return err
			}
			continue
		}
		pt.sup[v] = false
	}
	pt.cost = m.patternCost(pt.sup)
	return nil
}
