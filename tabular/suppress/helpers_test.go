package suppress

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// tol is the absolute tolerance of cost comparisons (costs are integers
// below 1000 in the tests; the engines' tolerances are about 1e-7).
const tol = 1e-6

// skipUnavailable skips the test when err says an engine cannot run here,
// unless SDCOPT_REQUIRE_ENGINES is set (as elsewhere in the repo).
func skipUnavailable(t testing.TB, err error) {
	t.Helper()
	if errors.Is(err, solvers.ErrUnavailable) && os.Getenv("SDCOPT_REQUIRE_ENGINES") == "" {
		t.Skip(err)
	}
}

// flat returns the flat hierarchy Total → n leaves prefix1..n.
func flat(t testing.TB, prefix string, n int) *tabular.Hierarchy {
	leaves := make([]string, n)
	for i := range leaves {
		leaves[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	h, err := tabular.NewFlat("", leaves)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// twoLevel returns Total → g groups → k leaves each.
func twoLevel(t testing.TB, prefix string, g, k int) *tabular.Hierarchy {
	var lines []string
	for i := 1; i <= g; i++ {
		lines = append(lines, fmt.Sprintf("%s%d", prefix, i))
		for j := 1; j <= k; j++ {
			lines = append(lines, fmt.Sprintf("@%s%d.%d", prefix, i, j))
		}
	}
	h, err := tabular.ReadHRC(strings.NewReader(strings.Join(lines, "\n")+"\n"), prefix+".hrc", nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// newTable returns the table over hs (2 dimensions) with leaf values
// from leaf (called once per leaf cell in row-major order), totals the
// sums, Cost = Value, every cell Safe.
func newTable(hs []*tabular.Hierarchy, leaf func() float64) *tabular.Table {
	dims := make([]tabular.Dimension, len(hs))
	for d, h := range hs {
		dims[d] = tabular.Dimension{Name: fmt.Sprintf("v%d", d+1), H: h}
	}
	t := tabular.NewTable(dims)
	var codes []int
	for i := range t.Cells {
		codes = t.CodeIndices(i, codes[:0])
		leafCell := true
		for d, c := range codes {
			if !hs[d].IsLeaf(c) {
				leafCell = false
			}
		}
		if !leafCell {
			continue
		}
		v := leaf()
		// Add v to the cell and every combination of its ancestors.
		var rec func(d int, c []int)
		rec = func(d int, c []int) {
			if d == len(hs) {
				t.Cells[t.Index(c)].Value += v
				return
			}
			for a := codes[d]; a >= 0; a = hs[d].Parent(a) {
				rec(d+1, append(c, a))
			}
		}
		rec(0, nil)
	}
	for i := range t.Cells {
		c := &t.Cells[i]
		c.Freq = int(c.Value)
		c.Cost = c.Value
		c.Status = tabular.Safe
	}
	return t
}

// markPrimary makes the given leaf-or-total cells primary with levels
// lower = min(level, value) and upper = level.
func markPrimary(t *tabular.Table, level float64, cells ...int) {
	for _, i := range cells {
		c := &t.Cells[i]
		c.Status = tabular.Primary
		c.Upper, c.Lower = level, math.Min(level, c.Value)
	}
}

// auditOK computes the intervals of the pattern st on t and audits them
// against t's primary levels.
func auditOK(t testing.TB, tab *tabular.Table, st []tabular.Status) (*intervals.Report, bool) {
	t.Helper()
	c := *tab
	c.Cells = slices.Clone(tab.Cells)
	for i := range c.Cells {
		c.Cells[i].Status = st[i]
	}
	r, err := intervals.Compute(&c, &intervals.Settings{NoCertificates: true})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	rep := intervals.Audit(r, func(i int) (float64, float64) {
		if c.Cells[i].Status != tabular.Primary {
			return 0, 0
		}
		return c.Cells[i].Lower, c.Cells[i].Upper
	})
	return rep, rep.OK()
}

// bruteForce returns the least cost of a pattern passing intervals.Audit
// among all subsets of the Safe cells (every subset, in increasing order
// of cost, audited until the first pass) and the number audited.
func bruteForce(t testing.TB, tab *tabular.Table) (float64, int) {
	t.Helper()
	var free []int
	for i, c := range tab.Cells {
		if c.Status == tabular.Safe {
			free = append(free, i)
		}
	}
	if len(free) > 24 {
		t.Fatalf("brute force over %d cells", len(free))
	}
	type subset struct {
		mask uint32
		cost float64
	}
	subs := make([]subset, 1<<len(free))
	for m := range subs {
		s := 0.0
		for k, i := range free {
			if m>>k&1 == 1 {
				s += tab.Cells[i].Cost
			}
		}
		subs[m] = subset{uint32(m), s}
	}
	slices.SortStableFunc(subs, func(a, b subset) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	st := make([]tabular.Status, len(tab.Cells))
	for n, s := range subs {
		for i, c := range tab.Cells {
			st[i] = c.Status
		}
		for k, i := range free {
			if s.mask>>k&1 == 1 {
				st[i] = tabular.Secondary
			}
		}
		if _, ok := auditOK(t, tab, st); ok {
			return s.cost, n + 1
		}
	}
	return math.Inf(1), len(subs)
}

// randomTable returns a table over hs with leaf values uniform in
// [1, maxV], and p random primary cells (among all cells) with level.
func randomTable(t testing.TB, hs []*tabular.Hierarchy, seed uint64, maxV, p int, level float64) *tabular.Table {
	rng := rand.New(rand.NewPCG(seed, 45))
	tab := newTable(hs, func() float64 { return float64(1 + rng.IntN(maxV)) })
	markPrimary(tab, level, rng.Perm(len(tab.Cells))[:p]...)
	return tab
}

// linkedPair returns the linked tables of TestLinked: region × sector and
// region × size (each 2 leaves and a total) sharing the region margin, with
// (r1, s1) = 4 primary in the first and (r2, z2) = 8 in the second, levels
// 3: their System.
func linkedPair(t *testing.T) *tabular.System {
	t.Helper()
	// Leaf values v[region][sector][size].
	v := [2][2][2]float64{{{3, 1}, {2, 5}}, {{4, 2}, {1, 6}}}
	mk := func(name string, sum func(r, j int) float64) *tabular.Table {
		dims := []tabular.Dimension{{Name: "region", H: flat(t, "r", 2)}, {Name: name, H: flat(t, name[:1], 2)}}
		tab := tabular.NewTable(dims)
		for r := range 3 {
			for j := range 3 {
				x := 0.0
				for a := range 2 {
					for b := range 2 {
						if (r == 0 || r == a+1) && (j == 0 || j == b+1) {
							x += sum(a, b)
						}
					}
				}
				c := &tab.Cells[tab.Index([]int{r, j})]
				c.Value, c.Freq, c.Cost, c.Status = x, int(x), x, tabular.Safe
			}
		}
		return tab
	}
	t1 := mk("sector", func(r, s int) float64 { return v[r][s][0] + v[r][s][1] })
	t2 := mk("size", func(r, z int) float64 { return v[r][0][z] + v[r][1][z] })
	// Primary: (r1, s1) = 4 in table 1 and (r2, z2) = 8 in table 2, levels 3.
	p1, _ := t1.Lookup("r1", "s1")
	p2, _ := t2.Lookup("r2", "z2")
	markPrimary(t1, 3, p1)
	markPrimary(t2, 3, p2)
	sys, err := tabular.NewSystem([]*tabular.Table{t1, t2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// repairTable is the 2×2 table of TestFastRepair: leaves 1, 1 / 1, 9 (with
// totals), (r1, c1) primary with upper level 3 and lower level 0, the
// grand total must-publish.
func repairTable(t *testing.T) *tabular.Table {
	t.Helper()
	vals := []float64{1, 1, 1, 9}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	markPrimary(tab, 3, p)
	tab.Cells[p].Lower = 0
	iT, _ := tab.Lookup("Total", "Total")
	tab.Cells[iT].Status = tabular.MustPublish
	return tab
}
