package intervals

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

// optimalLiar wraps a real engine and reports every LP it solves as
// optimal with the objective claim and zero duals: what CLP's presolve
// was seen to return for some unbounded local relaxations of a 3-way
// table (max x_j = 0 with x_j unbounded above), which made Compute take
// 0 for the cell's upper end and the audit find the cell disclosed.
type optimalLiar struct {
	solvers.Solver
	claim float64
}

func (o *optimalLiar) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	r, err := o.Solver.Solve(p, prm)
	if err != nil {
		return r, err
	}
	r.Status, r.Objective, r.HasDuals = solvers.Optimal, o.claim, true
	r.Duals = make([]float64, p.NumRows())
	r.ReducedCosts = make([]float64, p.NumCols())
	return r, nil
}

// TestLocalBoundRefusesUnproven: a local relaxation reported optimal
// whose duals do not prove its value (here y = 0, which proves only the
// prior bound +Inf of a maximum) is refused, with and without
// certificates kept, while the engine's own answers are accepted.
func TestLocalBoundRefusesUnproven(t *testing.T) {
	tab := localTable(t, 0)
	sv, err := solvers.New("auto", false)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	for _, noCert := range []bool{false, true} {
		s := &Settings{NoCertificates: noCert}
		a, err := build(tableSource(tab), s)
		if err != nil {
			t.Fatal(err)
		}
		if a.fix, err = a.presolve(); err != nil {
			t.Fatal(err)
		}
		tried, honest := 0, 0
		for j := range a.cells {
			if a.fix.is[j] || len(a.varRows[j]) == 0 || !math.IsInf(a.up[j], 1) {
				continue
			}
			rows, vars := a.localNeighbourhood(j, 2)
			// The liar claims the cell's true value, which a seen point
			// reaches: without the check it would be taken as the end.
			liar := &optimalLiar{Solver: sv, claim: a.values[j]}
			if _, _, ok, err := a.localBound(liar, j, rows, vars, solvers.Maximize, s); err != nil {
				t.Fatal(err)
			} else if ok {
				t.Fatalf("NoCertificates %v: cell %d: unproven local maximum %g accepted", noCert, j, liar.claim)
			}
			tried++
			if _, _, ok, err := a.localBound(sv, j, rows, vars, solvers.Maximize, s); err != nil {
				t.Fatal(err)
			} else if ok {
				honest++
			}
			if tried == 20 {
				break
			}
		}
		if tried == 0 || honest == 0 {
			t.Fatalf("NoCertificates %v: %d cells tried, %d honest local bounds accepted: the test proves nothing", noCert, tried, honest)
		}
	}
}
