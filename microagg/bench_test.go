package microagg

import (
	"fmt"
	"testing"

	"sdcopt/model"
)

// BenchmarkMethods times every method on Gaussian-cluster data (10
// clusters, gaussianClusters) of 10^4, 10^5 and 10^6 records x 10
// attributes with k = 3, and reports records per second. univariate runs
// on the first attribute only (it needs d = 1). MDAV and V-MDAV are
// skipped at 10^6 records: they cost O(n²d/k) and O(n²d), about 100 times
// their 10^5 time. Run with -benchtime 1x for one timing per case.
func BenchmarkMethods(b *testing.B) {
	const d, k = 10, 3
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		z := gaussianClusters(n, d, 10, uint64(n))
		col := &model.Dataset{Names: z.Names[:1], N: n, D: 1, X: make([]float64, n)}
		for i := range col.X {
			col.X[i] = z.X[i*d]
		}
		for _, m := range Methods() {
			data := z
			if m == MethodUnivariate {
				data = col
			}
			b.Run(fmt.Sprintf("%s/n=%d", m, n), func(b *testing.B) {
				if n > 100_000 && (m == MethodMDAV || m == MethodVMDAV) {
					b.Skip("O(n²): skipped at 10^6 records")
				}
				for b.Loop() {
					if _, err := Run(m, data, k, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}
