//go:build !unix

package highs

import "github.com/tetratelabs/wazero/experimental"

func newMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		return &sliceMemory{}
	})
}
