package frechet

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// autoworkers reads ../shared/datasets/autoworkers.csv (the Czech
// autoworkers 2^6 table, variables A..F, levels in order of appearance,
// which is the documented order: no/yes, <140/>=140, <3/>=3, neg/pos). It
// skips the test when the file is absent.
func autoworkers(t testing.TB) *model.Table {
	t.Helper()
	dir, err := datasets.SharedDir()
	if err != nil {
		t.Skip(err)
	}
	tab, err := datasets.LoadTableCSV(filepath.Join(dir, "autoworkers.csv"), nil)
	if errors.Is(err, os.ErrNotExist) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	// Total from ../shared/datasets/README.md, section 3.
	if tab.Total() != 1841 {
		t.Fatalf("autoworkers total %d, want 1841", tab.Total())
	}
	return tab
}

// paperTable2 is the upper bounds of Table 2 of Dobra and Fienberg (the
// margins [BF] [ABCE] [ADE]); every published lower bound is 0. Rows in the
// paper's order: F (neg, pos) slowest, then E (<3, >=3), D (<140, >=140),
// C (no, yes); columns B=no A=no, B=no A=yes, B=yes A=no, B=yes A=yes.
var paperTable2 = [16][4]float64{
	{88, 62, 224, 117}, {261, 246, 25, 38}, {88, 62, 224, 117}, {261, 151, 25, 38},
	{58, 60, 170, 148}, {115, 173, 20, 36}, {58, 60, 170, 148}, {115, 173, 20, 36},
	{88, 62, 126, 117}, {134, 134, 25, 38}, {88, 62, 126, 117}, {134, 134, 25, 38},
	{58, 60, 126, 126}, {115, 134, 20, 36}, {58, 60, 126, 126}, {115, 134, 20, 36},
}

// paperTable5 is the upper bounds of Table 5 (the margins [BF] [BC] [BE]
// [AB] [AC] [AE] [CE] [DE] [AD]), same layout; every lower bound is 0. The
// cell F=neg E<3 C=no B=yes A=yes is printed as [0,312] with the LP value
// 312.67 beside it.
var paperTable5 = [16][4]float64{
	{206, 167, 404, 312}, {421, 463, 119, 119}, {206, 167, 404, 312}, {416, 333, 119, 119},
	{181, 167, 333, 339}, {314, 344, 119, 119}, {181, 167, 363, 339}, {314, 341, 119, 119},
	{134, 134, 126, 126}, {134, 134, 119, 119}, {134, 134, 126, 126}, {134, 134, 119, 119},
	{134, 134, 126, 126}, {134, 134, 119, 119}, {134, 134, 126, 126}, {134, 134, 119, 119},
}

// paperCell maps a row r and column c of the paper's layout to the level
// vector (A, B, C, D, E, F).
func paperCell(r, c int) []int {
	f, e, d, cc := r/8, r/4%2, r/2%2, r%2
	b, a := c/2, c%2
	return []int{a, b, cc, d, e, f}
}

func TestAutoworkersTable2(t *testing.T) {
	tab := autoworkers(t)
	ms := marginSet(t, tab, "BF,ABCE,ADE")
	if !Decomposable(ms) {
		t.Fatal("[BF] [ABCE] [ADE] should be decomposable")
	}
	g, _ := Graph(ms)
	if got, want := g.String(), "A-B A-C A-D A-E B-C B-E B-F C-E D-E"; got != want {
		t.Errorf("graph (paper Fig. 1) %q, want %q", got, want)
	}
	jt, _ := g.JunctionTree()
	t.Logf("junction tree: %s", jt)
	d, err := Decompose(ms)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.String(), "[BF] [ABCE] [ADE] | separators [B] [AE]"; got != want {
		t.Errorf("decomposition %q, want %q", got, want)
	}
	b, err := Bounds(ms)
	if err != nil {
		t.Fatal(err)
	}
	dims := model.Dims(tab.Vars)
	for r := range 16 {
		for c := range 4 {
			i := model.CellIndex(dims, paperCell(r, c))
			if b.Lower[i] != 0 || b.Upper[i] != paperTable2[r][c] {
				t.Errorf("Table 2 row %d col %d: [%g, %g], paper [0, %g]", r+1, c+1, b.Lower[i], b.Upper[i], paperTable2[r][c])
			}
			if float64(tab.Counts[i]) < b.Lower[i] || float64(tab.Counts[i]) > b.Upper[i] {
				t.Errorf("cell %d count %d outside [%g, %g]", i, tab.Counts[i], b.Lower[i], b.Upper[i])
			}
		}
	}
	// Theorem 2 with every component released is Theorem 1.
	rb, err := Reducible(ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBounds(t, "Reducible vs Bounds", rb, b)
}

// paperTable3 is the integer bounds of Table 3 for the cells of [ABCE] given
// its six two-way margins: rows E (<3, >=3) slowest, then C (no, yes);
// columns as in Table 2; every lower bound is 0. The LP gives 312.67 for row
// 1 column 4, the integer bound is 312.
var paperTable3 = [4][4]float64{
	{206, 167, 404, 312}, {421, 463, 119, 119},
	{181, 167, 363, 339}, {314, 344, 119, 119},
}

// paperTable4 is Table 4, bounds for [ADE] given [AE] [DE] [AD]: rows E
// (<3, >=3), then D (<140, >=140); columns A = no, yes.
var paperTable4 = [4][2][2]float64{
	{{182, 515}, {130, 463}}, {{83, 416}, {0, 333}},
	{{0, 333}, {76, 409}}, {{30, 363}, {8, 341}},
}

// TestAutoworkersTable5 runs the Section 5 example: the margin set is not
// decomposable (not graphical) but reduces to [BF] [ABCE] [ADE] with
// separators [B] [AE]; combining the published component bounds (Tables 3
// and 4) by Theorem 2 must give the published Table 5.
func TestAutoworkersTable5(t *testing.T) {
	tab := autoworkers(t)
	ms := marginSet(t, tab, "BF,BC,BE,AB,AC,AE,CE,DE,AD")
	if Decomposable(ms) {
		t.Fatal("the Section 5 margins are not graphical, hence not decomposable")
	}
	d, err := Decompose(ms)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.String(), "[BF] [ABCE] [ADE] | separators [B] [AE]"; got != want {
		t.Fatalf("decomposition %q, want %q", got, want)
	}
	if d.Components[0].Exact == nil || d.Components[1].Exact != nil || d.Components[2].Exact != nil {
		t.Fatal("only [BF] is released")
	}
	if got := d.Components[1].Margins.Name(); got != "[BC] [BE] [AB] [AC] [AE] [CE]" {
		t.Errorf("[ABCE] margins %s", got)
	}
	if got := d.Components[2].Margins.Name(); got != "[AE] [DE] [AD]" {
		t.Errorf("[ADE] margins %s", got)
	}
	published := func(sub *model.MarginSet) (*model.CellBounds, error) {
		dims := model.Dims(sub.Vars)
		b := model.NewCellBounds(model.NumCells(dims))
		b.Method = make([]string, len(b.Lower))
		switch fmt.Sprintf("%d %s", len(sub.Vars), sub.Vars[0].Name) {
		case "4 A": // A, B, C, E
			for r := range 4 {
				for c := range 4 {
					i := model.CellIndex(dims, []int{c % 2, c / 2, r % 2, r / 2})
					b.Lower[i], b.Upper[i], b.Method[i] = 0, paperTable3[r][c], "table3"
				}
			}
		case "3 A": // A, D, E
			for r := range 4 {
				for a := range 2 {
					i := model.CellIndex(dims, []int{a, r % 2, r / 2})
					b.Lower[i], b.Upper[i], b.Method[i] = paperTable4[r][a][0], paperTable4[r][a][1], "table4"
				}
			}
		default:
			return nil, fmt.Errorf("unexpected component %s", sub.Name())
		}
		return b, nil
	}
	b, err := Reducible(ms, published)
	if err != nil {
		t.Fatal(err)
	}
	dims := model.Dims(tab.Vars)
	for r := range 16 {
		for c := range 4 {
			i := model.CellIndex(dims, paperCell(r, c))
			if b.Lower[i] != 0 || b.Upper[i] != paperTable5[r][c] {
				t.Errorf("Table 5 row %d col %d: [%g, %g], paper [0, %g]", r+1, c+1, b.Lower[i], b.Upper[i], paperTable5[r][c])
			}
			if b.Method[i] != "reducible(table3+table4)" {
				t.Errorf("cell %d method %q", i, b.Method[i])
			}
		}
	}
}
