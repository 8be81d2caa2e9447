// Package sysmem says how much memory one computation of sdcopt may take
// by default: half of the machine's physical memory (sysinfo(2) on Linux;
// 8 GiB assumed where it cannot be read). Loaders, generators and solvers
// compare their size estimates with it before allocating, so that a size
// that cannot fit is refused with an error instead of the runtime's fatal
// "out of memory".
package sysmem

import (
	"fmt"
	"math"
	"sync"
)

// FallbackPhysical is the physical memory assumed where it cannot be
// measured: 8 GiB, so the default limit is 4 GiB.
const FallbackPhysical = 8 << 30

var physicalOnce = sync.OnceValue(physical)

// Physical returns the physical memory in bytes, or 0 when it cannot be
// read. It is measured once.
func Physical() uint64 { return physicalOnce() }

// DefaultLimit returns half of the physical memory (of FallbackPhysical
// when it is unknown).
func DefaultLimit() int64 {
	phys := Physical()
	if phys == 0 {
		phys = FallbackPhysical
	}
	return int64(min(phys/2, math.MaxInt64))
}

// DefaultSource says where DefaultLimit comes from, for messages.
func DefaultSource() string {
	if Physical() == 0 {
		return fmt.Sprintf("half of an assumed %d GiB of physical memory", FallbackPhysical>>30)
	}
	return "half of the physical memory"
}

// Human formats a byte count with a decimal unit ("12.6 GB").
func Human(b float64) string {
	const units = "kMGTPE"
	if b < 1000 {
		return fmt.Sprintf("%.0f B", b)
	}
	u := -1
	for b >= 1000 && u < len(units)-1 {
		b /= 1000
		u++
	}
	return fmt.Sprintf("%.1f %cB", b, units[u])
}
