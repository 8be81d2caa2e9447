package microagg_test

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// TestPublishRounded: the published values are the centroids rounded to
// each attribute's digits, and the risk is that of the rounded values.
func TestPublishRounded(t *testing.T) {
	// Groups {0,1,2} and {3,4,5}: centroids (2/3 + 1, 10.25) and (6, 20.125)
	// by hand.
	raw, err := model.NewDataset([]string{"a", "b"}, 6, 2, []float64{
		1, 10, 2, 10.5, 2, 10.25,
		5, 20, 6, 20.25, 7, 20.125,
	})
	if err != nil {
		t.Fatal(err)
	}
	cl := &model.Clustering{Group: []int{0, 0, 0, 1, 1, 1}, NumGroups: 2}
	pub, err := microagg.PublishRounded(raw, cl, []int{0, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 10.2, 2, 10.2, 2, 10.2, 6, 20.1, 6, 20.1, 6, 20.1} // 5/3 -> 2, 10.25 -> 10.2 (half to even), 20.125 -> 20.1
	for i, v := range pub.Data.X {
		if math.Abs(v-want[i]) > 1e-12 {
			t.Fatalf("value %d = %v, want %v", i, v, want[i])
		}
	}
	r, err := risk.Numeric(raw, pub.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.IL1s != pub.Risk.IL1s || r.Linkage != pub.Risk.Linkage || r.Interval != pub.Risk.Interval {
		t.Errorf("risk %+v, recomputed on the rounded values %+v", pub.Risk, r)
	}
	full, err := microagg.Publish(raw, cl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if full.Risk.IL1s == pub.Risk.IL1s {
		t.Errorf("rounding left IL1s at %v", full.Risk.IL1s)
	}
	if _, err := microagg.PublishRounded(raw, cl, []int{0}, nil); err == nil {
		t.Error("one digit for two attributes accepted")
	}
}
