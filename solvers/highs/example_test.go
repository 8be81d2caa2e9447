package highs_test

import (
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/highs"
)

// wyndor returns the Wyndor Glass Co. LP of Hillier & Lieberman,
// "Introduction to Operations Research", Section 3.1, as a plain Problem
// in column form: maximize 3x + 5y subject to x <= 4, 2y <= 12,
// 3x + 2y <= 18, x, y >= 0 (optimum 36 at x = 2, y = 6).
func wyndor() *solvers.Problem {
	inf := solvers.Inf
	return &solvers.Problem{
		Name:     "wyndor",
		Sense:    solvers.Maximize,
		Obj:      []float64{3, 5},
		ColLower: []float64{0, 0},
		ColUpper: []float64{inf, inf},
		ColNames: []string{"x", "y"},
		RowLower: []float64{-inf, -inf, -inf},
		RowUpper: []float64{4, 12, 18},
		RowNames: []string{"plant1", "plant2", "plant3"},
		ColStart: []int{0, 2, 4}, // column x: rows 0 and 2; column y: rows 1 and 2
		RowIndex: []int{0, 2, 1, 2},
		Value:    []float64{1, 3, 2, 2},
	}
}

func round(v float64) float64 { return math.Round(v*1e6)/1e6 + 0 }

// Solve an LP with the HiGHS backend directly (importing the package also
// registers it as "highs").
func Example() {
	s, err := highs.New()
	if err != nil {
		fmt.Println(err) // the runtime files are missing: see the package documentation
		return
	}
	p := wyndor()
	r, err := s.Solve(p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name(), r.Status, round(r.Objective), round(r.X[0]), round(r.X[1]))
	fmt.Println("duals", round(r.Duals[0]), round(r.Duals[1]), round(r.Duals[2]))
	// Output:
	// highs optimal 36 2 6
	// duals 0 1.5 1
}

// A session keeps the model in one HiGHS instance: after a change the LP
// is re-solved from the previous basis.
func ExampleSolver_NewSession() {
	s, err := highs.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	ses, err := s.NewSession(wyndor(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ses.Close()
	r, _ := ses.Solve()
	fmt.Println("first:", round(r.Objective), round(r.X[0]), round(r.X[1]))

	// Plant 1 may make at most one batch of product x.
	if err := ses.SetColBounds(0, 0, 1); err != nil {
		fmt.Println(err)
		return
	}
	r, _ = ses.Solve()
	fmt.Println("x <= 1:", round(r.Objective), round(r.X[0]), round(r.X[1]))

	// A third product z: profit 4, one hour in plant 1, two in plant 3.
	if err := ses.AddCols([]float64{4}, []float64{0}, []float64{solvers.Inf}, nil,
		[]int{0, 2}, []int{0, 2}, []float64{1, 2}); err != nil {
		fmt.Println(err)
		return
	}
	r, _ = ses.Solve()
	fmt.Println("with z:", r.Status, round(r.Objective), round(r.X[0]), round(r.X[1]), round(r.X[2]))
	// Output:
	// first: 36 2 6
	// x <= 1: 33 1 6
	// with z: optimal 42 0 6 3
}
