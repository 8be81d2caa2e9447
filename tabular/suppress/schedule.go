package suppress

import (
	"math"
	"time"
)

// Schedule decides when Solve runs what: how many LP rounds the cut loop
// makes, after which of them the primal heuristic runs, and how long each
// MIP solve may take. It holds no state of the search; Solve asks it at
// each step. A nil *Schedule means DefaultSchedule().
type Schedule struct {
	// MaxLPRounds ends the LP phase after this many rounds (master LP,
	// separation) even when cuts are still violated. Default 200.
	MaxLPRounds int
	// HeuristicEvery runs the heuristic after LP rounds k, 2k, ... (and
	// always at the end of the LP phase and after every MIP whose
	// solution is not safe). Default 0: only at those fixed points.
	HeuristicEvery int
	// LPShare is the share of the time limit after which the LP phase
	// ends. Default 0.4.
	LPShare float64
	// MIPShare is the share of the time left that one MIP solve may use.
	// Default 0.5.
	MIPShare float64
	// MaxMIPRounds bounds the number of master MIP solves. Default 100.
	MaxMIPRounds int
	// MinMIPTime is the least time a MIP solve gets when a time limit is
	// set (at most the time left). Default 1 s.
	MinMIPTime time.Duration
	// StallRounds and StallTol end the LP phase when the bound rose by
	// less than StallTol (relative to the bound) over the last
	// StallRounds rounds: the master MIP then raises it faster than more
	// LP rounds. Defaults 2 and 0.02 (on the synth preset "3way-5000",
	// freq:3, the LP bound rose 3.9 %, 1.7 %, 0.9 %, 0.7 %, 0.6 % in
	// rounds 2-6, while the first master MIP over the sparse cuts of
	// three rounds was above the LP bound); a negative StallTol turns
	// the test off.
	StallRounds int
	StallTol    float64
	// HeuristicAfterMIP moves the heuristic run at the end of the LP
	// phase to after the MIP phase, run there only when the MIPs found
	// no pattern and left time: from a fractional y the repair and the
	// cleanup of every cell are slow on large tables (about 3 minutes on
	// the synth preset "3way-5000"), while after an unsafe MIP solution
	// only the cells the repair adds are tried. Default false.
	HeuristicAfterMIP bool
	// RegularizedPerMIP bounds the regularized attacker LPs solved at
	// one MIP solution (regularized.go); past it the exact cuts are
	// kept. Default 0: none (on the synth preset "3way-5000" a budget
	// of 100 left the first MIP solution's separation unfinished after
	// 100 s).
	RegularizedPerMIP int
}

// DefaultSchedule returns the schedule used when nil is given.
func DefaultSchedule() *Schedule {
	return &Schedule{MaxLPRounds: 200, LPShare: 0.4, MIPShare: 0.5, MaxMIPRounds: 100, MinMIPTime: time.Second,
		StallRounds: 2, StallTol: 0.02}
}

func (s *Schedule) orDefault() *Schedule {
	d := DefaultSchedule()
	if s == nil {
		return d
	}
	c := *s
	if c.MaxLPRounds <= 0 {
		c.MaxLPRounds = d.MaxLPRounds
	}
	if c.LPShare <= 0 || c.LPShare > 1 {
		c.LPShare = d.LPShare
	}
	if c.MIPShare <= 0 || c.MIPShare > 1 {
		c.MIPShare = d.MIPShare
	}
	if c.MaxMIPRounds <= 0 {
		c.MaxMIPRounds = d.MaxMIPRounds
	}
	if c.MinMIPTime <= 0 {
		c.MinMIPTime = d.MinMIPTime
	}
	if c.StallRounds <= 0 {
		c.StallRounds = d.StallRounds
	}
	if c.StallTol == 0 {
		c.StallTol = d.StallTol
	}
	return &c
}

// HeuristicAfter reports whether the heuristic runs after LP round
// round (1-based).
func (s *Schedule) HeuristicAfter(round int) bool {
	return s.HeuristicEvery > 0 && round%s.HeuristicEvery == 0
}

// LPPhaseOver reports whether the LP phase ends after round rounds,
// elapsed of a total time limit (0: none).
func (s *Schedule) LPPhaseOver(round int, elapsed, total time.Duration) bool {
	if round >= s.MaxLPRounds {
		return true
	}
	return total > 0 && elapsed >= time.Duration(s.LPShare*float64(total))
}

// LPStalled reports whether the LP phase ends because its bound stalled:
// bounds holds the bound after each LP round so far.
func (s *Schedule) LPStalled(bounds []float64) bool {
	k := len(bounds) - 1 - s.StallRounds
	if s.StallTol < 0 || k < 0 {
		return false
	}
	last := bounds[len(bounds)-1]
	return last-bounds[k] < s.StallTol*math.Max(math.Abs(last), 1e-9)
}

// MIPLimit returns the time limit of the next MIP solve given the time
// left before the deadline: MIPShare of it, at least MinMIPTime and at
// most what is left (at least 1 ms); all that is left when retry is set
// (the previous MIP stopped at its limit without a solution); 0, meaning
// none, when there is no time limit (limited false).
func (s *Schedule) MIPLimit(left time.Duration, limited, retry bool) time.Duration {
	if !limited {
		return 0
	}
	l := time.Duration(s.MIPShare * float64(left))
	if retry {
		l = left
	}
	l = max(l, s.MinMIPTime)
	return max(min(l, left), time.Millisecond)
}

// MoreMIP reports whether another MIP solve may start after rounds
// solves.
func (s *Schedule) MoreMIP(rounds int) bool { return rounds < s.MaxMIPRounds }
