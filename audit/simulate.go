package audit

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// SimulationMethod names how Simulate draws a table, for the record.
const SimulationMethod = "random-objective-mip"

// ErrNoTable reports a public view that no integer table satisfies (it
// can happen once simulated and true margins mix).
var ErrNoTable = errors.New("audit: no integer table has every released margin")

// ErrNothingReleased reports a public view with no margin: nothing has
// been released, so not even the total is public, and a simulated table
// would have to take it (or anything else) from the confidential table.
var ErrNothingReleased = errors.New("audit: nothing has been released: a simulated table may depend only on the releases, and not even the total is public")

// ErrSimulationLimit reports a simulation stopped by its time limit before
// the engine found a table.
var ErrSimulationLimit = errors.New("audit: simulation stopped by its time limit before a table was found")

// Simulate draws an integer table that reproduces every margin of view
// exactly: the optimum of the integer program min cᵀx over the tables with
// those margins, with c drawn uniformly from [0, 1) per cell by a PCG
// generator seeded with seed (integer engine: cellbounds.NewTableMIP(solver),
// CBC for "" and "auto"; timeLimit 0 = none).
//
// The distribution is not uniform over the tables with these margins:
// every table drawn is an extreme point of their integer hull, each with
// the probability that a uniformly random direction selects it (large
// faces are likelier). It depends only on the public view and the seed, so
// a simulated release discloses nothing about the confidential table
// beyond what is already public. The same seed gives the same table
// (the engines run single-threaded and deterministic). Two confidential
// tables with the same released margins therefore give the same simulated
// table for the same seed. A view with no margin is refused
// (ErrNothingReleased): its total would be the confidential one.
func Simulate(view *model.MarginSet, seed uint64, solver string, timeLimit time.Duration) (*model.Table, error) {
	if len(view.Margins) == 0 {
		return nil, ErrNothingReleased
	}
	if err := view.Check(); err != nil {
		var inc *model.InconsistencyError
		if errors.As(err, &inc) {
			return nil, fmt.Errorf("%w: %v", ErrNoTable, err)
		}
		return nil, err
	}
	p := lp.CellBoundsProblem(view, true)
	r := rand.New(rand.NewPCG(seed, 0x73696d756c617465))
	for j := range p.Obj {
		p.Obj[j] = r.Float64()
	}
	p.Sense = solvers.Minimize
	s, err := cellbounds.NewTableMIP(solver)
	if err != nil {
		return nil, err
	}
	prm := &solvers.Params{TimeLimit: timeLimit, Threads: 1}
	res, err := s.Solve(p, prm)
	if err != nil {
		return nil, err
	}
	switch {
	case res.Status == solvers.Infeasible:
		return nil, ErrNoTable
	case !res.HasSolution && res.Status.Limit():
		return nil, fmt.Errorf("%w (%s, %s)", ErrSimulationLimit, s.Name(), res.Status)
	case !res.HasSolution:
		return nil, fmt.Errorf("audit: simulation: %s found no table (%s)", s.Name(), res.Status)
	}
	counts := make([]int64, len(res.X))
	for j, x := range res.X {
		v := math.Round(x)
		if math.Abs(x-v) > 1e-6 || v < 0 {
			return nil, fmt.Errorf("audit: simulation: %s returned a non-integer cell %d = %g", s.Name(), j, x)
		}
		counts[j] = int64(v)
	}
	t, err := model.NewTable(view.Vars, counts)
	if err != nil {
		return nil, err
	}
	// The engine's word is not taken: the table must reproduce the view.
	for _, m := range view.Margins {
		got, err := t.Collapse(m.Vars)
		if err != nil {
			return nil, err
		}
		for i := range got.Counts {
			if got.Counts[i] != m.Counts[i] {
				return nil, fmt.Errorf("audit: simulation: %s returned a table whose margin %s differs at cell %d",
					s.Name(), model.MarginalName(view.Vars, m.Vars), i)
			}
		}
	}
	return t, nil
}
