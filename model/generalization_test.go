package model

import (
	"math"
	"testing"
)

// genTable: two records' worth of every attribute kind. Attributes: age
// (numeric, range 20..60), sex (2 categories), country (4 categories under
// a hierarchy: leaves a, b under X; c, d under Y; X, Y under the root).
func genTable(t *testing.T) *QITable {
	t.Helper()
	h := &Hierarchy{
		NumLeaves: 4,
		Parent:    []int32{4, 4, 5, 5, 6, 6, -1},
		Names:     []string{"a", "b", "c", "d", "X", "Y", "*"},
		Leaves:    []int32{1, 1, 1, 1, 2, 2, 4},
		Depth:     []int32{2, 2, 2, 2, 1, 1, 0},
	}
	tab := &QITable{
		Attrs: []QIAttr{
			{Name: "age", Kind: Numeric, Min: 20, Max: 60},
			{Name: "sex", Kind: Categorical, Categories: []string{"F", "M"}},
			{Name: "country", Kind: Categorical, Categories: []string{"a", "b", "c", "d"}, Hier: h},
		},
		N: 4,
		X: []float64{
			20, 0, 0,
			30, 1, 1,
			60, 0, 2,
			40, 0, 0,
		},
	}
	if err := tab.Check(); err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestNCPAndIncrease(t *testing.T) {
	tab := genTable(t)
	b := tab.NewBox(0)
	if s := tab.NCPSum(b); s != 0 {
		t.Fatalf("single record NCP %g", s)
	}
	// Adding record 1: age [20,30] -> 10/40; sex {F,M} -> 2/2; country
	// LCA(a, b) = X with 2 leaves -> 2/4. Sum 0.25 + 1 + 0.5 = 1.75.
	if inc := tab.Increase(b, 1); math.Abs(inc-1.75) > 1e-12 {
		t.Fatalf("increase %g, want 1.75", inc)
	}
	tab.Add(b, 1)
	if s := tab.NCPSum(b); math.Abs(s-1.75) > 1e-12 {
		t.Fatalf("NCP sum %g, want 1.75", s)
	}
	// Adding record 2: age [20,60] -> 1 (+0.75); sex unchanged; country
	// LCA(X, c) = root, 4 leaves -> 1 (+0.5).
	if inc := tab.Increase(b, 2); math.Abs(inc-1.25) > 1e-12 {
		t.Fatalf("increase %g, want 1.25", inc)
	}
	tab.Add(b, 2)
	if !tab.Contains(b, 3) || !tab.Contains(b, 0) {
		t.Fatal("box does not contain its records")
	}
	// Increase = the from-scratch difference for every record and box.
	for j := 0; j < 4; j++ {
		for i := 0; i < 4; i++ {
			bj := tab.NewBox(j)
			before := tab.NCPSum(bj)
			inc := tab.Increase(bj, i)
			tab.Add(bj, i)
			if d := tab.NCPSum(bj) - before; math.Abs(d-inc) > 1e-12 {
				t.Fatalf("j=%d i=%d: increase %g, difference %g", j, i, inc, d)
			}
		}
	}
}

func TestGCPAndRegularity(t *testing.T) {
	tab := genTable(t)
	g := &GenGraph{N: 4, Matched: [][]int32{{0, 1}, {1, 0}, {2, 3}, {3, 2}}}
	if err := g.CheckRegular(2); err != nil {
		t.Fatal(err)
	}
	// Boxes {0,1} twice (1.75 each); {2,3}: age [40,60] 0.5, sex F 0,
	// country LCA(c, a) = root 1 -> 1.5 each. GCP = (3.5 + 3) / (4·3).
	if gcp := tab.GCP(g); math.Abs(gcp-6.5/12) > 1e-12 {
		t.Fatalf("GCP %g, want %g", gcp, 6.5/12)
	}
	for _, bad := range []*GenGraph{
		{N: 4, Matched: [][]int32{{0, 1}, {1, 0}, {2, 3}}},
		{N: 4, Matched: [][]int32{{0, 1}, {1, 0}, {2, 3}, {3, 3}}},
		{N: 4, Matched: [][]int32{{1, 2}, {0, 1}, {2, 3}, {3, 0}}},
		{N: 4, Matched: [][]int32{{0, 1}, {1, 2}, {2, 1}, {3, 0}}},
	} {
		if bad.CheckRegular(2) == nil {
			t.Errorf("CheckRegular accepts %v", bad.Matched)
		}
	}
	tab.X[1] = 7 // sex code out of range
	if tab.Check() == nil {
		t.Error("Check accepts a bad code")
	}
}

func TestCheckAnonymous(t *testing.T) {
	for _, c := range []struct {
		name string
		g    [][]int32
		k    int
		ok   bool
	}{
		{"2-regular", [][]int32{{0, 1}, {1, 2}, {2, 0}}, 2, true},
		{"classes of 2 and 3", [][]int32{{0, 1}, {0, 1}, {2, 3, 4}, {2, 3, 4}, {2, 3, 4}}, 2, true},
		{"class below k", [][]int32{{0, 1}, {0, 1}, {2, 3, 4}, {2, 3, 4}, {2, 3, 4}}, 3, false},
		{"3-regular claimed as 2, not complete", [][]int32{{0, 1, 2}, {1, 2, 3}, {2, 3, 0}, {3, 0, 1}, {4, 5, 6}, {5, 6, 4}, {6, 4, 5}}, 2, false},
		{"no identity", [][]int32{{1, 2}, {0, 2}, {0, 1}}, 2, false},
		{"component not regular", [][]int32{{0, 1}, {1, 0, 2}, {2, 0}}, 2, false},
		{"repeated", [][]int32{{0, 0}, {1, 1}}, 2, false},
	} {
		err := (&GenGraph{N: len(c.g), Matched: c.g}).CheckAnonymous(c.k)
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok = %v", c.name, err, c.ok)
		}
	}
}

// TestWidthHugeRange: a numeric range that overflows float64 (issue 44,
// item 11: values ±1e308) gives finite widths equal to the exact ratios;
// ordinary ranges are untouched (scale 1).
func TestWidthHugeRange(t *testing.T) {
	cases := []struct {
		min, max, lo, hi float64
		scale, want      float64
	}{
		{-1e308, 1e308, -1e308, 1e308, 0.5, 1},
		{-1e308, 1e308, 0, 1e308, 0.5, 0.5},
		{-1e308, 1e308, -1e308, 5, 0.5, 0.5},
		{-1e308, 1e308, 0, 5, 0.5, 2.5e-308},
		{-math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, 0.5, 1},
		{17, 90, 20, 30, 1, 10.0 / 73},
		{3, 3, 3, 3, 1, 0},
	}
	for _, c := range cases {
		at := &QIAttr{Kind: Numeric, Min: c.min, Max: c.max}
		if s := at.Scale(); s != c.scale {
			t.Errorf("[%g, %g]: scale %v, want %v", c.min, c.max, s, c.scale)
		}
		if got := at.Width(c.lo, c.hi); math.IsNaN(got) || math.Abs(got-c.want) > 1e-15*math.Max(1, c.want) {
			t.Errorf("[%g, %g] in [%g, %g]: width %v, want %v", c.lo, c.hi, c.min, c.max, got, c.want)
		}
		tab := &QITable{Attrs: []QIAttr{*at}, N: 2, X: []float64{c.lo, c.hi}}
		b := tab.NewBox(0)
		if inc := tab.Increase(b, 1); math.Abs(inc-at.Width(c.lo, c.hi)) > 1e-15 {
			t.Errorf("[%g, %g]: increase %v, width %v", c.lo, c.hi, inc, at.Width(c.lo, c.hi))
		}
	}
}
