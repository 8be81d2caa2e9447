package datasets_test

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// TestSimulatedMDAVPublished checks the Sim-1 and Sim-2 generators against
// the MDAV information loss Mortazavi & Jalili report for them (Table 2,
// column IL_MDAV, the average over 25 data sets): Sim-1 32.68 / 48.65 /
// 67.52 and Sim-2 14.32 / 23.56 / 37.18 for k = 3, 5, 10. Our averages over
// seeds 1..25 come within 5% (the paper's 25 data sets are not ours: the
// tolerance covers the sampling spread of the average). Sim-3 is not
// checked: generated as the paper describes it, its IL is about half the
// published values (see the package documentation).
func TestSimulatedMDAVPublished(t *testing.T) {
	const seeds, relTol = 25, 0.05
	cases := []struct {
		name string
		il   [3]float64 // k = 3, 5, 10
	}{
		{"sim1", [3]float64{32.68, 48.65, 67.52}},
		{"sim2", [3]float64{14.32, 23.56, 37.18}},
	}
	for _, tc := range cases {
		for ki, k := range []int{3, 5, 10} {
			sum := 0.0
			for s := uint64(1); s <= seeds; s++ {
				raw, err := datasets.Synthetic(tc.name, s)
				if err != nil {
					t.Fatal(err)
				}
				z, _ := model.Standardize(raw)
				c, err := microagg.MDAV(z, k)
				if err != nil {
					t.Fatal(err)
				}
				sum += model.IL(z, c)
			}
			avg := sum / seeds
			if math.Abs(avg-tc.il[ki]) > relTol*tc.il[ki] {
				t.Errorf("%s k=%d: average MDAV IL %.2f, published %.2f", tc.name, k, avg, tc.il[ki])
			} else {
				t.Logf("%s k=%d: average MDAV IL %.2f, published %.2f", tc.name, k, avg, tc.il[ki])
			}
		}
	}
}
