package kanon

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

// BenchmarkMethods times every native method on synthetic Adult-like data
// (datasets.SyntheticQI) with k = 5 on the whole data (one partition) and
// reports the GCP. Run with -benchtime 1x.
func BenchmarkMethods(b *testing.B) {
	const k = 5
	for _, n := range []int{1000, 5000} {
		tab := datasets.SyntheticQI(n, uint64(n))
		for _, m := range []string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow} {
			b.Run(fmt.Sprintf("%s/n=%d", m, n), func(b *testing.B) {
				var gcp float64
				for b.Loop() {
					r, err := Anonymize(tab, k, &Options{Method: m, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					gcp = r.GCP
				}
				b.ReportMetric(gcp, "GCP")
			})
		}
	}
}

// BenchmarkPartitioned times SortGreedy on 100,000 and 500,000 synthetic
// records (datasets.SyntheticQI) with partitions of 1000 and k = 5 (all
// cores), and reports the GCP. The target: 500,000 records in
// under 5 minutes on 2 cores.
func BenchmarkPartitioned(b *testing.B) {
	for _, n := range []int{100_000, 500_000} {
		b.Run(fmt.Sprintf("sortgreedy/n=%d", n), func(b *testing.B) {
			tab := datasets.SyntheticQI(n, 7)
			var gcp float64
			for b.Loop() {
				r, err := Anonymize(tab, 5, &Options{Method: MethodSortGreedy, Partition: 1000, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				gcp = r.GCP
			}
			b.ReportMetric(gcp, "GCP")
		})
	}
}

// BenchmarkAdult times every native method on the UCI Adult data (rows
// with missing values dropped, the 8 quasi-identifiers of
// datasets.LoadAdult) with k = 5 and partitions of 1000 records, and
// reports the GCP. Skipped without the shared data.
func BenchmarkAdult(b *testing.B) {
	d, err := datasets.LoadAdult(false)
	if errors.Is(err, datasets.ErrNoSharedData) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow} {
		b.Run(m, func(b *testing.B) {
			var gcp float64
			for b.Loop() {
				r, err := Anonymize(d.Table, 5, &Options{Method: m, Partition: 1000, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				gcp = r.GCP
			}
			b.ReportMetric(gcp, "GCP")
		})
	}
}

// BenchmarkHungarianAssign compares hungarian's dense and sparse rounds on
// one partition of synthetic Adult-like records (k = 10) and reports the
// GCP: the sparse candidate graph is what makes partitions of thousands
// of records affordable. Run with -benchtime 1x.
func BenchmarkHungarianAssign(b *testing.B) {
	const k = 10
	for _, n := range []int{1000, 3000} {
		tab := datasets.SyntheticQI(n, uint64(n))
		for _, a := range []string{AssignDense, AssignSparse} {
			b.Run(fmt.Sprintf("%s/n=%d", a, n), func(b *testing.B) {
				var gcp float64
				for b.Loop() {
					r, err := Anonymize(tab, k, &Options{Method: MethodHungarian, Assign: a, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					gcp = r.GCP
				}
				b.ReportMetric(gcp, "GCP")
			})
		}
	}
}

// BenchmarkMondrian times the Mondrian baseline on 500,000 synthetic
// records at k = 10 and reports the GCP.
func BenchmarkMondrian(b *testing.B) {
	tab := datasets.SyntheticQI(500_000, 7)
	var gcp float64
	for b.Loop() {
		r, err := Anonymize(tab, 10, &Options{Method: MethodMondrian, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		gcp = r.GCP
	}
	b.ReportMetric(gcp, "GCP")
}
