package solvers

import (
	"fmt"
	"math"
	"time"
)

// Default tolerances. MIP gaps are tight by default because sdcopt uses MIPs
// to prove sharp bounds and optima, not to find good-enough solutions.
const (
	DefaultMIPRelGap = 1e-6
	DefaultMIPAbsGap = 1e-9
)

// Limits checked by Params.Validate.
const (
	// MaxTimeLimit is the largest TimeLimit, 1e9 s (about 31 years; the
	// CLI's --time-limit has the same bound).
	MaxTimeLimit = 1e9 * time.Second
	// MaxThreads is the largest Threads.
	MaxThreads = 1024
)

// Params are the engine-neutral solve parameters. A nil *Params means
// DefaultParams(). Each backend maps every field to its engine; fields an
// engine cannot honour are reported in Result.Warnings, never silently
// dropped.
//
// Every backend checks the parameters with Validate at the start of Solve
// and NewSession; invalid ones make the call fail with an error wrapping
// ErrInvalidParams.
type Params struct {
	// TimeLimit bounds the wall-clock time of one Solve. Zero means no
	// limit; it must lie in [0, MaxTimeLimit].
	TimeLimit time.Duration
	// Deadline, when not zero, is a wall-clock instant at which every
	// solve stops: that of Solve and each Solve of a session, which reads
	// it anew every time (a session fixes TimeLimit when it opens). A
	// solve runs for at most the smaller of TimeLimit and the time left
	// (Limit); one started past the deadline stops at once with status
	// TimeLimit.
	Deadline time.Time
	// HardStop asks the engines whose own limit checks can come late
	// (CLP and CBC check theirs only inside their iteration loops, not in
	// presolve, scaling or the first factorization of a large model) to
	// abandon a call still running at its limit plus HardStopGrace (0.5 s
	// + 5 %): the call returns a TimeLimit result without a solution and
	// Result.Abandoned set, and the engine finishes in the background. A
	// session whose solve was abandoned is closed, so set HardStop only
	// where the caller opens a new session after Result.Abandoned. HiGHS
	// always stops at that time (from outside its wasm); lp_solve ignores
	// HardStop.
	HardStop bool
	// MIPRelGap is the relative gap |bound - incumbent| / |incumbent| at
	// which a MIP solve stops as optimal, in [0, 1]. Zero means
	// DefaultMIPRelGap; ask for a tiny positive value such as 1e-12 for
	// "no gap".
	MIPRelGap float64
	// MIPAbsGap is the absolute gap at which a MIP solve stops as optimal,
	// finite and non-negative. Zero means DefaultMIPAbsGap.
	MIPAbsGap float64
	// FeasTol is the primal feasibility tolerance, finite and
	// non-negative. Zero means the engine's own default (1e-7 for HiGHS
	// and CLP/CBC, 1e-9 for lp_solve's epsint/epsel family is left
	// untouched).
	FeasTol float64
	// Threads is the number of threads an engine may use, in
	// [0, MaxThreads]. Zero means 1. HiGHS-wasm is single-threaded and
	// reports any other value as ignored.
	Threads int
	// Verbose turns the engine's own log on (to stderr). Off by default.
	Verbose bool
	// Raw holds engine-specific options passed through unchanged, as
	// name -> value strings (e.g. "presolve" -> "off" for HiGHS). Unknown
	// names make Solve fail with an error naming the option.
	Raw map[string]string
}

// DefaultParams returns the parameters used when nil is passed.
func DefaultParams() *Params {
	return &Params{MIPRelGap: DefaultMIPRelGap, MIPAbsGap: DefaultMIPAbsGap}
}

// OrDefault returns p, or DefaultParams() when p is nil.
func (p *Params) OrDefault() *Params {
	if p == nil {
		return DefaultParams()
	}
	return p
}

// HardStopGrace is how long past its time limit an engine call may run
// before it is stopped from outside (HiGHS always; CLP and CBC with
// Params.HardStop): 0.5 s + 5 % of the limit. The engine's own limit
// normally ends the call first.
func HardStopGrace(limit time.Duration) time.Duration {
	return 500*time.Millisecond + limit/20
}

// MinDeadlineLimit is the limit Limit gives a solve started at or past
// Params.Deadline: an engine's 0 means no limit.
const MinDeadlineLimit = time.Millisecond

// Limit returns the time limit of a solve starting now: the smaller of
// TimeLimit and the time left before Deadline (at least
// MinDeadlineLimit), 0 when neither is set.
func (p *Params) Limit() time.Duration {
	if p == nil {
		return 0
	}
	l := p.TimeLimit
	if !p.Deadline.IsZero() {
		left := max(time.Until(p.Deadline), MinDeadlineLimit)
		if l == 0 || left < l {
			l = left
		}
	}
	return l
}

// RelGap returns MIPRelGap, or DefaultMIPRelGap when it is not positive.
func (p *Params) RelGap() float64 {
	if p == nil || !(p.MIPRelGap > 0) {
		return DefaultMIPRelGap
	}
	return p.MIPRelGap
}

// AbsGap returns MIPAbsGap, or DefaultMIPAbsGap when it is not positive.
func (p *Params) AbsGap() float64 {
	if p == nil || !(p.MIPAbsGap > 0) {
		return DefaultMIPAbsGap
	}
	return p.MIPAbsGap
}

// Validate checks the parameters' ranges (see the fields). A nil *Params
// is valid (the defaults). The error is an *Error wrapping
// ErrInvalidParams that names the first offending field and its accepted
// range.
func (p *Params) Validate() error {
	if p == nil {
		return nil
	}
	bad := func(field string, v any, want string) error {
		return &Error{Op: "validate parameters", Err: fmt.Errorf("%w: %s = %v, want %s", ErrInvalidParams, field, v, want)}
	}
	nonNegative := func(v float64) bool { return v >= 0 && !math.IsInf(v, 1) } // false for NaN
	switch {
	case p.TimeLimit < 0 || p.TimeLimit > MaxTimeLimit:
		return bad("TimeLimit", p.TimeLimit, fmt.Sprintf("a duration in [0, %gs] (0 = no limit)", MaxTimeLimit.Seconds()))
	case !nonNegative(p.MIPRelGap) || p.MIPRelGap > 1:
		return bad("MIPRelGap", p.MIPRelGap, "a number in [0, 1] (0 = default)")
	case !nonNegative(p.MIPAbsGap):
		return bad("MIPAbsGap", p.MIPAbsGap, "a finite number >= 0 (0 = default)")
	case !nonNegative(p.FeasTol):
		return bad("FeasTol", p.FeasTol, "a finite number >= 0 (0 = engine default)")
	case p.Threads < 0 || p.Threads > MaxThreads:
		return bad("Threads", p.Threads, fmt.Sprintf("an integer in [0, %d] (0 = 1)", MaxThreads))
	}
	return nil
}
