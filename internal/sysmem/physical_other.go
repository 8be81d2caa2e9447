//go:build !linux

package sysmem

// physical returns 0: the physical memory is not measured here.
func physical() uint64 { return 0 }
