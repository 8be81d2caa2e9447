package suppress

import (
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/primary"
	"github.com/sdcopt/sdcopt/tabular/synth"
)

// presetTable returns the synth preset's table (seed 7, as the presets'
// documentation measures them) with the primary rules spec applied.
func presetTable(b testing.TB, name, spec string) *tabular.Table {
	b.Helper()
	sp, err := synth.Preset(name, 7)
	if err != nil {
		b.Fatal(err)
	}
	d, err := synth.Generate(sp)
	if err != nil {
		b.Fatal(err)
	}
	tab, err := d.Table()
	if err != nil {
		b.Fatal(err)
	}
	rs, err := primary.ParseRuleSet(spec)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tabular.ApplyPrimary(tab, rs); err != nil {
		b.Fatal(err)
	}
	return tab
}

func benchPreset(b *testing.B, name string, limit time.Duration) {
	tab := presetTable(b, name, "freq:3")
	s := &Settings{Params: &solvers.Params{TimeLimit: limit}}
	if testing.Verbose() {
		s.Progress = func(p Progress) {
			b.Logf("%8.1f s %-9s cost %g bound %.2f, %d LP rounds, %d MIPs, %d cuts", p.Elapsed.Seconds(), p.Phase, p.Cost, p.LowerBound, p.LPRounds, p.MIPSolves, p.Cuts)
		}
	}
	for b.Loop() {
		r, err := Solve(tab, s)
		skipUnavailable(b, err)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.Cost, "cost")
		b.ReportMetric(r.LowerBound, "bound")
		b.ReportMetric(100*r.Gap, "gap%")
		b.Logf("%s freq:3: %d cells, %d primary (%d targets), %d secondary, cost %g, bound %g, gap %.2f%%, stop %v, audit ok %v; "+
			"%d LP rounds, %d MIPs (%s), %d cuts (%d nonzeros), %d attacker LPs, %d heuristic LPs (%s), %d heuristic runs, %d incumbents, %d republished; %.1f s (separation %.1f, heuristic %.1f, MIP %.1f)",
			name, len(tab.Cells), r.Primary, r.Targets, r.Secondary, r.Cost, r.LowerBound, 100*r.Gap, r.Stop, r.Audit.OK(),
			r.LPRounds, r.MIPSolves, r.MIPEngine, r.Cuts, r.CutNonzeros, r.AttackerLPs, r.HeuristicLPs, r.LPEngine, r.Heuristic, r.Incumbents, r.Republished, r.Seconds, r.SeparationSeconds, r.HeuristicSeconds, r.MIPSeconds)
	}
}

// BenchmarkPreset2way1300 solves the synth preset "2way-1300" (36 × 36
// cells, freq:3: 188 primary) to optimality or a 10-minute limit.
func BenchmarkPreset2way1300(b *testing.B) { benchPreset(b, "2way-1300", 10*time.Minute) }

// BenchmarkPreset3way5000 solves the synth preset "3way-5000" (17³
// cells, freq:3: 1,154 primary) under a 5-minute limit.
func BenchmarkPreset3way5000(b *testing.B) {
	if testing.Short() {
		b.Skip("long")
	}
	benchPreset(b, "3way-5000", 5*time.Minute)
}
