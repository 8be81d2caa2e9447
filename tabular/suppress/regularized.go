package suppress

import (
	"errors"
	"math"

	"github.com/sdcopt/sdcopt/solvers"
)

// Regularized separation.
//
// A capacity constraint is valid for any multipliers γ (see the package
// documentation), and at a pattern y* every optimal dual γ of the
// attacker LP gives the same left side Σ k_j y*_j. The choice among them
// still matters: a column with y*_j = 0 has bounds [0, 0], so its reduced
// cost r_j is anything the engine's basis makes it, and with a capacity
// M far above the levels any r_j > 0 gives a coefficient min(k_j/ρ, 1) = 1.
// A basic dual of the exact LP thus puts hundreds of cells into each cut
// (on the synth preset "3way-5000", freq:3, after three LP rounds: 6,925
// cuts over 3,056 variables with 3.4 million coefficients, 98 % of them
// equal to 1), which makes the cuts weak (a cover Σ_S y_j ≥ 1 over a
// large S) and the master MIP too large to presolve.
//
// The regularized attacker LP widens every column's bounds by δ each
// way. Its dual objective is the exact one plus δ·Σ_j |r_j|, so among
// the (nearly) optimal γ it picks one with few non-zero reduced costs
// (an L1 penalty), and the cut read from it has a small support. The
// exact attacker LP still decides whether a target is reached; the
// regularized one is solved only at master MIP solutions, for up to
// Schedule.RegularizedPerMIP targets found unreached whose exact cut has
// more than mipCutVars variables (default none), and its cut replaces
// the exact one when it is violated at y* as well and has fewer
// variables. It is not used in the LP rounds:
// with every column free to move it is slower than the attacker LP of
// the first incumbent, about 20 times slower than at a sparse y* (on
// "3way-5000": 250 targets in 44 s against about 2 s), with CLP and
// HiGHS alike.

// separationDelta is δ of the regularized attacker LP relative to the
// smallest protection level: small enough that the widened LP's optimum
// stays below the level where the exact one is well below it, large
// enough to dominate the engines' dual tolerances (1e-7).
const separationDelta = 1e-3

// violationTol: a cut is violated at y* when its left side is below
// 1 − violationTol.
const violationTol = 1e-6

// newRegularized opens the regularized attacker LP of m.
func newRegularized(m *model, sv solvers.Solver, prm *solvers.Params) (*attacker, error) {
	minLevel := math.Inf(1)
	for _, t := range m.targets {
		minLevel = math.Min(minLevel, t.level)
	}
	if math.IsInf(minLevel, 1) {
		minLevel = 1
	}
	a := &attacker{m: m, sv: sv, prm: prm, objCol: -1, delta: separationDelta * minLevel}
	if err := a.open(); err != nil {
		return nil, err
	}
	return a, nil
}

// sparser returns the cut of target t read from the regularized attacker
// LP at cy (per column; set in reg when *set is false) when it is violated
// at y (per master variable) and has fewer variables than exact (ok
// false: none); otherwise exact.
func sparser(reg *attacker, set *bool, cy, y []float64, t target, exact cut, ok bool) (cut, bool, error) {
	if !*set {
		if err := reg.setY(cy); err != nil {
			return exact, ok, err
		}
		*set = true
	}
	o, err := reg.solve(t)
	if errors.Is(err, ErrNotSolved) {
		return exact, ok, nil // the exact cut is as valid
	}
	if err != nil {
		return exact, ok, err
	}
	c, rok, _ := reg.cutOf(t, o.res)
	if rok && c.lhs(y) < 1-violationTol && (!ok || len(c.vars) < len(exact.vars)) {
		return c, true, nil
	}
	return exact, ok, nil
}
