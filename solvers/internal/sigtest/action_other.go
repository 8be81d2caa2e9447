//go:build !(linux && (amd64 || arm64))

package sigtest

import (
	"errors"
	"syscall"
)

// Supported reports whether Get and Set work on this platform.
const Supported = false

var errUnsupported = errors.New("sigtest: reading signal actions is implemented for linux/amd64 and linux/arm64 only")

// Get returns the current action of sig.
func Get(sig syscall.Signal) (Action, error) { return Action{}, errUnsupported }

// Set installs a, as returned by Get, for sig.
func Set(sig syscall.Signal, a Action) error { return errUnsupported }
