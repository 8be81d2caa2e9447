// Package cellbounds chooses and runs a method for the bounds problem of
// Dobra & Fienberg ("Bounds for cell entries in contingency tables induced
// by fixed marginal totals"): given released marginals n_M of an unknown
// k-way table of counts n, find for every cell c
//
//	L_c = min x_c,  U_c = max x_c  over the tables x ∈ ℤ^I, x ≥ 0,
//	      with Σ_{c' : c'_M = m} x_c' = n_M(m) for every released M and cell m of M
//
// (Section 2: the tables with the margins are the lattice points of a
// polytope Q). Bounds are "sharp" when some table with the margins attains
// them, and "valid" when every such table lies within them. Compute is the
// entry point:
//
//	ms, _ := table.ReleaseSpec("AB,AC,BC") // or datasets.LoadMarginFiles
//	res, err := cellbounds.Compute(ms, cellbounds.Settings{TimeLimit: time.Minute})
//	// res.Bounds.Lower[c], res.Bounds.Upper[c], res.Bounds.Method[c], res.Sharp
//
// The methods that solve LPs or integer programs take their engine from
// the registry of package solvers (Settings.Solver, default "auto"):
// import github.com/sdcopt/sdcopt/solvers/all, or one backend, for its
// side effect. "frechet", "reducible" with Fréchet components, "shuttle"
// and "auto" on tables the shuttle settles need no engine.
//
// Methods (Settings.Method):
//
//   - "lp": two LPs per cell over the polytope of the margins (package lp),
//     warm-started in one engine session. Not sharp in general: bounds may
//     be fractional (Section 2; the 312.67 of Table 3, Section 5) and,
//     even when integral, need not be attained by an integer table; a
//     bound whose optimal vertex is an integer table is sharp
//     (Run.SharpCells, and Run.Sharp when that holds for every bound).
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
//     (closed form, proven sharp), else reducible when the graph splits
//     (each component settled as follows), else, for a table of at most
//     AutoShuttleMaxCells cells, the shuttle with correction for at most
//     AutoShuttleBudget (it is cheaper than the LP only on the smallest
//     tables, and can take minutes where the LP takes a tenth of a second:
//     the measurements are at AutoShuttleBudget). Where the shuttle leaves
//     a bound uncertified, and for larger tables, the LP runs first: a
//     bound attained at an integral optimal vertex is sharp.
//     The cells left open are settled by integer programs
//     (AutoIPTimeLimit each unless Settings.Params has a time limit), as
//     long as there are at most AutoIPMaxCells of them; beyond that they
//     keep the tighter of the rounded LP bounds and the shuttle's bounds
//     without correction: valid, not proven sharp ("ip" proves them). The
//     method that produced each cell's bounds is in Bounds.Method ("frechet",
//     "shuttle", "lp(integral vertex)", "ip", "lp+shuttle(unproven)", ...).
//
// Certified runs (Settings.Method "certified", or Settings.Certify) carry
// a certificate for every bound (Certificates). For them "sharp" has one
// definition, BoundCertificate.Sharp: proven (a dual vector, the trivial
// bound, or an IP solved to optimality) and attained by a witness table of
// the certificates. Run.Note, Run.SharpCells, CertifiedStats.Sharp, the
// gap report (Gaps.SharpBounds) and Verify all count with it; the gap
// report adds the tables it knows to the certificates as witnesses and
// Run.RecountCertified brings the run's counts and note up to date.
// VerifyResult checks every claim of a bounds result file against the
// certificates, or lists it as not checked.
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
