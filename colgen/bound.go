package colgen

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// lagrangianTerm returns a lower bound on Σ_C rc_C x_C over the
// partitions x of n records into groups of sizes k..2k-1, given lower
// bounds lb[eta-k] ≤ 0 on the reduced cost of any group of size eta.
//
// With duals λ of the restricted master (value z = Σ_v λ_v), every
// partition x has SSE(x) = Σ_C w_C x_C = z + Σ_C rc_C x_C, so
// z + lagrangianTerm(...) is a lower bound on the optimal SSE (the
// Lagrangian bound of column generation). Grouping the partition's groups
// by size, with y_eta groups of size eta: Σ_eta eta·y_eta = n and
// Σ_eta y_eta ≤ ⌊n/k⌋, so the term is at least the minimum of
// Σ_eta lb_eta·y_eta over that polytope, whose optimum lies at a vertex
// with at most two positive y: one size alone (y = n/eta when that does
// not exceed ⌊n/k⌋) or two sizes with Σ y = ⌊n/k⌋.
func lagrangianTerm(n, k int, lb []float64) float64 {
	f := float64(n / k)
	best := math.Inf(1)
	for a := range lb {
		ea := float64(k + a)
		if y := float64(n) / ea; y <= f+1e-12 {
			best = min(best, lb[a]*y)
		}
		for b := a + 1; b < len(lb); b++ {
			eb := float64(k + b)
			// ea·ya + eb·yb = n, ya + yb = f.
			yb := (float64(n) - ea*f) / (eb - ea)
			ya := f - yb
			if ya >= -1e-12 && yb >= -1e-12 {
				best = min(best, lb[a]*max(ya, 0)+lb[b]*max(yb, 0))
			}
		}
	}
	if math.IsInf(best, 1) {
		// No vertex (cannot happen for n ≥ k); fall back to the weakest
		// form, every record in a group of the worst ratio.
		best = 0
		for a := range lb {
			best = min(best, float64(n)*lb[a]/float64(k+a))
		}
	}
	return min(best, 0)
}

// nearestBound is the combinatorial lower bound available before any
// master solve. A group C of η records has SSE
// Σ_{i<j∈C} c_ij/η = Σ_{v∈C} (1/(2η)) Σ_{u∈C∖v} c_vu, and each inner sum is
// at least s_v(η−1), the sum of the η−1 smallest distances from v to the
// other records. Some optimal partition has groups of k..2k-1 records only
// (splitting never raises the SSE), so
//
//	SSE* ≥ Σ_v min_{k ≤ η ≤ 2k−1} s_v(η−1)/(2η).
//
// These per-record terms are dual feasible for the master (every group's
// reduced cost under them is ≥ 0), so the bound is also the Lagrangian
// bound of those duals. When n < 2k the only partition is one group and
// its SSE is returned.
func nearestBound(prep *enumerate.Prepared, d *model.SqDist, k int) float64 {
	n := d.N
	if n < 2*k {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return d.GroupCost(all)
	}
	s := 0.0
	for v := 0; v < n; v++ {
		best := math.Inf(1)
		for eta := k; eta <= 2*k-1; eta++ {
			best = min(best, prep.NearestSum(v, eta-1)/(2*float64(eta)))
		}
		s += best
	}
	return s
}

// recordBound returns a Lagrangian bound that needs no finished pricing:
// Σ_v λ_v + Σ_v min_{k ≤ η ≤ 2k−1} ρ_η(v)/η, with ρ_η(v) a lower bound on
// the reduced cost of every group of η records that holds v. Every
// partition x has Σ_C rc_C·x_C = Σ_v rc_{C(v)}/|C(v)| (each group's
// reduced cost shared equally by its members), so the bound holds for the
// optimal partition (groups of k..2k−1). For a group C ∋ v of size η,
//
//	rc_C = −λ_v + Σ_{u∈C∖v} (c_vu/η − λ_u) + Σ_{u<w ∈ C∖v} c_uw/η
//	     ≥ −λ_v + Σ_{u∈C∖v} a_u,   a_u = c_vu/η + s_u(η−2)/(2η) − λ_u,
//
// because the pairs among C∖v sum to half of Σ_{u∈C∖v} Σ_{w∈C∖v∖u} c_uw
// and u's inner sum is at least s_u(η−2), the sum of its η−2 smallest
// distances. So ρ_η(v) = −λ_v + (the η−1 smallest a_u), raised to lb[η−k]
// where lb bounds every group's reduced cost of that size. It costs
// O(n²·k); it returns −Inf when the deadline passes first.
func recordBound(d *model.SqDist, prep *enumerate.Prepared, lambda, lb []float64, k, workers int, deadline time.Time) float64 {
	n := d.N
	if n < 2*k {
		return math.Inf(-1)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	share := make([]float64, n) // min_η ρ_η(v)/η
	var next atomic.Int64
	var late atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			small := make([]float64, 0, 2*k)
			for {
				v := int(next.Add(1) - 1)
				if v >= n || late.Load() {
					return
				}
				if v%64 == 0 && !deadline.IsZero() && time.Now().After(deadline) {
					late.Store(true)
					return
				}
				row := d.D[v*n : (v+1)*n]
				best := math.Inf(1)
				for eta := k; eta <= 2*k-1; eta++ {
					fe := float64(eta)
					small = small[:0]
					for u, c := range row {
						if u == v {
							continue
						}
						a := c/fe + prep.NearestSum(u, eta-2)/(2*fe) - lambda[u]
						if len(small) < eta-1 {
							small = append(small, a)
							if len(small) == eta-1 {
								slices.Sort(small)
							}
							continue
						}
						if a < small[eta-2] {
							i, _ := slices.BinarySearch(small, a)
							copy(small[i+1:], small[i:eta-2])
							small[i] = a
						}
					}
					rho := -lambda[v]
					for _, a := range small {
						rho += a
					}
					if lb != nil {
						rho = max(rho, lb[eta-k])
					}
					best = min(best, rho/fe)
				}
				share[v] = best
			}
		}()
	}
	wg.Wait()
	if late.Load() {
		return math.Inf(-1)
	}
	s := 0.0
	for v := range n {
		s += lambda[v] + share[v]
	}
	return s
}
