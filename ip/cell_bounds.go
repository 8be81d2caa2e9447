package ip

import (
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// ErrInfeasible is wrapped by CellBounds when the margins are inconsistent
// or admit no integer table.
var ErrInfeasible = lp.ErrNoIntegerTable

// Options are lp.Options: Marginal, Cells, Progress, Cold and Stats mean
// the same for the integer solves.
type Options = lp.Options

// CellBoundsProblem returns the integer model: lp.CellBoundsProblem with
// integer columns.
func CellBoundsProblem(ms *model.MarginSet) *solvers.Problem {
	return lp.CellBoundsProblem(ms, true)
}

// CellBounds returns the sharp integer bounds of every cell (or of the
// cells of a marginal, or a subset; see lp.Options), with two integer
// solves per cell in one session of s (s must support integer columns).
// Errors: ErrInfeasible (wrapped), lp.ErrNotSolved, engine errors, and
// MarginSet.Check's errors for malformed margins. A nil prm means
// solvers.DefaultParams().
func CellBounds(ms *model.MarginSet, s solvers.Solver, prm *solvers.Params, opt *Options) (*model.CellBounds, error) {
	return lp.Solve(ms, s, prm, opt, true)
}
