package colgen

import (
	"math"
	"time"

	"github.com/sdcopt/sdcopt/native/enumerate"
)

// evalAnchored is exactShares.eval by a branch and bound per record
// (enumerate.Prepared.MinShares): it finds each record's smallest share
// μ_v = min(0, min_{C∋v} rc_C/|C|) over the groups of k..2k−1 records
// without listing the groups of negative reduced cost, so it has no cap
// and is exact whenever it finishes before the deadline; cut short, each
// record keeps a lower bound on μ_v (the open part of its search), so the
// bound Σ_v (λ_v + μ_v) stays valid. The supergradient (g not nil and
// exact) is eval's, from the groups attaining the μ_v.
func (e *exactShares) evalAnchored(lambda []float64, deadline time.Time, g []float64) (float64, bool) {
	n, k := e.d.N, e.k
	res, err := e.prep.MinShares(lambda, k, min(2*k-1, n), &enumerate.SharesOptions{Workers: e.workers, Deadline: deadline, Hints: e.hints})
	if err != nil {
		return math.Inf(-1), false
	}
	if res.Exact {
		// The groups attaining the shares seed the next call (the
		// ascent's next duals are close): most records then start with
		// their final share as cutoff.
		e.hints = e.hints[:0]
		seen := make(map[*int]bool)
		for _, c := range res.Group {
			if c != nil && !seen[&c[0]] {
				seen[&c[0]] = true
				e.hints = append(e.hints, c)
			}
		}
	}
	e.Nodes += res.Nodes
	copy(e.share, res.Share)
	b, mag := 0.0, 0.0
	for v := range n {
		b += lambda[v] + e.share[v]
		mag += math.Abs(lambda[v]) + math.Abs(e.share[v])
	}
	b -= sharesSlack * mag
	if g != nil && res.Exact {
		for v := range n {
			g[v] = 1
		}
		for v := range n {
			if c := res.Group[v]; c != nil {
				w := 1 / float64(len(c))
				for _, u := range c {
					g[u] -= w
				}
			}
		}
	}
	return b, res.Exact
}
