package colgen

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// minShares returns, for every record v, min(0, min_{C ∋ v} rc_C/|C|) over
// every group C of k..2k−1 records, by listing all the groups.
func minShares(d *model.SqDist, lambda []float64, k int) []float64 {
	out := make([]float64, d.N)
	for _, g := range allGroups(d.N, k) {
		sh := d.ReducedCost(lambda, g) / float64(len(g))
		for _, v := range g {
			out[v] = min(out[v], sh)
		}
	}
	return out
}

// TestExactShares: on 50 seeded instances (n ≤ 14, k = 2..4) and random
// duals, the bound of exactShares (by its default, the branch and bound
// per record) equals
// Σ_v (λ_v + min(0, min_{C∋v} rc_C/|C|)) computed by listing every group,
// and is never above the brute-force optimum; with a cap of a few groups
// per size or a deadline already passed it is still never above that
// value (a partial search gives a weaker, valid bound) — the listing with
// a cap (exactShares.listing) and either method after the deadline.
func TestExactShares(t *testing.T) {
	capped := 0
	for seed := uint64(1); seed <= 50; seed++ {
		_, d, prep, n, k, ok := seededInstance(t, seed, 6, 9, 0)
		if !ok {
			continue
		}
		opt := bruteForce(d, k)
		r := rand.New(rand.NewPCG(seed, 7))
		for trial := range 5 {
			lambda := make([]float64, n)
			for v := range lambda {
				lambda[v] = r.Float64() * opt / float64(n) * 2 * float64(trial) / 4
			}
			want := 0.0
			for v, s := range minShares(d, lambda, k) {
				want += lambda[v] + s
			}
			e := newExactShares(d, prep, k, 2)
			g := make([]float64, n)
			got, exact := e.eval(lambda, time.Time{}, g)
			if !exact || math.Abs(got-want) > relTol(got, want) {
				t.Fatalf("seed %d (n=%d k=%d) trial %d: exactShares %.12g (exact %v), listing %.12g", seed, n, k, trial, got, exact, want)
			}
			if got > opt+relTol(got, opt) {
				t.Fatalf("seed %d trial %d: bound %.12g above the optimum %.12g", seed, trial, got, opt)
			}
			e.listing, e.maxGroups = true, 2
			part, ex := e.eval(lambda, time.Time{}, nil)
			if part > want+relTol(part, want) {
				t.Fatalf("seed %d trial %d: capped bound %.12g above the exact %.12g", seed, trial, part, want)
			}
			if !ex {
				capped++
			}
			late, _ := e.eval(lambda, time.Now().Add(-time.Second), nil)
			if late > want+relTol(late, want) {
				t.Fatalf("seed %d trial %d: bound after the deadline %.12g above the exact %.12g", seed, trial, late, want)
			}
		}
	}
	if capped == 0 {
		t.Fatal("the cap never bound; the partial case is untested")
	}
}

// TestShareAscentCertificate: a certificate of form CertShares is
// re-proven by CheckCertificate, and one claiming more is refused.
func TestShareAscentCertificate(t *testing.T) {
	z := randomData(t, 14, 2, 5)
	d := model.NewSqDist(z)
	k := 3
	prep, err := enumerate.Prepare(d, 2*k-1)
	if err != nil {
		t.Fatal(err)
	}
	lambda := nearestDuals(prep, d, k)
	for v := range lambda {
		lambda[v] *= 1.3
	}
	b, exact := newExactShares(d, prep, k, 1).eval(lambda, time.Time{}, nil)
	if !exact {
		t.Fatal("not exact")
	}
	c := &Certificate{N: 14, K: k, Form: CertShares, Bound: b, Duals: lambda}
	if _, err := CheckCertificate(z, c); err != nil {
		t.Fatal(err)
	}
	c.Bound = b * 1.01
	if _, err := CheckCertificate(z, c); err == nil {
		t.Fatal("an overstated certificate passed")
	}
}

// TestShareAscentBound: the ascent on exactShares, run for 15 steps from
// the start bound of a run, raises the bound only to values never above
// the brute-force optimum (50 seeded instances, n ≤ 14, k = 2..4), and
// its certificate is re-proven by CheckCertificate; it does raise the
// bound above the nearest-neighbour bound on some instance.
func TestShareAscentBound(t *testing.T) {
	raised := 0
	for seed := uint64(1); seed <= 50; seed++ {
		z, d, _, n, k, ok := seededInstance(t, seed, 6, 9, 100)
		if !ok {
			continue
		}
		opt := bruteForce(d, k)
		r := newRun(z, k, &Options{}, newTimePlan(time.Now(), &Options{}, time.Now))
		if err := r.startBound(); err != nil {
			t.Fatal(err)
		}
		nb := r.res.LowerBound
		r.best.sse = opt // the Polyak target
		r.startShareAscent()
		r.ascend(15)
		b := r.res.LowerBound
		if b > opt+relTol(b, opt) {
			t.Fatalf("seed %d (n=%d k=%d): share-ascent bound %.12g above the optimum %.12g", seed, n, k, b, opt)
		}
		if b > nb+relTol(b, nb) {
			raised++
			if r.res.BoundKind != BoundShares || r.res.Certificate == nil || r.res.Certificate.Form != CertShares {
				t.Fatalf("seed %d: bound kind %q, certificate %+v", seed, r.res.BoundKind, r.res.Certificate)
			}
			if _, err := CheckCertificate(z, r.res.Certificate); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
	if raised == 0 {
		t.Fatal("the ascent never raised the bound")
	}
	t.Logf("raised on %d instances", raised)
}

// TestShareStepRules: the step rules of the ascent on exactShares. θ
// doubles after shareAscentGrow new best bounds in a row and never passes
// 1; a step that did not rise starts the count again; and a Polyak step
// longer than the cap moves every dual by shareStepCap times the
// incumbent's mean SSE per record (here with unit weights and g = 0.1
// everywhere: Polyak's step moves each dual by 10·ub/n).
func TestShareStepRules(t *testing.T) {
	z := randomData(t, 12, 2, 7)
	d := model.NewSqDist(z)
	k := 3
	prep, err := enumerate.Prepare(d, 2*k-1)
	if err != nil {
		t.Fatal(err)
	}
	n := z.N
	a := newAscent(make([]float64, n), 0)
	a.ex = newExactShares(d, prep, k, 1)
	a.theta = 0.1
	for i := range shareAscentGrow - 1 {
		a.newBest(float64(i + 1))
	}
	if a.theta != 0.1 {
		t.Fatalf("θ %g after %d rises, want 0.1", a.theta, shareAscentGrow-1)
	}
	a.newBest(10)
	if a.theta != 0.2 {
		t.Fatalf("θ %g after %d rises, want 0.2", a.theta, shareAscentGrow)
	}
	for i := range 20 * shareAscentGrow {
		a.newBest(float64(20 + i))
	}
	if a.theta != 1 {
		t.Fatalf("θ %g after many rises, want 1", a.theta)
	}
	// A step that did not rise: the count starts again.
	a.theta = 0.1
	for i := range shareAscentGrow - 1 {
		a.newBest(float64(100 + i))
	}
	a.bestVal = 1e9
	a.lambda = make([]float64, n)
	a.ex.scale = make([]float64, n)
	for v := range n {
		a.ex.scale[v], a.g[v] = 1, 0.1
	}
	ub := 50.0
	a.ex.scaled = true                     // past the scaling phase
	a.step(d, prep, k, 1, time.Time{}, ub) // evaluates λ = 0: below the best
	if a.theta != 0.1 {
		t.Fatalf("θ %g after a step that did not rise, want 0.1", a.theta)
	}
	for i := range shareAscentGrow - 1 {
		a.newBest(float64(1e9 + 1 + float64(i)))
	}
	if a.theta != 0.1 {
		t.Fatalf("θ %g: the rises before the step that did not rise still counted", a.theta)
	}
	// The cap.
	a.theta = 1
	for v := range n {
		a.lambda[v], a.g[v] = 0, 0.1
	}
	a.move(0, ub)
	want := shareStepCap * ub / float64(n)
	for v, x := range a.lambda {
		if math.Abs(x-want) > 1e-12*want {
			t.Fatalf("dual %d moved by %g, want the cap %g", v, x, want)
		}
	}
	// A stall (shareAscentPatience steps that do not rise) halves θ and
	// the cap: the capped step from the best point is half as long, not
	// the same step again.
	a.theta, a.capScale, a.stale, a.rises = 1, 1, 0, 0
	a.bestVal = 1e9
	for range shareAscentPatience {
		a.step(d, prep, k, 1, time.Time{}, ub)
	}
	if a.theta != 0.5 || a.capScale != 0.5 {
		t.Fatalf("after a stall θ %g and cap scale %g, want 0.5 and 0.5", a.theta, a.capScale)
	}
	for v := range n {
		a.lambda[v], a.g[v] = 0, 0.1
	}
	a.move(0, ub)
	for v, x := range a.lambda {
		if math.Abs(x-want/2) > 1e-12*want {
			t.Fatalf("after a stall dual %d moved by %g, want half the cap %g", v, x, want/2)
		}
	}
	// Rises restore it, never above the cap.
	for i := range 4 * shareAscentGrow {
		a.newBest(2e9 + float64(i))
	}
	if a.theta != 1 || a.capScale != 1 {
		t.Fatalf("after rises θ %g and cap scale %g, want 1 and 1", a.theta, a.capScale)
	}
}
