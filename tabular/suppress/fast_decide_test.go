package suppress

import (
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// TestFastDecided: on 24 seeded tables (2-way flat and hierarchical,
// 3-way) the fast method's cubes decide the audit whenever every target
// has a cube, the decided pattern passes the full audit (solveOK runs
// intervals.Compute and intervals.Audit on it independently), and
// Settings.ExactAudit, which audits by intervals.Compute instead, returns
// the same pattern, undecided. The decision audit's agreement with the
// exact audit on failing patterns is TestDecideAgreesWithAudit (package
// intervals).
func TestFastDecided(t *testing.T) {
	shapes := []func() []*tabular.Hierarchy{
		func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 4), flat(t, "c", 5)} },
		func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{twoLevel(t, "r", 3, 3), twoLevel(t, "c", 2, 3)}
		},
		func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{twoLevel(t, "a", 2, 2), flat(t, "b", 3), flat(t, "c", 2)}
		},
	}
	decided := 0
	for seed := range uint64(24) {
		hs := shapes[seed%3]()
		tab := randomTable(t, hs, 100+seed, 9, 3+int(seed%5), 3)
		r := solveOK(t, tab, fastSettings(&Settings{Insiders: InsidersOff}))
		if r.Cubes == r.Targets && !r.Decided {
			t.Errorf("seed %d: every target has a cube, audit not decided", seed)
		}
		if r.Decided {
			decided++
			if r.RepairRounds != 0 || r.Republished != 0 {
				t.Errorf("seed %d: decided after %d repair rounds, %d republished", seed, r.RepairRounds, r.Republished)
			}
		}
		ex := solveOK(t, tab, fastSettings(&Settings{ExactAudit: true, Insiders: InsidersOff}))
		if ex.Decided {
			t.Errorf("seed %d: ExactAudit decided", seed)
		}
		if r.Decided && (!slices.Equal(r.Status, ex.Status) || r.Cost != ex.Cost) {
			t.Errorf("seed %d: decided pattern (cost %g) differs from the exactly audited one (cost %g)", seed, r.Cost, ex.Cost)
		}
	}
	t.Logf("24 tables, %d decided by the cubes", decided)
	if decided == 0 {
		t.Error("no audit decided: the test proves nothing")
	}
}

// TestFast3way5000: the synthetic "3way-5000" table (seed 7, freq:3,
// 1,154 primary cells) gets a pattern decided by its cubes that also
// passes the full audit (solveOK).
func TestFast3way5000(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	tab := presetTable(t, "3way-5000", "freq:3")
	r := solveOK(t, tab, fastSettings(&Settings{Insiders: InsidersOff}))
	t.Logf("%d secondary, cost %g, decided %v, %d repair rounds; %.2f s", r.Secondary, r.Cost, r.Decided, r.RepairRounds, r.Seconds)
	if !r.Decided {
		t.Error("audit not decided by the cubes")
	}
}

// TestFastRepairDecided: the table of TestFastRepair, whose one target
// has no usable cube, is repaired by the protection LP. On this integer
// data its optimal vertex is an integral deviation (engine-found; a
// hand-made one is in TestFastRepair), which flowMove turns into a move
// of step 1 and intervals.Decide checks exactly, so the audit is decided
// without intervals.Compute; the pattern passes the full audit
// (solveOK).
func TestFastRepairDecided(t *testing.T) {
	tab := repairTable(t)
	r := solveOK(t, tab, fastSettings(&Settings{Insiders: InsidersOff}))
	if r.Cubes != 0 || r.RepairRounds != 1 || !r.Decided {
		t.Fatalf("%d cubes, %d repair rounds, decided %v: want no cube, one repair, decided", r.Cubes, r.RepairRounds, r.Decided)
	}
}
