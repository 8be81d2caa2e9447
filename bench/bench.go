package bench

import (
	"errors"
	"fmt"
	"io"

	// The reproductions solve with every engine built in (the cgo ones
	// with their build tags), as the command line does.
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// Errors of the runners.
var (
	// ErrSettings: a setting is out of range or names nothing (an unknown
	// data set, table, criterion, method, ...).
	ErrSettings = errors.New("bench: bad settings")
	// ErrCheck: a result failed the runner's own verification (an invalid
	// clustering, an SSE that disagrees with its recomputation, a bound
	// above a heuristic's SSE, ...): a bug, never an input problem.
	ErrCheck = errors.New("bench: result failed verification")
)

// SettingsError is a bad setting: Field names it as the command line's
// flag does (without the dashes: "tables", "time-limit", ...), Msg says
// what is wrong. It wraps ErrSettings.
type SettingsError struct {
	Field, Msg string
}

func (e *SettingsError) Error() string { return "bench: " + e.Field + ": " + e.Msg }
func (e *SettingsError) Unwrap() error { return ErrSettings }

func settingsErr(field, format string, args ...any) error {
	return &SettingsError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func checkErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCheck, fmt.Sprintf(format, args...))
}

// Report is the typed outcome of one benchmark. Every report marshals to
// JSON with lower_snake_case keys, "method" and "seconds"; Tables gives
// its rows for CSV (WriteCSV) and WriteText the human-readable form.
type Report interface {
	Tables() []*Table
	WriteText(w io.Writer) error
}

// Figurer is a report that draws figures (see Figure, SaveFigures).
type Figurer interface {
	Figures() ([]*Figure, error)
}

// Progress receives a runner's progress; *cli.Progress of the command line
// implements it. A nil Progress in the options means none.
type Progress interface {
	// Start begins a counted task of total steps named label.
	Start(label string, total int)
	// Describe renames the step under way.
	Describe(label string)
	// Add marks n more steps done.
	Add(n int)
	// Printf reports a status line (the receiver rate-limits).
	Printf(format string, args ...any)
	// Flush prints a status line held back by the rate limit.
	Flush()
}

// noProgress is the Progress of nil options.
type noProgress struct{}

func (noProgress) Start(string, int)     {}
func (noProgress) Describe(string)       {}
func (noProgress) Add(int)               {}
func (noProgress) Printf(string, ...any) {}
func (noProgress) Flush()                {}

func progressOf(p Progress) Progress {
	if p == nil {
		return noProgress{}
	}
	return p
}
