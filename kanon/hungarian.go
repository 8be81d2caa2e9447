package kanon

import "github.com/sdcopt/sdcopt/native/hungarian"

// roundHungarian is one round of the Hungarian-based algorithm (Doka et
// al., Section 7): an exact minimum-weight perfect matching of the current
// weight matrix, edges already in the graph forbidden (+Inf), solved by
// native/hungarian (O(n³) shortest augmenting paths).
func roundHungarian(st *rounds) ([]int32, error) {
	assign, _, err := hungarian.Solve(st.n, st.weights())
	if err != nil {
		return nil, err
	}
	a := make([]int32, st.n)
	for i, j := range assign {
		a[i] = int32(j)
	}
	return a, nil
}
