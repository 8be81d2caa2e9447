package intervals

import (
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// BenchmarkInsiderAudit audits the cell insiders (suppressed cells with
// Freq 1 or 2) of a seeded 2-way hierarchical frequency table of 17² =
// 289 cells (each variable Total → 4 groups → 3 leaves), leaf counts in
// [0, 4], 30 primary and 60 secondary cells at random, levels 1, at most
// DefaultMaxInsiders insiders (the plain intervals computed once,
// outside the timer).
func BenchmarkInsiderAudit(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 289))
	hs := []*tabular.Hierarchy{twoLevel(b, "r", 4, 3), twoLevel(b, "s", 4, 3)}
	tab := newTable(hs, func() float64 { return float64(rng.IntN(5)) })
	suppress(tab, rng, 90, 30)
	for i := range tab.Cells {
		if tab.Cells[i].Status == tabular.Primary {
			tab.Cells[i].Upper, tab.Cells[i].Lower = 1, 1
		}
	}
	r, err := Compute(tab, nil)
	skipUnavailable(b, err)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ir, err := InsiderAudit(tab, r, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(ir.Insiders)), "insiders")
		b.ReportMetric(float64(ir.Solves), "solves")
		b.Logf("engine %s: %d cells, %d suppressed, %d insiders of %d found, %d solves, %d findings",
			r.Engine, len(tab.Cells), len(r.Intervals), len(ir.Insiders), ir.Candidates, ir.Solves, len(ir.Findings))
	}
}
