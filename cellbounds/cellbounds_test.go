package cellbounds_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// tol compares LP bounds; integer methods must agree exactly.
const tol = 1e-6

// randomCase draws a table of 3 variables with 2x2x2 up to 3x3x4 levels,
// small counts with many zeros, and a set of released proper marginals:
// half the time all three 2-way margins, else a random non-empty set.
func randomCase(rng *rand.Rand) (*model.Table, *model.MarginSet) {
	dims := []int{2 + rng.IntN(2), 2 + rng.IntN(2), 2 + rng.IntN(3)}
	vars := make([]model.Variable, 3)
	for i, d := range dims {
		vars[i].Name = string(rune('A' + i))
		for l := 0; l < d; l++ {
			vars[i].Levels = append(vars[i].Levels, fmt.Sprint(l))
		}
	}
	maxc := 1 + rng.IntN(6)
	counts := make([]int64, model.NumCells(dims))
	for i := range counts {
		if rng.IntN(3) > 0 {
			counts[i] = int64(rng.IntN(maxc + 1))
		}
	}
	tab := &model.Table{Vars: vars, Counts: counts}
	all := [][]int{{0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}}
	var subs [][]int
	if rng.IntN(2) == 0 {
		// All 2-way margins: the no-3-way-interaction model, not graphical,
		// where LP bounds can be fractional and the shuttle needs its
		// correction step.
		subs = [][]int{{0, 1}, {0, 2}, {1, 2}}
	}
	for len(subs) == 0 {
		for _, s := range all {
			// Favour 2-way margins: they make the interesting cases.
			p := 4
			if len(s) == 2 {
				p = 2
			}
			if rng.IntN(p) == 0 {
				subs = append(subs, s)
			}
		}
	}
	ms, err := tab.Released(subs)
	if err != nil {
		panic(err)
	}
	return tab, ms
}

// bruteBounds enumerates every non-negative integer table with the margins
// of ms and returns the range of every cell; ok is false when the search
// would exceed maxTables leaves.
func bruteBounds(ms *model.MarginSet, maxNodes int) (lo, up []float64, tables int, ok bool) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	// For every cell: the marginal cells it belongs to.
	member := make([][][2]int, n)
	left := make([][]int, len(ms.Margins)) // cells still unassigned per marginal cell
	rem := make([][]int64, len(ms.Margins))
	for k, m := range ms.Margins {
		rem[k] = append([]int64(nil), m.Counts...)
		left[k] = make([]int, len(m.Counts))
	}
	lv := make([]int, len(dims))
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		for k, m := range ms.Margins {
			i := model.Project(dims, m.Vars, lv)
			member[c] = append(member[c], [2]int{k, i})
			left[k][i]++
		}
	}
	lo, up = make([]float64, n), make([]float64, n)
	for c := range lo {
		lo[c], up[c] = math.Inf(1), math.Inf(-1)
	}
	x := make([]int64, n)
	nodes := 0
	var rec func(c int) bool
	rec = func(c int) bool {
		nodes++
		if nodes > maxNodes {
			return false
		}
		if c == n {
			tables++
			for j, v := range x {
				lo[j] = math.Min(lo[j], float64(v))
				up[j] = math.Max(up[j], float64(v))
			}
			return true
		}
		cap := int64(math.MaxInt64)
		for _, ki := range member[c] {
			cap = min(cap, rem[ki[0]][ki[1]])
		}
		for v := int64(0); v <= cap; v++ {
			good := true
			for _, ki := range member[c] {
				rem[ki[0]][ki[1]] -= v
				left[ki[0]][ki[1]]--
				if left[ki[0]][ki[1]] == 0 && rem[ki[0]][ki[1]] != 0 {
					good = false
				}
			}
			x[c] = v
			if good && !rec(c+1) {
				return false
			}
			for _, ki := range member[c] {
				rem[ki[0]][ki[1]] += v
				left[ki[0]][ki[1]]++
			}
		}
		return true
	}
	ok = rec(0)
	return lo, up, tables, ok
}

func sameBounds(t *testing.T, what string, a, b *model.CellBounds, eps float64) {
	t.Helper()
	if c := a.Diff(b, eps); c >= 0 {
		t.Errorf("%s: cell %d: [%v, %v] vs [%v, %v]", what, c, a.Lower[c], a.Upper[c], b.Lower[c], b.Upper[c])
	}
}

// TestRandomTablesAgree: on seeded random small tables, the shuttle with
// correction, the IP, Fréchet (when decomposable), reducible (when the
// graph splits) and auto give exactly the same bounds; LP bounds are never
// tighter; tiny cases match brute-force enumeration of all tables.
func TestRandomTablesAgree(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(20260401, 4))
	var nFrechet, nReducible, nBrute, nFrac int
	for i := 0; i < n; i++ {
		tab, ms := randomCase(rng)
		name := fmt.Sprintf("case %d (%v, %s)", i, model.Dims(tab.Vars), ms.Name())
		res, err := cellbounds.Compute(ms, cellbounds.Settings{Compare: []string{cellbounds.LP, cellbounds.IP, cellbounds.Shuttle}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ipb, sh, lpb := res.Compare[cellbounds.IP].Bounds, res.Compare[cellbounds.Shuttle].Bounds, res.Compare[cellbounds.LP].Bounds
		if !res.Sharp || !res.Compare[cellbounds.Shuttle].Sharp {
			t.Errorf("%s: auto sharp=%v, shuttle sharp=%v", name, res.Sharp, res.Compare[cellbounds.Shuttle].Sharp)
		}
		sameBounds(t, name+": shuttle vs ip", sh, ipb, 0)
		sameBounds(t, name+": auto vs ip", res.Bounds, ipb, 0)
		for c := range ipb.Lower {
			if lpb.Lower[c] > ipb.Lower[c]+tol || lpb.Upper[c] < ipb.Upper[c]-tol {
				t.Errorf("%s: cell %d: LP [%v, %v] tighter than IP [%v, %v]", name, c, lpb.Lower[c], lpb.Upper[c], ipb.Lower[c], ipb.Upper[c])
			}
			if v := float64(tab.Counts[c]); v < ipb.Lower[c] || v > ipb.Upper[c] {
				t.Errorf("%s: cell %d: true count %v outside [%v, %v]", name, c, v, ipb.Lower[c], ipb.Upper[c])
			}
			if cellbounds.Fractional(lpb.Lower[c]) || cellbounds.Fractional(lpb.Upper[c]) {
				nFrac++
			}
		}
		for _, m := range []string{cellbounds.Frechet, cellbounds.Reducible} {
			r, err := cellbounds.Compute(ms, cellbounds.Settings{Method: m})
			if errors.Is(err, cellbounds.ErrNotApplicable) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %s: %v", name, m, err)
			}
			if m == cellbounds.Frechet {
				nFrechet++
			} else {
				nReducible++
			}
			sameBounds(t, name+": "+m+" vs ip", r.Bounds, ipb, 0)
		}
		if lo, up, _, ok := bruteBounds(ms, 200000); ok {
			nBrute++
			sameBounds(t, name+": ip vs enumeration", ipb, &model.CellBounds{Lower: lo, Upper: up}, 0)
		}
	}
	t.Logf("%d cases: %d Fréchet, %d reducible, %d checked by enumeration, %d fractional LP bounds", n, nFrechet, nReducible, nBrute, nFrac)
	if nBrute < n/4 || nFrechet == 0 || nReducible == 0 {
		t.Errorf("the random cases exercise too little: %d enumerated, %d Fréchet, %d reducible", nBrute, nFrechet, nReducible)
	}
}

// The pairwise consistent margins [AB] [AC] [BC] of a 2x2x2 table that no
// table has ([AB] and [AC] force A = B = C, [BC] says B != C): every
// method reports ErrInfeasible.
func TestNoTableAllMethods(t *testing.T) {
	vars := []model.Variable{{Name: "A", Levels: []string{"0", "1"}}, {Name: "B", Levels: []string{"0", "1"}}, {Name: "C", Levels: []string{"0", "1"}}}
	ms := &model.MarginSet{Vars: vars, Margins: []*model.Marginal{
		{Vars: []int{0, 1}, Counts: []int64{1, 0, 0, 1}},
		{Vars: []int{0, 2}, Counts: []int64{1, 0, 0, 1}},
		{Vars: []int{1, 2}, Counts: []int64{0, 1, 1, 0}},
	}}
	for _, m := range []string{cellbounds.Auto, cellbounds.LP, cellbounds.IP, cellbounds.Shuttle} {
		if _, err := cellbounds.Compute(ms, cellbounds.Settings{Method: m}); !errors.Is(err, cellbounds.ErrInfeasible) {
			t.Errorf("%s: err = %v, want ErrInfeasible", m, err)
		}
	}
	// Inconsistent totals.
	ms.Margins[2].Counts = []int64{0, 1, 1, 1}
	if _, err := cellbounds.Compute(ms, cellbounds.Settings{}); !errors.Is(err, cellbounds.ErrInfeasible) {
		t.Errorf("inconsistent: err = %v, want ErrInfeasible", err)
	}
	if _, err := cellbounds.Compute(ms, cellbounds.Settings{Method: "simplex"}); !errors.Is(err, cellbounds.ErrUnknownMethod) {
		t.Errorf("unknown method: err = %v", err)
	}
}

func autoworkers(t testing.TB, vars []string, spec string) *model.MarginSet {
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
	return ms
}

// TestAutoworkersMethods checks which method auto picks on the paper's
// three margin sets and that IP agrees with it.
func TestAutoworkersMethods(t *testing.T) {
	cases := []struct {
		vars       []string
		spec, want string
	}{
		{nil, "BF,ABCE,ADE", "frechet"},                                // Section 3, Table 2
		{[]string{"A", "B", "C", "E"}, "AB,AC,AE,BC,BE,CE", "shuttle"}, // Table 3
		{[]string{"A", "D", "E"}, "AD,AE,DE", "shuttle"},               // Table 4
		{nil, "BF,BC,BE,AB,AC,AE,CE,DE,AD", "reducible(shuttle)"},      // Section 5, Table 5
		// All 15 two-way margins: the shuttle's correction runs for
		// minutes (30 s: 10 of 64 cells sharp), the certified method
		// settles it in 0.05-0.2 s, so auto hands over to it
		// (AutoShuttleBudget).
		{nil, "AB,AC,AD,AE,AF,BC,BD,BE,BF,CD,CE,CF,DE,DF,EF", "certified"},
	}
	for _, c := range cases {
		if testing.Short() && c.vars == nil {
			continue
		}
		ms := autoworkers(t, c.vars, c.spec)
		res, err := cellbounds.Compute(ms, cellbounds.Settings{Compare: []string{cellbounds.IP}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Bounds.Method[0] != c.want || !res.Sharp {
			t.Errorf("%s: auto used %s (sharp %v), want %s", c.spec, res.Bounds.Method[0], res.Sharp, c.want)
		}
		sameBounds(t, c.spec+": auto vs ip", res.Bounds, res.Compare[cellbounds.IP].Bounds, 0)
	}
}
