// Package lp builds linear-programming formulations of sdcopt's problems
// and drives their solution through the engine-neutral solvers package.
// It never calls an engine's own API.
//
// # Cell bounds given released marginals
//
// An agency releases marginal tables n_M (M ∈ 𝓜, each a subset of the k
// variables) of a confidential k-way table of counts n. An intruder who
// knows the margins knows that every cell x_c lies in the polytope
//
//	Q = { x ∈ ℝ^I : x ≥ 0,  Σ_{c : c_M = m} x_c = n_M(m)  for every M ∈ 𝓜 and cell m of M }
//
// (Dobra & Fienberg, "Bounds for cell entries in contingency tables induced
// by fixed marginal totals", Section 2: a table with the given margins is a
// lattice point of Q). CellBoundsProblem writes Q as a solvers.Problem: one
// column per cell of the full table (row-major, the first variable
// slowest, as model.Table), one equality row per cell of every released
// marginal. The system is rank-deficient when margins overlap (shared
// sub-margins appear in several rows); the engines handle the redundancy.
//
// The LP bounds of cell c are min x_c and max x_c over Q: two LPs per cell,
// which differ only in the objective. CellBounds loads the model into one
// engine session and, between solves, changes only the objective (the
// previous cell's coefficient back to 0, the new cell's to 1) and the
// sense, so that every re-solve starts from the previous optimal basis
// (which stays primal feasible: the feasible region never changes). With
// Options.Marginal the objective is the sum of the cells projecting to a
// cell of a marginal, which bounds the cells of any marginal of the table.
//
// LP bounds are not sharp in general: the paper's Table 3 has the upper
// bound 312.67 for a cell of [ABCE] given all 2-way margins, where the
// largest integer value is 312 (package ip computes integer bounds with the
// same model and integer columns).
//
// Presolve: the upper bound of cell c is at most min_M n_M(c_M) (implied by
// the rows and x ≥ 0, and set as the column's upper bound, which helps the
// integer solves); a cell lying in a zero marginal cell is fixed at 0 and
// its bounds [0, 0] are known without a solve.
//
// # Errors
//
// Inconsistent margins (model.MarginSet.Check) and margins that admit no
// non-negative table are reported as errors wrapping ErrInfeasible.
// Engine failures are returned as the solvers package's errors. Malformed
// margin sets passed to CellBoundsProblem (a programmer error: they are
// checked by model.MarginSet.Check) panic.
package lp
