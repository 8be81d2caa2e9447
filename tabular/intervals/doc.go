// Package intervals is the interval audit of a suppressed table (issue
// 45, part 3): for every suppressed cell (tabular.Status Primary or
// Secondary) of a tabular.Table or a linked tabular.System, the sharp
// interval an attacker derives from the published cells, the table's
// relations and prior bounds; the audit of those intervals against
// protection levels; and dual certificates that let anyone re-check each
// LP bound without an engine.
//
// # The attacker problem
//
// Let S be the suppressed cells, x_j (j ∈ S) their unknown values, a_i the
// published values. Every tabular.Relation (total = Σ parts, a row of
// A x = 0 in package tabular) restricted to S reads
//
//	Σ_{j ∈ S ∩ parts} x_j − [total ∈ S]·x_total = b_r,
//	b_r = a_total·[total ∉ S] − Σ_{i ∈ parts \ S} a_i,
//
// relations without a suppressed cell are checked (ConsistTol) and
// dropped. With the prior bounds l_j ≤ x_j ≤ u_j (Settings.Prior; by
// default 0 ≤ x_j < +∞ for frequency and non-negative magnitude tables)
// the attacker's knowledge of cell j is
//
//	[ min x_j , max x_j ]  subject to  A_S x = b,  l ≤ x ≤ u,
//
// the attacker subproblem of Fischetti and Salazar-González (1999, 2000;
// see Sources), and the audit of Hundepool et al.
// (2012, chapter 4). The LPs (Settings.Integer false, the default) give
// the interval over real tables; with Settings.Integer the same model
// with integer columns, through a MIP engine, gives the interval over
// integer tables, which is sharp for frequency tables. The two differ on
// 3-way tables (TestLPWiderThanInteger: [0.5, 3] against [1, 3]), as the
// LP and integer bounds of Dobra and Fienberg ("Bounds for cell entries
// in contingency tables induced by fixed marginal totals", 2001) do in
// package lp and cellbounds, which compute the same polytope's bounds
// for released margins; on the 2-way tables tried, flat or hierarchical,
// they agree.
//
// Compute writes each component's model once (solvers.RowBuilder; see
// "Components, determined cells and skipped solves" below), opens one
// engine session for it (solvers.Session; solvers.ReloadSession for an
// engine without incremental solves) and, for each cell, only changes
// the objective (the previous cell's coefficient to 0, this one's to 1)
// and the sense, so that each LP re-solve starts from the previous
// optimal basis (the feasible region never changes), as lp.CellBounds
// does. An end that
// the engine proves unbounded is ±Inf (a MIP engine's "infeasible or
// unbounded" is resolved by one feasibility solve). An end cut short by
// a limit is the prior bound, or a MIP's dual bound rounded inward; its
// status says so. An infeasible model is ErrInfeasible, naming the
// relation when one alone cannot hold.
//
// # Components, determined cells and skipped solves
//
// Compute does not solve the attacker problem as one model. It first
// determines, without an LP, the cells that relations alone give (the
// attacker's disclosure by differencing): a relation with one
// undetermined cell x_j (coefficient c) gives x_j = (b_r − Σ c_k·x_k over
// its determined cells)/c, and may leave another relation with one; the
// proof is y^j = (e_r − Σ c_k·y^k)/c, whose Aᵀy^j = e_j, so that both
// ends are y^jᵀb with d = 0 (Result.Determined; a determined value
// outside the prior bounds, or a relation left violated, is
// ErrInfeasible). The other cells fall into connected components of the
// graph joining cells that share a relation (gonum's graph/simple and
// topo.ConnectedComponents): the polytope is the product of the
// components' polytopes, so each component is its own small model and
// session, its right-hand sides reduced by the determined cells, and its
// duals ȳ are lifted back to the whole problem as y = Σ_r ȳ_r (e_r −
// Σ_k A_rk·y^k) over the determined cells k of row r, which Verify checks
// as any other certificate. Within a component the minima of all cells
// are solved first, then the maxima, each warm-started from the previous
// basis; before the cells' own solves of one sense, batch solves (min or
// max of the sum of unproven cells no two of which share a relation,
// Result.Batches) bring many cells to their bounds at once, while a
// round proves at least two ends. Every optimal LP solution is a feasible
// table: Compute keeps,
// per cell, the least and largest value seen in any solution of its
// component, and an end is not solved (Result.Skipped) when a seen value
// reaches (within SeenTol) a bound that a cheap dual vector proves: the
// prior bound (y = 0, d = e_j: x_j ≥ l_j) or the bound of one relation r
// containing j (y = e_r/A_rj: for a part of a published total and
// default priors, x_j ≤ b_r, the total less its published parts). Such
// an end is sharp (a feasible table attains it) and certified like a
// solved one. Settings.Workers solves components on several goroutines,
// one engine session each, with the same result; Settings.NoSkip and
// Settings.NoDecompose give back the plain computation (every end
// solved, one model), against which TestDecomposedMatchesPlain checks
// the default one.
//
// # The audit
//
// A primary cell with value X and protection levels L (lower) and U
// (upper) from package tabular/primary is protected when the attacker's
// interval reaches both X − L and X + U (Hundepool et al. 2012, chapter
// 4; Fischetti and Salazar-González's upper and lower protection
// levels). Audit reports every primary cell with Upper < X + U or
// Lower > X − L (beyond AuditTol) with its interval, levels and
// shortfalls, and every suppressed cell whose interval is one point
// (exactly disclosed).
//
// # Certificates
//
// For max x_j the LP dual is min yᵀb + Σ_k (d_k⁺·u_k − d_k⁻·l_k) over y
// free and d = e_j − A_Sᵀy (the bound duals). Weak duality holds for every
// y, optimal or not: for any feasible x,
//
//	x_j = eᵀ_j x = yᵀA_S x + dᵀx = yᵀb + dᵀx ≤ yᵀb + Σ_k max(d_k·l_k, d_k·u_k),
//
// finite when d_k ≤ 0 wherever u_k = +∞ and d_k ≥ 0 wherever l_k = −∞ (y
// dual feasible); for min x_j the same with min and the signs swapped.
// Each optimal LP end keeps the engine's row duals y and reduced costs d
// (the solvers package's convention d = c − Aᵀy, so the engine's y is
// this y) as a sparse Certificate. Verify rebuilds A_S, b, l and u from
// the table, recomputes d = e_j − A_Sᵀy and the bound in exact rational
// arithmetic (math/big.Rat on the stored float64 values), and refuses a
// certificate whose stored d differs from the recomputed one (DualTol),
// whose y is not dual feasible (|d_k| > DualTol on an infinite bound),
// whose stored value is not what y proves, or whose claimed end is
// sharper than what y proves (VerifyTol). The only trust left is in the
// tolerances: a y with a reduced cost below DualTol on an infinite bound
// is accepted. This is the certificate scheme of package cellbounds
// (Neumaier and Shcherbina's safe bounds) without its integer rounding.
//
// # Sources
//
// A. Hundepool, J. Domingo-Ferrer, L. Franconi, S. Giessing, E. Schulte
// Nordholt, K. Spicer, P.-P. de Wolf, Statistical Disclosure Control,
// Wiley 2012, chapter 4 (the attacker's intervals of suppressed cells
// and protection levels; sections not cited, as in package tabular).
// M. Fischetti and J.-J. Salazar-González, Models and algorithms for the
// 2-dimensional cell suppression problem in statistical disclosure
// control, Mathematical Programming 84 (1999), and Models and algorithms
// for optimizing cell suppression in tabular data with linear
// constraints, Journal of the American Statistical Association 95
// (2000): the attacker subproblem and upper and lower protection levels. A. Dobra and S. E.
// Fienberg, Bounds for cell entries in contingency tables induced by
// fixed marginal totals (2001), as used by packages lp and cellbounds:
// LP against integer bounds.
package intervals
