//go:build cgo && coin

package coin

/*
#cgo LDFLAGS: -ldl
#include <signal.h>
#include <stdint.h>
#include "signals.h"

// sdc_call_signal calls signal(3) as engine code does (tests only).
static uintptr_t sdc_call_signal(int sig, uintptr_t h) {
	return (uintptr_t)signal(sig, (void (*)(int))h);
}
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"syscall"
)

// engineSignals brackets engine calls that may install signal handlers
// (CLP's initial solve, CBC's driver; see signals.c and the Signals
// section of the package documentation). The first enterEngine saves the
// SIGINT and SIGTERM actions and makes signal(3) calls for them record
// instead of install; the last leaveEngine restores the saved actions
// exactly if they changed. Brackets nest across goroutines (concurrent CLP
// solves).
var engineSignals struct {
	mu    sync.Mutex
	depth int
}

// enterEngine must be paired with leaveEngine around an engine call.
func enterEngine() {
	engineSignals.mu.Lock()
	defer engineSignals.mu.Unlock()
	if engineSignals.depth == 0 {
		C.sdc_signal_begin()
	}
	engineSignals.depth++
}

// leaveEngine ends an engine call begun by enterEngine.
func leaveEngine() {
	engineSignals.mu.Lock()
	defer engineSignals.mu.Unlock()
	engineSignals.depth--
	if engineSignals.depth == 0 && C.sdc_signal_end() != 0 {
		restoredActions.Add(1)
	}
}

// restoredActions counts the brackets at whose end a SIGINT or SIGTERM
// action had changed and was restored. It stays 0 as long as the engines
// touch handlers only through signal(3), which the bracket absorbs; the
// tests check that.
var restoredActions atomic.Int64

// absorbedSignalCalls counts the signal(3) calls for SIGINT or SIGTERM that
// engines made during engine calls and that were recorded, not installed.
func absorbedSignalCalls() int64 { return int64(C.sdc_signal_absorbed()) }

// callSignal calls signal(3) for sig with the handler at address h (0 is
// SIG_DFL, 1 is SIG_IGN) from C, as engine code does, and returns the
// previous handler's address. For tests of the interposition.
func callSignal(sig syscall.Signal, h uintptr) uintptr {
	return uintptr(C.sdc_call_signal(C.int(sig), C.uintptr_t(h)))
}
