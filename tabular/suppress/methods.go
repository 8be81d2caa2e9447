package suppress

import "fmt"

// Methods of Settings.Method.
const (
	// MethodOptimal is the branch-and-cut of the package documentation:
	// a pattern of minimum cost (or, under a limit, a safe one with a
	// proven lower bound). It is the default.
	MethodOptimal = "optimal"
	// MethodFast is the hypercube construction with full-table audit and
	// repair (see SolveFast): a safe pattern, no optimality claim, for
	// tables of 10^4–10^5 cells.
	MethodFast = "fast"
	// MethodAuto is MethodOptimal for tables of fewer than AutoCells
	// cells, else MethodFast.
	MethodAuto = "auto"
)

// AutoCells is the size, in cells, from which MethodAuto picks
// MethodFast. On the synth preset "2way-1300" (1,296 cells) the optimal
// method finishes in seconds (against outsiders; about 100 s with
// insiders, BenchmarkInsiders2way1300); on "3way-5000" (4,913 cells) its
// heuristic alone takes about 3 minutes.
const AutoCells = 3000

// StopHeuristic says that the fast method stopped with a safe pattern
// and no claim of optimality.
const StopHeuristic Stop = StopNoPrimary + 1

// method returns the method Settings ask for on a problem of n cells:
// MethodOptimal or MethodFast.
func (s *Settings) method(n int) (string, error) {
	m := ""
	if s != nil {
		m = s.Method
	}
	switch m {
	case "", MethodOptimal:
		return MethodOptimal, nil
	case MethodFast:
		return MethodFast, nil
	case MethodAuto:
		if n < AutoCells {
			return MethodOptimal, nil
		}
		return MethodFast, nil
	}
	return "", fmt.Errorf("%w: method %q (want %q, %q or %q)", ErrInput, m, MethodOptimal, MethodFast, MethodAuto)
}
