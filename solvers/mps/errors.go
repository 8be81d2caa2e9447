package mps

import "fmt"

// ParseError reports why an MPS text could not be read: the file (empty
// for Read), the 1-based line number (0 when the error concerns the file
// as a whole, e.g. an empty file) and what was wrong. Err holds the
// underlying I/O error when reading itself failed.
type ParseError struct {
	File string
	Line int
	Msg  string
	Err  error
}

func (e *ParseError) Error() string {
	return position(e.File, e.Line) + e.Msg
}

// Unwrap returns the underlying I/O error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// Warning is a non-fatal remark made while reading: something in the file
// was accepted but interpreted by a convention (see the package
// documentation) or ignored.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	return position(w.File, w.Line) + w.Msg
}

func position(file string, line int) string {
	switch {
	case file != "" && line > 0:
		return fmt.Sprintf("%s:%d: ", file, line)
	case file != "":
		return file + ": "
	case line > 0:
		return fmt.Sprintf("mps: line %d: ", line)
	}
	return "mps: "
}
