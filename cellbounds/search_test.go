package cellbounds_test

import (
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/internal/tabletest"
	"github.com/sdcopt/sdcopt/model"
)

// gapsOf returns the gaps of proven bounds lo, hi per cell, with the
// table's counts attained.
func gapsOf(lo, hi []int64, counts []int64) *cellbounds.Gaps {
	certs := &cellbounds.Certificates{}
	for c := range lo {
		// The values are proven (the IP's): sharp when attained.
		certs.Cells = append(certs.Cells, cellbounds.CellCertificate{Lower: cellbounds.BoundCertificate{Value: lo[c], Proof: cellbounds.ProofIP, Witness: -1},
			Upper: cellbounds.BoundCertificate{Value: hi[c], Proof: cellbounds.ProofIP, Witness: -1}})
	}
	return cellbounds.CertifiedGaps(certs, counts)
}

// checkTables fails unless every table is non-negative with every margin
// of ms (by model.Table.Collapse) and the attained values of g are the
// extremes of the tables and the table's counts.
func checkTables(t *testing.T, ms *model.MarginSet, counts []int64, tables [][]int64, g *cellbounds.Gaps) {
	t.Helper()
	lo, hi := slices.Clone(counts), slices.Clone(counts)
	for i, x := range tables {
		tab := &model.Table{Vars: ms.Vars, Counts: x}
		for c, v := range x {
			if v < 0 {
				t.Fatalf("table %d: cell %d is %d", i, c, v)
			}
			lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
		}
		for k, m := range ms.Margins {
			got, err := tab.Collapse(m.Vars)
			if err != nil || !slices.Equal(got.Counts, m.Counts) {
				t.Fatalf("table %d lacks margin %d %v", i, k, m.Vars)
			}
		}
	}
	if !slices.Equal(lo, g.AttainedLower) || !slices.Equal(hi, g.AttainedUpper) {
		t.Fatalf("attained values are not the extremes of the %d tables found", len(tables))
	}
}

// The slab search against the integer programs over the whole table
// (Compute with method ip: the sharp integer bounds, lp_solve's or the
// default engine's): on small binary tables every attained value lies
// within the sharp bounds, every table found is a table with the margins,
// and every lower bound is attained.
func TestSlabSearchAgainstIP(t *testing.T) {
	if _, err := cellbounds.SearchEngine(""); err != nil {
		t.Skip("no integer engine")
	}
	cases := []struct{ d, k, maxCount int }{{6, 3, 3}, {5, 2, 4}, {6, 3, 9}}
	if testing.Short() {
		cases = cases[:2]
	}
	for i, cs := range cases {
		tab, ms := tabletest.Binary(t, cs.d, cs.k, cs.maxCount, uint64(10+i))
		ref, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.IP, Solver: "lpsolve"})
		if err != nil {
			ref, err = cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.IP})
		}
		if err != nil || !ref.Sharp {
			t.Fatalf("2^%d: no sharp IP reference (%v)", cs.d, err)
		}
		n := len(tab.Counts)
		lo, hi := make([]int64, n), make([]int64, n)
		for c := range n {
			lo[c], hi[c] = int64(ref.Bounds.Lower[c]), int64(ref.Bounds.Upper[c])
		}
		g := gapsOf(lo, hi, tab.Counts)
		var tables [][]int64
		opt := cellbounds.SearchOptions{Seed: 1, Deadline: time.Now().Add(3 * time.Second), SlabCells: 32, WideSlabCells: 32,
			OnTable: func(x []int64) { tables = append(tables, slices.Clone(x)) }}
		if err := g.Search(tab, ms, opt); err != nil {
			t.Fatal(err)
		}
		checkTables(t, ms, tab.Counts, tables, g)
		sharpUp := 0
		for c := range n {
			if g.AttainedLower[c] < lo[c] || g.AttainedUpper[c] > hi[c] {
				t.Fatalf("2^%d cell %d: attained [%d, %d] outside the IP bounds [%d, %d]", cs.d, c, g.AttainedLower[c], g.AttainedUpper[c], lo[c], hi[c])
			}
			if g.AttainedLower[c] != lo[c] {
				t.Errorf("2^%d cell %d: lower bound %d not attained (least value found %d)", cs.d, c, lo[c], g.AttainedLower[c])
			}
			if g.AttainedUpper[c] == hi[c] {
				sharpUp++
			}
		}
		t.Logf("2^%d, %d-way, counts 0..%d: %d tables, %d of %d upper bounds attained, %d of %d bounds sharp, total gap %d, %d rounds",
			cs.d, cs.k, cs.maxCount, len(tables), sharpUp, n, g.SharpBounds, g.Bounds, g.TotalGap, g.SearchRounds)
	}
}

// A table without the margins is refused.
func TestSlabSearchRefusesOtherTable(t *testing.T) {
	tab, ms := tabletest.Binary(t, 4, 2, 3, 1)
	other := slices.Clone(tab.Counts)
	other[0]++
	g := gapsOf(make([]int64, len(other)), slices.Clone(other), other)
	if err := g.Search(&model.Table{Vars: tab.Vars, Counts: other}, ms, cellbounds.SearchOptions{}); err == nil {
		t.Fatal("a table without the margins was searched")
	}
}

// On the 2^10 binary table with counts uniform in 0..9 and all 120 3-way
// margins (the size of the bench's certified case), the lower bound 0 is
// attained at every cell within 60 s, and the upward rounds raise the
// attained upper values (proven bounds here: 0 and the least marginal
// count, valid but not sharp).
func TestSlabSearchBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 2^10 table")
	}
	if _, err := cellbounds.SearchEngine(""); err != nil {
		t.Skip("no integer engine")
	}
	tab, ms := tabletest.Binary(t, 10, 3, 9, 7)
	dims := model.Dims(ms.Vars)
	n := len(tab.Counts)
	lo, hi := make([]int64, n), make([]int64, n)
	lv := make([]int, len(dims))
	for c := range n {
		model.CellLevels(dims, c, lv)
		hi[c] = 1 << 62
		for _, m := range ms.Margins {
			hi[c] = min(hi[c], m.Counts[model.Project(dims, m.Vars, lv)])
		}
	}
	g := gapsOf(lo, hi, tab.Counts)
	start := time.Now()
	if err := g.Search(tab, ms, cellbounds.SearchOptions{Seed: 1, Deadline: start.Add(60 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	var ups []int64
	for c := range n {
		if g.AttainedLower[c] != 0 {
			t.Errorf("cell %d: least value found %d, want 0", c, g.AttainedLower[c])
		}
		ups = append(ups, g.AttainedUpper[c])
	}
	slices.Sort(ups)
	t.Logf("%d of %d bounds sharp; attained upper median %d (table's median count %d); %d tables, %d rounds, %.1f s",
		g.SharpBounds, g.Bounds, ups[n/2], 4, g.SearchTables, g.SearchRounds, time.Since(start).Seconds())
}
