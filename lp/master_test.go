package lp

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

func TestMasterProblem(t *testing.T) {
	ds, err := model.NewDataset(nil, 4, 1, []float64{0, 1, 5, 7})
	if err != nil {
		t.Fatal(err)
	}
	d := model.NewSqDist(ds)
	p, err := MasterProblem(d, [][]int{{0, 1}, {2, 3}, {0, 1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if p.NumRows() != 4 || p.NumCols() != 3 || p.NumNonzeros() != 8 {
		t.Fatalf("shape %d x %d, %d nonzeros", p.NumRows(), p.NumCols(), p.NumNonzeros())
	}
	// w_C of Equation (8): {0,1} -> 1/2, {5,7} -> 4/2, all four -> SSE about
	// the mean 3.25: 10.5625 + 5.0625 + 3.0625 + 14.0625 = 32.75.
	for j, want := range []float64{0.5, 2, 32.75} {
		if math.Abs(p.Obj[j]-want) > 1e-12 || p.ColLower[j] != 0 || !math.IsInf(p.ColUpper[j], 1) {
			t.Errorf("column %d: cost %g bounds [%g, %g]", j, p.Obj[j], p.ColLower[j], p.ColUpper[j])
		}
	}
	for i := 0; i < 4; i++ {
		if p.RowLower[i] != 1 || p.RowUpper[i] != 1 {
			t.Errorf("row %d: [%g, %g]", i, p.RowLower[i], p.RowUpper[i])
		}
	}
	for _, bad := range [][][]int{{{}}, {{0, 4}}, {{1, 1}}, {{-1}}} {
		if _, err := MasterProblem(d, bad); err == nil {
			t.Errorf("accepted %v", bad)
		}
	}
}
