package highs

// sliceMemory is a linear memory in a Go slice that grows by doubling its
// capacity (so that a sequence of small grows copies O(final size) bytes).
// It is the fallback when no address space can be reserved up front.
type sliceMemory struct{ buf []byte }

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	c := max(size, 2*uint64(cap(m.buf)))
	nb := make([]byte, size, c)
	copy(nb, m.buf)
	m.buf = nb
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
