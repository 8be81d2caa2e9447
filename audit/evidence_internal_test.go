package audit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
)

// Local moves keep every released margin and non-negativity, never pass
// the sharp integer bounds (IP), and on the 2x2x2 table with all 2-way
// margins move a cell of the even-parity table from 1 to 0 and a cell of
// the odd-parity table from 0 to 1 (the two tables of that fiber).
func TestMoves(t *testing.T) {
	vars := make([]model.Variable, 3)
	for i := range vars {
		vars[i] = model.Variable{Name: string(rune('A' + i)), Levels: []string{"0", "1"}}
	}
	even := []int64{1, 0, 0, 1, 0, 1, 1, 0} // 000, 011, 101, 110
	tab, _ := model.NewTable(vars, even)
	all2 := uncoveredSets(model.Dims(vars), [][]int{{0, 1}, {0, 2}, {1, 2}})
	if v := moveInterval(tab, all2, 0, -1, 0, 1); v != 0 {
		t.Errorf("even-parity cell 000 moved down to %d, want 0", v)
	}
	if v := moveInterval(tab, all2, 1, +1, 5, 1); v != 1 {
		t.Errorf("odd-parity cell 001 moved up to %d, want 1 (its sharp upper bound)", v)
	}
	moved := 0
	cases := 15
	if testing.Short() {
		cases = 5
	}
	for s := 0; s < cases; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 9))
		k := 3 + r.IntN(2)
		vars := make([]model.Variable, k)
		for i := range vars {
			vars[i].Name = string(rune('A' + i))
			for l := 0; l < 2+r.IntN(2); l++ {
				vars[i].Levels = append(vars[i].Levels, fmt.Sprint(l))
			}
		}
		counts := make([]int64, model.NumCells(model.Dims(vars)))
		for i := range counts {
			counts[i] = int64(r.IntN(4))
		}
		tab, _ := model.NewTable(vars, counts)
		var subs [][]int
		for i := 0; i < k; i++ {
			for j := i + 1; j < k; j++ {
				if r.IntN(3) > 0 {
					subs = append(subs, []int{i, j})
				}
			}
		}
		if len(subs) == 0 {
			subs = [][]int{{0, 1}}
		}
		ms, err := tab.Released(subs)
		if err != nil {
			t.Fatal(err)
		}
		ip, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.IP})
		if err != nil {
			t.Fatal(err)
		}
		for c := range counts {
			for _, dir := range []int64{-1, 1} {
				goal := int64(1000) * dir
				v, w := moveTable(tab, uncoveredSets(model.Dims(vars), subs), c, dir, goal, uint64(c))
				if float64(v) < ip.Bounds.Lower[c]-1e-6 || float64(v) > ip.Bounds.Upper[c]+1e-6 {
					t.Fatalf("case %d cell %d: moved to %d outside the IP bounds [%g, %g]", s, c, v, ip.Bounds.Lower[c], ip.Bounds.Upper[c])
				}
				if v != counts[c] {
					moved++
				}
				if slices.Min(w) < 0 {
					t.Fatalf("case %d cell %d: a negative count", s, c)
				}
				wt, _ := model.NewTable(vars, w)
				for _, m := range ms.Margins {
					got, _ := wt.Collapse(m.Vars)
					if !slices.Equal(got.Counts, m.Counts) {
						t.Fatalf("case %d cell %d: margin %v changed", s, c, m.Vars)
					}
				}
			}
		}
	}
	if moved == 0 {
		t.Error("no cell ever moved")
	}
	t.Logf("%d searches moved their cell", moved)
}
