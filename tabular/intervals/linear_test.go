package intervals

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// viaJJ returns the table as ReadJJ reads back what WriteJJ writes of it.
func viaJJ(t *testing.T, tab *tabular.Table) *tabular.LinearSystem {
	t.Helper()
	var buf bytes.Buffer
	if err := tabular.WriteJJ(&buf, tab.Linear()); err != nil {
		t.Fatal(err)
	}
	ls, err := tabular.ReadJJ(&buf, "t.jj")
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// TestLinearMatchesTable: a table written as a JJ file and read back
// audits exactly as the table: the same suppressed cells, the same LP and
// integer intervals, and the LP certificates verify against the JJ.
// Seeded random 2- and 3-way frequency tables.
func TestLinearMatchesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	for trial := range 12 {
		hs := []*tabular.Hierarchy{flat(t, "a", 2+rng.IntN(3)), twoLevel(t, "b", 2, 2)}
		if trial%3 == 2 {
			hs = append(hs, flat(t, "c", 2))
		}
		tab := newTable(hs, func() float64 { return float64(rng.IntN(6)) })
		suppress(tab, rng, 2+rng.IntN(len(tab.Cells)/3), 1+rng.IntN(2))
		ls := viaJJ(t, tab)
		for _, integer := range []bool{false, true} {
			want, err := Compute(tab, &Settings{Integer: integer})
			skipUnavailable(t, err)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ComputeLinear(ls, &Settings{Integer: integer})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Intervals) != len(want.Intervals) {
				t.Fatalf("trial %d: %d intervals from the JJ, %d from the table", trial, len(got.Intervals), len(want.Intervals))
			}
			for j, w := range want.Intervals {
				g := got.Intervals[j]
				if g.Cell != w.Cell || g.Status != w.Status || math.Abs(g.Lower-w.Lower) > tol || math.Abs(g.Upper-w.Upper) > tol {
					t.Fatalf("trial %d integer %v: cell %d: JJ [%g, %g] %v, table [%g, %g] %v", trial, integer,
						w.Cell, g.Lower, g.Upper, g.Status, w.Lower, w.Upper, w.Status)
				}
			}
			if err := VerifyLinear(ls, got, nil); err != nil {
				t.Fatalf("trial %d integer %v: %v", trial, integer, err)
			}
		}
	}
}

// gapJJ is a hand-made JJ file with a non-unit coefficient: cell 0 = 3
// published, cells 1 (= 1, primary) and 2 (= 1, secondary) suppressed,
// and the relation −x0 + x1 + 2·x2 = 0, so x1 + 2·x2 = 3 with x ≥ 0.
//
// By hand: LP x1 = 3 − 2·x2 with x2 ∈ [0, 1.5], so x1 ∈ [0, 3] and
// x2 ∈ [0, 1.5]. Integer: x2 ∈ {0, 1}, x1 ∈ {3, 1}: x1 ∈ [1, 3], x2 ∈
// [0, 1]. The integer lower end of x1 (1) is inside its rounded LP bound
// ⌈0⌉ = 0: not certified, gap 1; the upper end of x2 (1) is ⌊1.5⌋: certified.
const gapJJ = `0
3
0 3 1 s 0 1e20 0 0 0
1 1 1 u 0 1e20 0 0 0
2 1 1 x 0 1e20 0 0 0
1
0 3 : 0 (-1) 1 (1) 2 (2)
`

func TestLinearCoefficient(t *testing.T) {
	ls, err := tabular.ReadJJ(strings.NewReader(gapJJ), "gap.jj")
	if err != nil {
		t.Fatal(err)
	}
	lp, err := ComputeLinear(ls, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	ip, err := ComputeLinear(ls, &Settings{Integer: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r      *Result
		j      int
		lo, up float64
	}{{lp, 0, 0, 3}, {lp, 1, 0, 1.5}, {ip, 0, 1, 3}, {ip, 1, 0, 1}} {
		iv := c.r.Intervals[c.j]
		if math.Abs(iv.Lower-c.lo) > tol || math.Abs(iv.Upper-c.up) > tol {
			t.Errorf("integer %v, cell %d: [%g, %g], want [%g, %g]", c.r.Integer, iv.Cell, iv.Lower, iv.Upper, c.lo, c.up)
		}
	}
	if err := VerifyLinear(ls, lp, nil); err != nil {
		t.Fatal(err)
	}
	x1, x2 := ip.Intervals[0], ip.Intervals[1]
	if e := x1.LowerInt; e == nil || e.Certified || e.Reached != 1 || e.Outer != 0 || e.Gap() != 1 {
		t.Errorf("x1 lower end %+v, want reached 1, outer 0, not certified", e)
	}
	for _, e := range []*IntegerEnd{x1.UpperInt, x2.LowerInt, x2.UpperInt} {
		if e == nil || !e.Certified || e.Gap() != 0 {
			t.Errorf("end %+v, want certified", e)
		}
	}
	if e := x2.UpperInt; e == nil || e.Outer != 1 || e.OuterCert == nil || math.Abs(e.OuterCert.Value-1.5) > tol {
		t.Errorf("x2 upper end %+v, want outer ⌊1.5⌋ = 1 proved by an LP certificate of 1.5", e)
	}
	if err := VerifyLinear(ls, ip, nil); err != nil {
		t.Fatal(err)
	}
	// A prior upper bound 0.5 on x2 (the JJ's ub) leaves x2 = 0 in the
	// integers, so x1 = 3; the LP gives x2 ∈ [0, 0.5], x1 ∈ [2, 3].
	ls.Cells[2].PriorUpper = 0.5
	lp, err = ComputeLinear(ls, nil)
	if err != nil {
		t.Fatal(err)
	}
	if iv := lp.Intervals[0]; math.Abs(iv.Lower-2) > tol || math.Abs(iv.Upper-3) > tol {
		t.Errorf("prior ub 0.5: x1 in [%g, %g], want [2, 3]", iv.Lower, iv.Upper)
	}
}

// TestLinearInvalid: a LinearSystem that is no attacker problem is an
// error naming the relation or cell, never a panic.
func TestLinearInvalid(t *testing.T) {
	base := func() *tabular.LinearSystem {
		ls, err := tabular.ReadJJ(strings.NewReader(gapJJ), "gap.jj")
		if err != nil {
			t.Fatal(err)
		}
		return ls
	}
	for name, spoil := range map[string]func(*tabular.LinearSystem){
		"cell out of range": func(ls *tabular.LinearSystem) { ls.Relations[0].Cells[1] = 7 },
		"coefficients":      func(ls *tabular.LinearSystem) { ls.Relations[0].Coefs = ls.Relations[0].Coefs[:2] },
		"inf coefficient":   func(ls *tabular.LinearSystem) { ls.Relations[0].Coefs[2] = math.Inf(1) },
		"nan value":         func(ls *tabular.LinearSystem) { ls.Cells[1].Value = math.NaN() },
	} {
		ls := base()
		spoil(ls)
		if _, err := ComputeLinear(ls, nil); !errors.Is(err, ErrLinearSystem) {
			t.Errorf("%s: %v, want ErrLinearSystem", name, err)
		}
	}
	// A relation among published cells that does not hold.
	ls := base()
	ls.Cells[1].Status, ls.Cells[2].Status = tabular.Safe, tabular.Safe
	ls.Cells[0].Status = tabular.Primary
	ls.Relations = append(ls.Relations, tabular.LinearRelation{RHS: 5, Cells: []int{1, 2}, Coefs: []float64{1, 1}})
	if _, err := ComputeLinear(ls, nil); !errors.Is(err, ErrInfeasible) || !strings.Contains(err.Error(), "relation 1") {
		t.Errorf("violated relation: %v, want ErrInfeasible naming relation 1", err)
	}
}

// TestLinearHalfCoefficient: −x0 + 0.5·x1 + x2 = 0 with x0 = 3 published
// and x1 = 2, x2 = 2 suppressed. By hand: x2 = 3 − x1/2 ≥ 0, so x1 ∈ [0, 6]
// and x2 ∈ [0, 3], over the reals and (x1 even) over the integers: every
// integer end is certified. The witnesses' rows have a non-integer
// coefficient, so Verify sums them in big.Rat; a witness with x1 odd
// (0.5·3 + 1 = 2.5 ≠ 3) is refused.
func TestLinearHalfCoefficient(t *testing.T) {
	ls := &tabular.LinearSystem{
		Cells:     []tabular.Cell{{Value: 3}, {Value: 2, Status: tabular.Primary}, {Value: 2, Status: tabular.Secondary}},
		Relations: []tabular.LinearRelation{{Cells: []int{0, 1, 2}, Coefs: []float64{-1, 0.5, 1}}},
	}
	r, err := ComputeLinear(ls, &Settings{Integer: true})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]float64{{0, 6}, {0, 3}}
	for j, iv := range r.Intervals {
		if iv.Lower != want[j][0] || iv.Upper != want[j][1] || !iv.LowerInt.Certified || !iv.UpperInt.Certified {
			t.Errorf("cell %d: [%g, %g] certified %v %v, want %v certified", iv.Cell, iv.Lower, iv.Upper,
				iv.LowerInt.Certified, iv.UpperInt.Certified, want[j])
		}
	}
	if err := VerifyLinear(ls, r, nil); err != nil {
		t.Fatal(err)
	}
	// The upper end of x2 (3) has x1 = 0: make it x1 = 3.
	e := r.Intervals[1].UpperInt
	e.Witness.Vars, e.Witness.X = []int{0, 1}, []float64{3, 1}
	e.Reached = 1
	if err := VerifyLinear(ls, r, nil); !errors.Is(err, ErrCertificate) || !strings.Contains(err.Error(), "relation") {
		t.Fatalf("odd x1: %v, want a broken relation refused", err)
	}
}
