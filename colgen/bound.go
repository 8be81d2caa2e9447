package colgen

import "math"

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
