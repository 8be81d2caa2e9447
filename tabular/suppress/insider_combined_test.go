package suppress

import (
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// TestInsiderCombinedWitness: the row Total = c1 + c2 + c3 with values
// c1 = 2 (primary, levels 1), c2 = 1 (one contributor: the insider who
// knows it, so c2 cannot move and Total cannot fall below 1) and c3. The
// outsider's witness for "c1 up by 1" is d = (c1 +1, c2 −1); it moves c2,
// which the insider fixes. The outsider's witness for "c2 up by 1",
// d2 = (c2 +1, c3 −1), corrects it: d + d2 = (c1 +1, c3 −1), within the
// insider's bounds when c3 can fall by 1 (c3 = 5: reached, hand
// computation 5 − 1 ≥ 0), not when c3 = 0 (c3 cannot fall: μ = 0).
func TestInsiderCombinedWitness(t *testing.T) {
	for _, tc := range []struct {
		c3    float64
		reach bool
	}{{5, true}, {0, false}} {
		tab := oneRow(t, 2, 1, tc.c3)
		c1 := cellOf(t, tab, "c1")
		c2 := cellOf(t, tab, "c2")
		c3 := cellOf(t, tab, "c3")
		tab.Cells[c1].Status, tab.Cells[c1].Upper, tab.Cells[c1].Lower = tabular.Primary, 1, 1
		s := &Settings{Insiders: InsidersOn}
		m, err := buildModel(tableSource(tab), s)
		if err != nil {
			t.Fatal(err)
		}
		know, _, err := insiderKnowledge(tab, s)
		if err != nil {
			t.Fatal(err)
		}
		pl := newInsiderPool(m, know, s.minLevel())
		var tg *target
		for k := range pl.targets {
			x := &pl.targets[k]
			if x.cell == c1 && x.up && x.ov != nil && know[x.ov.insider].Insider.Kind.String() == "cell" && know[x.ov.insider].Insider.Cell == c2 {
				tg = x
			}
		}
		if tg == nil {
			t.Fatalf("c3 = %g: no target of the insider of c2 on c1 up: %+v", tc.c3, pl.targets)
		}
		d := make([]float64, len(m.cell))
		d[m.colOf[c1]], d[m.colOf[c2]] = 1, -1
		d2 := make([]float64, len(m.cell))
		d2[m.colOf[c2]], d2[m.colOf[c3]] = 1, -1
		up2, ok := pl.outTarget[dirKey(m.colOf[c2], true)]
		if !ok {
			// c2 is not primary: give its witness under a made-up index.
			up2 = -1
			pl.outTarget[dirKey(m.colOf[c2], true)] = up2
		}
		g := &insiderGuard{m: m, pool: pl}
		got, err := g.combined(*tg, d, func(ot int) ([]float64, error) {
			if ot != up2 {
				t.Fatalf("witness of target %d asked, want %d", ot, up2)
			}
			return d2, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.reach {
			t.Fatalf("c3 = %g: combined %v, want %v", tc.c3, got, tc.reach)
		}
	}
}

// cellOf returns the cell of code in a one-dimensional table.
func cellOf(t *testing.T, tab *tabular.Table, code string) int {
	t.Helper()
	k, ok := tab.Dims[0].H.Index(code)
	if !ok {
		t.Fatalf("no code %s", code)
	}
	return tab.Index([]int{k})
}
