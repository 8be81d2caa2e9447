package intervals

import (
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// BenchmarkIntegerIntervals computes the integer intervals of a seeded
// 3-way hierarchical frequency table of 10³ = 1000 cells (each variable
// Total → 3 groups → 3 leaves), leaf counts in [0, 9], 100 primary and 100
// secondary cells, with and without the integer certificates (witness
// tables, one LP per end for the outer bounds), and Verify of the
// certified result.
func BenchmarkIntegerIntervals(b *testing.B) {
	rng := rand.New(rand.NewPCG(45, 1000))
	hs := []*tabular.Hierarchy{twoLevel(b, "r", 3, 2), twoLevel(b, "s", 3, 2), twoLevel(b, "t", 3, 2)}
	tab := newTable(hs, func() float64 { return float64(rng.IntN(10)) })
	suppress(tab, rng, 200, 100)
	for _, c := range []struct {
		name  string
		noCer bool
	}{{"none", true}, {"certificates", false}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := Compute(tab, &Settings{Integer: true, NoCertificates: c.noCer})
				skipUnavailable(b, err)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(r.Solves), "solves")
			}
		})
	}
	b.Run("verify", func(b *testing.B) {
		r, err := Compute(tab, &Settings{Integer: true})
		skipUnavailable(b, err)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := Verify(tab, r, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
