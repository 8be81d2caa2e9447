// Package cellbounds chooses and runs a method for the bounds problem of
// Dobra & Fienberg ("Bounds for cell entries in contingency tables induced
// by fixed marginal totals"): given released marginals of an unknown k-way
// table of counts, find lower and upper bounds for every cell.
//
// Methods (Settings.Method):
//
//   - "lp": two LPs per cell over the polytope of the margins (package lp),
//     warm-started in one engine session. Not sharp in general: bounds may
//     be fractional (Section 2, Table 3's 312.67) and, even when integral,
//     need not be attained by an integer table; a bound whose optimal
//     vertex is an integer table is sharp (Run.SharpCells, and Run.Sharp
//     when that holds for every bound).
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
// # Limits
//
// Settings.MemoryLimit (default half of the physical memory) bounds every
// method. Compute first reserves the results (ResultBytesPerCell a cell
// and run); each method then estimates what it will allocate before
// allocating it: "lp", "ip" and auto's LP/IP phases the model and the
// engine's copy (lp.CellBoundsMemory), the shuttle its set T with the
// dependencies and the propagation state (shuttle.Estimate). What does not
// fit is refused with ErrTooLarge. The shuttle's correction step only
// sharpens valid bounds, so it is skipped when its worst case does not fit
// and a search that outgrows the rest stops; auto's tightening by the
// shuttle is left out likewise. Those runs return valid bounds with
// Run.Stopped = StoppedMemoryLimit.
//
// Settings.TimeLimit bounds the whole Compute call with one deadline that
// every method and compared run shares. When it passes, every cell keeps
// the best valid bounds known: those settled, an integer engine's dual
// bound rounded inward, the shuttle's current bounds (valid at every step
// of the propagation and of the correction step), auto's rounded LP
// bounds, or the trivial bounds [0, least margin cell containing the
// cell]. The run has Stopped = StoppedTimeLimit and counts the cells with
// proven sharp bounds (Run.SharpCells) and with valid bounds only
// (Run.ValidCells). "frechet" (and Fréchet components) always complete:
// the closed form costs no more than the trivial bounds.
//
// Errors: inconsistent margins, or margins that admit no (integer) table,
// wrap ErrInfeasible; a method that does not apply to the margins
// ("frechet" on non-decomposable margins, "reducible" on an irreducible
// graph) wraps ErrNotApplicable; a method whose memory estimate exceeds
// Settings.MemoryLimit wraps ErrTooLarge; an engine failure (numerical
// trouble, an unknown status, never a time limit) wraps lp.ErrNotSolved;
// an unknown method name is a programmer error reported as
// ErrUnknownMethod (the CLI checks names first).
package cellbounds
