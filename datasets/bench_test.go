package datasets

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkGaussianClusters generates n x 10 records in 10 clusters.
func BenchmarkGaussianClusters(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := GaussianClusters(n, 10, 10, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkReadCSV parses n x 10 generated records written as CSV.
func BenchmarkReadCSV(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ds, _ := GaussianClusters(n, 10, 10, 1)
			t, _ := TableFromDataset(ds, "gen", nil)
			var buf bytes.Buffer
			if err := t.WriteAllColumnsUnsafe(&buf, ds); err != nil {
				b.Fatal(err)
			}
			data := buf.Bytes()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ReadCSV(bytes.NewReader(data), "gen", nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
