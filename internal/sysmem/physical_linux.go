package sysmem

import "golang.org/x/sys/unix"

// physical returns the physical memory in bytes (sysinfo(2)), or 0 when it
// cannot be read.
func physical() uint64 {
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}
