package risk_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// Six records of one attribute microaggregated in two groups of three:
// two of them are nearest to their own original.
func ExampleNumeric() {
	orig, _ := model.NewDataset([]string{"x"}, 6, 1, []float64{0, 1, 3, 4, 10, 12})
	cl, _ := model.NewClustering(6, [][]int{{0, 1, 2}, {3, 4, 5}})
	r, err := risk.Numeric(orig, model.Protect(orig, cl), &risk.NumericOptions{IntervalP: 0.1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("record linkage %.4f, interval disclosure %.4f, IL1s %.4f\n", r.Linkage, r.Interval, r.IL1s)
	// Output: record linkage 0.3333, interval disclosure 0.1667, IL1s 0.3047
}

// Four records of one numeric quasi-identifier published as two pairs:
// every box holds two originals and every original lies in two boxes.
func ExampleGeneralization() {
	t := &model.QITable{Attrs: []model.QIAttr{{Name: "age", Kind: model.Numeric, Min: 20, Max: 40}}, N: 4, X: []float64{20, 25, 35, 40}}
	g := &model.GenGraph{N: 4, Matched: [][]int32{{0, 1}, {0, 1}, {2, 3}, {2, 3}}}
	r, err := risk.Generalization(t, t.Boxes(g), 2, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("max re-identification %.2f, mean %.2f, linkage %.2f\n", r.MaxReidentification, r.MeanReidentification, r.LinkageMean)
	// Output: max re-identification 0.50, mean 0.50, linkage 0.50
}
