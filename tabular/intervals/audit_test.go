package intervals

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// classic returns the 3×3 table (with totals) of leaf values
//
//	5 3 7
//	2 8 4
//	6 1 9
func classic(t *testing.T) *tabular.Table {
	vals := []float64{5, 3, 7, 2, 8, 4, 6, 1, 9}
	k := 0
	return newTable([]*tabular.Hierarchy{flat(t, "a", 3), flat(t, "b", 3)}, func() float64 { k++; return vals[k-1] })
}

func cell(t *testing.T, tab *tabular.Table, a, b string) int {
	i, ok := tab.Lookup(a, b)
	if !ok {
		t.Fatalf("no cell %s,%s", a, b)
	}
	return i
}

// TestSinglePrimaryDisclosed: one primary cell suppressed and nothing
// else is recomputed from its row total: the interval is [X, X], the
// audit reports it disclosed and under-protected for any positive level.
func TestSinglePrimaryDisclosed(t *testing.T) {
	tab := classic(t)
	c := cell(t, tab, "a2", "b2")
	tab.Cells[c].Status = tabular.Primary
	r, err := Compute(tab, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Intervals) != 1 || r.Intervals[0].Lower != 8 || r.Intervals[0].Upper != 8 {
		t.Fatalf("intervals %+v, want [8, 8]", r.Intervals)
	}
	rep := Audit(r, func(int) (float64, float64) { return 1, 1 })
	if len(rep.Disclosed) != 1 || len(rep.UnderProtected) != 1 || rep.OK() || rep.Primary != 1 {
		t.Fatalf("report %+v", rep)
	}
	if f := rep.UnderProtected[0]; f.ShortAbove != 1 || f.ShortBelow != 1 {
		t.Fatalf("finding %+v, want short by 1 on both sides", f)
	}
}

// TestRectangle: the four corners of a rectangle suppressed. The
// attacker can move t around the rectangle (+t, −t, −t, +t), so cell
// (a1,b1) = 5 lies in [5 − min(5, 8), 5 + min(3, 2)] = [0, 7] with the
// corners (a1,b1), (a1,b2), (a2,b1), (a2,b2).
func TestRectangle(t *testing.T) {
	tab := classic(t)
	p := cell(t, tab, "a1", "b1")
	tab.Cells[p].Status = tabular.Primary
	for _, c := range [][2]string{{"a1", "b2"}, {"a2", "b1"}, {"a2", "b2"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Secondary
	}
	for _, integer := range []bool{false, true} {
		r, err := Compute(tab, &Settings{Integer: integer})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		iv, ok := r.Lookup(p)
		if !ok || iv.Lower != 0 || iv.Upper != 7 {
			t.Fatalf("integer %v: interval %+v, want [0, 7]", integer, iv)
		}
		// Levels 5 below and 2 above are met exactly; 3 above is not.
		lv := make([]float64, len(tab.Cells))
		up := make([]float64, len(tab.Cells))
		lv[p], up[p] = 5, 2
		if rep := Audit(r, LevelSlices(lv, up)); !rep.OK() {
			t.Fatalf("levels 5, 2: %+v", rep)
		}
		up[p] = 3
		rep := Audit(r, LevelSlices(lv, up))
		if len(rep.UnderProtected) != 1 || rep.UnderProtected[0].ShortAbove != 1 || rep.UnderProtected[0].ShortBelow != 0 || len(rep.Disclosed) != 0 {
			t.Fatalf("levels 5, 3: %+v", rep)
		}
		if !integer {
			if err := Verify(tab, r, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestInfeasible: published values that contradict a relation, and a
// relation that the prior bounds cannot meet, are errors naming it.
func TestInfeasible(t *testing.T) {
	tab := classic(t)
	tab.Cells[cell(t, tab, "a1", "b1")].Status = tabular.Primary
	tab.Cells[cell(t, tab, "a3", "Total")].Value++ // row a3 and column Total no longer add up
	_, err := Compute(tab, nil)
	if !errors.Is(err, ErrInfeasible) || !strings.Contains(err.Error(), "relation") || !strings.Contains(err.Error(), "violated") {
		t.Fatalf("err %v, want ErrInfeasible naming a violated relation", err)
	}
	// The attacker knows x(a1,b1) within 1 % of its value, which the
	// test sets to 50 without changing the published totals: row a1
	// needs x(a1,b1) + x(a1,b2) = 8.
	tab = classic(t)
	tab.Cells[cell(t, tab, "a1", "b1")].Status = tabular.Primary
	tab.Cells[cell(t, tab, "a1", "b2")].Status = tabular.Primary
	tab.Cells[cell(t, tab, "a1", "b1")].Value = 50
	_, err = Compute(tab, &Settings{Prior: PercentPrior(1, true)})
	if !errors.Is(err, ErrInfeasible) || !strings.Contains(err.Error(), "relation") {
		t.Fatalf("err %v, want ErrInfeasible naming a relation", err)
	}
	t.Log(err)
}

// TestEnginesAgree: every available LP engine gives the same intervals,
// each certified, on a seeded hierarchical table.
func TestEnginesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 3))
	tab := newTable([]*tabular.Hierarchy{twoLevel(t, "r", 3, 3), flat(t, "b", 4)}, func() float64 { return float64(rng.IntN(20)) })
	suppress(tab, rng, 25, 10)
	var ref *Result
	for _, eng := range []string{"highs", "clp", "lpsolve"} {
		r, err := Compute(tab, &Settings{Solver: eng})
		if err != nil {
			skipUnavailable(t, err)
			t.Fatalf("%s: %v", eng, err)
		}
		if r.Engine != eng {
			t.Fatalf("engine %q, want %q", r.Engine, eng)
		}
		if err := Verify(tab, r, nil); err != nil {
			t.Fatalf("%s: %v", eng, err)
		}
		if ref == nil {
			ref = r
			continue
		}
		for j, iv := range r.Intervals {
			w := ref.Intervals[j]
			if !near(iv.Lower, w.Lower) || !near(iv.Upper, w.Upper) {
				t.Fatalf("cell %s: %s [%g, %g], %s [%g, %g]", iv.Name, eng, iv.Lower, iv.Upper, ref.Engine, w.Lower, w.Upper)
			}
		}
	}
}

// TestMIPEnginesAgree: the available MIP engines give the same integer
// intervals on a seeded 3-way table.
func TestMIPEnginesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 4))
	tab := newTable([]*tabular.Hierarchy{flat(t, "a", 2), flat(t, "b", 3), flat(t, "c", 3)}, func() float64 { return float64(rng.IntN(4)) })
	suppress(tab, rng, 20, 5)
	var ref *Result
	for _, eng := range []string{"highs", "cbc"} {
		r, err := Compute(tab, &Settings{Solver: eng, Integer: true})
		if err != nil {
			skipUnavailable(t, err)
			t.Fatalf("%s: %v", eng, err)
		}
		if ref == nil {
			ref = r
			continue
		}
		for j, iv := range r.Intervals {
			if w := ref.Intervals[j]; iv.Lower != w.Lower || iv.Upper != w.Upper {
				t.Fatalf("cell %s: %s [%g, %g], %s [%g, %g]", iv.Name, eng, iv.Lower, iv.Upper, ref.Engine, w.Lower, w.Upper)
			}
		}
	}
}

func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= tol*math.Max(1, math.Abs(a))
}

// TestTamperedCertificate: Verify accepts the engine's certificates and
// refuses each kind of tampering.
func TestTamperedCertificate(t *testing.T) {
	tab := classic(t)
	p := cell(t, tab, "a1", "b1")
	tab.Cells[p].Status = tabular.Primary
	for _, c := range [][2]string{{"a1", "b2"}, {"a2", "b1"}, {"a2", "b2"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Secondary
	}
	fresh := func() *Result {
		r, err := Compute(tab, nil)
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(tab, r, nil); err != nil {
			t.Fatal(err)
		}
		return r
	}
	tamper := []struct {
		name string
		f    func(iv *Interval)
	}{
		{"sharper claim", func(iv *Interval) { iv.Upper -= 1 }},
		{"row dual", func(iv *Interval) {
			for i := range iv.UpperCert.Y {
				iv.UpperCert.Y[i] += 0.5
			}
		}},
		{"row dual with matching bound duals and value", func(iv *Interval) {
			// y = 0: d = e_j, a valid but weaker certificate (x_j ≤ +Inf):
			// refused because x_j has no finite upper bound.
			c := iv.UpperCert
			c.Rows, c.Y = nil, nil
			c.Vars, c.D = []int{0}, []float64{1}
		}},
		{"value", func(iv *Interval) { iv.UpperCert.Value -= 2 }},
		{"dropped", func(iv *Interval) { iv.UpperCert = nil }},
		{"bound dual", func(iv *Interval) { iv.UpperCert.D[0] += 0.25 }},
		{"row index", func(iv *Interval) { iv.UpperCert.Rows[0] = 1 << 20 }},
		{"lower claim", func(iv *Interval) { iv.Lower += 0.5 }},
	}
	for _, tc := range tamper {
		r := fresh()
		iv, _ := r.Lookup(p)
		if iv.UpperCert == nil || iv.LowerCert == nil {
			t.Fatal("no certificate")
		}
		tc.f(iv)
		if err := Verify(tab, r, nil); !errors.Is(err, ErrCertificate) {
			t.Fatalf("%s: Verify %v, want ErrCertificate", tc.name, err)
		}
	}
	// A weaker claim than the certificate proves is still proven.
	r := fresh()
	iv, _ := r.Lookup(p)
	iv.Upper += 1
	if err := Verify(tab, r, nil); err != nil {
		t.Fatalf("weaker claim: %v", err)
	}
}

// TestUnbounded: with the grand total, a row total, a column total and
// their common cell suppressed, the four can grow together without
// bound; the MIP engine's "infeasible or unbounded" must be read as
// unbounded (a regression: it was reported as an infeasible table).
func TestUnbounded(t *testing.T) {
	tab := classic(t)
	for _, c := range [][2]string{{"Total", "Total"}, {"a1", "Total"}, {"Total", "b1"}, {"a1", "b1"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Primary
	}
	for _, integer := range []bool{false, true} {
		r, err := Compute(tab, &Settings{Integer: integer})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatalf("integer %v: %v", integer, err)
		}
		iv, _ := r.Lookup(cell(t, tab, "a1", "b1"))
		if iv.Lower != 0 || !math.IsInf(iv.Upper, 1) {
			t.Fatalf("integer %v: [%g, %g], want [0, +Inf]", integer, iv.Lower, iv.Upper)
		}
		if !integer {
			if err := Verify(tab, r, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSystem: in two linked tables (v1 × v2 and v1 × w) the v1 margin
// is shared. Suppressing (a1, Total) and (a1, b1) in the first table
// alone leaves them recomputable in the system: (a1, Total) is the grand
// total minus (a2, Total), and (a1, b1) follows.
func TestSystem(t *testing.T) {
	mk := func(vals []float64, dim string) *tabular.Table {
		k := 0
		tab := newTable([]*tabular.Hierarchy{flat(t, "a", 2), flat(t, "b", 2)}, func() float64 { k++; return vals[k-1] })
		tab.Dims[1].Name = dim
		return tab
	}
	t1 := mk([]float64{1, 2, 3, 4}, "v2")
	t2 := mk([]float64{2, 1, 4, 3}, "w") // the same v1 margin: 3, 7
	for _, c := range [][2]string{{"a1", "Total"}, {"a1", "b1"}, {"a2", "b1"}, {"a2", "Total"}} {
		t1.Cells[cell(t, t1, c[0], c[1])].Status = tabular.Primary
	}
	sys, err := tabular.NewSystem([]*tabular.Table{t1, t2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Alone, t1's four suppressed cells move together: (a1, b1) + (a2, b1)
	// = 4, so (a1, b1) is in [0, 4].
	r1, err := Compute(t1, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	iv, _ := r1.Lookup(cell(t, t1, "a1", "b1"))
	if iv.Lower != 0 || iv.Upper != 4 {
		t.Fatalf("table alone: [%g, %g], want [0, 4]", iv.Lower, iv.Upper)
	}
	r, err := ComputeSystem(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifySystem(sys, r, nil); err != nil {
		t.Fatal(err)
	}
	rep := Audit(r, nil)
	if len(r.Intervals) != 4 || len(rep.Disclosed) != 4 {
		t.Fatalf("system: %d intervals, %d disclosed, want 4 and 4: %+v", len(r.Intervals), len(rep.Disclosed), r.Intervals)
	}
	for _, iv := range r.Intervals {
		if iv.Lower != iv.Value || iv.Upper != iv.Value {
			t.Fatalf("cell %s: [%g, %g], want its value %g", iv.Name, iv.Lower, iv.Upper, iv.Value)
		}
	}
}
