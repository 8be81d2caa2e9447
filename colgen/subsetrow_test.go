package colgen

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// clusteredData is m tight clusters of k+1 records, far apart: the master
// LP covers each cluster by its k+1 groups of k at 1/k each (for k = 3,
// 2/9 of the cluster's pair-distance sum against 1/4 for the group of
// four), which the subset-row cuts of three records cut off.
func clusteredData(t testing.TB, m, k int, seed uint64) *model.Dataset {
	return clusteredSpread(t, m, k, 20, seed)
}

// clusteredSpread is clusteredData with the clusters' centres gap apart
// on a line (records 0.3 apart within).
func clusteredSpread(t testing.TB, m, k int, gap float64, seed uint64) *model.Dataset {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 11))
	const dim = 2
	var x []float64
	for c := range m {
		for range k + 1 {
			x = append(x, gap*float64(c)+0.3*r.NormFloat64(), 0.3*r.NormFloat64())
		}
	}
	ds, err := model.NewDataset(nil, m*(k+1), dim, x)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// srcInstance returns instance seed of TestSubsetRowCutsBound: even seeds
// the seeded random instances, odd seeds clustered ones (k = 2 or 3).
func srcInstance(t *testing.T, seed uint64) (*model.Dataset, *model.SqDist, int, bool) {
	if seed%2 == 0 {
		z, d, _, _, k, ok := seededInstance(t, seed, 6, 9, 700)
		return z, d, k, ok
	}
	k := 2 + int(seed/2%2)
	m := 2 + int(seed/4%2)
	if k == 3 {
		m = 2
	}
	z := clusteredData(t, m, k, seed)
	return z, model.NewSqDist(z), k, true
}

// plainAndCutRuns runs the column generation without ICSM, gap closing
// or branching on z, without and with the subset-row cuts.
func plainAndCutRuns(t *testing.T, z *model.Dataset, k int) (plain, cut *Result) {
	t.Helper()
	base := Options{NoICSM: true, NoClose: true, NoBranch: true, NoSubsetRowCuts: true}
	plain, err := Run(z, k, &base)
	if err != nil {
		t.Fatal(err)
	}
	withCuts := base
	withCuts.NoSubsetRowCuts = false
	if cut, err = Run(z, k, &withCuts); err != nil {
		t.Fatal(err)
	}
	return plain, cut
}

// TestSubsetRowCutsBound: on 50 small instances, the bound with
// subset-row cuts is a valid lower bound (at most the brute-force
// optimum) and at least the bound without them; on the clustered ones
// the cuts raise it.
func TestSubsetRowCutsBound(t *testing.T) {
	raised, clustered, withClose := 0, 0, 0
	for seed := uint64(0); seed < 50; seed++ {
		z, d, k, ok := srcInstance(t, seed)
		if !ok {
			continue
		}
		opt := bruteForce(d, k)
		plain, cut := plainAndCutRuns(t, z, k)
		tol := 1e-7 * math.Max(1, opt)
		if cut.LowerBound > opt+tol {
			t.Errorf("seed %d (n=%d k=%d): bound with cuts %.12g above the optimum %.12g", seed, z.N, k, cut.LowerBound, opt)
		}
		if cut.LowerBound < plain.LowerBound-tol {
			t.Errorf("seed %d: bound with cuts %.12g below the bound without %.12g", seed, cut.LowerBound, plain.LowerBound)
		}
		if err := cut.Check(z, k); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		// The whole run: the gap-closing stage lists the groups within
		// the gap with the cut terms (closeGap's filter); when it proves
		// optimality, the SSE is the optimum.
		full, err := Run(z, k, &Options{NoICSM: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := full.Check(z, k); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		if full.LowerBound > opt+tol || (full.Exact && math.Abs(full.SSE-opt) > tol) {
			t.Errorf("seed %d: full run SSE %.12g, bound %.12g (exact %v), optimum %.12g", seed, full.SSE, full.LowerBound, full.Exact, opt)
		}
		if full.Cuts > 0 {
			withClose++
		}
		if seed%2 == 1 {
			clustered++
			if cut.LowerBound > plain.LowerBound+tol {
				raised++
			}
		}
	}
	if raised == 0 {
		t.Errorf("the cuts raised the bound on none of the %d clustered instances", clustered)
	}
	t.Logf("cuts raised the bound on %d of %d clustered instances; %d full runs had cuts", raised, clustered, withClose)
}

// TestSubsetRowCutsExactPricing runs the master loop and the cut rounds
// on clustered instances and checks the converged master with cuts
// against the LP over every group of k..2k-1 records with the same cuts:
// equal values (the pricing with the cut terms found every column the
// cuts leave attractive, and the new columns carry their cut
// coefficients), and no group with a negative reduced cost under the
// record and cut duals. Pricing without the cut terms re-finds the
// master's columns (their reduced cost under λ alone is negative), so the
// rounds do not converge and the test fails.
func TestSubsetRowCutsExactPricing(t *testing.T) {
	added := 0
	for _, c := range []struct {
		m, k int
		gap  float64
		seed uint64
	}{{2, 3, 20, 1}, {3, 2, 20, 2}, {3, 3, 1, 3}, {4, 2, 1, 4}, {3, 3, 0.7, 5}, {4, 3, 1.5, 6}} {
		z := clusteredSpread(t, c.m, c.k, c.gap, c.seed)
		opt := &Options{NoICSM: true, NoClose: true, NoBranch: true}
		r := newRun(z, c.k, opt, newTimePlan(time.Now(), opt, time.Now))
		runMasterLoop(t, r)
		root, before := r.res.LowerBound, len(r.cs.cols)
		if err := r.subsetRowPhase(); err != nil {
			t.Fatal(err)
		}
		added += len(r.cs.cols) - before
		t.Logf("%+v: bound %.6g -> %.6g, %d cuts, %d columns priced under them", c, root, r.res.LowerBound, len(r.src.cuts), len(r.cs.cols)-before)
		r.sess.Close()
		if r.src == nil || len(r.src.cuts) == 0 {
			t.Fatalf("%+v: no cut separated", c)
		}
		if r.cutSigma == nil || r.res.BoundKind != BoundSubsetRow {
			t.Fatalf("%+v: the rounds with cuts did not converge (bound kind %s)", c, r.res.BoundKind)
		}
		groups := allGroups(z.N, c.k)
		full := fullCutLP(t, r.d, groups, r.src.cuts)
		if math.Abs(full-r.res.Master) > 1e-6*math.Max(1, full) {
			t.Errorf("%+v: master with cuts %.10g, LP over all groups with the same cuts %.10g", c, r.res.Master, full)
		}
		if math.Abs(r.res.LowerBound-full) > 1e-6*math.Max(1, full) {
			t.Errorf("%+v: bound %.10g, LP over all groups %.10g", c, r.res.LowerBound, full)
		}
		if !(r.res.LowerBound > root+1e-6) {
			t.Errorf("%+v: cuts left the bound at %.10g (root %.10g)", c, r.res.LowerBound, root)
		}
		minFull, minLambda := math.Inf(1), math.Inf(1)
		for _, g := range groups {
			minFull = min(minFull, r.src.reducedCost(r.d, r.res.Duals, r.cutSigma, g))
			minLambda = min(minLambda, r.d.ReducedCost(r.res.Duals, g))
		}
		if minFull < -1e-6 {
			t.Errorf("%+v: a group has reduced cost %.3g with the cut terms after convergence", c, minFull)
		}
		if !(minLambda < -1e-6) {
			t.Errorf("%+v: no group has a negative reduced cost without the cut terms (%.3g): the instance does not test them", c, minLambda)
		}
	}
	if added == 0 {
		t.Error("no column was priced under the cuts: the instances do not test the new columns' cut coefficients")
	}
}

// allGroups lists every group of k..2k-1 of n records (ascending).
func allGroups(n, k int) [][]int {
	var out [][]int
	var g []int
	var rec func(from int)
	rec = func(from int) {
		if len(g) >= k {
			out = append(out, append([]int(nil), g...))
		}
		if len(g) == 2*k-1 {
			return
		}
		for v := from; v < n; v++ {
			g = append(g, v)
			rec(v + 1)
			g = g[:len(g)-1]
		}
	}
	rec(0)
	return out
}

// fullCutLP solves the set-partitioning LP over groups with the
// subset-row cuts (written here from their definition, not by srcPool).
func fullCutLP(t *testing.T, d *model.SqDist, groups [][]int, cuts [][3]int) float64 {
	t.Helper()
	p := &solvers.Problem{Sense: solvers.Minimize}
	for range d.N {
		p.AddRow(1, 1, "")
	}
	for range cuts {
		p.AddRow(math.Inf(-1), 1, "")
	}
	for _, g := range groups {
		var rows []int
		var vals []float64
		for _, v := range g {
			rows, vals = append(rows, v), append(vals, 1)
		}
		for i, s := range cuts {
			hit := 0
			for _, v := range g {
				if v == s[0] || v == s[1] || v == s[2] {
					hit++
				}
			}
			if hit >= 2 {
				rows, vals = append(rows, d.N+i), append(vals, 1)
			}
		}
		p.AddCol(d.GroupCost(g), 0, math.Inf(1), solvers.Continuous, rows, vals, "")
	}
	eng, err := solvers.New("auto", false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Solve(p, &solvers.Params{})
	if err != nil || res.Status != solvers.Optimal {
		t.Fatalf("LP over all groups: %v %v", err, res)
	}
	return res.Objective
}

// TestPriceNew: when the groups the pricing found are master columns
// already, priceNew returns the best groups that are not, of the first
// size that has any with a negative reduced cost, as an enumeration of
// every group finds them, with and without subset-row cut terms (random
// cuts, σ ≤ 0), on seeded instances (n = 12..16, k = 3).
func TestPriceNew(t *testing.T) {
	found := 0
	for seed := uint64(1); seed <= 12; seed++ {
		n, k := 12+int(seed%5), 3
		z := randomData(t, n, 2, 300+seed)
		d := model.NewSqDist(z)
		prep, err := enumerate.Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 17))
		lambda := nearestDuals(prep, d, k)
		for i := range lambda {
			lambda[i] *= 1 + rng.Float64()
		}
		src := newSRCPool()
		var sigma []float64
		if seed%2 == 0 {
			for range 15 {
				p := rng.Perm(n)[:3]
				slices.Sort(p)
				if src.add([3]int{p[0], p[1], p[2]}) {
					sigma = append(sigma, -rng.Float64())
				}
			}
		}
		var st Stats
		p := &pricer{d: d, k: k, opt: &Options{}, prep: prep, stats: &st, penalty: src.penalty(sigma)}
		out, err := p.price(lambda)
		if err != nil {
			t.Fatal(err)
		}
		cs := newColumnSet(n)
		for _, c := range out.cols {
			cs.addNew(nil, [][]int{c.Members})
		}
		got, timedOut, err := p.priceNew(lambda, cs.contains)
		if err != nil || timedOut {
			t.Fatalf("seed %d: %v (timed out %v)", seed, err, timedOut)
		}
		if p.accept != nil || p.noGreedy {
			t.Fatalf("seed %d: priceNew left the pricer changed", seed)
		}
		// The brute force: groups of the first size with a new group of
		// negative reduced cost (with the cut terms), best first.
		tol := rcTolerance(lambda)
		var want []model.Column
		for eta := k; eta <= 2*k-1 && want == nil; eta++ {
			for _, g := range allGroups(n, k) {
				if len(g) != eta || cs.contains(g) {
					continue
				}
				if rc := src.reducedCost(d, lambda, sigma, g); rc < tol {
					want = append(want, model.Column{Members: g, ReducedCost: rc})
				}
			}
		}
		slices.SortFunc(want, func(a, b model.Column) int {
			if c := cmp.Compare(a.ReducedCost, b.ReducedCost); c != 0 {
				return c
			}
			return slices.Compare(a.Members, b.Members)
		})
		want = want[:min(len(want), DefaultCEColumns)]
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d new groups, want %d", seed, len(got), len(want))
		}
		for i := range got {
			if !slices.Equal(got[i].Members, want[i].Members) || math.Abs(got[i].ReducedCost-want[i].ReducedCost) > 1e-9 {
				t.Fatalf("seed %d: new group %d is %v (%.12g), want %v (%.12g)", seed, i, got[i].Members, got[i].ReducedCost, want[i].Members, want[i].ReducedCost)
			}
		}
		if len(out.cols) > 0 && len(got) > 0 {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no instance had master columns and new groups; the test exercises nothing")
	}
}
