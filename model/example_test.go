package model_test

import (
	"errors"
	"fmt"

	"github.com/sdcopt/sdcopt/model"
)

// The information loss of a microaggregation: z-score the records, group
// them, and compare the within-group SSE with the total SST.
func ExampleIL() {
	raw, _ := model.NewDataset([]string{"income"}, 6, 1, []float64{10, 12, 11, 30, 31, 35})
	z, st := model.Standardize(raw)
	c, _ := model.NewClustering(6, [][]int{{0, 1, 2}, {3, 4, 5}})
	fmt.Printf("mean %.2f, sd %.4f\n", st.Mean[0], st.SD[0])
	fmt.Printf("SSE %.4f, SST %.4f, IL %.2f%%\n", model.SSE(z, c), model.SST(z), model.IL(z, c))
	fmt.Println("published:", model.Protect(raw, c).X)
	// Output:
	// mean 21.50, sd 10.6262
	// SSE 0.1417, SST 6.0000, IL 2.36%
	// published: [11 11 11 32 32 32]
}

// Released marginals must agree where they overlap; Check reports the
// first disagreement.
func ExampleMarginSet_Check() {
	bin := []string{"no", "yes"}
	tab, _ := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}},
		[]int64{5, 3, 2, 4, 3, 6, 4, 2})
	ms, _ := tab.ReleaseSpec("AB,BC")
	fmt.Println(ms.Name(), ms.Margins[0].Counts, ms.Margins[1].Counts, ms.Check())

	ms.Margins[1].Counts[0]++ // a typo in the released [BC]
	err := ms.Check()
	var ie *model.InconsistencyError
	fmt.Println(errors.As(err, &ie), err)
	// Output:
	// [AB] [BC] [8 6 9 6] [8 9 6 6] <nil>
	// true inconsistent margins: [AB] and [BC] disagree on [B] at B=no: 17 vs 18 (1 cell(s) of [B] differ)
}

// The GCP of a freeform generalization: four records with a numeric and
// a categorical quasi-identifier, and a 2-regular graph that pairs
// records 0-1 and 2-3 (each published record also holds its own
// original). T0's box is age [20, 30] (NCP 10/40) and sex {F, M} (2/2);
// T2's is age [50, 60] (10/40) and sex F (0).
func ExampleQITable_GCP() {
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
	g := &model.GenGraph{N: 4, Matched: [][]int32{{0, 1}, {0, 1}, {2, 3}, {2, 3}}}
	fmt.Println(t.Check(), g.CheckRegular(2))
	for j, b := range t.Boxes(g) {
		fmt.Printf("T%d: age [%g, %g], NCP sum %.2f\n", j, b.Lo[0], b.Hi[0], t.NCPSum(b))
	}
	fmt.Printf("GCP %.4f\n", t.GCP(g))
	// Output:
	// <nil> <nil>
	// T0: age [20, 30], NCP sum 1.25
	// T1: age [20, 30], NCP sum 1.25
	// T2: age [50, 60], NCP sum 0.25
	// T3: age [50, 60], NCP sum 0.25
	// GCP 0.3750
}
