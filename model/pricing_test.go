package model

import (
	"math"
	"testing"
)

// TestGroupCostIsSSE: Proposition 3.1 of Gentile, Spagnolo-Arrizabalaga &
// Castro — the pairwise form Σ_{i<j} c_ij/|C| equals the SSE about the
// centroid.
func TestGroupCostIsSSE(t *testing.T) {
	ds, err := NewDataset(nil, 5, 2, []float64{0, 0, 1, 2, 3, 1, -1, 4, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	d := NewSqDist(ds)
	for _, g := range [][]int{{0, 1}, {0, 1, 2}, {1, 3, 4}, {0, 1, 2, 3, 4}} {
		cl := &Clustering{Group: make([]int, 5), NumGroups: 2}
		for i := range cl.Group {
			cl.Group[i] = 1
		}
		for _, v := range g {
			cl.Group[v] = 0
		}
		// SSE of group 0 alone: total minus the other group's.
		rest := []int{}
		for i := 0; i < 5; i++ {
			if cl.Group[i] == 1 {
				rest = append(rest, i)
			}
		}
		want := SSE(ds, cl) - d.GroupCost(rest)
		if len(rest) == 0 {
			cl.NumGroups = 1
			want = SSE(ds, cl)
		}
		if got := d.GroupCost(g); math.Abs(got-want) > 1e-12 {
			t.Errorf("group %v: cost %g, SSE %g", g, got, want)
		}
	}
	// A clustering's SSE is the sum of its groups' costs.
	two := &Clustering{Group: []int{0, 0, 1, 1, 1}, NumGroups: 2}
	if got, want := d.PartitionCost(two.Groups()), SSE(ds, two); math.Abs(got-want) > 1e-12 {
		t.Errorf("PartitionCost %g, SSE %g", got, want)
	}
	if d.At(1, 3) != d.At(3, 1) || d.At(0, 1) != 5 {
		t.Errorf("distances: %g %g %g", d.At(1, 3), d.At(3, 1), d.At(0, 1))
	}
	lambda := []float64{1, 2, 3, 4, 5}
	if got := d.ReducedCost(lambda, []int{0, 1}); math.Abs(got-(5.0/2-3)) > 1e-12 {
		t.Errorf("reduced cost %g", got)
	}
	for _, p := range []*PricingInstance{{}, {Dist: d, Lambda: lambda[:4], Eta: 2}, {Dist: d, Lambda: lambda, Eta: 0}, {Dist: d, Lambda: lambda, Eta: 6}} {
		if p.Check() == nil {
			t.Errorf("Check accepts %+v", p)
		}
	}
}
