package suppress

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

func TestCostRules(t *testing.T) {
	c := tabular.Cell{Value: -20, Freq: 3}
	// Hand computation: |−20| = 20; 1 + ln(1 + 20) = 1 + ln 21 = 4.044522.
	for _, tc := range []struct {
		name string
		want float64
	}{{"value", 20}, {"unity", 1}, {"freq", 3}, {"log", 1 + math.Log(21)}} {
		r, err := ParseCostRule(tc.name)
		if err != nil || r.String() != tc.name {
			t.Fatalf("%s: %v %v", tc.name, r, err)
		}
		if got := r.Of(c); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: cost %g, want %g", tc.name, got, tc.want)
		}
	}
	if _, err := ParseCostRule("weight"); err == nil {
		t.Error("unknown rule accepted")
	}
	cells := []tabular.Cell{{Value: 0}, {Value: math.E - 1}}
	SetCosts(cells, CostLog)
	// 1 + ln 1 = 1; 1 + ln e = 2.
	if math.Abs(cells[0].Cost-1) > 1e-12 || math.Abs(cells[1].Cost-2) > 1e-12 {
		t.Errorf("costs %g %g, want 1 2", cells[0].Cost, cells[1].Cost)
	}
}
