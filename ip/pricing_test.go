package ip_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// pricingInstance returns n seeded points in d = 3 dimensions (standard
// normal coordinates) and seeded duals uniform in [-0.5, lamMax).
func pricingInstance(seed uint64, n, eta int, lamMax float64) *model.PricingInstance {
	r := rand.New(rand.NewPCG(seed, 0x9e1c))
	const d = 3
	x := make([]float64, n*d)
	for k := range x {
		x[k] = r.NormFloat64()
	}
	ds, err := model.NewDataset(nil, n, d, x)
	if err != nil {
		panic(err)
	}
	lam := make([]float64, n)
	for v := range lam {
		lam[v] = -0.5 + (lamMax+0.5)*r.Float64()
	}
	return &model.PricingInstance{Dist: model.NewSqDist(ds), Lambda: lam, Eta: eta}
}

// bruteForce is the minimum reduced cost over all subsets of size η,
// enumerated as combinations in lexicographic order.
func bruteForce(p *model.PricingInstance) (best float64, arg []int) {
	n, eta := p.Dist.N, p.Eta
	c := make([]int, eta)
	for k := range c {
		c[k] = k
	}
	best = math.Inf(1)
	for {
		if v := p.Dist.ReducedCost(p.Lambda, c); v < best {
			best, arg = v, append([]int(nil), c...)
		}
		k := eta - 1
		for k >= 0 && c[k] == n-eta+k {
			k--
		}
		if k < 0 {
			return best, arg
		}
		c[k]++
		for m := k + 1; m < eta; m++ {
			c[m] = c[m-1] + 1
		}
	}
}

// mipEngines lists the available MIP engines among highs, cbc and
// lpsolve; highs is required.
func mipEngines(t testing.TB) []string {
	var names []string
	highs := false
	for _, e := range solvers.List() {
		if !e.Available || !e.Capabilities.Integer {
			continue
		}
		switch e.Name {
		case "highs":
			highs = true
			names = append(names, e.Name)
		case "cbc", "lpsolve":
			names = append(names, e.Name)
		}
	}
	if !highs {
		t.Fatalf("the highs engine is not available (run make deps)")
	}
	return names
}

func tol(v float64) float64 { return 1e-6 * math.Max(1, math.Abs(v)) }

// TestExactPricingBruteForce checks SolveExactPricing against complete
// enumeration on small seeded instances, on every MIP engine, with and
// without triangle cuts.
func TestExactPricingBruteForce(t *testing.T) {
	type cas struct {
		seed   uint64
		n      int
		lamMax float64
	}
	cases := []cas{{1, 5, 2}, {2, 7, 2}, {3, 8, 4}, {4, 8, 1}}
	if !testing.Short() {
		cases = append(cases, cas{5, 10, 3}, cas{6, 12, 2}, cas{7, 12, 6})
	}
	engines := mipEngines(t)
	cutsSeen := 0
	for _, c := range cases {
		for eta := 2; eta <= min(6, c.n); eta++ {
			p := pricingInstance(c.seed, c.n, eta, c.lamMax)
			want, _ := bruteForce(p)
			for _, eng := range engines {
				for _, cuts := range []bool{false, true} {
					name := fmt.Sprintf("seed%d/n%d/eta%d/%s/cuts=%v", c.seed, c.n, eta, eng, cuts)
					res, err := ip.SolveExactPricing(p, &ip.PricingOptions{Solver: eng, TriangleCuts: cuts})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !res.Found || !res.Optimal {
						t.Fatalf("%s: found %v, optimal %v (status %v)", name, res.Found, res.Optimal, res.Status)
					}
					if res.Solver != eng {
						t.Errorf("%s: solved by %q", name, res.Solver)
					}
					m := res.Column.Members
					if len(m) != eta || !slices.IsSorted(m) || m[0] < 0 || m[eta-1] >= c.n || len(slices.Compact(slices.Clone(m))) != eta {
						t.Fatalf("%s: members %v are not %d ascending distinct records", name, m, eta)
					}
					if got := p.Dist.ReducedCost(p.Lambda, m); got != res.Column.ReducedCost {
						t.Errorf("%s: reported reduced cost %v, recomputed %v", name, res.Column.ReducedCost, got)
					}
					if math.Abs(res.Column.ReducedCost-want) > tol(want) {
						t.Errorf("%s: reduced cost %.12g, brute force %.12g", name, res.Column.ReducedCost, want)
					}
					if math.IsNaN(res.BestBound) || res.BestBound > want+tol(want) {
						t.Errorf("%s: best bound %v above the optimum %v", name, res.BestBound, want)
					}
					if cuts && eta >= 3 {
						if math.IsNaN(res.LPBound) || res.LPBound > want+tol(want) {
							t.Errorf("%s: LP bound with cuts %v, optimum %v", name, res.LPBound, want)
						}
						if res.Cuts > 0 {
							cutsSeen++
						}
					} else if res.Cuts != 0 || !math.IsNaN(res.LPBound) {
						t.Errorf("%s: %d cuts, LP bound %v without a cut loop", name, res.Cuts, res.LPBound)
					}
				}
			}
		}
	}
	// The relaxation of (14) is fractional on these instances, so the loop
	// must have found violated triangles somewhere.
	if cutsSeen == 0 {
		t.Errorf("the triangle-cut loop never added a cut")
	}
	t.Logf("engines %v; %d solves with cuts added", engines, cutsSeen)
}

// TestExactPricingManyCutRounds runs the cut loop with a small cap per
// round (so that it takes many rounds) on seeded instances whose LP
// relaxation is often fractional, and checks the optimum against brute
// force on every engine.
func TestExactPricingManyCutRounds(t *testing.T) {
	seeds := uint64(12)
	if testing.Short() {
		seeds = 4
	}
	engines := mipEngines(t)
	withCuts, rounds := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		for eta := 3; eta <= 6; eta++ {
			p := pricingInstance(100+seed, 10, eta, float64(seed%4+1))
			want, _ := bruteForce(p)
			for _, eng := range engines {
				res, err := ip.SolveExactPricing(p, &ip.PricingOptions{Solver: eng, TriangleCuts: true, CutRounds: 8, MaxCutsPerRound: 2})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Optimal || math.Abs(res.Column.ReducedCost-want) > tol(want) {
					t.Errorf("seed %d eta %d %s: optimal %v, %v, brute force %v", seed, eta, eng, res.Optimal, res.Column.ReducedCost, want)
				}
				if res.Cuts > 2*8 {
					t.Errorf("seed %d eta %d %s: %d cuts beyond 8 rounds of 2", seed, eta, eng, res.Cuts)
				}
				if res.LPBound > want+tol(want) || res.BestBound > want+tol(want) {
					t.Errorf("seed %d eta %d %s: bounds %v, %v above the optimum %v", seed, eta, eng, res.LPBound, res.BestBound, want)
				}
				if res.Cuts > 0 {
					withCuts++
				}
				if res.Cuts > 2 {
					rounds++
				}
			}
		}
	}
	if withCuts == 0 || rounds == 0 {
		t.Errorf("%d solves with cuts, %d with more than one round: the loop was not exercised", withCuts, rounds)
	}
	t.Logf("%d solves with cuts, %d with more than one round", withCuts, rounds)
}

// TestTriangleCutsTighten checks that the cut loop's LP bound lies between
// the plain LP relaxation of (14) and the integer optimum, and is strictly
// above the plain relaxation on an instance where that is fractional.
func TestTriangleCutsTighten(t *testing.T) {
	tightened := false
	for seed := uint64(1); seed <= 4; seed++ {
		p := pricingInstance(seed, 9, 4, 2)
		want, _ := bruteForce(p)
		q, err := ip.PricingProblem(p)
		if err != nil {
			t.Fatal(err)
		}
		relax := q.Clone()
		relax.ColType = nil
		lp, err := solvers.Solve("", relax, nil)
		if err != nil {
			t.Fatal(err)
		}
		if lp.Status != solvers.Optimal {
			t.Fatalf("seed %d: LP relaxation status %v", seed, lp.Status)
		}
		res, err := ip.SolveExactPricing(p, &ip.PricingOptions{TriangleCuts: true, CutRounds: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.LPBound < lp.Objective-tol(lp.Objective) || res.LPBound > want+tol(want) {
			t.Errorf("seed %d: LP %v ≤ cut LP %v ≤ optimum %v violated", seed, lp.Objective, res.LPBound, want)
		}
		if res.LPBound > lp.Objective+1e-4 {
			tightened = true
		}
		if math.Abs(res.Column.ReducedCost-want) > tol(want) {
			t.Errorf("seed %d: optimum %v, brute force %v", seed, res.Column.ReducedCost, want)
		}
	}
	if !tightened {
		t.Errorf("triangle cuts never raised the LP bound")
	}
}

// isClique reports whether the edges with z = 1 form a clique of eta
// records, and returns its records.
func isClique(n, eta int, z []float64) (bool, []int) {
	in := make([]bool, n)
	edges, k := 0, 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if z[k] == 1 {
				edges++
				in[i], in[j] = true, true
			}
			k++
		}
	}
	var m []int
	for v, ok := range in {
		if ok {
			m = append(m, v)
		}
	}
	if len(m) != eta {
		return false, nil
	}
	// Complete on m?
	k = 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if in[i] && in[j] && z[k] != 1 {
				return false, nil
			}
			k++
		}
	}
	return true, m
}

// TestProposition42 enumerates every binary z on n = 5 records (2^10
// vectors) and checks Proposition 4.2 of the paper: the feasible points of
// (14) are exactly the cliques of size η; their objective is the group's
// reduced cost; DecodePricing accepts exactly them.
func TestProposition42(t *testing.T) {
	const n = 5
	ne := n * (n - 1) / 2
	for eta := 2; eta <= n; eta++ {
		p := pricingInstance(42, n, eta, 2)
		q, err := ip.PricingProblem(p)
		if err != nil {
			t.Fatal(err)
		}
		feasible := 0
		z := make([]float64, ne)
		for mask := 0; mask < 1<<ne; mask++ {
			for k := range z {
				z[k] = float64(mask >> k & 1)
			}
			ax := q.RowActivity(z)
			ok := true
			for i, a := range ax {
				if a < q.RowLower[i]-1e-9 || a > q.RowUpper[i]+1e-9 {
					ok = false
					break
				}
			}
			clique, members := isClique(n, eta, z)
			if ok != clique {
				t.Fatalf("eta %d, z %010b: feasible for (14) %v, clique of size η %v", eta, mask, ok, clique)
			}
			dec, derr := ip.DecodePricing(p, z)
			if clique != (derr == nil) {
				t.Fatalf("eta %d, z %010b: clique %v, DecodePricing error %v", eta, mask, clique, derr)
			}
			if !ok {
				if !errors.Is(derr, ip.ErrNotClique) {
					t.Errorf("eta %d, z %010b: error %v does not wrap ErrNotClique", eta, mask, derr)
				}
				continue
			}
			feasible++
			if !slices.Equal(dec, members) {
				t.Errorf("eta %d: decoded %v, want %v", eta, dec, members)
			}
			want := p.Dist.ReducedCost(p.Lambda, members)
			if got := q.ObjectiveValue(z); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("eta %d, clique %v: objective %v, reduced cost %v", eta, members, got, want)
			}
		}
		// C(5, η) cliques.
		if want := binom(n, eta); feasible != want {
			t.Errorf("eta %d: %d feasible points, want C(5,%d) = %d", eta, feasible, eta, want)
		}
	}
}

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// TestPaperExample is the example of Section 4.2: for n = 6 and η = 3 the
// edges (1,2), (3,4), (5,6) satisfy the fixed size constraint and every
// triangle inequality, but not the node-to-node inequalities (for
// instance for i = 1, j = 2), so (14) excludes them.
func TestPaperExample(t *testing.T) {
	p := pricingInstance(6, 6, 3, 1)
	q, err := ip.PricingProblem(p)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float64, q.NumCols())
	for j := range z {
		a, b, err := ip.ParseEdgeName(q.ColName(j))
		if err != nil {
			t.Fatal(err)
		}
		if (a == 0 && b == 1) || (a == 2 && b == 3) || (a == 4 && b == 5) {
			z[j] = 1
		}
	}
	ax := q.RowActivity(z)
	if len(ax) != 1+6*5 {
		t.Fatalf("%d rows, want 31", len(ax))
	}
	if ax[0] != 3 {
		t.Fatalf("size row %v, want 3", ax[0])
	}
	// Node-to-node row (0, 1) (the paper's i = 1, j = 2) is row 1.
	if q.RowName(1) != "n2n_0_1" || ax[1] >= 0 {
		t.Errorf("row %s = %v, want n2n_0_1 < 0", q.RowName(1), ax[1])
	}
	if _, err := ip.DecodePricing(p, z); !errors.Is(err, ip.ErrNotClique) {
		t.Errorf("DecodePricing accepted three disjoint edges: %v", err)
	}
}

// TestPricingProblemShape checks sizes, names and the column order of (14).
func TestPricingProblemShape(t *testing.T) {
	for _, c := range []struct{ n, eta int }{{2, 2}, {6, 2}, {6, 3}, {7, 5}, {4, 4}} {
		p := pricingInstance(3, c.n, c.eta, 1)
		q, err := ip.PricingProblem(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Validate(); err != nil {
			t.Fatal(err)
		}
		ne := c.n * (c.n - 1) / 2
		rows, nnz := 1, ne
		if c.eta > 2 {
			rows += c.n * (c.n - 1)
			nnz = ne * (2*c.n - 1)
		}
		if q.NumCols() != ne || q.NumRows() != rows || q.NumNonzeros() != nnz {
			t.Errorf("n %d eta %d: %d cols %d rows %d nonzeros, want %d %d %d", c.n, c.eta, q.NumCols(), q.NumRows(), q.NumNonzeros(), ne, rows, nnz)
		}
		k := 0
		for i := 0; i < c.n; i++ {
			for j := i + 1; j < c.n; j++ {
				a, b, err := ip.ParseEdgeName(q.ColName(k))
				if err != nil || a != i || b != j {
					t.Errorf("column %d named %q, want edge (%d,%d)", k, q.ColName(k), i, j)
				}
				want := p.Dist.At(i, j)/float64(c.eta) - (p.Lambda[i]+p.Lambda[j])/float64(c.eta-1)
				if math.Abs(q.Obj[k]-want) > 1e-12 {
					t.Errorf("column %d cost %v, want %v", k, q.Obj[k], want)
				}
				if q.Type(k) != solvers.Binary {
					t.Errorf("column %d is %v", k, q.Type(k))
				}
				k++
			}
		}
	}
	for _, bad := range []string{"z_1", "x_0_1", "z_2_1", "z_a_1", "z_-1_2"} {
		if _, _, err := ip.ParseEdgeName(bad); err == nil {
			t.Errorf("ParseEdgeName(%q) accepted", bad)
		}
	}
}

// TestPricingBadInput checks that malformed instances and options return
// errors.
func TestPricingBadInput(t *testing.T) {
	good := pricingInstance(1, 6, 3, 1)
	nanLam := pricingInstance(1, 6, 3, 1)
	nanLam.Lambda[2] = math.NaN()
	nanDist := pricingInstance(1, 6, 3, 1)
	nanDist.Dist = &model.SqDist{N: 6, D: slices.Clone(good.Dist.D)}
	nanDist.Dist.D[7] = math.Inf(1)
	bad := map[string]*model.PricingInstance{
		"nil":          nil,
		"nil dist":     {Lambda: good.Lambda, Eta: 3},
		"short lambda": {Dist: good.Dist, Lambda: good.Lambda[:5], Eta: 3},
		"eta 0":        {Dist: good.Dist, Lambda: good.Lambda, Eta: 0},
		"eta 1":        {Dist: good.Dist, Lambda: good.Lambda, Eta: 1},
		"eta > n":      {Dist: good.Dist, Lambda: good.Lambda, Eta: 7},
		"bad matrix":   {Dist: &model.SqDist{N: 6, D: good.Dist.D[:30]}, Lambda: good.Lambda, Eta: 3},
		"nan lambda":   nanLam,
		"inf distance": nanDist,
	}
	for name, p := range bad {
		if _, err := ip.PricingProblem(p); err == nil {
			t.Errorf("%s: PricingProblem accepted", name)
		}
		if _, err := ip.SolveExactPricing(p, nil); err == nil {
			t.Errorf("%s: SolveExactPricing accepted", name)
		}
		if name != "nan lambda" && name != "inf distance" {
			if _, err := ip.DecodePricing(p, make([]float64, 15)); err == nil {
				t.Errorf("%s: DecodePricing accepted", name)
			}
		}
	}
	// Too large: n = 250, η = 3 needs 15.5 million nonzeros; η = 2 only
	// the size row.
	big := &model.PricingInstance{Dist: &model.SqDist{N: 250, D: make([]float64, 250*250)}, Lambda: make([]float64, 250), Eta: 3}
	if _, err := ip.PricingProblem(big); !errors.Is(err, ip.ErrPricingTooLarge) {
		t.Errorf("n 250 eta 3: error %v, want ErrPricingTooLarge", err)
	}
	if _, err := ip.SolveExactPricing(big, nil); !errors.Is(err, ip.ErrPricingTooLarge) {
		t.Errorf("n 250 eta 3: SolveExactPricing error %v, want ErrPricingTooLarge", err)
	}
	big.Eta = 2
	if q, err := ip.PricingProblem(big); err != nil || q.NumRows() != 1 {
		t.Errorf("n 250 eta 2: %v", err)
	}
	// DecodePricing: wrong length, non-binary values, a non-clique.
	if _, err := ip.DecodePricing(good, make([]float64, 14)); err == nil {
		t.Errorf("DecodePricing accepted 14 values for 15 edges")
	}
	half := make([]float64, 15)
	half[0], half[1], half[5] = 0.5, 1, 1
	if _, err := ip.DecodePricing(good, half); err == nil {
		t.Errorf("DecodePricing accepted a fractional z")
	}
	path := make([]float64, 15) // edges (0,1), (1,2), (2,3): not a clique
	path[0], path[5], path[9] = 1, 1, 1
	if _, err := ip.DecodePricing(good, path); !errors.Is(err, ip.ErrNotClique) {
		t.Errorf("DecodePricing on a path: %v", err)
	}
	tri := make([]float64, 15) // edges (0,1), (0,2), (1,2)
	tri[0], tri[1], tri[5] = 1, 1, 1
	if m, err := ip.DecodePricing(good, tri); err != nil || !slices.Equal(m, []int{0, 1, 2}) {
		t.Errorf("DecodePricing on the triangle {0,1,2}: %v %v", m, err)
	}
	// Engines: unknown name, an LP-only engine.
	if _, err := ip.SolveExactPricing(good, &ip.PricingOptions{Solver: "nosuch"}); !errors.Is(err, solvers.ErrUnknownSolver) {
		t.Errorf("unknown solver: %v", err)
	}
	if e, _, err := solvers.Lookup("clp"); err == nil && !e.Caps.Integer {
		if _, err := ip.SolveExactPricing(good, &ip.PricingOptions{Solver: "clp"}); err == nil {
			t.Errorf("the LP-only engine clp was accepted for the MIP")
		}
	}
	if _, err := ip.SolveExactPricing(good, &ip.PricingOptions{TriangleCuts: true, LPSolver: "nosuch"}); err == nil {
		t.Errorf("unknown LP solver accepted")
	}
}

// TestExactPricingDeterministic: the same instance gives the same column.
func TestExactPricingDeterministic(t *testing.T) {
	p := pricingInstance(11, 10, 4, 3)
	a, err := ip.SolveExactPricing(p, &ip.PricingOptions{TriangleCuts: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ip.SolveExactPricing(p, &ip.PricingOptions{TriangleCuts: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Column.Members, b.Column.Members) || a.Cuts != b.Cuts {
		t.Errorf("two runs: %v (%d cuts) and %v (%d cuts)", a.Column.Members, a.Cuts, b.Column.Members, b.Cuts)
	}
}
