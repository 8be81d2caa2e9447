package tabular

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomHierarchy returns a random tree of n codes below the root: each
// code's parent is the root or an earlier code.
func randomHierarchy(t *testing.T, rng *rand.Rand, name string, n int) *Hierarchy {
	parents, kids := make([]string, n), make([]string, n)
	for i := range n {
		kids[i] = fmt.Sprintf("%s%d", name, i)
		if p := rng.IntN(i + 1); p == i {
			parents[i] = DefaultRoot
		} else {
			parents[i] = kids[p]
		}
	}
	h, err := NewHierarchy("", parents, kids)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestBuildProperties tabulates seeded random records over random
// hierarchies and checks what holds for every table built from
// microdata: every relation holds for the values and the frequencies, a
// total's largest contribution is the largest of its parts', and linked
// tables over shared variables link and stay consistent.
func TestBuildProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 2))
	for trial := range 50 {
		a := Dimension{"a", randomHierarchy(t, rng, "a", 1+rng.IntN(12))}
		b := Dimension{"b", randomHierarchy(t, rng, "b", 1+rng.IntN(6))}
		c := Dimension{"c", randomHierarchy(t, rng, "c", 1+rng.IntN(5))}
		ab := NewBuilder([]Dimension{a, b}, &BuilderSettings{Magnitude: true, TopN: 2})
		ac := NewBuilder([]Dimension{a, c}, &BuilderSettings{Magnitude: true, TopN: 2})
		la, lb, lc := a.H.Leaves(), b.H.Leaves(), c.H.Leaves()
		for r := range 1 + rng.IntN(60) {
			x, y, z := la[rng.IntN(len(la))], lb[rng.IntN(len(lb))], lc[rng.IntN(len(lc))]
			v := float64(rng.IntN(1000)) / 8 // exact in binary: sums are exact
			id := fmt.Sprint(r)
			ab.Add([]int{x, y}, v, 1, id, "")
			ac.Add([]int{x, z}, v, 1, id, "")
		}
		tab, tac := ab.Table(), ac.Table()
		if err := tab.CheckConsistent(0); err != nil {
			t.Fatalf("trial %d: values: %v", trial, err)
		}
		for r := range tab.Relations() {
			n, top := 0, 0.0
			for _, p := range r.Parts {
				n += tab.Cells[p].Freq
				if cs := tab.Cells[p].Top; len(cs) > 0 && (top == 0 || cs[0].Value > top) {
					top = cs[0].Value
				}
			}
			tc := tab.Cells[r.Total]
			if n != tc.Freq {
				t.Fatalf("trial %d: (%s) has freq %d, its parts %d", trial, tab.CellName(r.Total), tc.Freq, n)
			}
			if n > 0 && tc.Top[0].Value != top {
				t.Fatalf("trial %d: (%s) top %v, its parts' %v", trial, tab.CellName(r.Total), tc.Top[0].Value, top)
			}
		}
		sys, err := NewSystem([]*Table{tab, tac}, nil)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		// Shared: the a-margin, |codes of a| cells.
		if want := tab.Len() + tac.Len() - a.H.Len(); sys.Len() != want {
			t.Fatalf("trial %d: %d system cells, want %d", trial, sys.Len(), want)
		}
		if err := sys.CheckConsistent(0); err != nil {
			t.Fatalf("trial %d: system: %v", trial, err)
		}
	}
}
