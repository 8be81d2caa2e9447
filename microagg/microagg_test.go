package microagg

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// sameTol is the relative tolerance for two computations of one SSE that
// differ only in the order of floating-point operations.
const sameTol = 1e-9

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkSizes verifies that c covers the n records of z and that every
// group has lo..hi records, except at most `extra` groups that may be
// larger than hi.
func checkSizes(t *testing.T, name string, c *model.Clustering, n, k, lo, hi, extra int) {
	t.Helper()
	if _, err := c.CheckK(n, k); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	over := 0
	for g, s := range c.Sizes() {
		if s < lo {
			t.Fatalf("%s: group %d has %d records, want >= %d", name, g, s, lo)
		}
		if s > hi {
			over++
		}
	}
	if over > extra {
		t.Fatalf("%s: %d groups larger than %d records, want at most %d", name, over, hi, extra)
	}
}

func TestBadInput(t *testing.T) {
	z := uniformData(10, 2, 1)
	one := uniformData(10, 1, 2)
	nan := &model.Dataset{Names: []string{"a"}, N: 3, D: 1, X: []float64{1, math.NaN(), 2}}
	inf := &model.Dataset{Names: []string{"a"}, N: 3, D: 1, X: []float64{1, math.Inf(1), 2}}
	empty := &model.Dataset{Names: []string{"a"}, N: 0, D: 1}
	noAttr := &model.Dataset{N: 5, D: 0}
	for _, m := range Methods() {
		data := z
		if m == MethodUnivariate {
			data = one
		}
		cases := []struct {
			name string
			z    *model.Dataset
			k    int
			want error
		}{
			{"k=1", data, 1, ErrK},
			{"k=0", data, 0, ErrK},
			{"k>n", data, 11, ErrK},
			{"empty", empty, 2, ErrEmpty},
			{"no attributes", noAttr, 2, ErrNoAttributes},
			{"NaN", nan, 2, ErrNonFinite},
			{"Inf", inf, 2, ErrNonFinite},
		}
		for _, c := range cases {
			cl, err := Run(m, c.z, c.k, Options{})
			if !errors.Is(err, c.want) || cl != nil {
				t.Errorf("%s, %s: got (%v, %v), want error %v", m, c.name, cl, err, c.want)
			}
		}
	}
	if _, err := Run("kmeans", z, 3, Options{}); !errors.Is(err, ErrMethod) {
		t.Errorf("unknown method: got %v", err)
	}
	if _, err := Run(MethodUnivariate, z, 3, Options{}); !errors.Is(err, ErrNotUnivariate) {
		t.Errorf("univariate on 2 attributes: got %v", err)
	}
	for _, g := range []float64{-0.5, math.NaN(), math.Inf(1)} {
		if _, err := VMDAV(z, 3, g); !errors.Is(err, ErrGamma) {
			t.Errorf("gamma %v: got %v", g, err)
		}
	}
}

// TestConstantData checks that data without any spread (every record the
// same, so every distance ties) is still partitioned validly.
func TestConstantData(t *testing.T) {
	x := make([]float64, 40*3)
	for i := range x {
		x[i] = 7
	}
	z, _ := model.NewDataset(nil, 40, 3, x)
	for _, m := range []string{MethodMDAV, MethodVMDAV, MethodProjection} {
		c, err := Run(m, z, 4, Options{Gamma: 1.1})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		checkSizes(t, m, c, 40, 4, 4, 7, 1)
		if s := model.SSE(z, c); s != 0 {
			t.Errorf("%s: SSE %v on constant data", m, s)
		}
	}
}

// TestProperties runs every method on seeded random data sets of varied
// shape and checks the group sizes and the reported SSE.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 17))
	trials := 200
	if testing.Short() {
		trials = 40
	}
	for trial := 0; trial < trials; trial++ {
		k := 2 + r.IntN(5)
		n := k + r.IntN(150)
		d := 1 + r.IntN(5)
		var z *model.Dataset
		if trial%2 == 0 {
			z = uniformData(n, d, uint64(trial))
		} else {
			z = gaussianClusters(n, d, 1+r.IntN(6), uint64(trial))
		}

		mdav, err := MDAV(z, k)
		if err != nil {
			t.Fatal(err)
		}
		// MDAV: groups of exactly k records, the last one k..2k-1.
		checkSizes(t, "mdav", mdav, n, k, k, k, 1)
		checkSizes(t, "mdav", mdav, n, k, k, 2*k-1, 0)

		for _, g := range []float64{0, 0.2, 1.1, 3} {
			v, err := VMDAV(z, k, g)
			if err != nil {
				t.Fatal(err)
			}
			// Groups of k..2k-1; those that absorbed the last < k
			// records may be larger.
			checkSizes(t, "vmdav", v, n, k, k, 2*k-1, k-1)
			if g == 0 {
				checkSizes(t, "vmdav γ=0", v, n, k, k, k, k-1)
			}
		}

		order := r.Perm(n)
		c, sse, err := PartitionSequence(z, order, k)
		if err != nil {
			t.Fatal(err)
		}
		checkSizes(t, "sequence", c, n, k, k, 2*k-1, 0)
		if got := model.SSE(z, c); relDiff(got, sse) > sameTol {
			t.Fatalf("trial %d: PartitionSequence reports SSE %v, recomputed %v", trial, sse, got)
		}
		// Consecutive: the groups follow the order.
		for p := 1; p < n; p++ {
			if g0, g1 := c.Group[order[p-1]], c.Group[order[p]]; g1 != g0 && g1 != g0+1 {
				t.Fatalf("trial %d: groups not consecutive along the order", trial)
			}
		}

		proj, err := Projection(z, k)
		if err != nil {
			t.Fatal(err)
		}
		checkSizes(t, "projection", proj, n, k, k, 2*k-1, 0)

		if d == 1 {
			u, err := OptimalUnivariate(z, k)
			if err != nil {
				t.Fatal(err)
			}
			checkSizes(t, "univariate", u, n, k, k, 2*k-1, 0)
			opt := model.SSE(z, u)
			for name, other := range map[string]*model.Clustering{"mdav": mdav, "projection": proj, "sequence": c} {
				if s := model.SSE(z, other); s < opt*(1-sameTol)-1e-12 {
					t.Fatalf("trial %d: %s SSE %v below the univariate optimum %v", trial, name, s, opt)
				}
			}
			// On one attribute the projection is the sorted order itself.
			if s := model.SSE(z, proj); relDiff(s, opt) > sameTol {
				t.Fatalf("trial %d: projection SSE %v, univariate optimum %v", trial, s, opt)
			}
		}
	}
}

// bruteForceSSE returns the least SSE over all partitions of the records
// of z into groups of at least k records (exhaustive; n <= 10).
func bruteForceSSE(z *model.Dataset, k int) float64 {
	n := z.N
	label := make([]int, n)
	best := math.Inf(1)
	var rec func(i, ng int)
	rec = func(i, ng int) {
		if i == n {
			sizes := make([]int, ng)
			for _, g := range label {
				sizes[g]++
			}
			for _, s := range sizes {
				if s < k {
					return
				}
			}
			if s := model.SSE(z, &model.Clustering{Group: label, NumGroups: ng}); s < best {
				best = s
			}
			return
		}
		for g := 0; g <= ng && g < n/k; g++ {
			label[i] = g
			next := ng
			if g == ng {
				next++
			}
			rec(i+1, next)
		}
	}
	rec(0, 0)
	return best
}

// TestUnivariateBruteForce compares OptimalUnivariate with the optimum
// over all partitions (Hansen & Mukherjee's theorem: an optimal univariate
// partition consists of consecutive groups of k..2k-1 sorted values).
func TestUnivariateBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	trials := 60
	if testing.Short() {
		trials = 15
	}
	for trial := 0; trial < trials; trial++ {
		n := 2 + r.IntN(9) // 2..10
		k := 2 + r.IntN(min(3, n-1))
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Round(r.NormFloat64()*100) / 10 // ties happen
		}
		z, _ := model.NewDataset(nil, n, 1, x)
		c, err := OptimalUnivariate(z, k)
		if err != nil {
			t.Fatal(err)
		}
		got, want := model.SSE(z, c), bruteForceSSE(z, k)
		if math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Fatalf("n=%d k=%d x=%v: SSE %v, brute-force optimum %v", n, k, x, got, want)
		}
	}
}

// referenceMDAV is a direct transcription of MDAV as stated in
// ../shared/datasets/README.md, section 2 (full passes, fresh centroids,
// full sorts; s chosen before removing r's group), for checking the fast
// implementation.
func referenceMDAV(z *model.Dataset, k int) []int {
	n, d := z.N, z.D
	label := make([]int, n)
	rem := make([]int, n)
	for i := range rem {
		rem[i] = i
	}
	ng := 0
	centroid := func() []float64 {
		c := make([]float64, d)
		for _, i := range rem {
			for j, v := range z.Row(i) {
				c[j] += v
			}
		}
		for j := range c {
			c[j] /= float64(len(rem))
		}
		return c
	}
	farthest := func(c []float64) int {
		best, bd := -1, -1.0
		for _, i := range rem {
			if dd := sqDist(z.Row(i), c); dd > bd {
				best, bd = i, dd
			}
		}
		return best
	}
	group := func(r int) {
		c := z.Row(r)
		others := slices.DeleteFunc(slices.Clone(rem), func(i int) bool { return i == r })
		slices.SortStableFunc(others, func(a, b int) int {
			da, db := sqDist(z.Row(a), c), sqDist(z.Row(b), c)
			switch {
			case da < db:
				return -1
			case da > db:
				return 1
			}
			return 0
		})
		members := append([]int{r}, others[:k-1]...)
		for _, i := range members {
			label[i] = ng
		}
		ng++
		rem = slices.DeleteFunc(rem, func(i int) bool { return slices.Contains(members, i) })
	}
	for len(rem) >= 3*k {
		r := farthest(centroid())
		s := farthest(z.Row(r))
		group(r)
		group(s)
	}
	if len(rem) >= 2*k {
		group(farthest(centroid()))
	}
	for _, i := range rem {
		label[i] = ng
	}
	return label
}

func canonical(t *testing.T, labels []int) []int {
	c, err := model.FromLabels(labels)
	if err != nil {
		t.Fatal(err)
	}
	return c.Group
}

// TestMDAVReference checks the fast MDAV (compact pool, lazy farthest
// search, early-exit distances, two-goroutine passes) against the direct
// transcription, on data without distance ties, in sequential and forced
// parallel mode.
func TestMDAVReference(t *testing.T) {
	sizes := []int{7, 30, 200, 1200}
	if !testing.Short() {
		sizes = append(sizes, 3000)
	}
	for _, n := range sizes {
		for _, k := range []int{2, 3, 5} {
			if k > n {
				continue
			}
			z := gaussianClusters(n, 4, 5, uint64(n*10+k))
			want := canonical(t, referenceMDAV(z, k))
			for _, par := range []bool{false, true} {
				m := newMDAV(z, k)
				m.p.parallel, m.p.minPar = par, 0
				got := canonical(t, m.run().Group)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d k=%d parallel=%v: partition differs from the reference MDAV", n, k, par)
				}
			}
		}
	}
}

// TestMDAVLazyFarthest exercises the list of records farthest from c0 on
// a pool larger than 4·mdavTop, where it is used, against full passes.
func TestMDAVLazyFarthest(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	z := uniformData(2500, 6, 77)
	want := canonical(t, referenceMDAV(z, 3))
	got := canonical(t, mustMDAV(t, z, 3).Group)
	if !slices.Equal(got, want) {
		t.Fatal("partition differs from the reference MDAV")
	}
}

func mustMDAV(t *testing.T, z *model.Dataset, k int) *model.Clustering {
	t.Helper()
	c, err := MDAV(z, k)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMDAVPermutation checks that MDAV's partition does not depend on the
// order of the records (on data without distance ties), as observed on
// the CASC files (../shared/datasets/README.md, section 2).
func TestMDAVPermutation(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 5; trial++ {
		z := gaussianClusters(500+trial*300, 5, 4, uint64(100+trial))
		k := 3 + trial%3
		base := mustMDAV(t, z, k)
		perm := r.Perm(z.N)
		pz := &model.Dataset{Names: z.Names, N: z.N, D: z.D, X: make([]float64, len(z.X))}
		for p, i := range perm {
			copy(pz.Row(p), z.Row(i))
		}
		pc := mustMDAV(t, pz, k)
		back := make([]int, z.N)
		for p, i := range perm {
			back[i] = pc.Group[p]
		}
		if !slices.Equal(canonical(t, back), canonical(t, base.Group)) {
			t.Fatalf("trial %d: MDAV partition changes under a permutation of the records", trial)
		}
	}
}

// TestParallelDeterminism checks that the two-goroutine passes give the
// same partition as sequential ones, for MDAV and V-MDAV.
func TestParallelDeterminism(t *testing.T) {
	z := gaussianClusters(3000, 6, 8, 42)
	var groups [2][]int
	for i, par := range []bool{false, true} {
		m := newMDAV(z, 3)
		m.p.parallel, m.p.minPar = par, 100
		groups[i] = m.run().Group
	}
	if !slices.Equal(groups[0], groups[1]) {
		t.Fatal("MDAV: parallel and sequential partitions differ")
	}
	for i, par := range []bool{false, true} {
		p := newPool(z.X, z.N, z.D, false, 0)
		p.parallel, p.minPar = par, 100
		groups[i] = vmdav(p, z, 3, 1.1).Group
	}
	if !slices.Equal(groups[0], groups[1]) {
		t.Fatal("V-MDAV: parallel and sequential partitions differ")
	}
}

func TestPartitionSequencePanics(t *testing.T) {
	z := uniformData(6, 1, 1)
	for _, order := range [][]int{{0, 1, 2}, {0, 1, 2, 3, 4, 4}, {0, 1, 2, 3, 4, 6}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("order %v: no panic", order)
				}
			}()
			PartitionSequence(z, order, 2)
		}()
	}
}

// TestPrincipalAxis checks the axis on data spread along a known
// direction, and the fallback on data without spread.
func TestPrincipalAxis(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	n := 2000
	dir := []float64{3, -4, 0} // unit vector (0.6, -0.8, 0)
	x := make([]float64, n*3)
	for i := 0; i < n; i++ {
		s := r.NormFloat64() * 10
		for j := 0; j < 3; j++ {
			x[i*3+j] = s*dir[j]/5 + 0.1*r.NormFloat64()
		}
	}
	z, _ := model.NewDataset(nil, n, 3, x)
	v := principalAxis(z)
	// Sign convention: the largest-magnitude entry is positive.
	want := []float64{-0.6, 0.8, 0}
	for j := range v {
		if math.Abs(v[j]-want[j]) > 1e-2 {
			t.Fatalf("axis %v, want about %v", v, want)
		}
	}
	flat := &model.Dataset{N: 4, D: 2, X: []float64{1, 1, 1, 1, 1, 1, 1, 1}}
	if v := principalAxis(flat); v[0] != 1 || v[1] != 0 {
		t.Fatalf("constant data: axis %v, want the first attribute", v)
	}
}

// TestPrincipalAxisCloseEigenvalues checks the first principal component
// when the two largest eigenvalues of the scatter matrix differ by a
// relative 2^-19 ≈ 1.9e-6, where power iteration converges like
// (λ2/λ1)^t: after the 1000 iterations the earlier implementation allowed,
// its error had shrunk by a factor 0.998 only (it returned (0.511, 0.859,
// 0), 57 degrees off the axis below).
//
// Reference, derived by hand: with u = (1, -2, 0), w = (2, 1, 0) (u ⟂ w,
// |u|² = |w|² = 5), e3 = (0, 0, 1) and the six records ±a·u, ±b·w, ±c·e3,
// the mean is 0 and the scatter matrix is 2a²·uuᵀ + 2b²·wwᵀ + 2c²·e3e3ᵀ,
// with eigenvalues 10a² (eigenvector u/√5), 10b² (w/√5) and 2c² (e3). With
// a = 1 + 2^-20, b = 1, c = 1/2 every value, the mean and the scatter
// matrix are exact in float64, so the only error is the eigensolver's,
// about ε·‖S‖/gap = 1.1e-16·10/1.9e-5 ≈ 6e-11 (dsyev is backward stable,
// and an eigenvector moves by the perturbation over the eigenvalue gap:
// Golub & Van Loan, Matrix Computations, 4th ed., Section 8.1). The axis
// is u/√5 = (1, -2, 0)/√5 up to its sign; the sign convention
// (largest-magnitude entry positive) makes it (-1, 2, 0)/√5.
func TestPrincipalAxisCloseEigenvalues(t *testing.T) {
	a, b, c := 1+math.Ldexp(1, -20), 1.0, 0.5
	x := []float64{
		a, -2 * a, 0,
		-a, 2 * a, 0,
		2 * b, b, 0,
		-2 * b, -b, 0,
		0, 0, c,
		0, 0, -c,
	}
	z, err := model.NewDataset(nil, 6, 3, x)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-1 / math.Sqrt(5), 2 / math.Sqrt(5), 0}
	// 1e-9 is 16 times the error bound above.
	const tol = 1e-9
	v := principalAxis(z)
	for j := range v {
		if math.Abs(v[j]-want[j]) > tol {
			t.Fatalf("axis %v, want %v (tolerance %g)", v, want, tol)
		}
	}
	// The same data with the attributes in another order and every record
	// negated: the same axis, permuted, with the same sign convention.
	perm := []int{2, 0, 1}
	y := make([]float64, len(x))
	for i := 0; i < 6; i++ {
		for j, p := range perm {
			y[i*3+j] = -x[i*3+p]
		}
	}
	zy, _ := model.NewDataset(nil, 6, 3, y)
	vy := principalAxis(zy)
	for j, p := range perm {
		if math.Abs(vy[j]-want[p]) > tol {
			t.Fatalf("permuted, negated data: axis %v, want %v permuted by %v", vy, want, perm)
		}
	}
}

// Publish protects with the centroids and reports the risk of the result.
// x = 0, 1, 3, 4, 10, 12 in groups {0,1,3}, {4,10,12}: the hand-computed
// example of package risk (TestNumericHand): linkage 1/3, interval
// disclosure 0 at the default p = 0.05, IL1s 19/(36·sqrt(3)).
func TestPublish(t *testing.T) {
	raw, err := model.NewDataset([]string{"x"}, 6, 1, []float64{0, 1, 3, 4, 10, 12})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := model.NewClustering(6, [][]int{{0, 1, 2}, {3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := Publish(raw, cl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pub.Data.X[0]-4.0/3) > 1e-12 || math.Abs(pub.Data.X[5]-26.0/3) > 1e-12 {
		t.Errorf("protected %v", pub.Data.X)
	}
	r := pub.Risk
	if math.Abs(r.Linkage-1.0/3) > 1e-12 || r.Interval != 0 || math.Abs(r.IL1s-19/(36*math.Sqrt(3))) > 1e-12 {
		t.Errorf("risk %+v", r)
	}
	if _, err := Publish(raw, &model.Clustering{Group: []int{0}, NumGroups: 1}, nil); err == nil {
		t.Error("a clustering of 1 record for 6: no error")
	}
}
