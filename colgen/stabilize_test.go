package colgen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// TestRecordBoundGrad: recordBoundGrad's value is recordBound's (without
// per-size bounds), and its g is a supergradient of that concave
// function: R(λ') ≤ R(λ) + g·(λ' − λ) for random λ'. A wrong g would let
// the ascent climb in a wrong direction without this test noticing from
// the bounds alone.
func TestRecordBoundGrad(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		n := 14 + int(seed%4)*8
		k := 2 + int(seed%3)
		z := randomData(t, n, 3, 300+seed)
		d := model.NewSqDist(z)
		prep, err := enumerate.Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		lambda := nearestDuals(prep, d, k)
		for i := range lambda {
			lambda[i] += 0.3 * rng.NormFloat64()
		}
		g := make([]float64, n)
		val := recordBoundGrad(d, prep, lambda, k, 0, time.Time{}, g)
		if want := recordBound(d, prep, lambda, nil, k, 0, time.Time{}); math.Abs(val-want) > relTol(val, want) {
			t.Fatalf("seed %d: recordBoundGrad %.12g, recordBound %.12g", seed, val, want)
		}
		g2 := make([]float64, n)
		for trial := 0; trial < 20; trial++ {
			other := slices.Clone(lambda)
			dot := 0.0
			for i := range other {
				step := 0.2 * rng.NormFloat64()
				other[i] += step
				dot += g[i] * step
			}
			got := recordBoundGrad(d, prep, other, k, 0, time.Time{}, g2)
			if got > val+dot+relTol(got, val+dot) {
				t.Fatalf("seed %d trial %d: R(λ') = %.12g above R(λ) + g·(λ'−λ) = %.12g: g is no supergradient", seed, trial, got, val+dot)
			}
		}
	}
}

// smallInstance is the seed-th of the 50 small instances of
// TestBoundBelowBruteForce: n = 6..12 records in 2 or 3 dimensions,
// k = 2..5 (at most n).
func smallInstance(t *testing.T, seed uint64) (*model.Dataset, int) {
	n := 6 + int(seed%7)
	k := min(2+int(seed/7%4), n)
	return randomData(t, n, 2+int(seed%2), 500+seed), k
}

// TestBoundBelowBruteForce: on 50 seeded instances of at most 12 records
// no bound of a run — the reported one, every point of its trace, and
// every value of the subgradient ascent — exceeds the optimal SSE found
// by brute force. Runs are cut after 1 to 3 master iterations, with and
// without smoothing, so that the bounds of unfinished runs (subgradient,
// Lagrangian) are the ones reported.
func TestBoundBelowBruteForce(t *testing.T) {
	kinds := map[string]int{}
	ascents := 0
	for seed := uint64(1); seed <= 50; seed++ {
		z, k := smallInstance(t, seed)
		d := model.NewSqDist(z)
		opt := bruteForce(d, k)
		o := Options{MaxIterations: 1 + int(seed%3), NoClose: true, NoBranch: true, NoICSM: seed%2 == 0, Ascent: seed%5 != 0}
		if seed%3 == 0 {
			o.Smoothing = 0.8
		}
		r, err := Run(z, k, &o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkResult(t, z, k, r)
		kinds[r.BoundKind]++
		if r.LowerBound > opt+relTol(opt, r.LowerBound) {
			t.Fatalf("seed %d (n=%d k=%d): %s bound %.12g above the optimum %.12g", seed, z.N, k, r.BoundKind, r.LowerBound, opt)
		}
		if r.BoundSeconds < 0 || r.BoundSeconds > r.Seconds {
			t.Fatalf("seed %d: bound reached at %.3f s of a %.3f s run", seed, r.BoundSeconds, r.Seconds)
		}
		checkTrace(t, fmt.Sprintf("seed %d", seed), r, opt)

		// The ascent on its own, far longer than a run gives it.
		prep, err := enumerate.Prepare(d, min(2*k-1, z.N))
		if err != nil {
			t.Fatal(err)
		}
		c := nearestDuals(prep, d, k)
		if c == nil {
			continue
		}
		a := newAscent(c, floatSum(c))
		for i := 0; i < 60 && !a.done(); i++ {
			if v := a.step(d, prep, k, 1, time.Time{}, r.SSE); v > opt+relTol(opt, v) {
				t.Fatalf("seed %d: ascent step %d bound %.12g above the optimum %.12g", seed, i, v, opt)
			}
		}
		if a.bestVal > floatSum(c)+1e-9 {
			ascents++
		}
	}
	if ascents == 0 {
		t.Fatal("the ascent never beat the nearest-neighbour bound: the test exercises nothing")
	}
	t.Logf("bound kinds %v; the ascent beat the nearest-neighbour bound on %d of 50", kinds, ascents)
}

// checkTrace: the trace's times, bounds and incumbents are monotone, it
// ends at the result, and no bound in it exceeds opt (the optimum, or
// any heuristic's SSE).
func checkTrace(t *testing.T, what string, r *Result, opt float64) {
	t.Helper()
	if len(r.Trace) == 0 {
		t.Fatalf("%s: empty trace", what)
	}
	for i, p := range r.Trace {
		if p.LowerBound > opt+relTol(opt, p.LowerBound) {
			t.Fatalf("%s: trace point %d bound %.12g above %.12g", what, i, p.LowerBound, opt)
		}
		if i == 0 {
			continue
		}
		q := r.Trace[i-1]
		if p.Seconds < q.Seconds || p.LowerBound < q.LowerBound || p.SSE > q.SSE {
			t.Fatalf("%s: trace not monotone at %d: %+v after %+v", what, i, p, q)
		}
	}
	last := r.Trace[len(r.Trace)-1]
	if math.Abs(last.SSE-r.SSE) > relTol(last.SSE, r.SSE) || math.Abs(min(last.LowerBound, r.SSE)-r.LowerBound) > relTol(last.LowerBound, r.LowerBound) {
		t.Fatalf("%s: trace ends at %+v, the result has SSE %.12g bound %.12g", what, last, r.SSE, r.LowerBound)
	}
}

// TestBoundBelowHeuristicsTable34: on the subsets of Tables 3 (Census)
// and 4 (Tarragona) of Gentile, Spagnolo-Arrizabalaga & Castro — n = 30,
// 40, 50, k = 3, 4, 5, the four selection criteria, seed 1 — the bound of
// a run cut after 3 master iterations (so that unfinished bounds are
// reported) and of a full run never exceeds the SSE of MDAV, V-MDAV,
// ICSM or the roundings. With -short: Census, random subsets only.
func TestBoundBelowHeuristicsTable34(t *testing.T) {
	sets := []string{"census", "tarragona"}
	crits := []string{datasets.SubsetConsecutive, datasets.SubsetRandom, datasets.SubsetNorm, datasets.SubsetCentroid}
	if testing.Short() {
		sets, crits = sets[:1], []string{datasets.SubsetRandom}
	}
	runs := 0
	for _, name := range sets {
		raw, err := datasets.LoadCASC(name)
		if errors.Is(err, datasets.ErrNoSharedData) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, crit := range crits {
			for _, n := range []int{30, 40, 50} {
				sub, _, err := datasets.Subset(raw, crit, n, 1)
				if err != nil {
					t.Fatal(err)
				}
				z, _ := model.Standardize(sub)
				for _, k := range []int{3, 4, 5} {
					for _, o := range []Options{{MaxIterations: 3, NoClose: true, NoBranch: true, Ascent: true}, {NoBranch: true}} {
						r, err := Run(z, k, &o)
						if err != nil {
							t.Fatalf("%s %s n=%d k=%d: %v", name, crit, n, k, err)
						}
						checkResult(t, z, k, r)
						what := fmt.Sprintf("%s %s n=%d k=%d max-iter %d", name, crit, n, k, o.MaxIterations)
						heur := slices.Min([]float64{r.MDAV, r.VMDAV, r.ICSM, r.SRH, r.MSTH, r.SSE})
						if r.LowerBound > heur+relTol(heur, r.LowerBound) {
							t.Fatalf("%s: %s bound %.12g above a heuristic's SSE %.12g", what, r.BoundKind, r.LowerBound, heur)
						}
						checkTrace(t, what, r, heur)
						runs++
					}
				}
			}
		}
	}
	t.Logf("%d runs", runs)
}

// TestGreedyPricingExpiredDeadline: the greedy pricing looks at the
// deadline before its first group, so with one already past it returns
// at once, late and without columns; the pricing round then reports a
// time-out without starting the exact pricing. No timing is measured.
func TestGreedyPricingExpiredDeadline(t *testing.T) {
	z := randomData(t, 200, 3, 41)
	d := model.NewSqDist(z)
	k := 5
	prep, err := enumerate.Prepare(d, 2*k-1)
	if err != nil {
		t.Fatal(err)
	}
	lambda := nearestDuals(prep, d, k)
	for i := range lambda {
		lambda[i] *= 3 // many groups price out
	}
	order := make([]int, d.N)
	for i := range order {
		order[i] = i
	}
	past := time.Now().Add(-time.Second)
	cols, late := heuristicPricing(d, lambda, k, order, make([]float64, d.N), make([]bool, d.N), rcTolerance(lambda), past)
	if !late || len(cols) != 0 {
		t.Fatalf("expired deadline: late %v, %d columns", late, len(cols))
	}
	cols, late = heuristicPricing(d, lambda, k, order, make([]float64, d.N), make([]bool, d.N), rcTolerance(lambda), time.Now().Add(time.Hour))
	if late || len(cols) == 0 {
		t.Fatalf("distant deadline: late %v, %d columns (the duals should price out)", late, len(cols))
	}
	var st Stats
	p := &pricer{d: d, k: k, opt: &Options{}, prep: prep, stats: &st, deadline: past}
	out, err := p.price(lambda)
	if err != nil {
		t.Fatal(err)
	}
	if !out.timedOut || out.complete || len(out.cols) != 0 || st.CECalls != 0 || st.EPCalls != 0 {
		t.Fatalf("expired deadline: timed out %v, complete %v, %d columns, %d CE and %d EP calls", out.timedOut, out.complete, len(out.cols), st.CECalls, st.EPCalls)
	}
}

// TestParallelPricingDeterministic: the greedy pricing of the sizes on
// 1, 2 or 3 goroutines returns the same columns, in the same order, and
// so does a pricing round.
func TestParallelPricingDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		z := randomData(t, 120, 3, 700+seed)
		d := model.NewSqDist(z)
		k := 3 + int(seed%3)
		prep, err := enumerate.Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 9))
		lambda := nearestDuals(prep, d, k)
		for i := range lambda {
			lambda[i] *= 1 + rng.Float64()
		}
		var ref []model.Column
		var refRound *priceOutcome
		for _, w := range []int{1, 2, 3} {
			var st Stats
			p := &pricer{d: d, k: k, opt: &Options{Workers: w}, prep: prep, stats: &st}
			cols, _, _ := p.heuristicAll(lambda)
			round, err := p.price(lambda)
			if err != nil {
				t.Fatal(err)
			}
			if w == 1 {
				ref, refRound = cols, round
				if len(ref) == 0 {
					t.Fatalf("seed %d: no greedy column; the test exercises nothing", seed)
				}
				continue
			}
			if !sameColumns(cols, ref) || !sameColumns(round.cols, refRound.cols) {
				t.Fatalf("seed %d: %d workers give other columns than one", seed, w)
			}
		}
	}
}

func sameColumns(a, b []model.Column) bool {
	return slices.EqualFunc(a, b, func(x, y model.Column) bool {
		return slices.Equal(x.Members, y.Members) && x.ReducedCost == y.ReducedCost
	})
}

// TestRunTimeLimitMedium: a run on 1,500 records at k = 10 with a 3 s
// limit returns within the limit plus a generous slack (the greedy
// pricing and the ascent look at the deadline). Skipped with -short.
func TestRunTimeLimitMedium(t *testing.T) {
	if testing.Short() {
		t.Skip("medium instance")
	}
	z := randomData(t, 1500, 5, 77)
	limit := 3 * time.Second
	t0 := time.Now()
	r, err := Run(z, 10, &Options{TimeLimit: limit, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, z, 10, r)
	// Generous: the distance matrix and MDAV come before any deadline.
	if el := time.Since(t0); el > limit+limit/2+time.Second {
		t.Fatalf("a %v run took %v (stopped %s in %s)", limit, el, r.Stopped, r.StoppedPhase)
	}
}

// TestSmoothingInput: a smoothing weight of 1 or more is bad input.
func TestSmoothingInput(t *testing.T) {
	z := randomData(t, 12, 2, 1)
	for _, a := range []float64{1, 1.5, math.NaN()} {
		if _, err := Run(z, 3, &Options{Smoothing: a}); !errors.Is(err, ErrInput) {
			t.Fatalf("Smoothing %g: err %v, want ErrInput", a, err)
		}
	}
}
