package kanon

import (
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// solveMIP solves one partition exactly with ip.SolveKAnonMIP (the
// GCP-optimal k-regular graph containing the identity), engine
// o.MIPSolver ("" = auto), time limit o.TimeLimit, default MIP gaps. The
// partition's bound is the engine's best bound on the partition's GCP.
func solveMIP(t *model.QITable, k int, o *Options) (partResult, error) {
	if k == 1 {
		m := make([][]int32, t.N)
		for j := range m {
			m[j] = []int32{int32(j)}
		}
		return partResult{matched: m, bound: 0, optimal: true}, nil
	}
	prm := solvers.DefaultParams()
	prm.TimeLimit = o.TimeLimit
	r, err := ip.SolveKAnonMIP(t, k, o.MIPSolver, prm)
	if err != nil {
		return partResult{}, err
	}
	return partResult{matched: r.Graph.Matched, bound: r.Bound, optimal: r.Optimal, solver: r.Solver}, nil
}
