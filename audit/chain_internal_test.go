package audit

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// A slab is the sub-table through the cell over the variables it frees:
// the cell first, no cell twice, every cell agreeing with it on the
// variables fixed, as many cells as the product of the free variables'
// levels, within chainSlabMaxCells, one variable at least fixed.
func TestChainSlab(t *testing.T) {
	for _, dims := range [][]int{{3, 3, 3, 3, 3, 3, 3}, {4, 4, 4, 4, 4}, {2, 5, 3, 4, 2, 6}, {3, 2}} {
		r := rand.New(rand.NewPCG(uint64(len(dims)), 1))
		for trial := 0; trial < 20; trial++ {
			c := r.IntN(model.NumCells(dims))
			lv := model.CellLevels(dims, c, nil)
			cells := slab(dims, lv, r)
			if cells[0] != c {
				t.Fatalf("dims %v cell %d: slab starts with %d", dims, c, cells[0])
			}
			if len(cells) > chainSlabMaxCells {
				t.Fatalf("dims %v cell %d: %d cells", dims, c, len(cells))
			}
			// The variables where some cell differs from c are the free ones.
			free := make([]bool, len(dims))
			y := make([]int, len(dims))
			for _, idx := range cells {
				model.CellLevels(dims, idx, y)
				for j := range dims {
					free[j] = free[j] || y[j] != lv[j]
				}
			}
			want, nfree := 1, 0
			for j, f := range free {
				if f {
					want *= dims[j]
					nfree++
				}
			}
			if nfree == len(dims) {
				t.Fatalf("dims %v cell %d: every variable free", dims, c)
			}
			sorted := slices.Clone(cells)
			slices.Sort(sorted)
			if len(slices.Compact(sorted)) != len(cells) || len(cells) != want {
				t.Fatalf("dims %v cell %d: %d cells (distinct %d), want %d", dims, c, len(cells), len(slices.Compact(sorted)), want)
			}
		}
	}
}

// The chained slabs reach what the ball of radius 3 around the cell
// cannot: on the 3^7 table with Poisson counts of mean 0.2 (sdcopt bench
// audit 3^7:3@0.2) and the view of sequence 2 at its 14th request (14
// margins), the integer program over the ball proves that no table
// differing from the confidential one only within the ball raises these
// cells of count 1 above 2, while the chain reaches 3 (the width the
// default policy requires). Every table of every chain is non-negative
// and has every margin of the view.
func TestChainReachesWhatTheBallCannot(t *testing.T) {
	mip, err := searchEngine("")
	if err != nil {
		t.Skip("no integer engine")
	}
	tab, err := datasets.PoissonTable([]int{3, 3, 3, 3, 3, 3, 3}, 0.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	ms := &model.MarginSet{Vars: tab.Vars}
	for _, vs := range [][]int{{1, 3}, {0, 2, 3}, {1, 3, 4}, {0, 3, 6}, {3}, {0, 2, 5}, {2, 4, 6}, {0, 5, 6}, {3, 6}, {2, 4, 5}, {2, 3, 4}, {0, 5}, {0}, {0, 2, 4}} {
		m, err := tab.Collapse(vs)
		if err != nil {
			t.Fatal(err)
		}
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: vs, Counts: m.Counts})
	}
	dims := model.Dims(ms.Vars)
	deadline := time.Now().Add(time.Minute)
	hasMargins := func(counts []int64) bool {
		for _, x := range counts {
			if x < 0 {
				return false
			}
		}
		x := &model.Table{Vars: tab.Vars, Counts: counts}
		for _, m := range ms.Margins {
			got, err := x.Collapse(m.Vars)
			if err != nil || !slices.Equal(got.Counts, m.Counts) {
				return false
			}
		}
		return true
	}
	for _, c := range []int{151, 874, 1620, 1831} {
		if tab.Counts[c] != 1 {
			t.Fatalf("cell %d: count %d, the table changed", c, tab.Counts[c])
		}
		nb, ok := newNeighbourhood(tab, ms, dims, c, 3)
		if !ok {
			t.Fatalf("cell %d: no ball", c)
		}
		x, optimal, ok := nb.moveAt(mip, 0, +1, 3, deadline, 10*time.Second)
		if !ok || !optimal || x[0] >= 3 {
			t.Fatalf("cell %d: the ball of radius 3 reaches %v (optimal %v, found %v); want an optimum below 3", c, x, optimal, ok)
		}
		// Replay the chain's tables on a copy.
		cur := slices.Clone(tab.Counts)
		steps, best := 0, int64(0)
		last := chainMove(tab, ms, dims, c, +1, 3, uint64(c), deadline, mip, func(cells []int, y []int64) {
			steps++
			for i, idx := range cells {
				cur[idx] = y[i]
			}
			if !hasMargins(cur) {
				t.Fatalf("cell %d: table %d of the chain lacks a margin of the view or has a negative count", c, steps)
			}
			best = max(best, cur[c])
		})
		if !slices.Equal(last, cur) {
			t.Fatalf("cell %d: the chain's last table differs from its tables replayed", c)
		}
		if best < 3 || last[c] < 3 {
			t.Fatalf("cell %d: the chain reached %d (last %d) in %d tables; want 3", c, best, last[c], steps)
		}
		t.Logf("cell %d: ball radius 3 optimum %d, chain reached %d in %d tables", c, x[0], last[c], steps)
	}
}
