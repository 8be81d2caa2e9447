package colgen

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// Certificate is a checkable statement of a run's best Lagrangian lower
// bound: the duals λ (one per record) and, per group size, a lower bound
// on the smallest reduced cost with the way it was proven. Anyone can
// recompute the bound from the data and the certificate alone, without
// an LP engine (CheckCertificate): the duals need not be optimal for any
// LP, since every form below is a lower bound for any λ.
//
// Forms:
//   - CertNearest: the nearest-neighbour bound (nearestBound); Duals are
//     its per-record terms.
//   - CertRecords: the per-record bound (recordBound) at Duals, with
//     SizeBounds when the run had them (nil: none).
//   - CertSizes: Σ_v λ_v + lagrangianTerm(n, k, SizeBounds), the
//     Lagrangian bound of column generation.
//   - CertShares: the per-record bound with exact shares (exactShares)
//     at Duals; the check recomputes every record's smallest share by the
//     branch and bound per record (enumerate.Prepared.MinShares).
//
// Bounds of the master with subset-row cuts (Options.SubsetRowCuts), of
// the gap-closing integer program and of branch-and-price are not
// certified: Result.Certificate then holds the best certified bound,
// below Result.LowerBound.
type Certificate struct {
	N     int     `json:"n"`
	K     int     `json:"k"`
	Form  string  `json:"form"`
	Bound float64 `json:"bound"`
	// Seconds is when the run proved it.
	Seconds float64   `json:"seconds"`
	Duals   []float64 `json:"duals"`
	// SizeBounds[η−k] bounds the reduced cost of every group of η
	// records under Duals from below (≤ 0); SizeProofs[η−k] says how:
	// ProofRoot (enumerate's root bound, a closed form), ProofEnumeration
	// (a finished complete enumeration) or ProofILP (the pricing ILP
	// solved to optimality; CheckCertificate re-proves it by
	// enumeration).
	SizeBounds []float64 `json:"size_bounds,omitempty"`
	SizeProofs []string  `json:"size_proofs,omitempty"`
}

// Certificate forms and size proofs.
const (
	CertNearest = "nearest_neighbour"
	CertRecords = "per_record"
	CertSizes   = "lagrangian"
	CertShares  = "exact_shares"

	ProofRoot        = "root_bound"
	ProofEnumeration = "enumeration"
	ProofILP         = "pricing_ilp"
)

// ErrCertificate is wrapped by CheckCertificate when a certificate does
// not prove its bound.
var ErrCertificate = errors.New("colgen: certificate does not prove its bound")

// certTol is the relative slack of CheckCertificate: the recomputed
// bound may fall short of the stated one by this much (floating-point
// sums over n records in another order).
const certTol = 1e-9

// CheckCertificate recomputes the bound of c from the standardized
// records z, with no LP engine: the closed forms directly, each size
// bound of proof ProofRoot by enumerate's root bound, and each of proof
// ProofEnumeration or ProofILP by complete enumeration (which can take
// long at large sizes). It returns the recomputed bound; an error wraps
// ErrCertificate when it falls short of c.Bound (relative 1e-9) or a
// size bound is not proven, and ErrInput when c does not fit z.
func CheckCertificate(z *model.Dataset, c *Certificate) (float64, error) {
	n, k := z.N, c.K
	switch {
	case c.N != n:
		return 0, fmt.Errorf("%w: certificate for %d records, data has %d", ErrInput, c.N, n)
	case k < 2 || n < 2*k:
		return 0, fmt.Errorf("%w: certificate k = %d for %d records", ErrInput, k, n)
	case len(c.Duals) != n:
		return 0, fmt.Errorf("%w: %d duals for %d records", ErrInput, len(c.Duals), n)
	case c.SizeBounds != nil && (len(c.SizeBounds) != k || len(c.SizeProofs) != k):
		return 0, fmt.Errorf("%w: %d size bounds and %d proofs, want %d (sizes %d..%d)", ErrInput, len(c.SizeBounds), len(c.SizeProofs), k, k, 2*k-1)
	}
	for v, x := range c.Duals {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%w: dual %d is %g", ErrInput, v, x)
		}
	}
	d := model.NewSqDist(z)
	prep, err := enumerate.Prepare(d, 2*k-1)
	if err != nil {
		return 0, err
	}
	if c.SizeBounds != nil {
		for a, lb := range c.SizeBounds {
			eta := k + a
			if lb > 0 || math.IsNaN(lb) {
				return 0, fmt.Errorf("%w: size %d bound %g (must be ≤ 0)", ErrCertificate, eta, lb)
			}
			var got float64
			switch c.SizeProofs[a] {
			case ProofRoot:
				got = prep.RootBound(c.Duals, eta)
			case ProofEnumeration, ProofILP:
				res, err := prep.Solve(c.Duals, eta, &enumerate.Options{Threshold: 0})
				if err != nil {
					return 0, err
				}
				got = res.LowerBound
			default:
				return 0, fmt.Errorf("%w: size %d: unknown proof %q", ErrInput, eta, c.SizeProofs[a])
			}
			if got < lb-certTol*math.Max(1, math.Abs(lb)) {
				return 0, fmt.Errorf("%w: size %d: stated bound %.12g, %s gives %.12g", ErrCertificate, eta, lb, c.SizeProofs[a], got)
			}
		}
	}
	var b float64
	switch c.Form {
	case CertNearest:
		b = nearestBound(prep, d, k)
	case CertRecords:
		b = recordBound(d, prep, c.Duals, c.SizeBounds, k, 0, time.Time{})
	case CertShares:
		b, _ = newExactShares(d, prep, k, 0).eval(c.Duals, time.Time{}, nil)
	case CertSizes:
		if c.SizeBounds == nil {
			return 0, fmt.Errorf("%w: form %s needs size bounds", ErrInput, c.Form)
		}
		b = floatSum(c.Duals) + lagrangianTerm(n, k, c.SizeBounds)
	default:
		return 0, fmt.Errorf("%w: unknown certificate form %q", ErrInput, c.Form)
	}
	if b < c.Bound-certTol*math.Max(1, math.Abs(c.Bound)) {
		return b, fmt.Errorf("%w: stated %.12g, recomputed %.12g (%s)", ErrCertificate, c.Bound, b, c.Form)
	}
	return b, nil
}

// certify keeps a certificate of bound b when it beats the certified one.
// lambda and lb are copied.
func (r *run) certify(b float64, form string, lambda, lb []float64, proofs []string) {
	if math.IsInf(b, -1) || math.IsNaN(b) || (r.res.Certificate != nil && b <= r.res.Certificate.Bound) {
		return
	}
	c := &Certificate{N: r.n, K: r.k, Form: form, Bound: b, Seconds: r.plan.clock().Sub(r.plan.start).Seconds(),
		Duals: append([]float64(nil), lambda...)}
	if lb != nil {
		c.SizeBounds = append([]float64(nil), lb...)
		c.SizeProofs = append([]string(nil), proofs...)
	}
	r.res.Certificate = c
}
