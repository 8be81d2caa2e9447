package solvers

import "time"

// Default tolerances. MIP gaps are tight by default because sdcopt uses MIPs
// to prove sharp bounds and optima, not to find good-enough solutions.
const (
	DefaultMIPRelGap = 1e-6
	DefaultMIPAbsGap = 1e-9
)

// Params are the engine-neutral solve parameters. A nil *Params means
// DefaultParams(). Each backend maps every field to its engine; fields an
// engine cannot honour are reported in Result.Warnings, never silently
// dropped.
type Params struct {
	// TimeLimit bounds the wall-clock time of one Solve. Zero means no limit.
	TimeLimit time.Duration
	// MIPRelGap is the relative gap |bound - incumbent| / |incumbent| at
	// which a MIP solve stops as optimal. Zero (or negative) means
	// DefaultMIPRelGap; ask for a tiny positive value such as 1e-12 for
	// "no gap".
	MIPRelGap float64
	// MIPAbsGap is the absolute gap at which a MIP solve stops as optimal.
	// Zero (or negative) means DefaultMIPAbsGap.
	MIPAbsGap float64
	// FeasTol is the primal feasibility tolerance. Zero means the engine's
	// own default (1e-7 for HiGHS and CLP/CBC, 1e-9 for lp_solve's
	// epsint/epsel family is left untouched).
	FeasTol float64
	// Threads is the number of threads an engine may use. Zero means 1.
	// HiGHS-wasm is single-threaded and reports any other value as ignored.
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
