package suppress

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// fastSettings returns s (nil: defaults) with Method fast.
func fastSettings(s *Settings) *Settings {
	if s == nil {
		s = &Settings{}
	}
	c := *s
	c.Method = MethodFast
	return &c
}

// TestFastHandExample: the 2×2 table of TestHandExample. Its four
// rectangles through (r1, c1) are exactly the fast method's cubes (in a
// flat dimension the candidates of r1 are r2 with sign −1 and the total
// with +1), so it finds the cheapest, the interior at 4+6+3 = 13 (hand
// computation in TestHandExample), with no repair.
func TestFastHandExample(t *testing.T) {
	vals := []float64{1, 4, 6, 3}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	markPrimary(tab, 1, p)
	r := solveOK(t, tab, fastSettings(nil))
	if math.Abs(r.Cost-13) > tol || r.Method != MethodFast || r.Stop != StopHeuristic || r.RepairRounds != 0 || r.Cubes != 2 {
		t.Fatalf("cost %g (want 13), method %s, stop %v, %d repair rounds, %d cubes", r.Cost, r.Method, r.Stop, r.RepairRounds, r.Cubes)
	}
}

// TestFastStatuses: must-publish cells are never corners, and an input
// secondary cell not chosen becomes safe. With (r2, c2) must-publish the
// cubes left cost, by hand (TestHandExample), 18 (c2 and the column
// totals), 20 (row totals) and 26 (grand total): the fast method takes 18.
func TestFastStatuses(t *testing.T) {
	vals := []float64{1, 4, 6, 3}
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 2)}, func() float64 { k++; return vals[k-1] })
	p, _ := tab.Lookup("r1", "c1")
	markPrimary(tab, 1, p)
	i22, _ := tab.Lookup("r2", "c2")
	tab.Cells[i22].Status = tabular.MustPublish
	iT, _ := tab.Lookup("Total", "Total")
	tab.Cells[iT].Status = tabular.Secondary
	r := solveOK(t, tab, fastSettings(nil))
	if math.Abs(r.Cost-18) > tol || r.Status[iT] != tabular.Safe {
		t.Fatalf("cost %g (want 18), grand total %v (want safe)", r.Cost, r.Status[iT])
	}
}

// TestFastEmptyPolicy: values 1 4 / 6 0, (r1, c1) primary with upper
// level 1 only, (r2, c2) empty. Hand computation: EmptyNever leaves the
// cubes through c2 and the column totals, 4+7+4 = 15, the row totals,
// 5+6+6 = 17, and the grand total, 5+7+11 = 23: 15. EmptyAllowed adds
// the interior, 4+6+0 = 10 (the empty cell moves up, its cost is its
// value 0): 10. These are also the optimal costs of TestEmptyPolicy.
func TestFastEmptyPolicy(t *testing.T) {
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
		r := solveOK(t, tab, fastSettings(&Settings{Empty: c.policy}))
		if math.Abs(r.Cost-c.want) > tol {
			t.Errorf("policy %d: cost %g, want %g", c.policy, r.Cost, c.want)
		}
	}
}

// TestFastRandom: on random 2-way, hierarchical and 3-way tables the
// fast pattern passes the audit (solveOK audits it independently and
// checks primary, must-publish and empty cells), costs at least the
// optimal pattern (the optimum is a lower bound on every safe pattern),
// and is the same on a second run.
func TestFastRandom(t *testing.T) {
	cases := []struct {
		name  string
		hs    func() []*tabular.Hierarchy
		p     int
		long  bool
		seeds int
	}{
		{"4x5", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 4), flat(t, "c", 5)} }, 4, false, 4},
		{"hier3x3-by-2x3", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{twoLevel(t, "r", 3, 3), twoLevel(t, "c", 2, 3)}
		}, 10, false, 3},
		{"3x3x3", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{flat(t, "a", 3), flat(t, "b", 3), flat(t, "c", 3)}
		}, 8, true, 2},
		{"hier2x2-by-3-by-2", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{twoLevel(t, "a", 2, 2), flat(t, "b", 3), flat(t, "c", 2)}
		}, 8, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("long")
			}
			for seed := range uint64(c.seeds) {
				tab := randomTable(t, c.hs(), seed, 9, c.p, 3)
				fast := solveOK(t, tab, fastSettings(nil))
				again := solveOK(t, tab, fastSettings(nil))
				if !slices.Equal(fast.Status, again.Status) || fast.Cost != again.Cost {
					t.Fatalf("seed %d: two runs differ: cost %g and %g", seed, fast.Cost, again.Cost)
				}
				opt := solveOK(t, tab, nil)
				t.Logf("seed %d: fast cost %g (%d cubes, %d repair rounds, %d LPs), optimal %g (%v)",
					seed, fast.Cost, fast.Cubes, fast.RepairRounds, fast.HeuristicLPs, opt.Cost, opt.Stop)
				if opt.Stop == StopOptimal && fast.Cost < opt.Cost-tol {
					t.Fatalf("seed %d: fast cost %g below the optimum %g", seed, fast.Cost, opt.Cost)
				}
			}
		})
	}
}

// TestFastRepair: a primary cell without a usable cube is protected by
// the repair. Values 1 1 / 1 9 (row totals 2, 10; column totals 2, 10;
// grand total 12, must-publish), (r1, c1) primary with upper level 3 and
// no lower level. By hand: the interior cube and the cube through c2 and
// the column totals both have the corner (r1, c2) = 1 with sign −1, the
// cube through the row totals has (r2, c1) = 1 with sign −1, and neither
// can fall by 3 (prior lower bound 0); the fourth cube needs the grand
// total. A protecting deviation exists: +3 on (r1, c1), (r1, T), (T, c1)
// and −3 on (T, c2), (r2, c2), (r2, T) (every row and column sums, the
// grand total stays), which the protection LP finds.
func TestFastRepair(t *testing.T) {
	tab := repairTable(t)
	// Outsiders only: the coalition of the two contributors of row r1
	// (Freq 2) knows (r1, T) = 2, so no pattern lets (r1, c1) rise by 3
	// against it.
	r := solveOK(t, tab, fastSettings(&Settings{Insiders: InsidersOff}))
	if r.Cubes != 0 || r.RepairRounds == 0 {
		t.Fatalf("%d cubes, %d repair rounds: want the repair", r.Cubes, r.RepairRounds)
	}
}

// TestFastLinked: the linked tables of TestLinked (region × sector and
// region × size sharing the region margin): the fast pattern of the
// System passes intervals.ComputeSystem's audit, keeps the primary cells
// and costs at least the optimal SolveSystem.
func TestFastLinked(t *testing.T) {
	sys := linkedPair(t)
	r, err := SolveSystem(sys, fastSettings(nil))
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	c := *sys
	c.Cells = slices.Clone(sys.Cells)
	for g := range c.Cells {
		if sys.Cells[g].Status == tabular.Primary && r.Status[g] != tabular.Primary {
			t.Fatalf("primary cell %s is %v", sys.CellName(g), r.Status[g])
		}
		c.Cells[g].Status = r.Status[g]
	}
	ir, err := intervals.ComputeSystem(&c, &intervals.Settings{NoCertificates: true})
	if err != nil {
		t.Fatal(err)
	}
	rep := intervals.Audit(ir, func(g int) (float64, float64) {
		if r.Status[g] != tabular.Primary {
			return 0, 0
		}
		ref := c.Cells[g].Refs[0]
		cell := c.Tables[ref.Table].Cells[ref.Cell]
		return cell.Lower, cell.Upper
	})
	if !rep.OK() {
		t.Fatalf("pattern fails the audit: %d under-protected, %d disclosed", len(rep.UnderProtected), len(rep.Disclosed))
	}
	opt, err := SolveSystem(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fast cost %g (%d cubes, %d repair rounds, decided %v), optimal %g", r.Cost, r.Cubes, r.RepairRounds, r.Decided, opt.Cost)
	if r.Cost < opt.Cost-tol {
		t.Fatalf("fast cost %g below the optimum %g", r.Cost, opt.Cost)
	}
}

// TestMethod: MethodAuto picks the optimal method below AutoCells cells,
// and an unknown method is an input error.
func TestMethod(t *testing.T) {
	tab := randomTable(t, []*tabular.Hierarchy{flat(t, "r", 3), flat(t, "c", 3)}, 1, 9, 2, 3)
	r := solveOK(t, tab, &Settings{Method: MethodAuto})
	if r.Method != MethodOptimal {
		t.Fatalf("auto on %d cells ran %q", len(tab.Cells), r.Method)
	}
	if _, err := Solve(tab, &Settings{Method: "quick"}); !errors.Is(err, ErrInput) {
		t.Fatalf("method quick: %v, want ErrInput", err)
	}
	for n, want := range map[int]string{AutoCells - 1: MethodOptimal, AutoCells: MethodFast} {
		if got, _ := (&Settings{Method: MethodAuto}).method(n); got != want {
			t.Fatalf("auto on %d cells: %q, want %q", n, got, want)
		}
	}
}

// TestFastTimeLimit: a time limit that has passed before the cube phase
// leaves only the first pass of cubes, and the pattern is still safe
// (solveOK audits it).
func TestFastTimeLimit(t *testing.T) {
	tab := randomTable(t, []*tabular.Hierarchy{twoLevel(t, "r", 3, 3), twoLevel(t, "c", 2, 3)}, 11, 20, 10, 3)
	r := solveOK(t, tab, fastSettings(&Settings{Params: &solvers.Params{TimeLimit: time.Nanosecond}}))
	if r.CubePasses != 1 {
		t.Fatalf("%d cube passes after the deadline, want 1", r.CubePasses)
	}
}
