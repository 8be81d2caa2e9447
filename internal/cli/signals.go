package cli

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Exit codes after a signal: 128 + the signal number, as shells report them.
const (
	ExitInterrupted = 128 + int(syscall.SIGINT)  // 130
	ExitTerminated  = 128 + int(syscall.SIGTERM) // 143
)

// HandleSignals makes SIGINT and SIGTERM stop the process cleanly: the
// handler waits for a commit of outputs under way (Outputs.Commit),
// removes every temporary work directory (MkdirTemp) with its contents
// and every temporary output file, says so on stderr and exits with
// ExitInterrupted or ExitTerminated. Engines running in C or WebAssembly
// end with the process; nothing they wrote is an output. Call it once, at
// the start of main.
func HandleSignals() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-ch
		forwardMu.Lock()
		fw := forward
		forwardMu.Unlock()
		if fw != nil {
			// A long-running command (sdcopt serve) shuts down itself.
			fw <- sig
			for sig := range ch {
				fw <- sig
			}
			return
		}
		commitMu.Lock()
		tempMu.Lock()
		removeAllTrees()
		removeAllTemps()
		code := ExitInterrupted
		if sig == syscall.SIGTERM {
			code = ExitTerminated
		}
		fmt.Fprintf(os.Stderr, "%s: stopped by %s; %s\n", Program, signalName(sig), StoppedMessage)
		os.Exit(code)
	}()
}

var (
	forwardMu sync.Mutex
	forward   chan os.Signal
)

// TakeSignals hands SIGINT and SIGTERM to the caller instead of stopping
// the process: a server shuts down gracefully on them. Call it before the
// first signal can matter; it returns the channel the signals arrive on.
func TakeSignals() <-chan os.Signal {
	forwardMu.Lock()
	defer forwardMu.Unlock()
	if forward == nil {
		forward = make(chan os.Signal, 2)
	}
	return forward
}

// Program is the command's name in the message of a stopped run; a
// command other than sdcopt sets it before HandleSignals.
var Program = "sdcopt"

// StoppedMessage is printed when a signal stops a run (tests match it).
const StoppedMessage = "no partial output left behind"

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
