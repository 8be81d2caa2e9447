// Package shuttle computes bounds for the cells of a contingency table
// given released marginals by the generalized shuttle algorithm of Dobra
// and Fienberg, "Bounds for cell entries in contingency tables induced by
// fixed marginal totals" (Section 4), followed by the paper's correction
// step, which makes the bounds sharp integer bounds. Pure Go, no engine.
//
//	res, err := shuttle.Bounds(ms, shuttle.DefaultOptions())
//	// res.Bounds (corrected), res.ShuttleBounds, res.LowerSharp/UpperSharp, res.Sharp
//
// Estimate predicts the memory of a run from the dimensions alone;
// Result.Marginal reads the bounds of any marginal's cells. Package
// cellbounds chooses between this and the other methods.
//
// # The set T and its two-cell dependencies
//
// A cell of T picks, for every variable, a block: a nonempty set of its
// categories (the full set means the table is collapsed across that
// variable). Its value is the sum of the full-table cells inside. The
// paper's T (cells of all dichotomizations of all collapses) uses every
// subset as a block; with c categories that is 2^c - 1 blocks per
// variable, so this package uses
//
//   - all 2^c - 1 subsets when c <= Options.AllSubsetsMax (default 4):
//     exactly the paper's T for those variables;
//   - otherwise the contiguous intervals [a, b] of the ordered categories
//     plus the complements of the inner singletons: c(c+1)/2 + (c-2)
//     blocks (c = 5: 18, c = 10: 63).
//
// |T| is the product of the family sizes (Result.Blocks, Result.TCells):
// 3^k for a 2^k table, 18^4 = 104,976 for 5x5x5x5, 63^3 = 250,047 for
// 10x10x10. Any family holding the singletons and the full set keeps the
// bounds valid (released cells are T-cells, every T-cell is a sum of
// full-table cells); every block of both families other than a singleton
// splits into two disjoint blocks of the family, so a complete table
// determines every T-cell through the dependencies (used by the search
// below). The correction step makes the bounds sharp whatever the family;
// a smaller family only weakens the propagation.
//
// A T-cell is a mixed-radix index over block ids. The dependencies
// t12 = t1 + t2 (t1, t2 differ in one variable, with disjoint blocks whose
// union t12 has) are stored as three flat int32 arrays with a CSR index of
// the dependencies each cell is in; per variable they number the splits
// b12 = b1 ∪ b2 within its family (1 for c = 2, 6 for c = 3, 25 for c = 4,
// 181 for c = 10) times the product of the other family sizes.
//
// # The shuttle
//
// Every T-cell starts in [0, N], N the grand total; the T-cells of a
// released marginal (singletons on its variables, full blocks elsewhere)
// are fixed to its counts. Then the two-cell rules
//
//	t12 ∈ [t1L + t2L, t1U + t2U],   t1 ∈ [t12L - t2U, t12U - t2L]
//
// are applied with integer arithmetic from a worklist of cells whose bounds
// moved until nothing moves. A lower bound above an upper bound proves that
// no real (hence no integer) table has the margins: ErrNoIntegerTable.
// Margins that disagree on a shared sub-margin are caught before, by
// model.MarginSet.Check (the error wraps both ErrNoIntegerTable and the
// *model.InconsistencyError). Result.ShuttleBounds holds these bounds. They
// are sharp for decomposable margins (Theorem 1) and for a 2^k table with
// all (k-1)-way margins (the paper's cases (i) and (ii)), not in general
// (Table 3: the shuttle gives 314 where the sharp bound is 312).
//
// # The correction step
//
// For every full-table cell (and every cell of Options.Marginals) and each
// of its two bounds v, a depth-first search looks for an integer table with
// that cell equal to v: it fixes the cell, propagates, and assigns the
// full-table cells one after another within their current intervals
// (branches: the cell at its guess, then the ranges below and above),
// propagating after each branch and backtracking on a crossed bound. A leaf
// where every full-table cell is fixed is an integer table with the
// margins (the propagation has then determined every T-cell, including
// every released one). If the search exhausts its tree, v is unattainable:
// the bound moves one step inward at the root, where it is propagated to
// all of T, and the search repeats. Every table found certifies, for every
// target cell, the values it takes, so most bounds need no search of their
// own. Before all that one search looks for any integer table: none means
// ErrNoIntegerTable (margins consistent in the reals but with no lattice
// point).
//
// The guesses come from iterative proportional fitting: a fit of the
// margins at the start (ipfGuess) and, at every node, a few sweeps re-fitting
// the free cells to the margins minus the fixed cells (refitter); a search
// for a bound starts from the last table found.
//
// # What is proven
//
// Every bound returned is valid: the shuttle bounds are implied by the
// margins, and every inward move is backed by an exhausted search.
// Result.UpperSharp[i] (LowerSharp[i]) is true when an integer table found
// attains the bound, so the bound is sharp. Result.Sharp is true only when
// every bound of every target is attained. Options.MaxNodes bounds the
// nodes of each search; a search that runs out leaves its bound valid but
// unproven (Result.Unsettled counts them, Result.Note says so). Without a
// budget the correction terminates (every branch narrows an interval) and
// gives the sharp integer bounds; that is the claim of the paper's
// Section 4, here checked against brute-force enumeration.
//
// Result.Marginal reads bounds of any marginal's cells from the final
// bounds of T; they are certified (sharp) when the tables found attain
// them, which Options.Marginals guarantees by running the correction on
// those cells too.
//
// # Complexity
//
// Building T costs O(|T| + deps) time and about 24 bytes per dependency;
// the shuttle evaluates each dependency a few times (2^8 with all 3-way
// margins: 17,496 dependencies, 3 ms; 10x10x10 with all 2-way margins: 2.2
// million dependencies, 0.25 s). The correction step is an integer search
// (the sharp-bounds problem is NP-hard, Roehrig 1999): each node costs a
// propagation over the T-cells containing the changed cell plus a re-fit
// over the full table. It is fast where the propagation is strong (the
// autoworkers cases: 10-70 ms, a few thousand nodes in all) and can be very
// slow where the shuttle intervals are wide and the margins leave many
// degrees of freedom; use Options.MaxNodes there. Measured (seeded
// Poisson(4) tables, 200 nodes per search, 2 cores shared): 2^8 with all
// 3-way margins (163 free dimensions) ran 7,871 searches and 71,791 nodes
// in 113 s, moved all 256 cells' bounds inward by exhausted searches, and
// left 256 bounds unproven; on 5x5x5x5 and 10x10x10 with all 2-way margins
// a node costs 17-30 ms (fixing one cell moves thousands of T-cells) and a
// single dive needs about one node per free cell, so 200 nodes do not reach
// a first table and the result is the shuttle bounds, marked not sharp.
//
// # Memory and time limits
//
// T itself is modest: 24 bytes a dependency and 49 bytes a T-cell (2^12
// binary variables with all 2-way margins: |T| = 3^12 = 531,441, 2.1
// million dependencies, 74 MiB with the state). What grows is the
// correction step's trail: every bound a search changes is recorded so that
// backtracking can restore it, and a dive to a first table has one level
// per full-table cell, each changing a large share of T. Measured on seeded
// Poisson(4) tables with all 2-way margins: on 2^10, 14,500 entries a level
// on average (280 MB at depth 800 of 1,024); on 2^12, 76,000 entries a
// level at first, 430,000 (80% of T) by level 85, so 30-40 GB for one dive
// of 4,096 levels at 24 bytes an entry, besides 8 bytes a cell per level
// for the re-fitted tables. That is what grew without limit. Recording a
// T-cell at most once per level (stamps) saves little there, but bounds a
// level by |T|.
//
// Estimate therefore computes, from the dimensions alone, Memory.Shuttle (T,
// the dependencies, the propagation state with its ring queue of at most
// |T| cells, the results) and Memory.Correction (a dive of one level per
// full-table cell, each recording at most all of T at 36 bytes an entry
// with the growth of the array, and the search's fixed structures). With
// all 2-way margins, Memory.Shuttle is 0.7 MiB for 2^8, 7.3 MiB for 2^10,
// 74 MiB for 2^12, 19 MiB for 5^4 and 61 MiB for 10^3; Memory.Correction is
// 58 MiB, 2.0 GiB, 73 GiB, 2.2 GiB and 8.4 GiB. Bounds refuses with
// ErrTooLarge when Memory.Shuttle exceeds Options.MemoryLimit (half of the
// physical memory by default), skips the correction step when
// Memory.Correction does not fit in the rest (Result.Stopped =
// StoppedMemoryLimit, with the valid shuttle bounds), and otherwise caps
// the trail at what the rest allows after the levels' re-fitted tables and
// the tables kept for Marginal (at most an eighth of it): a search that
// would exceed it stops and leaves every bound valid (dives deeper than
// one level a cell are possible, since range branches do not fix a cell).
//
// Options.Deadline stops building T (between variables), the propagation
// (every 4,096 dependency evaluations) and the correction step (every
// search node): the bounds at that moment are valid (the trivial bounds
// before T exists) and Result.Stopped is StoppedTimeLimit.
package shuttle
