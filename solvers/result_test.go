package solvers

import (
	"math"
	"testing"
)

func TestResultNormalize(t *testing.T) {
	solved := func(st Status) *Result {
		return &Result{Status: st, HasSolution: true, Objective: 3, BestBound: 3, X: []float64{1, 2},
			RowActivity: []float64{3}, HasDuals: true, Duals: []float64{1}, ReducedCosts: []float64{0, 0}}
	}
	cases := []struct {
		name      string
		r         *Result
		keepPoint bool
	}{
		{"optimal keeps its solution", solved(Optimal), true},
		{"time limit keeps its incumbent", solved(TimeLimit), true},
		{"node limit keeps its incumbent", solved(NodeLimit), true},
		{"interrupted keeps its incumbent", solved(Interrupted), true},
		{"unbounded drops the point", solved(Unbounded), false},
		{"infeasible drops the point", solved(Infeasible), false},
		{"infeasible or unbounded drops the point", solved(InfeasibleOrUnbounded), false},
		{"no solution: zero objective becomes NaN", &Result{Status: TimeLimit, X: []float64{0, 0}}, false},
		{"numerical trouble without a solution", &Result{Status: NumericalTrouble, RowActivity: []float64{1}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := c.r.Status
			c.r.Normalize()
			if c.r.Status != st {
				t.Errorf("status changed to %v", c.r.Status)
			}
			if c.keepPoint {
				if !c.r.HasSolution || len(c.r.X) != 2 || c.r.Objective != 3 || !c.r.HasDuals {
					t.Errorf("solution lost: %+v", c.r)
				}
				return
			}
			if c.r.HasSolution || c.r.X != nil || c.r.RowActivity != nil || !math.IsNaN(c.r.Objective) ||
				c.r.HasDuals || c.r.Duals != nil || c.r.ReducedCosts != nil {
				t.Errorf("after Normalize: %+v, want no solution, nil slices, NaN objective", c.r)
			}
		})
	}
}
