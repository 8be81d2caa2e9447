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
// the default one. Integer intervals (Settings.Integer) always take the
// plain computation: their witness tables index the whole problem.
//
// # Local relaxations
//
// Before a cell's own solve in a component of at least 500 relations,
// Compute tries local relaxations (Result.Local, unless
// Settings.NoLocal): the LP max (min) x_j over the relations within
// distance d of j in the graph joining cells to their relations (d = 2,
// then 3), every other cell keeping only its prior bounds. Dropping rows
// relaxes the polytope, so its optimum bounds x_j's end from outside,
// and its optimal row duals, extended by 0 to every other relation (and
// lifted over the determined cells), are a certificate of that bound: no
// dropped relation holds a cell of the neighbourhood's relations with a
// nonzero dual, so every reduced cost outside is 0. The bound is used
// only when that certificate passes Verify's exact check (with or
// without Settings.NoCertificates): CLP's presolve has been seen to call
// an unbounded local LP optimal at 0. The end is that bound, sharp, when
// a seen feasible point reaches it. The local LP has
// tens to hundreds of rows where the component has thousands.
//
// With Settings.Workers > 1, a component of at least
// 1,000 cells has its cells split into contiguous parts, each solved in
// a session of its own over a copy of the component's model after the
// batch solves, the seen values merged after each sense: the result
// depends on Workers (which ends are solved, which certificate proves
// them) but not on scheduling, and its intervals are those of one
// session.
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
// # The decision audit
//
// Audit's questions have yes-or-no answers, and a "yes" has a short
// proof: a point of the polytope. Decide takes moves, integer vectors w
// over the suppressed cells with a step δ > 0; when A_S w = 0 (checked
// in integer arithmetic) and the prior bounds hold at a + δ·w (in
// big.Rat, a the true values), a + δ·w is a point of the polytope, so
// each cell's interval reaches a_j + δ·w_j and is more than one point
// where δ·w_j ≠ 0 (beyond SnapTol·max(1, |X|), Interval.Disclosed's
// tolerance). When the moves meet every level and move every suppressed
// cell, the audit passes, proven without an LP; a requirement no move
// meets is left open, never reported as a failure. The hypercubes of
// package tabular/suppress's fast method are such moves.
// TestDecideAgreesWithAudit compares Decide with Compute and Audit on
// seeded tables, passing and failing.
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
// # Insiders
//
// The audit above is the outsider's. A respondent knows its own
// contributions, and τ-ARGUS's secondary suppression guards against it
// ("singleton" options of its modular method: a singleton protected only
// by another singleton, or by several cells of one respondent, and the
// frequency-rule coalition, as the τ-ARGUS interfaces rtauargus and
// sdcTable document them; the manual itself was not available to us);
// Langsrud (2024) treats the same "problem of singletons" in Gaussian
// elimination. InsiderAudit checks what such insiders learn.
//
// Insiders. With identities (a magnitude table built from microdata whose
// cells carry Top, and TopHolding with holdings), an insider is a
// respondent or holding, or a coalition of two, named by its IDs. It
// knows x_k ≥ c_k in every suppressed cell k it contributes to, c_k its
// (pooled) contribution: read from Top where Top names it, else bounded
// below through the relations (its contribution to a total is at least
// the sum of those to the parts). It knows x_k = c_k where it makes up
// the cell: all of the cell's Freq respondents are it (Top lists every
// contributor), or, for holdings, its contributions sum to the cell.
// Without identities (a table file, a weighted table, whose Top holds
// unweighted values, or a Top shorter than Freq), a
// suppressed cell with Freq 1 or 2 is one insider (CellInsider): it
// knows the cell's value exactly, that every cell containing it is at
// least as large, and exactly as large where that cell has as many
// contributors. Treating the one or two contributors as knowing that they
// are alone is the conservative reading (a respondent knows its own value,
// not always that it is alone). The insiders audited are, in this order:
// those alone in a suppressed cell, the coalitions of the two contributors
// of a suppressed cell, each of those two, and the largest contributor of
// each primary cell (respondent, then holding); at most MaxInsiders
// (DefaultMaxInsiders, 50), the rest counted in Candidates. Each costs one
// Compute with Settings.Prior narrowed to [max(l_k, c_k), u_k] (or
// [X_k, X_k]), and none when the knowledge narrows no prior.
//
// Requirement. Every primary cell j the insider does not make up is
// checked against its interval [lo, hi] under that knowledge. The
// interval must reach at or above X + U and at or below max(X − L, c_j),
// and not be one point, where U, L are the cell's protection levels and
// c_j the insider's known contribution to j (0 if none): the insider
// always knows x_j ≥ c_j, its own, and nothing can be required below it.
// For the p % and pq rules (Cell.Rule "p(p)" or "pq(p,q)", p* = p or
// 100·p/q, the level of package primary) an insider whose contributions to
// j are all listed in Top estimates the largest other contributor x_t of
// j from above by hi − c_j (the others are ≥ 0), which must exceed x_t by
// p*/100·x_t: U_C = p*/100·x_t − (X − c_j − x_t), and by symmetry L_C =
// min(U_C, X − c_j); U and L are then max(U, U_C) and max(L, L_C). For a
// single respondent this never raises the cell's levels, which guard
// against the second largest (U = p*/100·x1 − (X − x1 − x2)): for the
// largest, x_t = x2 ≤ x1 and the remainder is the same; for the second it
// is U; for any other, x_t = x1 and the remainder X − c_j − x1 ≥ X − x1 −
// x2. It does raise them for coalitions (two contributors subtracting both
// their values). For other rules (freq, nk, requests, manual primaries)
// the cell's levels are the requirement. A finding reports the insider,
// the cell, its interval under that knowledge, c_j and what was needed.
// Cells the plain audit already breaks (their outsider interval misses
// the levels or is one point) are left to it: the findings are the
// breaks an outsider's audit does not see.
//
// InsiderDecide gives InsiderAudit's report without a Compute per
// insider: only the primary cells in a component of the attacker problem
// where the insider narrows a prior can change; there a feasible point
// already seen (an optimum of the plain problem or of an earlier
// insider's LP) within the insider's bounds, or such a point corrected on
// the one cell it moves out of bounds by a point moving that cell the
// other way and scaled to fit, proves an end reached; only an end left
// open is solved, one LP over its component (see insider_decide.go).
//
// Insiders gives the same insiders, knowledge and requirements for a
// table with every cell that may be suppressed suppressed (the candidates
// any pattern can face), as a secondary suppression model needs them
// (package tabular/suppress, section Insiders).
//
// The largest contributor's estimate. For every primary cell of a
// magnitude table with Top and Freq ≥ 2, the largest contributor x1
// knows the cell lies in [lo, hi] (its insider interval when it was
// audited, else the plain interval, raised to x1) and estimates the
// others' total at [lo − x1, hi − x1], the second contributor itself when
// Freq is 2. LargestEstimate reports it with the requirement above
// (shifted by x1), which for the p % rule asks the others' upper estimate
// to exceed x2 by at least p % of x2 (Handbook on SDC, chapter 4: the p %
// rule's intruder estimates a contributor to within p %).
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
// LP against integer bounds. Ø. Langsrud, Secondary cell suppression by
// Gaussian elimination: an algorithm suitable for handling issues with
// zeros and singletons, Privacy in Statistical Databases 2024 (LNCS):
// the singleton problem.
package intervals
