package intervals

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// rec is one microdata record of the insider tests: leaf codes a, b, a
// respondent and its value.
type rec struct {
	a, b, id string
	v        float64
}

// microTable tabulates recs over flat a1..a2 × b1..b3 (with totals) as a
// magnitude table keeping every respondent's contribution (TopN 10).
func microTable(t *testing.T, recs []rec) *tabular.Table {
	t.Helper()
	ha, hb := flat(t, "a", 2), flat(t, "b", 3)
	b := tabular.NewBuilder([]tabular.Dimension{{Name: "a", H: ha}, {Name: "b", H: hb}},
		&tabular.BuilderSettings{Magnitude: true, Respondents: true, TopN: 10})
	for _, r := range recs {
		ka, _ := ha.Index(r.a)
		kb, _ := hb.Index(r.b)
		b.Add([]int{ka, kb}, r.v, 1, r.id, "")
	}
	return b.Table()
}

// setCell sets the status, rule and levels of cell (a, b).
func setCell(t *testing.T, tab *tabular.Table, a, b string, st tabular.Status, rule string, lvl float64) int {
	i := cell(t, tab, a, b)
	c := &tab.Cells[i]
	c.Status, c.Rule, c.Upper, c.Lower = st, rule, lvl, lvl
	return i
}

// singletonTable is the classic case. Leaves (respondent: value):
//
//	      b1                    b2        b3
//	a1    r1:15 r2:4 r3:1 = 20  r4:9 = 9  r5:25 r6:15 = 40
//	a2    r7:12 r8:10 r13:8 = 30  r9:10 r10:8 r14:7 = 25  r11:20 r12:15 = 35
//
// (a1,b1) is primary under p(10): R = 20 − 15 − 4 = 1, U = L = 0.1·15 − 1
// = 0.5 (package primary's level). It is protected by the rectangle
// (a1|a2, b1|b2), one corner of which is the singleton (a1,b2). pair
// makes (a1,b2) a cell of two respondents r4:5 r15:4 instead.
func singletonTable(t *testing.T, pair bool) (*tabular.Table, int) {
	recs := []rec{{"a1", "b1", "r1", 15}, {"a1", "b1", "r2", 4}, {"a1", "b1", "r3", 1},
		{"a1", "b3", "r5", 25}, {"a1", "b3", "r6", 15},
		{"a2", "b1", "r7", 12}, {"a2", "b1", "r8", 10}, {"a2", "b1", "r13", 8},
		{"a2", "b2", "r9", 10}, {"a2", "b2", "r10", 8}, {"a2", "b2", "r14", 7},
		{"a2", "b3", "r11", 20}, {"a2", "b3", "r12", 15}}
	if pair {
		recs = append(recs, rec{"a1", "b2", "r4", 5}, rec{"a1", "b2", "r15", 4})
	} else {
		recs = append(recs, rec{"a1", "b2", "r4", 9})
	}
	tab := microTable(t, recs)
	p := setCell(t, tab, "a1", "b1", tabular.Primary, "p(10)", 0.5)
	setCell(t, tab, "a1", "b2", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b1", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b2", tabular.Secondary, "", 0)
	return tab, p
}

func plainAndInsiders(t *testing.T, tab *tabular.Table) (*Report, *InsiderReport) {
	t.Helper()
	r, err := Compute(tab, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	lower, upper := make([]float64, len(tab.Cells)), make([]float64, len(tab.Cells))
	for i, c := range tab.Cells {
		lower[i], upper[i] = c.Lower, c.Upper
	}
	ir, err := InsiderAudit(tab, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Audit(r, LevelSlices(lower, upper)), ir
}

// TestInsiderSingleton: the plain audit passes, the singleton breaks the
// primary cell. Around the rectangle the attacker adds t to (a1,b1) and
// (a2,b2) and subtracts it from (a1,b2) and (a2,b1): 20 + t ≥ 0, 9 − t ≥
// 0, 30 − t ≥ 0, 25 + t ≥ 0 give t ∈ [−20, 9] and (a1,b1) ∈ [0, 29] ⊇
// [19.5, 20.5]. Respondent r4 knows (a1,b2) = 9 (its own value, alone),
// so t = 0 and (a1,b1) = 20 exactly: short by 0.5 on both sides.
func TestInsiderSingleton(t *testing.T) {
	tab, p := singletonTable(t, false)
	plain, ir := plainAndInsiders(t, tab)
	if !plain.OK() {
		t.Fatalf("plain audit fails: %+v", plain)
	}
	// Insiders: r4 (alone in (a1,b2)), then r1 (largest of (a1,b1)).
	if len(ir.Insiders) != 2 || ir.Insiders[0].IDs[0] != "r4" || ir.Insiders[1].IDs[0] != "r1" || ir.Skipped() != 0 {
		t.Fatalf("insiders %+v", ir.Insiders)
	}
	if ir.OK() || len(ir.Findings) != 1 {
		t.Fatalf("findings %+v", ir.Findings)
	}
	f := ir.Findings[0]
	if f.Insider != 0 || f.Cell != p || f.Lower != 20 || f.Upper != 20 || !f.Disclosed ||
		math.Abs(f.ShortAbove-0.5) > tol || math.Abs(f.ShortBelow-0.5) > tol || f.Own != 0 || f.Requirement != "levels" {
		t.Fatalf("finding %+v", f)
	}
	// r1 knows (a1,b1) ≥ 15, so t ≥ −5 and (a1,b1) ∈ [15, 29]. Its
	// p*-level: target r2 = 4, 0.1·4 − (20 − 15 − 4) = −0.6 < 0.5, so the
	// cell's levels hold: the others must span [19.5 − 15, 20.5 − 15].
	if len(ir.Largest) != 1 {
		t.Fatalf("largest %+v", ir.Largest)
	}
	l := ir.Largest[0]
	if l.ID != "r1" || !l.FromInsider || math.Abs(l.OthersLower-0) > tol || math.Abs(l.OthersUpper-14) > tol ||
		math.Abs(l.NeedLower-4.5) > tol || math.Abs(l.NeedUpper-5.5) > tol || !l.Within {
		t.Fatalf("largest %+v", l)
	}
}

// TestInsiderCoalition: (a1,b2) has two respondents, r4:5 and r15:4.
// Alone, r4 knows (a1,b2) ≥ 5, so 9 − t ≥ 5, t ≤ 4 and (a1,b1) ∈ [0, 24];
// r15 knows ≥ 4, t ≤ 5, (a1,b1) ∈ [0, 25]: both contain [19.5, 20.5].
// Together they know (a1,b2) = 9: t = 0, (a1,b1) = 20, broken.
func TestInsiderCoalition(t *testing.T) {
	tab, p := singletonTable(t, true)
	plain, ir := plainAndInsiders(t, tab)
	if !plain.OK() {
		t.Fatalf("plain audit fails: %+v", plain)
	}
	// Insiders: the coalition, r4, r15, then r1.
	if len(ir.Insiders) != 4 || ir.Insiders[0].Kind != Coalition || ir.Insiders[3].IDs[0] != "r1" {
		t.Fatalf("insiders %+v", ir.Insiders)
	}
	if len(ir.Findings) != 1 || ir.Findings[0].Insider != 0 || ir.Findings[0].Cell != p || !ir.Findings[0].Disclosed {
		t.Fatalf("findings %+v", ir.Findings)
	}
	if n := ir.Insiders[0].Name(tab.CellName); n != "coalition r4+r15" {
		t.Errorf("name %q", n)
	}
}

// TestInsiderNothing: (a1,b2) with three respondents: no singleton, no
// pair; the only insider is r1, the largest contributor of (a1,b1), and
// it breaks nothing (TestInsiderSingleton's arithmetic).
func TestInsiderNothing(t *testing.T) {
	tab := microTable(t, []rec{{"a1", "b1", "r1", 15}, {"a1", "b1", "r2", 4}, {"a1", "b1", "r3", 1},
		{"a1", "b2", "r4", 3}, {"a1", "b2", "r15", 3}, {"a1", "b2", "r16", 3},
		{"a1", "b3", "r5", 25}, {"a1", "b3", "r6", 15},
		{"a2", "b1", "r7", 12}, {"a2", "b1", "r8", 10}, {"a2", "b1", "r13", 8},
		{"a2", "b2", "r9", 10}, {"a2", "b2", "r10", 8}, {"a2", "b2", "r14", 7},
		{"a2", "b3", "r11", 20}, {"a2", "b3", "r12", 15}})
	setCell(t, tab, "a1", "b1", tabular.Primary, "p(10)", 0.5)
	setCell(t, tab, "a1", "b2", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b1", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b2", tabular.Secondary, "", 0)
	plain, ir := plainAndInsiders(t, tab)
	if !plain.OK() || !ir.OK() || len(ir.Insiders) != 1 || len(ir.Findings) != 0 || len(ir.Largest) != 1 {
		t.Fatalf("plain %+v insiders %+v", plain, ir)
	}
}

// TestInsiderLargestHandbook uses the numbers of the Handbook on SDC,
// chapter 4, Example 1 (as TestHandbookExamples in package primary): X =
// 100,000 from x1 = 50,000, x2 = 49,000, x3 = 1,000, sensitive under
// p(2.5) with U = L = 0.025·50,000 − 1,000 = 250. The cell is (a1,b1),
// protected by the rectangle with (a1,b2) = w (three respondents of w/3),
// (a2,b1) = 5,000 and (a2,b2) = 4,000 (three respondents each): t ∈
// [−4,000, w], so (a1,b1) ∈ [96,000, 100,000 + w]. The largest
// contributor knows x1 = 50,000 (no narrower than 96,000) and estimates
// the others at [46,000, 50,000 + w]. Its own p*-level, target x2:
// 0.025·49,000 − 1,000 = 225 < 250, so the cell's levels apply: the
// others' estimate must span [49,750, 50,250]. w = 300: within; w = 200:
// the upper end 50,200 falls 50 short.
func TestInsiderLargestHandbook(t *testing.T) {
	for _, w := range []float64{300, 200} {
		tab := microTable(t, []rec{{"a1", "b1", "r1", 50000}, {"a1", "b1", "r2", 49000}, {"a1", "b1", "r3", 1000},
			{"a1", "b2", "s1", w / 3}, {"a1", "b2", "s2", w / 3}, {"a1", "b2", "s3", w / 3},
			{"a1", "b3", "s4", 7000},
			{"a2", "b1", "s5", 2000}, {"a2", "b1", "s6", 2000}, {"a2", "b1", "s7", 1000},
			{"a2", "b2", "s8", 2000}, {"a2", "b2", "s9", 1000}, {"a2", "b2", "s10", 1000},
			{"a2", "b3", "s11", 3000}})
		setCell(t, tab, "a1", "b1", tabular.Primary, "p(2.5)", 250)
		setCell(t, tab, "a1", "b2", tabular.Secondary, "", 0)
		setCell(t, tab, "a2", "b1", tabular.Secondary, "", 0)
		setCell(t, tab, "a2", "b2", tabular.Secondary, "", 0)
		_, ir := plainAndInsiders(t, tab)
		if len(ir.Largest) != 1 {
			t.Fatalf("w=%g: largest %+v", w, ir.Largest)
		}
		l := ir.Largest[0]
		if math.Abs(l.OthersLower-46000) > tol || math.Abs(l.OthersUpper-(50000+w)) > tol ||
			math.Abs(l.NeedLower-49750) > tol || math.Abs(l.NeedUpper-50250) > tol || l.Within != (w == 300) ||
			l.Outsider != (w == 200) {
			t.Errorf("w=%g: largest %+v", w, l)
		}
		// w = 200: the outsider's interval [96,000, 100,200] misses
		// 100,250 as well; the plain audit reports the cell, and the
		// insider report leaves it to it.
		if !ir.OK() || len(ir.Findings) != 0 {
			t.Errorf("w=%g: OK %v, findings %+v", w, ir.OK(), ir.Findings)
		}
	}
}

// TestInsiderSecondOfTwo: a primary cell of two respondents, r1:60 and
// r2:40 (p(10): R = 0, U = L = 6). The largest contributor's estimate of
// the others is its estimate of x2. The cell (a1,b1) is protected by the
// rectangle with (a1,b2) = 30, (a2,b1) = 50, (a2,b2) = 20, each of three
// respondents: t ∈ [−min(100, 20), min(30, 50)] = [−20, 30], (a1,b1) ∈
// [80, 130], so r1 estimates x2 in [20, 70] ⊇ [34, 46] = [94 − 60, 106 −
// 60]: within. Its p*-level, target x2 = 40: 0.1·40 − 0 = 4 < 6.
func TestInsiderSecondOfTwo(t *testing.T) {
	tab := microTable(t, []rec{{"a1", "b1", "r1", 60}, {"a1", "b1", "r2", 40},
		{"a1", "b2", "s1", 10}, {"a1", "b2", "s2", 10}, {"a1", "b2", "s3", 10}, {"a1", "b3", "s4", 70},
		{"a2", "b1", "s5", 20}, {"a2", "b1", "s6", 20}, {"a2", "b1", "s7", 10},
		{"a2", "b2", "s8", 10}, {"a2", "b2", "s9", 5}, {"a2", "b2", "s10", 5}, {"a2", "b3", "s11", 40}})
	setCell(t, tab, "a1", "b1", tabular.Primary, "p(10)", 6)
	setCell(t, tab, "a1", "b2", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b1", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b2", tabular.Secondary, "", 0)
	_, ir := plainAndInsiders(t, tab)
	// Insiders: the pair (which makes up the cell: not checked on it), r1, r2.
	if len(ir.Insiders) != 3 || ir.Insiders[0].Kind != Coalition || !ir.OK() {
		t.Fatalf("insiders %+v findings %+v", ir.Insiders, ir.Findings)
	}
	l := ir.Largest[0]
	if l.Freq != 2 || math.Abs(l.OthersLower-20) > tol || math.Abs(l.OthersUpper-70) > tol ||
		math.Abs(l.NeedLower-34) > tol || math.Abs(l.NeedUpper-46) > tol || !l.Within {
		t.Fatalf("largest %+v", l)
	}
}

// TestInsiderCoalitionLevel checks the coalition's p*-level by hand. In
// singletonTable's (a1,b1) = 20 (r1:15, r2:4, r3:1, p(10)), a coalition
// {r2, r3} knows c = 5 and targets x1 = 15: U_C = 0.1·15 − (20 − 5 − 15)
// = 1.5 > the cell's 0.5, L_C = min(1.5, 20 − 5) = 1.5: the interval must
// reach [18.5, 21.5]. r1 alone: 0.1·4 − (20 − 15 − 4) = −0.6, so the
// cell's levels [19.5, 20.5], the lower end no lower than what r1 knows
// (15 < 19.5). With levels 10 on the cell, r1 must not be kept from
// knowing x ≥ 15, its own: [max(20 − 10, 15), 30] = [15, 30].
func TestInsiderCoalitionLevel(t *testing.T) {
	tab, p := singletonTable(t, false)
	a := newInsiderAudit(tab, &Settings{})
	for _, tc := range []struct {
		ids         []string
		lvl         float64
		lo, hi, own float64
		requirement string
	}{
		{[]string{"r2", "r3"}, 0.5, 18.5, 21.5, 5, "levels+p*(10)"},
		{[]string{"r1"}, 0.5, 19.5, 20.5, 15, "levels+p*(10)"},
		{[]string{"r4"}, 0.5, 19.5, 20.5, 0, "levels"},
		{[]string{"r1"}, 10, 15, 30, 15, "levels+p*(10)"},
	} {
		tab.Cells[p].Upper, tab.Cells[p].Lower = tc.lvl, tc.lvl
		in := &Insider{Kind: Coalition, IDs: tc.ids, Cell: -1}
		lo, hi, own, name := a.requirement(in, a.knowledge(in), p)
		if math.Abs(lo-tc.lo) > tol || math.Abs(hi-tc.hi) > tol || own != tc.own || name != tc.requirement {
			t.Errorf("%v: [%g, %g] own %g %s", tc.ids, lo, hi, own, name)
		}
	}
	if got := pStar("freq(3)+pq(10,50)+holding:p(20)", false); got != 20 {
		t.Errorf("pStar = %g, want 100·10/50 = 20", got)
	}
	if got := pStar("freq(3)+pq(10,50)+holding:p(30)", true); got != 30 {
		t.Errorf("holding pStar = %g, want 30", got)
	}
}

// TestInsiderNegative: a magnitude table with a negative value is refused.
func TestInsiderNegative(t *testing.T) {
	tab, _ := singletonTable(t, false)
	tab.Cells[cell(t, tab, "a1", "b3")].Value = -1
	if _, err := InsiderAudit(tab, &Result{}, nil); err == nil {
		t.Fatal("no error")
	}
}

// bruteBounds enumerates integer values of the suppressed cells in
// [lo_i, hi_i] that satisfy every relation, and returns each suppressed
// cell's min and max by cell index (ok false when none).
func bruteBounds(t *tabular.Table, lo, hi []int) (mn, mx map[int]int, ok bool) {
	var sup []int
	for i := range t.Cells {
		if t.Cells[i].Status.Suppressed() {
			sup = append(sup, i)
		}
	}
	x := map[int]int{}
	value := func(i int) (int, bool) {
		if !t.Cells[i].Status.Suppressed() {
			return int(t.Cells[i].Value), true
		}
		v, ok := x[i]
		return v, ok
	}
	var rels []tabular.Relation
	for r := range t.Relations() {
		rels = append(rels, r)
	}
	// feasible: every relation Σ parts − total = 0 can still hold with
	// the cells not yet set anywhere in their bounds.
	feasible := func() bool {
		for _, r := range rels {
			mn, mx := 0, 0
			term := func(c, coef int) {
				if v, ok := value(c); ok {
					mn += coef * v
					mx += coef * v
				} else if coef > 0 {
					mn, mx = mn+lo[c], mx+hi[c]
				} else {
					mn, mx = mn-hi[c], mx-lo[c]
				}
			}
			term(r.Total, -1)
			for _, p := range r.Parts {
				term(p, 1)
			}
			if mn > 0 || mx < 0 {
				return false
			}
		}
		return true
	}
	mn, mx = map[int]int{}, map[int]int{}
	var rec func(k int)
	rec = func(k int) {
		if k == len(sup) {
			ok = true
			for _, i := range sup {
				if v, seen := mn[i]; !seen || x[i] < v {
					mn[i] = x[i]
				}
				if v, seen := mx[i]; !seen || x[i] > v {
					mx[i] = x[i]
				}
			}
			return
		}
		i := sup[k]
		for v := lo[i]; v <= hi[i]; v++ {
			x[i] = v
			if feasible() {
				rec(k + 1)
			}
		}
		delete(x, i)
	}
	rec(0)
	return mn, mx, ok
}

// contains reports whether cell m contains cell k: in every dimension,
// m's code is k's or one of its ancestors.
func contains(t *tabular.Table, m, k int) bool {
	cm, ck := t.CodeIndices(m, nil), t.CodeIndices(k, nil)
	for d := range cm {
		found := false
		for a := ck[d]; a >= 0; a = t.Dims[d].H.Parent(a) {
			if a == cm[d] {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// TestInsiderBruteForce cross-checks InsiderAudit on random 3×3
// frequency tables (with totals; leaves 0..2, Freq = value) against
// enumeration. Primary cells the outsider already breaks (enumerated
// without insider knowledge) are left to the plain audit. every suppressed cell with Freq 1 or 2 is a cell insider
// that knows its value, and that every cell containing it holds at least
// as much (exactly as much, and is made up by it, when its Freq is the
// same). For each insider and primary cell not made up by it, the
// enumerated interval must reach [max(X − 1, own), X + 1] (levels 1) and
// not be a point, own = the insider's value when the cell contains it;
// a finding must exist exactly when it does not, with the enumerated
// ends (2-way tables: the LP's ends are integral).
func TestInsiderBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	trials := 300
	if testing.Short() {
		trials = 60
	}
	checked, failing := 0, 0
	for trial := 0; trial < trials; trial++ {
		tab := newTable([]*tabular.Hierarchy{flat(t, "a", 3), flat(t, "b", 3)}, func() float64 { return float64(rng.IntN(3)) })
		suppress(tab, rng, 7, 2)
		for i := range tab.Cells {
			if tab.Cells[i].Status == tabular.Primary {
				tab.Cells[i].Upper, tab.Cells[i].Lower = 1, 1
			}
		}
		r, err := Compute(tab, nil)
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		ir, err := InsiderAudit(tab, r, &InsiderSettings{MaxInsiders: -1})
		if err != nil {
			t.Fatal(err)
		}
		// The enumeration's cap: with the grand total suppressed a cell
		// may grow without bound; 3·grand + 6 leaves room to reach X + 1
		// in every cell of these tables, and an LP end of +Inf is
		// compared only with "reaches X + 1".
		grand := 3*int(tab.Cells[0].Value) + 6
		zero, full := make([]int, len(tab.Cells)), make([]int, len(tab.Cells))
		for i := range full {
			full[i] = grand
		}
		pmn, pmx, _ := bruteBounds(tab, zero, full)
		// The insiders expected: suppressed cells with Freq 1, then 2.
		var want []int
		for _, f := range []int{1, 2} {
			for i, c := range tab.Cells {
				if c.Status.Suppressed() && c.Freq == f {
					want = append(want, i)
				}
			}
		}
		if len(ir.Insiders) != len(want) {
			t.Fatalf("trial %d: %d insiders, want %d", trial, len(ir.Insiders), len(want))
		}
		for k, in := range ir.Insiders {
			kc := want[k]
			if in.Kind != CellInsider || in.Cell != kc {
				t.Fatalf("trial %d: insider %d = %+v, want cell %d", trial, k, in, kc)
			}
			xk, fk := int(tab.Cells[kc].Value), tab.Cells[kc].Freq
			lo, hi := make([]int, len(tab.Cells)), make([]int, len(tab.Cells))
			whole := map[int]bool{}
			own := map[int]int{}
			for i := range tab.Cells {
				hi[i] = grand
				if contains(tab, i, kc) {
					lo[i], own[i] = xk, xk
					if tab.Cells[i].Freq == fk {
						lo[i], hi[i], whole[i] = int(tab.Cells[i].Value), int(tab.Cells[i].Value), true
					}
				}
			}
			mn, mx, ok := bruteBounds(tab, lo, hi)
			if !ok {
				t.Fatalf("trial %d: no table", trial)
			}
			for i, c := range tab.Cells {
				x := int(c.Value)
				if c.Status != tabular.Primary || whole[i] || pmn[i] > x-1 || pmx[i] < x+1 || pmn[i] == pmx[i] {
					continue
				}
				fail := mn[i] > max(x-1, own[i]) || mx[i] < x+1 || mn[i] == mx[i]
				var got *InsiderFinding
				for j := range ir.Findings {
					if f := &ir.Findings[j]; f.Insider == k && f.Cell == i {
						got = f
					}
				}
				if fail != (got != nil) {
					t.Fatalf("trial %d insider cell %d, primary %d: enumerated [%d, %d], fail %v, finding %+v",
						trial, kc, i, mn[i], mx[i], fail, got)
				}
				if got != nil && (math.Abs(got.Lower-float64(mn[i])) > tol ||
					!math.IsInf(got.Upper, 1) && math.Abs(got.Upper-float64(mx[i])) > tol || math.IsInf(got.Upper, 1) && mx[i] < x+1) {
					t.Fatalf("trial %d: finding %+v, enumerated [%d, %d]", trial, got, mn[i], mx[i])
				}
				checked++
				if fail {
					failing++
				}
			}
		}
	}
	if checked < 20 || failing < 5 || failing == checked {
		t.Fatalf("%d (insider, primary cell) pairs checked, %d broken: too few of one kind", checked, failing)
	}
	t.Logf("%d (insider, primary cell) pairs checked, %d broken by the insider", checked, failing)
}

// TestInsiderLowerBound: what an insider knows short of a cell's value
// (its own contribution, a lower bound) can break a cell too. In the
// pair table with levels 4.5 on (a1,b1), the plain interval [0, 29] (see
// TestInsiderSingleton) reaches [15.5, 24.5]; r4 knows (a1,b2) ≥ 5, so t
// ≤ 4 and (a1,b1) ∈ [0, 24]: 0.5 short above; r15 knows ≥ 4, t ≤ 5,
// (a1,b1) ∈ [0, 25]: protected; the coalition knows (a1,b2) = 9: [20, 20].
func TestInsiderLowerBound(t *testing.T) {
	tab, p := singletonTable(t, true)
	tab.Cells[p].Upper, tab.Cells[p].Lower = 4.5, 4.5
	plain, ir := plainAndInsiders(t, tab)
	if !plain.OK() {
		t.Fatalf("plain audit fails: %+v", plain)
	}
	byName := map[string]*InsiderFinding{}
	for i := range ir.Findings {
		f := &ir.Findings[i]
		byName[ir.Insiders[f.Insider].Name(tab.CellName)] = f
	}
	if len(ir.Findings) != 2 || byName["coalition r4+r15"] == nil || byName["respondent r4"] == nil {
		t.Fatalf("findings %+v", ir.Findings)
	}
	if f := byName["respondent r4"]; f.Lower != 0 || math.Abs(f.Upper-24) > tol || math.Abs(f.ShortAbove-0.5) > tol ||
		f.ShortBelow != 0 || f.Disclosed {
		t.Fatalf("r4: %+v", f)
	}
}

// TestInsiderHolding: the pair table's (a1,b2) = 9 from r4:5 and r15:4,
// both of holding h1 (every other respondent its own holding). The
// holding makes up (a1,b2) alone: it knows (a1,b2) = 9, so (a1,b1) = 20
// (TestInsiderSingleton's arithmetic), as the coalition of r4 and r15
// does.
func TestInsiderHolding(t *testing.T) {
	ha, hb := flat(t, "a", 2), flat(t, "b", 3)
	b := tabular.NewBuilder([]tabular.Dimension{{Name: "a", H: ha}, {Name: "b", H: hb}},
		&tabular.BuilderSettings{Magnitude: true, Respondents: true, Holdings: true, TopN: 10})
	for _, r := range []rec{{"a1", "b1", "r1", 15}, {"a1", "b1", "r2", 4}, {"a1", "b1", "r3", 1},
		{"a1", "b2", "r4", 5}, {"a1", "b2", "r15", 4}, {"a1", "b3", "r5", 25}, {"a1", "b3", "r6", 15},
		{"a2", "b1", "r7", 12}, {"a2", "b1", "r8", 10}, {"a2", "b1", "r13", 8},
		{"a2", "b2", "r9", 10}, {"a2", "b2", "r10", 8}, {"a2", "b2", "r14", 7},
		{"a2", "b3", "r11", 20}, {"a2", "b3", "r12", 15}} {
		ka, _ := ha.Index(r.a)
		kb, _ := hb.Index(r.b)
		h := r.id
		if r.id == "r4" || r.id == "r15" {
			h = "h1"
		}
		b.Add([]int{ka, kb}, r.v, 1, r.id, h)
	}
	tab := b.Table()
	p := setCell(t, tab, "a1", "b1", tabular.Primary, "p(10)", 0.5)
	setCell(t, tab, "a1", "b2", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b1", tabular.Secondary, "", 0)
	setCell(t, tab, "a2", "b2", tabular.Secondary, "", 0)
	_, ir := plainAndInsiders(t, tab)
	found := false
	for _, f := range ir.Findings {
		in := ir.Insiders[f.Insider]
		if in.Name(tab.CellName) == "holding h1" && f.Cell == p && f.Disclosed && in.Reason == "alone in (a=a1, b=b2)" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no finding of holding h1: insiders %+v findings %+v", ir.Insiders, ir.Findings)
	}
}

// TestInsiderWeighted: a weighted table's contributions are unweighted,
// so its insiders are cells: (a1,b2), Freq 1, known exactly, breaks
// (a1,b1) as in TestInsiderSingleton; no largest contributor's estimate.
func TestInsiderWeighted(t *testing.T) {
	tab, p := singletonTable(t, false)
	tab.Weighted = true
	_, ir := plainAndInsiders(t, tab)
	if len(ir.Insiders) != 1 || ir.Insiders[0].Kind != CellInsider || len(ir.Largest) != 0 ||
		len(ir.Findings) != 1 || ir.Findings[0].Cell != p || !ir.Findings[0].Disclosed {
		t.Fatalf("insiders %+v findings %+v largest %+v", ir.Insiders, ir.Findings, ir.Largest)
	}
}
