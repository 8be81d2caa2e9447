package cellbounds_test

import (
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
)

// TestCertifiedCells: with Settings.Cells the certified method bounds the
// listed cells as it does without (the same sharp values) and leaves the
// others at their trivial bounds; an index outside the table is an error.
func TestCertifiedCells(t *testing.T) {
	_, ms := fixedCase(t, []int{2, 3, 2, 2}, [][]int{{0, 1}, {1, 2}, {2, 3}, {0, 3}})
	full, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified})
	if err != nil {
		t.Fatal(err)
	}
	if !full.Sharp {
		t.Fatalf("the full run is not sharp: %s", full.Note)
	}
	cells := []int{17, 3, 9}
	part, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified, Cells: cells})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[int]bool{}
	for _, c := range cells {
		listed[c] = true
		if part.Bounds.Lower[c] != full.Bounds.Lower[c] || part.Bounds.Upper[c] != full.Bounds.Upper[c] {
			t.Errorf("cell %d: [%v, %v] with Cells, [%v, %v] without", c, part.Bounds.Lower[c], part.Bounds.Upper[c], full.Bounds.Lower[c], full.Bounds.Upper[c])
		}
		cc := part.Certificates.Cells[c]
		if !cc.Lower.Sharp() || !cc.Upper.Sharp() {
			t.Errorf("listed cell %d not sharp: %+v", c, cc)
		}
	}
	trivial := 0
	for c := range part.Bounds.Lower {
		// Every bound stays valid: it contains the sharp interval.
		if part.Bounds.Lower[c] > full.Bounds.Lower[c] || part.Bounds.Upper[c] < full.Bounds.Upper[c] {
			t.Errorf("cell %d: [%v, %v] does not contain the sharp [%v, %v]", c, part.Bounds.Lower[c], part.Bounds.Upper[c], full.Bounds.Lower[c], full.Bounds.Upper[c])
		}
		if !listed[c] && part.Certificates.Cells[c].Upper.Proof == cellbounds.ProofTrivial {
			trivial++
		}
	}
	if trivial == 0 {
		t.Error("no unlisted cell kept its trivial upper bound: Cells was ignored")
	}
	if part.CertifiedStats.LPSolves >= full.CertifiedStats.LPSolves {
		t.Errorf("%d LP solves for 3 cells, %d for all %d", part.CertifiedStats.LPSolves, full.CertifiedStats.LPSolves, len(part.Bounds.Lower))
	}
	if _, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified, Cells: []int{len(part.Bounds.Lower)}}); err == nil {
		t.Error("a cell outside the table accepted")
	}
}

// TestCertifiedDeadlineHolds: the certified method on 2^12 with all 3-way
// margins (LP solves of about a second; the run takes far longer than the
// limit) returns close to its time limit: every engine solve, also those
// of sessions opened at the start, stops at the deadline on the wall clock
// (solvers.Params.Deadline), not after a per-solve limit fixed when the
// session opened or counted in CPU time. The slack is generous (a busy
// machine); solvers/coin's TestSessionDeadline checks the engine side
// exactly.
func TestCertifiedDeadlineHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2 s run")
	}
	var subs [][]int
	for i := 0; i < 12; i++ {
		for j := i + 1; j < 12; j++ {
			for k := j + 1; k < 12; k++ {
				subs = append(subs, []int{i, j, k})
			}
		}
	}
	dims := make([]int, 12)
	for i := range dims {
		dims[i] = 2
	}
	_, ms := fixedCase(t, dims, subs)
	const limit, slack = 2 * time.Second, 1500 * time.Millisecond
	start := time.Now()
	r, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified, TimeLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if took > limit+slack {
		t.Errorf("certified with a %v limit took %v (%s)", limit, took, r.Note)
	}
	if r.Stopped != cellbounds.StoppedTimeLimit {
		t.Errorf("stopped %q after %v, want %q (the case takes minutes)", r.Stopped, took, cellbounds.StoppedTimeLimit)
	}
	t.Logf("%v: %s", took, r.Note)
}
