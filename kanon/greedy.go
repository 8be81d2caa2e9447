package kanon

import "math"

// roundGreedy is one round of Greedy (Doka et al., Section 5): the
// originals are scanned in lexicographic order and each takes the
// lightest T_j that is free in this round and not yet adjacent to it
// (ties: lowest j); a dead end is resolved at once by backtracking (see
// resolve). The weights of one original are computed as a row at a time
// (O(n) memory; O(n²·d) time per round).
func roundGreedy(st *rounds) ([]int32, error) {
	p := newPartial(st.n)
	row := make([]float64, st.n)
	inf := math.Inf(1)
	for x, i := range st.order {
		if x&15 == 0 && st.expired() {
			return nil, errDeadline
		}
		st.row(i, row)
		best, bw := -1, inf
		for _, j32 := range p.freeT {
			j := int(j32)
			w := row[j]
			if w == inf {
				continue // (S_i, T_j) already in the graph
			}
			if w < bw || (w == bw && j < best) || best < 0 {
				best, bw = j, w
			}
		}
		if best >= 0 {
			p.match(i, best)
			continue
		}
		if err := st.resolve(p, i, st.w); err != nil {
			return nil, err
		}
	}
	return p.assign, nil
}
