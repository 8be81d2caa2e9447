// Package solvers is the engine-neutral layer between sdcopt's formulations
// and the external LP/MIP engines.
//
// # Problem
//
// A formulation (packages lp, ip, colgen, kanon) builds a plain Problem:
//
//	minimize or maximize  c'x + offset
//	subject to            RowLower <= A x <= RowUpper
//	                      ColLower <=   x <= ColUpper
//	                      x_j integer for j with ColType[j] != Continuous
//
// with A stored column-wise (compressed sparse column: ColStart, RowIndex,
// Value). Infinite bounds are ±Inf (any value with math.IsInf); a Binary
// column is an integer column whose bounds are intersected with [0, 1].
// Build a Problem directly, column by column with Problem.AddRow and
// Problem.AddCol, or row by row with a RowBuilder; Problem.Validate
// reports malformed input. Package solvers/mps writes any Problem as MPS
// and reads MPS files back, so every model can be replayed in another
// engine.
//
// # Engines and the registry
//
// Engines register themselves by name in init functions: "highs" (package
// solvers/highs, HiGHS compiled to WebAssembly, always built), "clp" and
// "cbc" (package solvers/coin, cgo, build tag coin) and "lpsolve" (package
// solvers/lpsolve, cgo, build tag lpsolve). Import
// github.com/sdcopt/sdcopt/solvers/all for its side effect to link every
// backend; without its build tag a cgo backend still registers its names,
// as unavailable, with the reason (List, Lookup).
//
// New(name, mip) returns a fresh Solver; NewFor(name, p) decides mip from
// p.IsMIP(); Solve(name, p, prm) is NewFor followed by Solver.Solve. The
// name "auto" (or "") picks the available engine of lowest rank for the
// problem type (Engine.LPRank, Engine.MIPRank): for LPs CLP, then HiGHS,
// lp_solve, CBC; for MIPs HiGHS, then CBC, lp_solve. A build without the
// cgo tags therefore uses HiGHS for both. Known checks a name without
// probing any engine; Names lists the registered names. Probing an engine
// (the first New, List or Lookup that needs it) loads it once per process;
// for HiGHS that compiles the WebAssembly module (see package
// solvers/highs), so "auto", which probes every engine, costs a fraction
// of a second at its first call.
//
//	p, err := mps.ReadFile("model.mps")
//	...
//	r, err := solvers.Solve("auto", p, &solvers.Params{TimeLimit: time.Minute})
//	if err != nil { ... }              // the call failed
//	switch {
//	case r.Status == solvers.Optimal:  // r.X, r.Objective, r.Duals (LPs)
//	case r.HasSolution:                // a limit stopped it with an incumbent
//	default:                           // infeasible, unbounded, or no point yet
//	}
//
// # Results, status and errors
//
// A Solver returns a Result that keeps why the engine stopped (Status:
// Optimal, Infeasible, Unbounded, InfeasibleOrUnbounded, a limit, ...)
// apart from what it found (HasSolution, Objective, BestBound, X,
// RowActivity, Duals, ReducedCosts). An infeasible model is a Result with
// Status Infeasible and no solution, not an error; a time limit with a
// feasible incumbent is a Result with Status TimeLimit and HasSolution
// true. Result documents the guarantees every backend gives.
//
// An error is returned only when the call itself failed: an invalid
// problem (ErrInvalidProblem), parameters out of range (ErrInvalidParams),
// an unknown name (ErrUnknownSolver), an engine that cannot run here
// (ErrUnavailable), a feature the engine lacks (ErrUnsupported), an engine
// crash (ErrEngine) or a closed session (ErrClosed). Every such error is
// an *Error naming the engine and the operation and wraps one of these
// sentinels; test with errors.Is. Misuse that is a programmer error
// (mismatched slice lengths in AddCol, AddConstraint, SetObjective, a
// duplicate Register) panics.
//
// # Parameters
//
// Params holds the engine-neutral settings; a nil *Params means
// DefaultParams(): no time limit, MIP gaps DefaultMIPRelGap and
// DefaultMIPAbsGap (tight, because sdcopt uses MIPs to prove bounds),
// the engine's own feasibility tolerance, one thread, the engine's log
// off. Zero fields mean defaults. Params.Raw passes engine-specific
// options through (each backend documents its names); a setting an engine
// cannot honour is reported in Result.Warnings, an unknown raw option is
// an error. Every backend checks Params.Validate first.
//
// # Sessions
//
// Engines with Capabilities.Incremental keep a model alive in a Session:
// add columns or rows, change objective coefficients, sense and bounds,
// and re-solve, warm-started from the previous basis where
// Capabilities.WarmStart says so. Column generation (package colgen) and
// the cell-bounds LPs (package lp) rely on this. ReloadSession is the
// reference implementation that re-solves from scratch.
//
// # Dual convention
//
// Shared by every backend and enforced by the conformance suite in
// solvers/solvertest: whatever the objective sense, the row duals y and
// reduced costs d satisfy d = c - Aᵀy. For a minimization, y_i >= 0 when
// row i is active at its lower bound and y_i <= 0 at its upper bound;
// d_j >= 0 at the column's lower bound and d_j <= 0 at its upper bound.
// For a maximization the signs are reversed. With these signs strong
// duality reads c'x = Σ y_i·(active row bound) + Σ d_j·(active column
// bound). In the Wyndor Glass LP of Hillier & Lieberman (Section 3.1:
// maximize 3x + 5y subject to x <= 4, 2y <= 12, 3x + 2y <= 18) the optimum
// x = 2, y = 6 has y = (0, 1.5, 1) and d = (0, 0): 36 = 12·1.5 + 18·1.
package solvers
