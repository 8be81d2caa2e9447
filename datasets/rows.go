package datasets

import (
	"encoding/csv"
	"fmt"
	"io"
	"iter"
)

// Rows iterates over the data records of a CSV reader with their line
// numbers (every reader of this package and of package tabular reads its
// records through it). Iteration stops at the end of the input or at the first
// error — a CSV syntax error, or a record whose number of fields is not
// width (when width > 0) — which err then holds as a *DataError naming
// the file and line.
type Rows struct {
	cr    *csv.Reader
	name  string
	width int
	err   error
}

// NewRows returns the records of cr after its header; name is used in
// error messages; width > 0 requires every record to have that many
// fields (0 leaves the check to cr).
func NewRows(cr *csv.Reader, name string, width int) *Rows {
	return &Rows{cr: cr, name: name, width: width}
}

// Err is the error that stopped the iteration, nil at the end of the
// input.
func (r *Rows) Err() error { return r.err }

// All yields every record and its 1-based line number.
func (r *Rows) All() iter.Seq2[[]string, int] {
	return func(yield func([]string, int) bool) {
		for {
			rec, err := r.cr.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				r.err = CSVError(r.name, err)
				return
			}
			line, _ := r.cr.FieldPos(0)
			if r.width > 0 && len(rec) != r.width {
				r.err = &DataError{File: r.name, Line: line,
					Msg: fmt.Sprintf("%d fields, the header has %d (ragged row)", len(rec), r.width)}
				return
			}
			if !yield(rec, line) {
				return
			}
		}
	}
}
