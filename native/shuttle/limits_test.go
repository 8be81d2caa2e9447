package shuttle

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// TestFamilySizeClosedForm: the closed forms behind Estimate count exactly
// the blocks and splits that newFamily builds, for both families.
func TestFamilySizeClosedForm(t *testing.T) {
	for allMax := 1; allMax <= 5; allMax++ {
		for c := 1; c <= 12; c++ {
			if c <= allMax && c > 10 {
				continue
			}
			f := newFamily(c, allMax)
			blocks, triples := familySize(c, allMax)
			if blocks != int64(len(f.blocks)) || triples != int64(len(f.triples)) {
				t.Errorf("c = %d, allMax = %d: closed form %d blocks %d splits, newFamily %d and %d",
					c, allMax, blocks, triples, len(f.blocks), len(f.triples))
			}
		}
	}
}

// TestEstimateMatchesSystem: Estimate's |T| and dependency count are those
// of the system Bounds builds.
func TestEstimateMatchesSystem(t *testing.T) {
	for _, dims := range [][]int{{2, 2, 2}, {3, 4}, {5, 5, 5}, {2, 2, 2, 2, 2, 2}, {7, 2, 3}} {
		for _, allMax := range []int{1, DefaultAllSubsetsMax} {
			sys, err := newSystem(dims, allMax, DefaultMaxDeps, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			m := estimate(dims, nil, allMax, false)
			if m.TCells != int64(sys.size) || m.Deps != int64(len(sys.d12)) {
				t.Errorf("%v (allMax %d): estimate |T| = %d, %d deps; system %d, %d", dims, allMax, m.TCells, m.Deps, sys.size, len(sys.d12))
			}
		}
	}
}

// smallCase is a seeded random table with all two-way margins on the
// shapes where the correction step does real work (see TestBruteForce),
// with its sharp bounds by enumeration.
type smallCase struct {
	name   string
	ms     *model.MarginSet
	lo, hi []int64
}

func smallCases(t *testing.T, n int, seed uint64) []smallCase {
	rng := rand.New(rand.NewPCG(seed, 9))
	shapes := [][]int{{2, 2, 2, 2}, {2, 2, 2, 3}, {3, 3, 3}, {2, 3, 4}}
	var out []smallCase
	for i := 0; i < n; i++ {
		dims := shapes[i%len(shapes)]
		cells := model.NumCells(dims)
		counts := make([]int64, cells)
		for range 20 + rng.IntN(21) {
			counts[rng.IntN(cells)]++
		}
		ms := mustReleased(t, mustTable(t, dims, counts), allTwoWay(len(dims)))
		lo, hi, _ := enumerate(ms)
		out = append(out, smallCase{fmt.Sprintf("case %d %v %v", i, dims, counts), ms, lo, hi})
	}
	return out
}

// checkValid fails when b cuts into the sharp bounds [lo, hi] somewhere.
func checkValid(t *testing.T, name string, b *model.CellBounds, lo, hi []int64) {
	t.Helper()
	for i := range lo {
		if b.Lower[i] > float64(lo[i]) || b.Upper[i] < float64(hi[i]) {
			t.Errorf("%s: cell %d: [%g, %g] cuts the sharp bounds [%d, %d]", name, i, b.Lower[i], b.Upper[i], lo[i], hi[i])
		}
	}
}

// TestDeadline: with a deadline already past the result holds the trivial
// bounds, stopped; with tiny deadlines the stop falls anywhere in the
// build, the propagation or the correction step, and the bounds are valid
// wherever it falls; a run that was not stopped is sharp.
func TestDeadline(t *testing.T) {
	cases := smallCases(t, 24, 11)
	past := time.Now().Add(-time.Second)
	for _, c := range cases {
		opt := DefaultOptions()
		opt.Deadline = past
		r, err := Bounds(c.ms, opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Stopped != StoppedTimeLimit || r.Sharp {
			t.Errorf("%s: past deadline: Stopped %q, Sharp %v", c.name, r.Stopped, r.Sharp)
		}
		checkValid(t, c.name+" (past deadline)", r.Bounds, c.lo, c.hi)
		if b, sharp := r.Marginal([]int{0}); sharp || len(b.Lower) != len(c.ms.Vars[0].Levels) {
			t.Errorf("%s: Marginal after a stop: %d cells, sharp %v", c.name, len(b.Lower), sharp)
		}
	}
	stops := 0
	for _, d := range []time.Duration{time.Nanosecond, 20 * time.Microsecond, 200 * time.Microsecond, 2 * time.Millisecond} {
		for _, c := range cases {
			opt := DefaultOptions()
			opt.Deadline = time.Now().Add(d)
			r, err := Bounds(c.ms, opt)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			name := fmt.Sprintf("%s (deadline %v)", c.name, d)
			checkValid(t, name, r.Bounds, c.lo, c.hi)
			checkValid(t, name+" shuttle", r.ShuttleBounds, c.lo, c.hi)
			switch r.Stopped {
			case "":
				if !r.Sharp {
					t.Errorf("%s: not stopped but not sharp: %s", name, r.Note)
				}
				checkBoundsEqual(t, name, r.Bounds, c.lo, c.hi)
			case StoppedTimeLimit:
				stops++
				for i := range c.lo {
					if r.LowerSharp[i] && r.Bounds.Lower[i] != float64(c.lo[i]) || r.UpperSharp[i] && r.Bounds.Upper[i] != float64(c.hi[i]) {
						t.Errorf("%s: cell %d certified but not sharp", name, i)
					}
				}
			default:
				t.Errorf("%s: Stopped %q", name, r.Stopped)
			}
		}
	}
	if stops < len(cases) {
		t.Errorf("only %d runs stopped: the deadlines do not exercise the stop", stops)
	}
}

// TestMemoryLimit: below Memory.Shuttle Bounds refuses; between
// Memory.Shuttle and Memory.Total it skips the correction step and returns
// the valid shuttle bounds; above it the bounds are sharp.
func TestMemoryLimit(t *testing.T) {
	for _, c := range smallCases(t, 8, 12) {
		m := Estimate(c.ms, nil)
		opt := DefaultOptions()
		opt.MemoryLimit = m.Shuttle - 1
		if _, err := Bounds(c.ms, opt); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: limit below the shuttle's %d bytes: err = %v, want ErrTooLarge", c.name, m.Shuttle, err)
		}
		opt.MemoryLimit = m.Shuttle + m.Correction/2
		r, err := Bounds(c.ms, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Stopped != StoppedMemoryLimit || r.Bounds.Diff(r.ShuttleBounds, 0) >= 0 || r.Nodes != 0 {
			t.Errorf("%s: limit without room for the correction: Stopped %q, %d nodes, note %s", c.name, r.Stopped, r.Nodes, r.Note)
		}
		checkValid(t, c.name, r.Bounds, c.lo, c.hi)
		opt.MemoryLimit = m.Total()
		r, err = Bounds(c.ms, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Stopped != "" || !r.Sharp {
			t.Errorf("%s: limit = the estimate: Stopped %q, Sharp %v", c.name, r.Stopped, r.Sharp)
		}
		checkBoundsEqual(t, c.name, r.Bounds, c.lo, c.hi)
	}
}

// TestCorrectionMemoryStop gives the correction step budgets too small
// for its search (which Bounds never does while Memory.Correction is the
// worst case of a dive, but a dive can go deeper than one level a cell):
// the search stops and every bound stays valid; with a generous budget the
// bounds are sharp.
func TestCorrectionMemoryStop(t *testing.T) {
	stops := 0
	for _, c := range smallCases(t, 12, 13) {
		n := int64(len(c.lo))
		fixed := n*8*int64(len(c.ms.Margins)) + n*24 + n*16
		level := 8*n + bytesPerLevel
		for _, budget := range []int64{0, fixed + 2*level, fixed + 4*level + 50*bytesPerTrailEntry, fixed + 8*level + 500*bytesPerTrailEntry, 1 << 30} {
			opt := DefaultOptions()
			r, st, _, err := prepare(c.ms, opt, time.Now())
			if err != nil || st == nil {
				t.Fatalf("%s: prepare: %v", c.name, err)
			}
			if err := r.correct(c.ms, st, opt, budget); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			name := fmt.Sprintf("%s (budget %d)", c.name, budget)
			checkValid(t, name, r.Bounds, c.lo, c.hi)
			switch {
			case r.Stopped == StoppedMemoryLimit:
				stops++
			case r.Stopped != "":
				t.Errorf("%s: Stopped %q", name, r.Stopped)
			default:
				checkBoundsEqual(t, name, r.Bounds, c.lo, c.hi)
			}
			if budget == 1<<30 && (r.Stopped != "" || !r.Sharp) {
				t.Errorf("%s: Stopped %q, Sharp %v", name, r.Stopped, r.Sharp)
			}
		}
	}
	if stops == 0 {
		t.Error("no budget stopped the search")
	}
}
