package colgen

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// Box stabilization of the master (Options.Stabilize = StabilizeBox): the
// BoxStep method of Marsten, Hogan & Blankenship ("The Boxstep method for
// large-scale optimization", Oper. Res. 23, 1975) in the primal form of
// du Merle, Villeneuve, Desrosiers & Hansen ("Stabilized column
// generation", Discrete Math. 194, 1999) and Ben Amor, Desrosiers &
// Frangioni ("On the choice of explicit stabilizing terms in column
// generation", Discrete Appl. Math. 157, 2009).
//
// The restricted master's dual, max Σ_v λ_v subject to
// Σ_{v∈C} λ_v ≤ w_C for its columns C, gets a box around a stability
// centre π̂ (the duals of the best bound proven so far):
//
//	λ_v ≤ π̂_v + δ, and λ_v ≥ π̂_v − δ up to a penalty of boxPenalty per unit.
//
// In the primal these are two columns per record v: y⁺_v ≥ 0 with
// coefficient +1 in v's row and cost π̂_v + δ, and 0 ≤ y⁻_v ≤ boxPenalty
// with coefficient −1 and cost −(π̂_v − δ). The bounded y⁻ keeps the box
// master feasible and bounded whatever the centre (a hard lower side could
// cut off every dual-feasible point of the restricted master).
//
// The box master's duals λ_b are then evaluated exactly: exactShares lists
// every group of negative reduced cost under them and proves the bound
// Σ_v (λ_v + μ_v) (a valid bound at any duals; it is the reported one,
// BoundShares). The groups attaining the μ_v (and the most negative ones of
// each size) join the master as columns — the cutting planes of the
// Lagrangian dual at λ_b. When the bound at λ_b beats the centre's, the
// centre moves there (a serious step); otherwise the new columns improve
// the master (a null step). δ doubles after a serious step whose bound
// gained at least half of what the master predicted (Σ λ_b against the
// centre's bound), and halves after two null steps in a row or an
// evaluation that listed boxMaxGroups groups of one size (the duals went
// too far for the enumeration); after such an overflow δ grows back only
// to three quarters of the δ that overflowed, a cap that relaxes by
// boxCapRelax per serious step. An evaluation cut short by its time
// budget (as an ascent step's, doubled after each such cut) leaves the
// box as it was.
//
// The ascent on exactShares (ascent, stabilize.go) takes every other
// turn of the loop once boxStallEvals evaluations in a row have not
// raised the centre's bound: its best duals become the centre when their bound is
// better, the groups of its evaluations join the masters, and it goes on
// from the box's centre when that is better than its own best point.
//
// When no group has a negative reduced cost under λ_b and no box column is
// used (the box is not active), λ_b is optimal for the master's dual
// without the box: the master has converged, its value Σ_v λ_b,v is the
// LP bound, and the box is dropped (the rest of the run uses the plain
// master, which holds every column). When no group is negative but the
// box is active, the centre moves to λ_b and δ doubles. After
// boxIdleLimit iterations in a row without a new column or a change of
// the box, the box is dropped.
//
// The box master is a second engine session whose first 2n columns are
// the y⁺ and y⁻; its other columns are the plain master's, in the same
// order (both get every new column), so the master's solution x is the
// box session's X from offset 2n.

// Stabilization methods of the master (Options.Stabilize).
const (
	StabilizeNone = "none" // the plain restricted master (the default)
	StabilizeBox  = "box"  // the box (trust-region) stabilized master, box.go
)

// StabilizeMethods lists the values of Options.Stabilize.
func StabilizeMethods() []string { return []string{StabilizeNone, StabilizeBox} }

// boxPenalty is the upper bound of the y⁻ columns: the price per unit of
// a dual below the box's lower side (above 1 a dual never gains by
// leaving the box downwards unless the restricted master's constraints
// force it).
const boxPenalty = 2.0

// boxDeltaInit is the first δ as a share of the incumbent's mean SSE per
// record (the scale of the duals): the ascent on exactShares climbed
// with steps of a tenth of that scale (shareAscentTheta) and overflowed
// the enumeration with larger ones.
const boxDeltaInit = 0.05

// boxDeltaMin and boxDeltaMax bound δ, as shares of the same scale.
const (
	boxDeltaMin = 1e-5
	boxDeltaMax = 10
)

// boxMaxNew caps the columns a box iteration adds beyond the groups
// attaining the records' shares: the most negative ones of each size.
const boxMaxNew = 50

// boxMaxGroups is the exact evaluation's maxGroups (exactShares): an
// evaluation that lists more groups of one size fails fast, and the box
// shrinks. On Census k = 10 (60 s) the evaluations that overflowed
// exactSharesMax took 8-9 s each; the good steps had up to about 5,500
// negative groups over all ten sizes.
const boxMaxGroups = 2000

// boxCapRelax is the factor by which the cap on δ after an overflowing
// evaluation relaxes at every serious step.
const boxCapRelax = 1.1

// boxStallEvals is the number of box evaluations in a row without a
// better centre after which the ascent takes turns (boxAscentTurn).
const boxStallEvals = 3

// boxIdleLimit: after this many box iterations in a row that changed
// neither the columns nor the box, the box is dropped (the plain master
// takes over).
const boxIdleLimit = 3

// boxMaster is the state of the box stabilization.
type boxMaster struct {
	sess   solvers.Session
	n      int
	center []float64
	bound  float64 // the bound proven at center
	delta  float64
	scale  float64 // the duals' scale: mean SSE per record of the incumbent
	active bool
	ex     *exactShares
	lastOK time.Duration
	budget time.Duration // the next evaluation's budget after one timed out
	nulls  int
	idle   int
	cap    float64 // δ after an overflow (0: none yet); see step
	// ascentTurn: the ascent had the last turn (boxAscentTurn), stale
	// the evaluations since the centre's bound last rose;
	// offered: the ascent moved the centre since the costs were set;
	// err: adding its groups to the sessions failed (returned by the
	// next iteration).
	ascentTurn bool
	stale      int
	offered    bool
	err        error
	// Serious and Null count the steps.
	Serious, Null int
}

// openBox opens the box master over the plain master's columns, centred
// at the nearest-neighbour duals. Nothing when n < 2k (one group only).
func (r *run) openBox(initCols [][]int) error {
	c := nearestDuals(r.prep, r.d, r.k)
	if c == nil {
		return nil
	}
	n := r.n
	scale := r.best.sse / float64(n)
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = floatSum(c) / float64(n)
	}
	if !(scale > 0) {
		scale = 1
	}
	b := &boxMaster{n: n, center: c, bound: floatSum(c), scale: scale, delta: boxDeltaInit * scale, active: true,
		ex: newExactShares(r.d, r.prep, r.k, r.opt.Workers)}
	b.ex.maxGroups = boxMaxGroups
	// The box lists the groups of negative reduced cost (not the branch
	// and bound per record, which finds only each record's cheapest):
	// the most negative ones of each size become its columns, and a
	// listing that reaches boxMaxGroups tells it the box is too wide.
	b.ex.listing = true
	prob, err := lp.MasterProblem(r.d, nil)
	if err != nil {
		return err
	}
	addBoxCols(prob, 0, n)
	obj, lo, up, st, rows, vals, err := lp.MasterColumns(r.d, initCols)
	if err != nil {
		return err
	}
	for j := range obj {
		prob.AddCol(obj[j], lo[j], up[j], solvers.Continuous, rows[st[j]:st[j+1]], vals[st[j]:st[j+1]], "")
	}
	b.sess, err = r.eng.NewSession(prob, r.masterPrm)
	if err != nil {
		return err
	}
	r.box = b
	return b.setCosts()
}

// setCosts writes the box's costs into the session (setBoxCosts).
func (b *boxMaster) setCosts() error {
	idx := make([]int, 2*b.n)
	for j := range idx {
		idx[j] = j
	}
	return setBoxCosts(b.sess, idx, make([]float64, 2*b.n), b.center, b.delta)
}

// addBoxCols appends to prob the box columns of the n rows from row0 on:
// y⁺_v (coefficient +1, unbounded) for each row, then y⁻_v (coefficient
// −1, at most boxPenalty); their costs are set by setBoxCosts. The box
// master's rows are the records'; the share model's (sharemodel.go) are
// its coverage rows.
func addBoxCols(prob *solvers.Problem, row0, n int) {
	for v := range n {
		prob.AddCol(0, 0, math.Inf(1), solvers.Continuous, []int{row0 + v}, []float64{1}, "")
	}
	for v := range n {
		prob.AddCol(0, 0, boxPenalty, solvers.Continuous, []int{row0 + v}, []float64{-1}, "")
	}
}

// setBoxCosts writes the costs of the box columns idx (y⁺ then y⁻, as
// addBoxCols adds them) around centre with half-width delta, π̂_v + δ for
// y⁺_v and −(π̂_v − δ) for y⁻_v, into sess; buf (2n long) holds them.
func setBoxCosts(sess solvers.Session, idx []int, buf, center []float64, delta float64) error {
	n := len(center)
	for v := range n {
		buf[v] = center[v] + delta
		buf[n+v] = -(center[v] - delta)
	}
	return sess.SetObjective(idx, buf)
}

// close drops the box: its session is closed and the plain master takes
// over.
func (b *boxMaster) close() {
	if b.active {
		b.active = false
		b.sess.Close()
	}
}

// boxActive: the box master replaces the plain one in this iteration.
func (r *run) boxActive() bool { return r.box != nil && r.box.active }

// iterateBox is one iteration of the master loop on the box master
// (iterate's limits are checked before): solve it, round its solution,
// evaluate exactShares at its duals, move the centre or not, resize the
// box, and add the new columns to both sessions.
func (r *run) iterateBox() (done bool, err error) {
	res, bx, n := r.res, r.box, r.n
	if bx.err != nil {
		return true, bx.err
	}
	t0 := time.Now()
	mr, err := bx.sess.Solve()
	res.Stats.MasterSeconds += time.Since(t0).Seconds()
	res.Stats.MasterSolves++
	if err != nil {
		return true, fmt.Errorf("colgen: box master LP: %w", err)
	}
	if mr.Status == solvers.TimeLimit || (mr.Status != solvers.Optimal && r.plan.passed(r.plan.loopEnd)) {
		r.stop(StopTimeLimit, PhaseMaster)
		return true, nil
	}
	if mr.Status != solvers.Optimal || !mr.HasDuals {
		return true, fmt.Errorf("colgen: box master LP ended %v without optimal duals (engine %s)", mr.Status, r.eng.Name())
	}
	res.Iterations++
	res.Master = mr.Objective
	lam := mr.Duals
	inside := true
	for _, y := range mr.X[:2*n] {
		if y > 1e-9 {
			inside = false
			break
		}
	}
	x := mr.X[2*n:]
	var rounded [][][]int
	if inside {
		rounded = r.round(x, mr.ReducedCosts[2*n:])
	} else {
		// x need not cover every record: only the roundings, which
		// complete their clusterings, may offer it to the incumbent.
		t1 := time.Now()
		srh := r.rd.simpleRounding(x, mr.ReducedCosts[2*n:], r.cs.cols)
		res.SRH = min(res.SRH, r.consider(srh, "srh"))
		msth := r.rd.mstRounding(x, r.cs.cols)
		res.MSTH = min(res.MSTH, r.consider(msth, "msth"))
		res.Stats.RoundingSeconds += time.Since(t1).Seconds()
		rounded = [][][]int{srh, msth}
	}

	tol := rcTolerance(lam)

	// The exact evaluation at λ_b, in a time budget as an ascent step's.
	deadline := r.plan.loopEnd
	if !deadline.IsZero() {
		budget := min(max(shareStepMin, shareStepGrowth*bx.lastOK, bx.budget), time.Duration(shareStepShare*float64(deadline.Sub(r.loopStart))))
		if d := r.plan.clock().Add(budget); d.Before(deadline) {
			deadline = d
		}
		if r.tailToPolish() && r.tailStart().Before(deadline) {
			deadline = r.tailStart()
		}
	}
	t1 := time.Now()
	before := bx.bound
	defer func() {
		if bx.bound > before {
			bx.stale = 0
		} else {
			bx.stale++
		}
	}()
	b, exact := bx.ex.eval(lam, deadline, nil)
	timedOut := false
	if exact {
		bx.lastOK = time.Since(t1)
		bx.budget = 0
	} else if timedOut = !bx.overflowed(); timedOut {
		// Our budget was too short, not the duals too far: twice the
		// time next, the same box.
		bx.budget = 2 * time.Since(t1)
	}
	res.Stats.BoxSeconds += time.Since(t1).Seconds()
	res.Stats.BoxEvaluations++
	sumLambda := floatSum(lam)
	// Groups whose reduced cost is negative only by the LP's tolerances
	// (the master's own columns among them) do not count.
	negative := 0
	for _, c := range bx.ex.groups {
		if c.ReducedCost < tol {
			negative++
		}
	}
	if exact && negative == 0 && inside {
		// λ_b is dual feasible and optimal for the master without the
		// box: its value is the LP bound.
		r.raise(b, BoundMasterLP)
		if b >= res.LowerBound-1e-9*math.Max(1, math.Abs(b)) {
			// An earlier evaluation proved the same value.
			res.BoundKind = BoundMasterLP
		}
		r.certify(b, CertShares, lam, nil, nil)
		res.Duals = slices.Clone(lam)
		r.lastSumLambda = sumLambda
		res.Master = sumLambda
		res.Converged = true
		r.stop(StopConverged, "")
		bx.close()
		r.report(PhaseMaster, Progress{Master: mr.Objective})
		return true, nil
	}
	if !math.IsInf(b, -1) {
		r.raise(b, BoundShares)
		if exact {
			// As the ascent's: a bound the cap or the deadline cut short
			// is valid, but its re-check would enumerate without end.
			r.certify(b, CertShares, lam, nil, nil)
		}
	}
	newCols := r.cs.addNew(nil, bx.columns(tol))
	moved := false
	if timedOut {
		if b > bx.bound {
			copy(bx.center, lam)
			bx.bound, moved = b, true
		}
	} else {
		moved = bx.step(lam, b, sumLambda, exact, negative == 0, inside)
		res.Stats.BoxSerious = bx.Serious
	}
	newCols = r.withRounded(newCols, rounded)
	r.report(PhaseMaster, Progress{Master: mr.Objective})
	if bx.offered {
		moved, bx.offered = true, false
	}
	if a := r.asc; a != nil && a.ex != nil && bx.bound > a.bestVal {
		// The ascent goes on from the better centre.
		copy(a.lambda, bx.center)
		copy(a.best, bx.center)
		a.bestVal, a.stale = bx.bound, 0
	}
	if moved {
		if err := bx.setCosts(); err != nil {
			return true, fmt.Errorf("colgen: box costs: %w", err)
		}
	}
	if len(newCols) == 0 && !moved {
		if bx.idle++; bx.idle >= boxIdleLimit {
			bx.close()
		}
		return false, nil
	}
	bx.idle = 0
	if len(newCols) == 0 {
		return false, nil
	}
	return false, r.addBoxColumns(newCols)
}

// withRounded appends to newCols, when it is not empty, the groups of the
// rounded clusterings that are not columns yet (as iterate does).
func (r *run) withRounded(newCols [][]int, rounded [][][]int) [][]int {
	if r.opt.NoRoundedColumns || len(newCols) == 0 {
		return newCols
	}
	for _, g := range rounded {
		before := len(newCols)
		newCols = r.cs.addNew(newCols, keepSizes(g, r.k))
		r.res.Stats.RoundedColumns += len(newCols) - before
	}
	return newCols
}

// addBoxColumns adds the groups as columns to the box master and to the
// plain master.
func (r *run) addBoxColumns(newCols [][]int) error {
	obj, lo, up, st, rows, vals, err := lp.MasterColumns(r.d, newCols)
	if err != nil {
		return err
	}
	if err := r.box.sess.AddCols(obj, lo, up, nil, st, rows, vals); err != nil {
		return fmt.Errorf("colgen: adding columns to the box master: %w", err)
	}
	if err := r.sess.AddCols(obj, lo, up, nil, st, rows, vals); err != nil {
		return fmt.Errorf("colgen: adding columns: %w", err)
	}
	return nil
}

// overflowed: the last evaluation listed maxGroups groups of some size.
func (b *boxMaster) overflowed() bool {
	count := map[int]int{}
	for _, c := range b.ex.groups {
		count[len(c.Members)]++
		if count[len(c.Members)] >= b.ex.maxGroups {
			return true
		}
	}
	return false
}

// boxAscentTurn: with the box master, the ascent on exactShares takes
// every other turn of the loop (its steps and the box master's
// evaluations cost about the same: one complete enumeration each) once
// boxStallEvals evaluations in a row have not raised the centre's bound.
// From the start it kept EIA k = 3 from converging in 60 s (gap 20.7 %
// instead of 7.9 %).
func (r *run) boxAscentTurn() bool {
	bx := r.box
	if bx.stale < boxStallEvals {
		bx.ascentTurn = false
		return false
	}
	bx.ascentTurn = !bx.ascentTurn
	if !bx.ascentTurn {
		return false
	}
	if !r.shareAscent {
		r.startShareAscent()
	}
	return r.asc != nil && !r.asc.done()
}

// boxOffer hands the ascent's results to the box master: its best duals
// become the centre when their bound beats the centre's, and the groups
// of its last evaluation (negative there) join both masters as columns.
func (r *run) boxOffer() {
	if !r.boxActive() || r.asc == nil || r.asc.ex == nil {
		return
	}
	bx := r.box
	if r.asc.bestVal > bx.bound {
		copy(bx.center, r.asc.best)
		bx.bound = r.asc.bestVal
		bx.offered = true
	}
	if cols := r.cs.addNew(nil, shareColumns(r.asc.ex, 0)); len(cols) > 0 {
		if err := r.addBoxColumns(cols); err != nil {
			bx.err = err
		}
	}
}

// columns returns the groups of the last evaluation that attain the
// records' shares, then the boxMaxNew most negative of each size, all
// with a reduced cost below tol.
func (b *boxMaster) columns(tol float64) [][]int { return shareColumns(b.ex, tol) }

// shareColumns returns the groups of ex's last evaluation that attain the
// records' shares, then the boxMaxNew most negative of each size, all
// with a reduced cost below tol.
func shareColumns(ex *exactShares, tol float64) [][]int {
	var out [][]int
	seen := make(map[int32]bool)
	for _, i := range ex.argmin {
		if i >= 0 && !seen[i] && ex.groups[i].ReducedCost < tol {
			seen[i] = true
			out = append(out, ex.groups[i].Members)
		}
	}
	perSize := map[int]int{}
	byRC := slices.Clone(ex.groups)
	slices.SortStableFunc(byRC, func(x, y model.Column) int {
		return cmp.Compare(x.ReducedCost, y.ReducedCost)
	})
	for _, c := range byRC {
		if c.ReducedCost >= tol {
			break
		}
		if perSize[len(c.Members)] < boxMaxNew {
			perSize[len(c.Members)]++
			out = append(out, c.Members)
		}
	}
	return out
}

// step applies the centre and δ rules to the evaluation at lam (bound
// bnd, exact or not; none: no group of negative reduced cost; inside: no
// box column used); it reports whether the box changed.
func (b *boxMaster) step(lam []float64, bnd, sumLambda float64, exact, none, inside bool) bool {
	old := b.delta
	tol := 1e-9 * math.Max(1, math.Abs(b.bound))
	switch {
	case !exact:
		// Too many negative groups: too far. The box will not grow back
		// beyond three quarters of this δ before boxCapRelax serious steps
		// (on Census k = 10 every other evaluation overflowed when it
		// doubled back at once).
		b.Null++
		b.nulls = 0
		b.cap = 0.75 * b.delta
		b.delta /= 2
		if bnd > b.bound+tol {
			copy(b.center, lam)
			b.bound = bnd
		}
	case bnd > b.bound+tol:
		pred := sumLambda - b.bound
		gain := bnd - b.bound
		copy(b.center, lam)
		b.bound = bnd
		b.Serious++
		b.nulls = 0
		if none || (!inside && gain >= 0.5*pred) {
			b.delta *= 2
			if b.cap > 0 {
				b.delta = min(b.delta, b.cap)
			}
		}
		b.cap *= boxCapRelax
		b.delta = max(b.delta, boxDeltaMin*b.scale)
		b.delta = min(b.delta, boxDeltaMax*b.scale)
		return true
	case none:
		// Dual feasible but no better than the centre: the box holds the
		// master's duals back.
		b.Null++
		b.delta *= 2
	default:
		b.Null++
		if b.nulls++; b.nulls >= 2 {
			b.delta /= 2
			b.nulls = 0
		}
	}
	b.delta = min(max(b.delta, boxDeltaMin*b.scale), boxDeltaMax*b.scale)
	return b.delta != old || !exact
}
