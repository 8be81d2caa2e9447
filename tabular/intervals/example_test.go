package intervals_test

import (
	"fmt"
	"strings"

	_ "github.com/sdcopt/sdcopt/solvers/all"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// A 2×2 frequency table with its totals; the four inner cells are
// suppressed, one of them primary. The attacker can shift t around the
// rectangle: cell (N, a) = 5 lies in [5 − min(5, 4), 5 + min(2, 1)].
func Example() {
	micro := "region,sector\n" + strings.Repeat("N,a\n", 5) + strings.Repeat("N,b\n", 2) +
		strings.Repeat("S,a\n", 1) + strings.Repeat("S,b\n", 4)
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
	t.Cells[p].Status = tabular.Primary
	r, err := intervals.Compute(t, nil)
	if err != nil {
		panic(err)
	}
	iv, _ := r.Lookup(p)
	fmt.Printf("%s: %g in [%g, %g]\n", iv.Name, iv.Value, iv.Lower, iv.Upper)
	fmt.Println("certificates:", intervals.Verify(t, r, nil))
	// Protection levels 3 below and 2 above: the upper end 6 < 5 + 2.
	rep := intervals.Audit(r, func(int) (float64, float64) { return 3, 2 })
	for _, f := range rep.UnderProtected {
		fmt.Printf("under-protected: %s short by %g above\n", f.Name, f.ShortAbove)
	}
	// Output:
	// region=N, sector=a: 5 in [1, 6]
	// certificates: <nil>
	// under-protected: region=N, sector=a short by 1 above
}
