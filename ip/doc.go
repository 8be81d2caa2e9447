// Package ip builds integer-programming formulations of sdcopt's problems
// and solves them through the engine-neutral solvers package.
//
// # Sharp integer cell bounds given released marginals
//
// The tables with released margins n_M are the lattice points of the
// polytope Q of package lp (Dobra & Fienberg, Section 2):
//
//	x ∈ ℤ^I,  x ≥ 0,  Σ_{c : c_M = m} x_c = n_M(m)  for every M ∈ 𝓜 and cell m of M.
//
// The sharp integer bounds of cell c are min x_c and max x_c over these
// lattice points; they are what an intruder can actually infer, and they
// can be strictly tighter than the LP bounds (the paper's Table 3: LP 312.67,
// integer 312). CellBounds solves two integer programs per cell over the
// model of lp.CellBoundsProblem with integer columns, in one engine session
// whose objective alone changes between solves (engines whose MIP session
// re-loads the model, such as CBC's, still work, without warm start).
//
// The problem is NP-hard in general (Section 2), so this is the reference
// against which the native methods (generalized shuttle with correction,
// Fréchet bounds, reducible decomposition) are checked, and the fallback
// when a caller asks for an engine-proven answer.
//
// Each bound is the engine's optimal objective rounded to an integer; when
// the engine stops on a limit or with a gap, its dual bound rounded inward
// is used instead (valid but maybe not sharp; counted in lp.Stats.Unproven).
//
// # Errors
//
// Inconsistent margins and margins that admit no integer table return
// errors wrapping ErrInfeasible.
package ip
