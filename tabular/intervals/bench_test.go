package intervals

import (
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// benchTable is a seeded 3-way hierarchical frequency table of 17³ = 4913
// cells (each variable Total → 4 groups → 3 leaves), leaf counts in
// [0, 9], with 1000 primary and 1000 secondary cells chosen at random.
func benchTable(b testing.TB) *tabular.Table {
	rng := rand.New(rand.NewPCG(45, 5000))
	hs := []*tabular.Hierarchy{twoLevel(b, "r", 4, 3), twoLevel(b, "s", 4, 3), twoLevel(b, "t", 4, 3)}
	tab := newTable(hs, func() float64 { return float64(rng.IntN(10)) })
	suppress(tab, rng, 2000, 1000)
	return tab
}

// BenchmarkLPIntervals computes every LP interval with the default
// engine, certificates kept; BenchmarkLPIntervals/plain does it as before
// components and skipped solves (one model, 4000 LPs in one warm-started
// session: Settings.NoSkip and NoDecompose).
func BenchmarkLPIntervals(b *testing.B) {
	tab := benchTable(b)
	for _, c := range []struct {
		name string
		s    *Settings
	}{{"default", nil}, {"plain", &Settings{NoSkip: true, NoDecompose: true}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := Compute(tab, c.s)
				skipUnavailable(b, err)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(r.Solves), "solves")
				b.ReportMetric(float64(r.Skipped), "skipped")
				b.ReportMetric(float64(r.Rows), "rows")
				b.Logf("engine %s: %d cells, %d suppressed (%d determined), %d rows, %d components (largest %d), %d solves, %d skipped, %.2f s",
					r.Engine, len(tab.Cells), len(r.Intervals), r.Determined, r.Rows, r.Components, r.LargestComponent, r.Solves, r.Skipped, r.Seconds)
			}
		})
	}
}

// BenchmarkVerify re-checks the certificates of BenchmarkLPIntervals's
// result (computed once, outside the timer).
func BenchmarkVerify(b *testing.B) {
	tab := benchTable(b)
	r, err := Compute(tab, nil)
	skipUnavailable(b, err)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Verify(tab, r, nil); err != nil {
			b.Fatal(err)
		}
	}
}
