// Package intervals is the interval audit of a suppressed table (issue
// 45, part 3): for every suppressed cell (tabular.Status Primary or
// Secondary) of a tabular.Table, a linked tabular.System or a
// tabular.LinearSystem (a JJ file: ComputeLinear), the sharp
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
// dropped. A LinearSystem's relations Σ c_i·x_i = rhs are taken as they
// are, with any coefficients. With the prior bounds l_j ≤ x_j ≤ u_j
// (Settings.Prior; by default the cell's PriorLower, PriorUpper when it
// sets them, else 0 ≤ x_j < +∞ for frequency and non-negative magnitude
// tables) the attacker's knowledge of cell j is
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
// Compute writes the model once (solvers.RowBuilder), opens one engine
// session (solvers.Session; solvers.ReloadSession for an engine without
// incremental solves) and, for each cell, only changes the objective
// (the previous cell's coefficient to 0, this one's to 1) and the sense,
// so that each LP re-solve starts from the previous optimal basis (the
// feasible region never changes), as lp.CellBounds does. An end that
// the engine proves unbounded is ±Inf (a MIP engine's "infeasible or
// unbounded" is resolved by one feasibility solve). An end cut short by
// a limit is the prior bound, or a MIP's dual bound rounded inward; its
// status says so. An infeasible model is ErrInfeasible, naming the
// relation when one alone cannot hold.
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
// (exactly disclosed). AuditProtection adds τ-ARGUS's sliding protection
// level S: the interval must be at least S wide, Upper − Lower ≥ S,
// wherever it lies around X.
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
// # Certificates of integer intervals
//
// An end of an integer interval (Settings.Integer) is certified from both
// sides by an IntegerEnd. From inside: the engine's integer table at the
// end (a Witness, the suppressed cells' values), which Verify re-checks
// exactly (every value an integer within its bounds, every row of
// A_S x = b met with no slack, in big.Rat), proves the attacker cannot
// exclude the value it reaches. From outside: the LP bound of the same
// end with its dual certificate, rounded inward (⌊max⌋, ⌈min⌉: no integer
// x_j lies beyond; for integer data), Compute solving the LP relaxation
// once more per end. The end is certified when both meet; otherwise
// (a fractional LP vertex at that end, or a MIP stopped at a limit) it
// is the engine's claim between them, marked as such (Certified false,
// Gap). An LP bound sharper than a MIP end cut short replaces it.
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
