package kanon

import "math"

// roundSortGreedy is one round of SortGreedy (Doka et al., Section 6,
// Algorithm 2): all unused edges sorted by ascending weight are scanned
// once and an edge is taken when both its ends are still free; the
// originals left unmatched are then scanned in lexicographic order and
// each is matched by the backtracking of resolve.
//
// The sort key of an edge is its weight rounded to float32 (monotone, so
// the order of weights that differ by more than float32 resolution is
// exact) followed by the edge index j*n+i; the keys are generated in index
// order and sorted by a stable two-pass radix sort on the 32-bit weight
// part, O(n²) per round. Memory: two n² uint64 arrays.
func roundSortGreedy(st *rounds) ([]int32, error) {
	n := st.n
	keys := st.keys[:0]
	if cap(keys) < n*n {
		keys = make([]uint64, 0, n*n)
	}
	col := make([]float64, n)
	inf := math.Inf(1)
	for j := range n {
		if j&15 == 0 && st.expired() {
			return nil, errDeadline
		}
		st.column(j, col)
		for _, i := range st.matched[j] {
			col[i] = inf
		}
		for i, w := range col {
			if w != inf {
				keys = append(keys, uint64(math.Float32bits(float32(w)))<<32|uint64(j*n+i))
			}
		}
	}
	if cap(st.buf) < len(keys) {
		st.buf = make([]uint64, len(keys))
	}
	sorted := radixSortHigh(keys, st.buf[:len(keys)])
	st.keys, st.buf = keys, st.buf[:cap(st.buf)]
	keys = sorted
	if st.expired() {
		return nil, errDeadline
	}
	p := newPartial(n)
	left := n
	for _, key := range keys {
		e := int(uint32(key))
		j, i := e/n, e%n
		if p.assign[i] < 0 && p.owner[j] < 0 {
			p.match(i, j)
			if left--; left == 0 {
				break
			}
		}
	}
	for _, i := range st.order {
		if p.assign[i] >= 0 {
			continue
		}
		if st.expired() { // a dead end costs O(n) and more
			return nil, errDeadline
		}
		if err := st.resolve(p, i, st.w); err != nil {
			return nil, err
		}
	}
	return p.assign, nil
}

// radixSortHigh sorts keys stably by their upper 32 bits (two passes of
// 16 bits) using buf (of the same length) as scratch; it returns the
// sorted slice (keys or buf).
func radixSortHigh(keys, buf []uint64) []uint64 {
	if len(keys) < 2 {
		return keys
	}
	for shift := uint(32); shift < 64; shift += 16 {
		var count [1 << 16]int
		for _, k := range keys {
			count[(k>>shift)&0xffff]++
		}
		if count[(keys[0]>>shift)&0xffff] == len(keys) {
			continue // all equal in this digit
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range keys {
			d := (k >> shift) & 0xffff
			buf[count[d]] = k
			count[d]++
		}
		keys, buf = buf, keys
	}
	return keys
}
