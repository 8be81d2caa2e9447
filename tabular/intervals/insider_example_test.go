package intervals_test

import (
	"fmt"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// A 2×2 frequency table whose suppressed rectangle protects (N, a) = 5
// against an outsider: it lies in [5 − min(5, 4), 5 + min(1, 1)] = [1, 6]
// (the rectangle's other corners are (N, b) = 1, (S, a) = 1, (S, b) = 4).
// But (N, b) and (S, a) have a single contributor each, who knows its
// cell is 1: the rectangle cannot move, and (N, a) is 5 to either.
func ExampleInsiderAudit() {
	micro := "region,sector\n" + strings.Repeat("N,a\n", 5) + "N,b\n" + "S,a\n" + strings.Repeat("S,b\n", 4)
	t, err := tabular.ReadMicrodata(strings.NewReader(micro), "micro.csv",
		[]tabular.DimSpec{{Column: "region"}, {Column: "sector"}}, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range [][2]string{{"N", "a"}, {"N", "b"}, {"S", "a"}, {"S", "b"}} {
		i, _ := t.Lookup(c[0], c[1])
		t.Cells[i].Status = tabular.Secondary
	}
	p, _ := t.Lookup("N", "a")
	t.Cells[p].Status, t.Cells[p].Upper, t.Cells[p].Lower = tabular.Primary, 1, 1
	r, err := intervals.Compute(t, nil)
	if err != nil {
		panic(err)
	}
	iv, _ := r.Lookup(p)
	fmt.Printf("outsider: %s: %g in [%g, %g]\n", iv.Name, iv.Value, iv.Lower, iv.Upper)
	ir, err := intervals.InsiderAudit(t, r, nil)
	if err != nil {
		panic(err)
	}
	for _, f := range ir.Findings {
		fmt.Printf("%s: %s: %g in [%g, %g], needs [%g, %g]\n", ir.Insiders[f.Insider].Name(t.CellName),
			f.Name, f.Value, f.Lower, f.Upper, f.NeedLower, f.NeedUpper)
	}
	// Output:
	// outsider: region=N, sector=a: 5 in [1, 6]
	// cell (region=N, sector=b): region=N, sector=a: 5 in [5, 5], needs [4, 6]
	// cell (region=S, sector=a): region=N, sector=a: 5 in [5, 5], needs [4, 6]
}
