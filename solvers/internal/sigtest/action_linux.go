//go:build linux && (amd64 || arm64)

package sigtest

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// kernelSigaction is struct sigaction as the rt_sigaction system call sees
// it on linux/amd64 and linux/arm64 (both define SA_RESTORER).
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

// sigsetSize is the kernel's sigset_t size in bytes (64 signals).
const sigsetSize = 8

// Supported reports whether Get and Set work on this platform.
const Supported = true

// Get returns the current action of sig.
func Get(sig syscall.Signal) (Action, error) {
	var old kernelSigaction
	_, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), 0, uintptr(unsafe.Pointer(&old)), sigsetSize, 0, 0)
	if e != 0 {
		return Action{}, e
	}
	return Action{Handler: old.handler, Flags: old.flags, Mask: old.mask, restorer: old.restorer}, nil
}

// Set installs a, as returned by Get, for sig.
func Set(sig syscall.Signal, a Action) error {
	act := kernelSigaction{handler: a.Handler, flags: a.Flags, restorer: a.restorer, mask: a.Mask}
	_, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, sigsetSize, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
