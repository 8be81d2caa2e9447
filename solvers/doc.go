// Package solvers is the engine-neutral layer between sdcopt's formulations
// and the external LP/MIP engines.
//
// A formulation (packages lp, ip, colgen, kanon) builds a plain Problem:
//
//	minimize or maximize  c'x + offset
//	subject to            RowLower <= A x <= RowUpper
//	                      ColLower <=   x <= ColUpper
//	                      x_j integer for j with ColType[j] != Continuous
//
// with A stored column-wise (compressed sparse column). A Solver solves it
// and returns a Result that keeps why the engine stopped (Status) apart from
// what it found (HasSolution, Objective, BestBound, X, duals). An error is
// returned only when the call itself failed (invalid problem, parameters
// out of range, engine crash, unavailable engine); an infeasible model is
// a Result with Status Infeasible and no solution, not an error.
//
// Engines register themselves by name (highs, lpsolve, clp, cbc) in init
// functions; the package sdcopt/solvers/all links every backend that the
// build tags enable. "auto" picks the fastest available engine for the
// problem type; Known checks a name without touching any engine.
//
// Dual convention, shared by every backend and enforced by the conformance
// suite in solvers/solvertest: whatever the objective sense, the row duals y
// and reduced costs d satisfy d = c - Aᵀy. For a minimization, y_i >= 0
// when row i is active at its lower bound and y_i <= 0 at its upper bound;
// d_j >= 0 at the column's lower bound and d_j <= 0 at its upper bound. For
// a maximization the signs are reversed. With these signs strong duality
// reads c'x = Σ y_i·(active row bound) + Σ d_j·(active column bound).
package solvers
