package frechet

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// boundsTol compares bounds that are whole numbers held in float64s.
const boundsTol = 1e-9

func marginSet(t testing.TB, tab *model.Table, spec string) *model.MarginSet {
	t.Helper()
	ms, err := tab.ReleaseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func checkBounds(t *testing.T, what string, got, want *model.CellBounds) {
	t.Helper()
	if len(got.Lower) != len(want.Lower) {
		t.Fatalf("%s: %d cells, want %d", what, len(got.Lower), len(want.Lower))
	}
	if i := got.Diff(want, boundsTol); i >= 0 {
		t.Fatalf("%s: cell %d has [%g, %g], want [%g, %g]", what, i, got.Lower[i], got.Upper[i], want.Lower[i], want.Upper[i])
	}
}

// TestBoundsTwoWay is the classical Fréchet case: a 2x2 table with its
// one-way margins. Row totals (3, 2), column totals (4, 1), total 5: the
// cell (0,0) lies in [max(0, 3+4-5), min(3, 4)] = [2, 3].
func TestBoundsTwoWay(t *testing.T) {
	tab := randomTable(rand.New(rand.NewPCG(1, 2)), []int{2, 2}, 0)
	tab.Counts = []int64{2, 1, 2, 0}
	b, err := Bounds(marginSet(t, tab, "A,B"))
	if err != nil {
		t.Fatal(err)
	}
	want := &model.CellBounds{Lower: []float64{2, 0, 1, 0}, Upper: []float64{3, 1, 2, 1}}
	checkBounds(t, "[A] [B]", b, want)
}

// TestBoundsFreeVariable covers a variable in no released marginal: its
// one-way margin is unknown, so a cell can hold the whole marginal cell (put
// every unit on its level) or nothing (move them to another level), unless
// the variable has a single level, when the cell equals its marginal cell.
func TestBoundsFreeVariable(t *testing.T) {
	tab := randomTable(rand.New(rand.NewPCG(1, 3)), []int{2, 2}, 0)
	tab.Counts = []int64{2, 1, 2, 0} // A totals (3, 2)
	b, err := Bounds(marginSet(t, tab, "A"))
	if err != nil {
		t.Fatal(err)
	}
	checkBounds(t, "[A] with B free", b, &model.CellBounds{Lower: []float64{0, 0, 0, 0}, Upper: []float64{3, 3, 2, 2}})

	one := &model.Table{Vars: []model.Variable{tab.Vars[0], {Name: "B", Levels: []string{"only"}}}, Counts: []int64{3, 2}}
	b, err = Bounds(marginSet(t, one, "A"))
	if err != nil {
		t.Fatal(err)
	}
	checkBounds(t, "[A] with one-level B", b, &model.CellBounds{Lower: []float64{3, 2}, Upper: []float64{3, 2}})

	// Only the grand total is released: every cell lies in [0, N].
	ms := &model.MarginSet{Vars: tab.Vars, Margins: []*model.Marginal{{Vars: nil, Counts: []int64{5}}}}
	b, err = Bounds(ms)
	if err != nil {
		t.Fatal(err)
	}
	checkBounds(t, "[] only", b, &model.CellBounds{Lower: []float64{0, 0, 0, 0}, Upper: []float64{5, 5, 5, 5}})
}

func TestBoundsInconsistent(t *testing.T) {
	tab := randomTable(rand.New(rand.NewPCG(1, 4)), []int{2, 2, 2}, 20)
	ms := marginSet(t, tab, "AB,BC")
	ms.Margins[1].Counts = append([]int64(nil), ms.Margins[1].Counts...)
	ms.Margins[1].Counts[0]++ // the totals now differ
	_, err := Bounds(ms)
	var ie *model.InconsistencyError
	if !errors.As(err, &ie) {
		t.Fatalf("Bounds on inconsistent margins: %v", err)
	}
}

// propertyDims are the tiny shapes of the brute-force checks, with the
// largest total drawn for each (enumeration stays below about a second).
var propertyDims = []struct {
	dims     []int
	maxTotal int
}{
	{[]int{2, 2, 2}, 12},
	{[]int{2, 2, 3}, 10},
	{[]int{3, 2, 2}, 10},
	{[]int{2, 2, 2, 2}, 8},
	{[]int{2, 3, 2, 2}, 7},
	{[]int{2, 2, 2, 2, 2}, 5},
}

// TestBoundsSharpBruteForce checks Theorem 1 against enumeration of every
// integer table with the given margins, on seeded random tables and margin
// sets; decomposable sets must match exactly (the theorem says the bounds
// are sharp), other sets must be refused. Marginal bounds are checked too
// when the marginal is collapsible.
func TestBoundsSharpBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 4))
	trials := 1500
	if testing.Short() {
		trials = 300
	}
	decomposable, refused, marginals, free := 0, 0, 0, 0
	for trial := range trials {
		pd := propertyDims[rng.IntN(len(propertyDims))]
		tab := randomTable(rng, pd.dims, rng.IntN(pd.maxTotal+1))
		ms, err := tab.Released(randomSubsets(rng, len(pd.dims)))
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("trial %d: dims %v margins %s counts %v", trial, pd.dims, ms.Name(), tab.Counts)
		got, err := Bounds(ms)
		if !Decomposable(ms) {
			if !errors.Is(err, ErrNotDecomposable) {
				t.Fatalf("%s: Bounds on a non-decomposable set: %v", what, err)
			}
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, n := bruteBounds(ms, nil)
		if n == 0 {
			t.Fatalf("%s: no table has these margins", what)
		}
		checkBounds(t, what, got, want)
		decomposable++
		if g, _ := Graph(ms); g.covered != bit(len(pd.dims))-1 {
			free++
		}
		sub := randomSubsets(rng, len(pd.dims))[0]
		mb, err := MarginalBounds(ms, sub)
		if errors.Is(err, ErrNotCollapsible) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: MarginalBounds %v: %v", what, sub, err)
		}
		mwant, _ := bruteBounds(ms, sub)
		checkBounds(t, fmt.Sprintf("%s marginal %v", what, sub), mb, mwant)
		marginals++
	}
	t.Logf("%d decomposable sets matched brute force (%d with free variables), %d refused, %d marginals matched",
		decomposable, free, refused, marginals)
	if decomposable < trials/5 || refused < trials/20 || marginals < trials/10 || free < trials/50 {
		t.Fatalf("too few cases of some kind: %d decomposable, %d refused, %d marginals, %d free", decomposable, refused, marginals, free)
	}
}

// TestMarginalBoundsNotCollapsible: for the chain [AB] [BC], the marginal
// [AC] needs B summed out, but B is not simplicial.
func TestMarginalBoundsNotCollapsible(t *testing.T) {
	tab := randomTable(rand.New(rand.NewPCG(1, 5)), []int{2, 2, 2}, 10)
	ms := marginSet(t, tab, "AB,BC")
	if _, err := MarginalBounds(ms, []int{0, 2}); !errors.Is(err, ErrNotCollapsible) {
		t.Fatalf("MarginalBounds [AC] of [AB] [BC]: %v", err)
	}
	// [B] is inside a released marginal: known exactly.
	b, err := MarginalBounds(ms, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := tab.Collapse([]int{1})
	for i, c := range m.Counts {
		if b.Lower[i] != float64(c) || b.Upper[i] != float64(c) {
			t.Fatalf("[B] cell %d: [%g, %g], want %d", i, b.Lower[i], b.Upper[i], c)
		}
	}
}
