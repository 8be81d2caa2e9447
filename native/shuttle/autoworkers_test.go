package shuttle

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// loadAutoworkers reads ../shared/datasets/autoworkers.csv (columns
// A..F, count; levels in order of first appearance, which is the order of
// the shared README: no/yes, <140/>=140, <3/>=3, neg/pos). It skips the
// test when the shared data are absent.
func loadAutoworkers(t testing.TB) *model.Table {
	t.Helper()
	dir, err := datasets.SharedDir()
	if errors.Is(err, datasets.ErrNoSharedData) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
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

func index(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func spec(t testing.TB, tab *model.Table, s string) [][]int {
	t.Helper()
	sub, err := model.ParseMarginSpec(tab.Vars, s)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// at returns the index of the cell with the given level labels (one per
// variable of vars, in order).
func at(vars []model.Variable, labels ...string) int {
	lv := make([]int, len(vars))
	for i, l := range labels {
		lv[i] = index(vars[i].Levels, l)
		if lv[i] < 0 {
			panic("unknown level " + l)
		}
	}
	return model.CellIndex(model.Dims(vars), lv)
}

// table2Upper is Table 2 of Dobra and Fienberg: the bounds of the
// autoworkers cells given [BF], [ABCE], [ADE]. Every lower bound there is 0.
// Rows are (F, E, D, C) with F slowest, as printed; the four columns are
// (B, A) = (no,no), (no,yes), (yes,no), (yes,yes).
var table2Upper = [16][4]int64{
	{88, 62, 224, 117}, // neg <3 <140 no
	{261, 246, 25, 38}, // neg <3 <140 yes
	{88, 62, 224, 117}, // neg <3 >=140 no
	{261, 151, 25, 38}, // neg <3 >=140 yes
	{58, 60, 170, 148}, // neg >=3 <140 no
	{115, 173, 20, 36}, // neg >=3 <140 yes
	{58, 60, 170, 148}, // neg >=3 >=140 no
	{115, 173, 20, 36}, // neg >=3 >=140 yes
	{88, 62, 126, 117}, // pos <3 <140 no
	{134, 134, 25, 38}, // pos <3 <140 yes
	{88, 62, 126, 117}, // pos <3 >=140 no
	{134, 134, 25, 38}, // pos <3 >=140 yes
	{58, 60, 126, 126}, // pos >=3 <140 no
	{115, 134, 20, 36}, // pos >=3 <140 yes
	{58, 60, 126, 126}, // pos >=3 >=140 no
	{115, 134, 20, 36}, // pos >=3 >=140 yes
}

var (
	levF = []string{"neg", "pos"}
	levE = []string{"<3", ">=3"}
	levD = []string{"<140", ">=140"}
	levC = []string{"no", "yes"}
	levB = []string{"no", "no", "yes", "yes"} // Table columns (B, A)
	levA = []string{"no", "yes", "no", "yes"}
)

// TestAutoworkersTable2 reproduces Table 2 (margins [BF], [ABCE], [ADE],
// the minimal sufficient statistics of a decomposable model: the shuttle
// alone is sharp there, Section 4 case (i)).
func TestAutoworkersTable2(t *testing.T) {
	tab := loadAutoworkers(t)
	ms := mustReleased(t, tab, spec(t, tab, "BF,ABCE,ADE"))
	r, err := Bounds(ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Sharp {
		t.Errorf("not sharp: %s", r.Note)
	}
	if d := r.ShuttleBounds.Diff(r.Bounds, 0); d >= 0 {
		t.Errorf("decomposable margins: the shuttle bound of cell %d is not sharp", d)
	}
	row := 0
	for _, f := range levF {
		for _, e := range levE {
			for _, d := range levD {
				for _, c := range levC {
					for col := 0; col < 4; col++ {
						i := at(tab.Vars, levA[col], levB[col], c, d, e, f)
						want := table2Upper[row][col]
						if r.Bounds.Lower[i] != 0 || r.Bounds.Upper[i] != float64(want) {
							t.Errorf("Table 2 F=%s E=%s D=%s C=%s B=%s A=%s: got [%g, %g], paper [0, %d]",
								f, e, d, c, levB[col], levA[col], r.Bounds.Lower[i], r.Bounds.Upper[i], want)
						}
					}
					row++
				}
			}
		}
	}
	t.Logf("|T| = %d, deps = %d, nodes = %d, tables = %d, %.3f s", r.TCells, r.Deps, r.Nodes, r.Tables, r.Seconds)
}

// table3 is Table 3 of Dobra and Fienberg: bounds for the cells of [ABCE]
// given its six two-way margins. Rows (E, C); columns (B, A) as table2.
// Every lower bound is 0. The cell (E<3, C=no, B=yes, A=yes) has the
// integer bound 312 where the LP gives 312.67.
var table3Upper = [4][4]int64{
	{206, 167, 404, 312}, // <3 no
	{421, 463, 119, 119}, // <3 yes
	{181, 167, 363, 339}, // >=3 no
	{314, 344, 119, 119}, // >=3 yes
}

// table3Lower is 0 everywhere in the paper. One published lower bound is
// valid but not sharp: for (E<3, C=yes, B=no, A=yes) every table with the
// six two-way margins has
//
//	x >= n[BC](no,yes) + n[CE](yes,<3) - n[C](yes) - n[AC](no,yes)
//	   = 795 + 570 - 914 - 421 = 30
//
// (the cells of [BCE] at (B=no, C=yes, E<3) number at least 795+570-914 =
// 451, of which at most n[AC](no,yes) = 421 have A=no). The LP and the IP
// (HiGHS) give 30 as well. We test the sharp value, not the published 0.
var table3Lower = [4][4]int64{
	{0, 0, 0, 0},
	{0, 30, 0, 0}, // <3 yes, (B, A) = (no, yes): paper 0, sharp 30
	{0, 0, 0, 0},
	{0, 0, 0, 0},
}

// TestAutoworkersTable3 reproduces Table 3 (the [ABCE] table given all six
// two-way margins AB, AC, AE, BC, BE, CE).
func TestAutoworkersTable3(t *testing.T) {
	full := loadAutoworkers(t)
	tab, err := full.CollapseTable([]int{0, 1, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	ms := mustReleased(t, tab, allTwoWay(4))
	r, err := Bounds(ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Sharp {
		t.Errorf("not sharp: %s", r.Note)
	}
	for row, e := range levE {
		for ci, c := range levC {
			for col := 0; col < 4; col++ {
				i := at(tab.Vars, levA[col], levB[col], c, e)
				lo, hi := table3Lower[2*row+ci][col], table3Upper[2*row+ci][col]
				if r.Bounds.Lower[i] != float64(lo) || r.Bounds.Upper[i] != float64(hi) {
					t.Errorf("Table 3 E=%s C=%s B=%s A=%s: got [%g, %g] (shuttle [%g, %g]), want [%d, %d]",
						e, c, levB[col], levA[col], r.Bounds.Lower[i], r.Bounds.Upper[i],
						r.ShuttleBounds.Lower[i], r.ShuttleBounds.Upper[i], lo, hi)
				}
			}
		}
	}
	// The paper's fractional LP cell: shuttle alone 314, sharp 312.
	i := at(tab.Vars, "yes", "yes", "no", "<3")
	if r.ShuttleBounds.Upper[i] < 312 {
		t.Errorf("shuttle upper bound %g below the sharp 312", r.ShuttleBounds.Upper[i])
	}
	t.Logf("cell (E<3, C=no, B=yes, A=yes): shuttle [%g, %g], corrected [%g, %g] (LP 312.67)",
		r.ShuttleBounds.Lower[i], r.ShuttleBounds.Upper[i], r.Bounds.Lower[i], r.Bounds.Upper[i])
	t.Logf("|T| = %d, deps = %d, nodes = %d, searches = %d, tables = %d, %.3f s", r.TCells, r.Deps, r.Nodes, r.Searches, r.Tables, r.Seconds)
}

// table4 is Table 4 of Dobra and Fienberg: bounds for the cells of [ADE]
// given [AE], [DE], [AD]. Rows (E, D) with D printed as no/yes for
// <140/>=140; columns A = no, yes.
var table4 = [4][2][2]int64{
	{{182, 515}, {130, 463}}, // <3 <140
	{{83, 416}, {0, 333}},    // <3 >=140
	{{0, 333}, {76, 409}},    // >=3 <140
	{{30, 363}, {8, 341}},    // >=3 >=140
}

// TestAutoworkersTable4 reproduces Table 4 (the [ADE] table given its
// three two-way margins: a 2x2x2 table with all two-way margins, Section 4
// case (ii)).
func TestAutoworkersTable4(t *testing.T) {
	full := loadAutoworkers(t)
	tab, err := full.CollapseTable([]int{0, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	ms := mustReleased(t, tab, spec(t, tab, "AE,DE,AD"))
	r, err := Bounds(ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Sharp {
		t.Errorf("not sharp: %s", r.Note)
	}
	if d := r.ShuttleBounds.Diff(r.Bounds, 0); d >= 0 {
		t.Errorf("2x2x2 with all two-way margins: the shuttle bound of cell %d is not sharp", d)
	}
	for row := 0; row < 4; row++ {
		e, d := levE[row/2], levD[row%2]
		for ai, a := range []string{"no", "yes"} {
			i := at(tab.Vars, a, d, e)
			want := table4[row][ai]
			if r.Bounds.Lower[i] != float64(want[0]) || r.Bounds.Upper[i] != float64(want[1]) {
				t.Errorf("Table 4 E=%s D=%s A=%s: got [%g, %g], paper [%d, %d]", e, d, a,
					r.Bounds.Lower[i], r.Bounds.Upper[i], want[0], want[1])
			}
		}
	}
}

// TestAutoworkersMarginals computes the bounds of the [ABCE] and [ADE]
// cells from the full 6-way table given the nine margins of Section 5
// ([BF], [BC], [BE], [AB], [AC], [AE], [CE], [DE], [AD]) and compares them
// with Tables 3 and 4: by Theorem 2 the bounds of a component's cells are
// those of the component given its own margins.
func TestAutoworkersMarginals(t *testing.T) {
	if testing.Short() {
		t.Skip("long: correction of 64 cells and 24 marginal cells")
	}
	tab := loadAutoworkers(t)
	opt := DefaultOptions()
	opt.Marginals = [][]int{{0, 1, 2, 4}, {0, 3, 4}}
	ms := mustReleased(t, tab, spec(t, tab, "BF,BC,BE,AB,AC,AE,CE,DE,AD"))
	r, err := Bounds(ms, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Sharp {
		t.Errorf("not sharp: %s", r.Note)
	}
	abce, sharp := r.Marginal([]int{0, 1, 2, 4})
	if !sharp {
		t.Error("[ABCE] bounds not certified")
	}
	sub := []model.Variable{tab.Vars[0], tab.Vars[1], tab.Vars[2], tab.Vars[4]}
	for row, e := range levE {
		for ci, c := range levC {
			for col := 0; col < 4; col++ {
				i := at(sub, levA[col], levB[col], c, e)
				lo, hi := table3Lower[2*row+ci][col], table3Upper[2*row+ci][col]
				if abce.Lower[i] != float64(lo) || abce.Upper[i] != float64(hi) {
					t.Errorf("[ABCE] E=%s C=%s B=%s A=%s: got [%g, %g], want (Table 3) [%d, %d]", e, c, levB[col], levA[col],
						abce.Lower[i], abce.Upper[i], lo, hi)
				}
			}
		}
	}
	ade, sharp := r.Marginal([]int{0, 3, 4})
	if !sharp {
		t.Error("[ADE] bounds not certified")
	}
	sub = []model.Variable{tab.Vars[0], tab.Vars[3], tab.Vars[4]}
	for row := 0; row < 4; row++ {
		e, d := levE[row/2], levD[row%2]
		for ai, a := range []string{"no", "yes"} {
			i := at(sub, a, d, e)
			if want := table4[row][ai]; ade.Lower[i] != float64(want[0]) || ade.Upper[i] != float64(want[1]) {
				t.Errorf("[ADE] E=%s D=%s A=%s: got [%g, %g], Table 4 [%d, %d]", e, d, a, ade.Lower[i], ade.Upper[i], want[0], want[1])
			}
		}
	}
	t.Logf("|T| = %d, deps = %d, nodes = %d, searches = %d, tables = %d, %.3f s", r.TCells, r.Deps, r.Nodes, r.Searches, r.Tables, r.Seconds)
}
