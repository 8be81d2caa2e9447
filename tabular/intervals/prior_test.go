package intervals

import (
	"math"
	"testing"
)

// TestCellPrior: the cells' own prior bounds are the attacker's prior by
// default. In the rectangle, moving t around the corners gives (a1,b1) =
// 5 + t, (a1,b2) = 3 − t, (a2,b1) = 2 − t, (a2,b2) = 8 + t; non-negativity
// alone gives t ∈ [−5, 2], (a1,b1) ∈ [0, 7]. By hand: PriorLower 6 on
// (a2,b2) gives t ≥ −2, and PriorUpper 6 on (a1,b1) gives t ≤ 1, so
// (a1,b1) ∈ [3, 6]. Settings.Prior overrides the cells' bounds.
func TestCellPrior(t *testing.T) {
	tab, p := rectangle(t)
	tab.Cells[cell(t, tab, "a2", "b2")].PriorLower = 6
	tab.Cells[p].PriorUpper = 6
	for _, integer := range []bool{false, true} {
		r, err := Compute(tab, &Settings{Integer: integer})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		iv, _ := r.Lookup(p)
		if math.Abs(iv.Lower-3) > tol || math.Abs(iv.Upper-6) > tol {
			t.Fatalf("integer %v: (a1,b1) in [%g, %g], want [3, 6]", integer, iv.Lower, iv.Upper)
		}
		if err := Verify(tab, r, nil); err != nil {
			t.Fatalf("integer %v: %v", integer, err)
		}
	}
	r, err := Compute(tab, &Settings{Prior: func(int, float64) (float64, float64) { return 0, math.Inf(1) }})
	if err != nil {
		t.Fatal(err)
	}
	if iv, _ := r.Lookup(p); math.Abs(iv.Lower) > tol || math.Abs(iv.Upper-7) > tol {
		t.Fatalf("Settings.Prior [0, +Inf): (a1,b1) in [%g, %g], want [0, 7]", iv.Lower, iv.Upper)
	}
	// The JJ file carries the same prior bounds (lb, ub).
	lr, err := ComputeLinear(viaJJ(t, tab), nil)
	if err != nil {
		t.Fatal(err)
	}
	if iv, _ := lr.Lookup(p); math.Abs(iv.Lower-3) > tol || math.Abs(iv.Upper-6) > tol {
		t.Fatalf("via JJ: (a1,b1) in [%g, %g], want [3, 6]", iv.Lower, iv.Upper)
	}
}

// TestSliding: a sliding protection level S needs Upper − Lower ≥ S
// wherever the interval lies. The rectangle's (a1,b1) ∈ [0, 7] (width 7,
// TestRectangle) passes S = 7 and fails S = 8 short by 1; with the prior
// of TestCellPrior, [3, 6] (width 3) fails S = 4 short by 1, although
// levels L = 2, U = 1 (reaching 3 and 6) pass.
func TestSliding(t *testing.T) {
	tab, p := rectangle(t)
	r, err := Compute(tab, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	tab.Cells[p].Sliding = 7
	if rep := AuditProtection(r, CellProtection(tab.Cells)); !rep.OK() {
		t.Fatalf("S = 7: %+v", rep.UnderProtected)
	}
	tab.Cells[p].Sliding = 8
	rep := AuditProtection(r, CellProtection(tab.Cells))
	if len(rep.UnderProtected) != 1 || math.Abs(rep.UnderProtected[0].ShortWidth-1) > tol || rep.UnderProtected[0].RequiredSliding != 8 {
		t.Fatalf("S = 8: %+v, want short by 1 in width", rep.UnderProtected)
	}
	tab.Cells[cell(t, tab, "a2", "b2")].PriorLower = 6
	tab.Cells[p].PriorUpper = 6
	if r, err = Compute(tab, nil); err != nil {
		t.Fatal(err)
	}
	tab.Cells[p].Lower, tab.Cells[p].Upper, tab.Cells[p].Sliding = 2, 1, 0
	if rep := AuditProtection(r, CellProtection(tab.Cells)); !rep.OK() {
		t.Fatalf("L = 2, U = 1: %+v", rep.UnderProtected)
	}
	tab.Cells[p].Sliding = 4
	rep = AuditProtection(r, CellProtection(tab.Cells))
	if len(rep.UnderProtected) != 1 || math.Abs(rep.UnderProtected[0].ShortWidth-1) > tol ||
		rep.UnderProtected[0].ShortAbove != 0 || rep.UnderProtected[0].ShortBelow != 0 {
		t.Fatalf("S = 4: %+v, want short by 1 in width only", rep.UnderProtected)
	}
	// Audit (levels without sliding) ignores it.
	if rep := Audit(r, func(int) (float64, float64) { return 2, 1 }); !rep.OK() {
		t.Fatalf("Audit: %+v", rep.UnderProtected)
	}
}
