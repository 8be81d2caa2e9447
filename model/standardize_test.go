package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
)

const tol = 1e-9

func randomDataset(t *testing.T, n, d int, seed uint64) *Dataset {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	x := make([]float64, n*d)
	for i := range x {
		// Different scales per attribute, as in real microdata.
		x[i] = r.NormFloat64()*math.Pow(10, float64(i%d)) + float64(i%d)*1000
	}
	ds, err := NewDataset(nil, n, d, x)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestStandardizeMoments(t *testing.T) {
	ds := randomDataset(t, 200, 4, 1)
	z, s := Standardize(ds)
	if z.N != ds.N || z.D != ds.D {
		t.Fatalf("shape %dx%d, want %dx%d", z.N, z.D, ds.N, ds.D)
	}
	for j := 0; j < z.D; j++ {
		if s.Constant[j] {
			t.Fatalf("attribute %d reported constant", j)
		}
		var m, v float64
		for i := 0; i < z.N; i++ {
			m += z.Row(i)[j]
		}
		m /= float64(z.N)
		for i := 0; i < z.N; i++ {
			e := z.Row(i)[j] - m
			v += e * e
		}
		v /= float64(z.N)
		if math.Abs(m) > tol || math.Abs(v-1) > tol {
			t.Errorf("attribute %d: mean %g variance %g, want 0 and 1", j, m, v)
		}
	}
	// Population sd z-scores give SST = n·d (datasets README, Section 2).
	if sst := SST(z); math.Abs(sst-float64(z.N*z.D)) > 1e-6 {
		t.Errorf("SST = %g, want n·d = %d", sst, z.N*z.D)
	}
}

func TestStandardizeRoundTrip(t *testing.T) {
	ds := randomDataset(t, 50, 3, 2)
	orig := ds.Clone()
	z, s := Standardize(ds)
	for i, v := range ds.X {
		if v != orig.X[i] {
			t.Fatal("Standardize modified its input")
		}
	}
	back := s.Unstandardize(z)
	for i, v := range back.X {
		if math.Abs(v-ds.X[i]) > 1e-9*math.Max(1, math.Abs(ds.X[i])) {
			t.Fatalf("value %d: %g after the round trip, want %g", i, v, ds.X[i])
		}
	}
}

func TestStandardizeConstantColumn(t *testing.T) {
	// Column b is constant (0.1 is not exact in binary: the mean must still
	// be the value itself).
	x := []float64{1, 0.1, 5, 2, 0.1, 7, 4, 0.1, 6, 8, 0.1, 5}
	ds, err := NewDataset([]string{"a", "b", "c"}, 4, 3, x)
	if err != nil {
		t.Fatal(err)
	}
	z, s := Standardize(ds)
	if !s.Constant[1] || s.Constant[0] || s.Constant[2] {
		t.Fatalf("Constant = %v, want only b", s.Constant)
	}
	if s.Mean[1] != 0.1 || s.SD[1] != 0 {
		t.Errorf("constant column: mean %g sd %g, want 0.1 and 0", s.Mean[1], s.SD[1])
	}
	for i := 0; i < z.N; i++ {
		if z.Row(i)[1] != 0 {
			t.Errorf("record %d: z = %g in the constant column, want 0", i, z.Row(i)[1])
		}
	}
	// The constant column adds nothing to SST: SST = n·(d-1).
	if sst := SST(z); math.Abs(sst-8) > tol {
		t.Errorf("SST = %g, want 8", sst)
	}
	back := s.Unstandardize(z)
	for i := 0; i < back.N; i++ {
		if back.Row(i)[1] != 0.1 {
			t.Errorf("record %d: constant column back as %g", i, back.Row(i)[1])
		}
	}
}

func TestStandardizeEmpty(t *testing.T) {
	ds, err := NewDataset([]string{"a"}, 0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	z, s := Standardize(ds)
	if z.N != 0 || !s.Constant[0] {
		t.Errorf("empty data set: N=%d Constant=%v", z.N, s.Constant)
	}
}

func TestProtectEqualsUnstandardizedCentroids(t *testing.T) {
	ds := randomDataset(t, 60, 5, 3)
	labels := make([]int, ds.N)
	for i := range labels {
		labels[i] = (i * 7) % 13
	}
	c, err := FromLabels(labels)
	if err != nil {
		t.Fatal(err)
	}
	prot := Protect(ds, c)
	z, s := Standardize(ds)
	zc := Centroids(z, c)
	zp := &Dataset{Names: z.Names, N: z.N, D: z.D, X: make([]float64, len(z.X))}
	for i, g := range c.Group {
		copy(zp.Row(i), zc[g*z.D:(g+1)*z.D])
	}
	want := s.Unstandardize(zp)
	for i, v := range prot.X {
		if math.Abs(v-want.X[i]) > 1e-9*math.Max(1, math.Abs(v)) {
			t.Fatalf("value %d: protected %g, unstandardized centroid %g", i, v, want.X[i])
		}
	}
	// Every record of a group gets the same values, and the protected data
	// keep the overall mean.
	for i := 0; i < ds.N; i++ {
		for k := 0; k < ds.N; k++ {
			if c.Group[i] == c.Group[k] {
				for j := 0; j < ds.D; j++ {
					if prot.Row(i)[j] != prot.Row(k)[j] {
						t.Fatalf("records %d and %d of one group differ", i, k)
					}
				}
			}
		}
	}
	for j := 0; j < ds.D; j++ {
		var a, b float64
		for i := 0; i < ds.N; i++ {
			a += ds.Row(i)[j]
			b += prot.Row(i)[j]
		}
		if math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(a)) {
			t.Errorf("attribute %d: total %g after protection, %g before", j, b, a)
		}
	}
}

// TestStandardizeExtremeScales: any finite values are standardized. The
// squares of 1e155 overflow and those of 1e-200 vanish, so an unscaled
// variance made such a column's z-scores all 0 (the column silently left
// out of every distance and of SST), NaN (1e200) or ±Inf (1e-200). The
// z-scores of c·x equal those of x for any scale c > 0.
func TestStandardizeExtremeScales(t *testing.T) {
	base := []float64{1, 2, 4, -3, 0.5, 7}
	zBase, _ := Standardize(column(t, base, 1))
	for _, c := range []struct {
		name  string
		scale float64
	}{
		{"1e155", 1e155}, {"1e200", 1e200}, {"1e300", 1e300}, {"1e-200", 1e-200}, {"1e-300", 1e-300},
		{"subnormal", 1e-320}, {"near the float64 limit", math.MaxFloat64 / 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			z, s := Standardize(column(t, base, c.scale))
			if s.Constant[0] {
				t.Fatal("reported constant")
			}
			var sum, sq float64
			for i, v := range z.X {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("z[%d] = %v", i, v)
				}
				// Subnormal inputs carry few significant bits: 1e-320 is
				// represented to about 1e-3 relative.
				rel := 1e-12
				if c.scale < 1e-307 {
					rel = 1e-2
				}
				if math.Abs(v-zBase.X[i]) > rel*math.Max(1, math.Abs(zBase.X[i])) {
					t.Errorf("z[%d] = %v, want %v (the z-score of the unscaled column)", i, v, zBase.X[i])
				}
				sum += v
				sq += v * v
			}
			if n := float64(len(z.X)); math.Abs(sum/n) > 1e-2 || math.Abs(sq/n-1) > 1e-2 {
				t.Errorf("mean %v, variance %v, want 0 and 1", sum/n, sq/n)
			}
			if s.SD[0] <= 0 || math.IsInf(s.SD[0], 0) || math.IsInf(s.Mean[0], 0) {
				t.Errorf("mean %v, SD %v", s.Mean[0], s.SD[0])
			}
		})
	}
}

// TestStandardizeScalingExact: scaling by a power of two changes no
// z-score of ordinary data: the same numbers as the textbook formula
// (x - mean)/sd with gonum's mean and variance.
func TestStandardizeScalingExact(t *testing.T) {
	ds := randomDataset(t, 300, 4, 9)
	z, _ := Standardize(ds)
	for j := 0; j < ds.D; j++ {
		col := make([]float64, ds.N)
		for i := range col {
			col[i] = ds.Row(i)[j]
		}
		mean, variance := stat.PopMeanVariance(col, nil)
		sd := math.Sqrt(variance)
		for i, v := range col {
			if want := (v - mean) / sd; z.Row(i)[j] != want {
				t.Fatalf("z[%d][%d] = %v, want %v exactly", i, j, z.Row(i)[j], want)
			}
		}
	}
}

// TestProtectNearFloatLimit: the centroid of values whose sum overflows
// float64 is still their mean.
func TestProtectNearFloatLimit(t *testing.T) {
	big := math.MaxFloat64 * 0.75 // big + 0.75·big overflows
	raw := column(t, []float64{big, big * 0.75, 1, 2, -big, -big}, 1)
	c := &Clustering{Group: []int{0, 0, 1, 1, 2, 2}, NumGroups: 3}
	prot := Protect(raw, c)
	want := []float64{big * 0.875, big * 0.875, 1.5, 1.5, -big, -big}
	for i, w := range want {
		if got := prot.X[i]; math.Abs(got-w) > 1e-15*math.Abs(w) {
			t.Errorf("record %d: %v, want %v", i, got, w)
		}
	}
}

// column returns a one-attribute data set of the values times scale.
func column(t *testing.T, x []float64, scale float64) *Dataset {
	t.Helper()
	v := make([]float64, len(x))
	for i := range x {
		v[i] = x[i] * scale
	}
	ds, err := NewDataset(nil, len(v), 1, v)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}
