package frechet

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// bruteSolver is a component solver by enumeration, labelling its cells.
func bruteSolver(sub *model.MarginSet) (*model.CellBounds, error) {
	b, n := bruteBounds(sub, nil)
	if n == 0 {
		return nil, errors.New("no table")
	}
	b.Method = make([]string, len(b.Lower))
	for i := range b.Method {
		b.Method[i] = "brute"
	}
	return b, nil
}

// checkDecomposition verifies the decomposition against its definition:
// components cover the covered variables, every released marginal lies in a
// component, every separator is a subset of a released marginal (so it is
// complete and its marginal known), equals the child's intersection with the
// earlier components, lies in its parent, and separates: no edge joins the
// child side to the rest except through it.
func checkDecomposition(t *testing.T, what string, ms *model.MarginSet, d *Decomposition) {
	t.Helper()
	g, _ := Graph(ms)
	var union varSet
	comps := make([]varSet, len(d.Components))
	for i, c := range d.Components {
		comps[i] = setOf(c.Vars)
		if i > 0 {
			s := d.Separators[i-1]
			if s.Child != i || s.Parent >= i || setOf(s.Vars) != comps[i]&union || !setOf(s.Vars).subsetOf(comps[s.Parent]) {
				t.Fatalf("%s: %s: separator %d breaks the perfect sequence", what, d, i-1)
			}
			inside := false
			for _, m := range ms.Margins {
				inside = inside || setOf(s.Vars).subsetOf(setOf(m.Vars))
			}
			if !inside {
				t.Fatalf("%s: %s: separator %v in no released marginal", what, d, s.Vars)
			}
		}
		union |= comps[i]
	}
	if union != g.covered {
		t.Fatalf("%s: %s: components cover %b, want %b", what, d, union, g.covered)
	}
	for _, m := range ms.Margins {
		in := false
		for _, c := range comps {
			in = in || setOf(m.Vars).subsetOf(c)
		}
		if !in {
			t.Fatalf("%s: %s: marginal %v in no component", what, d, m.Vars)
		}
	}
	// Separation: every edge of the graph lies inside some component.
	for _, e := range g.Edges() {
		in := false
		for _, c := range comps {
			in = in || (c.has(e[0]) && c.has(e[1]))
		}
		if !in {
			t.Fatalf("%s: %s: edge %v crosses components", what, d, e)
		}
	}
}

// TestReducibleSharpBruteForce checks Theorem 2 with a brute-force
// component solver against enumeration of the whole table, on seeded random
// tables and margin sets. The paper states the combined bounds are sharp
// when the component bounds are; they must match exactly.
func TestReducibleSharpBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(99, 4))
	trials := 1500
	if testing.Short() {
		trials = 300
	}
	reducible, nonDecomposable, refused := 0, 0, 0
	for trial := range trials {
		pd := propertyDims[rng.IntN(len(propertyDims))]
		tab := randomTable(rng, pd.dims, rng.IntN(pd.maxTotal+1))
		ms, err := tab.Released(randomSubsets(rng, len(pd.dims)))
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("trial %d: dims %v margins %s counts %v", trial, pd.dims, ms.Name(), tab.Counts)
		d, err := Decompose(ms)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		checkDecomposition(t, what, ms, d)
		got, err := Reducible(ms, bruteSolver)
		if len(d.Components) < 2 {
			if !errors.Is(err, ErrNotReducible) {
				t.Fatalf("%s: %s: Reducible with one component: %v", what, d, err)
			}
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", what, d, err)
		}
		want, _ := bruteBounds(ms, nil)
		checkBounds(t, what+" "+d.String(), got, want)
		reducible++
		if Decomposable(ms) {
			fb, err := Bounds(ms)
			if err != nil {
				t.Fatal(err)
			}
			checkBounds(t, what+" Theorem 1 vs 2", got, fb)
			if got.Method != nil {
				t.Fatalf("%s: decomposable set got method labels", what)
			}
		} else {
			nonDecomposable++
			if got.Method == nil || got.Method[0] != "reducible(brute)" {
				t.Fatalf("%s: method labels %v", what, got.Method)
			}
		}
	}
	t.Logf("%d reducible sets matched brute force (%d not decomposable), %d single-component sets refused", reducible, nonDecomposable, refused)
	if nonDecomposable < trials/20 || refused < trials/20 {
		t.Fatalf("too few cases: %d reducible non-decomposable, %d refused", nonDecomposable, refused)
	}
}

// TestReducibleSeparatorNotReleased: [AB] [AC] [BC] [AD] [BD] [CD] [AE] [BE]
// [CE] has two 4-cliques ABCD and ABCE meeting in the complete separator
// ABC, but no released marginal contains ABC, so its marginal (needed by the
// lower bound, and to make the two sides independent) is unknown: nothing
// usable splits the graph.
func TestReducibleSeparatorNotReleased(t *testing.T) {
	tab := randomTable(rand.New(rand.NewPCG(3, 3)), twos(5), 30)
	ms := marginSet(t, tab, "AB,AC,BC,AD,BD,CD,AE,BE,CE")
	g, _ := Graph(ms)
	if !g.Chordal() {
		t.Fatal("graph should be chordal (two 4-cliques sharing a triangle)")
	}
	d, err := Decompose(ms)
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "[ABCDE]" {
		t.Fatalf("decomposition %s, want the single component [ABCDE]", d)
	}
	if _, err := Reducible(ms, bruteSolver); !errors.Is(err, ErrNotReducible) {
		t.Fatalf("Reducible: %v", err)
	}
	// Releasing [ABC] as well makes the separator usable.
	ms = marginSet(t, tab, "AB,AC,BC,AD,BD,CD,AE,BE,CE,ABC")
	d, err = Decompose(ms)
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "[ABCD] [ABCE] | separators [ABC]" {
		t.Fatalf("decomposition %s", d)
	}
}

// TestReducibleSolverErrors: a failing or mis-sized component solver.
func TestReducibleSolverErrors(t *testing.T) {
	tab := randomTable(rand.New(rand.NewPCG(3, 4)), twos(4), 12)
	ms := marginSet(t, tab, "AB,AC,BC,CD")
	boom := errors.New("boom")
	if _, err := Reducible(ms, func(*model.MarginSet) (*model.CellBounds, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("solver error not wrapped: %v", err)
	}
	if _, err := Reducible(ms, func(*model.MarginSet) (*model.CellBounds, error) { return model.NewCellBounds(3), nil }); err == nil {
		t.Error("mis-sized solver result accepted")
	}
}

// ReducibleBy stops at its deadline, before a component's solve and inside
// the combination over the full table (a chain of 2-way margins over 15
// binary variables: 14 released components, no solve, 32,768 cells, two
// strides of the clock check); with a deadline far ahead it returns what
// ReducibleAt returns.
func TestReducibleByDeadline(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 15))
	vars := make([]model.Variable, 15)
	for i := range vars {
		vars[i] = model.Variable{Name: fmt.Sprintf("V%d", i), Levels: []string{"0", "1"}}
	}
	counts := make([]int64, model.NumCells(model.Dims(vars)))
	for i := range counts {
		counts[i] = int64(r.IntN(3))
	}
	tab, err := model.NewTable(vars, counts)
	if err != nil {
		t.Fatal(err)
	}
	var subs [][]int
	for i := 0; i+1 < len(vars); i++ {
		subs = append(subs, []int{i, i + 1})
	}
	ms, err := tab.Released(subs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReducibleBy(ms, nil, time.Now().Add(-time.Second)); !errors.Is(err, ErrDeadline) {
		t.Errorf("combination past the deadline: %v, want ErrDeadline", err)
	}
	want, err := ReducibleAt(ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReducibleBy(ms, nil, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Lower, want.Lower) || !slices.Equal(got.Upper, want.Upper) {
		t.Error("ReducibleBy with time left differs from ReducibleAt")
	}
	// A component to solve: the triangle [V0V1] [V0V2] [V1V2] with [V2V3]
	// hanging off it; the deadline passes before its solve.
	ms2, err := tab.Released([][]int{{0, 1}, {0, 2}, {1, 2}, {2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	called := false
	_, err = ReducibleBy(ms2, func(c *Component) (*model.CellBounds, error) {
		called = true
		return nil, errors.New("not reached")
	}, time.Now().Add(-time.Second))
	if !errors.Is(err, ErrDeadline) || called {
		t.Errorf("solve past the deadline: %v (solver called: %v), want ErrDeadline before any solve", err, called)
	}
}
