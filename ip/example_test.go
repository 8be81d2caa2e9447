package ip_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/highs" // registers "highs"
)

// Sharp integer bounds, two integer programs per cell, for a 2x2x2 table
// released through all its 2-way margins.
func ExampleCellBounds() {
	bin := []string{"no", "yes"}
	tab, _ := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}},
		[]int64{5, 3, 2, 4, 3, 6, 4, 2})
	ms, _ := tab.ReleaseSpec("AB,AC,BC")
	s, err := solvers.New("highs", true)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := ip.CellBounds(ms, s, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for c := range tab.Counts {
		fmt.Printf("[%g,%g] ", b.Lower[c], b.Upper[c])
	}
	fmt.Println()
	// Output:
	// [1,7] [1,7] [0,6] [0,6] [1,7] [2,8] [0,6] [0,6]
}

// The exact GCP-optimal 2-regular generalization graph of four records
// (Doka et al., the MIP of their Section 4), solved by HiGHS. Pairing the
// two young records (box: age [20, 30], sex {F, M}) and the two old ones
// (age [50, 60], sex F) costs 2·1.25 + 2·0.25 = 3 NCP units over 4·2
// record-attributes: GCP 0.375, less than any other pairing.
func ExampleSolveKAnonMIP() {
	t := &model.QITable{
		Attrs: []model.QIAttr{
			{Name: "age", Kind: model.Numeric, Min: 20, Max: 60},
			{Name: "sex", Kind: model.Categorical, Categories: []string{"F", "M"}},
		},
		N: 4,
		X: []float64{
			20, 0,
			30, 1,
			50, 0,
			60, 0,
		},
	}
	res, err := ip.SolveKAnonMIP(t, 2, "highs", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Optimal, res.Graph.Matched)
	fmt.Printf("GCP %.4f\n", res.GCP)
	// Output:
	// optimal true [[0 1] [0 1] [2 3] [2 3]]
	// GCP 0.3750
}
