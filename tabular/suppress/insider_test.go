package suppress

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// insiderOK runs intervals.InsiderAudit with no cap on tab under the
// pattern st (the outsider audit is auditOK's).
func insiderOK(t testing.TB, tab *tabular.Table, st []tabular.Status) (*intervals.InsiderReport, bool) {
	t.Helper()
	c := *tab
	c.Cells = slices.Clone(tab.Cells)
	for i := range c.Cells {
		c.Cells[i].Status = st[i]
	}
	rep, err := intervals.InsiderAudit(&c, nil, &intervals.InsiderSettings{Settings: &intervals.Settings{NoCertificates: true}, MaxInsiders: -1})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	return rep, rep.OK()
}

// oneRow returns the one-dimensional table Total = Σ leaves with the
// given leaf values, Freq and Cost the values, every cell Safe.
func oneRow(t testing.TB, vals ...float64) *tabular.Table {
	k := 0
	tab := newTable([]*tabular.Hierarchy{flat(t, "c", len(vals))}, func() float64 { k++; return vals[k-1] })
	return tab
}

// secondaries returns the codes of the secondary cells of st.
func secondaries(tab *tabular.Table, st []tabular.Status) []string {
	var out []string
	for i, s := range st {
		if s == tabular.Secondary {
			out = append(out, tab.CellName(i))
		}
	}
	return out
}

// TestInsiderSingletons: the singleton problem. One row c1..c4 = 1, 1,
// 5, 7 (Total 14, published unless chosen), Freq = value, cost = value,
// c1 and c2 primary with levels 1 up and 1 down. Hand computation: the
// outsider knows c1 + c2 = 14 − 5 − 7 = 2, so suppressing c1 and c2
// alone gives each the interval [0, 2], which reaches 1 − 1 = 0 and
// 1 + 1 = 2: the outsider-optimal pattern has no secondary cell (cost
// 0). But c1's single contributor knows c1 = 1 and recomputes
// c2 = 2 − 1 = 1 (and the other way round). Against it a third cell
// must go: c3 (cost 5, cheaper than c4 = 7 or the Total = 14) gives
// c2 + c3 = 6 to the insider, c2 ∈ [0, 6] ⊇ [0, 2]. Optimum 5.
func TestInsiderSingletons(t *testing.T) {
	tab := oneRow(t, 1, 1, 5, 7)
	c1, _ := tab.Lookup("c1")
	c2, _ := tab.Lookup("c2")
	markPrimary(tab, 1, c1, c2)

	out := solveOK(t, tab, &Settings{Insiders: InsidersOff})
	if math.Abs(out.Cost) > tol || out.Secondary != 0 {
		t.Fatalf("outsiders only: cost %g, secondary %v: want 0, none", out.Cost, secondaries(tab, out.Status))
	}
	rep, ok := insiderOK(t, tab, out.Status)
	if ok || len(rep.Findings) == 0 {
		t.Fatalf("outsider-optimal pattern passes the insider audit: %+v", rep)
	}
	for _, f := range rep.Findings {
		if !f.Disclosed || (f.Cell != c1 && f.Cell != c2) {
			t.Errorf("finding %+v: want c1 or c2 disclosed", f)
		}
	}

	in := solveOK(t, tab, &Settings{Insiders: InsidersOn})
	if math.Abs(in.Cost-5) > tol || in.Stop != StopOptimal {
		t.Fatalf("insiders: cost %g (%v), secondary %v: want 5 optimal (c3)", in.Cost, in.Stop, secondaries(tab, in.Status))
	}
	if c3, _ := tab.Lookup("c3"); in.Status[c3] != tabular.Secondary {
		t.Errorf("secondary %v, want c3", secondaries(tab, in.Status))
	}
	if in.Insiders == nil || !in.Insiders.OK() || in.InsiderTargets == 0 {
		t.Fatalf("insider report %+v, %d insider targets", in.Insiders, in.InsiderTargets)
	}
	if in.LowerBound > in.Cost+tol {
		t.Errorf("bound %g above cost %g", in.LowerBound, in.Cost)
	}
	if _, ok := insiderOK(t, tab, in.Status); !ok {
		t.Fatal("pattern fails an independent insider audit")
	}
	// The default (InsidersAuto) protects against insiders: the table
	// has frequencies.
	def := solveOK(t, tab, nil)
	if math.Abs(def.Cost-5) > tol {
		t.Fatalf("default settings: cost %g, want 5", def.Cost)
	}
}

// contributions sets a magnitude cell's Top list (decreasing values)
// and Freq.
func contributions(tab *tabular.Table, i, freq int, top ...tabular.Contribution) {
	tab.Cells[i].Top, tab.Cells[i].Freq = top, freq
}

// TestInsiderCoalition: a magnitude row p1, p2, q, w = 10, 8, 20, 30
// (Total 68), p1 from respondents A (6) and B (4), p2 from C (5) and D
// (3), q and w from five and six others; p1 and p2 primary with levels
// 3 up and 3 down, cost = value. Hand computation: the outsider knows
// p1 + p2 = 18, so each lies in [0, 18], beyond 10 ± 3 and 8 ± 3: no
// secondary cell is needed. The coalition A+B knows p1 = 10, hence
// p2 = 8 (and C+D recomputes p1). With q suppressed the coalition
// A+B knows p2 + q = 28, p2 ∈ [0, 28] ⊇ [5, 11]; C+D likewise p1 ∈
// [0, 30]; A alone knows p1 ≥ 6 and gets p1 ∈ [6, 38], which reaches
// max(10 − 3, 6) = 7 and 13. Optimum: q, cost 20 (w costs 30).
func TestInsiderCoalition(t *testing.T) {
	tab := oneRow(t, 10, 8, 20, 30)
	tab.Magnitude = true
	c := func(id string, v float64) tabular.Contribution { return tabular.Contribution{ID: id, Value: v} }
	p1, _ := tab.Lookup("c1")
	p2, _ := tab.Lookup("c2")
	q, _ := tab.Lookup("c3")
	w, _ := tab.Lookup("c4")
	tot, _ := tab.Lookup("Total")
	contributions(tab, p1, 2, c("A", 6), c("B", 4))
	contributions(tab, p2, 2, c("C", 5), c("D", 3))
	contributions(tab, q, 5, c("E", 4), c("F", 4), c("G", 4), c("H", 4), c("I", 4))
	contributions(tab, w, 6, c("J", 5), c("K", 5), c("L", 5), c("M", 5), c("N", 5), c("O", 5))
	contributions(tab, tot, 15, c("A", 6), c("J", 5), c("K", 5), c("L", 5), c("M", 5), c("N", 5), c("O", 5), c("C", 5))
	markPrimary(tab, 3, p1, p2)

	out := solveOK(t, tab, &Settings{Insiders: InsidersOff})
	if out.Secondary != 0 {
		t.Fatalf("outsiders only: secondary %v, want none", secondaries(tab, out.Status))
	}
	rep, ok := insiderOK(t, tab, out.Status)
	if ok {
		t.Fatal("outsider-optimal pattern passes the insider audit")
	}
	coalition := false
	for _, f := range rep.Findings {
		coalition = coalition || rep.Insiders[f.Insider].Kind == intervals.Coalition
	}
	if !coalition {
		t.Fatalf("no coalition finding: %+v", rep.Findings)
	}
	in := solveOK(t, tab, &Settings{Insiders: InsidersOn})
	if math.Abs(in.Cost-20) > tol || in.Status[q] != tabular.Secondary || in.Stop != StopOptimal {
		t.Fatalf("insiders: cost %g (%v), secondary %v: want q, 20, optimal", in.Cost, in.Stop, secondaries(tab, in.Status))
	}
	if _, ok := insiderOK(t, tab, in.Status); !ok {
		t.Fatal("pattern fails the insider audit")
	}
}

// TestInsiderRespondent: a respondent named in several Top lists. A
// magnitude row p, q, s, u, z = 4, 3, 8, 9, 30 (Total 54): p from R
// alone (4), q from Q alone (3), s from R (7) and two others (0.5
// each), u from four others, z from five; p and q primary with levels
// 2 up and 2 down, cost = value. Hand computation: outsiders need
// nothing more (p + q = 7: p ∈ [0, 7] reaches 2 and 6, q ∈ [0, 7]
// reaches 1 and 5). R knows p = 4, hence q = 3: a third cell is needed.
// s, the cheapest, does not do: R knows s ≥ 7, so q + s = 11 leaves
// q ≤ 4 < 5. u does: q + u = 12, q ∈ [0, 12] for R; p ∈ [0, 13] for Q.
// Optimum: u, cost 9 (s and u together cost 17).
func TestInsiderRespondent(t *testing.T) {
	tab := oneRow(t, 4, 3, 8, 9, 30)
	tab.Magnitude = true
	c := func(id string, v float64) tabular.Contribution { return tabular.Contribution{ID: id, Value: v} }
	p, _ := tab.Lookup("c1")
	q, _ := tab.Lookup("c2")
	s, _ := tab.Lookup("c3")
	u, _ := tab.Lookup("c4")
	z, _ := tab.Lookup("c5")
	tot, _ := tab.Lookup("Total")
	contributions(tab, p, 1, c("R", 4))
	contributions(tab, q, 1, c("Q", 3))
	contributions(tab, s, 3, c("R", 7), c("S", 0.5), c("T", 0.5))
	contributions(tab, u, 4, c("U1", 3), c("U2", 2), c("U3", 2), c("U4", 2))
	contributions(tab, z, 5, c("Z1", 6), c("Z2", 6), c("Z3", 6), c("Z4", 6), c("Z5", 6))
	contributions(tab, tot, 14, c("R", 11), c("Z1", 6), c("Z2", 6), c("Z3", 6), c("Z4", 6), c("Z5", 6))
	markPrimary(tab, 2, p, q)

	// The pattern {p, q, s} fails against R (the hand computation).
	st := make([]tabular.Status, len(tab.Cells))
	for i := range st {
		st[i] = tab.Cells[i].Status
	}
	st[s] = tabular.Secondary
	if _, ok := auditOK(t, tab, st); !ok {
		t.Fatal("{p, q, s} fails the outsider audit")
	}
	rep, ok := insiderOK(t, tab, st)
	if ok {
		t.Fatal("{p, q, s} passes the insider audit")
	}
	for _, f := range rep.Findings {
		if in := rep.Insiders[f.Insider]; in.Kind != intervals.Respondent || in.IDs[0] != "R" || f.Cell != q {
			t.Errorf("finding of %s on cell %d, want R on q", in.Name(tab.CellName), f.Cell)
		}
	}
	in := solveOK(t, tab, &Settings{Insiders: InsidersOn})
	if math.Abs(in.Cost-9) > tol || in.Status[u] != tabular.Secondary || in.Stop != StopOptimal {
		t.Fatalf("insiders: cost %g (%v), secondary %v: want u, 9, optimal", in.Cost, in.Stop, secondaries(tab, in.Status))
	}
	if _, ok := insiderOK(t, tab, in.Status); !ok {
		t.Fatal("pattern fails the insider audit")
	}
}

// insiderTable returns a random table over hs with leaf values in
// [3, maxV], except p leaves (at random) of value 1 or 2, which are
// primary with the given level: singleton and pair cells whose
// contributors are insiders, every total having at least 3 contributors.
func insiderTable(t testing.TB, hs []*tabular.Hierarchy, seed uint64, maxV, p int, level float64) *tabular.Table {
	rng := rand.New(rand.NewPCG(seed, 46))
	n := 0
	newTable(hs, func() float64 { n++; return 0 })
	for {
		prim := rng.Perm(n)[:p]
		k := 0
		tab := newTable(hs, func() float64 {
			k++
			if slices.Contains(prim, k-1) {
				return float64(1 + rng.IntN(2))
			}
			return float64(3 + rng.IntN(maxV-2))
		})
		var cells []int
		for i, c := range tab.Cells {
			if c.Freq <= 2 {
				cells = append(cells, i)
			}
		}
		if len(cells) > p {
			// A total of two primary leaves has their two contributors,
			// who know both: no pattern protects them. Draw again.
			continue
		}
		markPrimary(tab, level, cells...)
		return tab
	}
}

// bruteForceInsiders is bruteForce with the insider audit (no cap) as
// well: the least cost of a pattern passing both.
func bruteForceInsiders(t testing.TB, tab *tabular.Table) (float64, int) {
	t.Helper()
	var free []int
	for i, c := range tab.Cells {
		if c.Status == tabular.Safe {
			free = append(free, i)
		}
	}
	if len(free) > 12 {
		t.Fatalf("brute force over %d cells", len(free))
	}
	masks := make([]int, 1<<len(free))
	cost := make([]float64, len(masks))
	for m := range masks {
		masks[m] = m
		for k, i := range free {
			if m>>k&1 == 1 {
				cost[m] += tab.Cells[i].Cost
			}
		}
	}
	slices.SortStableFunc(masks, func(a, b int) int {
		switch {
		case cost[a] < cost[b]:
			return -1
		case cost[a] > cost[b]:
			return 1
		}
		return 0
	})
	st := make([]tabular.Status, len(tab.Cells))
	for n, m := range masks {
		for i, c := range tab.Cells {
			st[i] = c.Status
		}
		for k, i := range free {
			if m>>k&1 == 1 {
				st[i] = tabular.Secondary
			}
		}
		if _, ok := auditOK(t, tab, st); !ok {
			continue
		}
		if _, ok := insiderOK(t, tab, st); ok {
			return cost[m], n + 1
		}
	}
	return math.Inf(1), len(masks)
}

// TestInsiderBruteForce compares the optimal cost with insiders with the
// least cost among all patterns passing intervals.Audit and
// intervals.InsiderAudit (every insider), on 32 random 2×3 tables (10
// free cells) with two primary leaves of value (= Freq) 1 or 2 and level
// 2, and on 8 random 3×3 tables whose column-total row is must-publish
// (10 free cells), and checks LowerBound ≤ cost. Under -short, 4 of the
// 2×3 tables.
func TestInsiderBruteForce(t *testing.T) {
	seeds := 32
	if testing.Short() {
		seeds = 4
	}
	differ := 0
	for seed := range uint64(seeds) {
		tab := insiderTable(t, []*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 3)}, seed, 9, 2, 2)
		want, n := bruteForceInsiders(t, tab)
		if math.IsInf(want, 1) {
			t.Fatalf("seed %d: brute force found no safe pattern", seed)
		}
		r := solveOK(t, tab, &Settings{Insiders: InsidersOn})
		out := solveOK(t, tab, &Settings{Insiders: InsidersOff})
		t.Logf("seed %d: cost %g (brute force %g after %d patterns; outsiders only %g), bound %g, %d insider targets, %d MIPs",
			seed, r.Cost, want, n, out.Cost, r.LowerBound, r.InsiderTargets, r.MIPSolves)
		if r.Stop != StopOptimal || math.Abs(r.Cost-want) > tol {
			t.Fatalf("seed %d: cost %g (%v), brute force %g", seed, r.Cost, r.Stop, want)
		}
		if r.LowerBound > r.Cost+tol {
			t.Fatalf("seed %d: bound %g above cost %g", seed, r.LowerBound, r.Cost)
		}
		if math.Abs(out.Cost-want) > tol {
			differ++
		}
	}
	t.Logf("%d of %d tables need more than the outsider optimum", differ, seeds)
	if testing.Short() {
		return
	}
	// 3×3 with totals, the column-total row must-publish (10 free
	// cells), 8 tables.
	for seed := range uint64(8) {
		tab := insiderTable(t, []*tabular.Hierarchy{flat(t, "r", 3), flat(t, "c", 3)}, 100+seed, 9, 2, 2)
		for _, col := range []string{"Total", "c1", "c2", "c3"} {
			i, _ := tab.Lookup("Total", col)
			tab.Cells[i].Status = tabular.MustPublish
		}
		want, n := bruteForceInsiders(t, tab)
		if math.IsInf(want, 1) {
			t.Fatalf("3x3 seed %d: brute force found no safe pattern", seed)
		}
		r := solveOK(t, tab, &Settings{Insiders: InsidersOn})
		t.Logf("3x3 seed %d: cost %g (brute force %g after %d patterns), bound %g, %d insider targets", seed, r.Cost, want, n, r.LowerBound, r.InsiderTargets)
		if r.Stop != StopOptimal || math.Abs(r.Cost-want) > tol || r.LowerBound > r.Cost+tol {
			t.Fatalf("3x3 seed %d: cost %g (%v), bound %g, brute force %g", seed, r.Cost, r.Stop, r.LowerBound, want)
		}
	}
}

// TestInsiderFast: the fast method's pattern, repaired against insiders,
// passes the insider audit (every insider) and the outsider audit, on a
// random hierarchical table (2 groups of 2 × 3 columns, 3 singleton or
// pair primary leaves); seed 1's cube pattern needs the repair.
func TestInsiderFast(t *testing.T) {
	repaired := 0
	for seed := range uint64(3) {
		tab := insiderTable(t, []*tabular.Hierarchy{twoLevel(t, "r", 2, 2), flat(t, "c", 3)}, seed, 9, 3, 2)
		r := solveOK(t, tab, fastSettings(&Settings{Insiders: InsidersOn}))
		if r.Insiders == nil || !r.Insiders.OK() {
			t.Fatalf("seed %d: insider report %+v", seed, r.Insiders)
		}
		if _, ok := insiderOK(t, tab, r.Status); !ok {
			t.Fatalf("seed %d: pattern fails the insider audit", seed)
		}
		t.Logf("seed %d: cost %g, %d insider targets", seed, r.Cost, r.InsiderTargets)
		if r.InsiderTargets > 0 {
			repaired++
		}
	}
	if repaired == 0 {
		t.Fatal("no seed needed an insider repair: the test checks nothing of it")
	}
}

// TestInsiderDeterminism: the same input gives the same pattern with
// insiders on.
func TestInsiderDeterminism(t *testing.T) {
	tab := insiderTable(t, []*tabular.Hierarchy{flat(t, "r", 4), flat(t, "c", 4)}, 7, 9, 4, 2)
	a := solveOK(t, tab, &Settings{Insiders: InsidersOn})
	b := solveOK(t, tab, &Settings{Insiders: InsidersOn})
	if !slices.Equal(a.Status, b.Status) || a.Cost != b.Cost {
		t.Fatalf("two runs differ: cost %g and %g", a.Cost, b.Cost)
	}
}

// TestInsiderImpossible: the table of TestFastRepair (values 1 1 / 1 9,
// (r1, c1) primary with upper level 3, the grand total must-publish).
// Hand computation: row r1 has two contributors, one in each of its
// cells, and together they know (r1, T) = 2, so (r1, c1) ≤ 2 < 1 + 3
// whatever is suppressed; so do the two of column c1, (T, c1) = 2. Solve leaves that target out
// (InsiderImpossible), returns a pattern safe against outsiders, and
// ErrUnsafe from the final insider audit.
func TestInsiderImpossible(t *testing.T) {
	tab := repairTable(t)
	for _, method := range []string{MethodOptimal, MethodFast} {
		r, err := Solve(tab, &Settings{Method: method, Insiders: InsidersOn})
		skipUnavailable(t, err)
		if !errors.Is(err, ErrUnsafe) || r == nil {
			t.Fatalf("%s: err %v, want ErrUnsafe with a result", method, err)
		}
		if r.InsiderImpossible == 0 || r.Insiders == nil || r.Insiders.OK() {
			t.Fatalf("%s: %d impossible targets, insider report %+v", method, r.InsiderImpossible, r.Insiders)
		}
		if _, ok := auditOK(t, tab, r.Status); !ok {
			t.Fatalf("%s: the pattern fails the outsider audit", method)
		}
		t.Logf("%s: %v", method, err)
	}
}
