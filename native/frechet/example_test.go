package frechet_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/frechet"
)

// A 2x2x2 table released through [AB] and [BC]: the graph is the chain
// A-B-C, decomposable with the separator [B].
func ExampleBounds() {
	bin := []string{"0", "1"}
	tab, _ := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}},
		[]int64{3, 1, 0, 2, 4, 0, 1, 5})
	ms, _ := tab.Released([][]int{{0, 1}, {1, 2}})
	d, _ := frechet.Decompose(ms)
	fmt.Println(d, frechet.Decomposable(ms))
	b, _ := frechet.Bounds(ms)
	for i := range b.Lower {
		fmt.Printf("cell %d: count %d in [%g, %g]\n", i, tab.Counts[i], b.Lower[i], b.Upper[i])
	}
	// Output:
	// [AB] [BC] | separators [B] true
	// cell 0: count 3 in [3, 4]
	// cell 1: count 1 in [0, 1]
	// cell 2: count 0 in [0, 1]
	// cell 3: count 2 in [1, 2]
	// cell 4: count 4 in [3, 4]
	// cell 5: count 0 in [0, 1]
	// cell 6: count 1 in [0, 1]
	// cell 7: count 5 in [5, 6]
}
