package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// benchData returns n records of 10 attributes on different scales, and a
// clustering of them into consecutive groups of 3 (the last one larger).
func benchData(n int) (*Dataset, *Clustering) {
	const d = 10
	r := rand.New(rand.NewPCG(uint64(n), 7))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.NormFloat64()*float64(1+i%d) + float64(i%d)*1000
	}
	ds, err := NewDataset(nil, n, d, x)
	if err != nil {
		panic(err)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = min(i/3, n/3-1)
	}
	c, err := FromLabels(labels)
	if err != nil {
		panic(err)
	}
	return ds, c
}

// BenchmarkStandardize times Standardize (gonum's stat.PopMeanVariance on
// the transposed attributes) and SST (accumulation over the rows) on 10^3,
// 10^5 and 10^6 records x 10 attributes.
func BenchmarkStandardize(b *testing.B) {
	for _, n := range []int{1000, 100_000, 1_000_000} {
		ds, _ := benchData(n)
		b.Run(fmt.Sprintf("Standardize/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Standardize(ds)
			}
		})
		b.Run(fmt.Sprintf("SST/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				SST(ds)
			}
		})
	}
}

// momentsStat returns the mean and population variance of every attribute
// from gonum's stat.PopMeanVariance, each column copied out of the
// row-major records into one reused buffer: the alternative to SST's
// accumulation over the rows (momentsRows) that BenchmarkColumnMoments
// measures.
func momentsStat(ds *Dataset) (mean, variance []float64) {
	n, d := ds.N, ds.D
	mean, variance = make([]float64, d), make([]float64, d)
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		for i := range col {
			col[i] = ds.X[i*d+j]
		}
		mean[j], variance[j] = stat.PopMeanVariance(col, nil)
	}
	return mean, variance
}

// momentsRows is the same moments accumulated over the row-major records
// in two passes, as SST does.
func momentsRows(ds *Dataset) (mean, variance []float64) {
	n, d := ds.N, ds.D
	mean, variance = make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range ds.Row(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		for j, v := range ds.Row(i) {
			e := v - mean[j]
			variance[j] += e * e
		}
	}
	for j := range variance {
		variance[j] /= float64(n)
	}
	return mean, variance
}

// BenchmarkColumnMoments compares momentsStat (stat.PopMeanVariance on
// each column, copied out of the row-major records) with momentsRows, on
// 10 attributes.
func BenchmarkColumnMoments(b *testing.B) {
	for _, n := range []int{1000, 100_000, 1_000_000} {
		ds, _ := benchData(n)
		b.Run(fmt.Sprintf("stat.PopMeanVariance/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				momentsStat(ds)
			}
		})
		b.Run(fmt.Sprintf("rows/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				momentsRows(ds)
			}
		})
	}
}

// centroidsLoops is Centroids with the group sums formed by a loop over
// the attributes instead of floats.Add (the same additions in the same
// order, so the same numbers), for BenchmarkCentroids.
func centroidsLoops(ds *Dataset, c *Clustering) []float64 {
	d := ds.D
	cent := make([]float64, c.NumGroups*d)
	cnt := make([]float64, c.NumGroups)
	for i, g := range c.Group {
		cg := cent[g*d : (g+1)*d]
		for j, v := range ds.Row(i) {
			cg[j] += v
		}
		cnt[g]++
	}
	for g := 0; g < c.NumGroups; g++ {
		for j := 0; j < d; j++ {
			cent[g*d+j] /= cnt[g]
		}
	}
	return cent
}

// sseFloats is SSE with each squared distance formed by floats.SubTo and
// floats.Dot (different rounding: Dot adds in another order), for
// BenchmarkCentroids.
func sseFloats(ds *Dataset, c *Clustering) float64 {
	cent := Centroids(ds, c)
	d := ds.D
	diff := make([]float64, d)
	s := 0.0
	for i, g := range c.Group {
		floats.SubTo(diff, ds.Row(i), cent[g*d:(g+1)*d])
		s += floats.Dot(diff, diff)
	}
	return s
}

// BenchmarkCentroids compares Centroids (group sums by floats.Add) with
// the same sums by a loop over the attributes, and SSE (squared distances
// by a loop) with the same through floats.SubTo and floats.Dot, on groups
// of 3 records of 10 attributes.
func BenchmarkCentroids(b *testing.B) {
	for _, n := range []int{1000, 100_000, 1_000_000} {
		ds, c := benchData(n)
		for _, f := range []struct {
			name string
			fn   func()
		}{
			{"Centroids/floats", func() { Centroids(ds, c) }},
			{"Centroids/loops", func() { centroidsLoops(ds, c) }},
			{"SSE/loops", func() { SSE(ds, c) }},
			{"SSE/floats", func() { sseFloats(ds, c) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", f.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					f.fn()
				}
			})
		}
	}
}

// TestCentroidsLoopsSame checks that Centroids (floats.Add) and the loop
// variant of BenchmarkCentroids compute the same numbers, bit for bit: the
// benchmark compares like with like, and Centroids gives the numbers it
// gave before it used floats.Add.
func TestCentroidsLoopsSame(t *testing.T) {
	ds, c := benchData(1000)
	f, l := Centroids(ds, c), centroidsLoops(ds, c)
	for i := range f {
		if f[i] != l[i] {
			t.Fatalf("centroid entry %d: %v with floats.Add, %v with loops", i, f[i], l[i])
		}
	}
}
