// Package cellbounds chooses and runs a method for the bounds problem of
// Dobra & Fienberg ("Bounds for cell entries in contingency tables induced
// by fixed marginal totals"): given released marginals of an unknown k-way
// table of counts, find lower and upper bounds for every cell.
//
// Methods (Settings.Method):
//
//   - "lp": two LPs per cell over the polytope of the margins (package lp),
//     warm-started in one engine session. Not sharp: bounds may be
//     fractional (Section 2, Table 3's 312.67) and, even when integral,
//     need not be attained by an integer table.
//   - "ip": the same with integer cells (package ip): sharp integer bounds
//     proven by an engine.
//   - "shuttle": the generalized shuttle algorithm and its correction step
//     (Section 4; package native/shuttle): sharp when the correction step
//     certifies every bound, which Result.Sharp reports.
//   - "frechet": the closed-form bounds of Theorem 1 when the margins are
//     the minimal sufficient statistics of a decomposable log-linear model
//     (package native/frechet); sharp.
//   - "reducible": Theorem 2, when the independence graph splits by
//     complete separators; every component is solved by the best
//     applicable method (Fréchet when the component's margins are
//     decomposable, the shuttle with correction otherwise) and the bounds
//     are combined.
//   - "auto" (the default): Fréchet when the margins are decomposable
//     (closed form, proven sharp), else reducible when the graph splits,
//     else the shuttle with correction; where the shuttle leaves a bound
//     uncertified, the integer program settles every cell. The method that
//     produced each cell's bounds is in Bounds.Method.
//
// Settings.Compare runs further methods on the same margins, so that
// callers can mark the cells where LP bounds are fractional or differ from
// the integer bounds.
//
// Errors: inconsistent margins, or margins that admit no (integer) table,
// wrap ErrInfeasible; a method that does not apply to the margins
// ("frechet" on non-decomposable margins, "reducible" on an irreducible
// graph) wraps ErrNotApplicable; an unknown method name is a programmer
// error reported as ErrUnknownMethod (the CLI checks names first).
package cellbounds
