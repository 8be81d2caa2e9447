package cli

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// MaxTimeLimit is the largest --time-limit in seconds: a time.Duration
// holds about 292 years, this is about 31.
const MaxTimeLimit = 1e9

// TimeLimit checks a --time-limit in seconds (0 = none) and converts it.
func TimeLimit(flag string, secs float64) (time.Duration, error) {
	if math.IsNaN(secs) || secs < 0 || secs > MaxTimeLimit {
		return 0, BadInput("%s must be between 0 (none) and %g seconds, got %g", flag, float64(MaxTimeLimit), secs)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// IntRange checks lo <= v <= hi.
func IntRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		if hi == math.MaxInt {
			return BadInput("%s must be at least %d, got %d", flag, lo, v)
		}
		return BadInput("%s must be between %d and %d, got %d", flag, lo, hi, v)
	}
	return nil
}

// FloatRange checks that v is a number with lo <= v <= hi (hi may be
// +Inf: then v must still be finite).
func FloatRange(flag string, v, lo, hi float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
		if math.IsInf(hi, 1) {
			return BadInput("%s must be a finite number >= %g, got %g", flag, lo, v)
		}
		return BadInput("%s must be between %g and %g, got %g", flag, lo, hi, v)
	}
	return nil
}

// Solver checks an engine name: "auto", a registered engine (available
// here or not: using an unavailable one fails later with the reason), or
// with all also "all". Unknown names are refused even on paths that need
// no engine.
func Solver(flag, name string, all bool) error {
	known := append([]string{"auto"}, solvers.Names()...)
	if all {
		known = append(known, "all")
	}
	if slices.Contains(known, name) {
		return nil
	}
	return BadInput("unknown %s %q (want one of %s)", flag, name, strings.Join(known, ", "))
}

// CheckFormat validates a --format value against the allowed ones.
func CheckFormat(format string, allowed ...string) error {
	if slices.Contains(allowed, format) {
		return nil
	}
	return BadInput("unknown --format %q (want one of %s)", format, strings.Join(allowed, ", "))
}
