package all_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all" // registers every backend
	"github.com/sdcopt/sdcopt/solvers/mps"
)

// wyndor is the Wyndor Glass Co. product-mix LP of Hillier & Lieberman,
// "Introduction to Operations Research", Section 3.1: maximize 3x + 5y
// subject to x <= 4, 2y <= 12, 3x + 2y <= 18, x, y >= 0. Its unique
// optimum is (x, y) = (2, 6) with profit 36.
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

// Read an MPS model and solve it with whatever engine "auto" prefers for
// an LP in this build: CLP with the coin build tag, else HiGHS (always
// built). Only what does not depend on that choice is printed.
func Example() {
	p, err := mps.Read(strings.NewReader(wyndor))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := solvers.NewFor("auto", p)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := s.Solve(p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Status, r.HasSolution)
	fmt.Printf("profit %.6g at x = %.6g, y = %.6g\n", r.Objective, r.X[0], r.X[1])
	fmt.Println("bound equals objective:", math.Abs(r.BestBound-r.Objective) < 1e-9)
	// Output:
	// optimal true
	// profit 36 at x = 2, y = 6
	// bound equals objective: true
}

// Every backend registers its names, whether or not its build tag was
// given; List and Lookup say which ones can run here.
func Example_names() {
	fmt.Println(solvers.Names())
	fmt.Println(solvers.Known("highs"), solvers.Known("auto"))
	fmt.Println(solvers.Known("glpk"))
	// Output:
	// [cbc clp highs lpsolve]
	// <nil> <nil>
	// solvers: glpk: lookup: unknown solver "glpk" (known: auto, cbc, clp, highs, lpsolve)
}
