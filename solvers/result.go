package solvers

import "math"

// Result is what a Solve returns: why the engine stopped (Status) and what
// it found. Fields that the engine did not produce are nil (slices) or NaN
// (BestBound).
//
// Every backend guarantees (through Normalize):
//   - An Infeasible, Unbounded or InfeasibleOrUnbounded result carries no
//     solution: HasSolution is false, X and RowActivity are nil and
//     Objective is NaN, even when the engine stopped at a feasible point
//     on its way to an unbounded ray (that point is not an optimum and its
//     objective means nothing).
//   - More generally, whenever HasSolution is false, X and RowActivity are
//     nil, Objective is NaN and there are no duals.
//   - A result stopped by a limit (TimeLimit, IterationLimit, NodeLimit,
//     SolutionLimit, Interrupted) may carry its incumbent: HasSolution
//     true, X feasible, Objective its value, Status still the limit.
type Result struct {
	// Solver is the engine's registry name.
	Solver string
	// Status is why the engine stopped.
	Status Status
	// HasSolution reports that X holds a primal feasible point (within the
	// engine's tolerances): the optimum when Status is Optimal, the
	// incumbent after a limit.
	HasSolution bool
	// Objective is c'x + offset for X, NaN without a solution.
	Objective float64
	// BestBound is the best proven bound on the optimal objective: equal to
	// Objective for an optimal LP, the dual bound for a MIP, NaN if none.
	BestBound float64
	// X is the primal solution, one value per column (nil without a
	// solution).
	X []float64
	// RowActivity is A x, one value per row (nil without a solution).
	RowActivity []float64
	// HasDuals reports that Duals and ReducedCosts hold an optimal dual
	// solution (LPs solved to optimality by an engine with duals).
	HasDuals bool
	// Duals are the row duals y, ReducedCosts the column reduced costs
	// d = c - Aᵀy, with the package's sign convention (see doc.go).
	Duals        []float64
	ReducedCosts []float64
	// Iterations are simplex/IPM iterations (summed over the tree for MIPs);
	// Nodes are branch-and-bound nodes (0 for LPs).
	Iterations int64
	Nodes      int64
	// Seconds is the wall-clock time of the engine call.
	Seconds float64
	// Warnings lists parameters the engine ignored and similar notes.
	Warnings []string
	// Abandoned reports that the engine did not stop at its time limit and
	// its call was abandoned (Status TimeLimit, no solution): the engine
	// finishes in the background. A session whose solve was abandoned is
	// closed; open a new one to go on.
	Abandoned bool
}

// Gap returns the relative MIP gap |Objective - BestBound| / max(1, |Objective|),
// or +Inf when there is no solution or no bound.
func (r *Result) Gap() float64 {
	if !r.HasSolution || math.IsNaN(r.BestBound) || math.IsInf(r.BestBound, 0) {
		return math.Inf(1)
	}
	return math.Abs(r.Objective-r.BestBound) / math.Max(1, math.Abs(r.Objective))
}

// Normalize makes r satisfy the guarantees documented on Result: it drops
// any solution from an Infeasible, Unbounded or InfeasibleOrUnbounded
// result and, for every result without a solution, sets X, RowActivity,
// Duals and ReducedCosts to nil, HasDuals to false and Objective to NaN.
// Backends call it on every Result they return.
func (r *Result) Normalize() {
	if r.Status.NoSolution() {
		r.HasSolution = false
	}
	if !r.HasSolution {
		r.X, r.RowActivity = nil, nil
		r.Objective = math.NaN()
		r.HasDuals, r.Duals, r.ReducedCosts = false, nil, nil
	}
}
