package suppress

import (
	"fmt"
	"os"
	"testing"
)

// benchFast solves the synth preset name (seed 7) with freq:3 by
// MethodFast and reports the time, the cells suppressed, the cost and
// the audit's verdict.
func benchFast(b *testing.B, name string) {
	tab := presetTable(b, name, "freq:3")
	s := &Settings{Method: MethodFast, Insiders: InsidersOff} // outsiders, as recorded before insiders were modelled
	if testing.Verbose() {
		// Printed at once: b.Logf shows only when the benchmark ends.
		s.Progress = func(p Progress) {
			fmt.Fprintf(os.Stderr, "%s: %8.1f s %-7s cost %g\n", name, p.Elapsed.Seconds(), p.Phase, p.Cost)
		}
	}
	for b.Loop() {
		r, err := Solve(tab, s)
		skipUnavailable(b, err)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.Cost, "cost")
		b.ReportMetric(float64(r.Secondary), "secondary")
		b.Logf("%s freq:3 fast (decided %v): %d cells, %d primary (%d targets), %d secondary, cost %g, %d cubes, %d repair rounds (%d LPs, %.1f s), %d republished, audit ok %v (%d under-protected, %d disclosed); %.1f s",
			name, r.Decided, len(tab.Cells), r.Primary, r.Targets, r.Secondary, r.Cost, r.Cubes, r.RepairRounds, r.HeuristicLPs, r.HeuristicSeconds, r.Republished,
			r.Audit.OK(), len(r.Audit.UnderProtected), len(r.Audit.Disclosed), r.Seconds)
	}
}

// BenchmarkFast2way1300 runs MethodFast on "2way-1300" (1,296 cells).
func BenchmarkFast2way1300(b *testing.B) { benchFast(b, "2way-1300") }

// BenchmarkFast3way5000 runs MethodFast on "3way-5000" (4,913 cells,
// 1,154 primary); the target is a safe pattern within 10 s.
func BenchmarkFast3way5000(b *testing.B) { benchFast(b, "3way-5000") }

// BenchmarkFast3way100k runs MethodFast on "3way-100k" (97,336 cells);
// the target is a safe pattern, audit included, within 10 minutes.
func BenchmarkFast3way100k(b *testing.B) {
	if testing.Short() {
		b.Skip("long")
	}
	benchFast(b, "3way-100k")
}

// BenchmarkFast2way100k runs MethodFast on "2way-100k" (106,251 cells).
func BenchmarkFast2way100k(b *testing.B) {
	if testing.Short() {
		b.Skip("long")
	}
	benchFast(b, "2way-100k")
}
