package suppress

import (
	"testing"
	"time"
)

// TestSchedule checks the default schedule's decisions (the defaults are
// documented on Schedule: 200 LP rounds, LP phase to 40 % of the limit,
// each MIP half of the time left and at least 1 s).
func TestSchedule(t *testing.T) {
	s := (*Schedule)(nil).orDefault()
	if s.LPPhaseOver(199, 0, 0) || !s.LPPhaseOver(200, 0, 0) {
		t.Error("LP rounds: want the phase over at round 200, not 199")
	}
	if s.LPPhaseOver(1, 39*time.Second, 100*time.Second) || !s.LPPhaseOver(1, 40*time.Second, 100*time.Second) {
		t.Error("LP share: want the phase over at 40 s of 100 s, not 39 s")
	}
	if s.LPPhaseOver(1, time.Hour, 0) {
		t.Error("no time limit: the LP phase must not end on time")
	}
	for _, c := range []struct {
		left           time.Duration
		limited, retry bool
		want           time.Duration
	}{
		{10 * time.Second, true, false, 5 * time.Second}, // half of 10 s
		{10 * time.Second, true, true, 10 * time.Second}, // a retry gets all
		{time.Second, true, false, time.Second},          // at least 1 s, at most what is left
		{300 * time.Millisecond, true, false, 300 * time.Millisecond},
		{-time.Second, true, false, time.Millisecond}, // past the deadline: 1 ms
		{10 * time.Second, false, false, 0},           // no limit
	} {
		if got := s.MIPLimit(c.left, c.limited, c.retry); got != c.want {
			t.Errorf("MIPLimit(%v, %v, %v) = %v, want %v", c.left, c.limited, c.retry, got, c.want)
		}
	}
	// The bound stalls when it rose by less than 2 % over 2 rounds:
	// 100 → 101.5 is 1.5 % of 101.5, 100 → 102.5 is 2.4 %.
	if s.LPStalled([]float64{90, 100}) || s.LPStalled([]float64{100, 101, 102.5}) || !s.LPStalled([]float64{90, 100, 101, 101.5}) {
		t.Error("LPStalled")
	}
	if (&Schedule{StallRounds: 3, StallTol: -1}).LPStalled([]float64{1, 1, 1, 1, 1}) {
		t.Error("LPStalled with StallTol < 0: want never")
	}
	if !(&Schedule{HeuristicEvery: 3}).HeuristicAfter(6) || (&Schedule{HeuristicEvery: 3}).HeuristicAfter(5) || s.HeuristicAfter(1) {
		t.Error("HeuristicAfter")
	}
}
