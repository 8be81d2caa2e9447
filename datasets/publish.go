package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// errLayout marks a bad column selection of WritePublished.
var errLayout = errors.New("datasets: bad published columns")

// Cell returns the text of record i, column j (an index into Header): the
// cell as read, or for a generated table the value formatted by
// FormatValue.
func (t *Table) Cell(i, j int) string {
	if t.Rows != nil {
		return t.Rows[i][j]
	}
	return FormatValue(t.all.X[i*t.all.D+j])
}

// WritePublished writes the protected table as CSV with only the columns
// cols (indices into Header, at most once each), in the input's column
// order whatever the order of cols: the selected (microaggregated)
// columns, all of which must be among cols, replaced by the values of prot
// (record i, attribute jj goes to row i, column Cols[jj]; rounded to
// t.Digits[jj] decimals when t.Digits is set, and written with the
// table's decimal mark), the others unchanged. The file has the table's
// Dialect (its separator and decimal mark). Which unselected columns may be published is the caller's
// decision (package roles). It panics if prot's shape does not match the
// selection, and returns an error for a column out of range, given twice,
// or a selected column left out.
func (t *Table) WritePublished(w io.Writer, prot *model.Dataset, cols []int) error {
	return t.writePublished(w, prot, cols, t.Digits)
}

// writePublished is WritePublished with digits (nil: full precision) in
// place of t.Digits.
func (t *Table) writePublished(w io.Writer, prot *model.Dataset, cols []int, digits []int) error {
	if prot.N != t.Data.N || prot.D != len(t.Cols) || (digits != nil && len(digits) != len(t.Cols)) {
		panic("datasets: WritePublished: protected data set does not match the table")
	}
	cols = slices.Clone(cols)
	slices.Sort(cols)
	for x, j := range cols {
		switch {
		case j < 0 || j >= len(t.Header):
			return fmt.Errorf("%w: column %d outside the %d columns", errLayout, j, len(t.Header))
		case x > 0 && cols[x-1] == j:
			return fmt.Errorf("%w: column %q given twice", errLayout, t.Header[j])
		}
	}
	at := make([]int, len(t.Header)) // file position of every header column, -1 if not published
	for j := range at {
		at[j] = slices.Index(cols, j)
	}
	for _, j := range t.Cols {
		if at[j] < 0 {
			return fmt.Errorf("%w: microaggregated column %q left out", errLayout, t.Header[j])
		}
	}
	selected := make([]bool, len(t.Header))
	for _, j := range t.Cols {
		selected[j] = true
	}
	dig := make([]int, len(t.Cols))
	for jj := range dig {
		dig[jj] = -1
		if digits != nil {
			dig[jj] = digits[jj]
		}
	}
	cw := csv.NewWriter(w)
	cw.Comma = t.Dialect.sep()
	header := make([]string, len(cols))
	for x, j := range cols {
		header[x] = t.Header[j]
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	rec := make([]string, len(cols))
	for i := 0; i < prot.N; i++ {
		for x, j := range cols {
			if !selected[j] {
				rec[x] = t.Cell(i, j)
			}
		}
		for jj, j := range t.Cols {
			rec[at[j]] = t.Dialect.formatFloat(prot.X[i*prot.D+jj], dig[jj])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
