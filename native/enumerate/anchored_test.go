package enumerate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// refShares lists every group of lo..hi records (bruteForce) and returns
// each record's μ_v = min(0, min_{C∋v} rc_C/|C|) and the lexicographically
// smallest group attaining it (nil when μ_v = 0).
func refShares(d *model.SqDist, lambda []float64, lo, hi int) ([]float64, [][]int) {
	mu := make([]float64, d.N)
	grp := make([][]int, d.N)
	for eta := lo; eta <= hi; eta++ {
		for _, c := range bruteForce(d, lambda, eta) {
			sh := c.ReducedCost / float64(eta)
			for _, v := range c.Members {
				if sh < mu[v] || (sh == mu[v] && grp[v] != nil && slices.Compare(c.Members, grp[v]) < 0) {
					mu[v], grp[v] = sh, c.Members
				}
			}
		}
	}
	return mu, grp
}

// checkGroup: grp (nil when share is 0) contains v, has k..2k−1 distinct
// records in ascending order and the share.
func checkGroup(t *testing.T, d *model.SqDist, lambda []float64, k, v int, share float64, grp []int) {
	t.Helper()
	if grp == nil {
		if share < 0 {
			t.Fatalf("record %d: share %g without a group", v, share)
		}
		return
	}
	if len(grp) < k || len(grp) > 2*k-1 || !slices.Contains(grp, v) || !slices.IsSorted(grp) || slices.Compact(slices.Clone(grp)) == nil || len(slices.Compact(slices.Clone(grp))) != len(grp) {
		t.Fatalf("record %d: group %v", v, grp)
	}
	if sh := d.ReducedCost(lambda, grp) / float64(len(grp)); math.Abs(sh-share) > shareTol(sh, share) {
		t.Fatalf("record %d: group %v has share %.15g, not %.15g", v, grp, sh, share)
	}
}

// minSharesExact is MinShares of sizes k..2k−1 without a deadline, which
// must finish (Exact).
func minSharesExact(t *testing.T, pp *Prepared, lambda []float64, k int, o *SharesOptions, seed uint64) *Shares {
	t.Helper()
	res, err := pp.MinShares(lambda, k, 2*k-1, o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exact {
		t.Fatalf("seed %d: not exact without deadline", seed)
	}
	return res
}

func shareTol(a, b float64) float64 { return 1e-9 * math.Max(1, math.Max(math.Abs(a), math.Abs(b))) }

// TestMinShares: on seeded instances (n = 12..19, sizes k..2k−1 for
// k = 2..4, continuous and grid data with exact ties, duals from small to
// large) MinShares on one and two workers, and with hints, returns every record's smallest
// share as listing every group does, and a group attaining it (with
// ties, not always the listing's).
func TestMinShares(t *testing.T) {
	negative := 0
	for seed := uint64(1); seed <= 40; seed++ {
		n := 12 + int(seed%8)
		k := 2 + int(seed%3)
		grid := seed%4 == 0
		z := randomPoints(n, 2+int(seed%2), grid, seed)
		d := model.NewSqDist(z)
		pp, err := Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		for _, scale := range []float64{0.3, 1, 3} {
			lambda := randomDuals(n, 0, scale*float64(k), grid, seed*7+uint64(scale*10))
			want, wantGrp := refShares(d, lambda, k, 2*k-1)
			// Hints: the listing's groups, one of a wrong size, one with a
			// record out of range, one with a repeated record.
			hints := [][]int{{0}, {0, 1, n}, slices.Repeat([]int{1}, k)}
			for _, g := range wantGrp {
				if g != nil {
					hints = append(hints, slices.Clone(g))
				}
			}
			for _, workers := range []int{1, 2, 3} {
				o := &SharesOptions{Workers: min(workers, 2)}
				if workers == 3 {
					o.Hints = hints
				}
				res := minSharesExact(t, pp, lambda, k, o, seed)
				for v := range n {
					if math.Abs(res.Share[v]-want[v]) > shareTol(res.Share[v], want[v]) {
						t.Fatalf("seed %d scale %g workers %d record %d: share %.15g, listing %.15g", seed, scale, workers, v, res.Share[v], want[v])
					}
					if want[v] < 0 {
						negative++
					}
					checkGroup(t, d, lambda, k, v, res.Share[v], res.Group[v])
					if (res.Group[v] == nil) != (wantGrp[v] == nil) {
						t.Fatalf("seed %d scale %g workers %d record %d: group %v, listing %v", seed, scale, workers, v, res.Group[v], wantGrp[v])
					}
				}
			}
		}
	}
	if negative == 0 {
		t.Fatal("no record had a negative share: the test checks nothing")
	}
}

// TestMinSharesStopped: a search stopped after a few nodes, or by a
// deadline already passed, gives every record a share never above its
// exact value, and says it is not exact.
func TestMinSharesStopped(t *testing.T) {
	stopped := 0
	for seed := uint64(1); seed <= 20; seed++ {
		n := 14 + int(seed%5)
		k := 2 + int(seed%3)
		z := randomPoints(n, 2, false, seed+50)
		d := model.NewSqDist(z)
		pp, err := Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		lambda := randomDuals(n, 0, 2*float64(k), false, seed+51)
		want, _ := refShares(d, lambda, k, 2*k-1)
		check := func(what string, res *Shares) {
			for v := range n {
				if res.Share[v] > want[v]+shareTol(res.Share[v], want[v]) {
					t.Fatalf("seed %d %s: record %d share %.15g above the exact %.15g", seed, what, v, res.Share[v], want[v])
				}
			}
		}
		for _, nodes := range []int64{1, 3, 10, 30, 100} {
			a := newAnchored(pp, lambda, k, 2*k-1, &SharesOptions{Workers: 1})
			a.stopNodes = nodes
			res := a.run()
			check("stopped", res)
			if a.stop.Load() {
				stopped++
				if res.Exact {
					t.Fatalf("seed %d: stopped after %d nodes but exact", seed, nodes)
				}
			}
		}
		res, err := pp.MinShares(lambda, k, 2*k-1, &SharesOptions{Deadline: time.Now().Add(time.Nanosecond)})
		if err != nil {
			t.Fatal(err)
		}
		check("deadline", res)
		if res.Exact {
			t.Fatalf("seed %d: exact after the deadline", seed)
		}
	}
	if stopped == 0 {
		t.Fatal("no search was stopped")
	}
}

// TestMinSharesBeat: with a bound to beat above the exact
// Σ_v (λ_v + μ_v) and hints that reach it, the search is abandoned with
// every share still at most the exact one and an estimate between the
// exact sum and the bound to beat; without hints, or with a bound to beat
// below the exact sum, the result is the exact one (20 seeded instances).
func TestMinSharesBeat(t *testing.T) {
	abandoned := 0
	for seed := uint64(1); seed <= 20; seed++ {
		n := 14 + int(seed%5)
		k := 2 + int(seed%3)
		z := randomPoints(n, 2, false, seed+70)
		d := model.NewSqDist(z)
		pp, err := Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		lambda := randomDuals(n, 0, 2*float64(k), false, seed+71)
		want, wantGrp := refShares(d, lambda, k, 2*k-1)
		exact, sumL := 0.0, 0.0
		for v := range n {
			exact += lambda[v] + want[v]
			sumL += lambda[v]
		}
		tol := 1e-9 * (1 + math.Abs(exact))
		above, below := exact+tol, exact-1
		for _, c := range []struct {
			beat  float64
			hints [][]int
		}{{above, wantGrp}, {above, nil}, {below, wantGrp}} {
			res, err := pp.MinShares(lambda, k, 2*k-1, &SharesOptions{Workers: 2, Beat: &c.beat, Hints: c.hints})
			if err != nil {
				t.Fatal(err)
			}
			for v := range n {
				if res.Share[v] > want[v]+shareTol(res.Share[v], want[v]) {
					t.Fatalf("seed %d: record %d share %.15g above the exact %.15g", seed, v, res.Share[v], want[v])
				}
			}
			reach := c.hints != nil && c.beat == above || c.hints == nil && sumL <= c.beat
			if res.Abandoned != (reach && !res.Exact) {
				t.Fatalf("seed %d: abandoned %v, exact %v, beat %.12g (exact sum %.12g), hints %v", seed, res.Abandoned, res.Exact, c.beat, exact, c.hints != nil)
			}
			if res.Abandoned {
				abandoned++
				if res.Estimate > c.beat+tol || res.Estimate < exact-tol {
					t.Fatalf("seed %d: estimate %.12g outside [%.12g, %.12g]", seed, res.Estimate, exact, c.beat)
				}
				continue
			}
			if !res.Exact {
				t.Fatalf("seed %d: neither exact nor abandoned", seed)
			}
			for v := range n {
				if math.Abs(res.Share[v]-want[v]) > shareTol(res.Share[v], want[v]) {
					t.Fatalf("seed %d: record %d share %.15g, exact %.15g", seed, v, res.Share[v], want[v])
				}
			}
		}
	}
	if abandoned == 0 {
		t.Fatal("no search was abandoned")
	}
	t.Logf("abandoned %d of 60 searches", abandoned)
}

// TestMinSharesErrors: bad sizes, duals and workers are errors.
func TestMinSharesErrors(t *testing.T) {
	d := model.NewSqDist(randomPoints(8, 2, false, 1))
	pp, err := Prepare(d, 5)
	if err != nil {
		t.Fatal(err)
	}
	l := make([]float64, 8)
	for _, c := range []struct {
		lambda []float64
		lo, hi int
		o      *SharesOptions
	}{
		{l, 1, 3, nil}, {l, 4, 3, nil}, {l, 3, 6, nil}, {l[:7], 3, 5, nil},
		{[]float64{0, 0, 0, math.NaN(), 0, 0, 0, 0}, 3, 5, nil}, {l, 3, 5, &SharesOptions{Workers: -1}},
	} {
		if _, err := pp.MinShares(c.lambda, c.lo, c.hi, c.o); err == nil {
			t.Fatalf("MinShares(%v, %d, %d) accepted", c.lambda, c.lo, c.hi)
		}
	}
}

// TestOrderBits: the keys of searchSize's sort keep the order of the
// floats (negative, zero, subnormal, large), and clearing their low bits
// never reverses two of them.
func TestOrderBits(t *testing.T) {
	xs := []float64{math.Inf(-1), -1e300, -3.5, -1, -1e-300, -5e-324, 0, 5e-324, 1e-300, 0.25, 1, 1 + 1e-15, 3.5, 1e300, math.Inf(1)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		xs = append(xs, r.NormFloat64()*math.Pow(10, float64(r.IntN(20)-10)))
	}
	for _, x := range xs {
		for _, y := range xs {
			kx, ky := orderBits(x), orderBits(y)
			if x < y && !(kx < ky) {
				t.Fatalf("orderBits(%g) = %x not below orderBits(%g) = %x", x, kx, y, ky)
			}
			if x < y && kx&^4095 > ky&^4095 {
				t.Fatalf("masked keys of %g and %g reversed", x, y)
			}
		}
	}
}

// TestMinSharesAccept: with SharesOptions.Accept (the groups holding a
// record outside a random region, as the region bound of the column
// generation asks), MinShares on one and two workers, with hints, returns
// every record's smallest share over the accepted groups as listing them
// does, with an accepted group attaining it; for records outside the
// region those are the shares without Accept, and some record of the
// region gets a larger share than without it.
func TestMinSharesAccept(t *testing.T) {
	raised := 0
	for seed := uint64(1); seed <= 30; seed++ {
		n := 12 + int(seed%7)
		k := 2 + int(seed%3)
		z := randomPoints(n, 2, seed%5 == 0, seed)
		d := model.NewSqDist(z)
		pp, err := Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 99))
		inR := make([]bool, n)
		for v := range n {
			inR[v] = rng.IntN(3) > 0
		}
		accept := func(m []int) bool {
			return slices.ContainsFunc(m, func(u int) bool { return !inR[u] })
		}
		lambda := randomDuals(n, 0, 2*float64(k), false, seed*13)
		all, _ := refShares(d, lambda, k, 2*k-1)
		want := make([]float64, n)
		for eta := k; eta <= 2*k-1; eta++ {
			for _, c := range bruteForce(d, lambda, eta) {
				if !accept(c.Members) {
					continue
				}
				for _, v := range c.Members {
					want[v] = min(want[v], c.ReducedCost/float64(eta))
				}
			}
		}
		for workers := 1; workers <= 2; workers++ {
			res := minSharesExact(t, pp, lambda, k, &SharesOptions{Workers: workers, Accept: accept, Hints: [][]int{seqInts(k)}}, seed)
			for v := range n {
				if math.Abs(res.Share[v]-want[v]) > shareTol(res.Share[v], want[v]) {
					t.Fatalf("seed %d workers %d record %d: share %.15g, listing the accepted groups %.15g", seed, workers, v, res.Share[v], want[v])
				}
				checkGroup(t, d, lambda, k, v, res.Share[v], res.Group[v])
				if g := res.Group[v]; g != nil && !accept(g) {
					t.Fatalf("seed %d record %d: group %v not accepted", seed, v, g)
				}
				if !inR[v] && math.Abs(res.Share[v]-all[v]) > shareTol(res.Share[v], all[v]) {
					t.Fatalf("seed %d record %d outside the region: share %.15g, without Accept %.15g", seed, v, res.Share[v], all[v])
				}
				if workers == 1 && res.Share[v] > all[v]+shareTol(res.Share[v], all[v]) {
					raised++
				}
			}
		}
	}
	if raised == 0 {
		t.Fatal("Accept never raised a share: the test checks nothing")
	}
}

func seqInts(k int) []int {
	s := make([]int, k)
	for i := range s {
		s[i] = i
	}
	return s
}
