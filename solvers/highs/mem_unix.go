//go:build unix

package highs

import (
	"math"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// reservedMemory backs a wasm linear memory with one anonymous mapping of
// the memory's maximum size, reserved PROT_NONE (no commit charge) and made
// readable and writable as the memory grows. Growing therefore never copies
// and never moves the memory.
type reservedMemory struct {
	buf       []byte // the whole reservation
	committed int    // bytes made accessible so far
}

func newMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		if max == 0 || max > 1<<32 {
			max = 1 << 32
		}
		if max > math.MaxInt {
			return &sliceMemory{} // 32-bit address space
		}
		buf, err := unix.Mmap(-1, 0, int(max), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
		if err != nil {
			// No address space to reserve: fall back to a Go slice.
			return &sliceMemory{}
		}
		return &reservedMemory{buf: buf}
	})
}

func (m *reservedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	if n := int(size); n > m.committed {
		if err := unix.Mprotect(m.buf[m.committed:n], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		m.committed = n
	}
	return m.buf[:size:size]
}

func (m *reservedMemory) Free() {
	if m.buf != nil {
		unix.Munmap(m.buf)
		m.buf = nil
	}
}
