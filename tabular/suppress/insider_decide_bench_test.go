package suppress

import (
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// fastOutsiderPattern returns the synth preset's table (freq:3) with the
// fast method's outsider pattern as its statuses.
func fastOutsiderPattern(b *testing.B, preset string) *tabular.Table {
	tab := presetTable(b, preset, "freq:3")
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
	return &c
}

// BenchmarkInsiderFinal times the final insider check alone (every
// insider) on the fast method's outsider pattern of synth presets
// (freq:3): intervals.InsiderDecide, and intervals.InsiderAudit (one
// Compute per insider) on "2way-1300" only, where it ends in minutes (on
// "3way-5000" it runs for hours).
func BenchmarkInsiderFinal(b *testing.B) {
	set := &intervals.InsiderSettings{Settings: &intervals.Settings{NoCertificates: true}, MaxInsiders: -1}
	for _, bc := range []struct {
		preset string
		audit  bool
	}{{"2way-1300", false}, {"2way-1300", true}, {"3way-5000", false}} {
		name := bc.preset + "/decide"
		if bc.audit {
			name = bc.preset + "/audit"
		}
		b.Run(name, func(b *testing.B) {
			tab := fastOutsiderPattern(b, bc.preset)
			for b.Loop() {
				start := time.Now()
				f := intervals.InsiderDecide
				if bc.audit {
					f = intervals.InsiderAudit
				}
				rep, err := f(tab, nil, set)
				if err != nil {
					b.Fatal(err)
				}
				lps := 0
				for _, in := range rep.Insiders {
					lps += in.Solves
				}
				b.ReportMetric(float64(len(rep.Insiders)), "insiders")
				b.ReportMetric(float64(len(rep.Findings)), "findings")
				b.Logf("%s: %d insiders, ok %v, %d findings; %d LPs (%d under insiders' priors), %d pairs decided by witnesses alone; %.1f s",
					name, len(rep.Insiders), rep.OK(), len(rep.Findings), rep.Solves, lps, rep.Decided, time.Since(start).Seconds())
			}
		})
	}
}
