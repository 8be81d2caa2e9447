package kanon

import (
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/mincostflow"
)

// solveFlow is the minimum-cost-flow baseline (Doka et al., Section 8,
// "minCostFlow"): a (k-1)-regular bipartite graph on the off-diagonal
// edges minimizing the sum of pairwise distances, dist(i, j) = the NCP sum
// of the box of records i and j (symmetric; not GCP), solved by
// native/mincostflow.KRegular; the identity round is added, giving a
// k-regular graph. matched[j] in local indices.
func solveFlow(t *model.QITable, k int) ([][]int32, error) {
	n := t.N
	matched := make([][]int32, n)
	for j := range matched {
		matched[j] = make([]int32, 1, k)
		matched[j][0] = int32(j)
	}
	if k == 1 {
		return matched, nil
	}
	// With the identity boxes (NCP sum 0) the round weights are the
	// pairwise distances, and the diagonal is forbidden (+Inf).
	cost, err := newRounds(t, 1).weights() // no deadline: never fails
	if err != nil {
		return nil, err
	}
	chosen, _, err := mincostflow.KRegular(n, k-1, cost)
	if err != nil {
		return nil, err
	}
	for i, cols := range chosen {
		for _, j := range cols {
			matched[j] = append(matched[j], int32(i))
		}
	}
	return matched, nil
}
