package enumerate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// randomPoints returns n seeded points in d dimensions; with grid, the
// coordinates are small integers (many exactly tied distances).
func randomPoints(n, d int, grid bool, seed uint64) *model.Dataset {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	x := make([]float64, n*d)
	for i := range x {
		if grid {
			x[i] = float64(r.IntN(3))
		} else {
			x[i] = r.NormFloat64()
		}
	}
	ds, err := model.NewDataset(nil, n, d, x)
	if err != nil {
		panic(err)
	}
	return ds
}

// randomDuals draws duals uniform in [lo, hi] (rounded to quarters when
// grid, so that reduced costs tie exactly).
func randomDuals(n int, lo, hi float64, grid bool, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0xd0a1))
	l := make([]float64, n)
	for i := range l {
		l[i] = lo + (hi-lo)*r.Float64()
		if grid {
			l[i] = math.Round(4*l[i]) / 4
		}
	}
	return l
}

// bruteForce evaluates every group of size eta with ReducedCost and returns
// all of them sorted by (reduced cost, members).
func bruteForce(d *model.SqDist, lambda []float64, eta int) []model.Column {
	var all []model.Column
	cur := make([]int, 0, eta)
	var rec func(start int)
	rec = func(start int) {
		if len(cur) == eta {
			m := slices.Clone(cur)
			all = append(all, model.Column{Members: m, ReducedCost: d.ReducedCost(lambda, m)})
			return
		}
		for v := start; v <= d.N-(eta-len(cur)); v++ {
			cur = append(cur, v)
			rec(v + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	slices.SortFunc(all, compareCols)
	return all
}

// expectedTop is the brute-force answer: the first k groups below thr.
func expectedTop(all []model.Column, k int, thr float64) []model.Column {
	var out []model.Column
	for _, c := range all {
		if len(out) == k || !(c.ReducedCost < thr) {
			break
		}
		out = append(out, c)
	}
	return out
}

func sameColumns(a, b []model.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ReducedCost != b[i].ReducedCost || !slices.Equal(a[i].Members, b[i].Members) {
			return false
		}
	}
	return true
}

func fmtCols(cs []model.Column) string {
	s := ""
	for _, c := range cs {
		s += fmt.Sprintf("%v:%.12g ", c.Members, c.ReducedCost)
	}
	return s
}

// checkAgainstBrute runs Solve with the given options and compares with
// the brute-force list.
func checkAgainstBrute(t *testing.T, name string, d *model.SqDist, lambda []float64, eta int, all []model.Column, o Options) *Result {
	t.Helper()
	p := &model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}
	res, err := Solve(p, &o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	k := max(o.MaxColumns, 1)
	want := expectedTop(all, k, o.Threshold)
	if !res.Complete {
		t.Fatalf("%s: incomplete without deadline", name)
	}
	if !sameColumns(res.Columns, want) {
		t.Fatalf("%s: columns\n got %s\nwant %s", name, fmtCols(res.Columns), fmtCols(want))
	}
	min := all[0].ReducedCost
	if res.LowerBound > min+1e-9 {
		t.Fatalf("%s: lower bound %v above the minimum %v", name, res.LowerBound, min)
	}
	if len(want) > 0 {
		if res.LowerBound != want[0].ReducedCost {
			t.Fatalf("%s: lower bound %v, want the minimum %v", name, res.LowerBound, want[0].ReducedCost)
		}
		if math.Abs(res.Columns[0].ReducedCost-min) > 1e-9 {
			t.Fatalf("%s: best %v, brute-force minimum %v", name, res.Columns[0].ReducedCost, min)
		}
	} else if res.LowerBound != o.Threshold {
		t.Fatalf("%s: no columns, lower bound %v, want the threshold %v", name, res.LowerBound, o.Threshold)
	}
	if rb := RootBound(p); !(rb <= min+1e-9) {
		t.Fatalf("%s: root bound %v above the minimum %v", name, rb, min)
	}
	return res
}

// TestAgainstBruteForce compares Solve with the enumeration of every
// subset on seeded random instances (n <= 14, eta = 2..7), for the single
// best group, top lists, thresholds that keep some, all or none of the
// groups, and exactly tied reduced costs (grid points and quarter duals).
func TestAgainstBruteForce(t *testing.T) {
	cases := 0
	for seed := uint64(1); seed <= 12; seed++ {
		for _, grid := range []bool{false, true} {
			n := 8 + int(seed%7)
			ds := randomPoints(n, 2+int(seed%3), grid, seed)
			d := model.NewSqDist(ds)
			for eta := 2; eta <= min(7, n); eta++ {
				// Duals around the average cost of a member of a group of
				// size eta, so that some but not all groups are negative.
				scale := 0.7 * float64(eta-1) / float64(eta) * 2
				if grid {
					scale = 0.5 * float64(eta-1)
				}
				lambda := randomDuals(n, -0.2*scale, scale, grid, seed*31+uint64(eta))
				all := bruteForce(d, lambda, eta)
				for _, o := range []Options{
					{Threshold: -1e-9},
					{Threshold: -1e-9, MaxColumns: 5, Workers: 1},
					{Threshold: math.Inf(1), MaxColumns: 17, Workers: 2},
					{Threshold: all[0].ReducedCost, MaxColumns: 3},                 // nothing strictly below
					{Threshold: all[len(all)/3].ReducedCost, MaxColumns: len(all)}, // a third of the groups
					{Threshold: all[0].ReducedCost - 1, MaxColumns: 2, Workers: 3},
				} {
					name := fmt.Sprintf("seed %d grid %v n %d eta %d opts %+v", seed, grid, n, eta, o)
					checkAgainstBrute(t, name, d, lambda, eta, all, o)
					cases++
				}
			}
		}
	}
	t.Logf("%d cases", cases)
}

// TestSingletonsAndWholeSet covers eta = 1 (reduced cost −λ_v) and eta = n.
func TestSingletonsAndWholeSet(t *testing.T) {
	ds := randomPoints(6, 2, false, 7)
	d := model.NewSqDist(ds)
	lambda := []float64{0.5, -1, 2, 2, 0.25, 3}
	for _, eta := range []int{1, 6} {
		all := bruteForce(d, lambda, eta)
		checkAgainstBrute(t, fmt.Sprintf("eta %d", eta), d, lambda, eta, all, Options{Threshold: math.Inf(1), MaxColumns: 4})
	}
	res, err := Solve(&model.PricingInstance{Dist: d, Lambda: lambda, Eta: 1}, &Options{Threshold: 0, MaxColumns: 3})
	if err != nil {
		t.Fatal(err)
	}
	// −λ sorted: −3 (5), −2 (2), −2 (3).
	want := [][]int{{5}, {2}, {3}}
	for i, c := range res.Columns {
		if !slices.Equal(c.Members, want[i]) {
			t.Fatalf("singletons %s, want members %v", fmtCols(res.Columns), want)
		}
	}
}

// TestDeterministicAcrossWorkers: the same instance with 1, 2 and 3
// workers (and repeated runs) gives identical columns and lower bounds.
func TestDeterministicAcrossWorkers(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		ds := randomPoints(26, 3, seed%2 == 0, seed)
		d := model.NewSqDist(ds)
		for eta := 3; eta <= 5; eta++ {
			lambda := randomDuals(26, 0, 0.6*float64(eta-1), seed%2 == 0, seed+100)
			var ref *Result
			for _, w := range []int{1, 2, 3, 3, 2} {
				res, err := Solve(&model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}, &Options{Workers: w, MaxColumns: 9, Threshold: -1e-9})
				if err != nil {
					t.Fatal(err)
				}
				if ref == nil {
					ref = res
					if len(res.Columns) == 0 {
						t.Fatalf("seed %d eta %d: no column (the instance should have some)", seed, eta)
					}
					continue
				}
				if !sameColumns(res.Columns, ref.Columns) || res.LowerBound != ref.LowerBound || res.Complete != ref.Complete {
					t.Fatalf("seed %d eta %d workers %d: %s vs %s", seed, eta, w, fmtCols(res.Columns), fmtCols(ref.Columns))
				}
			}
		}
	}
}

// TestDeadlinePassed: with a deadline already passed the search stops at
// once; the result is incomplete, its columns are genuine and its lower
// bound is valid.
func TestDeadlinePassed(t *testing.T) {
	ds := randomPoints(14, 2, false, 3)
	d := model.NewSqDist(ds)
	for eta := 2; eta <= 6; eta++ {
		lambda := randomDuals(14, 0, float64(eta-1), false, 9)
		all := bruteForce(d, lambda, eta)
		p := &model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}
		res, err := Solve(p, &Options{Threshold: -1e-9, MaxColumns: 3, Deadline: time.Now().Add(-time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Complete {
			t.Fatalf("eta %d: complete with a passed deadline", eta)
		}
		if res.LowerBound > all[0].ReducedCost+1e-9 {
			t.Fatalf("eta %d: lower bound %v above the minimum %v", eta, res.LowerBound, all[0].ReducedCost)
		}
		if rb := RootBound(p); res.LowerBound > rb+1e-12 && len(res.Columns) == 0 {
			t.Fatalf("eta %d: incomplete bound %v above the root bound %v with nothing found", eta, res.LowerBound, rb)
		}
		for _, c := range res.Columns {
			if c.ReducedCost != d.ReducedCost(lambda, c.Members) || !(c.ReducedCost < -1e-9) {
				t.Fatalf("eta %d: bad column %v", eta, c)
			}
		}
	}
}

// TestStoppedMidway stops the search after a given number of tasks (first
// positions), as a deadline would: the bound must stay valid and at least
// as strong as RootBound, the columns genuine, and a stop after the last
// task must leave the result complete and exact.
func TestStoppedMidway(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		n := 14
		d := model.NewSqDist(randomPoints(n, 2, false, seed))
		pp, err := Prepare(d, 6)
		if err != nil {
			t.Fatal(err)
		}
		for eta := 2; eta <= 6; eta++ {
			lambda := randomDuals(n, 0, 0.8*float64(eta-1), false, seed+7)
			all := bruteForce(d, lambda, eta)
			rb := pp.RootBound(lambda, eta)
			for stop := int64(1); stop <= int64(n-eta+2); stop++ {
				s := newSearch(pp, lambda, eta, &Options{Workers: 1 + int(stop%2), MaxColumns: 2, Threshold: -1e-9})
				s.stopAfter = stop
				res := s.run()
				name := fmt.Sprintf("seed %d eta %d stop %d", seed, eta, stop)
				if res.LowerBound > all[0].ReducedCost+1e-9 || res.LowerBound < rb-1e-9 {
					t.Fatalf("%s: lower bound %v outside [root %v, min %v]", name, res.LowerBound, rb, all[0].ReducedCost)
				}
				for _, c := range res.Columns {
					if c.ReducedCost != d.ReducedCost(lambda, c.Members) || !(c.ReducedCost < -1e-9) {
						t.Fatalf("%s: bad column %v", name, c)
					}
				}
				if stop <= int64(n-eta) && res.Complete {
					t.Fatalf("%s: complete", name)
				}
				if stop > int64(n-eta) {
					want := expectedTop(all, 2, -1e-9)
					if !res.Complete || !sameColumns(res.Columns, want) {
						t.Fatalf("%s: complete %v, %s, want %s", name, res.Complete, fmtCols(res.Columns), fmtCols(want))
					}
				}
			}
		}
	}
}

// TestPreparedReuse: one Prepare serves several sizes and dual vectors and
// gives the same answers as Solve on each instance.
func TestPreparedReuse(t *testing.T) {
	ds := randomPoints(13, 3, false, 11)
	d := model.NewSqDist(ds)
	pp, err := Prepare(d, 7)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 3; seed++ {
		for eta := 1; eta <= 7; eta++ {
			lambda := randomDuals(13, 0, 1.5*float64(eta-1), false, seed)
			o := &Options{Threshold: -1e-9, MaxColumns: 4}
			a, err := pp.Solve(lambda, eta, o)
			if err != nil {
				t.Fatal(err)
			}
			p := &model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}
			b, err := Solve(p, o)
			if err != nil {
				t.Fatal(err)
			}
			if !sameColumns(a.Columns, b.Columns) || a.LowerBound != b.LowerBound {
				t.Fatalf("eta %d: prepared %s, instance %s", eta, fmtCols(a.Columns), fmtCols(b.Columns))
			}
			if rb := pp.RootBound(lambda, eta); rb != RootBound(p) {
				t.Fatalf("eta %d: root bounds %v and %v", eta, rb, RootBound(p))
			}
		}
	}
}

// TestBadInput: malformed input returns errors (and NaN root bounds).
func TestBadInput(t *testing.T) {
	d := model.NewSqDist(randomPoints(5, 2, false, 1))
	lam := make([]float64, 5)
	nanLam := slices.Clone(lam)
	nanLam[2] = math.NaN()
	infLam := slices.Clone(lam)
	infLam[0] = math.Inf(-1)
	asym := &model.SqDist{N: 5, D: slices.Clone(d.D)}
	asym.D[1] += 1
	nanD := &model.SqDist{N: 5, D: slices.Clone(d.D)}
	nanD.D[7], nanD.D[1*5+2] = math.NaN(), math.NaN()
	cases := []struct {
		name string
		p    *model.PricingInstance
		o    *Options
	}{
		{"nil instance", nil, nil},
		{"nil distances", &model.PricingInstance{Lambda: lam, Eta: 2}, nil},
		{"short lambda", &model.PricingInstance{Dist: d, Lambda: lam[:4], Eta: 2}, nil},
		{"eta 0", &model.PricingInstance{Dist: d, Lambda: lam, Eta: 0}, nil},
		{"eta > n", &model.PricingInstance{Dist: d, Lambda: lam, Eta: 6}, nil},
		{"NaN lambda", &model.PricingInstance{Dist: d, Lambda: nanLam, Eta: 2}, nil},
		{"Inf lambda", &model.PricingInstance{Dist: d, Lambda: infLam, Eta: 2}, nil},
		{"asymmetric", &model.PricingInstance{Dist: asym, Lambda: lam, Eta: 2}, nil},
		{"NaN distance", &model.PricingInstance{Dist: nanD, Lambda: lam, Eta: 2}, nil},
		{"short matrix", &model.PricingInstance{Dist: &model.SqDist{N: 5, D: d.D[:20]}, Lambda: lam, Eta: 2}, nil},
		{"negative workers", &model.PricingInstance{Dist: d, Lambda: lam, Eta: 2}, &Options{Workers: -1}},
		{"negative MaxColumns", &model.PricingInstance{Dist: d, Lambda: lam, Eta: 2}, &Options{MaxColumns: -2}},
		{"NaN threshold", &model.PricingInstance{Dist: d, Lambda: lam, Eta: 2}, &Options{Threshold: math.NaN()}},
	}
	for _, c := range cases {
		if _, err := Solve(c.p, c.o); err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if c.o == nil && !math.IsNaN(RootBound(c.p)) {
			t.Errorf("%s: root bound %v, want NaN", c.name, RootBound(c.p))
		}
	}
	if _, err := Prepare(nil, 2); err == nil {
		t.Error("Prepare(nil): no error")
	}
	for _, m := range []int{0, 6} {
		if _, err := Prepare(d, m); err == nil {
			t.Errorf("Prepare maxEta %d: no error", m)
		}
	}
	pp, err := Prepare(d, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pp.Solve(lam, 4, nil); err == nil {
		t.Error("eta above the prepared maximum: no error")
	}
	if !math.IsNaN(pp.RootBound(lam, 4)) {
		t.Error("root bound above the prepared maximum: not NaN")
	}
	// Duals so large that reduced costs overflow: no panic.
	huge := []float64{1e308, 1e308, -1e308, 1e308, 1e308}
	for eta := 1; eta <= 5; eta++ {
		if _, err := Solve(&model.PricingInstance{Dist: d, Lambda: huge, Eta: eta}, &Options{MaxColumns: 3}); err != nil {
			t.Fatal(err)
		}
	}
	var nilPP *Prepared
	if _, err := nilPP.Solve(lam, 2, nil); err == nil {
		t.Error("nil Prepared: no error")
	}
}

// mdavDuals returns the standardized census subset of n random records
// (seed), its distances and the duals λ_v = factor · SSE(G)/|G| of the
// MDAV group G of v: every MDAV group then has reduced cost
// (1 − factor)·SSE(G), a stand-in for the duals near an optimum of the
// master LP, where few groups have negative reduced cost.
func mdavDuals(tb testing.TB, n, k int, factor float64, seed uint64) (*model.SqDist, []float64) {
	tb.Helper()
	z, _ := benchDataSeed(tb, "census", datasets.SubsetRandom, n, seed)
	cl, err := microagg.MDAV(z, k)
	if err != nil {
		tb.Fatal(err)
	}
	d := model.NewSqDist(z)
	groups := make([][]int, cl.NumGroups)
	for v, g := range cl.Group {
		groups[g] = append(groups[g], v)
	}
	lambda := make([]float64, n)
	for _, g := range groups {
		share := factor * d.GroupCost(g) / float64(len(g))
		for _, v := range g {
			lambda[v] = share
		}
	}
	return d, lambda
}

// TestRealisticDuals compares with brute force on MDAV-share duals of
// census subsets of 30 records (k = 3), for sizes 3..5 (3..6 without
// -short) and factors 1.0 and 1.15.
func TestRealisticDuals(t *testing.T) {
	maxEta := 6
	if testing.Short() {
		maxEta = 5
	}
	for _, factor := range []float64{1.0, 1.15} {
		d, lambda := mdavDuals(t, 30, 3, factor, 2024)
		for eta := 3; eta <= maxEta; eta++ {
			all := bruteForce(d, lambda, eta)
			name := fmt.Sprintf("factor %v eta %d", factor, eta)
			res := checkAgainstBrute(t, name, d, lambda, eta, all, Options{Threshold: -1e-9, MaxColumns: 10})
			checkAgainstBrute(t, name+" single", d, lambda, eta, all, Options{Threshold: -1e-9, Workers: 1})
			t.Logf("%s: %d columns, min %.4g, nodes %d of %d groups", name, len(res.Columns), all[0].ReducedCost, res.Nodes, len(all))
		}
	}
}

// TestLPOptimalDuals compares with brute force on the duals of the column
// generation of the master LP on a census subset of 30 records (see
// cgDuals): for the final, LP-optimal duals no group of size k..2k-1 has
// reduced cost below -1e-7 (the pricing tolerance of the generation), and
// Solve must agree; for an intermediate iteration it must find the same
// top list as the brute force.
func TestLPOptimalDuals(t *testing.T) {
	for _, k := range []int{3, 5} {
		c := getDuals(t, "census", datasets.SubsetRandom, 30, k)
		last := c.duals[len(c.duals)-1]
		mid := c.duals[len(c.duals)/2]
		maxEta := 2*k - 1
		if testing.Short() || k == 5 {
			maxEta = min(maxEta, 6)
		}
		for eta := k; eta <= maxEta; eta++ {
			for it, lambda := range [][]float64{last, mid} {
				all := bruteForce(c.d, lambda, eta)
				if it == 0 && all[0].ReducedCost < -1e-7 {
					t.Fatalf("k %d eta %d: final duals leave a group of reduced cost %v", k, eta, all[0].ReducedCost)
				}
				name := fmt.Sprintf("k %d eta %d iteration %d", k, eta, it)
				checkAgainstBrute(t, name, c.d, lambda, eta, all, Options{Threshold: -1e-9, MaxColumns: 10})
				// A threshold above the minimum so that the final duals
				// have columns too.
				checkAgainstBrute(t, name+" thr", c.d, lambda, eta, all, Options{Threshold: all[0].ReducedCost + 0.5, MaxColumns: 20, Workers: 2})
			}
		}
	}
}

// TestAllBelowThreshold: Options.All returns exactly the groups whose
// brute-force reduced cost is below the threshold, sorted, and reports an
// overflow when MaxColumns is too small.
func TestAllBelowThreshold(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		n := 8 + int(seed%5)
		eta := 2 + int(seed%4)
		inst := allTestInstance(t, n, eta, seed)
		var want []float64
		forEachSubset(n, eta, func(g []int) {
			want = append(want, inst.Dist.ReducedCost(inst.Lambda, g))
		})
		slices.Sort(want)
		thr := want[len(want)/3] // about a third of all groups
		cnt := 0
		for _, v := range want {
			if v < thr {
				cnt++
			}
		}
		for _, workers := range []int{1, 2} {
			res, err := Solve(inst, &Options{All: true, Threshold: thr, MaxColumns: len(want), Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete || res.Overflow || len(res.Columns) != cnt {
				t.Fatalf("seed %d: %d columns (complete %v), want %d", seed, len(res.Columns), res.Complete, cnt)
			}
			for i, c := range res.Columns {
				if math.Abs(c.ReducedCost-want[i]) > 1e-9 {
					t.Fatalf("seed %d: column %d rc %.12g, want %.12g", seed, i, c.ReducedCost, want[i])
				}
			}
		}
		if cnt > 1 {
			res, err := Solve(inst, &Options{All: true, Threshold: thr, MaxColumns: cnt - 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Complete || !res.Overflow {
				t.Fatalf("seed %d: no overflow with MaxColumns %d < %d", seed, cnt-1, cnt)
			}
		}
	}
}

func allTestInstance(t *testing.T, n, eta int, seed uint64) *model.PricingInstance {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	x := make([]float64, n*2)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	ds, err := model.NewDataset(nil, n, 2, x)
	if err != nil {
		t.Fatal(err)
	}
	lambda := make([]float64, n)
	for i := range lambda {
		lambda[i] = r.Float64()
	}
	return &model.PricingInstance{Dist: model.NewSqDist(ds), Lambda: lambda, Eta: eta}
}

func forEachSubset(n, eta int, f func([]int)) {
	g := make([]int, eta)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == eta {
			f(g)
			return
		}
		for v := from; v <= n-(eta-pos); v++ {
			g[pos] = v
			rec(pos+1, v+1)
		}
	}
	rec(0, 0)
}

// TestAccept: with Options.Accept (here Ryan-Foster constraints: records
// 0 and 1 together, 2 and 3 apart) the answer is the brute-force list
// filtered by it, on seeded instances (n ≤ 12, eta = 2..5).
func TestAccept(t *testing.T) {
	accept := func(m []int) bool {
		has := func(v int) bool { _, ok := slices.BinarySearch(m, v); return ok }
		return has(0) == has(1) && !(has(2) && has(3))
	}
	for seed := uint64(1); seed <= 20; seed++ {
		n := 8 + int(seed%5)
		eta := 2 + int(seed%4)
		d := model.NewSqDist(randomPoints(n, 2, false, seed))
		lambda := randomDuals(n, 0, 3, false, seed)
		all := slices.DeleteFunc(bruteForce(d, lambda, eta), func(c model.Column) bool { return !accept(c.Members) })
		for _, o := range []Options{{MaxColumns: 1, Threshold: math.Inf(1)}, {MaxColumns: 5, Threshold: 0}} {
			o.Accept = accept
			res, err := Solve(&model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}, &o)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedTop(all, o.MaxColumns, o.Threshold)
			if !res.Complete || !sameColumns(res.Columns, want) {
				t.Fatalf("seed %d eta %d: got %s\nwant %s", seed, eta, fmtCols(res.Columns), fmtCols(want))
			}
			if len(all) > 0 && res.LowerBound > all[0].ReducedCost+1e-9 {
				t.Fatalf("seed %d: lower bound %v above the accepted minimum %v", seed, res.LowerBound, all[0].ReducedCost)
			}
		}
	}
}

// TestDeadlineInsideLeafLoops: with every reduced cost negative and an
// Accept that rejects every group, the cutoff never tightens and one
// first position alone has C(1499, 3) ≈ 5.6·10^8 completions. The
// deadline (300 ms) must stop the search inside that subtree: polled by
// work, not by calls of expand (256 calls at size 4 are 256 pair loops of
// up to 1.1·10^6 groups each; polled that way the search returned after
// 7.3 s). The check counts work, not time: one worker evaluates at most
// pollNodes nodes plus one pair-loop row (< n) between two polls, so at
// most that many groups reach Accept once the deadline has passed. The
// stopped search's bound must stay valid.
func TestDeadlineInsideLeafLoops(t *testing.T) {
	const n, eta = 1500, 4
	d := model.NewSqDist(randomPoints(n, 2, false, 5))
	lambda := make([]float64, n)
	for i := range lambda {
		lambda[i] = 100 // every group's reduced cost is far below 0
	}
	p := &model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}
	pp, err := Prepare(d, eta)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(300 * time.Millisecond)
	late := 0 // groups offered after the deadline (one worker: no race)
	res, err := pp.Solve(lambda, eta, &Options{Workers: 1, MaxColumns: 5, Threshold: 0, Deadline: deadline,
		Accept: func([]int) bool {
			if time.Now().After(deadline) {
				late++
			}
			return false
		}})
	if err != nil {
		t.Fatal(err)
	}
	if limit := pollNodes + n; late > limit {
		t.Fatalf("%d groups evaluated after the deadline, more than the %d between two polls", late, limit)
	}
	if res.Complete {
		t.Fatal("complete, yet it cannot have evaluated C(1500, 4) groups before its deadline")
	}
	if rb := RootBound(p); res.LowerBound > rb+1e-9 {
		t.Fatalf("stopped search's bound %v above the root bound %v", res.LowerBound, rb)
	}
}

// triplePenalty is a test Penalty of the subset-row kind: a weight w ≥ 0
// per triple of records, charged once to every group holding two or more
// records of the triple (non-decreasing as records join).
type triplePenalty struct {
	triples [][3]int
	w       []float64
}

// full is the penalty of group g from its definition.
func (tp *triplePenalty) full(g []int) float64 {
	s := 0.0
	for i, tr := range tp.triples {
		c := 0
		for _, v := range tr {
			if slices.Contains(g, v) {
				c++
			}
		}
		if c >= 2 {
			s += tp.w[i]
		}
	}
	return s
}

func (tp *triplePenalty) Extra(p []int, v int) float64 {
	with := append(slices.Clone(p), v)
	return tp.full(with) - tp.full(p)
}

// TestPenalty: with Options.Penalty the answer is the brute-force list of
// every group ranked by reduced cost plus penalty, for top lists,
// thresholds, Options.All and together with Accept, on seeded instances
// (n ≤ 13, eta = 1..6, 10 random weighted triples); the penalty summed
// along the members equals its definition.
func TestPenalty(t *testing.T) {
	for seed := uint64(1); seed <= 16; seed++ {
		n := 8 + int(seed%6)
		d := model.NewSqDist(randomPoints(n, 2, seed%3 == 0, seed))
		lambda := randomDuals(n, 0, 4, seed%3 == 0, seed)
		r := rand.New(rand.NewPCG(seed, 0x7e11))
		tp := &triplePenalty{}
		for range 10 {
			p := r.Perm(n)[:3]
			slices.Sort(p)
			tp.triples = append(tp.triples, [3]int{p[0], p[1], p[2]})
			tp.w = append(tp.w, 2*r.Float64())
		}
		odd := func(m []int) bool { return len(m) < 2 || m[0]+m[1] != 3 } // rejects groups starting 0, 3 or 1, 2
		for eta := 1; eta <= min(6, n); eta++ {
			var all []model.Column
			forEachSubset(n, eta, func(g []int) {
				m := slices.Clone(g)
				pen := PenaltyOf(tp, m)
				if def := tp.full(m); math.Abs(pen-def) > 1e-12 {
					t.Fatalf("seed %d: penalty of %v summed %v, defined %v", seed, m, pen, def)
				}
				all = append(all, model.Column{Members: m, ReducedCost: d.ReducedCost(lambda, m) + pen})
			})
			slices.SortFunc(all, compareCols)
			plain := bruteForce(d, lambda, eta)
			for _, o := range []Options{{MaxColumns: 1, Threshold: math.Inf(1)}, {MaxColumns: 4, Threshold: 0},
				{MaxColumns: 1, Threshold: 0}, {All: true, MaxColumns: 1000, Threshold: -0.5}, {MaxColumns: 3, Threshold: math.Inf(1), Accept: odd}} {
				o.Penalty = tp
				want := all
				if o.Accept != nil {
					want = slices.DeleteFunc(slices.Clone(all), func(c model.Column) bool { return !odd(c.Members) })
				}
				if o.All {
					want = expectedTop(want, len(want), o.Threshold)
				} else {
					want = expectedTop(want, o.MaxColumns, o.Threshold)
				}
				for _, workers := range []int{1, 3} {
					o.Workers = workers
					res, err := Solve(&model.PricingInstance{Dist: d, Lambda: lambda, Eta: eta}, &o)
					if err != nil {
						t.Fatal(err)
					}
					if !res.Complete || !sameColumns(res.Columns, want) {
						t.Fatalf("seed %d eta %d %+v: got %s\nwant %s", seed, eta, o, fmtCols(res.Columns), fmtCols(want))
					}
					if o.Accept == nil && res.LowerBound > all[0].ReducedCost+1e-9 {
						t.Fatalf("seed %d eta %d: lower bound %v above the minimum %v", seed, eta, res.LowerBound, all[0].ReducedCost)
					}
				}
			}
			// The penalty never lowers a reduced cost: the plain minimum
			// bounds the penalized one.
			if plain[0].ReducedCost > all[0].ReducedCost+1e-12 {
				t.Fatalf("seed %d eta %d: plain minimum %v above the penalized %v", seed, eta, plain[0].ReducedCost, all[0].ReducedCost)
			}
		}
	}
}
