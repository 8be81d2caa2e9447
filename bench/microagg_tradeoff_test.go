package bench

import (
	"math"
	"testing"
	"time"
)

// TestMicroaggTradeoff runs MDAV and the projection on Census at k = 3
// with a short bound: MDAV's IL is the published IL_MDAV (Mortazavi &
// Jalili, Table 2: 5.69), the risks are shares, the bound lies below
// every method's IL, and the figures draw.
func TestMicroaggTradeoff(t *testing.T) {
	skipWithoutShared(t)
	o := &MicroaggTradeoffOptions{Data: []string{"census"}, Ks: []int{3}, Methods: []string{"mdav", "projection"}, Seed: 1}
	if !testing.Short() {
		o.BoundTime = 2 * time.Second
	}
	rep, err := MicroaggTradeoff(o)
	if err != nil {
		t.Fatal(err)
	}
	want := 2
	if o.BoundTime > 0 {
		want = 3
	}
	if len(rep.Rows) != want {
		t.Fatalf("%d rows, want %d", len(rep.Rows), want)
	}
	if x := rep.Rows[0]; x.Method != "mdav" || math.Abs(x.IL-MDAVPublished["census"][3]) > 0.005 {
		t.Errorf("mdav row %+v, want IL %.2f", x, MDAVPublished["census"][3])
	}
	for _, x := range rep.Rows {
		if x.Linkage <= 0 || x.Linkage > 1 || x.Interval < 0 || x.Interval > 1 || x.IL1s <= 0 {
			t.Errorf("row %+v: risks out of range", x)
		}
	}
	for _, b := range rep.Bounds {
		for _, x := range rep.Rows {
			if b.LowerBoundIL > x.IL+1e-9 {
				t.Errorf("bound IL %g above %s's IL %g", b.LowerBoundIL, x.Method, x.IL)
			}
		}
		if b.LowerBoundIL <= 0 || b.BestIL > rep.Rows[0].IL+1e-9 {
			t.Errorf("bound %+v", b)
		}
	}
	checkRenders(t, rep)
}
