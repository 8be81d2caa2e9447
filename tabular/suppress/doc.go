// Package suppress finds an optimal (or, under a time limit, a good and
// always safe) secondary cell suppression pattern for a table or a set of
// linked tables: the cheapest set of cells to withhold, besides the
// primary ones, so that the interval an attacker derives for every
// primary cell reaches its protection levels (package tabular/intervals
// audits that).
//
// # The model
//
// Cells i = 1..n have values a_i, costs c_i (tabular.Cell.Cost) and the
// relations A x = 0 of package tabular. A binary y_i says that cell i is
// suppressed: y_i = 1 for primary cells, y_i = 0 for must-publish cells
// and, by default (EmptyNever), for empty cells; every other cell is free.
// The attacker knows prior bounds l_i ≤ x_i ≤ u_i (the defaults of package
// intervals, or Settings.Prior); a suppressed cell can move down by
// LB_i = a_i − l_i and up by UB_i = u_i − a_i, where an infinite end is
// replaced by the finite Settings.Capacity M (default: the largest |a_i|
// plus the largest protection level, at least 1). In deviations d = x − a the
// attacker's polytope for a pattern y is
//
//	P(y) = { d : A d = 0, −LB_i·y_i ≤ d_i ≤ UB_i·y_i },
//
// and the pattern protects primary cell p with upper and lower levels
// UPL_p, LPL_p when max{d_p : d ∈ P(y)} ≥ UPL_p and
// max{−d_p : d ∈ P(y)} ≥ LPL_p: the attacker subproblems of Fischetti and
// Salazar-González (1999, 2000). The problem is
//
//	min Σ_i c_i y_i  over binary y (fixed entries as above)
//	subject to both subproblems reaching their levels for every primary p.
//
// Replacing an infinite prior end by M shrinks the attacker's polytope, so
// a pattern this model calls safe is safe for the attacker with the true
// (infinite) bounds that intervals.Compute uses; the optimum and the lower
// bound are those of the model with M.
//
// # Capacity constraints (the cuts)
//
// Take one subproblem, max cᵀd over P(y) with c = e_p (upper) or −e_p
// (lower), and any row multipliers γ, with reduced costs r = c − Aᵀγ. For
// every d ∈ P(y), since A d = 0,
//
//	cᵀd = γᵀA d + rᵀd = Σ_i r_i d_i ≤ Σ_i max(r_i·UB_i·y_i, −r_i·LB_i·y_i)
//	    = Σ_i (r_i⁺·UB_i + r_i⁻·LB_i)·y_i            (y_i ≥ 0, LB, UB ≥ 0),
//
// r⁺ = max(r, 0), r⁻ = max(−r, 0). A protecting y has some d ∈ P(y) with
// cᵀd ≥ level, hence every protecting y satisfies the capacity constraint
//
//	Σ_i (r_i⁺·UB_i + r_i⁻·LB_i)·y_i ≥ level,
//
// for every γ: it is valid whatever γ is, optimal or not. With γ the
// optimal duals of the subproblem at the current y* the left side at y*
// is the subproblem's optimum (LP duality), so when that optimum misses
// the level the constraint cuts y* off. Separation is therefore one
// attacker LP per primary cell and direction, and the cut is read from
// its row duals (the reduced costs are recomputed from γ, so a slightly
// inexact γ still gives a valid cut). The fixed entries move to the right
// side (primary cells contribute their coefficient, must-publish cells
// nothing), giving Σ_free k_j y_j ≥ ρ. For binary y a coefficient above
// ρ can be lowered to ρ (if such a y_j is 1 the cut holds either way; if
// 0 its coefficient does not matter), and the cut is stored divided by ρ:
// Σ min(k_j/ρ, 1)·y_j ≥ 1. The first cuts, before any LP, are the
// relation cuts: a primary cell alone suppressed in a relation is
// recomputed from it, so some other free cell of that relation must be
// suppressed (unless another primary cell is there).
//
// # The algorithm
//
// Solve drives the cut loop itself (no engine callbacks are needed):
//
//  1. The LP relaxation (0 ≤ y ≤ 1) with the cuts so far is solved in one
//     warm-started session, separated at its optimum y*, cut, and solved
//     again until no cut is violated; its value is a lower bound.
//     The phase ends when no cut is violated, when the bound stalls
//     (Schedule.StallRounds, StallTol) or at the schedule's round and
//     time limits.
//  2. The master MIP (HiGHS or CBC) is solved over the cuts of the LP
//     phase with at most mipCutVars variables and every cut found at an
//     earlier MIP solution; its optimum (or its dual bound under a limit)
//     is a lower bound, as the MIP over a subset of the capacity
//     constraints is a relaxation. Its integer solution is separated:
//     without a violated cut it is a safe pattern, optimal when the MIP
//     was solved to optimality; otherwise the cuts are added and the MIP
//     solved again; the dense cuts found at a MIP solution join the MIP
//     only when no sparse one cuts it off. With
//     Schedule.RegularizedPerMIP > 0 a dense cut found at a MIP solution
//     is replaced, when it can be, by the sparser cut of the regularized
//     attacker LP (regularized.go): the same subproblem with every bound
//     widened by a small δ, whose duals minimize Σ|r_j| among the
//     near-optimal ones.
//  3. The primal heuristic turns any y (fractional or not) into a safe
//     pattern: round (y_j ≥ 1/2), then for each primary cell and
//     direction whose attacker LP misses the level, solve the protection
//     LP min Σ w_j (u_j + v_j) over u − v ∈ {d : A d = 0}, 0 ≤ u ≤ UB,
//     0 ≤ v ≤ LB, u_p ≥ level (or v_p ≥ level), with w_j = 0 on
//     suppressed cells and w_j = c_j·(1 − y_j + ε) elsewhere, and suppress
//     the cells it moves (the attacker can then follow the same d, so the
//     level is reached). Whether a target is reached is decided by the
//     witness LP: the same split model with only suppressed cells free to
//     move, minimizing Σ (u_j + v_j); it is feasible exactly when the
//     level is reached, and its optimum (the witness) moves few cells.
//     Suppressed free cells that no witness moves are published at once
//     (a secondary cell the attacker can recompute is never moved); the
//     others are tried for publication in decreasing order of cost and
//     kept published when every primary cell stays protected (only the
//     targets whose witness moves the cell are solved again; from an
//     unsafe MIP solution only the cells the repair added are tried).
//     The best safe pattern is kept. The heuristic runs from the LP
//     optimum at the end of the LP phase (or, with
//     Schedule.HeuristicAfterMIP, after the MIP phase when that found no
//     pattern) and from every unsafe MIP solution.
//
// Before the loop the fast method (below) is run: when it proves its
// pattern safe (by intervals.Decide from its moves, or by its full
// audit) that pattern, less the cells its moves show redundant (see
// incumbent.go), is the first incumbent, and a safe pattern also shows
// that every primary cell can be protected. Otherwise the pattern that
// suppresses every free cell is checked with the attacker LPs: when it
// does not protect a primary cell the problem has no solution and Solve
// says which cell; otherwise it is the first incumbent (less the cells
// no attacker optimum moves). Either way Solve always returns a safe
// pattern. The time limit (Params.TimeLimit,
// Params.Deadline) bounds the search: the separation, the repair and the
// cleanup stop at the deadline (an unfinished repair is dropped, a
// cleanup cut short leaves a safe pattern) and the MIPs get their share
// of the time left; the first incumbent and the final audit run to the
// end. When to run the heuristic, how many LP rounds to make and how much
// time each MIP gets is decided by a Schedule, kept apart from the
// algorithm. Decisions follow cell order with fixed tie-breaks, so the
// same input gives the same pattern.
//
// The pattern is then audited by package intervals (the true attacker,
// with infinite prior ends). A secondary cell the audit finds disclosed,
// which only happens when a witness LP moved it within the engine's
// feasibility tolerance, is published: it protects nothing, and
// publishing a value the attacker already knows changes no interval.
//
// Sliding protection levels are not modelled: a primary cell whose
// Sliding exceeds Upper + Lower is refused. A primary cell with both
// levels 0 must still not be disclosed: it gets an upper level of
// Settings.MinLevel·max(1, |a_p|) (or a lower one when it cannot move up).
//
// # Insiders
//
// An insider (package intervals, section Insiders: a respondent or
// holding named in the Top lists, the coalition of the two contributors
// of a cell, or the contributors of a singleton or pair cell when the
// table names none) knows more than the prior: its own contribution
// raises the lower bound of every cell it contributes to (propagated up
// the relations), and a cell it makes up alone is known exactly. With
// Settings.Insiders (default: when the table carries frequencies or
// contributions) the pattern must also protect every primary cell p
// against every insider k: intervals.Insiders lists the insiders of the
// table with every cell that may be suppressed suppressed, with their
// narrowed priors [l^k, u^k] and their requirements (the interval must
// reach needLo^k_p and needHi^k_p). Insider k's targets are
//
//	up:   level needHi^k_p − a_p,   down: level a_p − needLo^k_p,
//	LB^k_i = min(LB_i, a_i − l^k_i),  UB^k_i = min(UB_i, u^k_i − a_i),
//
// with LB^k = UB^k = 0 on a cell k makes up alone, and none for a p that
// k makes up alone (it knows it). The insider's polytope P^k(y) is P(y)
// with LB^k, UB^k, and the derivation of the capacity constraint above
// holds word for word with them: Σ_i (r_i⁺·UB^k_i + r_i⁻·LB^k_i)·y_i ≥
// level. The requirement is a property of the insider and the table,
// not of the pattern (the insider knows its contributions whatever is
// published), so each such constraint holds for every protecting y;
// InsiderAudit audits, for a given pattern, a subset of these insiders
// (those its suppressed cells name). The model with any subset of the
// insider targets is a relaxation of the model with all of them, so its
// LP and MIP bounds stay lower bounds. The model's insiders can be more
// than the final audit's: a respondent alone in a published cell still
// counts. For a frequency table with the default prior they are the
// same: the contributors of a published singleton or pair cell know
// nothing an outsider does not (its value is published, and every total
// containing it is at least as large for everyone).
//
// Insider targets are added lazily. After every candidate pattern (the
// first incumbent, each heuristic pattern, each integer master
// solution) the targets not yet in the model are checked: the
// outsider's least-movement witness d for the same cell and direction
// proves a target reached when it stays within the insider's bounds and
// the insider's level is not higher, or when d plus a multiple of the
// outsider's witness of the one cell d moves out of those bounds (moving
// it the other way), scaled to fit every bound, still reaches the
// level; so does a witness kept from an
// earlier check whose moved cells are all still suppressed; the others
// get the witness LP with the insider's bounds (feasible exactly when
// the target is reached), and an attacker LP, for the cut, when it is
// not. A violated target joins the model for good (separated in
// every later round, cut, repaired and kept by the heuristic with the
// insider's bounds in its protection and witness LPs), and a pattern
// becomes the incumbent only when no target is violated; an integer
// master solution that violates one is cut off. A target missed with
// every free cell suppressed is one no pattern reaches: it is left out,
// counted in Result.InsiderImpossible, and the final check fails. That
// check is intervals.InsiderDecide (InsiderAudit's report, decided per
// insider and primary cell) with every insider (no cap); a finding
// makes Solve return ErrUnsafe with the Result. MethodFast repairs its
// pattern the same way after its audit (protectInsidersFast). Linked
// tables (SolveSystem) are protected against outsiders only.
//
// # Methods
//
// Settings.Method chooses the algorithm: MethodOptimal (the default) is
// the branch-and-cut above; MethodFast (SolveFast) protects each primary
// cell by the cheapest hypercube of its table (balanced vectors of each
// dimension's hierarchy, multiplied; see fast.go), re-chooses the cubes
// with each other's corners free and audits the whole table or System:
// the cubes, and the repairs' integral deviations, are the audit's proof
// when they meet every requirement (intervals.Decide checks them
// exactly, without an LP); otherwise, or with Settings.ExactAudit,
// package intervals computes the intervals and every failing cell is
// repaired with the protection LP until the audit passes. It gives no
// lower bound. MethodAuto is
// MethodOptimal below AutoCells cells and MethodFast from there.
//
// # Sources
//
// M. Fischetti and J.-J. Salazar-González, Models and algorithms for the
// 2-dimensional cell suppression problem in statistical disclosure
// control, Mathematical Programming 84 (1999) 283–312; Models and
// algorithms for optimizing cell suppression in tabular data with linear
// constraints, Journal of the American Statistical Association 95 (2000)
// 916–928: the attacker subproblems, the capacity constraints from their
// duals, and a branch-and-cut over them with a rounding-and-repair
// heuristic. A. Hundepool et al., Statistical Disclosure Control (Wiley,
// 2012), chapter 4 (Giessing's account of Repsilber's hypercube method,
// GHMITER): the hypercube idea of the fast method; its extension to
// whole hierarchical tables by balanced vectors is ours. The derivation
// above is ours (weak LP duality), as is the
// protection LP's weighting; sections of the papers are not cited
// because they were not checked.
package suppress
