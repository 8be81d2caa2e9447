package intervals

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// rectangle returns classic with the corners (a1,b1) primary and (a1,b2),
// (a2,b1), (a2,b2) secondary: (a1,b1) = 5 lies in [0, 7] (TestRectangle).
func rectangle(t *testing.T) (*tabular.Table, int) {
	tab := classic(t)
	p := cell(t, tab, "a1", "b1")
	tab.Cells[p].Status = tabular.Primary
	for _, c := range [][2]string{{"a1", "b2"}, {"a2", "b1"}, {"a2", "b2"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Secondary
	}
	return tab, p
}

// TestIntegerCertified: the rectangle's integer intervals are those of
// the LP (a 2-way table's relation matrix is totally unimodular), so every
// end has a witness reaching it and an LP bound equal to it: certified,
// and Verify (also after a round trip through the certificates file)
// accepts them.
func TestIntegerCertified(t *testing.T) {
	tab, p := rectangle(t)
	r, err := Compute(tab, &Settings{Integer: true})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	for _, iv := range r.Intervals {
		for _, e := range []*IntegerEnd{iv.LowerInt, iv.UpperInt} {
			if e == nil || !e.Certified || e.Witness == nil || e.OuterCert == nil {
				t.Fatalf("cell %s: end %+v, want certified with a witness and an LP certificate", iv.Name, e)
			}
		}
	}
	if iv, _ := r.Lookup(p); iv.LowerInt.Reached != 0 || iv.UpperInt.Reached != 7 {
		t.Fatalf("(a1,b1): witnesses reach %g and %g, want 0 and 7", iv.LowerInt.Reached, iv.UpperInt.Reached)
	}
	if err := Verify(tab, r, nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCertificates(&buf, CertificatesInfo{Table: "t.csv"}, r); err != nil {
		t.Fatal(err)
	}
	back, _, err := ReadCertificates(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Integer {
		t.Fatal("read back as LP intervals")
	}
	if err := Verify(tab, back, nil); err != nil {
		t.Fatalf("read back: %v", err)
	}
	// NoCertificates drops them, and Verify then refuses the ends.
	r, err = Compute(tab, &Settings{Integer: true, NoCertificates: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Intervals[0].LowerInt != nil {
		t.Fatal("NoCertificates kept an integer certificate")
	}
	if err := Verify(tab, r, nil); !errors.Is(err, ErrCertificate) {
		t.Fatalf("no certificates: %v, want ErrCertificate", err)
	}
}

// TestIntegerTampered: Verify refuses a witness that breaks a relation,
// is not integral or leaves the bounds, an end claimed narrower than its
// witness or beyond its outer bound, an outer bound sharper than its LP
// certificate, and "certified" on an end whose witness and bound differ.
func TestIntegerTampered(t *testing.T) {
	tab, _ := rectangle(t)
	r, err := Compute(tab, &Settings{Integer: true})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	// The upper end of (a1,b1) = 7: its witness has x(a1,b1) = 7,
	// x(a1,b2) = 1, x(a2,b1) = 0, x(a2,b2) = 10 (t = 2 in TestRectangle).
	for name, spoil := range map[string]func(e *IntegerEnd, iv *Interval){
		"relation":  func(e *IntegerEnd, _ *Interval) { e.Witness.X[0]++; e.Reached++ },
		"fraction":  func(e *IntegerEnd, _ *Interval) { e.Witness.X[len(e.Witness.X)-1] += 0.5 },
		"bounds":    func(e *IntegerEnd, _ *Interval) { e.Witness.X[len(e.Witness.X)-1] = -1 },
		"index":     func(e *IntegerEnd, _ *Interval) { e.Witness.Vars[0] = -1 },
		"repeated":  func(e *IntegerEnd, _ *Interval) { e.Witness.Vars[0] = e.Witness.Vars[len(e.Witness.Vars)-1] },
		"reached":   func(e *IntegerEnd, _ *Interval) { e.Reached = 6 },
		"narrower":  func(_ *IntegerEnd, iv *Interval) { iv.Upper = 6 },
		"beyond":    func(_ *IntegerEnd, iv *Interval) { iv.Upper = 8 },
		"outer":     func(e *IntegerEnd, _ *Interval) { e.Outer = 6; e.Certified = false },
		"certified": func(e *IntegerEnd, iv *Interval) { e.Witness = nil; e.Reached = math.NaN() },
	} {
		var buf bytes.Buffer
		if err := WriteCertificates(&buf, CertificatesInfo{}, r); err != nil {
			t.Fatal(err)
		}
		back, _, err := ReadCertificates(&buf)
		if err != nil {
			t.Fatal(err)
		}
		iv := &back.Intervals[0]
		spoil(iv.UpperInt, iv)
		if err := Verify(tab, back, nil); !errors.Is(err, ErrCertificate) {
			t.Errorf("%s: %v, want ErrCertificate", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestIntegerGap: on the 3-way table of TestLPWiderThanInteger, every end
// verifies, and an end is certified exactly when its witness reaches its
// rounded LP bound; the brute force (long test) confirms each end lies in
// [Reached, Outer] and equals the true integer end.
func TestIntegerGap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 244))
	tab := newTable([]*tabular.Hierarchy{flat(t, "a", 2), flat(t, "b", 3), flat(t, "c", 3)}, func() float64 { return float64(rng.IntN(3)) })
	suppress(tab, rng, len(tab.Cells)/2+rng.IntN(len(tab.Cells)/3), 3)
	ip, err := Compute(tab, &Settings{Integer: true})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(tab, ip, nil); err != nil {
		t.Fatal(err)
	}
	c, _ := tab.Lookup("a1", "Total", "c1")
	iv, _ := ip.Lookup(c)
	// LP lower end 0.5 (TestLPWiderThanInteger), rounded up: 1 = the
	// integer end, which a witness reaches.
	if e := iv.LowerInt; e == nil || e.Outer != 1 || e.Reached != 1 || !e.Certified {
		t.Fatalf("(a1,Total,c1) lower end %+v, want outer ⌈0.5⌉ = 1 reached: certified", e)
	}
	for _, iv := range ip.Intervals {
		for _, e := range []*IntegerEnd{iv.LowerInt, iv.UpperInt} {
			if e.Certified != (e.Gap() == 0) {
				t.Errorf("cell %s: end %+v: certified %v with gap %g", iv.Name, e, e.Certified, e.Gap())
			}
		}
	}
}
