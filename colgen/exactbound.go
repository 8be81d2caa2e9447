package colgen

import (
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// exactShares is the per-record Lagrangian bound with exact shares. By
// default eval finds the shares by a branch and bound per record
// (evalAnchored, recordshares.go); with listing it lists the groups by
// complete enumeration, as follows. Every partition x into groups of k..2k−1 records
// has SSE(x) = Σ_v λ_v + Σ_v rc_{C(v)}/|C(v)| (recordBound), so with
// μ_v ≤ min(0, min_{C ∋ v} rc_C/|C|),
//
//	SSE* ≥ Σ_v (λ_v + μ_v).
//
// For each size η the enumeration (package native/enumerate) returns the
// maxGroups groups of smallest negative reduced cost. When it finishes
// with fewer, they are all the groups of negative reduced cost of that
// size; when it finishes with maxGroups, every other group of that size
// costs at least the last one's; when the deadline cuts it short, every
// group costs at least its LowerBound. So
//
//	μ_v = min( min over the groups C ∋ v found of rc_C/|C|,
//	           min_η floor_η/η ),
//
// floor_η = 0, the last group's reduced cost or LowerBound in these three
// cases, is a lower bound on v's share in any partition. When every size
// finishes with fewer than maxGroups groups this is exactly
// Σ_v (λ_v + min(0, min_{C∋v} rc_C/|C|)), the value of the dual-feasible
// point λ + μ of the master's dual; its maximum over λ is the LP bound.
//
// With g not nil it also stores a supergradient of that concave function
// (all sizes finished below maxGroups): g_u = 1 − Σ_{v : u ∈ C_v} 1/|C_v|,
// C_v the group attaining μ_v < 0 (none when μ_v = 0). It returns the
// bound, whether every size finished below maxGroups, and the groups
// found.
type exactShares struct {
	d         *model.SqDist
	prep      *enumerate.Prepared
	k         int
	workers   int
	maxGroups int
	share     []float64
	argmin    []int32 // index into groups, −1: the floor or 0
	groups    []model.Column
	// Nodes counts the enumeration's search nodes, Groups the groups found.
	Nodes int64
	// listing: prove the shares by listing every group of negative
	// reduced cost per size (complete enumeration, at most maxGroups per
	// size) instead of the branch and bound per record of
	// enumerate.Prepared.MinShares (evalAnchored); the reference of the
	// tests.
	listing bool
	// hints: the groups attaining the shares of the last exact
	// evalAnchored, evaluated first by the next.
	hints [][]int
	// partial: the last eval was cut short but filled g with an estimate
	// of a supergradient (evalAnchored).
	partial bool
	// scale: the ascent's step scaling (weights).
	scale []float64
	// The ascent's scaling phase (scaleStep): start duals, the factor of
	// the best bound so far, and whether the phase has ended.
	start       []float64
	factor, inc float64
	scaled      bool
	// gLast: the supergradient at the best factor (an exact evaluation);
	// gBest: handed to the ascent's first step after the phase.
	gLast, gBest []float64
	// beat (when hasBeat): the ascent's best bound; the branch and bound
	// per record is not run when its hints show that the bound at lambda
	// cannot beat it (enumerate.SharesOptions.Beat). abandoned: the last
	// eval was skipped so, estimate its upper estimate of the bound
	// (Shares.Estimate).
	hasBeat, abandoned bool
	beat, estimate     float64
}

// sharesSlack is the relative slack subtracted from exactShares' bound
// for the rounding of its sums (see eval).
const sharesSlack = 1e-11

// sharesSum returns Σ_v (λ_v + μ_v), the per-record bound at lambda with
// the shares mu, and Σ_v (|λ_v| + |μ_v|), the magnitude sharesSlack is
// taken of.
func sharesSum(lambda, mu []float64) (sum, mag float64) {
	for v, l := range lambda {
		sum += l + mu[v]
		mag += math.Abs(l) + math.Abs(mu[v])
	}
	return sum, mag
}

// exactSharesMax is the default maxGroups: beyond it the duals are far
// from optimal and the bound weak anyway.
const exactSharesMax = 20000

func newExactShares(d *model.SqDist, prep *enumerate.Prepared, k, workers int) *exactShares {
	return &exactShares{d: d, prep: prep, k: k, workers: workers, maxGroups: exactSharesMax,
		share: make([]float64, d.N), argmin: make([]int32, d.N)}
}

// eval returns the bound at lambda (−Inf when the deadline passed before
// any size was priced; a valid but weaker bound when it passed during the
// pricing), whether it is exact (every size finished below maxGroups), and
// fills g when not nil and exact.
func (e *exactShares) eval(lambda []float64, deadline time.Time, g []float64) (float64, bool) {
	if !e.listing {
		return e.evalAnchored(lambda, deadline, g)
	}
	n, k := e.d.N, e.k
	floor := 0.0
	exact := true
	e.groups = e.groups[:0]
	for eta := k; eta <= 2*k-1 && eta <= n; eta++ {
		res, err := e.prep.Solve(lambda, eta, &enumerate.Options{Workers: e.workers, MaxColumns: e.maxGroups, Threshold: 0, Deadline: deadline})
		if err != nil {
			return math.Inf(-1), false
		}
		e.Nodes += res.Nodes
		fe := float64(eta)
		switch {
		case !res.Complete:
			floor = min(floor, min(0, res.LowerBound)/fe)
			exact = false
		case len(res.Columns) >= e.maxGroups:
			floor = min(floor, min(0, res.Columns[len(res.Columns)-1].ReducedCost)/fe)
			exact = false
		}
		e.groups = append(e.groups, res.Columns...)
	}
	for v := range n {
		e.share[v], e.argmin[v] = floor, -1
	}
	for i, c := range e.groups {
		sh := c.ReducedCost / float64(len(c.Members))
		for _, v := range c.Members {
			if sh < e.share[v] {
				e.share[v], e.argmin[v] = sh, int32(i)
			}
		}
	}
	b, mag := sharesSum(lambda, e.share)
	// Rounding: the reduced costs and the sum carry errors of about
	// η·ε·|λ| per record; sharesSlack covers them a thousandfold.
	b -= sharesSlack * mag
	if g != nil && exact {
		for v := range n {
			g[v] = 1
		}
		for v := range n {
			if i := e.argmin[v]; i >= 0 {
				c := e.groups[i].Members
				w := 1 / float64(len(c))
				for _, u := range c {
					g[u] -= w
				}
			}
		}
	}
	return b, exact
}
