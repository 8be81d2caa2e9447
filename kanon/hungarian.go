package kanon

import (
	"errors"

	"github.com/sdcopt/sdcopt/native/hungarian"
)

// roundHungarian is one round of the Hungarian-based algorithm (Doka et
// al., Section 7): an exact minimum-weight perfect matching of the current
// weight matrix, edges already in the graph forbidden (+Inf), solved by
// native/hungarian (O(n³) shortest augmenting paths), which checks the
// deadline before every search.
func roundHungarian(st *rounds) ([]int32, error) {
	W, err := st.weights()
	if err != nil {
		return nil, err
	}
	assign, _, err := hungarian.SolveStop(st.n, W, st.stopFunc())
	if errors.Is(err, hungarian.ErrStopped) {
		return nil, errDeadline
	}
	if err != nil {
		return nil, err
	}
	a := make([]int32, st.n)
	for i, j := range assign {
		a[i] = int32(j)
	}
	return a, nil
}
