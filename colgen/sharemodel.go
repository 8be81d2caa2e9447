package colgen

import (
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// shareModel is the disaggregated cutting-plane model of the per-record
// bound R(λ) = Σ_v (λ_v + μ_v(λ)), μ_v = min(0, min_{C∋v} rc_C/|C|), that
// the exact evaluations (exactShares) have revealed, maximized in a box
// around the best duals: the steps of a bundle method with one model per
// record (the disaggregated bundle of Kiwiel's and Frangioni's
// "Generalized bundle methods", SIAM J. Optim. 13, 2002; the BoxStep
// stabilization of Marsten, Hogan & Blankenship, Oper. Res. 23, 1975).
//
// Every group C an evaluation found gives each member v the cut
// μ_v(λ) ≤ (w_C − Σ_{u∈C} λ_u)/|C|, valid for all λ; the model
//
//	max Σ_v (λ_v + s_v)  s.t.  s_v ≤ 0,  s_v ≤ (w_C − λ(C))/|C| (C ∋ v known),
//	                           π̂_v − δ ≤ λ_v ≤ π̂_v + δ
//
// is an upper model of R in the box, and its maximizer is the next duals
// to evaluate. The engine solves its primal: a column y_{v,C} per cut
// (cost w_C/|C|, 1 in v's choice row, 1/|C| in the coverage rows of C's
// members), a column per choice row for s_v ≤ 0, and two box columns per
// coverage row as in the box master (box.go). Choice rows are rows 0..n−1
// (duals s), coverage rows n..2n−1 (duals λ).
//
// A step whose bound beats the centre's moves the centre there (a serious
// step; δ doubles when the bound gained at least half of what the model
// promised); otherwise the new cuts refine the model (a null step; δ
// halves after two in a row or after an evaluation cut short).
//
// Why: on EIA k = 10 the subgradient ascent alone, from its best point
// after 240 s (1.8346 IL), gained 0.0012 IL in the next 150 s, its step
// factor falling to 0.001; the model from the same point gained 0.0063
// (to 1.8407) in 150 s, 21 steps of 1-3 s of CLP (warm started) and 3-7 s
// of evaluation each (bench/README, "A model of the shares for the
// ascent's tail").
type shareModel struct {
	d    *model.SqDist
	n    int
	sess solvers.Session
	prm  *solvers.Params
	// The groups known (known.cols, members ascending; cost w_C of each)
	// and the (record, group) cuts already in the engine.
	known *columnSet
	cost  []float64
	pairs map[uint64]struct{}
	// scale is the incumbent's mean SSE per record: δ and the window of
	// cuts are measured in it.
	scale float64
	delta float64
	nulls int
	// boxCols indexes the 2n box columns; boxCost is their cost buffer.
	boxCols []int
	boxCost []float64
	// Steps counts the model's steps, Serious those that moved the centre,
	// Cuts the cuts in the engine, EngineSeconds its solves' time.
	Steps, Serious, Cuts int
	EngineSeconds        float64
	// grant is the number of model steps the ascent's last stall gave
	// (shareModelGrant; a step that raised the bound keeps it).
	grant int
}

// shareModelGrant is the number of steps a stall of the ascent (its step
// factor θ shrank: shareAscentPatience steps without a rise, or an
// evaluation that overflowed) hands to the model; a model step that
// raises the bound does not count. Early on the subgradient steps climb
// faster: on EIA k = 10, from 60 s of the ascent alone it reached 1.816 IL
// 50 s later, where the model from the same point reached 1.811 after
// 136 s; in its tail the model climbs faster: from 240 s, 150 s of the
// model gained 0.0063 IL, of the ascent 0.0012 (bench/README, "A model of
// the shares for the ascent's tail"). The ascent stalls more often the
// closer it gets, so the model takes more of the steps in its tail.
const shareModelGrant = 3

// shareModelDelta is δ at the first step, in units of the incumbent's
// mean SSE per record; shareModelWindow is the window of cuts: a group C
// becomes a cut of its member v when its share at the centre is within
// shareModelWindow units of v's smallest share in the model. The window
// hardly filters late in the ascent, whose shares are nearly tied: on
// EIA k = 10 after 240 s, of the 369,142 (record, group) pairs of the
// 34,810 groups found, 364,061 lie within 0.02, 154,000 within 0.001.
const (
	shareModelDelta  = 0.05
	shareModelWindow = 0.02
)

func newShareModel(d *model.SqDist, eng solvers.Solver, scale float64) (*shareModel, error) {
	n := d.N
	prob := &solvers.Problem{}
	for range 2 * n {
		prob.AddRow(1, 1, "")
	}
	for v := range n {
		prob.AddCol(0, 0, math.Inf(1), solvers.Continuous, []int{v}, []float64{1}, "")
	}
	addBoxCols(prob, n, n)
	prm := &solvers.Params{}
	sess, err := eng.NewSession(prob, prm)
	if err != nil {
		return nil, err
	}
	m := &shareModel{d: d, n: n, sess: sess, prm: prm, known: newColumnSet(n), pairs: make(map[uint64]struct{}),
		scale: scale, delta: shareModelDelta * scale, boxCols: make([]int, 2*n), boxCost: make([]float64, 2*n)}
	for j := range 2 * n {
		m.boxCols[j] = n + j
	}
	return m, nil
}

func (m *shareModel) close() {
	if m != nil && m.sess != nil {
		m.sess.Close()
		m.sess = nil
	}
}

// collect adds the groups of ex's last evaluation to the model's list
// (they become cuts at the next step, within the window).
func (m *shareModel) collect(ex *exactShares) {
	found := make([][]int, 0, len(ex.groups))
	for _, c := range ex.groups {
		if len(c.Members) > 0 {
			found = append(found, c.Members)
		}
	}
	for _, mem := range m.known.addNew(nil, found) {
		m.cost = append(m.cost, m.d.GroupCost(mem))
	}
}

// addCuts puts into the engine the cuts of the known groups within the
// window at the centre that it does not hold yet.
func (m *shareModel) addCuts(center []float64) error {
	n := m.n
	share := make([]float64, n)
	rcs := make([]float64, len(m.known.cols))
	for gi, mem := range m.known.cols {
		rc := m.cost[gi]
		for _, u := range mem {
			rc -= center[u]
		}
		s := rc / float64(len(mem))
		rcs[gi] = s
		for _, u := range mem {
			share[u] = min(share[u], s)
		}
	}
	win := shareModelWindow * m.scale
	var obj, lo, up []float64
	start := []int{0}
	var rows []int
	var vals []float64
	for gi, mem := range m.known.cols {
		s := rcs[gi]
		sz := float64(len(mem))
		for _, v := range mem {
			if s > share[v]+win {
				continue
			}
			key := uint64(v)<<32 | uint64(gi)
			if _, ok := m.pairs[key]; ok {
				continue
			}
			m.pairs[key] = struct{}{}
			obj = append(obj, m.cost[gi]/sz)
			lo = append(lo, 0)
			up = append(up, math.Inf(1))
			rows = append(rows, v)
			vals = append(vals, 1)
			for _, u := range mem {
				rows = append(rows, n+u)
				vals = append(vals, 1/sz)
			}
			start = append(start, len(rows))
		}
	}
	if len(obj) == 0 {
		return nil
	}
	m.Cuts += len(obj)
	return m.sess.AddCols(obj, lo, up, nil, start, rows, vals)
}

// step maximizes the model in the box around the ascent's best duals,
// evaluates the bound there (with deadline) and moves the ascent's best
// point when it rose (and the ascent's next point a step from it towards
// the target ub). It returns the bound at the model's duals and
// whether the step was made (false: the engine gave no duals in time,
// the ascent steps instead).
func (m *shareModel) step(a *ascent, deadline time.Time, ub float64) (float64, bool, error) {
	n := m.n
	if err := m.addCuts(a.best); err != nil {
		return 0, false, err
	}
	if err := setBoxCosts(m.sess, m.boxCols, m.boxCost, a.best, m.delta); err != nil {
		return 0, false, err
	}
	m.prm.TimeLimit = 0
	if !deadline.IsZero() {
		if m.prm.TimeLimit = time.Until(deadline); m.prm.TimeLimit <= 0 {
			m.grant = 0
			return math.Inf(-1), false, nil
		}
	}
	t0 := time.Now()
	res, err := m.sess.Solve()
	m.EngineSeconds += time.Since(t0).Seconds()
	if err != nil {
		return 0, false, err
	}
	if !res.HasDuals {
		// Out of time: the ascent steps until its next stall.
		m.grant = 0
		return math.Inf(-1), false, nil
	}
	lam := slices.Clone(res.Duals[n : 2*n])
	promise := 0.0
	for v := range n {
		promise += lam[v] + min(0, res.Duals[v])
	}
	m.Steps++
	ex := a.ex
	ex.hasBeat = false
	val, exact := ex.eval(lam, deadline, a.g)
	m.collect(ex)
	if exact && val > a.bestVal+1e-9*math.Max(1, math.Abs(a.bestVal)) {
		gain, want := val-a.bestVal, promise-a.bestVal
		copy(a.lambda, lam)
		a.newBest(val)
		// The ascent's next step starts from here, along the
		// supergradient just computed.
		a.move(val, ub)
		m.Serious++
		m.grant = max(m.grant, 1)
		m.nulls = 0
		if gain >= 0.5*want {
			m.delta *= 2
		}
		return val, true, nil
	}
	a.sinceBest++
	m.grant--
	if m.nulls++; m.nulls >= 2 || !exact {
		m.delta /= 2
		m.nulls = 0
	}
	return val, true, nil
}
