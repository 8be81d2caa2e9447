package colgen

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// subDist returns the distance matrix of the records g of d.
func subDist(d *model.SqDist, g []int) *model.SqDist {
	m := len(g)
	s := &model.SqDist{N: m, D: make([]float64, m*m)}
	for a, i := range g {
		for b, j := range g {
			s.D[a*m+b] = d.At(i, j)
		}
	}
	return s
}

// TestSplitOptimal: splitOptimal finds the brute-force optimum of the
// group's records, and splitLarge never raises the SSE, leaves no group of
// 2k or more and keeps every record.
func TestSplitOptimal(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		k := 2 + int(seed%3)
		m := 2*k + int(seed%uint64(splitExactMax-2*k+1)) // 2k..13
		z := randomData(t, m+5, 3, seed)
		d := model.NewSqDist(z)
		g := make([]int, m)
		for i := range g {
			g[i] = i + 5
		}
		parts := splitOptimal(d, g, k)
		got := d.PartitionCost(parts)
		want := bruteForce(subDist(d, g), k)
		if math.Abs(got-want) > relTol(got, want) {
			t.Fatalf("seed %d (m=%d k=%d): split SSE %.12g, brute force %.12g", seed, m, k, got, want)
		}
	}
	// A large group (beyond splitExactMax) of a clustering.
	for seed := uint64(1); seed <= 10; seed++ {
		k := 2 + int(seed%4)
		z := randomData(t, 40, 2, seed)
		d := model.NewSqDist(z)
		all := make([]int, 40)
		for i := range all {
			all[i] = i
		}
		groups := [][]int{all[:k], all[k : 2*k+1], all[2*k+1:]}
		out, split := splitLarge(d, groups, k)
		if split == 0 {
			t.Fatalf("seed %d: the group of %d records was not split", seed, 40-2*k-1)
		}
		if _, err := model.NewClustering(40, out); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, p := range out {
			if len(p) < k || len(p) >= 2*k {
				t.Fatalf("seed %d: part of %d records for k = %d", seed, len(p), k)
			}
		}
		if a, b := d.PartitionCost(out), d.PartitionCost(groups); a > b+relTol(a, b) {
			t.Fatalf("seed %d: splitting raised the SSE from %.12g to %.12g", seed, b, a)
		}
	}
}

// TestNearestBound: on 50 seeded instances (n ≤ 14, k = 2..4) the
// combinatorial bound never exceeds the brute-force optimum, and is
// positive (the records are distinct points).
func TestNearestBound(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		n := 6 + int(seed%9) // 6..14
		k := 2 + int(seed%3)
		if n < k {
			n = k
		}
		z := randomData(t, n, 2+int(seed%3), seed)
		d := model.NewSqDist(z)
		prep, err := enumerate.Prepare(d, min(2*k-1, n))
		if err != nil {
			t.Fatal(err)
		}
		b := nearestBound(prep, d, k)
		opt := bruteForce(d, k)
		if n < 2*k {
			opt = math.Inf(1)
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			opt = d.GroupCost(all)
		}
		if b > opt+relTol(b, opt) || !(b > 0) {
			t.Fatalf("seed %d (n=%d k=%d): nearest-neighbour bound %.12g, optimum %.12g", seed, n, k, b, opt)
		}
	}
}

// TestNeverWorseThanICSM: the default run starts from the same ICSM run
// as `sdcopt microagg --method icsm` (from MDAV, no restarts), so its SSE
// is never above it; the bound is never above ICSM's SSE either.
func TestNeverWorseThanICSM(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		k := 3 + int(seed%3)
		z := randomData(t, 60+10*int(seed), 3, 300+seed)
		ic, err := microagg.ICSM(z, k, microagg.ICSMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(z, k, &Options{MaxIterations: 5})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, z, k, r)
		if err := r.Check(z, k); err != nil {
			t.Fatal(err)
		}
		if r.SSE > ic.SSE*(1+1e-12) {
			t.Fatalf("seed %d k=%d: colgen SSE %.12g above ICSM's %.12g", seed, k, r.SSE, ic.SSE)
		}
		if r.LowerBound > ic.SSE*(1+1e-9) || !(r.LowerBound > 0) || r.BoundKind == "" {
			t.Fatalf("seed %d: bound %.12g (%s), ICSM SSE %.12g", seed, r.LowerBound, r.BoundKind, ic.SSE)
		}
	}
}

// TestTimeLimitHolds: a case that cannot finish in the limit (3,000
// records, k = 5, 3 s) stops within the limit plus a generous margin
// (the issue asks 5 %; the test allows 30 % for a loaded machine), with a
// valid clustering and a positive bound.
func TestTimeLimitHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3 s run on 3,000 records")
	}
	r := rand.New(rand.NewPCG(77, 1))
	n, dim := 3000, 4
	x := make([]float64, n*dim)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	raw, err := model.NewDataset(nil, n, dim, x)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := model.Standardize(raw)
	limit := 3 * time.Second
	t0 := time.Now()
	res, err := Run(z, 5, &Options{TimeLimit: limit})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Check(z, 5); err != nil {
		t.Fatal(err)
	}
	if took > limit*13/10 {
		t.Fatalf("took %v for a limit of %v (stopped %s in %s)", took, limit, res.Stopped, res.StoppedPhase)
	}
	if res.Converged || res.Stopped != StopTimeLimit || res.StoppedPhase == "" {
		t.Fatalf("stopped %q in %q, converged %v: expected the time limit", res.Stopped, res.StoppedPhase, res.Converged)
	}
	if !(res.LowerBound > 0) || res.BoundKind == BoundNone {
		t.Fatalf("bound %.6g (%s) after the time limit", res.LowerBound, res.BoundKind)
	}
	t.Logf("took %v: SSE %.6g, bound %.6g (%s), gap %.2f %%, stopped in %s", took, res.SSE, res.LowerBound, res.BoundKind, res.GapPercent, res.StoppedPhase)
}

// TestRecordBound: the per-record Lagrangian bound holds for any duals
// (here random ones, and 0) on 50 seeded instances (n ≤ 14, k = 2..4):
// never above the brute-force optimum.
func TestRecordBound(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		_, d, prep, n, k, ok := seededInstance(t, seed, 6, 9, 0)
		if !ok {
			continue
		}
		opt := bruteForce(d, k)
		r := rand.New(rand.NewPCG(seed, 3))
		for trial := range 5 {
			lambda := make([]float64, n)
			if trial > 0 {
				for v := range lambda {
					lambda[v] = r.Float64() * opt / float64(n) * 2
				}
			}
			b := recordBound(d, prep, lambda, nil, k, 2, time.Time{})
			if b > opt+relTol(b, opt) {
				t.Fatalf("seed %d (n=%d k=%d) trial %d: record bound %.12g above the optimum %.12g", seed, n, k, trial, b, opt)
			}
		}
	}
}

// TestBranchAndPrice: on 50 seeded small instances (n ≤ 14, k = 2..4),
// with the gap-closing stage and ICSM off, branch-and-price proves the
// optimum the brute force finds, without and with subset-row cuts in the
// master (then its nodes price with the cut terms).
func TestBranchAndPrice(t *testing.T) {
	branched, branchedCuts := 0, 0
	for seed := uint64(1); seed <= 50; seed++ {
		n := 8 + int(seed%7) // 8..14
		k := 2 + int(seed%3) // 2..4
		z := randomData(t, n, 2+int(seed%2), 1000+seed)
		d := model.NewSqDist(z)
		opt := bruteForce(d, k)
		if n < 2*k {
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			opt = d.GroupCost(all)
		}
		for _, cuts := range []bool{false, true} {
			r, err := Run(z, k, &Options{NoClose: true, NoICSM: true, NoSubsetRowCuts: !cuts})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if err := r.Check(z, k); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if !r.Exact {
				t.Fatalf("seed %d (n=%d k=%d, cuts %v): not proven: SSE %.12g, bound %.12g (%s), %d nodes, stopped %s", seed, n, k, cuts,
					r.SSE, r.LowerBound, r.BoundKind, r.Nodes, r.Stopped)
			}
			if math.Abs(r.SSE-opt) > relTol(opt, r.SSE) {
				t.Fatalf("seed %d (n=%d k=%d, cuts %v): proven SSE %.12g, brute force %.12g", seed, n, k, cuts, r.SSE, opt)
			}
			if r.Nodes > 1 {
				if cuts && r.Cuts > 0 {
					branchedCuts++
				} else if !cuts {
					branched++
				}
			}
		}
	}
	if branched == 0 || branchedCuts == 0 {
		t.Fatalf("%d instances branched without cuts, %d with cuts in the master; the test exercises too little", branched, branchedCuts)
	}
	t.Logf("of 50 instances, %d branched without cuts, %d with cuts in the master", branched, branchedCuts)
}

// TestBranchAndPriceKeepsCuts: pinned case 3 (n = 36, k = 4) has the
// optimum 7.1367858119059 proven by branch-and-price without cuts (111
// nodes, pinCases); with the cuts kept in every node, the tree proves the
// same optimum.
func TestBranchAndPriceKeepsCuts(t *testing.T) {
	c := pinInputs()[3]
	z := randomData(t, c.n, c.dim, c.seed)
	r, err := Run(z, c.k, &Options{NoICSM: true, NoClose: true})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, z, c.k, r)
	if r.Cuts == 0 || r.Nodes < 2 {
		t.Fatalf("%d cuts, %d nodes: the tree did not branch with cuts", r.Cuts, r.Nodes)
	}
	want := pinCases[3].sse
	if !r.Exact || math.Abs(r.SSE-want) > 1e-9*want || r.BoundKind != BoundBranchAndPrice {
		t.Fatalf("SSE %.12g bound %.12g (%s), exact %v; want %.12g proven by branch_and_price", r.SSE, r.LowerBound, r.BoundKind, r.Exact, want)
	}
	t.Logf("%d cuts, %d nodes (111 without cuts)", r.Cuts, r.Nodes)
}
