package suppress

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// solveOK runs Solve and checks what every result must satisfy: a safe
// pattern (intervals.Audit, run by Solve and again here), primary cells
// kept, must-publish and empty cells published, the cost the sum of the
// secondary cells' costs, and LowerBound ≤ Cost.
func solveOK(t *testing.T, tab *tabular.Table, s *Settings) *Result {
	t.Helper()
	r, err := Solve(tab, s)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if r.Audit == nil || !r.Audit.OK() {
		t.Fatalf("Solve's own audit: %+v", r.Audit)
	}
	if rep, ok := auditOK(t, tab, r.Status); !ok {
		t.Fatalf("pattern fails the audit: %d under-protected, %d disclosed", len(rep.UnderProtected), len(rep.Disclosed))
	}
	cost := 0.0
	for i, c := range tab.Cells {
		switch {
		case c.Status == tabular.Primary && r.Status[i] != tabular.Primary:
			t.Fatalf("primary cell %s is %v", tab.CellName(i), r.Status[i])
		case (c.Status == tabular.MustPublish || c.Status == tabular.Empty && (s == nil || s.Empty == EmptyNever)) && r.Status[i] != c.Status:
			t.Fatalf("%v cell %s is %v", c.Status, tab.CellName(i), r.Status[i])
		}
		if r.Status[i] == tabular.Secondary {
			cost += c.Cost
		}
	}
	if math.Abs(cost-r.Cost) > tol {
		t.Fatalf("Cost %g, but the secondary cells cost %g", r.Cost, cost)
	}
	if r.LowerBound > r.Cost+tol {
		t.Fatalf("lower bound %g above cost %g", r.LowerBound, r.Cost)
	}
	return r
}

// TestHandExample: a 2×2 table with margins,
//
//	      c1  c2 | T
//	r1     1   4 |  5
//	r2     6   3 |  9
//	T      7   7 | 14
//
// cost = value, cell (r1, c1) primary with levels 1 up and down. Hand
// computation: an interval for (r1, c1) needs a cycle of suppressed cells
// through it, one cell in its row, one in its column and the fourth
// closing the rectangle; the four rectangles cost 4+6+3 = 13 (the
// interior), 4+7+7 = 18 (c2 and column totals), 5+6+9 = 20 (row
// totals), 5+7+14 = 26 (through the grand total), and each moves (r1, c1)
// by ±1 (the cells decreased, 3 ≥ 1 at the least, stay ≥ 0). The optimum
// is the interior, cost 13.
func TestHandExample(t *testing.T) {
	vals := []float64{1, 4, 6, 3}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	markPrimary(tab, 1, p)
	r := solveOK(t, tab, nil)
	if math.Abs(r.Cost-13) > tol || r.Stop != StopOptimal {
		t.Fatalf("cost %g (%v), want 13 optimal", r.Cost, r.Stop)
	}
	for _, codes := range [][2]string{{"r1", "c2"}, {"r2", "c1"}, {"r2", "c2"}} {
		i, _ := tab.Lookup(codes[0], codes[1])
		if r.Status[i] != tabular.Secondary {
			t.Errorf("cell %v is %v, want secondary", codes, r.Status[i])
		}
	}
	if r.Secondary != 3 {
		t.Errorf("%d secondary cells, want 3", r.Secondary)
	}
}

// TestBruteForce compares the optimal cost with the least cost among all
// patterns that pass intervals.Audit, on random 2×3, 3×3 and small
// hierarchical tables (levels 3: cells below 3 cannot be decreased
// enough, so cheap rectangles are not always protective).
func TestBruteForce(t *testing.T) {
	cases := []struct {
		name   string
		hs     func() []*tabular.Hierarchy
		seeds  int
		p      int
		long   bool
		engine string
	}{
		{"2x3", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 3)} }, 6, 2, false, ""},
		{"3x3", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 3), flat(t, "c", 3)} }, 4, 2, true, ""},
		{"hier2x2-by-2", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{twoLevel(t, "r", 2, 2), flat(t, "c", 2)} }, 2, 2, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("long brute force")
			}
			for seed := range uint64(c.seeds) {
				if c.name == "hier2x2-by-2" {
					seed++ // seed 0 needs 26,470 audits; 1 and 2 about 13,000
				}
				tab := randomTable(t, c.hs(), seed, 9, c.p, 3)
				want, n := bruteForce(t, tab)
				// Outsiders only: the brute force audits with
				// intervals.Audit (insider_test.go has the insiders').
				r := solveOK(t, tab, &Settings{MIPSolver: c.engine, Insiders: InsidersOff})
				t.Logf("seed %d: cost %g (brute force %g after %d audits), bound %g, %d LP rounds, %d MIPs, %d cuts",
					seed, r.Cost, want, n, r.LowerBound, r.LPRounds, r.MIPSolves, r.Cuts)
				if math.IsInf(want, 1) {
					t.Fatalf("seed %d: brute force found no safe pattern", seed)
				}
				if r.Stop != StopOptimal || math.Abs(r.Cost-want) > tol {
					t.Fatalf("seed %d: cost %g (%v), brute force %g", seed, r.Cost, r.Stop, want)
				}
			}
		})
	}
}

// TestEngines: HiGHS and CBC as the master MIP engine give the same
// optimal cost, on a 6×6 table with 6 primary cells.
func TestEngines(t *testing.T) {
	tab := randomTable(t, []*tabular.Hierarchy{flat(t, "r", 6), flat(t, "c", 6)}, 3, 20, 6, 4)
	var costs []float64
	for _, e := range []string{"highs", "cbc"} {
		r := solveOK(t, tab, &Settings{MIPSolver: e})
		if r.MIPEngine != "" && r.MIPEngine != e {
			t.Fatalf("engine %s, want %s", r.MIPEngine, e)
		}
		if r.Stop != StopOptimal {
			t.Fatalf("%s: %v", e, r.Stop)
		}
		t.Logf("%s: cost %g, bound %g, %d MIPs, %d cuts", e, r.Cost, r.LowerBound, r.MIPSolves, r.Cuts)
		costs = append(costs, r.Cost)
	}
	if math.Abs(costs[0]-costs[1]) > tol {
		t.Fatalf("costs %v differ", costs)
	}
}

// TestDeterminism: the same input gives the same pattern.
func TestDeterminism(t *testing.T) {
	tab := randomTable(t, []*tabular.Hierarchy{twoLevel(t, "r", 3, 3), twoLevel(t, "c", 2, 3)}, 11, 20, 10, 3)
	a := solveOK(t, tab, nil)
	b := solveOK(t, tab, nil)
	if !slices.Equal(a.Status, b.Status) || a.Cost != b.Cost {
		t.Fatalf("two runs differ: cost %g and %g", a.Cost, b.Cost)
	}
}

// TestTimeLimit: under a time limit too short to prove anything the
// result is still a safe pattern with a valid bound.
func TestTimeLimit(t *testing.T) {
	tab := randomTable(t, []*tabular.Hierarchy{twoLevel(t, "r", 4, 4), twoLevel(t, "c", 4, 4)}, 5, 9, 60, 2)
	r := solveOK(t, tab, &Settings{Params: &solvers.Params{TimeLimit: time.Millisecond}})
	if r.Stop == StopOptimal {
		t.Logf("solved to optimality within 1 ms of search: cost %g", r.Cost)
	}
	t.Logf("stop %v: cost %g, bound %g, gap %.3f", r.Stop, r.Cost, r.LowerBound, r.Gap)
}

// TestStatuses: must-publish cells stay published, empty cells are not
// suppressed by default and may be with EmptyAllowed, an input secondary
// cell is recomputed.
func TestStatuses(t *testing.T) {
	vals := []float64{1, 4, 6, 3}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	markPrimary(tab, 1, p)
	// Forbid the interior rectangle: (r2, c2) must be published. Next
	// cheapest by hand (TestHandExample): c2 and the column totals, 18.
	i22, _ := tab.Lookup("r2", "c2")
	tab.Cells[i22].Status = tabular.MustPublish
	iT, _ := tab.Lookup("Total", "Total")
	tab.Cells[iT].Status = tabular.Secondary // recomputed: not kept
	r := solveOK(t, tab, nil)
	if math.Abs(r.Cost-18) > tol {
		t.Fatalf("cost %g, want 18", r.Cost)
	}
	if r.Status[iT] != tabular.Safe {
		t.Fatalf("grand total %v, want safe", r.Status[iT])
	}
}

// TestInfeasible: a primary cell whose row and column are otherwise
// must-publish cannot be protected.
func TestInfeasible(t *testing.T) {
	vals := []float64{1, 4, 6, 3}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	markPrimary(tab, 1, p)
	for _, codes := range [][2]string{{"r1", "c2"}, {"r1", "Total"}} {
		i, _ := tab.Lookup(codes[0], codes[1])
		tab.Cells[i].Status = tabular.MustPublish
	}
	_, err := Solve(tab, nil)
	skipUnavailable(t, err)
	if !errors.Is(err, ErrInfeasible) {
		t.Fatalf("error %v, want ErrInfeasible", err)
	}
	t.Log(err)
}

// TestBadInput: negative costs and sliding levels are refused, naming the
// cell.
func TestBadInput(t *testing.T) {
	mk := func() *tabular.Table {
		tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { return 5 })
		markPrimary(tab, 1, 4)
		return tab
	}
	tab := mk()
	tab.Cells[5].Cost = -1
	if _, err := Solve(tab, nil); !errors.Is(err, ErrInput) {
		t.Fatalf("negative cost: %v", err)
	}
	tab = mk()
	tab.Cells[4].Sliding = 10
	if _, err := Solve(tab, nil); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("sliding: %v", err)
	}
}

// TestEmptyPolicy: the table
//
//	      c1  c2 | T
//	r1     1   4 |  5
//	r2     6   0 |  6
//	T      7   4 | 11
//
// with (r2, c2) empty (cost 0), cost = value, (r1, c1) primary with
// upper level 1 and lower level 0. Hand computation: with empty cells
// published, the rectangles through (r1, c1) avoiding (r2, c2) cost
// 4+7+4 = 15 (c2 with the column totals: raising (r1, c1) by 1 lowers
// (r1, c2) and (T, c2) to 3 and raises (T, c1)), 5+6+6 = 17 (row totals)
// and 5+7+11 = 23 (through the grand total): 15. With EmptyAllowed the
// interior rectangle costs 4+6+0 = 10 and raises (r1, c1) by 1 while
// lowering (r1, c2) and (r2, c1) and raising the empty cell to 1: 10.
func TestEmptyPolicy(t *testing.T) {
	vals := []float64{1, 4, 6, 0}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	e, _ := tab.Lookup("r2", "c2")
	markPrimary(tab, 1, p)
	tab.Cells[p].Lower = 0
	tab.Cells[e].Status = tabular.Empty
	for _, c := range []struct {
		policy EmptyPolicy
		want   float64
	}{{EmptyNever, 15}, {EmptyAllowed, 10}} {
		r := solveOK(t, tab, &Settings{Empty: c.policy})
		if math.Abs(r.Cost-c.want) > tol || r.Stop != StopOptimal {
			t.Errorf("policy %d: cost %g (%v), want %g", c.policy, r.Cost, r.Stop, c.want)
		}
	}
}

// TestLinked: two linked tables, region × sector and region × size (each
// 2 leaves and a total), share the region margin: 15 system cells. The
// optimal cost of SolveSystem equals the least cost among all patterns
// of the system's cells that pass intervals.ComputeSystem's audit, and
// the pattern written back to the tables passes it too.
func TestLinked(t *testing.T) {
	sys := linkedPair(t)
	if sys.Len() != 15 {
		t.Fatalf("%d system cells, want 15", sys.Len())
	}
	audit := func(st []tabular.Status) bool {
		c := *sys
		c.Cells = slices.Clone(sys.Cells)
		for g := range c.Cells {
			c.Cells[g].Status = st[g]
		}
		r, err := intervals.ComputeSystem(&c, &intervals.Settings{NoCertificates: true})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		return intervals.Audit(r, func(g int) (float64, float64) {
			if st[g] != tabular.Primary {
				return 0, 0
			}
			ref := c.Cells[g].Refs[0]
			cell := c.Tables[ref.Table].Cells[ref.Cell]
			return cell.Lower, cell.Upper
		}).OK()
	}
	// Brute force: every subset of the safe cells, cheapest first.
	var free []int
	for g, c := range sys.Cells {
		if c.Status == tabular.Safe {
			free = append(free, g)
		}
	}
	type subset struct {
		mask int
		cost float64
	}
	var subs []subset
	for m := range 1 << len(free) {
		s := 0.0
		for k, g := range free {
			if m>>k&1 == 1 {
				s += sys.Cells[g].Cost
			}
		}
		subs = append(subs, subset{m, s})
	}
	slices.SortStableFunc(subs, func(a, b subset) int { return cmp.Compare(a.cost, b.cost) })
	want := math.Inf(1)
	st := make([]tabular.Status, sys.Len())
	for _, s := range subs {
		for g, c := range sys.Cells {
			st[g] = c.Status
		}
		for k, g := range free {
			if s.mask>>k&1 == 1 {
				st[g] = tabular.Secondary
			}
		}
		if audit(st) {
			want = s.cost
			break
		}
	}
	r, err := SolveSystem(sys, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cost %g, brute force %g, bound %g", r.Cost, want, r.LowerBound)
	if r.Stop != StopOptimal || math.Abs(r.Cost-want) > tol || r.LowerBound > r.Cost+tol {
		t.Fatalf("cost %g (%v), bound %g, brute force %g", r.Cost, r.Stop, r.LowerBound, want)
	}
	if !audit(r.Status) {
		t.Fatal("pattern fails the audit")
	}
	r.ApplySystem(sys)
	for _, tab := range sys.Tables {
		for i, c := range tab.Cells {
			if c.Status != r.Status[sys.Global[slices.Index(sys.Tables, tab)][i]] {
				t.Fatalf("table cell %s not written back", tab.CellName(i))
			}
		}
	}
}
