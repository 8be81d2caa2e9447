// Package cli holds what every sdcopt command shares: exit codes, checks of flags
// and paths, atomic output files, clean interrupts and progress reporting.
package cli

import (
	"errors"
	"fmt"

	"github.com/sdcopt/sdcopt/solvers"
)

// Exit codes of the sdcopt command (the CLI contract in the README).
const (
	ExitOK         = 0
	ExitNoSolution = 1 // the problem has no solution (infeasible, inconsistent input)
	ExitBadInput   = 2 // bad usage or bad input
	ExitEngine     = 3 // engine failure
)

// ExitError carries an exit code with its message.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// BadInput wraps err with exit code 2.
func BadInput(format string, args ...any) error {
	return &ExitError{Code: ExitBadInput, Err: fmt.Errorf(format, args...)}
}

// NoSolution wraps err with exit code 1.
func NoSolution(format string, args ...any) error {
	return &ExitError{Code: ExitNoSolution, Err: fmt.Errorf(format, args...)}
}

// Code maps an error to the exit code of the CLI contract: an *ExitError
// keeps its code; solver-layer errors are classified by their sentinel
// (unknown/unavailable engine, invalid model or unsupported feature -> 2,
// engine failure -> 3); anything else is bad input (2).
func Code(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	switch {
	case errors.Is(err, solvers.ErrEngine):
		return ExitEngine
	case errors.Is(err, solvers.ErrUnknownSolver), errors.Is(err, solvers.ErrUnavailable),
		errors.Is(err, solvers.ErrInvalidProblem), errors.Is(err, solvers.ErrUnsupported),
		errors.Is(err, solvers.ErrInvalidParams):
		return ExitBadInput
	}
	return ExitBadInput
}
