package colgen

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// Dual stabilization by smoothing (Wentges, "Weighted Dantzig-Wolfe
// decomposition for linear mixed-integer programming", Int. Trans. Oper.
// Res. 4, 1997; the form of Pessoa, Sadykov, Uchoa & Vanderbeck,
// "Automation and combination of linear-programming based stabilization
// techniques in column generation", INFORMS J. Comput. 30, 2018).
//
// The restricted master of microaggregation is highly degenerate at large
// k: its optimum is an integral clustering whose duals jump from one
// vertex of the dual polyhedron to another, and the Lagrangian bound at
// those duals stays far below the nearest-neighbour bound. Smoothing keeps
// a stability centre π̂, the duals with the best Lagrangian bound so far,
// and prices at the separation point
//
//	π_sep = α·π̂ + (1 − α)·π_out
//
// with π_out the master's duals. The Lagrangian bound holds for any duals,
// so the bound at π_sep is valid, and when it beats the centre's bound
// π_sep becomes the centre. A column of negative reduced cost at π_sep
// but not at π_out is a mis-pricing: when no column found at π_sep prices
// out at π_out, the iteration prices at π_out as without smoothing, so
// the master loop converges exactly as before (convergence is only ever
// declared by the pricing at π_out).
//
// The first centre is the nearest-neighbour duals (nearestDuals), under
// which no group has a negative reduced cost: their sum is the
// nearest-neighbour bound.

// smoothing returns α for the options: 0 when stabilization is off.
// Smoothing is off by default: on Census k = 10 (60 s) it left the bound
// where the subgradient ascent alone puts it and made the master solves
// slower with the extra columns (bench/README.md).
func (o *Options) smoothing() float64 {
	if o.Smoothing <= 0 || o.NoHeuristicPricing {
		return 0
	}
	return o.Smoothing
}

// nearestDuals returns the per-record terms of nearestBound,
// λ_v = min_{k ≤ η ≤ 2k−1} s_v(η−1)/(2η): every group C of η records has
// Σ_{v∈C} λ_v ≤ Σ_{v∈C} s_v(η−1)/(2η) ≤ w_C, so no group has a negative
// reduced cost under them. Nil when n < 2k (one group only).
func nearestDuals(prep *enumerate.Prepared, d *model.SqDist, k int) []float64 {
	n := d.N
	if n < 2*k {
		return nil
	}
	lambda := make([]float64, n)
	for v := range n {
		best := math.Inf(1)
		for eta := k; eta <= 2*k-1; eta++ {
			best = min(best, prep.NearestSum(v, eta-1)/(2*float64(eta)))
		}
		lambda[v] = best
	}
	return lambda
}

// stabilizer holds the stability centre of the smoothing.
type stabilizer struct {
	alpha  float64
	center []float64
	bound  float64 // the Lagrangian bound proven at center
	sep    []float64
	// Stats: separation points priced, centre moves, mis-pricings.
	Separations, Moves, Mispricings int
}

// separation returns π_sep = α·π̂ + (1 − α)·π_out (a buffer reused).
func (s *stabilizer) separation(out []float64) []float64 {
	if len(s.sep) != len(out) {
		s.sep = make([]float64, len(out))
	}
	for i := range out {
		s.sep[i] = s.alpha*s.center[i] + (1-s.alpha)*out[i]
	}
	return s.sep
}

// offer makes lambda the centre when its proven bound b beats the centre's.
func (s *stabilizer) offer(lambda []float64, b float64) {
	if b > s.bound {
		s.center = append(s.center[:0], lambda...)
		s.bound = b
		s.Moves++
	}
}

// recordBoundGrad evaluates recordBound at lambda (without per-size
// bounds) together with a subgradient g of it: recordBound is concave in
// λ (a sum of λ_v and of minima of sums of the smallest of linear
// functions), and with η*_v the size that attains v's minimum and S_v the
// η*_v − 1 records of the smallest a_u,
//
//	g_u = 1 − 1/η*_u − Σ_{v : u ∈ S_v} 1/η*_v,
//
// one minus how often u is covered by the records' cheapest stars (the
// coverage constraint of the master, relaxed). It returns −Inf when the
// deadline passes first.
//
// It repeats recordBound's loop with each candidate's record kept beside
// its a_u. One kernel serving both (the records tracked only when a
// subgradient is wanted) was measured 14 % slower for recordBound, which
// runs at every master iteration: 54.2 against 47.5 ms on Census, k = 10,
// zero duals, 2 workers (one run each, back to back).
func recordBoundGrad(d *model.SqDist, prep *enumerate.Prepared, lambda []float64, k, workers int, deadline time.Time, g []float64) float64 {
	n := d.N
	if n < 2*k {
		return math.Inf(-1)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	share := make([]float64, n)
	etaOf := make([]int, n)
	star := make([][]int32, n) // S_v
	var next atomic.Int64
	var late atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			type cand struct {
				a float64
				u int32
			}
			small := make([]cand, 0, 2*k)
			for {
				v := int(next.Add(1) - 1)
				if v >= n || late.Load() {
					return
				}
				if v%64 == 0 && !deadline.IsZero() && time.Now().After(deadline) {
					late.Store(true)
					return
				}
				row := d.D[v*n : (v+1)*n]
				best := math.Inf(1)
				for eta := k; eta <= 2*k-1; eta++ {
					fe := float64(eta)
					small = small[:0]
					q := eta - 1
					for u, c := range row {
						if u == v {
							continue
						}
						a := c/fe + prep.NearestSum(u, eta-2)/(2*fe) - lambda[u]
						if len(small) < q {
							small = append(small, cand{a, int32(u)})
							if len(small) == q {
								slices.SortFunc(small, func(x, y cand) int { return cmp.Compare(x.a, y.a) })
							}
							continue
						}
						if a < small[q-1].a {
							i, _ := slices.BinarySearchFunc(small, a, func(x cand, t float64) int { return cmp.Compare(x.a, t) })
							copy(small[i+1:], small[i:q-1])
							small[i] = cand{a, int32(u)}
						}
					}
					rho := -lambda[v]
					for _, c := range small {
						rho += c.a
					}
					if rho/fe < best {
						best = rho / fe
						etaOf[v] = eta
						star[v] = star[v][:0]
						for _, c := range small {
							star[v] = append(star[v], c.u)
						}
					}
				}
				share[v] = best
			}
		}()
	}
	wg.Wait()
	if late.Load() {
		return math.Inf(-1)
	}
	s := 0.0
	for v := range n {
		s += lambda[v] + share[v]
		g[v] = 1 - 1/float64(etaOf[v])
	}
	for v := range n {
		w := 1 / float64(etaOf[v])
		for _, u := range star[v] {
			g[u] -= w
		}
	}
	return s
}

// ascent is a subgradient ascent on recordBound (recordBoundGrad) from
// the nearest-neighbour duals, with Polyak's step
// t = θ·(SSE(π*) − R(λ))/‖g‖² (Polyak, "Minimization of unsmooth
// functionals", USSR Comput. Math. Math. Phys. 9, 1969; the rule of Held,
// Wolfe & Crowder, Math. Program. 6, 1974): θ starts at 1 and halves
// after ascentPatience steps without a new best. Every value it computes
// is a valid lower bound (recordBound holds for any λ), so the best one
// is kept. On exactShares (ex) θ also doubles, up to 1, after
// shareAscentGrow steps in a row that raised the best bound, and each step
// is capped (shareStepCap).
type ascent struct {
	lambda, g []float64
	best      []float64 // the duals of the best bound
	bestVal   float64
	theta     float64
	stale     int
	// sinceBest counts the evaluations since the last new best bound.
	sinceBest int
	// gAtBest: the supergradient at best (the ascent on exactShares;
	// restarts from best step along it without evaluating best again).
	gAtBest []float64
	Steps   int
	// ex, when set, evaluates the per-record bound with shares proven by
	// complete enumeration (exactShares) instead of recordBoundGrad.
	ex *exactShares
	// lastOK is the time of the last step whose enumeration finished
	// (ex only; it sets the next step's budget in run.ascend).
	lastOK time.Duration
	// rises counts the steps in a row that raised the best bound (ex
	// only; shareAscentGrow).
	rises int
	// capScale scales the cap on a step (ex only; shareStepCap): it
	// follows θ's changes (scaleTheta), at most 1.
	capScale float64
}

// ascentPatience is the number of steps without a new best bound after
// which the ascent halves its step factor θ.
const ascentPatience = 5

// ascentMinTheta ends the ascent: below it the steps are too short to
// matter.
const ascentMinTheta = 1e-4

// shareAscentPatience and shareAscentTheta are the patience and the
// first step factor of the ascent on exactShares, whose steps cost a
// complete enumeration each (seconds at k = 10): a full Polyak step
// (θ = 1) from the nearest-neighbour duals makes so many groups negative
// that the enumeration overflows; θ = 0.1 climbed on Census k = 10.
// A step whose enumeration overflows or runs out of time divides θ by
// shareAscentShrink: on Tarragona k = 10 the first steps from θ = 0.1
// overflowed at 0.1, 0.05 and 0.025.
const (
	shareAscentPatience = 3
	shareAscentTheta    = 0.1
	shareAscentShrink   = 4
)

// shareAscentGrow and shareStepCap shape the steps of the ascent on
// exactShares after its scaling phase. θ doubles (up to 1) after
// shareAscentGrow steps in a row that raised the best bound, so that a
// first factor chosen too small for the data is not kept for the whole
// run. No record's dual moves by more than shareStepCap times the
// incumbent's mean SSE per record in one step. With a cap of 1 the cap,
// not Polyak's step, set every step on EIA k = 10 (θ = 1 and θ = 0.1 gave
// the same bounds step for step), and every step rose; in 200 s of the
// ascent alone (EIA k = 10, target IL 1.9389; bench/README "Longer steps
// of the ascent at k = 10") the cap factors 1, 2, 4 and 16 reached 1.7912,
// 1.8110, 1.8163 and 1.7942 IL: longer steps make more records' shares
// negative, each evaluation costs more, and at 16 the steps zigzag.
const (
	shareAscentGrow = 3
	shareStepCap    = 4
)

func newAscent(start []float64, bound float64) *ascent {
	return &ascent{lambda: slices.Clone(start), g: make([]float64, len(start)), best: slices.Clone(start), bestVal: bound, theta: 1, capScale: 1}
}

// done: θ has shrunk below ascentMinTheta.
func (a *ascent) done() bool { return a.theta < ascentMinTheta }

// step evaluates the bound at the current duals and moves them along the
// supergradient towards the target ub (the incumbent's SSE); it returns
// the bound (−Inf when the deadline passed). On exactShares the evaluation is skipped when the
// groups of the last exact one (its hints) already show that the bound at
// λ cannot beat the best (exactShares.beat): such a step did not rise and
// costs next to nothing, where its complete evaluation cost as much as
// one that rose (Tarragona k = 10: 18-25 s for the steps past the best
// point of the scaling phase, BenchmarkShareAscent); and a restart from
// the best point steps along the supergradient kept from its evaluation.
func (a *ascent) step(d *model.SqDist, prep *enumerate.Prepared, k, workers int, deadline time.Time, ub float64) float64 {
	if a.ex != nil && !a.ex.scaled {
		return a.scaleStep(deadline)
	}
	var val float64
	exact := true
	t0 := time.Now()
	if a.ex != nil && a.ex.gBest != nil {
		// The scaling phase has just ended: λ is its best point, whose
		// bound and supergradient it kept.
		val = a.bestVal
		copy(a.g, a.ex.gBest)
		a.gAtBest = append(a.gAtBest[:0], a.g...)
		a.ex.gBest = nil
		a.Steps--
	} else if a.ex != nil {
		a.ex.hasBeat, a.ex.beat = true, a.bestVal
		val, exact = a.ex.eval(a.lambda, deadline, a.g)
		if exact {
			a.lastOK = time.Since(t0)
		}
	} else {
		val = recordBoundGrad(d, prep, a.lambda, k, workers, deadline, a.g)
	}
	if math.IsInf(val, -1) {
		return val
	}
	a.Steps++
	if !exact && a.ex != nil && a.ex.partial && val > a.bestVal+1e-9*math.Max(1, math.Abs(a.bestVal)) {
		// Cut short, yet above the best bound (the branch and bound per
		// record, evalAnchored): a step that went far enough to pay. Keep
		// it and step on with the estimate of the supergradient; the
		// next evaluation gets a budget grown from this one's.
		exact = true
		a.lastOK = time.Since(t0)
	}
	// target: the bound at λ the step length is measured from.
	target := val
	if !exact && a.ex != nil && a.ex.abandoned {
		// The hints showed that the bound at λ cannot beat the best
		// (exactShares.beat): a step that did not rise, taken with the
		// supergradient estimated from the hints' groups and measured
		// from the upper estimate of the bound at λ.
		exact = true
		target = a.ex.estimate
	}
	patience := ascentPatience
	if a.ex != nil {
		patience = shareAscentPatience
	}
	restart := false
	if !exact {
		// Too many groups of negative reduced cost (or the deadline): the
		// step went too far. Back to the best point with a much shorter
		// step (such a step costs the whole step budget); val is a valid
		// bound all the same.
		a.scaleTheta(1.0 / shareAscentShrink)
		a.stale, a.rises = 0, 0
		a.sinceBest++
		restart = true
	} else if val > a.bestVal+1e-9*math.Max(1, math.Abs(a.bestVal)) {
		a.newBest(val)
	} else {
		a.sinceBest++
		a.rises = 0
		if a.stale++; a.stale >= patience {
			a.scaleTheta(0.5)
			a.stale = 0
			restart = true
		}
	}
	if restart {
		copy(a.lambda, a.best)
		if a.gAtBest == nil {
			return val
		}
		// From the best point with its supergradient, kept: no new
		// evaluation there.
		copy(a.g, a.gAtBest)
		target = a.bestVal
	}
	a.move(target, ub)
	return val
}

// newBest records the bound val at the current duals as the best: on
// exactShares with its supergradient, and θ doubles (at most 1) after
// shareAscentGrow new bests in a row.
func (a *ascent) newBest(val float64) {
	a.bestVal = val
	copy(a.best, a.lambda)
	a.stale, a.sinceBest = 0, 0
	if a.ex != nil {
		a.gAtBest = append(a.gAtBest[:0], a.g...)
		if a.rises++; a.rises >= shareAscentGrow {
			a.scaleTheta(2)
			a.rises = 0
		}
	}
}

// scaleTheta multiplies θ by f, at most 1, and on exactShares the cap on
// a step (capScale) likewise: where the cap sets the steps, a step that
// overflowed or a stall that halves θ must shorten the next step too. On
// EIA k = 10 (600 s) the ascent stalled at a bound of 1.8244 IL with
// capped steps: θ went 1 → 0.5 → 0.25 → 0.125 and the steps from the
// best point reached the same three points each time (the same bounds,
// 4.8 s each) for 100 s, until Polyak's step at θ = 0.125 fell below the
// cap and the bound rose again.
func (a *ascent) scaleTheta(f float64) {
	a.theta = min(a.theta*f, 1)
	if a.ex != nil {
		a.capScale = min(a.capScale*f, 1)
	}
}

// move sets the next duals: a Polyak step along the supergradient from
// the current point towards the target ub; val is the bound at the
// current point.
func (a *ascent) move(val, ub float64) {
	// The ascent on exactShares steps along D·g, D the start duals
	// relative to their mean (exactShares.weights); otherwise D = I.
	var wt []float64
	if a.ex != nil {
		wt = a.ex.weights(a.best)
	}
	wi := func(i int) float64 {
		if wt == nil {
			return 1
		}
		return wt[i]
	}
	g, from, target := a.g, a.lambda, val
	norm := 0.0
	for i, x := range g {
		norm += x * x * wi(i)
	}
	if norm < 1e-12*float64(len(a.g)) {
		// λ is optimal for the bound (g = 0 up to rounding; a smaller
		// norm would make Polyak's step explode).
		a.theta = 0
		return
	}
	t := a.theta * math.Max(ub-target, 0) / norm
	if a.ex != nil {
		// No record's dual moves by more than shareStepCap times the
		// incumbent's mean SSE per record in one step.
		gmax := 0.0
		for i, x := range g {
			gmax = max(gmax, math.Abs(x)*wi(i))
		}
		t = min(t, a.capScale*shareStepCap*ub/float64(len(g))/gmax)
	}
	for i, x := range g {
		a.lambda[i] = from[i] + t*x*wi(i)
	}
}
