package colgen

import (
	"errors"
	"fmt"
	"math"
	"slices"
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
//   - CertSubsetRow: Σ_v λ_v + Σ_S σ_S + lagrangianTerm(n, k, SizeBounds),
//     the bound of the master with subset-row cuts (subsetRowPhase), with
//     the cuts (Cuts) and their duals σ ≤ 0 (CutDuals); SizeBounds bound
//     the reduced costs with the cut terms, rc_C = SSE(C) − Σ_{v∈C} λ_v −
//     Σ_S σ_S h_SC, where h_SC = 1 when |C ∩ S| ≥ 2 and 0 otherwise.
//
// Validity of CertSubsetRow: a partition x (x_C = 1 for its groups)
// satisfies Σ_C h_SC x_C ≤ 1 for every set S of three records, since its
// groups are disjoint and so at most one of them holds two records of S
// (Jepsen, Petersen, Spoorendonk & Pisinger, Operations Research 56(2),
// 2008). For any λ and σ ≤ 0 its SSE is then
//
//	Σ_C SSE(C) x_C ≥ Σ_C SSE(C) x_C + Σ_S σ_S (1 − Σ_C h_SC x_C)
//	             = Σ_v λ_v + Σ_S σ_S + Σ_C rc_C x_C
//
// (each record lies in one group), and a partition into groups of k..2k-1
// records has at most n/k groups, so lagrangianTerm of per-size lower
// bounds (≤ 0) on rc_C bounds the last sum from below. A size bound of
// proof ProofRoot is enumerate's root bound under λ alone, which never
// exceeds rc_C as every −σ_S h_SC ≥ 0; the others are re-proven by
// complete enumeration of the reduced cost with the cut terms, which
// prunes partial groups on their reduced cost under λ plus the cut terms
// they already hit (cutMinReducedCost, the enumeration of the run's own
// pricing bound).
//
// Bounds of the gap-closing integer program and of branch-and-price are
// not certified: Result.Certificate then holds the best certified bound,
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
	// Cuts (forms CertSubsetRow and CertRegion only) are the subset-row
	// cuts S, each three distinct records given by their 0-based position
	// in the data (row order of the data file, first record 0), in any
	// order within the triple; no two cuts are the same set; in form
	// CertRegion all three records lie in the region. CutDuals[i] ≤ 0 is
	// the dual σ of Cuts[i].
	Cuts     [][3]int  `json:"cuts,omitempty"`
	CutDuals []float64 `json:"cut_duals,omitempty"`
	// Region (form CertRegion only) is the region R of the region bound,
	// its records by 0-based position in the data, ascending;
	// RegionDuals[i] ≥ 0 is the dual y of Region[i] in the LP relaxation
	// of the packing program.
	Region      []int     `json:"region,omitempty"`
	RegionDuals []float64 `json:"region_duals,omitempty"`
}

// Certificate forms and size proofs.
const (
	CertNearest = "nearest_neighbour"
	CertRecords = "per_record"
	CertSizes   = "lagrangian"
	CertShares  = "exact_shares"
	// CertSubsetRow is the bound with subset-row cuts.
	CertSubsetRow = "subset_row_lagrangian"
	// CertRegion is the region bound (region.go) with the packing
	// program relaxed to its LP with subset-row cuts: Σ_v (λ_v + μ'_v) −
	// Σ_{v∈R} y_v + Σ_S σ_S + ⌊|R|/k⌋·min(0, the smallest reduced cost
	// of a group inside R at λ + μ' − y with the cut terms), μ' the
	// shares over the groups crossing R (regionLPBound); the check
	// recomputes μ' by the branch and bound per record and the minimum by
	// complete enumeration on R with the cut terms.
	CertRegion = "region_lp"

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
// long at large sizes), with the cut terms in form CertSubsetRow. It
// returns the recomputed bound; an error wraps ErrCertificate when it
// falls short of c.Bound (relative 1e-9), a size bound is not proven or a
// cut dual is positive (the bound then does not hold), and ErrInput when
// c does not fit z or is malformed (a cut outside the records, with a
// repeated record or repeating another cut, naming the cut's index; cuts
// in another form; a NaN or infinite value).
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
	src, err := certCuts(c, n)
	if err != nil {
		return 0, err
	}
	if c.Form != CertRegion && (len(c.Region) > 0 || len(c.RegionDuals) > 0) {
		return 0, fmt.Errorf("%w: form %s has a region (only %s has one)", ErrInput, c.Form, CertRegion)
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
				// Under λ alone: never above the reduced cost with cut terms.
				got = prep.RootBound(c.Duals, eta)
			case ProofEnumeration, ProofILP:
				if src != nil {
					got, _, err = cutMinReducedCost(prep, src, c.Duals, c.CutDuals, eta, 0, time.Time{})
					if err != nil {
						return 0, err
					}
					break
				}
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
	case CertRegion:
		if b, err = checkRegion(d, prep, k, c, src); err != nil {
			return 0, err
		}
	case CertSizes, CertSubsetRow:
		if c.SizeBounds == nil {
			return 0, fmt.Errorf("%w: form %s needs size bounds", ErrInput, c.Form)
		}
		b = floatSum(c.Duals) + floatSum(c.CutDuals) + lagrangianTerm(n, k, c.SizeBounds)
	default:
		return 0, fmt.Errorf("%w: unknown certificate form %q", ErrInput, c.Form)
	}
	if b < c.Bound-certTol*math.Max(1, math.Abs(c.Bound)) {
		return b, fmt.Errorf("%w: stated %.12g, recomputed %.12g (%s)", ErrCertificate, c.Bound, b, c.Form)
	}
	return b, nil
}

// checkRegion recomputes the bound of a CertRegion certificate: it checks
// the region (records distinct, ascending, in range), its duals (finite,
// ≥ 0) and that its cuts (src, checked by certCuts) lie in the region,
// recomputes the shares over the groups crossing the region and then
// regionLPBound.
func checkRegion(d *model.SqDist, prep *enumerate.Prepared, k int, c *Certificate, src *srcPool) (float64, error) {
	n := d.N
	if len(c.RegionDuals) != len(c.Region) || len(c.Region) == 0 {
		return 0, fmt.Errorf("%w: form %s: %d region records and %d region duals", ErrInput, c.Form, len(c.Region), len(c.RegionDuals))
	}
	for i, v := range c.Region {
		if v < 0 || v >= n || (i > 0 && v <= c.Region[i-1]) {
			return 0, fmt.Errorf("%w: region record %d (%d): not ascending, repeated or outside 0..%d", ErrInput, i, v, n-1)
		}
		if y := c.RegionDuals[i]; math.IsNaN(y) || math.IsInf(y, 0) {
			return 0, fmt.Errorf("%w: region dual %d is %g", ErrInput, i, y)
		} else if y < 0 {
			return 0, fmt.Errorf("%w: region dual %d is %g < 0", ErrCertificate, i, y)
		}
	}
	// The cuts (checked by certCuts) renumbered within the region.
	at := make(map[int]int, len(c.Region))
	for a, v := range c.Region {
		at[v] = a
	}
	pool := newSRCPool()
	var cuts [][3]int
	if src != nil {
		cuts = src.cuts
	}
	for i, s := range cuts {
		var t [3]int
		for j, v := range s {
			a, ok := at[v]
			if !ok {
				return 0, fmt.Errorf("%w: cut %d: record %d not in the region", ErrInput, i, v)
			}
			t[j] = a
		}
		pool.add(t) // ascending: the region is
	}
	sh, err := crossingShares(prep, k, c.Duals, c.Region, &enumerate.SharesOptions{})
	if err != nil {
		return 0, err
	}
	sp, err := regionPrepared(d, k, c.Region)
	if err != nil {
		return 0, err
	}
	b, _ := regionLPBound(sp, k, c.Duals, sh.Share, c.Region, c.RegionDuals, pool, c.CutDuals, 0, time.Time{})
	return b, nil
}

// certCuts checks the cuts of c and returns them as a pool, index i the
// cut Cuts[i] (its records sorted), for forms CertSubsetRow and
// CertRegion; nil for the other forms, which must have no cuts.
func certCuts(c *Certificate, n int) (*srcPool, error) {
	if c.Form != CertSubsetRow && c.Form != CertRegion {
		if len(c.Cuts) > 0 || len(c.CutDuals) > 0 {
			return nil, fmt.Errorf("%w: form %s has %d cuts and %d cut duals (only %s and %s have cuts)", ErrInput, c.Form, len(c.Cuts), len(c.CutDuals), CertSubsetRow, CertRegion)
		}
		return nil, nil
	}
	if len(c.CutDuals) != len(c.Cuts) {
		return nil, fmt.Errorf("%w: %d cuts and %d cut duals", ErrInput, len(c.Cuts), len(c.CutDuals))
	}
	src := newSRCPool()
	first := map[[3]int]int{}
	for i, s := range c.Cuts {
		for _, v := range s {
			if v < 0 || v >= n {
				return nil, fmt.Errorf("%w: cut %d: record %d outside 0..%d", ErrInput, i, v, n-1)
			}
		}
		slices.Sort(s[:])
		if s[0] == s[1] || s[1] == s[2] {
			return nil, fmt.Errorf("%w: cut %d: records %v not distinct", ErrInput, i, c.Cuts[i])
		}
		if j, ok := first[s]; ok {
			return nil, fmt.Errorf("%w: cut %d: records %v repeat cut %d", ErrInput, i, c.Cuts[i], j)
		}
		first[s] = i
		src.add(s)
		switch sg := c.CutDuals[i]; {
		case math.IsNaN(sg) || math.IsInf(sg, 0):
			return nil, fmt.Errorf("%w: cut %d: dual %g", ErrInput, i, sg)
		case sg > 0:
			return nil, fmt.Errorf("%w: cut %d: dual %g > 0 (a subset-row cut's dual must be ≤ 0)", ErrCertificate, i, sg)
		}
	}
	return src, nil
}

// certify keeps a certificate of bound b when it beats the certified one
// and returns it (nil when not kept). lambda and lb are copied.
func (r *run) certify(b float64, form string, lambda, lb []float64, proofs []string) *Certificate {
	if math.IsInf(b, -1) || math.IsNaN(b) || (r.res.Certificate != nil && b <= r.res.Certificate.Bound) {
		return nil
	}
	c := &Certificate{N: r.n, K: r.k, Form: form, Bound: b, Seconds: r.plan.clock().Sub(r.plan.start).Seconds(),
		Duals: append([]float64(nil), lambda...)}
	if lb != nil {
		c.SizeBounds = append([]float64(nil), lb...)
		c.SizeProofs = append([]string(nil), proofs...)
	}
	r.res.Certificate = c
	return c
}

// certifyCuts is certify for a bound of the master with subset-row cuts
// (form CertSubsetRow): b = Σλ + Σσ + lagrangianTerm(lb), sigma the duals
// of the first len(sigma) cuts of the pool (those added later count as
// 0 in the reduced costs and are left out). sigma is copied.
func (r *run) certifyCuts(b float64, lambda, sigma, lb []float64, proofs []string) {
	if c := r.certify(b, CertSubsetRow, lambda, lb, proofs); c != nil {
		c.Cuts = slices.Clone(r.src.cuts[:len(sigma)])
		c.CutDuals = slices.Clone(sigma)
	}
}
