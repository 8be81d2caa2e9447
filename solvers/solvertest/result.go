package solvertest

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdcopt/sdcopt/solvers"
)

// CheckResult verifies the guarantees of solvers.Result that hold for every
// result, whatever the problem's optimum:
//   - the status is one of the named statuses;
//   - an Infeasible, Unbounded or InfeasibleOrUnbounded result has no
//     solution;
//   - without a solution, X and RowActivity are nil, Objective is NaN and
//     there are no duals;
//   - with a solution, X has one finite value per column, RowActivity (when
//     set) one per row, and Objective is finite;
//   - duals come with a solution and have the problem's dimensions.
func CheckResult(p *solvers.Problem, r *solvers.Result) error {
	if strings.HasPrefix(r.Status.String(), "Status(") {
		return fmt.Errorf("status %v is not a named status", r.Status)
	}
	if r.Status.NoSolution() && r.HasSolution {
		return fmt.Errorf("status %v with HasSolution true", r.Status)
	}
	n, m := p.NumCols(), p.NumRows()
	if !r.HasSolution {
		switch {
		case r.X != nil:
			return fmt.Errorf("status %v without a solution: X = %v, want nil", r.Status, r.X)
		case r.RowActivity != nil:
			return fmt.Errorf("status %v without a solution: RowActivity = %v, want nil", r.Status, r.RowActivity)
		case !math.IsNaN(r.Objective):
			return fmt.Errorf("status %v without a solution: Objective = %v, want NaN", r.Status, r.Objective)
		case r.HasDuals || r.Duals != nil || r.ReducedCosts != nil:
			return fmt.Errorf("status %v without a solution but with duals", r.Status)
		}
		return nil
	}
	if len(r.X) != n {
		return fmt.Errorf("status %v: len(X) = %d, want %d", r.Status, len(r.X), n)
	}
	for j, x := range r.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("status %v: X[%d] = %v", r.Status, j, x)
		}
	}
	if r.RowActivity != nil && len(r.RowActivity) != m {
		return fmt.Errorf("status %v: len(RowActivity) = %d, want %d", r.Status, len(r.RowActivity), m)
	}
	if math.IsNaN(r.Objective) || math.IsInf(r.Objective, 0) {
		return fmt.Errorf("status %v: objective %v with a solution", r.Status, r.Objective)
	}
	if r.HasDuals && (len(r.Duals) != m || len(r.ReducedCosts) != n) {
		return fmt.Errorf("status %v: %d duals and %d reduced costs, want %d and %d", r.Status, len(r.Duals), len(r.ReducedCosts), m, n)
	}
	return nil
}

// noSolutionCase is a problem without an optimal solution and the statuses
// an engine may report for it.
type noSolutionCase struct {
	p  *solvers.Problem
	ok []solvers.Status
}

var (
	infeasible = []solvers.Status{solvers.Infeasible, solvers.InfeasibleOrUnbounded}
	unbounded  = []solvers.Status{solvers.Unbounded, solvers.InfeasibleOrUnbounded}
)

// noSolutionLPs are infeasible and unbounded LPs, each with the reason.
func noSolutionLPs() []noSolutionCase {
	inf := math.Inf(1)
	var cs []noSolutionCase
	add := func(ok []solvers.Status, p *solvers.Problem) { cs = append(cs, noSolutionCase{p, ok}) }

	// minimize -x subject to x - y ≤ 1, x, y ≥ 0: along (1, 1) the row
	// stays at 0 and the objective decreases without bound.
	p := &solvers.Problem{Name: "unbounded_min"}
	p.AddRow(-inf, 1, "")
	p.AddCol(-1, 0, inf, solvers.Continuous, []int{0}, []float64{1}, "x")
	p.AddCol(0, 0, inf, solvers.Continuous, []int{0}, []float64{-1}, "y")
	add(unbounded, p)

	// maximize x + 2y subject to x + y ≤ 4, x free, y ≥ 0: on the row,
	// x = 4 - y gives 4 + y, unbounded above.
	p = &solvers.Problem{Name: "unbounded_max_free_column", Sense: solvers.Maximize}
	p.AddRow(-inf, 4, "")
	p.AddCol(1, -inf, inf, solvers.Continuous, []int{0}, []float64{1}, "x")
	p.AddCol(2, 0, inf, solvers.Continuous, []int{0}, []float64{1}, "y")
	add(unbounded, p)

	// minimize 3 - x with x ≥ 2 and no rows at all.
	p = &solvers.Problem{Name: "unbounded_no_rows", Offset: 3}
	p.AddCol(-1, 2, inf, solvers.Continuous, nil, nil, "x")
	add(unbounded, p)

	// minimize -x - y subject to x ≤ 5, with y ≥ 2 in no row: y alone is
	// unbounded (lp_solve 5.5 once called this optimal, with y = 1e30).
	p = &solvers.Problem{Name: "unbounded_empty_column"}
	p.AddRow(-inf, 5, "")
	p.AddCol(-1, 0, inf, solvers.Continuous, []int{0}, []float64{1}, "x")
	p.AddCol(-1, 2, inf, solvers.Continuous, nil, nil, "y")
	add(unbounded, p)

	// x + y ≥ 3 and x + y ≤ 2.
	p = &solvers.Problem{Name: "infeasible_rows"}
	p.AddRow(3, inf, "")
	p.AddRow(-inf, 2, "")
	p.AddCol(1, 0, inf, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(1, 0, inf, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "y")
	add(infeasible, p)

	// x + y = 1 and x + y = 2 with free columns (maximize, with an
	// objective that would be unbounded if the rows allowed it).
	p = &solvers.Problem{Name: "infeasible_equalities", Sense: solvers.Maximize}
	p.AddRow(1, 1, "")
	p.AddRow(2, 2, "")
	p.AddCol(1, -inf, inf, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(-1, -inf, inf, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "y")
	add(infeasible, p)

	// x, y ∈ [0, 1] cannot reach x + y ≥ 3.
	p = &solvers.Problem{Name: "infeasible_by_bounds"}
	p.AddRow(3, inf, "")
	p.AddCol(1, 0, 1, solvers.Continuous, []int{0}, []float64{1}, "x")
	p.AddCol(1, 0, 1, solvers.Continuous, []int{0}, []float64{1}, "y")
	add(infeasible, p)
	return cs
}

// noSolutionMIPs are infeasible and unbounded MIPs.
func noSolutionMIPs() []noSolutionCase {
	inf := math.Inf(1)
	var cs []noSolutionCase
	add := func(ok []solvers.Status, p *solvers.Problem) { cs = append(cs, noSolutionCase{p, ok}) }

	// maximize x + y subject to x - y ≤ 1, x, y ≥ 0 integer: (0, 0) is
	// feasible and (k, k) is feasible for every k.
	p := &solvers.Problem{Name: "mip_unbounded", Sense: solvers.Maximize}
	p.AddRow(-inf, 1, "")
	p.AddCol(1, 0, inf, solvers.Integer, []int{0}, []float64{1}, "x")
	p.AddCol(1, 0, inf, solvers.Integer, []int{0}, []float64{-1}, "y")
	add(unbounded, p)

	// maximize k + z subject to k ≤ 3, with integer k and an integer z ≥ 0
	// in no row.
	p = &solvers.Problem{Name: "mip_unbounded_empty_column", Sense: solvers.Maximize}
	p.AddRow(-inf, 3, "")
	p.AddCol(1, 0, inf, solvers.Integer, []int{0}, []float64{1}, "k")
	p.AddCol(1, 0, inf, solvers.Integer, nil, nil, "z")
	add(unbounded, p)

	// minimize -y subject to y - 10b ≥ -5 with b binary and y ≥ 0
	// continuous: (0, 0) is feasible and y grows without bound.
	p = &solvers.Problem{Name: "mip_unbounded_continuous_part"}
	p.AddRow(-5, inf, "")
	p.AddCol(0, 0, 1, solvers.Binary, []int{0}, []float64{-10}, "b")
	p.AddCol(-1, 0, inf, solvers.Continuous, []int{0}, []float64{1}, "y")
	add(unbounded, p)

	// x + y ≥ 3 and x + y ≤ 2 with integer x, y: the relaxation is
	// already infeasible.
	p = &solvers.Problem{Name: "mip_infeasible_relaxation"}
	p.AddRow(3, inf, "")
	p.AddRow(-inf, 2, "")
	p.AddCol(1, 0, 10, solvers.Integer, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(1, 0, 10, solvers.Integer, []int{0, 1}, []float64{1, 1}, "y")
	add(infeasible, p)

	// 2a + 2b + 2c = 3 with binary a, b, c: the left side is even. The
	// relaxation is feasible (a = 1, b = 0.5).
	p = &solvers.Problem{Name: "mip_infeasible_parity", Sense: solvers.Maximize}
	p.AddRow(3, 3, "")
	for _, name := range []string{"a", "b", "c"} {
		p.AddCol(1, 0, 1, solvers.Binary, []int{0}, []float64{2}, name)
	}
	add(infeasible, p)
	return cs
}

func checkNoSolution(s solvers.Solver, cases []noSolutionCase) error {
	for _, c := range cases {
		if err := expectStatus(s, c.p, c.ok...); err != nil {
			return err
		}
	}
	return nil
}

// checkNoSolutionLP: infeasible and unbounded LPs get a status that says
// so and no solution (X nil, Objective NaN).
func checkNoSolutionLP(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	return checkNoSolution(s, noSolutionLPs())
}

// checkNoSolutionMIP: the same for infeasible and unbounded MIPs.
func checkNoSolutionMIP(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	return checkNoSolution(s, noSolutionMIPs())
}
