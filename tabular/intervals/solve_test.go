package intervals

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// sameEnds reports whether two ends agree within 1e-9·max(1, |x|) (or
// are the same infinity).
func sameEnds(x, y float64) bool {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return x == y
	}
	return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x))
}

// compareToPlain computes the intervals of src plainly (one model, every
// end solved: NoSkip and NoDecompose, as before components and skipping)
// and with the defaults, with 1 and 2 workers, and fails unless every end
// agrees within 1e-9, every result verifies, and the two worker counts
// give identical results. It returns the solves and skipped ends of the
// default run and the solves of the plain one.
func compareToPlain(t *testing.T, name string, run func(*Settings) (*Result, error), verify func(*Result, *Settings) error) (solves, skipped, plainSolves int) {
	t.Helper()
	plain, err := run(&Settings{NoSkip: true, NoDecompose: true})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatalf("%s: plain: %v", name, err)
	}
	if plain.Skipped != 0 || plain.Components > 1 {
		t.Fatalf("%s: plain run skipped %d ends in %d components", name, plain.Skipped, plain.Components)
	}
	var one *Result
	for _, w := range []int{1, 2} {
		s := &Settings{Workers: w}
		r, err := run(s)
		if err != nil {
			t.Fatalf("%s: workers %d: %v", name, w, err)
		}
		if err := verify(r, s); err != nil {
			t.Fatalf("%s: workers %d: %v", name, w, err)
		}
		if len(r.Intervals) != len(plain.Intervals) {
			t.Fatalf("%s: %d intervals, plain %d", name, len(r.Intervals), len(plain.Intervals))
		}
		for j, iv := range r.Intervals {
			p := plain.Intervals[j]
			if iv.Cell != p.Cell || !sameEnds(iv.Lower, p.Lower) || !sameEnds(iv.Upper, p.Upper) {
				t.Fatalf("%s: workers %d: cell %s [%g, %g], plain [%g, %g]", name, w, iv.Name, iv.Lower, iv.Upper, p.Lower, p.Upper)
			}
		}
		if 2*r.Determined > r.Skipped || r.Solves+r.Skipped+r.Local < 2*len(r.Intervals) {
			t.Fatalf("%s: %d solves, %d skipped, %d local, %d determined for %d cells", name, r.Solves, r.Skipped, r.Local, r.Determined, len(r.Intervals))
		}
		if one == nil {
			one = r
			continue
		}
		if r.Solves != one.Solves || r.Skipped != one.Skipped || r.Components != one.Components || r.LargestComponent != one.LargestComponent {
			t.Fatalf("%s: 2 workers: %d solves, %d skipped, %d components; 1 worker: %d, %d, %d", name,
				r.Solves, r.Skipped, r.Components, one.Solves, one.Skipped, one.Components)
		}
		for j, iv := range r.Intervals {
			o := one.Intervals[j]
			if iv.Lower != o.Lower || iv.Upper != o.Upper || iv.LowerStatus != o.LowerStatus || iv.UpperStatus != o.UpperStatus {
				t.Fatalf("%s: cell %s: 2 workers [%g, %g], 1 worker [%g, %g]", name, iv.Name, iv.Lower, iv.Upper, o.Lower, o.Upper)
			}
		}
	}
	return one.Solves, one.Skipped, plain.Solves
}

// TestDecomposedMatchesPlain: on seeded random tables, 2-way and 3-way,
// flat and hierarchical, with 20 % to 70 % of the cells suppressed (so
// that some cells are determined by differencing, some components are
// independent and some ends need an LP), the component-wise computation
// with skipped solves gives the plain intervals, with certificates that
// Verify accepts.
func TestDecomposedMatchesPlain(t *testing.T) {
	shapes := []struct {
		name string
		hs   func() []*tabular.Hierarchy
	}{
		{"flat4x5", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "a", 4), flat(t, "b", 5)} }},
		{"hier3.3x2.3", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{twoLevel(t, "r", 3, 3), twoLevel(t, "s", 2, 3)}
		}},
		{"flat3x3x4", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{flat(t, "a", 3), flat(t, "b", 3), flat(t, "c", 4)}
		}},
		{"hier2.2^3", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{twoLevel(t, "r", 2, 2), twoLevel(t, "s", 2, 2), twoLevel(t, "t", 2, 2)}
		}},
	}
	reps := 6
	if testing.Short() {
		reps = 2
	}
	solves, skipped, plain := 0, 0, 0
	for si, sh := range shapes {
		for rep := range reps {
			rng := rand.New(rand.NewPCG(uint64(100+si), uint64(rep)))
			tab := newTable(sh.hs(), func() float64 { return float64(rng.IntN(6)) })
			n := len(tab.Cells)
			k := n/5 + rng.IntN(n/2)
			suppress(tab, rng, k, 1+rng.IntN(k))
			name := fmt.Sprintf("%s/%d (%d of %d cells)", sh.name, rep, k, n)
			a, b, c := compareToPlain(t, name,
				func(s *Settings) (*Result, error) { return Compute(tab, s) },
				func(r *Result, s *Settings) error { return Verify(tab, r, s) })
			solves, skipped, plain = solves+a, skipped+b, plain+c
		}
	}
	t.Logf("%d solves and %d skipped ends, where the plain computation solved %d", solves, skipped, plain)
	if skipped == 0 || solves >= plain {
		t.Fatalf("nothing skipped (%d solves, plain %d)", solves, plain)
	}
}

// TestDecomposedSystem: the same on linked tables v1 × v2 and v1 × w
// that share the v1 margin (TestSystem's shape, random values).
func TestDecomposedSystem(t *testing.T) {
	for rep := range 4 {
		rng := rand.New(rand.NewPCG(300, uint64(rep)))
		n1, n2, n3 := 3, 4, 3
		leaf1 := make([][]float64, n1)
		leaf2 := make([][]float64, n1)
		for i := range n1 {
			row := 0.0
			for range n2 {
				v := float64(rng.IntN(6))
				leaf1[i] = append(leaf1[i], v)
				row += v
			}
			// Split the same row total over the n3 codes of w.
			left := int(row)
			for k := range n3 {
				v := left
				if k < n3-1 {
					v = rng.IntN(left + 1)
				}
				leaf2[i] = append(leaf2[i], float64(v))
				left -= v
			}
		}
		mk := func(leaf [][]float64, m int, dim string) *tabular.Table {
			k := 0
			tab := newTable([]*tabular.Hierarchy{flat(t, "a", n1), flat(t, "b", m)}, func() float64 { v := leaf[k/m][k%m]; k++; return v })
			tab.Dims[1].Name = dim
			return tab
		}
		t1, t2 := mk(leaf1, n2, "v2"), mk(leaf2, n3, "w")
		suppress(t1, rng, 6+rng.IntN(5), 2)
		suppress(t2, rng, 3+rng.IntN(4), 1)
		sys, err := tabular.NewSystem([]*tabular.Table{t1, t2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		compareToPlain(t, fmt.Sprintf("system/%d", rep),
			func(s *Settings) (*Result, error) { return ComputeSystem(sys, s) },
			func(r *Result, s *Settings) error { return VerifySystem(sys, r, s) })
	}
}

// TestSkippedCertificates: the rectangle of TestRectangle. Row a1 reads
// x(a1,b1) + x(a1,b2) = 5 + 3 = 8 (its total 15 less the published 7), so
// x(a1,b2) ≤ 8 from that row alone; the plain LP also gives 8 = 3 +
// min(5, 8) (hand computation: move 5 units around the rectangle). The
// minimum x(a1,b1) = 0 puts x(a1,b2) at 8, so the maximum of (a1,b2) is
// skipped with the one-row certificate y = e_{a1}; several minima are
// skipped at the prior bound 0 with y = 0. Verify accepts both and
// refuses them tampered.
func TestSkippedCertificates(t *testing.T) {
	tab := classic(t)
	tab.Cells[cell(t, tab, "a1", "b1")].Status = tabular.Primary
	for _, c := range [][2]string{{"a1", "b2"}, {"a2", "b1"}, {"a2", "b2"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Secondary
	}
	q := cell(t, tab, "a1", "b2")
	fresh := func() (*Result, *Interval) {
		r, err := Compute(tab, nil)
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(tab, r, nil); err != nil {
			t.Fatal(err)
		}
		iv, _ := r.Lookup(q)
		return r, iv
	}
	r, iv := fresh()
	if r.Skipped == 0 || r.Components != 1 || r.Determined != 0 {
		t.Fatalf("%d skipped, %d components, %d determined; want some skipped in 1 component, none determined", r.Skipped, r.Components, r.Determined)
	}
	if iv.Upper != 8 || iv.UpperCert == nil || len(iv.UpperCert.Rows) != 1 || iv.UpperCert.Y[0] != 1 {
		t.Fatalf("(a1,b2) upper %g with %+v, want 8 from one row with y = 1", iv.Upper, iv.UpperCert)
	}
	zeroY := 0
	for _, x := range r.Intervals {
		if c := x.LowerCert; c != nil && len(c.Rows) == 0 {
			zeroY++
			if x.Lower != 0 || len(c.Vars) != 1 || c.D[0] != 1 {
				t.Fatalf("cell %s: lower %g with y = 0 certificate %+v", x.Name, x.Lower, c)
			}
		}
	}
	if zeroY == 0 {
		t.Fatal("no minimum proven at the prior bound")
	}
	tamper := []struct {
		name string
		f    func(iv *Interval)
	}{
		{"one-row: sharper claim", func(iv *Interval) { iv.Upper = 7 }},
		{"one-row: y", func(iv *Interval) { iv.UpperCert.Y[0] = 0.5 }},
		{"one-row: other row", func(iv *Interval) { iv.UpperCert.Rows[0] = (iv.UpperCert.Rows[0] + 1) % r.Rows }},
		{"one-row: bound dual", func(iv *Interval) { iv.UpperCert.D[0] = 0 }},
		{"one-row: value", func(iv *Interval) { iv.UpperCert.Value = 7 }},
		{"y = 0: lower above the prior", func(iv *Interval) {
			iv.Lower, iv.LowerCert = 1, &Certificate{Sense: solvers.Minimize, Vars: []int{1}, D: []float64{1}, Value: 1}
		}},
	}
	for _, tc := range tamper {
		r, iv := fresh()
		tc.f(iv)
		if err := Verify(tab, r, nil); !errors.Is(err, ErrCertificate) {
			t.Fatalf("%s: Verify %v, want ErrCertificate", tc.name, err)
		}
	}
}

// TestDeterminedCertificates: cells recomputed from relations one after
// another. In the 3×3 table of TestRectangle with (a1,b1), (a1,b2) and
// (a2,b1) suppressed, column b2 has one suppressed cell: x(a1,b2) = 12 −
// 8 − 1 = 3, and row a2 too: x(a2,b1) = 14 − 8 − 4 = 2 (hand computation
// from the leaf values; column b2 totals 3 + 8 + 1 = 12, row a2 2 + 8 + 4
// = 14); then row a1 (or column b1) has one left: x(a1,b1) = 15 − 3 − 7
// = 5, whose proof combines two relations. All three are determined by
// presolve (no LP), with proofs y whose Aᵀy = e_j; Verify accepts them
// and refuses them tampered.
func TestDeterminedCertificates(t *testing.T) {
	tab := classic(t)
	for _, c := range [][2]string{{"a1", "b1"}, {"a1", "b2"}, {"a2", "b1"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Primary
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
	r := fresh()
	if r.Determined != 3 || r.Solves != 0 || r.Skipped != 6 {
		t.Fatalf("%d determined, %d solves, %d skipped; want 3, 0, 6", r.Determined, r.Solves, r.Skipped)
	}
	want := map[[2]string]float64{{"a1", "b1"}: 5, {"a1", "b2"}: 3, {"a2", "b1"}: 2}
	long := 0
	for c, v := range want {
		iv, _ := r.Lookup(cell(t, tab, c[0], c[1]))
		if iv.Lower != v || iv.Upper != v || iv.LowerCert == nil || iv.UpperCert == nil {
			t.Fatalf("cell %s: [%g, %g] (certificates %v, %v), want [%g, %g] certified", iv.Name, iv.Lower, iv.Upper, iv.LowerCert, iv.UpperCert, v, v)
		}
		long = max(long, len(iv.UpperCert.Rows))
	}
	if long < 2 {
		t.Fatal("no cell determined through another determined cell")
	}
	for _, f := range []func(iv *Interval){
		func(iv *Interval) { iv.Upper-- },
		func(iv *Interval) { iv.Lower++ },
		func(iv *Interval) { iv.UpperCert.Y[0] *= 2 },
		func(iv *Interval) { iv.LowerCert.Rows = iv.LowerCert.Rows[1:]; iv.LowerCert.Y = iv.LowerCert.Y[1:] },
	} {
		r := fresh()
		for j := range r.Intervals {
			if iv := &r.Intervals[j]; len(iv.UpperCert.Rows) >= 2 {
				f(iv)
				break
			}
		}
		if err := Verify(tab, r, nil); !errors.Is(err, ErrCertificate) {
			t.Fatalf("Verify %v, want ErrCertificate", err)
		}
	}
}
