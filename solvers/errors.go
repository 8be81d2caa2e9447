package solvers

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package and its backends
// wraps one of them inside an *Error that names the engine.
var (
	// ErrInvalidProblem: the Problem failed Validate, or a session change
	// named a column or row that does not exist.
	ErrInvalidProblem = errors.New("invalid problem")
	// ErrInvalidParams: the Params failed Params.Validate.
	ErrInvalidParams = errors.New("invalid parameters")
	// ErrUnknownSolver: no engine is registered under the name.
	ErrUnknownSolver = errors.New("unknown solver")
	// ErrUnavailable: the engine is registered but cannot run here (not
	// built in, runtime files missing). The message says why.
	ErrUnavailable = errors.New("solver unavailable")
	// ErrUnsupported: the engine cannot do what was asked (e.g. integer
	// columns on an LP-only engine, an unknown raw option).
	ErrUnsupported = errors.New("unsupported")
	// ErrEngine: the engine itself failed (a C++ exception, an abort, an
	// out-of-memory, a return code that signals a failed call). The engine
	// instance is discarded.
	ErrEngine = errors.New("engine failure")
	// ErrClosed: a Session was used after Close.
	ErrClosed = errors.New("session closed")
)

// Error is the typed error of the solver layer: which engine, which
// operation, and the underlying error (which wraps a sentinel above).
type Error struct {
	Engine string // registry name, empty for engine-independent checks
	Op     string // "solve", "validate", "add columns", ...
	Err    error
}

func (e *Error) Error() string {
	if e.Engine == "" {
		return fmt.Sprintf("solvers: %s: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("solvers: %s: %s: %v", e.Engine, e.Op, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error for engine and op that wraps sentinel with a
// formatted detail.
func Errorf(engine, op string, sentinel error, format string, args ...any) error {
	return &Error{Engine: engine, Op: op, Err: fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))}
}

// WithEngine returns err with the engine name filled in when err is an
// *Error without one; other errors are wrapped.
func WithEngine(engine string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Engine == "" {
			c := *e
			c.Engine = engine
			return &c
		}
		return err
	}
	return &Error{Engine: engine, Op: "solve", Err: err}
}

func errorsf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
}

func isPosInf(v float64) bool { return v > 1.7976931348623157e308 }
func isNegInf(v float64) bool { return v < -1.7976931348623157e308 }
