package suppress

import (
	"math"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// cubeTable23 returns the 2 × 3 flat table of TestCleanByMoves (leaves
// r1: 5 4 9, r2: 6 3 8; Cost = Value) with (r1,c1) primary at level 2
// both ways, and a function naming cells.
func cubeTable23(t *testing.T) (*tabular.Table, func(r, c string) int) {
	vals := []float64{5, 4, 9, 6, 3, 8}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 3)}, func() float64 { k++; return vals[k-1] })
	at := func(r, c string) int {
		i, ok := tab.Lookup(r, c)
		if !ok {
			t.Fatalf("no cell (%s, %s)", r, c)
		}
		return i
	}
	markPrimary(tab, 2, at("r1", "c1"))
	return tab, at
}

// TestCleanByMoves: hand-made cubes on a 2 × 3 table. The pattern is the
// union of cube A = {r1c1+, r1c2−, r2c1−, r2c2+} and cube B =
// {r1c1+, r1c3−, r2c1−, r2c3+}, both of step 2 (the level), and the
// cleanup by moves, in decreasing cost (r1c3 9, r2c3 8, r2c1 6, r1c2 4,
// r2c2 3), publishes r1c3 (A and its negation still reach r1c1 + 2 and
// r1c1 − 2: 5 − 2 ≥ 0, and r2c2 = 3 ≥ 2 can move down), then r2c3 (no
// move left changes it), and keeps A's cells: every one is in the only
// moves left. Given only B, A's cells are published at once (no move
// changes them). intervals.Decide proves the cleaned patterns with the
// moves returned, and the full audit passes them.
func TestCleanByMoves(t *testing.T) {
	tab, at := cubeTable23(t)
	p := at("r1", "c1")
	A := intervals.Move{Step: 2, Cells: []int{p, at("r1", "c2"), at("r2", "c1"), at("r2", "c2")}, Mult: []int{1, -1, -1, 1}}
	B := intervals.Move{Step: 2, Cells: []int{p, at("r1", "c3"), at("r2", "c1"), at("r2", "c3")}, Mult: []int{1, -1, -1, 1}}
	s := &Settings{}
	m, err := buildModel(tableSource(tab), s)
	if err != nil {
		t.Fatal(err)
	}
	supOf := func(cells ...int) []bool {
		sup := make([]bool, len(m.col))
		for _, i := range cells {
			sup[m.vr[m.colOf[i]]] = true
		}
		return sup
	}
	union := supOf(at("r1", "c2"), at("r2", "c1"), at("r2", "c2"), at("r1", "c3"), at("r2", "c3"))
	se := &search{m: m, s: s}
	decide := tableDecide(tab, s)
	for _, tc := range []struct {
		name  string
		moves []intervals.Move
		want  []bool
		cost  float64 // the cells' values, summed by hand
	}{
		{"A and B", []intervals.Move{A, B}, supOf(at("r1", "c2"), at("r2", "c1"), at("r2", "c2")), 4 + 6 + 3},
		{"B only", []intervals.Move{B}, supOf(at("r1", "c3"), at("r2", "c1"), at("r2", "c3")), 9 + 6 + 8},
	} {
		got, kept := m.cleanByMoves(union, tc.moves)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: cleaned pattern %v, want %v", tc.name, got, tc.want)
			continue
		}
		if c := m.patternCost(got); c != tc.cost {
			t.Errorf("%s: cost %g, want %g", tc.name, c, tc.cost)
		}
		st := se.statusOf(got)
		d, err := decide(st, se.levelsOf, kept)
		if err != nil {
			t.Fatal(err)
		}
		if !d.OK() {
			t.Errorf("%s: the moves kept (%d) do not decide the cleaned pattern: open %+v", tc.name, len(kept), d.Open)
		}
		if rep, ok := auditOK(t, tab, st); !ok {
			t.Errorf("%s: cleaned pattern fails the audit: %+v", tc.name, rep)
		}
	}
	// A move that does not reach the level proves nothing: no cleanup.
	short := A
	short.Step = 1
	if got, _ := m.cleanByMoves(union, []intervals.Move{short}); got != nil {
		t.Errorf("a move of step 1 < level 2 cleaned the pattern to %v", got)
	}
	// A move beyond a bound is dropped: r2c2 = 3 cannot move down by 4,
	// so A's negation at step 4 is refused and nothing proves r1c1 − 2.
	long := A
	long.Step = 4
	if got, _ := m.cleanByMoves(union, []intervals.Move{long}); got != nil {
		t.Errorf("a move beyond the bounds cleaned the pattern to %v", got)
	}
}

// TestFastIncumbent: on 9 seeded small tables (2-way flat and
// hierarchical, 3-way) Solve starts from the fast method's pattern whenever the fast method
// proves its pattern safe, the first incumbent (Progress phase "start")
// costs no more than that pattern (the cleanup by moves only publishes),
// and the search still ends optimal (TestBruteForce checks the optimum
// itself against every pattern on smaller tables).
func TestFastIncumbent(t *testing.T) {
	shapes := []func() []*tabular.Hierarchy{
		func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 3), flat(t, "c", 4)} },
		func() []*tabular.Hierarchy { return []*tabular.Hierarchy{twoLevel(t, "r", 2, 2), flat(t, "c", 3)} },
		func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{flat(t, "a", 2), flat(t, "b", 3), flat(t, "c", 2)}
		},
	}
	used := 0
	for seed := range uint64(9) {
		hs := shapes[seed%3]()
		tab := randomTable(t, hs, 300+seed, 9, 2+int(seed%3), 3)
		fr, err := SolveFast(tab, &Settings{Insiders: InsidersOff})
		skipUnavailable(t, err)
		proven := err == nil && fr.Audit.OK()
		start := -1.0
		s := &Settings{Insiders: InsidersOff, Progress: func(p Progress) {
			if p.Phase == "start" {
				start = p.Cost
			}
		}}
		r := solveOK(t, tab, s)
		if r.FastIncumbent != proven {
			t.Errorf("seed %d: fast incumbent %v, fast pattern proven safe %v", seed, r.FastIncumbent, proven)
		}
		if !r.FastIncumbent {
			continue
		}
		used++
		if start < 0 || start > r.FastIncumbentCost+tol || math.Abs(r.FastIncumbentCost-fr.Cost) > tol {
			t.Errorf("seed %d: first incumbent %g, fast pattern %g (SolveFast: %g)", seed, start, r.FastIncumbentCost, fr.Cost)
		}
		if r.Stop != StopOptimal || r.Cost > start+tol {
			t.Errorf("seed %d: stop %v, cost %g after a first incumbent of %g", seed, r.Stop, r.Cost, start)
		}
	}
	if used == 0 {
		t.Error("the fast incumbent was never used: the test proves nothing")
	}
}
