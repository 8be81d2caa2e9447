package colgen

import (
	"errors"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// TestCertificates: every run's certificate is recomputed from the data
// alone (CheckCertificate) to at least its stated bound, which never
// exceeds the brute-force optimum nor the run's LowerBound; a certificate
// whose bound or size bound is raised is refused. The instances are
// those of TestBoundBelowBruteForce, run to convergence and cut short.
func TestCertificates(t *testing.T) {
	forms := map[string]int{}
	tampered := 0
	for seed := uint64(1); seed <= 50; seed++ {
		z, k := smallInstance(t, seed)
		if z.N < 2*k {
			continue
		}
		opt := bruteForce(model.NewSqDist(z), k)
		for _, o := range []Options{{MaxIterations: 1 + int(seed%3), NoClose: true, NoBranch: true, NoICSM: true, Ascent: true}, {NoICSM: true}} {
			r, err := Run(z, k, &o)
			if err != nil {
				t.Fatal(err)
			}
			c := r.Certificate
			if c == nil {
				t.Fatalf("seed %d: no certificate", seed)
			}
			forms[c.Form]++
			if c.Bound > r.LowerBound+relTol(c.Bound, r.LowerBound) && c.Bound > r.SSE+relTol(c.Bound, r.SSE) {
				t.Fatalf("seed %d: certified %.12g above the reported bound %.12g", seed, c.Bound, r.LowerBound)
			}
			if c.Bound > opt+relTol(opt, c.Bound) {
				t.Fatalf("seed %d: certified %.12g above the optimum %.12g", seed, c.Bound, opt)
			}
			got, err := CheckCertificate(z, c)
			if err != nil {
				t.Fatalf("seed %d (%s): %v", seed, c.Form, err)
			}
			if got > opt+relTol(opt, got) {
				t.Fatalf("seed %d: recomputed %.12g above the optimum %.12g", seed, got, opt)
			}
			// Raised bound: refused.
			bad := *c
			bad.Bound = got + 1e-3*max(1, got)
			if _, err := CheckCertificate(z, &bad); !errors.Is(err, ErrCertificate) {
				t.Fatalf("seed %d: raised bound accepted (%v)", seed, err)
			}
			// A size bound raised to 0 where some group has a negative
			// reduced cost: refused.
			for a, lb := range c.SizeBounds {
				if lb < -1e-6 {
					bad := *c
					bad.SizeBounds = slices.Clone(c.SizeBounds)
					bad.SizeBounds[a] = 0
					bad.SizeProofs = slices.Clone(c.SizeProofs)
					bad.SizeProofs[a] = ProofEnumeration
					// The true minimum may be 0 (the root bound was loose):
					// only a refusal or a valid recomputation are allowed.
					if _, err := CheckCertificate(z, &bad); err != nil && !errors.Is(err, ErrCertificate) {
						t.Fatalf("seed %d: %v", seed, err)
					} else if err != nil {
						tampered++
					}
					break
				}
			}
		}
	}
	if len(forms) < 2 {
		t.Fatalf("forms %v: the test exercises too little", forms)
	}
	t.Logf("certificate forms %v; %d tampered size bounds refused", forms, tampered)
}

// TestCertificateSizeBounds: a Lagrangian certificate built by hand from
// duals under which groups price out (three times the nearest-neighbour
// duals), with the exact minimum reduced cost per size, is accepted; the
// same certificate with a size bound raised to 0 is refused, and so is
// one whose root-bound proof claims more than the root bound.
func TestCertificateSizeBounds(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		z := randomData(t, 14, 2, 900+seed)
		k := 2 + int(seed%2)
		d := model.NewSqDist(z)
		prep, err := enumerate.Prepare(d, 2*k-1)
		if err != nil {
			t.Fatal(err)
		}
		lambda := nearestDuals(prep, d, k)
		for i := range lambda {
			lambda[i] *= 3
		}
		c := &Certificate{N: z.N, K: k, Form: CertSizes, Duals: lambda}
		for eta := k; eta <= 2*k-1; eta++ {
			res, err := prep.Solve(lambda, eta, &enumerate.Options{Threshold: 0})
			if err != nil {
				t.Fatal(err)
			}
			c.SizeBounds = append(c.SizeBounds, min(0, res.LowerBound))
			c.SizeProofs = append(c.SizeProofs, ProofEnumeration)
		}
		if c.SizeBounds[0] >= 0 {
			t.Fatalf("seed %d: no group prices out; the test exercises nothing", seed)
		}
		c.Bound = floatSum(lambda) + lagrangianTerm(z.N, k, c.SizeBounds)
		if _, err := CheckCertificate(z, c); err != nil {
			t.Fatalf("seed %d: exact certificate refused: %v", seed, err)
		}
		bad := *c
		bad.SizeBounds = slices.Clone(c.SizeBounds)
		bad.SizeBounds[0] = 0
		if _, err := CheckCertificate(z, &bad); !errors.Is(err, ErrCertificate) {
			t.Fatalf("seed %d: raised size bound accepted (%v)", seed, err)
		}
		bad.SizeBounds[0] = c.SizeBounds[0]
		bad.SizeProofs = slices.Clone(c.SizeProofs)
		bad.SizeProofs[0] = ProofRoot
		if root := min(0, prep.RootBound(lambda, k)); root < c.SizeBounds[0]-1e-9 {
			if _, err := CheckCertificate(z, &bad); !errors.Is(err, ErrCertificate) {
				t.Fatalf("seed %d: a root-bound proof of more than the root bound accepted (%v)", seed, err)
			}
		}
	}
}

// TestCertificateInput: a certificate for other data is bad input.
func TestCertificateInput(t *testing.T) {
	z := randomData(t, 12, 2, 3)
	r, err := Run(z, 3, &Options{NoICSM: true})
	if err != nil {
		t.Fatal(err)
	}
	c := *r.Certificate
	c.N = 13
	if _, err := CheckCertificate(z, &c); !errors.Is(err, ErrInput) {
		t.Fatalf("wrong n: %v", err)
	}
	c = *r.Certificate
	c.Duals = c.Duals[:5]
	if _, err := CheckCertificate(z, &c); !errors.Is(err, ErrInput) {
		t.Fatalf("short duals: %v", err)
	}
	c = *r.Certificate
	c.Form = "guess"
	if _, err := CheckCertificate(z, &c); !errors.Is(err, ErrInput) {
		t.Fatalf("unknown form: %v", err)
	}
}
