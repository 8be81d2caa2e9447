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
// errors wrapping ErrInfeasible (lp.ErrNoIntegerTable); the limits and the
// other errors are those of lp.Solve, which CellBounds runs with integer
// columns:
//
//	s, _ := solvers.New("auto", true) // HiGHS
//	b, err := ip.CellBounds(ms, s, &solvers.Params{TimeLimit: time.Minute}, nil)
//
// # Exact pricing of the column generation for microaggregation
//
// PricingProblem writes the pricing subproblem of fixed group size η of
// Gentile, Spagnolo-Arrizabalaga & Castro (Section 4.2, model (14)): one
// binary z_ij per edge of the complete graph on the n records (column
// "z_i_j", i < j), cost c_ij/η − (λ_i+λ_j)/(η−1), the fixed-size row
// Σ z_e = η(η−1)/2 and the node-to-node rows
// Σ_{e∈δ(i)∖{ij}} z_e ≥ (η−2) z_ij for every ordered pair (left out for
// η = 2). By their Proposition 4.2 the binary feasible points are exactly
// the cliques of size η, and a clique's objective is the group's reduced
// cost w_C − Σ_{v∈C} λ_v. DecodePricing turns a binary z back into the
// group and rejects anything else (ErrNotClique).
//
// SolveExactPricing solves the model with a MIP engine and returns the
// minimizing group with its reduced cost recomputed from the distances;
// the caller decides whether it prices out. Optionally a cutting-plane
// loop first solves the LP relaxation (an LP engine, in one session), adds
// the most violated triangle inequalities z_ir + z_rj − z_ij ≤ 1 (valid
// for cliques, not implied by the relaxation of (14): the paper's remark
// after Corollary 4.3) for a few rounds, and passes them to the MIP as
// rows. The model has n(n−1)(2n−1)/2 nonzeros; beyond MaxPricingNonzeros
// (n = 200 for η ≥ 3) both functions return ErrPricingTooLarge.
//
// # GCP-optimal freeform k-anonymity
//
// KAnonMIPProblem writes the exact problem behind the heuristics of Doka
// et al. ("k-Anonymization by Freeform Generalization": the formulation of
// their Section 4, the "MIP" baseline of Section 8): choose a k-regular
// bipartite graph between the originals S_i and the published records
// T_j, containing the identity round, that minimizes the GCP of the boxes
// it implies,
//
//	minimize   Σ_j Σ_a NCP_ja / (n·d)
//	subject to Σ_{j≠i} x_ij = k−1 (every i),  Σ_{i≠j} x_ij = k−1 (every j),  x_ij ∈ {0,1}
//
// with each NCP_ja linearized exactly: box bounds with the tightest big-M
// (or, for at most KAnonStepMaxN records, a step form with a stronger
// relaxation) for numeric attributes, forced indicator variables for the
// values of a categorical box, and telescoping level indicators along the
// path to the root for a hierarchy (see kanon.go). The model has n(n−1)
// binaries, so it is for small tables and partitions only (package kanon,
// method "mip"); beyond MaxKAnonMIPNonzeros it is refused with
// ErrKAnonMIPTooLarge. SolveKAnonMIP solves it and returns the graph with
// its GCP recomputed from the boxes, the engine's bound and whether
// optimality was proven; a solve that ends without any feasible point
// wraps ErrNoSolution, and lp_solve is refused (it reports wrong optima on
// this model).
package ip
