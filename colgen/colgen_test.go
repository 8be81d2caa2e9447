package colgen

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// randomData returns n seeded points in d dimensions, standardized.
func randomData(t testing.TB, n, d int, seed uint64) *model.Dataset {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.NormFloat64()
		if i%d == 0 {
			x[i] += float64(r.IntN(3)) * 2 // a few loose clusters
		}
	}
	ds, err := model.NewDataset(nil, n, d, x)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := model.Standardize(ds)
	return z
}

// seededInstance is the seeded instance of the share and record-bound tests over
// seeds 1..50: n = nMin + seed mod spread records of 2 + seed mod 3
// attributes (randomData, seed offset+seed) at k = 2 + seed mod 3, their
// distances and the enumeration prepared up to 2k−1; ok is false when
// n < 2k (the tests skip those seeds).
func seededInstance(t testing.TB, seed uint64, nMin, spread int, offset uint64) (z *model.Dataset, d *model.SqDist, prep *enumerate.Prepared, n, k int, ok bool) {
	t.Helper()
	n = nMin + int(seed%uint64(spread))
	k = 2 + int(seed%3)
	if n < 2*k {
		return nil, nil, nil, n, k, false
	}
	z = randomData(t, n, 2+int(seed%3), offset+seed)
	d = model.NewSqDist(z)
	prep, err := enumerate.Prepare(d, 2*k-1)
	if err != nil {
		t.Fatal(err)
	}
	return z, d, prep, n, k, true
}

// loadCASC returns the CASC data set (census, tarragona, eia) as read,
// skipping the test when the shared data are not beside the checkout.
func loadCASC(tb testing.TB, set string) *model.Dataset {
	tb.Helper()
	raw, err := datasets.LoadCASC(set)
	if errors.Is(err, datasets.ErrNoSharedData) {
		tb.Skip(err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// bruteForce returns the optimal SSE over all partitions of the records
// into groups of k..2k-1 (dynamic programming over subsets: the group of
// the lowest unassigned record is chosen first).
func bruteForce(d *model.SqDist, k int) float64 {
	n := d.N
	full := 1<<n - 1
	best := make([]float64, 1<<n)
	for m := range best {
		best[m] = math.Inf(1)
	}
	best[0] = 0
	// best[m] = optimal SSE of the records in m.
	for m := 1; m <= full; m++ {
		c := bits.OnesCount(uint(m))
		if c < k {
			continue
		}
		low := bits.TrailingZeros(uint(m))
		rest := m &^ (1 << low)
		// Groups containing low: low + a subset of rest of size k-1..2k-2.
		for s := rest; ; s = (s - 1) & rest {
			sz := bits.OnesCount(uint(s)) + 1
			if sz >= k && sz <= 2*k-1 && !math.IsInf(best[rest&^s], 1) {
				g := []int{low}
				for b := s; b != 0; b &= b - 1 {
					g = append(g, bits.TrailingZeros(uint(b)))
				}
				if v := best[rest&^s] + d.GroupCost(g); v < best[m] {
					best[m] = v
				}
			}
			if s == 0 {
				break
			}
		}
	}
	return best[full]
}

func relTol(a, b float64) float64 { return 1e-7 * math.Max(1, math.Max(math.Abs(a), math.Abs(b))) }

// checkResult verifies the invariants of any run.
func checkResult(t *testing.T, z *model.Dataset, k int, r *Result) {
	t.Helper()
	if _, err := r.Clustering.CheckK(z.N, k); err != nil {
		t.Fatalf("invalid clustering: %v", err)
	}
	if sse := model.SSE(z, r.Clustering); math.Abs(sse-r.SSE) > relTol(sse, r.SSE) {
		t.Fatalf("reported SSE %.12g, clustering has %.12g", r.SSE, sse)
	}
	for name, h := range map[string]float64{"mdav": r.MDAV, "vmdav": r.VMDAV, "srh": r.SRH, "msth": r.MSTH, "best": r.SSE} {
		if !math.IsInf(h, 1) && r.LowerBound > h+relTol(h, r.LowerBound) {
			t.Fatalf("lower bound %.12g above the %s SSE %.12g", r.LowerBound, name, h)
		}
	}
	if r.SSE > min(r.MDAV, r.VMDAV)+relTol(r.SSE, r.MDAV) {
		t.Fatalf("best SSE %.12g worse than MDAV %.12g / V-MDAV %.12g", r.SSE, r.MDAV, r.VMDAV)
	}
}

// TestTinyBruteForce: on instances of n ≤ 12 (plain and box-stabilized
// master) the lower bound never exceeds the brute-force optimum, a
// converged run's bound is the master LP value, and a run reporting Exact
// returns an optimal clustering.
func TestTinyBruteForce(t *testing.T) {
	exactRuns := 0
	for seed := uint64(1); seed <= 24; seed++ {
		n := 8 + int(seed%5) // 8..12
		k := 2 + int(seed%3) // 2..4
		if 2*k > n {
			k = 2
		}
		z := randomData(t, n, 2+int(seed%3), seed)
		d := model.NewSqDist(z)
		opt := bruteForce(d, k)
		for _, o := range []Options{{Exact: ExactCE}, {Exact: ExactEP}, {Exact: ExactCE, NoClose: true}, {Exact: ExactCE, Stabilize: StabilizeBox}} {
			exact := o.Exact
			if o.NoClose {
				exact += "/no-close"
			}
			if o.Stabilize != "" {
				exact += "/" + o.Stabilize
			}
			r, err := Run(z, k, &o)
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, exact, err)
			}
			checkResult(t, z, k, r)
			if !r.Converged || r.Stopped != StopConverged {
				t.Fatalf("seed %d, %s: not converged (%s)", seed, exact, r.Stopped)
			}
			if r.LowerBound > opt+relTol(opt, r.LowerBound) {
				t.Fatalf("seed %d (n=%d k=%d), %s: lower bound %.12g above the optimum %.12g", seed, n, k, exact, r.LowerBound, opt)
			}
			if r.SSE < opt-relTol(opt, r.SSE) {
				t.Fatalf("seed %d: SSE %.12g below the optimum %.12g", seed, r.SSE, opt)
			}
			// With subset-row cuts in the master (the default), its last
			// value is the LP with the cuts, above the converged LP bound.
			if r.Cuts == 0 && math.Abs(r.LPBound-r.Master) > relTol(r.Master, r.LPBound) && r.LPBound < r.SSE {
				t.Fatalf("seed %d: converged LP bound %.12g is not the master value %.12g", seed, r.LPBound, r.Master)
			}
			if r.LPBound > r.LowerBound+relTol(r.LPBound, r.LowerBound) {
				t.Fatalf("seed %d: LP bound %.12g above the final bound %.12g", seed, r.LPBound, r.LowerBound)
			}
			if r.Closed && !r.Exact {
				t.Fatalf("seed %d, %s: closed but not exact (SSE %.12g, bound %.12g)", seed, exact, r.SSE, r.LowerBound)
			}
			if o.NoClose && (r.Closed || r.CloseStatus != "") {
				t.Fatalf("seed %d: NoClose ran the closing stage", seed)
			}
			if !o.NoClose && !r.Exact {
				t.Fatalf("seed %d (n=%d k=%d), %s: not exact after the gap-closing stage (%s)", seed, n, k, exact, r.CloseStatus)
			}
			if r.Exact {
				exactRuns++
				if math.Abs(r.SSE-opt) > relTol(opt, r.SSE) {
					t.Fatalf("seed %d, %s: reported exact with SSE %.12g, optimum %.12g", seed, exact, r.SSE, opt)
				}
			}
		}
	}
	if exactRuns == 0 {
		t.Fatal("no tiny instance was solved exactly; the test exercises nothing")
	}
	t.Logf("%d of 96 tiny runs exact", exactRuns)
}

// TestNoNegativeColumnAtTermination re-prices the final duals by complete
// enumeration for every size k..2k-1, and on n ≤ 12 by brute force over
// all groups.
func TestNoNegativeColumnAtTermination(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		n := []int{10, 12, 20, 30}[seed%4]
		k := 2 + int(seed%3)
		z := randomData(t, n, 3, 100+seed)
		// Without subset-row cuts: with them, the reduced costs at
		// termination include the cut terms (TestSubsetRowCutsExactPricing).
		r, err := Run(z, k, &Options{NoSubsetRowCuts: true})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, z, k, r)
		d := model.NewSqDist(z)
		for eta := k; eta <= 2*k-1 && eta <= n; eta++ {
			inst := &model.PricingInstance{Dist: d, Lambda: r.Duals, Eta: eta}
			res, err := enumerate.Solve(inst, &enumerate.Options{Threshold: -1e-7})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Columns) > 0 {
				t.Fatalf("seed %d n=%d k=%d: group %v of size %d has reduced cost %.3g at termination",
					seed, n, k, res.Columns[0].Members, eta, res.Columns[0].ReducedCost)
			}
			if n <= 12 {
				if m := bruteMinRC(d, r.Duals, eta); m < -1e-7 {
					t.Fatalf("seed %d: brute force finds reduced cost %.3g for size %d", seed, m, eta)
				}
			}
		}
	}
}

// bruteMinRC is the smallest reduced cost over all groups of size eta.
func bruteMinRC(d *model.SqDist, lambda []float64, eta int) float64 {
	best := math.Inf(1)
	g := make([]int, eta)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == eta {
			best = min(best, d.ReducedCost(lambda, g))
			return
		}
		for v := from; v <= d.N-(eta-pos); v++ {
			g[pos] = v
			rec(pos+1, v+1)
		}
	}
	rec(0, 0)
	return best
}

// TestPricingMethodsAgree: on random duals, complete enumeration, the
// pricing ILP (14) with and without triangle cuts, and brute force find the
// same minimum reduced cost; the greedy pricing never reports a column
// below it.
func TestPricingMethodsAgree(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		n := 9 + int(seed%4)
		z := randomData(t, n, 2, 200+seed)
		d := model.NewSqDist(z)
		r := rand.New(rand.NewPCG(seed, 11))
		lambda := make([]float64, n)
		for i := range lambda {
			lambda[i] = r.Float64() * 1.5
		}
		eta := 2 + int(seed%5)
		want := bruteMinRC(d, lambda, eta)
		inst := &model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}
		ce, err := enumerate.Solve(inst, &enumerate.Options{Threshold: math.Inf(1)})
		if err != nil {
			t.Fatal(err)
		}
		if len(ce.Columns) == 0 || math.Abs(ce.Columns[0].ReducedCost-want) > 1e-9 {
			t.Fatalf("seed %d: enumeration %v, brute force %.12g", seed, ce.Columns, want)
		}
		for _, cuts := range []bool{false, true} {
			ep, err := ip.SolveExactPricing(inst, &ip.PricingOptions{TriangleCuts: cuts})
			if err != nil {
				t.Fatal(err)
			}
			if !ep.Optimal || math.Abs(ep.Column.ReducedCost-want) > 1e-6 {
				t.Fatalf("seed %d, cuts %v: ILP %.12g (optimal %v), brute force %.12g", seed, cuts, ep.Column.ReducedCost, ep.Optimal, want)
			}
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case lambda[a] > lambda[b]:
				return -1
			case lambda[a] < lambda[b]:
				return 1
			}
			return 0
		})
		cols, late := heuristicPricing(d, lambda, eta, order, make([]float64, n), make([]bool, n), rcTolerance(lambda), time.Time{})
		if late {
			t.Fatalf("seed %d: greedy pricing late without a deadline", seed)
		}
		for _, c := range cols {
			if len(c.Members) != eta || c.ReducedCost < want-1e-9 || c.ReducedCost >= 0 {
				t.Fatalf("seed %d: greedy column %v rc %.12g (minimum %.12g)", seed, c.Members, c.ReducedCost, want)
			}
			if got := d.ReducedCost(lambda, c.Members); math.Abs(got-c.ReducedCost) > 1e-9 {
				t.Fatalf("seed %d: greedy column reports %.12g, recomputed %.12g", seed, c.ReducedCost, got)
			}
		}
	}
}

// TestEnginesAndPricingAgreeOnBound: the converged master LP value is
// unique, so every master engine and every exact pricing method must give
// the same lower bound (two engines on one model).
func TestEnginesAndPricingAgreeOnBound(t *testing.T) {
	z := randomData(t, 24, 3, 77)
	k := 3
	var ref float64
	first := true
	for _, lpName := range []string{"clp", "highs", "lpsolve"} {
		if _, _, err := solvers.Lookup(lpName); err != nil {
			t.Logf("%s unavailable: %v", lpName, err)
			continue
		}
		for _, exact := range []string{ExactCE, ExactEP, ExactTable2} {
			r, err := Run(z, k, &Options{LPSolver: lpName, Exact: exact})
			if err != nil {
				t.Fatalf("%s/%s: %v", lpName, exact, err)
			}
			checkResult(t, z, k, r)
			if !r.Converged {
				t.Fatalf("%s/%s: not converged", lpName, exact)
			}
			if first {
				ref, first = r.LowerBound, false
				continue
			}
			if math.Abs(r.LowerBound-ref) > 1e-6*math.Max(1, ref) {
				t.Fatalf("%s/%s: bound %.10g, first run %.10g", lpName, exact, r.LowerBound, ref)
			}
		}
	}
}

// TestLagrangianTerm: the term never exceeds Σ lb_η·y_η for any integer
// size profile of a partition (Σ η·y_η = n, y_η ≥ 0), checked by
// enumeration of the profiles.
func TestLagrangianTerm(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 300; trial++ {
		k := 2 + r.IntN(4)
		n := k + r.IntN(40)
		lb := make([]float64, k)
		for i := range lb {
			lb[i] = -r.Float64() * 3
			if r.IntN(3) == 0 {
				lb[i] = 0
			}
		}
		term := lagrangianTerm(n, k, lb)
		if term > 0 {
			t.Fatalf("positive term %g", term)
		}
		// Enumerate profiles.
		found := false
		var rec func(a, left int, acc float64)
		rec = func(a, left int, acc float64) {
			if a == k {
				if left == 0 {
					found = true
					if term > acc+1e-9 {
						t.Fatalf("n=%d k=%d lb=%v: term %g above the profile value %g", n, k, lb, term, acc)
					}
				}
				return
			}
			eta := k + a
			for y := 0; y*eta <= left; y++ {
				rec(a+1, left-y*eta, acc+float64(y)*lb[a])
			}
		}
		rec(0, n, 0)
		if !found {
			t.Fatalf("n=%d k=%d: no partition profile", n, k)
		}
	}
}

// TestRoundingGivesValidClusterings rounds random fractional points.
func TestRoundingGivesValidClusterings(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		n := 15 + int(seed%20)
		k := 2 + int(seed%4)
		z := randomData(t, n, 2, 300+seed)
		d := model.NewSqDist(z)
		r := rand.New(rand.NewPCG(seed, 3))
		var cols [][]int
		for c := 0; c < 40; c++ {
			sz := k + r.IntN(k)
			perm := r.Perm(n)[:sz]
			slices.Sort(perm)
			cols = append(cols, perm)
		}
		x := make([]float64, len(cols))
		for i := range x {
			if r.IntN(2) == 0 {
				x[i] = r.Float64()
			}
		}
		rd := newRounder(z, d, k)
		rc := make([]float64, len(cols))
		for i := range rc {
			rc[i] = r.Float64()
		}
		for name, g := range map[string][][]int{"srh": rd.simpleRounding(x, rc, cols), "msth": rd.mstRounding(x, cols)} {
			cl, err := model.NewClustering(n, g)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			if _, err := cl.CheckK(n, k); err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
		}
	}
}

// TestLimitsKeepAValidBound: a time limit or an iteration cap stops the
// run with a bound that is still below the optimum.
func TestLimitsKeepAValidBound(t *testing.T) {
	z := randomData(t, 12, 2, 901)
	d := model.NewSqDist(z)
	opt := bruteForce(d, 3)
	for _, o := range []*Options{{MaxIterations: 1}, {MaxIterations: 3}, {TimeLimit: time.Nanosecond},
		{CloseColumns: 1}, {CloseTimeLimit: time.Nanosecond}} {
		r, err := Run(z, 3, o)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, z, 3, r)
		if r.LowerBound > opt+relTol(opt, r.LowerBound) {
			t.Fatalf("%+v: bound %.12g above the optimum %.12g", o, r.LowerBound, opt)
		}
		if r.Converged && r.Stopped != StopConverged {
			t.Fatalf("inconsistent stop %q", r.Stopped)
		}
	}
	r, err := Run(z, 3, &Options{MaxIterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Iterations != 1 || (r.Stopped != StopIterLimit && r.Stopped != StopConverged) {
		t.Fatalf("MaxIterations 1: %d iterations, stopped %s", r.Iterations, r.Stopped)
	}
}

// TestDeterministic: two runs give the same clustering, bound and counts.
func TestDeterministic(t *testing.T) {
	z := randomData(t, 40, 3, 55)
	a, err := Run(z, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(z, 3, &Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Clustering.Group, b.Clustering.Group) || a.LowerBound != b.LowerBound || a.Iterations != b.Iterations || a.Columns != b.Columns {
		t.Fatalf("runs differ: %v/%v iterations, bounds %.12g/%.12g", a.Iterations, b.Iterations, a.LowerBound, b.LowerBound)
	}
}

// TestInitialClustering: a user clustering (here ICSM's) starts the
// master; the result is never worse than it.
func TestInitialClustering(t *testing.T) {
	z := randomData(t, 40, 3, 66)
	icsm, err := microagg.ICSM(z, 3, microagg.ICSMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(z, 3, &Options{Initial: []*model.Clustering{icsm.Clustering}, MaxIterations: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, z, 3, r)
	if r.SSE > icsm.SSE*(1+1e-12) {
		t.Fatalf("SSE %.12g worse than the initial %.12g", r.SSE, icsm.SSE)
	}
}

func TestBadInput(t *testing.T) {
	z := randomData(t, 10, 2, 1)
	for name, c := range map[string]struct {
		k   int
		opt *Options
	}{
		"k=1":          {1, nil},
		"k>n":          {11, nil},
		"exact":        {3, &Options{Exact: "nope"}},
		"stabilize":    {3, &Options{Stabilize: "nope"}},
		"initial size": {3, &Options{Initial: []*model.Clustering{{Group: []int{0}, NumGroups: 1}}}},
		"initial k":    {3, &Options{Initial: []*model.Clustering{{Group: []int{0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, NumGroups: 2}}}},
	} {
		if _, err := Run(z, c.k, c.opt); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", name, err)
		}
	}
	if _, err := Run(z, 3, &Options{LPSolver: "nosuch"}); !errors.Is(err, solvers.ErrUnknownSolver) {
		t.Errorf("unknown solver: err = %v", err)
	}
}

// TestPricingTooLargeUpFront: an exact pricing ILP that would exceed
// ip.MaxPricingNonzeros is refused before any work (a Census-sized run,
// 1080 records, used to work for seconds and then fail in the pricing),
// and the table2 rule is refused only where it picks the ILP.
func TestPricingTooLargeUpFront(t *testing.T) {
	z := randomData(t, 300, 2, 1) // 300 records: 300·299/2·599 ≈ 2.7e7 nonzeros for size >= 3
	for _, c := range []struct {
		exact string
		k     int
		want  bool
	}{
		{ExactEP, 4, true},
		{ExactTable2, 4, true},  // size 7 uses the ILP
		{ExactTable2, 3, false}, // sizes 3..5: enumeration
	} {
		err := checkExactPricingSize(z.N, c.k, c.exact)
		if got := err != nil; got != c.want {
			t.Errorf("%s k=%d: err = %v, want an error: %v", c.exact, c.k, err, c.want)
		}
		if c.want && (!errors.Is(err, ip.ErrPricingTooLarge) || !errors.Is(err, ErrInput)) {
			t.Errorf("%s k=%d: err = %v, want ErrPricingTooLarge and ErrInput", c.exact, c.k, err)
		}
	}
	start := time.Now()
	_, err := Run(z, 4, &Options{Exact: ExactEP, TimeLimit: 30 * time.Second})
	if !errors.Is(err, ip.ErrPricingTooLarge) {
		t.Fatalf("Run: err = %v, want ErrPricingTooLarge", err)
	}
	if s := time.Since(start); s > 2*time.Second {
		t.Errorf("Run took %v before refusing (want an immediate refusal)", s)
	}
}

// TestCensusSubsets runs the paper's setting on subsets of 30 records of
// Census and Tarragona (the first rows of Tables 3 and 4): the bound is
// below every heuristic's SSE and the best gap is never above MDAV's.
func TestCensusSubsets(t *testing.T) {
	for _, data := range []string{"census", "tarragona"} {
		raw := loadCASC(t, data)
		for _, crit := range datasets.SubsetCriteria() {
			for k := 3; k <= 5; k++ {
				sub, _, err := datasets.Subset(raw, crit, 30, 1)
				if err != nil {
					t.Fatal(err)
				}
				z, _ := model.Standardize(sub)
				r, err := Run(z, k, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkResult(t, z, k, r)
				if !r.Converged {
					t.Fatalf("%s %s k=%d: not converged", data, crit, k)
				}
				if r.Gap(r.SSE) > r.Gap(r.MDAV) {
					t.Fatalf("%s %s k=%d: best gap %.2f above MDAV's %.2f", data, crit, k, r.Gap(r.SSE), r.Gap(r.MDAV))
				}
			}
		}
	}
}

// TestGapPercent: formula (15) of Gentile, Spagnolo-Arrizabalaga & Castro,
// 100·(SSE_H − SSE_MP)/SSE_H, with its edge cases.
func TestGapPercent(t *testing.T) {
	if g := GapPercent(10, 9); math.Abs(g-10) > 1e-12 {
		t.Errorf("GapPercent(10, 9) = %g, want 10", g)
	}
	if g := GapPercent(0, 0); g != 0 {
		t.Errorf("zero SSE: %g, want 0", g)
	}
	if g := GapPercent(math.Inf(1), 1); !math.IsNaN(g) {
		t.Errorf("missing SSE: %g, want NaN", g)
	}
}
