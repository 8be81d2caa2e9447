package hungarian_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/native/hungarian"
)

// Three workers, three jobs: cost[i*n+j] is the cost of worker i doing
// job j; +Inf forbids a pair. The unique optimum gives job 2 to worker 0,
// job 1 to worker 1 and job 0 to worker 2, at cost 3 + 0 + 3.
func ExampleSolve() {
	inf := math.Inf(1)
	cost := []float64{
		4, 1, 3,
		2, 0, 5,
		3, 2, inf,
	}
	assign, total, err := hungarian.Solve(3, cost)
	fmt.Println(assign, total, err)

	// Two workers who can only do the same job: Hall's condition fails.
	_, _, err = hungarian.Solve(2, []float64{1, inf, 2, inf})
	fmt.Println(errors.Is(err, hungarian.ErrInfeasible))
	// Output:
	// [2 1 0] 6 <nil>
	// true
}
