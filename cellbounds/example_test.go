package cellbounds_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
)

// A 2x2x2 table of counts (cells in row-major order: A slowest, C
// fastest) and the bounds an intruder derives from two sets of released
// margins.
//
// [AB] [BC] are the cliques of the chain A-B-C, a decomposable graph:
// "auto" uses the closed-form bounds of Theorem 1 (Section 3). All three
// 2-way margins [AB] [AC] [BC] make a triangle whose clique [ABC] is not
// released: neither Theorem 1 nor Theorem 2 applies, and "auto" runs the
// generalized shuttle with its correction step (Section 4). Both are
// sharp: every bound is attained by some table with those margins. With
// all 2-way margins the table has one degree of freedom: x_000 = t fixes
// every cell, and non-negativity leaves t in [1, 7]. No engine is needed.
func ExampleCompute() {
	bin := []string{"no", "yes"}
	tab, err := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}},
		[]int64{5, 3, 2, 4, 3, 6, 4, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("counts", tab.Counts)
	for _, spec := range []string{"AB,BC", "AB,AC,BC"} {
		ms, err := tab.ReleaseSpec(spec) // what the intruder knows
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := cellbounds.Compute(ms, cellbounds.Settings{}) // Method "" = "auto"
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s by %s, sharp %v:", ms.Name(), res.Bounds.Method[0], res.Sharp)
		for c := range tab.Counts {
			fmt.Printf(" [%g,%g]", res.Bounds.Lower[c], res.Bounds.Upper[c])
		}
		fmt.Println()
	}
	// Output:
	// counts [5 3 2 4 3 6 4 2]
	// [AB] [BC] by frechet, sharp true: [0,8] [0,8] [0,6] [0,6] [0,8] [1,9] [0,6] [0,6]
	// [AB] [AC] [BC] by shuttle, sharp true: [1,7] [1,7] [0,6] [0,6] [1,7] [2,8] [0,6] [0,6]
}
