package suppress

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// BenchmarkIncumbent3way5000 solves "3way-5000" (freq:3, outsiders
// only, as BenchmarkPreset3way5000) under limits of 60, 300 and 600 s
// and reports the first incumbent's time and cost (Progress phase
// "start"), the fast pattern's cost before the cleanup by moves, and the
// final cost, bound and gap; lpclean-60s also cleans the fast pattern
// with witness LPs (lpCleanFast). Run one case with -bench
// 'Incumbent3way5000/^60s'.
func BenchmarkIncumbent3way5000(b *testing.B) {
	if testing.Short() {
		b.Skip("long")
	}
	tab := presetTable(b, "3way-5000", "freq:3")
	for _, limit := range []time.Duration{60 * time.Second, 300 * time.Second, 600 * time.Second, -60 * time.Second} {
		name := fmt.Sprintf("%.0fs", limit.Seconds())
		if limit < 0 {
			// The LP cleanup of the fast pattern too (lpCleanFast).
			name, limit = fmt.Sprintf("lpclean-%.0fs", -limit.Seconds()), -limit
		}
		lpClean := strings.HasPrefix(name, "lpclean")
		b.Run(name, func(b *testing.B) {
			lpCleanFast = lpClean
			defer func() { lpCleanFast = false }()
			var first time.Duration
			var firstCost float64
			s := &Settings{Params: &solvers.Params{TimeLimit: limit}, Insiders: InsidersOff}
			s.Progress = func(p Progress) {
				if p.Phase == "start" {
					first, firstCost = p.Elapsed, p.Cost
				}
				if testing.Verbose() {
					fmt.Fprintf(os.Stderr, "%8.1f s %-9s cost %g bound %.2f, %d LP rounds, %d MIPs, %d cuts\n", p.Elapsed.Seconds(), p.Phase, p.Cost, p.LowerBound, p.LPRounds, p.MIPSolves, p.Cuts)
				}
			}
			for b.Loop() {
				r, err := Solve(tab, s)
				skipUnavailable(b, err)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(first.Seconds(), "first-s")
				b.ReportMetric(firstCost, "first-cost")
				b.ReportMetric(r.Cost, "cost")
				b.ReportMetric(r.LowerBound, "bound")
				b.ReportMetric(100*r.Gap, "gap%")
				b.Logf("limit %v: fast incumbent %v (cost %g before the cleanup by moves), first incumbent %.2f s cost %g; cost %g, bound %g, gap %.2f%%, stop %v, audit ok %v, %d LP rounds, %d MIPs, %d heuristic runs, %.1f s",
					limit, r.FastIncumbent, r.FastIncumbentCost, first.Seconds(), firstCost, r.Cost, r.LowerBound, 100*r.Gap, r.Stop, r.Audit.OK(), r.LPRounds, r.MIPSolves, r.Heuristic, r.Seconds)
			}
		})
	}
}
