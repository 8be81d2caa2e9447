package lp_test

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// tol compares bounds computed by engines.
const tol = 1e-6

// lpEngines returns every available engine that solves LPs.
func lpEngines(t *testing.T) []solvers.Solver {
	t.Helper()
	var out []solvers.Solver
	for _, info := range solvers.List() {
		if !info.Available || !info.Capabilities.LP {
			continue
		}
		s, err := solvers.New(info.Name, false)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no LP engine available")
	}
	return out
}

// autoworkers returns the margin set of the autoworkers table collapsed
// onto vars (nil: all) with the margins spec; it skips without the data.
func autoworkers(t testing.TB, vars []string, spec string) (*model.Table, *model.MarginSet) {
	t.Helper()
	dir, err := datasets.SharedDir()
	if err != nil {
		t.Skip(err)
	}
	tab, err := datasets.LoadTableCSV(filepath.Join(dir, "autoworkers.csv"), vars)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := tab.ReleaseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	return tab, ms
}

// table3Upper are the upper bounds of Dobra & Fienberg, Table 3 (bounds for
// [ABCE] given its six 2-way marginals), in our cell order (A, B, C, E;
// A slowest). Cell 12 (A=yes, B=yes, C=no, E<3) is the fractional LP bound
// 312.67 = 938/3 the paper prints beside the integer bound 312.
var table3Upper = []float64{206, 181, 421, 314, 404, 363, 119, 119, 167, 167, 463, 344, 938.0 / 3, 339, 119, 119}

func TestTable3LPFractional(t *testing.T) {
	_, ms := autoworkers(t, []string{"A", "B", "C", "E"}, "AB,AC,AE,BC,BE,CE")
	for _, s := range lpEngines(t) {
		for _, cold := range []bool{false, true} {
			var st lp.Stats
			b, err := lp.CellBounds(ms, s, nil, &lp.Options{Cold: cold, Stats: &st})
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			for c, want := range table3Upper {
				if math.Abs(b.Upper[c]-want) > tol {
					t.Errorf("%s cold=%v: cell %d upper %v, want %v (Table 3)", s.Name(), cold, c, b.Upper[c], want)
				}
			}
			if st.Solves != 32 || st.Targets != 16 {
				t.Errorf("%s: stats %+v, want 32 solves for 16 cells", s.Name(), st)
			}
		}
	}
}

func TestMarginalOption(t *testing.T) {
	// Bounds on the cells of a released marginal are its counts; bounds on
	// the grand total are the total.
	tab, ms := autoworkers(t, []string{"A", "B", "C", "E"}, "AB,AC,AE,BC,BE,CE")
	s, err := solvers.New("auto", false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lp.CellBounds(ms, s, nil, &lp.Options{Marginal: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := tab.Collapse([]int{0, 1})
	for i, c := range ab.Counts {
		if math.Abs(b.Lower[i]-float64(c)) > tol || math.Abs(b.Upper[i]-float64(c)) > tol {
			t.Errorf("[AB] cell %d: [%v, %v], want %d", i, b.Lower[i], b.Upper[i], c)
		}
	}
	g, err := lp.CellBounds(ms, s, nil, &lp.Options{Marginal: []int{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Lower) != 1 || g.Lower[0] != float64(tab.Total()) || g.Upper[0] != float64(tab.Total()) {
		t.Errorf("grand total bounds %v %v, want %d", g.Lower, g.Upper, tab.Total())
	}
}

// tiny builds a margin set over binary variables from explicit counts.
func tiny(k int, margins map[string][]int64) *model.MarginSet {
	vars := make([]model.Variable, k)
	for i := range vars {
		vars[i] = model.Variable{Name: string(rune('A' + i)), Levels: []string{"0", "1"}}
	}
	ms := &model.MarginSet{Vars: vars}
	for _, name := range []string{"A", "B", "C", "AB", "AC", "BC", "ABC"} {
		counts, ok := margins[name]
		if !ok {
			continue
		}
		var sub []int
		for _, r := range name {
			sub = append(sub, int(r-'A'))
		}
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: sub, Counts: counts})
	}
	return ms
}

func TestInfeasible(t *testing.T) {
	s, err := solvers.New("auto", false)
	if err != nil {
		t.Fatal(err)
	}
	// Pairwise consistent 2-way margins of a 2x2x2 table with no
	// non-negative table: [AB] and [AC] force A = B = C, [BC] says B != C.
	none := tiny(3, map[string][]int64{"AB": {1, 0, 0, 1}, "AC": {1, 0, 0, 1}, "BC": {0, 1, 1, 0}})
	if err := none.Check(); err != nil {
		t.Fatalf("the example must be pairwise consistent: %v", err)
	}
	if _, err := lp.CellBounds(none, s, nil, nil); !errors.Is(err, lp.ErrInfeasible) {
		t.Errorf("no table: err = %v, want ErrInfeasible", err)
	}
	// Different grand totals.
	bad := tiny(3, map[string][]int64{"AB": {1, 0, 0, 1}, "C": {1, 2}})
	_, err = lp.CellBounds(bad, s, nil, nil)
	var ie *model.InconsistencyError
	if !errors.Is(err, lp.ErrInfeasible) || !errors.As(err, &ie) {
		t.Errorf("inconsistent totals: err = %v, want ErrInfeasible wrapping *model.InconsistencyError", err)
	}
}

func TestPresolveAndSubset(t *testing.T) {
	s, err := solvers.New("auto", false)
	if err != nil {
		t.Fatal(err)
	}
	// [AB] has a zero cell: the cells under it are fixed at 0 unsolved.
	ms := tiny(3, map[string][]int64{"AB": {0, 3, 2, 5}, "BC": {1, 1, 4, 4}})
	p := lp.CellBoundsProblem(ms, false)
	if p.NumCols() != 8 || p.NumRows() != 8 {
		t.Fatalf("problem %d x %d, want 8 rows x 8 cols", p.NumRows(), p.NumCols())
	}
	var st lp.Stats
	b, err := lp.CellBounds(ms, s, nil, &lp.Options{Stats: &st, Cells: []int{0, 1, 7}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Presolved != 2 || st.Solves != 2 {
		t.Errorf("stats %+v, want 2 presolved cells and 2 solves", st)
	}
	if b.Lower[0] != 0 || b.Upper[0] != 0 || b.Upper[1] != 0 {
		t.Errorf("cells 0, 1 under a zero marginal cell: %v %v", b.Lower[:2], b.Upper[:2])
	}
	// Cell 7 = (A=1, B=1, C=1): [AB] 5, [BC](B=1,C=1) 4, B=1 total 8: so
	// x_111 in [max(0, 5+4-8), min(5, 4)] = [1, 4] (Fréchet for two margins).
	if b.Lower[7] != 1 || b.Upper[7] != 4 {
		t.Errorf("cell 7: [%v, %v], want [1, 4]", b.Lower[7], b.Upper[7])
	}
	if !math.IsNaN(b.Lower[2]) {
		t.Errorf("cell 2 was not asked for but has lower bound %v", b.Lower[2])
	}
}
