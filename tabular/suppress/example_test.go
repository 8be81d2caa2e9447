package suppress_test

import (
	"fmt"

	_ "github.com/sdcopt/sdcopt/solvers/all"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/suppress"
)

// The 2×2 table of TestHandExample: cell (r1, c1) = 1 is primary with
// levels 1 up and down, suppression costs the cell's value. The cheapest
// protecting pattern is the interior rectangle, cost 4 + 6 + 3 = 13.
func ExampleSolve() {
	r, _ := tabular.NewFlat("", []string{"r1", "r2"})
	c, _ := tabular.NewFlat("", []string{"c1", "c2"})
	t := tabular.NewTable([]tabular.Dimension{{Name: "row", H: r}, {Name: "col", H: c}})
	for _, x := range []struct {
		row, col string
		v        float64
	}{
		{"Total", "Total", 14}, {"Total", "c1", 7}, {"Total", "c2", 7},
		{"r1", "Total", 5}, {"r1", "c1", 1}, {"r1", "c2", 4},
		{"r2", "Total", 9}, {"r2", "c1", 6}, {"r2", "c2", 3},
	} {
		i, _ := t.Lookup(x.row, x.col)
		t.Cells[i] = tabular.Cell{Value: x.v, Freq: int(x.v), Cost: x.v}
	}
	p, _ := t.Lookup("r1", "c1")
	t.Cells[p].Status, t.Cells[p].Upper, t.Cells[p].Lower = tabular.Primary, 1, 1

	res, err := suppress.Solve(t, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("cost %g, lower bound %.6g, %v, audit ok %v\n", res.Cost, res.LowerBound, res.Stop, res.Audit.OK())
	for i, st := range res.Status {
		if st == tabular.Secondary {
			fmt.Println("secondary:", t.CellName(i))
		}
	}
	// Output:
	// cost 13, lower bound 13, optimal, audit ok true
	// secondary: row=r1, col=c2
	// secondary: row=r2, col=c1
	// secondary: row=r2, col=c2
}
