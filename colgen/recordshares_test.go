package colgen

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestAnchoredShares: on 50 seeded instances (n = 8..17, k = 2..4) and
// duals from the nearest-neighbour duals to well past them, exactShares
// by the branch and bound per record (evalAnchored) gives every record
// the share of the brute-force listing minShares and the bound and
// supergradient of the listing of every group of negative reduced cost
// (exactShares.listing), equal within 1e-9 relative; with a deadline of
// 1 ns it is never above the exact bound.
func TestAnchoredShares(t *testing.T) {
	negative := 0
	for seed := uint64(1); seed <= 50; seed++ {
		_, d, prep, n, k, ok := seededInstance(t, seed, 8, 10, 300)
		if !ok {
			continue
		}
		base := nearestDuals(prep, d, k)
		r := rand.New(rand.NewPCG(seed, 11))
		for trial := range 4 {
			lambda := make([]float64, n)
			for v := range lambda {
				lambda[v] = base[v] * (1 + 0.5*float64(trial)*r.Float64())
			}
			ref := newExactShares(d, prep, k, 1)
			ref.listing = true
			gRef := make([]float64, n)
			want, exRef := ref.eval(lambda, time.Time{}, gRef)
			if !exRef {
				t.Fatalf("seed %d: the listing overflowed", seed)
			}
			e := newExactShares(d, prep, k, 2)
			g := make([]float64, n)
			got, exact := e.eval(lambda, time.Time{}, g)
			tol := func(a, b float64) float64 { return 1e-9 * math.Max(1, math.Max(math.Abs(a), math.Abs(b))) }
			if !exact || math.Abs(got-want) > tol(got, want) {
				t.Fatalf("seed %d (n=%d k=%d) trial %d: branch and bound %.15g (exact %v), listing %.15g", seed, n, k, trial, got, exact, want)
			}
			brute := minShares(d, lambda, k)
			for v := range n {
				if math.Abs(e.share[v]-brute[v]) > tol(e.share[v], brute[v]) {
					t.Fatalf("seed %d trial %d record %d: share %.15g, brute force %.15g", seed, trial, v, e.share[v], brute[v])
				}
				if brute[v] < 0 {
					negative++
				}
				if math.Abs(g[v]-gRef[v]) > 1e-9 {
					t.Fatalf("seed %d trial %d record %d: supergradient %.15g, listing %.15g", seed, trial, v, g[v], gRef[v])
				}
			}
			late, lateExact := e.eval(lambda, time.Now().Add(time.Nanosecond), nil)
			if late > want+tol(late, want) || lateExact {
				t.Fatalf("seed %d trial %d: bound after a 1 ns deadline %.15g (exact %v) above the exact %.15g", seed, trial, late, lateExact, want)
			}
		}
	}
	if negative == 0 {
		t.Fatal("no record had a negative share: the test checks nothing")
	}
	t.Logf("%d negative shares checked", negative)
}
