package lp_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/highs" // registers "highs"
)

// LP bounds for the cells of a 2x3 table released through its row and
// column totals [A] [B]: two LPs per cell over the polytope Q, in one
// warm-started HiGHS session. For two-way tables these are the classical
// Fréchet bounds max(0, r_i + c_j − N) <= x_ij <= min(r_i, c_j).
func ExampleCellBounds() {
	tab, _ := model.NewTable([]model.Variable{
		{Name: "A", Levels: []string{"a1", "a2"}},
		{Name: "B", Levels: []string{"b1", "b2", "b3"}},
	}, []int64{
		8, 1, 6,
		1, 2, 2,
	})
	ms, _ := tab.ReleaseSpec("A,B")
	p := lp.CellBoundsProblem(ms, false)
	fmt.Println(p.NumCols(), "columns,", p.NumRows(), "rows")

	s, err := solvers.New("highs", false)
	if err != nil {
		fmt.Println(err)
		return
	}
	var st lp.Stats
	b, err := lp.CellBounds(ms, s, nil, &lp.Options{Stats: &st})
	if err != nil {
		fmt.Println(err)
		return
	}
	for c, n := range tab.Counts {
		fmt.Printf("cell %d: %d in [%g, %g]\n", c, n, b.Lower[c], b.Upper[c])
	}
	fmt.Println(st.Solves, "solves")
	// Output:
	// 6 columns, 5 rows
	// cell 0: 8 in [4, 9]
	// cell 1: 1 in [0, 3]
	// cell 2: 6 in [3, 8]
	// cell 3: 1 in [0, 5]
	// cell 4: 2 in [0, 3]
	// cell 5: 2 in [0, 5]
	// 12 solves
}

// The b-regular selection as a transportation LP (b = 1: an assignment).
// The constraint matrix is totally unimodular, so the optimal vertex is
// 0/1.
func ExampleSolveKRegular() {
	cost := []float64{
		4, 1, 3,
		2, 0, 5,
		3, 2, 6,
	}
	chosen, total, err := lp.SolveKRegular(3, 1, cost, "highs")
	fmt.Println(chosen, total, err)
	// Output:
	// [[2] [1] [0]] 6 <nil>
}
