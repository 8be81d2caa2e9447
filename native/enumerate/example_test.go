package enumerate_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// Price groups of three among six records on a line, with duals λ that
// favour the records 3, 4 and 5: the best group minimizes
// Σ_{i<j∈C} c_ij/3 − Σ_{v∈C} λ_v. For {3, 4, 5} that is (1 + 4 + 1)/3 − 6
// = −4; for {0, 1, 2}, 2 − 3 = −1.
func ExampleSolve() {
	ds, _ := model.NewDataset(nil, 6, 1, []float64{0, 1, 2, 10, 11, 12})
	p := &model.PricingInstance{
		Dist:   model.NewSqDist(ds),
		Lambda: []float64{1, 1, 1, 2, 2, 2},
		Eta:    3,
	}
	res, err := enumerate.Solve(p, &enumerate.Options{MaxColumns: 2, Workers: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Columns {
		fmt.Printf("%v reduced cost %.4f\n", c.Members, c.ReducedCost)
	}
	fmt.Printf("complete %v, lower bound %.4f, root bound %.4f\n", res.Complete, res.LowerBound, enumerate.RootBound(p))
	// Output:
	// [3 4 5] reduced cost -4.0000
	// [0 1 2] reduced cost -1.0000
	// complete true, lower bound -4.0000, root bound -4.0000
}
