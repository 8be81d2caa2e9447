package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSyntheticShapes(t *testing.T) {
	// Sizes: Mortazavi & Jalili, Section 5.1 and Table 1.
	for _, tc := range []struct {
		name string
		n, d int // d = 0: any of 4..8
	}{
		{"synthetic", 10000, 10},
		{"sim1", 100, 10},
		{"Sim-1", 100, 10},
		{"sim2", 100, 0},
		{"sim3", 100, 0},
		{"gauss-1000-3-7", 1000, 3},
	} {
		for seed := uint64(0); seed < 3; seed++ {
			ds, err := Synthetic(tc.name, seed)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if ds.N != tc.n || (tc.d > 0 && ds.D != tc.d) || (tc.d == 0 && (ds.D < 4 || ds.D > 8)) {
				t.Errorf("%s seed %d: %d x %d", tc.name, seed, ds.N, ds.D)
			}
		}
	}
	if _, err := Synthetic("sim4", 1); err == nil || !strings.Contains(err.Error(), "sim4") {
		t.Errorf("unknown name: %v", err)
	}
	for _, bad := range [][3]int{{0, 1, 1}, {5, 0, 1}, {5, 2, 0}, {5, 2, 6}} {
		if _, err := GaussianClusters(bad[0], bad[1], bad[2], 1); err == nil {
			t.Errorf("GaussianClusters%v: no error", bad)
		}
	}
}

func TestSyntheticReproducible(t *testing.T) {
	for _, name := range append(SyntheticNames(), "gauss-50-2-5") {
		a, _ := Synthetic(name, 3)
		b, _ := Synthetic(name, 3)
		c, _ := Synthetic(name, 4)
		if !slices.Equal(a.X, b.X) {
			t.Errorf("%s: same seed, different data", name)
		}
		if slices.Equal(a.X, c.X) {
			t.Errorf("%s: seeds 3 and 4 gave the same data", name)
		}
	}
}

func TestSim1Range(t *testing.T) {
	ds, _ := Synthetic("sim1", 9)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range ds.X {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	// Uniform on [-1000, 1000] (Section 5.1): 1000 draws come close to both ends.
	if lo < -1000 || hi > 1000 || lo > -900 || hi < 900 {
		t.Errorf("Sim-1 values in [%g, %g]", lo, hi)
	}
}

func TestSimDimensionsVary(t *testing.T) {
	// d is uniform in 4..8 (Section 5.1): 50 seeds hit every value.
	seen := map[int]bool{}
	for seed := uint64(0); seed < 50; seed++ {
		ds, _ := Synthetic("sim2", seed)
		seen[ds.D] = true
	}
	if len(seen) != 5 {
		t.Errorf("dimensions seen: %v, want 4..8", seen)
	}
}

func TestGaussianClusterSpread(t *testing.T) {
	// Records i ≡ c (mod C) form cluster c; their per-attribute sd is σ_c in
	// [0.1, 0.3] and their mean, the centre, lies in [0, 1] (up to sampling
	// error: 2000 records per cluster).
	const n, d, C = 10000, 3, 5
	ds, _ := GaussianClusters(n, d, C, 5)
	for c := 0; c < C; c++ {
		for j := 0; j < d; j++ {
			var m, v float64
			cnt := 0
			for i := c; i < n; i += C {
				m += ds.Row(i)[j]
				cnt++
			}
			m /= float64(cnt)
			for i := c; i < n; i += C {
				e := ds.Row(i)[j] - m
				v += e * e
			}
			sd := math.Sqrt(v / float64(cnt))
			if m < -0.05 || m > 1.05 || sd < 0.09 || sd > 0.31 {
				t.Errorf("cluster %d attribute %d: mean %g sd %g", c, j, m, sd)
			}
		}
	}
}
