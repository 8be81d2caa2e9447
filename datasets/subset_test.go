package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

func TestSubsetProperties(t *testing.T) {
	ds, err := GaussianClusters(300, 4, 3, 11)
	if err != nil {
		t.Fatal(err)
	}
	// Shift the data away from the origin so that norm and centroid orders
	// differ.
	for i := range ds.X {
		ds.X[i] += 5 * float64(i%ds.D)
	}
	norm := func(i int, ref []float64) float64 {
		s := 0.0
		for j, v := range ds.Row(i) {
			s += (v - ref[j]) * (v - ref[j])
		}
		return math.Sqrt(s)
	}
	mean := make([]float64, ds.D)
	for i := 0; i < ds.N; i++ {
		for j, v := range ds.Row(i) {
			mean[j] += v / float64(ds.N)
		}
	}
	zero := make([]float64, ds.D)
	for _, crit := range SubsetCriteria() {
		for _, size := range []int{1, 30, 200, 300} {
			for seed := uint64(0); seed < 5; seed++ {
				sub, idx, err := Subset(ds, crit, size, seed)
				if err != nil {
					t.Fatalf("%s %d: %v", crit, size, err)
				}
				if sub.N != size || len(idx) != size || sub.D != ds.D {
					t.Fatalf("%s %d: got %d records", crit, size, sub.N)
				}
				seen := map[int]bool{}
				for r, i := range idx {
					if seen[i] || i < 0 || i >= ds.N {
						t.Fatalf("%s %d: index %d repeated or out of range", crit, size, i)
					}
					seen[i] = true
					if !slices.Equal(sub.Row(r), ds.Row(i)) {
						t.Fatalf("%s %d: record %d is not record %d of the data", crit, size, r, i)
					}
				}
				switch crit {
				case SubsetConsecutive:
					for r := 1; r < size; r++ {
						if idx[r] != idx[0]+r {
							t.Fatalf("consecutive: indices %v", idx)
						}
					}
				case SubsetRandom:
					if !slices.IsSorted(idx) {
						t.Fatalf("random: indices not increasing")
					}
				case SubsetNorm, SubsetCentroid:
					ref := zero
					if crit == SubsetCentroid {
						ref = mean
					}
					// A window of the sorted order: keys ascend, and every
					// record left out lies outside [first key, last key].
					lo, hi := norm(idx[0], ref), norm(idx[size-1], ref)
					for r := 1; r < size; r++ {
						if norm(idx[r], ref) < norm(idx[r-1], ref) {
							t.Fatalf("%s: keys not ascending", crit)
						}
					}
					for i := 0; i < ds.N; i++ {
						if k := norm(i, ref); !seen[i] && k > lo && k < hi {
							t.Fatalf("%s %d: record %d (key %g) skipped inside the window [%g, %g]", crit, size, i, k, lo, hi)
						}
					}
				}
			}
		}
	}
	// The two ordered criteria differ on data away from the origin.
	_, a, _ := Subset(ds, SubsetNorm, 30, 1)
	_, b, _ := Subset(ds, SubsetCentroid, 30, 1)
	if slices.Equal(a, b) {
		t.Error("norm and centroid criteria chose the same records")
	}
}

func TestSubsetReproducible(t *testing.T) {
	ds, _ := GaussianClusters(500, 3, 5, 2)
	for _, crit := range SubsetCriteria() {
		_, a, _ := Subset(ds, crit, 40, 7)
		_, b, _ := Subset(ds, crit, 40, 7)
		_, c, _ := Subset(ds, crit, 40, 8)
		if !slices.Equal(a, b) {
			t.Errorf("%s: same seed, different subsets", crit)
		}
		if slices.Equal(a, c) {
			t.Errorf("%s: seeds 7 and 8 gave the same subset", crit)
		}
	}
}

func TestSubsetErrors(t *testing.T) {
	ds, _ := model.NewDataset(nil, 3, 1, []float64{1, 2, 3})
	for _, tc := range []struct {
		crit string
		size int
		want string
	}{
		{"random", 0, "outside 1..3"},
		{"random", 4, "outside 1..3"},
		{"sorted", 2, `unknown subset criterion "sorted"`},
	} {
		if _, _, err := Subset(ds, tc.crit, tc.size, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Subset(%s, %d): %v, want %q", tc.crit, tc.size, err, tc.want)
		}
	}
}

func TestSubsetCASC(t *testing.T) {
	sharedOrSkip(t)
	// The paper's sizes (Section 6): 30, 40, 50, 100, 200 from Tarragona and Census.
	for _, name := range []string{"tarragona", "census"} {
		ds, err := LoadCASC(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, crit := range SubsetCriteria() {
			for _, size := range []int{30, 40, 50, 100, 200} {
				if sub, _, err := Subset(ds, crit, size, 1); err != nil || sub.N != size {
					t.Errorf("%s %s %d: %v", name, crit, size, err)
				}
			}
		}
	}
}
