package mincostflow_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/native/mincostflow"
)

// Choose for each of four rows two columns, every column twice, at least
// total cost: a 2-regular bipartite graph (with b = 1 it would be an
// assignment). The costs form two cheap blocks, {0, 1} and {2, 3}; the
// unique optimum pairs each block with itself, at cost 2 + 6.
func ExampleKRegular() {
	cost := []float64{
		0, 1, 5, 9,
		1, 0, 2, 8,
		5, 2, 0, 3,
		9, 8, 3, 0,
	}
	chosen, total, err := mincostflow.KRegular(4, 2, cost)
	fmt.Println(chosen, total, err)
	// Output:
	// [[0 1] [0 1] [2 3] [2 3]] 8 <nil>
}
