//go:build cgo && coin

package coin_test

import (
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/coin" // registers "clp" and "cbc"
)

func round(v float64) float64 { return math.Round(v*1e6)/1e6 + 0 }

// The package has no API of its own: importing it registers the engines
// "clp" and "cbc" with package solvers. CLP solves the Wyndor Glass Co. LP
// (Hillier & Lieberman, "Introduction to Operations Research", Section
// 3.1); CBC a small knapsack.
func Example() {
	b := solvers.NewRowBuilder(solvers.Maximize)
	x := b.AddVar(3, 0, solvers.Inf, solvers.Continuous, "x")
	y := b.AddVar(5, 0, solvers.Inf, solvers.Continuous, "y")
	b.AddConstraint(-solvers.Inf, 4, []int{x}, []float64{1}, "plant1")
	b.AddConstraint(-solvers.Inf, 12, []int{y}, []float64{2}, "plant2")
	b.AddConstraint(-solvers.Inf, 18, []int{x, y}, []float64{3, 2}, "plant3")
	r, err := solvers.Solve("clp", b.Problem(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Solver, r.Status, round(r.Objective), round(r.X[x]), round(r.X[y]))
	fmt.Println("duals", round(r.Duals[0]), round(r.Duals[1]), round(r.Duals[2]))

	// maximize 5a + 4b + 3c subject to 2a + 3b + c <= 5, binary.
	k := solvers.NewRowBuilder(solvers.Maximize)
	cols := []int{
		k.AddVar(5, 0, 1, solvers.Binary, "a"),
		k.AddVar(4, 0, 1, solvers.Binary, "b"),
		k.AddVar(3, 0, 1, solvers.Binary, "c"),
	}
	k.AddConstraint(-solvers.Inf, 5, cols, []float64{2, 3, 1}, "weight")
	r, err = solvers.Solve("cbc", k.Problem(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Solver, r.Status, round(r.Objective), round(r.X[0]), round(r.X[1]), round(r.X[2]))
	// Output:
	// clp optimal 36 2 6
	// duals 0 1.5 1
	// cbc optimal 9 1 1 0
}
