package solvers

import "fmt"

// Status says why an engine stopped. It is independent of whether a
// solution was found: a TimeLimit result may carry a feasible incumbent.
type Status int8

const (
	// StatusUnknown is the zero value; backends return it only when the
	// engine's own status could not be mapped.
	StatusUnknown Status = iota
	Optimal
	Infeasible
	Unbounded
	InfeasibleOrUnbounded
	TimeLimit
	IterationLimit
	NodeLimit
	SolutionLimit
	Interrupted
	NumericalTrouble
	// EmptyModel is not used: a problem without columns is solved to
	// Optimal (or Infeasible when a row excludes zero).
)

var statusNames = [...]string{
	StatusUnknown:         "unknown",
	Optimal:               "optimal",
	Infeasible:            "infeasible",
	Unbounded:             "unbounded",
	InfeasibleOrUnbounded: "infeasible_or_unbounded",
	TimeLimit:             "time_limit",
	IterationLimit:        "iteration_limit",
	NodeLimit:             "node_limit",
	SolutionLimit:         "solution_limit",
	Interrupted:           "interrupted",
	NumericalTrouble:      "numerical_trouble",
}

func (s Status) String() string {
	if int(s) >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// MarshalText makes Status print by name in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseStatus is the inverse of Status.String.
func ParseStatus(name string) (Status, error) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), nil
		}
	}
	return StatusUnknown, fmt.Errorf("solvers: unknown status %q", name)
}

// NoSolution reports whether s rules out a solution in the result:
// Infeasible, Unbounded and InfeasibleOrUnbounded (see Result).
func (s Status) NoSolution() bool {
	switch s {
	case Infeasible, Unbounded, InfeasibleOrUnbounded:
		return true
	}
	return false
}

// Limit reports whether the engine stopped on a limit (time, iterations,
// nodes, solutions) or an interruption rather than with a proof.
func (s Status) Limit() bool {
	switch s {
	case TimeLimit, IterationLimit, NodeLimit, SolutionLimit, Interrupted:
		return true
	}
	return false
}
