package suppress

import (
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// BenchmarkInsiderDecide3way5000 times the final insider check alone
// (intervals.InsiderDecide, every insider) on the fast method's
// outsider pattern of the synth preset "3way-5000" (freq:3), the pattern
// whose InsiderAudit (one Compute per insider) runs for hours.
func BenchmarkInsiderDecide3way5000(b *testing.B) {
	tab := presetTable(b, "3way-5000", "freq:3")
	r, err := Solve(tab, &Settings{Method: MethodFast, Insiders: InsidersOff})
	skipUnavailable(b, err)
	if err != nil {
		b.Fatal(err)
	}
	c := *tab
	c.Cells = slices.Clone(tab.Cells)
	for i := range c.Cells {
		c.Cells[i].Status = r.Status[i]
	}
	for b.Loop() {
		rep, err := intervals.InsiderDecide(&c, nil, &intervals.InsiderSettings{Settings: &intervals.Settings{NoCertificates: true}, MaxInsiders: -1})
		if err != nil {
			b.Fatal(err)
		}
		lps := 0
		for _, in := range rep.Insiders {
			lps += in.Solves
		}
		b.ReportMetric(float64(len(rep.Insiders)), "insiders")
		b.ReportMetric(float64(len(rep.Findings)), "findings")
		b.Logf("%d primary, %d secondary; %d insiders, ok %v, %d findings; %d LPs (%d under insiders' priors), %d pairs decided by witnesses alone",
			r.Primary, r.Secondary, len(rep.Insiders), rep.OK(), len(rep.Findings), rep.Solves, lps, rep.Decided)
	}
}
