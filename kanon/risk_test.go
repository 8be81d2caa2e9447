package kanon

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

// Anonymize reports the risk of its publication: at most 1/k, and equal
// to a brute-force count over every (box, original) pair, for every
// method (Mondrian's classes included) and for k = 1.
func TestAnonymizeRisk(t *testing.T) {
	tab := datasets.SyntheticQI(300, 2)
	for _, m := range []string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow, MethodMondrian} {
		for _, k := range []int{1, 4} {
			res, err := Anonymize(tab, k, &Options{Method: m, Seed: 3})
			if err != nil {
				t.Fatalf("%s k=%d: %v", m, k, err)
			}
			r := res.Risk
			if r == nil {
				t.Fatalf("%s k=%d: no risk report", m, k)
			}
			boxes := tab.Boxes(res.Graph)
			mx, sum := 0.0, 0.0
			links := make([]int, tab.N)
			for _, b := range boxes {
				c := 0
				for i := 0; i < tab.N; i++ {
					if tab.Contains(b, i) {
						c++
						links[i]++
					}
				}
				mx = math.Max(mx, 1/float64(c))
				sum += 1 / float64(c)
			}
			lsum, lmax := 0.0, 0.0
			for _, c := range links {
				lsum += 1 / float64(c)
				lmax = math.Max(lmax, 1/float64(c))
			}
			n := float64(tab.N)
			if r.MaxReidentification > 1/float64(k) || r.MaxReidentification != mx || math.Abs(r.MeanReidentification-sum/n) > 1e-12 ||
				math.Abs(r.LinkageMean-lsum/n) > 1e-12 || r.LinkageMax != lmax || !r.Exact || r.K != k {
				t.Errorf("%s k=%d: %+v; brute force max %v mean %v linkage %v max %v", m, k, r, mx, sum/n, lsum/n, lmax)
			}
		}
	}
	res, err := Anonymize(tab, 4, &Options{SkipRisk: true})
	if err != nil || res.Risk != nil {
		t.Errorf("SkipRisk: risk %+v, %v", res.Risk, err)
	}
}
