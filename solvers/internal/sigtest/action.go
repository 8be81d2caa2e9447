package sigtest

import (
	"fmt"
	"syscall"
)

// Flags of struct sigaction (Linux values, asm-generic and x86).
const (
	FlagSigInfo = 0x4
	FlagOnStack = 0x08000000
	FlagRestart = 0x10000000
)

// Action is a signal's disposition as the kernel holds it. Handler is the
// handler's address (0 is SIG_DFL, 1 is SIG_IGN).
type Action struct {
	Handler  uintptr
	Flags    uint64
	Mask     uint64
	restorer uintptr
}

// Equal reports whether a and b have the same handler, flags and mask.
func (a Action) Equal(b Action) bool {
	return a.Handler == b.Handler && a.Flags == b.Flags && a.Mask == b.Mask
}

func (a Action) String() string {
	return fmt.Sprintf("handler %#x flags %#x mask %#x", a.Handler, a.Flags, a.Mask)
}

// Snapshot returns the actions of sigs, in order.
func Snapshot(sigs ...syscall.Signal) ([]Action, error) {
	out := make([]Action, len(sigs))
	for i, s := range sigs {
		a, err := Get(s)
		if err != nil {
			return nil, fmt.Errorf("sigaction(%v): %w", s, err)
		}
		out[i] = a
	}
	return out, nil
}
