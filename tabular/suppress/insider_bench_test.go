package suppress

import (
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// BenchmarkInsiders2way1300 solves the synth preset "2way-1300"
// (freq:3) with and without insiders (10-minute limit each) and runs
// the insider audit (every insider) on both patterns.
func BenchmarkInsiders2way1300(b *testing.B) {
	tab := presetTable(b, "2way-1300", "freq:3")
	for _, pol := range []struct {
		name string
		p    InsiderPolicy
	}{{"outsiders", InsidersOff}, {"insiders", InsidersOn}} {
		b.Run(pol.name, func(b *testing.B) {
			s := &Settings{Params: &solvers.Params{TimeLimit: 10 * time.Minute}, Insiders: pol.p}
			for b.Loop() {
				r, err := Solve(tab, s)
				skipUnavailable(b, err)
				if err != nil {
					b.Fatal(err)
				}
				rep, ok := insiderOK(b, tab, r.Status)
				b.ReportMetric(r.Cost, "cost")
				b.ReportMetric(100*r.Gap, "gap%")
				b.Logf("%s: %d primary, %d secondary, cost %g, bound %g, gap %.2f%%, stop %v; %d insider targets (%d impossible), %d insider LPs, %d MIPs, %d cuts; %.1f s; insider audit (all %d insiders): ok %v, %d findings",
					pol.name, r.Primary, r.Secondary, r.Cost, r.LowerBound, 100*r.Gap, r.Stop, r.InsiderTargets, r.InsiderImpossible, r.InsiderLPs,
					r.MIPSolves, r.Cuts, r.Seconds, len(rep.Insiders), ok, len(rep.Findings))
			}
		})
	}
}
