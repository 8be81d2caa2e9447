package lp

import (
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// MasterProblem writes the restricted master problem of the column
// generation for microaggregation (Gentile, Spagnolo-Arrizabalaga & Castro,
// Section 4.1, model (9) with its integrality relaxed): one equality row
// Σ_{C ∋ v} x_C = 1 per record v, one column x_C ≥ 0 per group C of the
// family with cost w_C (Equation (8), the group's SSE). The columns have no
// upper bound: x_C ≤ 1 is implied by the rows, and leaving it out keeps
// the row duals λ the only dual information, so that the reduced cost of a
// group is w_C − Σ_{v∈C} λ_v exactly (Equation (10)).
//
// Every group must be non-empty with members in 0..n-1 and no repeats.
func MasterProblem(d *model.SqDist, groups [][]int) (*solvers.Problem, error) {
	p := &solvers.Problem{Sense: solvers.Minimize}
	for v := 0; v < d.N; v++ {
		p.AddRow(1, 1, fmt.Sprintf("r%d", v))
	}
	obj, lo, up, start, rows, vals, err := MasterColumns(d, groups)
	if err != nil {
		return nil, err
	}
	for c := range obj {
		p.AddCol(obj[c], lo[c], up[c], solvers.Continuous, rows[start[c]:start[c+1]], vals[start[c]:start[c+1]], "")
	}
	return p, nil
}

// MasterColumns returns groups as master columns in the CSC form that
// solvers.Session.AddCols takes (types nil: continuous).
func MasterColumns(d *model.SqDist, groups [][]int) (obj, lo, up []float64, start, rows []int, vals []float64, err error) {
	obj = make([]float64, len(groups))
	lo = make([]float64, len(groups))
	up = make([]float64, len(groups))
	start = make([]int, 1, len(groups)+1)
	seen := make([]int, d.N)
	for c, g := range groups {
		if len(g) == 0 {
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("lp: master column %d is an empty group", c)
		}
		for _, v := range g {
			if v < 0 || v >= d.N {
				return nil, nil, nil, nil, nil, nil, fmt.Errorf("lp: master column %d names record %d of %d", c, v, d.N)
			}
			if seen[v] == c+1 {
				return nil, nil, nil, nil, nil, nil, fmt.Errorf("lp: master column %d names record %d twice", c, v)
			}
			seen[v] = c + 1
			rows = append(rows, v)
			vals = append(vals, 1)
		}
		obj[c] = d.GroupCost(g)
		up[c] = math.Inf(1)
		start = append(start, len(rows))
	}
	return obj, lo, up, start, rows, vals, nil
}
