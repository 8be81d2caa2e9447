package tabular_test

import (
	"fmt"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
)

func Example() {
	region, _ := tabular.ReadHRC(strings.NewReader("N\n@N1\n@N2\nS\n@S1\n"), "region.hrc", nil)
	micro := "region,sector,turnover\nN1,a,100\nN2,a,50\nN2,b,30\nS1,b,10\n"
	t, err := tabular.ReadMicrodata(strings.NewReader(micro), "micro.csv",
		[]tabular.DimSpec{{Column: "region", H: region}, {Column: "sector"}},
		&tabular.BuildSettings{Response: "turnover"})
	if err != nil {
		panic(err)
	}
	i, _ := t.Lookup("N", "Total")
	fmt.Println(t.CellName(i), t.Cells[i].Value, t.Cells[i].Freq, t.Cells[i].Top[0].Value)
	// 6 region codes × 3 sector codes; relations: 3 region totals × 3 +
	// 1 sector total × 6 region codes.
	fmt.Println(t.Len(), "cells,", t.NumRelations(), "relations")
	fmt.Println(t.CheckConsistent(1e-9))
	// Output:
	// region=N, sector=Total 180 3 100
	// 18 cells, 15 relations
	// <nil>
}
