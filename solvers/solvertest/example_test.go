package solvertest_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// wyndor is the LP of Hillier & Lieberman, "Introduction to Operations
// Research", Section 3.1: maximize 3x + 5y subject to x <= 4, 2y <= 12,
// 3x + 2y <= 18, x, y >= 0.
func wyndor() *solvers.Problem {
	b := solvers.NewRowBuilder(solvers.Maximize)
	x := b.AddVar(3, 0, solvers.Inf, solvers.Continuous, "x")
	y := b.AddVar(5, 0, solvers.Inf, solvers.Continuous, "y")
	b.AddConstraint(-solvers.Inf, 4, []int{x}, []float64{1}, "plant1")
	b.AddConstraint(-solvers.Inf, 12, []int{y}, []float64{2}, "plant2")
	b.AddConstraint(-solvers.Inf, 18, []int{x, y}, []float64{3, 2}, "plant3")
	return b.Problem()
}

// CheckKKT certifies an LP result without a stored optimum: the textbook
// solution x = 2, y = 6 with shadow prices (0, 1.5, 1) passes; the same
// point with the duals of the wrong sign (the convention of a
// minimization) fails, and the message says where.
func ExampleCheckKKT() {
	p := wyndor()
	r := &solvers.Result{
		Status: solvers.Optimal, HasSolution: true, Objective: 36,
		X: []float64{2, 6}, HasDuals: true,
		Duals:        []float64{0, 1.5, 1},
		ReducedCosts: []float64{0, 0}, // d = c - Aᵀy = (3 - 3·1, 5 - 2·1.5 - 2·1)
	}
	fmt.Println(solvertest.CheckKKT(p, r))

	r.Duals = []float64{0, -1.5, -1}
	r.ReducedCosts = []float64{6, 10}
	fmt.Println(solvertest.CheckKKT(p, r))
	// Output:
	// <nil>
	// column 0: reduced cost 6 needs x at upper bound +Inf, x = 2
}

// Enumerate is the reference for small integer programs: it visits every
// integer point within the bounds. Here: maximize 3x + 4y subject to
// 2x + 3y <= 7 over x, y in {0, ..., 4}; (2, 1) is the unique optimum.
func ExampleEnumerate() {
	b := solvers.NewRowBuilder(solvers.Maximize)
	x := b.AddVar(3, 0, 4, solvers.Integer, "x")
	y := b.AddVar(4, 0, 4, solvers.Integer, "y")
	b.AddConstraint(-solvers.Inf, 7, []int{x, y}, []float64{2, 3}, "")
	best, pt, ok := solvertest.Enumerate(b.Problem())
	fmt.Println(best, pt, ok)
	// Output:
	// 10 [2 1] true
}
