package intervals_test

import (
	"fmt"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// A JJ file with a coefficient 2: cell 0 = 3 is published, cells 1 and 2
// (both 1) are suppressed, and x1 + 2·x2 = x0. Over the reals x1 lies in
// [0, 3]; over the integers x2 is 0 or 1, so x1 is 3 or 1. The integer
// lower end 1 is reached by an integer table, but the LP bound rounded up
// is 0: the end is the engine's claim, not certified.
func ExampleComputeLinear() {
	jj := "0\n3\n" +
		"0 3 1 s 0 1e20 0 0 0\n" +
		"1 1 1 u 0 1e20 0 0 0\n" +
		"2 1 1 x 0 1e20 0 0 0\n" +
		"1\n0 3 : 0 (-1) 1 (1) 2 (2)\n"
	ls, err := tabular.ReadJJ(strings.NewReader(jj), "example.jj")
	if err != nil {
		panic(err)
	}
	lp, err := intervals.ComputeLinear(ls, nil)
	if err != nil {
		panic(err)
	}
	ip, err := intervals.ComputeLinear(ls, &intervals.Settings{Integer: true})
	if err != nil {
		panic(err)
	}
	x1, i1 := lp.Intervals[0], ip.Intervals[0]
	fmt.Printf("LP: %s in [%g, %g]\n", x1.Name, x1.Lower, x1.Upper)
	fmt.Printf("integer: %s in [%g, %g]\n", i1.Name, i1.Lower, i1.Upper)
	fmt.Printf("lower end: reached %g, outer bound %g, certified %v\n", i1.LowerInt.Reached, i1.LowerInt.Outer, i1.LowerInt.Certified)
	fmt.Printf("upper end: reached %g, outer bound %g, certified %v\n", i1.UpperInt.Reached, i1.UpperInt.Outer, i1.UpperInt.Certified)
	fmt.Println("verify:", intervals.VerifyLinear(ls, ip, nil))
	// Output:
	// LP: cell 1 in [0, 3]
	// integer: cell 1 in [1, 3]
	// lower end: reached 1, outer bound 0, certified false
	// upper end: reached 3, outer bound 3, certified true
	// verify: <nil>
}
