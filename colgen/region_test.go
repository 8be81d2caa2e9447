package colgen

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// TestRegionBound: on the seeded instances of 11..16 records (seeds
// 1..50, k = 2..4), at the nearest-neighbour duals scaled by 1, 1.3 and
// 1.8 (from no negative share to many), with regions of half and all of
// the records chosen from the MDAV clustering, the region bound is never
// above the optimum by brute force and never below the per-record bound
// at the same duals; in some cases it is strictly above (the packing
// program saw integrality that the shares do not). The certificate of
// its LP relaxation (CertRegion) is never above it, CheckCertificate
// recomputes it, and a raised bound, a negative dual or a region out of
// order are refused.
func TestRegionBound(t *testing.T) {
	eng := pickEngine("", "cbc", "lpsolve", "highs")
	if _, _, err := solvers.Lookup(eng); err != nil {
		t.Skip("no MIP engine:", err)
	}
	above, ran, certs, certAbove := 0, 0, 0, 0
	for seed := uint64(1); seed <= 50; seed++ {
		if testing.Short() && seed%5 != 0 {
			continue
		}
		z, d, prep, n, k, ok := seededInstance(t, seed, 11, 6, 300)
		if !ok {
			continue
		}
		opt := bruteForce(d, k)
		mdav, err := microagg.MDAV(z, k)
		if err != nil {
			t.Fatal(err)
		}
		groups := make([][]int, mdav.NumGroups)
		for v, g := range mdav.Group {
			groups[g] = append(groups[g], v)
		}
		base := nearestDuals(prep, d, k)
		for _, scale := range []float64{1, 1.3, 1.8} {
			lambda := make([]float64, n)
			for v := range lambda {
				lambda[v] = scale * base[v]
			}
			sh, err := prep.MinShares(lambda, k, 2*k-1, &enumerate.SharesOptions{Workers: 2})
			if err != nil || !sh.Exact {
				t.Fatal(err)
			}
			shares := 0.0
			for v := range n {
				shares += lambda[v] + sh.Share[v]
			}
			for _, size := range []int{n / 2, n} {
				out := regionBound(d, prep, k, lambda, nil, groups, size, 2, eng, time.Time{})
				if math.IsInf(out.bound, -1) {
					if out.records >= k {
						t.Fatalf("seed %d scale %g size %d: no bound (%s)", seed, scale, size, out.status)
					}
					continue
				}
				ran++
				tol := 1e-7 * math.Max(1, opt)
				if out.bound > opt+tol {
					t.Fatalf("seed %d (n %d, k %d) scale %g region %d: bound %.12g above the optimum %.12g (%s)", seed, n, k, scale, out.records, out.bound, opt, out.status)
				}
				if out.bound < shares-tol {
					t.Fatalf("seed %d scale %g region %d: bound %.12g below the per-record bound %.12g", seed, scale, out.records, out.bound, shares)
				}
				if out.bound > shares+tol {
					above++
				}
				if math.IsInf(out.certBound, -1) {
					t.Fatalf("seed %d scale %g region %d: no certificate", seed, scale, out.records)
				}
				if out.certBound > out.bound+tol {
					t.Fatalf("seed %d scale %g region %d: the LP relaxation's bound %.12g above the program's %.12g", seed, scale, out.records, out.certBound, out.bound)
				}
				c := &Certificate{N: n, K: k, Form: CertRegion, Bound: out.certBound, Duals: lambda, Region: out.region, RegionDuals: out.y}
				got, err := CheckCertificate(z, c)
				if err != nil {
					t.Fatalf("seed %d scale %g region %d: %v", seed, scale, out.records, err)
				}
				if got > opt+tol {
					t.Fatalf("seed %d: the certificate recomputes %.12g, above the optimum %.12g", seed, got, opt)
				}
				if certs++; certs%7 == 0 {
					// A stated bound above what the certificate proves, a
					// negative dual and a region out of order are refused.
					bad := *c
					bad.Bound = got + 1e-3*math.Max(1, math.Abs(got))
					if _, err := CheckCertificate(z, &bad); !errors.Is(err, ErrCertificate) {
						t.Fatalf("seed %d: raised bound: %v", seed, err)
					}
					bad = *c
					bad.RegionDuals = slices.Clone(c.RegionDuals)
					bad.RegionDuals[0] = -1
					if _, err := CheckCertificate(z, &bad); !errors.Is(err, ErrCertificate) {
						t.Fatalf("seed %d: negative dual: %v", seed, err)
					}
					if len(c.Region) > 1 {
						bad = *c
						bad.Region = slices.Clone(c.Region)
						bad.Region[0], bad.Region[1] = bad.Region[1], bad.Region[0]
						if _, err := CheckCertificate(z, &bad); !errors.Is(err, ErrInput) {
							t.Fatalf("seed %d: region out of order: %v", seed, err)
						}
					}
				}
				if out.certBound > shares+tol {
					certAbove++
				}
			}
		}
	}
	if ran == 0 || above == 0 || certAbove == 0 {
		t.Fatalf("%d bounds, %d above the per-record bound (%d certified): the test checks nothing", ran, above, certAbove)
	}
	t.Logf("%d region bounds, %d above the per-record bound, %d of them certified above it", ran, above, certAbove)
}
