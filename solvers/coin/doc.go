// Package coin registers the COIN-OR engines "clp" (LP) and "cbc" (MIP, and
// LPs through CLP) with package solvers, through a narrow cgo binding to the
// C interfaces of Debian's coinor-libclp-dev (CLP 1.17) and
// coinor-libcbc-dev (CBC 2.10). All cgo code is in binding.go; it is
// compiled only with the build tag "coin" and cgo (go build -tags coin).
// Without them a stub registers both names as unavailable.
//
// # Problem mapping
//
// A Problem min/max c'x + offset, RowLower <= Ax <= RowUpper,
// ColLower <= x <= ColUpper is loaded column-wise (Clp_loadProblem /
// Cbc_loadProblem; CoinBigIndex is a C int in these builds, checked at
// compile time). ±Inf bounds become ±COIN_DBL_MAX. The sense is the
// engines' direction (1 minimize, -1 maximize). The offset is never given
// to the engines (CLP subtracts its own offset, an MPS convention): the
// backend adds it to the engine's objective value. Binary columns are
// integer columns with bounds intersected with [0, 1].
//
// # Duals
//
// CLP's row prices y (Clp_getRowPrice) and reduced costs d
// (Clp_getReducedCost) already satisfy d = c - Aᵀy for both senses, with
// y_i >= 0 at an active lower row bound of a minimization and the reversed
// signs for a maximization: exactly the package convention, so they are
// passed through (checked by hand-computed LPs in TestLPDuals and by the
// conformance suite). Duals are reported only for an Optimal status.
//
// # clp
//
// Solve runs CLP's general driver (Clp_initialSolveWithOptions) with
// presolve and the automatic method choice. Status mapping: 0 → Optimal; 1 →
// Infeasible; 2 (dual infeasible) → Unbounded when the final point is
// primal feasible, otherwise InfeasibleOrUnbounded; 3 (iteration or time
// limit) → IterationLimit when the raw "max_iterations" was reached,
// otherwise TimeLimit when a time limit was set; 4 → NumericalTrouble; 5 →
// Interrupted. After a limit, HasSolution reports whether CLP's current
// point is primal feasible (Clp_checkSolution). Infeasible, Unbounded and
// InfeasibleOrUnbounded results carry no solution (solvers.Result).
//
// Raw options (Params.Raw) for clp, and for LPs given to cbc:
//
//	presolve        on | off                      (default on)
//	algorithm       auto | dual | primal | barrier (default auto)
//	scaling         off | equilibrium | geometric | auto | dynamic
//	perturbation    on | off | auto
//	max_iterations  non-negative integer
//	dual_tolerance  positive number
//
// Any other name fails with ErrUnsupported. Params.FeasTol sets CLP's
// primal tolerance; Threads > 1 is reported as ignored (CLP's simplex is
// single-threaded); MIP gaps do not apply.
//
// # clp sessions
//
// NewSession keeps the Clp_Simplex alive. AddCols and AddRows go to
// Clp_addColumns / Clp_addRows; objective, sense and bound changes are
// recorded in Go copies of the rim vectors and pushed to CLP (Clp_chg*)
// right before the next Solve. The first Solve runs the initial driver;
// later Solves re-optimize from the previous basis: primal simplex
// (Clp_primal) when only columns were added or the objective or sense
// changed (the old basis stays primal feasible), dual simplex (Clp_dual)
// when only rows were added or bounds changed (the basis stays dual
// feasible), primal simplex when both kinds changed. A warm solve that ends
// with status 4 is repeated from scratch.
//
// Measured on a 400-row set-partitioning master LP (solvertest
// generators, bench_test.go): after adding 100 columns to 4000, the warm
// primal re-solve takes 238 iterations where a cold dual simplex solve of
// the enlarged LP takes 1773; in CPU time the warm re-solve (≈35 ms) is
// about half of a cold solve with the automatic method (≈70 ms) and a
// seventh of a cold dual simplex (≈240 ms).
//
// # cbc
//
// A problem without integer columns given to cbc is solved by the CLP path
// above (so cbc has duals for LPs). A MIP gets a fresh Cbc_Model per solve
// (CBC does not support re-solving a solved model; sessions reload via
// solvers.ReloadSession, so WarmStart is false). Parameters go both to the
// model setters and to the command line that Cbc_solve hands to CBC's
// standalone driver (Cbc_setParameter): "log 0" and "slog 0" unless
// Verbose, "timeMode elapsed" (Params.TimeLimit is wall-clock; CBC counts
// CPU time by default) and "seconds", "allowableGap", "ratioGap",
// "primalTolerance", and "threads" when Threads > 1 (the Debian build has
// threads). Raw options are a documented list of CBC driver options (cuts,
// preprocess, heuristics, presolve, strategy, maxNodes, maxSolutions,
// randomSeed, integerTolerance, cutoff, the individual cut generators and
// heuristics, ...; see cbcRaw in cbc.go), passed as "-name value"; other
// names fail with ErrUnsupported.
//
// Status mapping: Cbc_isProvenOptimal → Optimal; isContinuousUnbounded →
// Unbounded when CBC found an integer feasible point (a feasible MIP with
// an unbounded relaxation is unbounded), otherwise InfeasibleOrUnbounded
// (CBC only knows that the relaxation is unbounded); isProvenInfeasible →
// Infeasible; isSecondsLimitReached → TimeLimit; isNodeLimitReached →
// NodeLimit; isSolutionLimitReached → SolutionLimit; isAbandoned →
// NumericalTrouble. For Optimal and the limits, HasSolution is
// Cbc_bestSolution != NULL; an Unbounded result drops the point CBC found
// (solvers.Result). Objective and RowActivity are recomputed from X and
// the original Problem; BestBound is
// Cbc_getBestPossibleObjValue (already in the user's sense) plus the
// offset.
//
// # Quirks of the Debian builds
//
//   - CBC 2.10.8's MIP preprocessing (CglPreProcess) returns wrong
//     "optimal" solutions on small integer programs with ranged rows (67 of
//     20000 random programs from solvertest.RandomIntegerProgram, 63 of them
//     with ranged rows). The backend therefore hands CBC every ranged row
//     lo <= a·x <= up as the two rows a·x <= up and -a·x <= -lo (splitting
//     into the same-sign rows a·x >= lo and a·x <= up did not help). This
//     leaves about 1 wrong optimum in 4000 of these random programs, with
//     general integer columns and without ranged rows, which only disabling
//     preprocessing avoids. For this reason "auto" prefers HiGHS for MIPs
//     (MIPRank 2 here); cbc stays available by name.
//   - With preprocessing off ("preprocess": "off"), CBC aborts the whole
//     process on an assertion in OsiClpSolverInterface::crunch for about one
//     in 1200 of the same random programs (models that the LP presolve fixes
//     completely). The backend allows the option but warns.
//   - Cbc_solve runs CBC's standalone driver, which keeps process-wide
//     state; CBC solves are serialized by a package mutex. Through the C
//     interface the driver does not install its own SIGINT handler (its
//     CbcSolverUsefulData has useSignalHandler_ false), but the root LP
//     goes through CLP's initial solve, which does (see Signals).
//   - With log level 0 neither engine prints anything; Verbose output goes
//     to stdout (the engines' message handlers), not stderr.
//   - CLP's time limit (Clp_setMaximumSeconds) counts process CPU time from
//     the moment it is set, so it is re-armed before every solve; with
//     several concurrent solves in one process it expires early.
//   - With the automatic method CLP may solve with its Idiot crash and a
//     primal clean-up; Result.Iterations then counts only the clean-up's
//     simplex iterations (often 0).
//
// # Signals
//
// ClpSimplex::initialSolve (CLP 1.17.6, ClpSolve.cpp) installs a SIGINT
// handler of its own with signal(3), which makes CLP stop its current LP,
// and re-installs the previous handler with signal(3) at the end (not on
// its early returns). It runs for every clp initial solve and, inside
// Cbc_solve, for CBC's root LP; Clp_primal and Clp_dual do not touch
// signals, nor does anything else the backend calls (nm -D shows that
// libClp and libCbcSolver import signal and no other signal function;
// libCbcSolver's one call, in CbcMain1, is disabled for the C interface).
// signal(3) drops SA_ONSTACK and SA_SIGINFO from the Go runtime's handler,
// and the next SIGINT on a thread running Go code killed the process
// ("non-Go code set up signal handler without SA_ONSTACK flag"); while
// CLP's handler was installed, a SIGINT never reached os/signal.
//
// The backend therefore (signals.c, signals.go):
//   - asks CLP not to install its handler (ClpSolve special option 2);
//   - brackets every engine call that solves (Clp_initialSolveWithOptions,
//     Clp_primal, Clp_dual, Cbc_solve): the SIGINT and SIGTERM actions are
//     saved before and restored exactly after the call if they changed;
//   - defines signal(3) for the process: during such a call a
//     signal(SIGINT or SIGTERM, h) is recorded and answered as the C
//     library would, but not installed (CBC's root LP cannot be configured
//     through the C interface). Outside engine calls, and for other
//     signals, it is the C library's signal(3).
//
// So the Go runtime's handlers stay installed, with their flags, through
// every solve, and a SIGINT or SIGTERM reaches os/signal at once; the
// engines themselves are never interrupted by a signal and run to their
// own limits (set Params.TimeLimit to bound them). A Go program that
// calls signal.Ignore or signal.Reset for SIGINT or SIGTERM while a solve
// is running has that change undone when the solve ends.
//
// Every Clp_Simplex and Cbc_Model is freed explicitly (Close, or right
// after a one-shot Solve), with a runtime cleanup as a safety net.
package coin
