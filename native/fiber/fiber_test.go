package fiber_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/internal/tabletest"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/fiber"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all" // registers the engines
)

// violated returns the first margin of ms that counts (non-negative
// checked too) does not have, by model.Table.Collapse: -1 when none.
func violated(t *testing.T, ms *model.MarginSet, counts []int64) int {
	t.Helper()
	for _, x := range counts {
		if x < 0 {
			return len(ms.Margins)
		}
	}
	x := &model.Table{Vars: ms.Vars, Counts: counts}
	for k, m := range ms.Margins {
		got, err := x.Collapse(m.Vars)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Counts, m.Counts) {
			return k
		}
	}
	return -1
}

func engine(t *testing.T) solvers.Solver {
	t.Helper()
	for _, name := range []string{"lpsolve", "cbc", "highs"} {
		if s, err := solvers.New(name, true); err == nil && s.Capabilities().Integer {
			return s
		}
	}
	t.Skip("no integer engine")
	return nil
}

// Every table a slab program returns, put back into the table, has every
// margin of the set (checked by Collapse, independently of the program's
// own rows), and the programs move cells (the check is not vacuous). A
// program built from a set with one margin left out finds tables that
// lack it: the check sees a dropped margin.
func TestSlabProgramKeepsEveryMargin(t *testing.T) {
	mip := engine(t)
	tab, ms := tabletest.Binary(t, 5, 2, 4, 3)
	dims := model.Dims(ms.Vars)
	drop := &model.MarginSet{Vars: ms.Vars, Margins: ms.Margins[1:]} // margin 0 (V1, V2) left out
	r := rand.New(rand.NewPCG(5, 6))
	moved, lost := 0, 0
	for c := range tab.Counts {
		cells := fiber.Draw(dims, model.CellLevels(dims, c, nil), 16, r)
		for _, dir := range []int64{-1, +1} {
			goal := int64(0)
			if dir > 0 {
				goal = 1 << 40
			}
			for _, set := range []*model.MarginSet{ms, drop} {
				p := fiber.Build(tab, set, dims, cells)
				y, _, ok := p.MoveAt(mip, 0, dir, goal, time.Time{}, 10*time.Second)
				if !ok {
					t.Fatalf("cell %d dir %d: no table (the table itself is one)", c, dir)
				}
				x := slices.Clone(tab.Counts)
				for i, idx := range p.Cells {
					x[idx] = y[i]
				}
				k := violated(t, ms, x)
				if set == ms {
					if k >= 0 {
						t.Fatalf("cell %d dir %d: the table found lacks margin %d", c, dir, k)
					}
					if y[0] != tab.Counts[c] {
						moved++
					}
				} else if k >= 0 {
					if k != 0 {
						t.Fatalf("cell %d dir %d: without margin 0 the table lacks margin %d", c, dir, k)
					}
					lost++
				}
			}
		}
	}
	if moved == 0 || lost == 0 {
		t.Fatalf("%d moves with every margin, %d tables without margin 0; want both > 0", moved, lost)
	}
	t.Logf("%d of %d programs moved the cell; %d without margin 0 lost it", moved, 2*len(tab.Counts), lost)
}

// A chain keeps every margin in every table it passes on, raises the
// cell, and with Keep never moves it back (2^6, 3-way margins, slabs of
// 32 cells).
func TestChainKeepsMargins(t *testing.T) {
	mip := engine(t)
	tab, ms := tabletest.Binary(t, 6, 3, 5, 11)
	ch := fiber.Chainer{MaxCells: 32, Steps: 12, SolveLimit: 5 * time.Second, Keep: true}
	for _, c := range []int{0, 17, 63} {
		cur := slices.Clone(tab.Counts)
		prev, tables := tab.Counts[c], 0
		last := ch.Move(tab, ms, c, +1, 1<<40, uint64(c), time.Time{}, mip, func(cells []int, y []int64) {
			for i, idx := range cells {
				cur[idx] = y[i]
			}
			if k := violated(t, ms, cur); k >= 0 {
				t.Fatalf("cell %d: table %d lacks margin %d", c, tables, k)
			}
			if cur[c] < prev {
				t.Fatalf("cell %d: moved back from %d to %d", c, prev, cur[c])
			}
			prev = cur[c]
			tables++
		})
		if !slices.Equal(last, cur) {
			t.Fatalf("cell %d: the last table differs from the tables replayed", c)
		}
		if last[c] <= tab.Counts[c] {
			t.Fatalf("cell %d: the chain stayed at %d", c, last[c])
		}
		t.Logf("cell %d: %d -> %d in %d tables", c, tab.Counts[c], last[c], tables)
	}
}
