package shuttle

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// testVars makes variables V0, V1, ... with levels "0", "1", ...
func testVars(dims []int) []model.Variable {
	vars := make([]model.Variable, len(dims))
	for i, d := range dims {
		vars[i].Name = "V" + strconv.Itoa(i)
		for l := 0; l < d; l++ {
			vars[i].Levels = append(vars[i].Levels, strconv.Itoa(l))
		}
	}
	return vars
}

func mustTable(t testing.TB, dims []int, counts []int64) *model.Table {
	t.Helper()
	tab, err := model.NewTable(testVars(dims), counts)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func mustReleased(t testing.TB, tab *model.Table, subsets [][]int) *model.MarginSet {
	t.Helper()
	ms, err := tab.Released(subsets)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// checkBoundsEqual compares integer bounds exactly (they are whole numbers
// stored as float64).
func checkBoundsEqual(t *testing.T, name string, got *model.CellBounds, lo, hi []int64) {
	t.Helper()
	for i := range lo {
		if got.Lower[i] != float64(lo[i]) || got.Upper[i] != float64(hi[i]) {
			t.Errorf("%s: cell %d: got [%g, %g], want [%d, %d]", name, i, got.Lower[i], got.Upper[i], lo[i], hi[i])
		}
	}
}

// TestFrechet2x2: with both one-way margins of a 2x2 table (row total r,
// column total c, grand total N), the sharp bounds of a cell are the
// Fréchet bounds max(0, r+c-N) <= x <= min(r, c) (Fréchet 1951; the paper's
// Section 2).
func TestFrechet2x2(t *testing.T) {
	for _, counts := range [][]int64{{3, 1, 2, 4}, {0, 5, 7, 0}, {10, 0, 0, 0}, {1, 1, 1, 1}, {6, 2, 9, 30}} {
		tab := mustTable(t, []int{2, 2}, counts)
		ms := mustReleased(t, tab, [][]int{{0}, {1}})
		r, err := Bounds(ms, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := tab.Total()
		rows := []int64{counts[0] + counts[1], counts[2] + counts[3]}
		cols := []int64{counts[0] + counts[2], counts[1] + counts[3]}
		var lo, hi []int64
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				lo = append(lo, max(0, rows[i]+cols[j]-n))
				hi = append(hi, min(rows[i], cols[j]))
			}
		}
		checkBoundsEqual(t, fmt.Sprint(counts), r.Bounds, lo, hi)
		checkBoundsEqual(t, fmt.Sprint(counts, " shuttle"), r.ShuttleBounds, lo, hi)
		if !r.Sharp {
			t.Errorf("%v: not sharp: %s", counts, r.Note)
		}
	}
}

// enumerate lists every non-negative integer table with the margins of ms
// and returns the least and largest value of every cell, and how many
// tables there are.
func enumerate(ms *model.MarginSet) (lo, hi []int64, count int) {
	n := model.NumCells(model.Dims(ms.Vars))
	lo = make([]int64, n)
	hi = make([]int64, n)
	for i := range lo {
		lo[i], hi[i] = 1<<62, -1
	}
	forEachTable(ms, func(x []int64) {
		count++
		for i, v := range x {
			lo[i] = min(lo[i], v)
			hi[i] = max(hi[i], v)
		}
	})
	return lo, hi, count
}

// randomSubsets draws 1..4 nonempty variable subsets of k variables.
func randomSubsets(rng *rand.Rand, k int) [][]int {
	nm := 1 + rng.IntN(4)
	var out [][]int
	for len(out) < nm {
		mask := 1 + rng.IntN(1<<k-1)
		if mask == 1<<k-1 && rng.IntN(4) != 0 {
			continue // the full table itself is rarely interesting
		}
		var sub []int
		for i := 0; i < k; i++ {
			if mask>>i&1 == 1 {
				sub = append(sub, i)
			}
		}
		out = append(out, sub)
	}
	return out
}

func allTwoWay(k int) [][]int {
	var out [][]int
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			out = append(out, []int{i, j})
		}
	}
	return out
}

// TestBruteForce compares the corrected bounds with the least and largest
// value of every cell over ALL integer tables with the margins, enumerated
// directly, on seeded random small tables and margin sets (all two-way
// margins, and random subsets).
func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	// Shapes, totals and margin sets are chosen so that the enumeration
	// stays small: random margin subsets only on tables of at most 12 cells
	// with 8..16 units; all two-way margins on the larger ones, where
	// 2x2x2x2 and 2x2x2x3 with 20..40 units are the cases where the
	// shuttle alone is usually NOT sharp (the correction step matters).
	type shape struct {
		dims      []int
		minTotal  int
		randomSub bool
	}
	shapes := []shape{
		{[]int{2, 2, 2}, 8, false}, {[]int{2, 2, 2}, 8, true}, {[]int{2, 2, 3}, 8, true},
		{[]int{3, 3}, 8, true}, {[]int{5, 2}, 8, true}, {[]int{2, 3, 2}, 8, false},
		{[]int{3, 3, 3}, 8, false}, {[]int{2, 3, 4}, 8, false},
		{[]int{2, 2, 2, 2}, 20, false}, {[]int{2, 2, 2, 3}, 20, false},
	}
	runs := 300
	if testing.Short() {
		runs = 60
	}
	notShuttleSharp := 0
	for run := 0; run < runs; run++ {
		sh := shapes[run%len(shapes)]
		dims := sh.dims
		n := model.NumCells(dims)
		counts := make([]int64, n)
		for range sh.minTotal + rng.IntN(sh.minTotal+1) {
			counts[rng.IntN(n)]++
		}
		tab := mustTable(t, dims, counts)
		subsets := allTwoWay(len(dims))
		if sh.randomSub {
			subsets = randomSubsets(rng, len(dims))
		}
		ms := mustReleased(t, tab, subsets)
		lo, hi, count := enumerate(ms)
		name := fmt.Sprintf("run %d dims %v margins %s counts %v (%d tables)", run, dims, ms.Name(), counts, count)
		opt0 := DefaultOptions()
		if run%3 == 2 {
			opt0.AllSubsetsMax = 1 // intervals family on 3+ categories: a weaker shuttle
		}
		r, err := Bounds(ms, opt0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !r.Sharp {
			t.Errorf("%s: not sharp: %s", name, r.Note)
		}
		checkBoundsEqual(t, name, r.Bounds, lo, hi)
		// The shuttle bounds are valid: never inside the sharp ones.
		for i := range lo {
			if r.ShuttleBounds.Lower[i] > float64(lo[i]) || r.ShuttleBounds.Upper[i] < float64(hi[i]) {
				t.Errorf("%s: cell %d: shuttle bounds [%g, %g] cut the sharp [%d, %d]", name, i,
					r.ShuttleBounds.Lower[i], r.ShuttleBounds.Upper[i], lo[i], hi[i])
			}
		}
		if r.ShuttleBounds.Diff(r.Bounds, 0) >= 0 {
			notShuttleSharp++
		}
		// Marginal bounds, certified when requested.
		sub := subsets[0]
		opt := DefaultOptions()
		opt.Marginals = [][]int{{0}, {len(dims) - 1}}
		r2, err := Bounds(ms, opt)
		if err != nil {
			t.Fatal(err)
		}
		checkBoundsEqual(t, name+" (with marginals)", r2.Bounds, lo, hi)
		for _, m := range opt.Marginals {
			b, sharp := r2.Marginal(m)
			if !sharp {
				t.Errorf("%s: marginal %v not certified", name, m)
			}
			mlo, mhi := enumerateMarginal(ms, m)
			checkBoundsEqual(t, fmt.Sprintf("%s marginal %v", name, m), b, mlo, mhi)
		}
		// A released marginal is known exactly.
		b, _ := r.Marginal(sub)
		mg, _ := ms.MarginalOf(sub)
		checkBoundsEqual(t, name+" released", b, mg.Counts, mg.Counts)
	}
	t.Logf("%d of %d instances: the shuttle alone was not sharp somewhere", notShuttleSharp, runs)
}

// enumerateMarginal returns the least and largest value of every cell of
// the marginal over sub over all integer tables with the margins of ms.
func enumerateMarginal(ms *model.MarginSet, sub []int) (lo, hi []int64) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(model.SubDims(dims, sub))
	lo = make([]int64, n)
	hi = make([]int64, n)
	for i := range lo {
		lo[i], hi[i] = 1<<62, -1
	}
	forEachTable(ms, func(x []int64) {
		vals := make([]int64, n)
		lv := make([]int, len(dims))
		for c, v := range x {
			model.CellLevels(dims, c, lv)
			vals[model.Project(dims, sub, lv)] += v
		}
		for i, v := range vals {
			lo[i] = min(lo[i], v)
			hi[i] = max(hi[i], v)
		}
	})
	return lo, hi
}

// forEachTable calls f on every integer table with the margins of ms: it
// assigns the cells in order, each at most the residual of its margin
// cells, and prunes when the last cell of a margin cell leaves a residual.
func forEachTable(ms *model.MarginSet, f func(x []int64)) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	lv := make([]int, len(dims))
	proj := make([][]int, len(ms.Margins))
	last := make([][]int, len(ms.Margins)) // last full cell of every margin cell
	resid := make([][]int64, len(ms.Margins))
	for m, mg := range ms.Margins {
		proj[m] = make([]int, n)
		last[m] = make([]int, len(mg.Counts))
		for c := 0; c < n; c++ {
			model.CellLevels(dims, c, lv)
			proj[m][c] = model.Project(dims, mg.Vars, lv)
			last[m][proj[m][c]] = c
		}
		resid[m] = append([]int64(nil), mg.Counts...)
	}
	x := make([]int64, n)
	var rec func(c int)
	rec = func(c int) {
		if c == n {
			f(x)
			return
		}
		top := int64(1 << 62)
		for m := range ms.Margins {
			top = min(top, resid[m][proj[m][c]])
		}
		for v := int64(0); v <= top; v++ {
			ok := true
			for m := range ms.Margins {
				p := proj[m][c]
				resid[m][p] -= v
				if last[m][p] == c && resid[m][p] != 0 {
					ok = false
				}
			}
			if ok {
				x[c] = v
				rec(c + 1)
			}
			for m := range ms.Margins {
				resid[m][proj[m][c]] += v
			}
		}
	}
	rec(0)
}

// TestInconsistent: margins that disagree admit no table at all.
func TestInconsistent(t *testing.T) {
	tab := mustTable(t, []int{2, 2}, []int64{1, 2, 3, 4})
	ms := mustReleased(t, tab, [][]int{{0}, {1}})
	ms.Margins[1].Counts[0]++ // column totals now sum to 11, rows to 10
	_, err := Bounds(ms, nil)
	if !errors.Is(err, ErrNoIntegerTable) {
		t.Fatalf("got %v, want ErrNoIntegerTable", err)
	}
	var inc *model.InconsistencyError
	if !errors.As(err, &inc) {
		t.Errorf("error %v does not carry the *model.InconsistencyError", err)
	}

	// Negative counts are bad input, not an infeasible problem.
	ms = mustReleased(t, tab, [][]int{{0}, {1}})
	ms.Margins[0].Counts[0] = -1
	if _, err := Bounds(ms, nil); err == nil || errors.Is(err, ErrNoIntegerTable) {
		t.Errorf("negative count: got %v, want a plain error", err)
	}
	if _, err := Bounds(&model.MarginSet{Vars: tab.Vars}, nil); err == nil {
		t.Error("no margins: want an error")
	}
}

// TestNoIntegerTable: margins that agree on every shared sub-margin but
// admit no non-negative table. The three two-way margins of a 2x2x2 table
// below pairwise agree (all one-way margins are (1, 1), total 2), yet no
// non-negative real table has them: [V0V1] and [V0V2] put the unit of
// V0=0 at V1=0 and V2=0, so x000 = 1 would be forced, while [V1V2] has
// (V1,V2) = (0,0) empty. Pairwise consistency is necessary, not
// sufficient, for a table to exist.
func TestNoIntegerTable(t *testing.T) {
	vars := testVars([]int{2, 2, 2})
	ms := &model.MarginSet{Vars: vars, Margins: []*model.Marginal{
		{Vars: []int{0, 1}, Counts: []int64{1, 0, 0, 1}},
		{Vars: []int{0, 2}, Counts: []int64{1, 0, 0, 1}},
		{Vars: []int{1, 2}, Counts: []int64{0, 1, 1, 0}},
	}}
	if err := ms.Check(); err != nil {
		t.Fatalf("margins should be pairwise consistent: %v", err)
	}
	_, err := Bounds(ms, nil)
	if !errors.Is(err, ErrNoIntegerTable) {
		t.Fatalf("got %v, want ErrNoIntegerTable", err)
	}
	t.Log(err)
}

// Options.Initial: starting from the bounds given a subset of the margins
// gives the same sharp bounds as starting from scratch; bounds that leave
// a cell no value are reported as no integer table.
func TestInitialBounds(t *testing.T) {
	tab := loadAutoworkers(t)
	for _, c := range []struct{ first, all string }{
		{"BF,ABCE", "BF,ABCE,ADE"},
		{"AB,AC", "AB,AC,AE,BC,BE,CE,DE,AD,BF"},
	} {
		sub, err := tab.ReleaseSpec(c.first)
		if err != nil {
			t.Fatal(err)
		}
		prev, err := Bounds(sub, nil)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := tab.ReleaseSpec(c.all)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Bounds(ms, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Bounds(ms, &Options{Correct: true, Initial: prev.Bounds})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Sharp || !want.Sharp {
			t.Fatalf("%s: not sharp", c.all)
		}
		for i := range want.Bounds.Lower {
			if got.Bounds.Lower[i] != want.Bounds.Lower[i] || got.Bounds.Upper[i] != want.Bounds.Upper[i] {
				t.Fatalf("%s: cell %d: [%g, %g] from the initial bounds, [%g, %g] from scratch", c.all, i,
					got.Bounds.Lower[i], got.Bounds.Upper[i], want.Bounds.Lower[i], want.Bounds.Upper[i])
			}
		}
		bad := &model.CellBounds{Lower: slices.Clone(want.Bounds.Lower), Upper: slices.Clone(want.Bounds.Upper)}
		bad.Upper[5] = bad.Lower[5] - 1
		if _, err := Bounds(ms, &Options{Correct: true, Initial: bad}); !errors.Is(err, ErrNoIntegerTable) {
			t.Errorf("%s: empty initial interval: %v, want ErrNoIntegerTable", c.all, err)
		}
	}
}
