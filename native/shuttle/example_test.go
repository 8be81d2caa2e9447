package shuttle_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/shuttle"
)

// A 2x2x2 table released through all three 2-way margins: the generalized
// shuttle works on T, the cells of every collapse of the table (3 blocks
// per binary variable: 27 T-cells), and the correction step certifies
// each bound by an integer table attaining it. A dichotomous table with
// all (k-1)-way margins is the paper's case (ii), where the shuttle's
// bounds are sharp already; in general the correction step tightens them
// (Table 3: 314 becomes 312).
func ExampleBounds() {
	bin := []string{"no", "yes"}
	tab, _ := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}},
		[]int64{5, 3, 2, 4, 3, 6, 4, 2})
	ms, _ := tab.ReleaseSpec("AB,AC,BC")
	res, err := shuttle.Bounds(ms, shuttle.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("T-cells", res.TCells, "sharp", res.Sharp)
	for c := range tab.Counts {
		fmt.Printf("cell %d: shuttle [%g, %g], corrected [%g, %g]\n", c,
			res.ShuttleBounds.Lower[c], res.ShuttleBounds.Upper[c], res.Bounds.Lower[c], res.Bounds.Upper[c])
	}
	// Output:
	// T-cells 27 sharp true
	// cell 0: shuttle [1, 7], corrected [1, 7]
	// cell 1: shuttle [1, 7], corrected [1, 7]
	// cell 2: shuttle [0, 6], corrected [0, 6]
	// cell 3: shuttle [0, 6], corrected [0, 6]
	// cell 4: shuttle [1, 7], corrected [1, 7]
	// cell 5: shuttle [2, 8], corrected [2, 8]
	// cell 6: shuttle [0, 6], corrected [0, 6]
	// cell 7: shuttle [0, 6], corrected [0, 6]
}
