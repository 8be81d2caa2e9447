package mps_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/mps"
)

// Write a small MIP built with solvers.RowBuilder: a ranged row
// 1 <= x + y <= 4 (a G row with RHS 1 and range 3), an integer column
// with bounds, a free column, and the objective constant 5, written as the
// RHS -5 of the objective row (see the package documentation).
func ExampleWrite() {
	b := solvers.NewRowBuilder(solvers.Maximize)
	x := b.AddVar(2, 0, 10, solvers.Integer, "x")
	y := b.AddVar(-1, -solvers.Inf, solvers.Inf, solvers.Continuous, "y")
	b.SetOffset(5)
	b.AddConstraint(1, 4, []int{x, y}, []float64{1, 1}, "range")
	b.AddConstraint(-solvers.Inf, 3, []int{x}, []float64{3}, "cap")
	p := b.Problem()
	p.Name = "demo"
	if err := mps.Write(os.Stdout, p); err != nil {
		fmt.Println(err)
	}
	// Output:
	// NAME      demo
	// OBJSENSE
	//     MAX
	// ROWS
	//  N  obj
	//  G  range
	//  L  cap
	// COLUMNS
	//     MARKER    'MARKER'  'INTORG'
	//     x         obj       2
	//     x         range     1
	//     x         cap       3
	//     MARKER    'MARKER'  'INTEND'
	//     y         obj       -1
	//     y         range     1
	// RHS
	//     RHS       obj       -5
	//     RHS       range     1
	//     RHS       cap       3
	// RANGES
	//     RNG       range     3
	// BOUNDS
	//  UP BND       x         10
	//  FR BND       y
	// ENDATA
}

// Read a model in fixed or free MPS. Decode also returns the conventions
// it applied: here the classic rule that a negative upper bound on a
// column without a lower bound makes the lower bound -inf.
func ExampleDecode() {
	const text = `NAME          SMALL
ROWS
 N  cost
 G  demand
COLUMNS
    x         cost         1.0   demand       1.0
    y         cost         2.0   demand       1.0
RHS
    RHS       demand       3.0
BOUNDS
 UP BND       y           -1.0
ENDATA
`
	p, warnings, err := mps.Decode(strings.NewReader(text), "small.mps")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Name, p.Sense, p.NumRows(), "rows", p.NumCols(), "columns", p.NumNonzeros(), "nonzeros")
	for j := 0; j < p.NumCols(); j++ {
		fmt.Printf("%s: cost %g, bounds [%g, %g]\n", p.ColName(j), p.Obj[j], p.ColLower[j], p.ColUpper[j])
	}
	fmt.Printf("%s: [%g, %g]\n", p.RowName(0), p.RowLower[0], p.RowUpper[0])
	for _, w := range warnings {
		fmt.Println(w)
	}

	_, err = mps.Read(strings.NewReader("NAME\nROWS\n N obj\nCOLUMNS\n    x obj 1 c7 2\nENDATA\n"))
	fmt.Println(err)
	// Output:
	// SMALL minimize 1 rows 2 columns 2 nonzeros
	// x: cost 1, bounds [0, +Inf]
	// y: cost 2, bounds [-Inf, -1]
	// demand: [3, +Inf]
	// small.mps:11: negative upper bound -1.0 on column "y" with default lower bound 0: lower bound set to -inf
	// mps: line 5: unknown row "c7" in COLUMNS
}
