package microagg

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
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
				if m == MethodICSM {
					b.Skip("a local search to convergence: see BenchmarkICSM")
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

// BenchmarkICSM times one ICSM run from MDAV (to convergence) on the
// CASC data sets at k = 3, 5, 10 (skipped without the shared data), with
// the cache of pair moves (the default) and with every pair evaluated in
// every SimpleHeuristic call, and reports the IL and the pairs evaluated.
func BenchmarkICSM(b *testing.B) {
	for _, name := range []string{"tarragona", "census", "eia"} {
		z := benchCASC(b, name)
		for _, k := range []int{3, 5, 10} {
			for _, noCache := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/k=%d/cache=%v", name, k, !noCache), func(b *testing.B) {
					var il float64
					var pairs int64
					for b.Loop() {
						r := &icsmRunner{z: z, k: k, start: time.Now(), sst: model.SST(z), workers: runtime.GOMAXPROCS(0), noCache: noCache}
						r.opt = ICSMOptions{PoolSize: DefaultPoolSize, Sources: 1, Neighbourhood: DefaultNeighbourhood}
						c0, _ := MDAV(z, k)
						c, _, err := r.run(0, c0)
						if err != nil {
							b.Fatal(err)
						}
						il, pairs = model.IL(z, c), r.pairs
					}
					b.ReportMetric(il, "IL%")
					b.ReportMetric(float64(pairs), "pairs")
				})
			}
		}
	}
}

func benchCASC(b *testing.B, name string) *model.Dataset {
	raw, err := datasets.LoadCASC(name)
	if err != nil {
		b.Skipf("shared data not available: %v", err)
	}
	z, _ := model.Standardize(raw)
	return z
}

// BenchmarkPrincipalAxis times the first principal component of the
// projection heuristic (principalAxis: scatter matrix, then mat.EigenSym)
// on Gaussian-cluster data of 10^4..10^6 records x 10 attributes, and its
// two ways of forming the scatter matrix: the one-pass scatter kernel and
// gonum's stat.CovarianceMatrix (which copies the data transposed first).
func BenchmarkPrincipalAxis(b *testing.B) {
	const d = 10
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		z := gaussianClusters(n, d, 10, uint64(n))
		b.Run(fmt.Sprintf("axis/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				principalAxis(z)
			}
		})
		b.Run(fmt.Sprintf("scatter/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				scatter(z)
			}
		})
		b.Run(fmt.Sprintf("stat.CovarianceMatrix/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var s mat.SymDense
			for b.Loop() {
				s.Reset()
				stat.CovarianceMatrix(&s, mat.NewDense(n, d, z.X), nil)
			}
		})
	}
}

// BenchmarkSqDist compares the distance kernel of MDAV's passes (sqDist)
// with gonum's floats.Distance(a, b, 2) (squared afterwards, so it is not
// the same number) in one pass over 10^5 records of 10 attributes.
func BenchmarkSqDist(b *testing.B) {
	const n, d = 100_000, 10
	z := gaussianClusters(n, d, 10, 1)
	c := z.Row(0)
	b.Run("sqDist", func(b *testing.B) {
		for b.Loop() {
			s := 0.0
			for i := 0; i < n; i++ {
				s += sqDist(z.X[i*d:i*d+d], c)
			}
			sink = s
		}
	})
	b.Run("floats.Distance", func(b *testing.B) {
		for b.Loop() {
			s := 0.0
			for i := 0; i < n; i++ {
				e := floats.Distance(z.X[i*d:i*d+d], c, 2)
				s += e * e
			}
			sink = s
		}
	})
}

// sink keeps benchmark results alive.
var sink float64
