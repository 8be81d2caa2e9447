package solvers_test

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all" // registers highs, clp, cbc, lpsolve
	"github.com/sdcopt/sdcopt/solvers/mps"
)

// wyndor is the Wyndor Glass Co. product-mix LP of Hillier & Lieberman,
// "Introduction to Operations Research", Section 3.1, in free MPS:
//
//	maximize   3x + 5y
//	subject to  x       <= 4    (plant 1)
//	                 2y <= 12   (plant 2)
//	           3x + 2y  <= 18   (plant 3),  x, y >= 0
//
// Its unique optimum is x = 2, y = 6 with profit 36; plants 2 and 3 are
// binding, with shadow prices 1.5 and 1 (plant 1 has slack 2, price 0).
const wyndor = `NAME WYNDOR
OBJSENSE
    MAX
ROWS
 N  profit
 L  plant1
 L  plant2
 L  plant3
COLUMNS
    x  profit  3  plant1  1
    x  plant3  3
    y  profit  5  plant2  2
    y  plant3  2
RHS
    RHS  plant1  4  plant2  12
    RHS  plant3  18
ENDATA
`

// round prints v without noise: rounded to 6 decimals, and -0 as 0.
func round(v float64) float64 { return math.Round(v*1e6)/1e6 + 0 }

// Read an MPS model and solve it with an engine named in the registry.
// "auto" instead of "highs" picks the preferred available engine for the
// problem type (see the example of package solvers/all); the optimum is
// unique, so every engine prints the same.
func ExampleNewFor() {
	p, err := mps.Read(strings.NewReader(wyndor))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := solvers.NewFor("highs", p)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := s.Solve(p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name, p.Sense, r.Status)
	fmt.Printf("profit %g at %s = %g, %s = %g\n", round(r.Objective), p.ColName(0), round(r.X[0]), p.ColName(1), round(r.X[1]))
	if r.HasDuals {
		// Package solvers' convention: for a maximization a row at its
		// upper bound has a dual >= 0.
		for i, y := range r.Duals {
			fmt.Printf("shadow price of %s: %g\n", p.RowName(i), round(y))
		}
	}
	// Output:
	// WYNDOR maximize optimal
	// profit 36 at x = 2, y = 6
	// shadow price of plant1: 0
	// shadow price of plant2: 1.5
	// shadow price of plant3: 1
}

// Build a 0-1 knapsack row by row and solve it through the registry:
// maximize 5a + 4b + 3c subject to 2a + 3b + c <= 5. "auto" picks HiGHS
// for integer problems whatever the build tags.
func ExampleRowBuilder() {
	b := solvers.NewRowBuilder(solvers.Maximize)
	a := b.AddVar(5, 0, 1, solvers.Binary, "a")
	bb := b.AddVar(4, 0, 1, solvers.Binary, "b")
	c := b.AddVar(3, 0, 1, solvers.Binary, "c")
	b.AddConstraint(-solvers.Inf, 5, []int{a, bb, c}, []float64{2, 3, 1}, "weight")
	p := b.Problem()

	r, err := solvers.Solve("auto", p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.IsMIP(), r.Solver, r.Status)
	fmt.Printf("value %g, take a=%g b=%g c=%g\n", round(r.Objective), round(r.X[a]), round(r.X[bb]), round(r.X[c]))
	// Output:
	// true highs optimal
	// value 9, take a=1 b=1 c=0
}

// An infeasible model is an outcome (a Status), not an error: the call
// succeeded and proved that no point exists. Errors are for failed calls,
// such as an unknown engine name.
func ExampleSolve() {
	p := &solvers.Problem{Sense: solvers.Minimize}
	// The row says x <= 0, the column's bounds x >= 1.
	row := p.AddRow(-solvers.Inf, 0, "cap")
	p.AddCol(1, 1, solvers.Inf, solvers.Continuous, []int{row}, []float64{1}, "x")

	r, err := solvers.Solve("highs", p, nil)
	fmt.Println(err, r.Status, r.HasSolution, math.IsNaN(r.Objective))

	_, err = solvers.Solve("glpk", p, nil)
	var e *solvers.Error
	fmt.Println(errors.Is(err, solvers.ErrUnknownSolver), errors.As(err, &e), e.Engine, e.Op)
	// Output:
	// <nil> infeasible false true
	// true true glpk lookup
}
