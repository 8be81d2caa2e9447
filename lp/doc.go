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
// Limits: Options.Deadline ends a run with valid bounds (a solve cut short
// keeps the trivial bound [0, least margin cell containing the cell],
// TrivialBounds; Stats.Stopped), and Options.MemoryLimit refuses a model
// whose estimate (CellBoundsMemory) does not fit, before anything is
// built. Stats.LowerAttained and UpperAttained tell which LP bounds were
// attained at an integral vertex, and so are sharp integer bounds.
//
//	s, _ := solvers.New("auto", false)
//	b, err := lp.CellBounds(ms, s, nil, nil) // b.Lower[c] <= x_c <= b.Upper[c]
//
// # Restricted master problem of the column generation for microaggregation
//
// MasterProblem writes the LP relaxation of the set partitioning (9) of
// Gentile, Spagnolo-Arrizabalaga & Castro ("A column generation approach
// for microaggregation", Section 4.1) over a family of groups C:
//
//	minimize   Σ_C w_C x_C,   w_C = Σ_{i<j ∈ C} c_ij / |C|   (Equation (8))
//	subject to Σ_{C ∋ v} x_C = 1   for every record v,   x_C ≥ 0
//
// without upper bounds on x_C (implied by the rows), so that the row duals
// λ are the whole dual and a group's reduced cost is w_C − Σ_{v∈C} λ_v
// (Equation (10)). MasterColumns gives further groups in the CSC form of
// solvers.Session.AddCols; package colgen drives the iteration.
//
// # b-regular bipartite selection
//
// KRegularProblem and SolveKRegular choose, for an n×n cost matrix, b
// columns per row and b rows per column at least total cost:
//
//	minimize Σ c_ij x_ij   subject to Σ_j x_ij = b, Σ_i x_ij = b,   0 ≤ x_ij ≤ 1
//
// The matrix is totally unimodular, so a simplex vertex is 0/1 (b = 1 is
// the assignment problem). It is the independent LP check of
// native/hungarian and native/mincostflow, which build the k-regular
// generalization graphs of package kanon.
//
// # Errors
//
// Inconsistent margins (model.MarginSet.Check) and margins that admit no
// non-negative table are reported as errors wrapping ErrInfeasible; a
// model beyond Options.MemoryLimit wraps ErrTooLarge; ErrNotSolved is
// wrapped only for a genuine engine failure on a bound (numerical
// trouble, an unknown status), never for a limit. SolveKRegular wraps
// ErrNoKRegular when no selection of finite cost exists and ErrFractional
// when an engine returns a non-0/1 optimum. Engine failures are returned
// as the solvers package's errors. Malformed margin sets passed to
// CellBoundsProblem (a programmer error: they are checked by
// model.MarginSet.Check) panic.
package lp
