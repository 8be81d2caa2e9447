package colgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// cutCertOracle decides from the definitions alone, over every group of
// k..2k-1 records (allGroups), whether certificate c of form CertSubsetRow
// proves its bound: σ ≤ 0, every size bound at most the smallest reduced
// cost with the cut terms, rc_C = SSE(C) − λ(C) − Σ_{S: |C∩S| ≥ 2} σ_S
// (clipped at 0; root-bound proofs at most enumerate's root bound), and
// Σλ + Σσ + lagrangianTerm(size bounds) at least the stated bound. It
// returns the largest violation of these conditions (≤ 0 when c holds)
// and the smallest reduced cost with the cut terms per size.
func cutCertOracle(t *testing.T, z *model.Dataset, c *Certificate) (viol float64, minRC []float64) {
	t.Helper()
	d := model.NewSqDist(z)
	k := c.K
	prep, err := enumerate.Prepare(d, 2*k-1)
	if err != nil {
		t.Fatal(err)
	}
	minRC = make([]float64, k)
	for _, g := range allGroups(z.N, k) {
		rc := d.GroupCost(g)
		for _, v := range g {
			rc -= c.Duals[v]
		}
		for i, s := range c.Cuts {
			hit := 0
			for _, v := range g {
				if v == s[0] || v == s[1] || v == s[2] {
					hit++
				}
			}
			if hit >= 2 {
				rc -= c.CutDuals[i]
			}
		}
		minRC[len(g)-k] = min(minRC[len(g)-k], rc)
	}
	viol = math.Inf(-1)
	for _, s := range c.CutDuals {
		viol = max(viol, s)
	}
	for a, lb := range c.SizeBounds {
		got := minRC[a]
		if c.SizeProofs[a] == ProofRoot {
			got = prep.RootBound(c.Duals, k+a)
		}
		viol = max(viol, lb, (lb-got)/math.Max(1, math.Abs(lb)))
	}
	b := floatSum(c.Duals) + floatSum(c.CutDuals) + lagrangianTerm(z.N, k, c.SizeBounds)
	return max(viol, (c.Bound-b)/math.Max(1, math.Abs(c.Bound))), minRC
}

// checkAgainstOracle runs CheckCertificate on c and compares with the
// oracle: a certificate false by more than 1e-6 must be refused with
// ErrCertificate, one that holds (within 1e-10) must be accepted. It
// reports whether c was refused.
func checkAgainstOracle(t *testing.T, z *model.Dataset, c *Certificate, what string) bool {
	t.Helper()
	viol, _ := cutCertOracle(t, z, c)
	got, err := CheckCertificate(z, c)
	switch {
	case err != nil && !errors.Is(err, ErrCertificate):
		t.Fatalf("%s: %v", what, err)
	case viol > 1e-6 && err == nil:
		t.Errorf("%s: accepted (recomputed %.12g, stated %.12g), but it is false by %.3g", what, got, c.Bound, viol)
	case viol <= 1e-10 && err != nil:
		t.Errorf("%s: refused (%v), but it holds", what, err)
	}
	return err != nil
}

// cloneCert copies c deeply.
func cloneCert(c *Certificate) *Certificate {
	x := *c
	x.Duals, x.SizeBounds, x.SizeProofs = slices.Clone(c.Duals), slices.Clone(c.SizeBounds), slices.Clone(c.SizeProofs)
	x.Cuts, x.CutDuals = slices.Clone(c.Cuts), slices.Clone(c.CutDuals)
	return &x
}

// TestCertificateSubsetRow: on the clustered instances of
// TestSubsetRowCutsExactPricing, where the subset-row cuts raise the
// bound, the run's certificate has form CertSubsetRow, states the run's
// bound (subset_row_lp), is above the certificate without cuts and below
// the brute-force optimum, and CheckCertificate recomputes at least it;
// it survives a JSON round trip. Tampered copies — a cut dual made
// positive, a cut moved to other records, a record dual raised, and a
// hand-made certificate with exact per-size minima whose size bound is
// raised — are refused exactly when the oracle (cutCertOracle, from the
// definitions over every group) says they are false. A checker that left
// the cut terms out of its enumeration would refuse the run's own
// certificates (groups of the LP's cover price out under λ alone, which
// TestSubsetRowCutsExactPricing asserts).
func TestCertificateSubsetRow(t *testing.T) {
	refused := map[string]int{}
	for _, cs := range []struct {
		m, k int
		gap  float64
		seed uint64
	}{{2, 3, 20, 1}, {3, 2, 20, 2}, {3, 3, 1, 3}, {4, 2, 1, 4}, {3, 3, 0.7, 5}} {
		z := clusteredSpread(t, cs.m, cs.k, cs.gap, cs.seed)
		k := cs.k
		plain, r := plainAndCutRuns(t, z, k)
		c := r.Certificate
		if c == nil || c.Form != CertSubsetRow || len(c.Cuts) == 0 || len(c.Cuts) != len(c.CutDuals) {
			t.Fatalf("%+v: certificate %+v, want form %s with cuts", cs, c, CertSubsetRow)
		}
		if r.BoundKind != BoundSubsetRow || math.Abs(c.Bound-r.LowerBound) > relTol(c.Bound, r.LowerBound) {
			t.Errorf("%+v: certified %.12g, run's bound %.12g (%s)", cs, c.Bound, r.LowerBound, r.BoundKind)
		}
		if !(c.Bound > plain.Certificate.Bound+1e-6) {
			t.Errorf("%+v: certified with cuts %.12g, without %.12g: the cuts do not raise it", cs, c.Bound, plain.Certificate.Bound)
		}
		if z.N <= 12 {
			if opt := bruteForce(model.NewSqDist(z), k); c.Bound > opt+relTol(opt, c.Bound) {
				t.Errorf("%+v: certified %.12g above the optimum %.12g", cs, c.Bound, opt)
			}
		}
		got, err := CheckCertificate(z, c)
		if err != nil {
			t.Fatalf("%+v: the run's certificate refused: %v", cs, err)
		}
		if got < c.Bound-relTol(got, c.Bound) {
			t.Errorf("%+v: recomputed %.12g below the stated %.12g", cs, got, c.Bound)
		}
		if viol, _ := cutCertOracle(t, z, c); viol > 1e-9 {
			t.Errorf("%+v: the oracle finds the run's certificate false by %.3g", cs, viol)
		}

		// JSON round trip.
		buf, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(buf, []byte(`"cuts":[[`)) || !bytes.Contains(buf, []byte(`"cut_duals":[`)) {
			t.Errorf("%+v: JSON without cuts: %.200s", cs, buf)
		}
		var back Certificate
		dec := json.NewDecoder(bytes.NewReader(buf))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, c) {
			t.Errorf("%+v: JSON round trip changed the certificate", cs)
		}
		if got2, err := CheckCertificate(z, &back); err != nil || got2 != got {
			t.Errorf("%+v: after the JSON round trip: %.12g, %v (before %.12g)", cs, got2, err, got)
		}

		// The most negative cut dual.
		i := 0
		for j, s := range c.CutDuals {
			if s < c.CutDuals[i] {
				i = j
			}
		}
		if !(c.CutDuals[i] < -1e-6) {
			t.Fatalf("%+v: no cut dual below 0 (%g)", cs, c.CutDuals[i])
		}

		// A positive cut dual, with the exact per-size minima of the
		// reduced costs under it and the bound they give: refused (the
		// bound needs σ ≤ 0; the sizes and the sum are consistent).
		bad := cloneCert(c)
		bad.CutDuals[i] = -bad.CutDuals[i]
		_, minRC := cutCertOracle(t, z, bad)
		for a := range bad.SizeBounds {
			bad.SizeBounds[a], bad.SizeProofs[a] = minRC[a], ProofEnumeration
		}
		bad.Bound = floatSum(bad.Duals) + floatSum(bad.CutDuals) + lagrangianTerm(z.N, k, bad.SizeBounds)
		if _, err := CheckCertificate(z, bad); !errors.Is(err, ErrCertificate) {
			t.Errorf("%+v: positive cut dual: %v", cs, err)
		} else {
			refused["positive cut dual"]++
		}

		// A cut moved: its third record replaced by the same position in
		// the next cluster (clusters are consecutive blocks of k+1
		// records), so the groups of the LP's cover that held it with
		// one more record of the cut lose the cut term.
		bad = cloneCert(c)
		s := bad.Cuts[i]
		s[2] = (s[2] + k + 1) % z.N
		bad.Cuts[i] = s
		if !slices.ContainsFunc(c.Cuts, func(u [3]int) bool { return sameSet(u, s) }) && s[0] != s[2] && s[1] != s[2] {
			if checkAgainstOracle(t, z, bad, "moved cut") {
				refused["moved cut"]++
			}
		}

		// A record dual raised by 1: the groups of the cover that hold
		// it price out.
		bad = cloneCert(c)
		bad.Duals[c.Cuts[i][0]]++
		bad.Bound++
		if checkAgainstOracle(t, z, bad, "raised dual") {
			refused["raised dual"]++
		}

		// A hand-made certificate under duals where groups price out
		// with the cut terms (λ + 0.5 on every record), with the exact
		// per-size minima of the oracle: accepted. The first size bound
		// raised halfway to 0: refused.
		hand := cloneCert(c)
		for v := range hand.Duals {
			hand.Duals[v] += 0.5
		}
		_, minRC = cutCertOracle(t, z, hand)
		for a := range hand.SizeBounds {
			hand.SizeBounds[a], hand.SizeProofs[a] = minRC[a], ProofEnumeration
		}
		hand.Bound = floatSum(hand.Duals) + floatSum(hand.CutDuals) + lagrangianTerm(z.N, k, hand.SizeBounds)
		if hand.SizeBounds[0] > -1e-3 {
			t.Fatalf("%+v: no group of %d records prices out under the raised duals (%g)", cs, k, hand.SizeBounds[0])
		}
		if checkAgainstOracle(t, z, hand, "hand-made exact certificate") {
			t.Errorf("%+v: the exact hand-made certificate was refused", cs)
		}
		bad = cloneCert(hand)
		bad.SizeBounds[0] /= 2
		if checkAgainstOracle(t, z, bad, "raised size bound") {
			refused["raised size bound"]++
		}
	}
	for _, what := range []string{"positive cut dual", "moved cut", "raised dual", "raised size bound"} {
		if refused[what] == 0 {
			t.Errorf("no %s refused: the test does not exercise it (%v)", what, refused)
		}
	}
	t.Logf("tampered certificates refused: %v", refused)
}

// sameSet: a and b hold the same records.
func sameSet(a, b [3]int) bool {
	slices.Sort(a[:])
	slices.Sort(b[:])
	return a == b
}

// TestCertificateSubsetRowInput: malformed cuts are bad input naming the
// cut; cuts in another form too.
func TestCertificateSubsetRowInput(t *testing.T) {
	z := clusteredSpread(t, 2, 3, 20, 1)
	r, err := Run(z, 3, &Options{NoICSM: true, NoClose: true, NoBranch: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Certificate == nil || r.Certificate.Form != CertSubsetRow || len(r.Certificate.Cuts) < 2 {
		t.Fatalf("certificate %+v: want form %s with two cuts or more", r.Certificate, CertSubsetRow)
	}
	last := len(r.Certificate.Cuts) - 1
	for _, tc := range []struct {
		name, want string
		edit       func(c *Certificate)
	}{
		{"record out of range", "cut 0", func(c *Certificate) { c.Cuts[0][1] = z.N }},
		{"negative record", "cut 0", func(c *Certificate) { c.Cuts[0][2] = -1 }},
		{"repeated record", "cut 0", func(c *Certificate) { c.Cuts[0][1] = c.Cuts[0][0] }},
		{"repeated cut", "repeat cut 0", func(c *Certificate) {
			c.Cuts[last] = [3]int{c.Cuts[0][2], c.Cuts[0][0], c.Cuts[0][1]}
		}},
		{"missing dual", "cut duals", func(c *Certificate) { c.CutDuals = c.CutDuals[1:] }},
		{"NaN dual", "cut 0", func(c *Certificate) { c.CutDuals[0] = math.NaN() }},
		{"cuts in another form", "cuts", func(c *Certificate) { c.Form = CertSizes }},
	} {
		c := cloneCert(r.Certificate)
		tc.edit(c)
		_, err := CheckCertificate(z, c)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (want ErrInput naming %q)", tc.name, err, tc.want)
		}
	}
}
