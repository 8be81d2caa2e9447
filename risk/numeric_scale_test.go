package risk

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// TestMeasuresScaleInvariant: multiplying an attribute by 2^±600 (1e180,
// 1e-180: squares and standard deviations overflow or vanish in float64)
// leaves every measure as it is on the unscaled data.
func TestMeasuresScaleInvariant(t *testing.T) {
	names := []string{"a", "b"}
	ox := []float64{1, 6, 2, 1, 4, 5, 3, 2, 7, 4, 5, 3}
	px := []float64{1.5, 3.5, 1.5, 3.5, 3.5, 3.5, 3.5, 3.5, 6, 3.5, 6, 3.5}
	base := func(mul float64) (*model.Dataset, *model.Dataset) {
		o, p := make([]float64, len(ox)), make([]float64, len(px))
		for i := range ox {
			o[i], p[i] = ox[i], px[i]
			if i%2 == 1 {
				o[i] *= mul
				p[i] *= mul
			}
		}
		return &model.Dataset{Names: names, N: 6, D: 2, X: o}, &model.Dataset{Names: names, N: 6, D: 2, X: p}
	}
	o1, p1 := base(1)
	want, err := Numeric(o1, p1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mul := range []float64{math.Ldexp(1, 600), math.Ldexp(1, -600)} {
		o, p := base(mul)
		got, err := Numeric(o, p, nil)
		if err != nil {
			t.Fatalf("x %g: %v", mul, err)
		}
		if got.Linkage != want.Linkage || got.Interval != want.Interval || math.Abs(got.IL1s-want.IL1s) > 1e-12 {
			t.Errorf("x %g: linkage %g interval %g IL1s %g, want %g %g %g", mul, got.Linkage, got.Interval, got.IL1s, want.Linkage, want.Interval, want.IL1s)
		}
	}
}
