package datasets

import (
	"encoding/csv"
	"fmt"
	"io"
	"iter"
)

// rowReader iterates over the data records of a CSV reader with their
// line numbers. Iteration stops at the end of the input or at the first
// error — a CSV syntax error, or a record whose number of fields is not
// width (when width > 0) — which err then holds as a *DataError naming
// the file and line.
type rowReader struct {
	cr    *csv.Reader
	name  string
	width int
	err   error
}

// all yields every record and its 1-based line number.
func (r *rowReader) all() iter.Seq2[[]string, int] {
	return func(yield func([]string, int) bool) {
		for {
			rec, err := r.cr.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				r.err = csvError(r.name, err)
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
