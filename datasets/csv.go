package datasets

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sdcopt/sdcopt/internal/numtext"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/roles"
)

// DataError is a data-dependent failure located in an input file: File,
// Line (1-based; the header is line 1; 0 when the error concerns the whole
// file) and Column (the header name; empty when the error concerns a
// whole line or file).
type DataError struct {
	File   string // the file (or data set, or CLI flag) the error is about
	Line   int    // 1-based; 0 for the whole file
	Column string // the header name, or ""
	Msg    string // what is wrong
	Err    error  // a sentinel the failure is an instance of (ErrTooLarge), or nil; not part of Error()
}

// Unwrap returns e.Err.
func (e *DataError) Unwrap() error { return e.Err }

func (e *DataError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Column != "" {
		fmt.Fprintf(&b, "column %q: ", e.Column)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Table is a CSV file as read: every cell as text, plus the numeric data
// set of the selected (microaggregated) columns.
type Table struct {
	Source string         // the file (or data set name) the table came from
	Header []string       // column names, in input order
	Rows   [][]string     // the records' cells, in input order, len(Header) each; nil for a generated table
	Cols   []int          // indices into Header of the selected columns, increasing
	Data   *model.Dataset // the selected columns as numbers, raw (not standardized)

	// Dialect is the file's separator and decimal mark; WritePublished
	// writes the same.
	Dialect Dialect
	// Decimals[jj] is the largest number of decimals written in selected
	// column jj of the file ("12" 0, "3.25" 2, "1e-3" 3; at most 17):
	// the source's precision. Nil for a generated table.
	Decimals []int
	// Digits, when not nil, rounds the selected columns in
	// WriteProtected and WritePublished: Digits[jj] decimals for selected
	// column jj (a negative value: full precision). Nil (the default):
	// WriteProtected writes the source's precision (Decimals),
	// WritePublished and WriteAllColumnsUnsafe full precision
	// (FormatValue).
	Digits []int
	// Missing is the policy that was applied to missing values of the
	// selected columns, and MissingRecords the number of records that had
	// at least one (dropped from Rows and Data with MissingDrop, imputed
	// with MissingImputeMean; 0 with MissingError, which refuses them).
	// MissingCells counts the missing cells.
	Missing        Missing
	MissingRecords int
	MissingCells   int

	// all holds every column of a table made by TableFromDataset, whose
	// cells are formatted only when written.
	all *model.Dataset
}

// NumRecords is the number of records of the table.
func (t *Table) NumRecords() int { return t.Data.N }

// Missing says what a missing value (IsMissing: "", "NA" or "?") in a
// microaggregated column does. sdcMicro's microaggregation accepts NA in
// the data; here the choice is explicit.
type Missing int

const (
	// MissingError refuses the file, naming the first missing cell's
	// line and column (the default).
	MissingError Missing = iota
	// MissingDrop leaves the records with a missing value out: they are
	// neither microaggregated nor published.
	MissingDrop
	// MissingImputeMean replaces a missing value by the mean of the
	// column's observed values before microaggregation; the record is
	// then grouped and published like the others (with its group's
	// centroid, so that its group stays k identical records).
	MissingImputeMean
)

var missingNames = []string{"error", "drop", "impute-mean"}

// String returns the policy's name: error, drop or impute-mean.
func (m Missing) String() string {
	if m < 0 || int(m) >= len(missingNames) {
		return fmt.Sprintf("Missing(%d)", int(m))
	}
	return missingNames[m]
}

// MissingPolicies lists the names ParseMissing accepts.
func MissingPolicies() []string { return slices.Clone(missingNames) }

// ParseMissing reads a policy name (see MissingPolicies).
func ParseMissing(s string) (Missing, error) {
	if i := slices.Index(missingNames, s); i >= 0 {
		return Missing(i), nil
	}
	return 0, fmt.Errorf("unknown missing-value policy %q (want %s)", s, strings.Join(missingNames, ", "))
}

// CSVOptions are the options of the readers of this package; nil means
// the defaults. Each reader documents the fields it uses.
type CSVOptions struct {
	Dialect         // separator and decimal mark (default ',' and '.'); every reader
	Missing Missing // ReadCSV: missing values in the selected columns (default MissingError)
	// Count names the count column of a long table (LoadTableCSV and
	// the margin readers). Empty (the default): the column named count
	// (in any case), Freq or n, as R's as.data.frame(table) and
	// dplyr::count write them.
	Count string
}

// opts returns o, or the defaults for nil.
func (o *CSVOptions) opts() CSVOptions {
	if o == nil {
		return CSVOptions{}
	}
	return *o
}

// check validates the options as a *DataError about name.
func (o CSVOptions) check(name string) error {
	if err := o.Dialect.Check(); err != nil {
		return &DataError{File: name, Msg: strings.TrimPrefix(err.Error(), "datasets: ")}
	}
	if o.Missing < 0 || int(o.Missing) >= len(missingNames) {
		panic(fmt.Sprintf("datasets: bad Missing policy %d", int(o.Missing)))
	}
	return nil
}

// LoadCSV reads the CSV file at path; see ReadCSV.
func LoadCSV(path string, cols []string) (*Table, error) {
	return LoadCSVWith(path, cols, nil)
}

// LoadCSVWith reads the CSV file at path; see ReadCSVWith.
func LoadCSVWith(path string, cols []string, opt *CSVOptions) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCSVWith(bufio.NewReaderSize(f, 1<<16), path, cols, opt)
}

// readHeader starts reading a CSV file with one header row (after a UTF-8
// byte-order mark, if any): it returns the reader positioned after the
// header and the column names, trimmed, rejecting an empty file, empty
// names and duplicate names with a *DataError on line 1.
func readHeader(r io.Reader, name string) (*csv.Reader, []string, error) {
	return readHeaderSep(r, name, ',')
}

// readHeaderSep is readHeader with the field separator sep.
func readHeaderSep(r io.Reader, name string, sep rune) (*csv.Reader, []string, error) {
	cr := newCSVReaderSep(r, sep)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, &DataError{File: name, Msg: "empty file (no header row)"}
	}
	if err != nil {
		return nil, nil, CSVError(name, err)
	}
	seen := map[string]int{}
	for j := range header {
		header[j] = strings.TrimSpace(header[j])
		if header[j] == "" {
			msg := fmt.Sprintf("column %d has an empty name", j+1)
			if j == 0 && len(header) > 1 {
				msg += " (row names, as R's write.csv writes them? write the file with row.names = FALSE)"
			}
			return nil, nil, &DataError{File: name, Line: 1, Msg: msg}
		}
		if !utf8.ValidString(header[j]) {
			return nil, nil, &DataError{File: name, Line: 1, Msg: fmt.Sprintf("column %d has the name %q, which is not UTF-8 text (save the file as UTF-8)", j+1, header[j])}
		}
		if first, dup := seen[header[j]]; dup {
			return nil, nil, &DataError{File: name, Line: 1, Column: header[j],
				Msg: fmt.Sprintf("duplicate column name (columns %d and %d)", first+1, j+1)}
		}
		seen[header[j]] = j
	}
	return cr, header, nil
}

// ReadCSV reads a CSV file with one header row from r (a leading UTF-8
// byte-order mark is skipped); name is used in error messages. cols
// selects the microaggregated columns by header name; the selected columns
// keep the input order whatever the order of cols. The columns not
// selected are kept as text, to be written back unchanged.
//
// Without a selection (cols nil) every column falls in one of three
// kinds, so that no column of numbers is ever left out (and published
// unmasked) unnoticed:
//
//   - every cell a finite number: selected;
//   - no cell a number (names, codes, and columns of missing values only):
//     kept as text, not selected;
//   - numbers mixed with missing values ("", "NA", "?") or other text: an
//     error at the first such cell, naming its line, column and value,
//     which says to fix the cell or to select the columns explicitly.
//
// A cell is a number when it is written in plain decimal or scientific
// notation (numtext.ParseFloat: "1_2" and "0x1p3" are text, not the Go
// literals 12 and 8; overflowing values such as 1e400 are numbers, then
// errors as not finite); the words
// NaN and Inf count as text in this classification, so a column of names
// holding "Nan" stays text, and as not finite values in a column of
// numbers.
//
// Errors (all *DataError except I/O failures): empty file, header only,
// empty or duplicate column names, ragged rows, unknown or repeated names
// in cols (the message lists the available names), no numeric columns, a
// column mixing numbers with other cells (cols nil), and in a selected
// column a missing value, a non-numeric value or a NaN/Inf.
func ReadCSV(r io.Reader, name string, cols []string) (*Table, error) {
	return ReadCSVWith(r, name, cols, nil)
}

// ReadCSVWith is ReadCSV with options (nil: the defaults, which make it
// ReadCSV). opt.Dialect gives the separator and the decimal mark (with a
// decimal comma, a number holding a point is not a number: "1.234" may
// have a thousands separator). opt.Missing says what a missing value in a
// selected column does: MissingError refuses it as ReadCSV does;
// MissingDrop and MissingImputeMean accept it (with cols nil, a column of
// numbers and missing values is then selected), and the Table records the
// policy and the records and cells affected. Further errors: an invalid
// dialect, every record dropped, and a selected column without any
// observed value to impute from.
func ReadCSVWith(r io.Reader, name string, cols []string, opt *CSVOptions) (*Table, error) {
	o := opt.opts()
	if err := o.check(name); err != nil {
		return nil, err
	}
	cr, header, err := readHeaderSep(r, name, o.sep())
	if err != nil {
		return nil, err
	}
	t := &Table{Source: name, Header: header, Dialect: o.Dialect, Missing: o.Missing}
	lenient := o.Missing != MissingError
	// Every cell is parsed once: scan[j] holds column j's values while
	// every cell so far is a finite number (NaN for a missing value), its
	// first missing cell, its first cell that cannot be a microaggregated
	// value otherwise, and its first number.
	nc := len(header)
	scan := make([]columnScan, nc)
	for j := range scan {
		scan[j].dialect = o.Dialect
	}
	rows := &Rows{cr: cr, name: name, width: nc}
	for rec, line := range rows.All() {
		for j, cell := range rec {
			scan[j].add(cell, line)
		}
		t.Rows = append(t.Rows, rec)
	}
	if rows.err != nil {
		return nil, rows.err
	}
	if len(t.Rows) == 0 {
		return nil, &DataError{File: name, Line: 1, Msg: "header only, no records"}
	}
	if cols == nil {
		var mixed *DataError // the first cell, in file order, that mixes text into numbers
		for j := range header {
			sc := &scan[j]
			bad := sc.firstBad(lenient)
			switch {
			case sc.firstNum.line == 0:
				// No number at all: a text column, kept unselected.
			case bad.line == 0:
				t.Cols = append(t.Cols, j)
			case mixed == nil || bad.line < mixed.Line:
				mixed = &DataError{File: name, Line: bad.line, Column: header[j],
					Msg: fmt.Sprintf("%s in a column of numbers (first number %q on line %d): fix the cell, "+
						"or select the columns to microaggregate explicitly with --cols (the others are kept unmasked)",
						bad.msg, sc.firstNum.msg, sc.firstNum.line)}
			}
		}
		if mixed != nil {
			return nil, mixed
		}
		if len(t.Cols) == 0 {
			return nil, &DataError{File: name, Msg: fmt.Sprintf("no numeric columns (columns: %s)", strings.Join(header, ", "))}
		}
	} else {
		if t.Cols, err = selectNames(header, cols); err != nil {
			return nil, &DataError{File: name, Msg: err.Error()}
		}
		// The first bad cell of the selection in file order (row, then column).
		var bad *DataError
		for _, j := range t.Cols {
			if b := scan[j].firstBad(lenient); b.line > 0 && (bad == nil || b.line < bad.Line) {
				msg := b.msg
				if b.line == scan[j].miss.line && !lenient {
					msg += " (see --missing for dropping or imputing records with missing values)"
				}
				bad = &DataError{File: name, Line: b.line, Column: header[j], Msg: msg}
			}
		}
		if bad != nil {
			return nil, bad
		}
	}
	d := len(t.Cols)
	names := make([]string, d)
	t.Decimals = make([]int, d)
	for jj, j := range t.Cols {
		names[jj] = header[j]
		t.Decimals[jj] = scan[j].decimals
	}
	// Missing values: the records to keep, and the means to impute.
	keep := make([]bool, len(t.Rows))
	means := make([]float64, d)
	for i := range keep {
		keep[i] = true
	}
	for jj, j := range t.Cols {
		sum, obs := 0.0, 0
		for i, v := range scan[j].vals {
			if math.IsNaN(v) {
				keep[i] = false
				t.MissingCells++
				continue
			}
			sum += v
			obs++
		}
		if obs == 0 && o.Missing == MissingImputeMean {
			return nil, &DataError{File: name, Column: names[jj], Msg: "every value is missing: no mean to impute"}
		}
		if obs > 0 {
			means[jj] = sum / float64(obs)
		}
	}
	for _, k := range keep {
		if !k {
			t.MissingRecords++
		}
	}
	if o.Missing == MissingDrop && t.MissingRecords > 0 {
		rowsKept := t.Rows[:0:0]
		for i, rec := range t.Rows {
			if keep[i] {
				rowsKept = append(rowsKept, rec)
			}
		}
		if len(rowsKept) == 0 {
			return nil, &DataError{File: name, Msg: fmt.Sprintf("all %d records have a missing value in a selected column and were dropped", len(t.Rows))}
		}
		t.Rows = rowsKept
	}
	n := len(t.Rows)
	x := make([]float64, 0, n*d)
	for i := range keep {
		if o.Missing == MissingDrop && !keep[i] {
			continue
		}
		for jj, j := range t.Cols {
			v := scan[j].vals[i]
			if math.IsNaN(v) {
				v = means[jj] // MissingImputeMean
			}
			x = append(x, v)
		}
	}
	if t.Data, err = model.NewDataset(names, n, d, x); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// columnScan classifies the cells of one column as they are read.
type columnScan struct {
	dialect  Dialect   // the decimal mark of the numbers
	vals     []float64 // every value (NaN: missing), while no cell is bad; nil after
	bad      badCell   // the first cell that is not a number or not finite
	miss     badCell   // the first missing cell
	firstNum badCell   // the first number (msg: the cell as written)
	decimals int       // the most decimals of the numbers (at most maxDecimals)
}

// firstBad returns the first cell that cannot be microaggregated: the
// first bad cell, or with lenient false the first bad or missing one.
func (sc *columnScan) firstBad(lenient bool) badCell {
	b := sc.bad
	if !lenient && sc.miss.line > 0 && (b.line == 0 || sc.miss.line < b.line) {
		b = sc.miss
	}
	return b
}

// add classifies the cell on the given line.
func (sc *columnScan) add(cell string, line int) {
	c := strings.TrimSpace(cell)
	if IsMissing(c) {
		if sc.miss.line == 0 {
			sc.miss = badCell{line, fmt.Sprintf("missing value %q", cell)}
		}
		if sc.bad.line == 0 {
			sc.vals = append(sc.vals, math.NaN())
		}
		return
	}
	v, err := sc.dialect.parseFloat(c)
	switch {
	case errors.Is(err, strconv.ErrRange):
		// A number, too large for a float64 (1e400): below.
	case errors.Is(err, numtext.ErrNotFinite):
		// "NaN", "Inf", "infinity": words, not numbers, for the
		// classification, but said to be not finite.
		sc.setBad(line, fmt.Sprintf("value %q is not a finite number", cell))
		return
	case err != nil:
		sc.setBad(line, sc.dialect.nonNumeric(cell))
		return
	}
	if sc.firstNum.line == 0 {
		sc.firstNum = badCell{line, cell}
	}
	if math.IsInf(v, 0) { // out of range, e.g. 1e400
		sc.setBad(line, fmt.Sprintf("value %q is not a finite number", cell))
		return
	}
	if sc.bad.line == 0 {
		sc.vals = append(sc.vals, v)
		sc.decimals = max(sc.decimals, decimalsOf(strings.Replace(c, ",", ".", 1)))
	}
}

func (sc *columnScan) setBad(line int, msg string) {
	if sc.bad.line == 0 {
		sc.bad = badCell{line, msg}
		sc.vals = nil
	}
}

// nonNumeric describes a cell that is not a number, with a hint on the
// decimal mark when the cell would be a number with the other one.
func (d Dialect) nonNumeric(cell string) string {
	c := strings.TrimSpace(cell)
	if d.decimal() == '.' && strings.Count(c, ",") == 1 {
		if _, err := numtext.ParseFloat(strings.Replace(c, ",", ".", 1)); err == nil {
			return fmt.Sprintf("non-numeric value %q (a decimal comma? give the decimal mark: --decimal ,)", cell)
		}
	}
	if d.decimal() == ',' && strings.Contains(c, ".") {
		if _, err := numtext.ParseFloat(c); err == nil {
			return fmt.Sprintf("non-numeric value %q: the decimal mark is ',' and a point is not read (no thousands separators)", cell)
		}
	}
	return nonNumeric(cell)
}

// nonNumeric describes a cell that is not a number.
func nonNumeric(cell string) string {
	return fmt.Sprintf("non-numeric value %q", cell) + numberHint(cell)
}

// numberHint tells how numbers are written when cell is text that Go
// would read as a number ("1_000", "0x1p3", "0x10"), else "".
func numberHint(cell string) string {
	c := strings.TrimSpace(cell)
	_, ferr := strconv.ParseFloat(c, 64)
	_, ierr := strconv.ParseInt(c, 0, 64)
	if ferr == nil || errors.Is(ferr, strconv.ErrRange) || ierr == nil || errors.Is(ierr, strconv.ErrRange) {
		return " (numbers are read in plain decimal or scientific notation, such as 1200 or 1.2e3: no digit separators, no hexadecimal)"
	}
	return ""
}

// badCell locates the first cell of a column that cannot be microaggregated.
type badCell struct {
	line int // 0: none
	msg  string
}

// selectNames maps column names to their increasing indices in header.
func selectNames(header, cols []string) ([]int, error) {
	if len(cols) == 0 {
		return nil, errors.New("no columns selected")
	}
	index := map[string]int{}
	for j, h := range header {
		index[h] = j
	}
	var idx []int
	taken := map[int]bool{}
	for _, c := range cols {
		c = strings.TrimSpace(c)
		j, ok := index[c]
		if !ok {
			return nil, fmt.Errorf("unknown column %q (available: %s)", c, strings.Join(header, ", "))
		}
		if taken[j] {
			return nil, fmt.Errorf("column %q selected twice", c)
		}
		taken[j] = true
		idx = append(idx, j)
	}
	slices.Sort(idx)
	return idx, nil
}

// CSVError converts an error of encoding/csv into a *DataError naming the
// file and line (io.EOF before a header: an empty file); other errors (of
// the underlying reader) keep their text behind the file's name.
func CSVError(name string, err error) error {
	if err == io.EOF {
		return &DataError{File: name, Msg: "empty file (no header row)"}
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &DataError{File: name, Line: pe.Line, Msg: pe.Err.Error()}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// SelectColumns returns the data set restricted to the named attributes
// (in ds's order), or ds itself when cols is nil. Unknown names are an
// error listing the available ones.
func SelectColumns(ds *model.Dataset, cols []string) (*model.Dataset, []int, error) {
	if cols == nil {
		all := make([]int, ds.D)
		for j := range all {
			all[j] = j
		}
		return ds, all, nil
	}
	idx, err := selectNames(ds.Names, cols)
	if err != nil {
		return nil, nil, err
	}
	d := len(idx)
	x := make([]float64, ds.N*d)
	names := make([]string, d)
	for jj, j := range idx {
		names[jj] = ds.Names[j]
	}
	for i := 0; i < ds.N; i++ {
		row := ds.Row(i)
		for jj, j := range idx {
			x[i*d+jj] = row[j]
		}
	}
	out, err := model.NewDataset(names, ds.N, d, x)
	return out, idx, err
}

// TableFromDataset wraps a generated data set as a table whose columns
// are its attributes, with cols selecting the microaggregated ones (nil:
// all). Its Rows are nil: WriteProtected formats the unselected values
// when it writes them.
func TableFromDataset(ds *model.Dataset, source string, cols []string) (*Table, error) {
	sel, idx, err := SelectColumns(ds, cols)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &Table{Source: source, Header: append([]string(nil), ds.Names...), Cols: idx, Data: sel, all: ds}, nil
}

// FormatValue writes v in plain decimal notation with the fewest digits
// that read back as exactly v.
func FormatValue(v float64) string {
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// WriteProtected writes the publication of a protected table as CSV, as
// sdcopt microagg writes --out: only the columns a publishes (package
// roles: the quasi-identifiers, which must be exactly the table's selected
// columns, replaced by the values of prot; the sensitive and insensitive
// columns unchanged), in the input's column order; identifiers and
// columns in no role are left out. The values are written at the file's
// precision (Decimals, as --digits source) unless Digits is set, in the
// table's dialect. Before writing anything it runs the leak check
// (roles.Check with the default settings) on the table's cells and
// refuses the columns it flags. Errors: a nil a, an assignment of another
// header, a selected column that is not a quasi-identifier or a
// quasi-identifier that is not selected (it would be published
// unprotected), and the leak check's findings. To publish a flagged
// column anyway, or other columns than a's, call WritePublished, which
// writes the columns it is given. It panics if prot's shape does not
// match the selection.
func (t *Table) WriteProtected(w io.Writer, prot *model.Dataset, a *roles.Assignment) error {
	if a == nil {
		return fmt.Errorf("datasets: %s: WriteProtected: no roles (a nil *roles.Assignment): say which columns are published with roles.New", t.Source)
	}
	if !slices.Equal(a.Header, t.Header) {
		return fmt.Errorf("datasets: %s: WriteProtected: the roles are of another header (%s), not the table's (%s)",
			t.Source, strings.Join(a.Header, ", "), strings.Join(t.Header, ", "))
	}
	selected := make([]bool, len(t.Header))
	for _, j := range t.Cols {
		selected[j] = true
		if r := a.Roles[j]; r != roles.QuasiIdentifier {
			return fmt.Errorf("datasets: %s: WriteProtected: microaggregated column %q is %v in the roles: it must be a quasi-identifier", t.Source, t.Header[j], r)
		}
	}
	for _, j := range a.Columns(roles.QuasiIdentifier) {
		if !selected[j] {
			return fmt.Errorf("datasets: %s: WriteProtected: column %q is a quasi-identifier but not microaggregated: it would be published unprotected", t.Source, t.Header[j])
		}
	}
	if findings := roles.Check(a, t.NumRecords(), t.Cell, nil); len(findings) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "datasets: %s: WriteProtected: refusing to publish columns that would undo the protection of the quasi-identifiers:", t.Source)
		for _, f := range findings {
			fmt.Fprintf(&b, " column %q (%s): %s;", f.Column, f.Kind, f)
		}
		b.WriteString(" leave them out of the sensitive and insensitive columns, or publish them anyway with WritePublished")
		return errors.New(b.String())
	}
	digits := t.Digits
	if digits == nil {
		digits = t.Decimals
	}
	return t.writePublished(w, prot, a.Published(), digits)
}

// WriteAllColumnsUnsafe writes the table as CSV with the selected columns
// replaced by the values of prot (record i, attribute jj goes to row i,
// column Cols[jj]) and every other column unchanged, identifiers included,
// at full precision unless Digits is set. It is not a publication: no
// roles, no leak check. Publish with WriteProtected. It panics if prot's
// shape does not match the selection.
func (t *Table) WriteAllColumnsUnsafe(w io.Writer, prot *model.Dataset) error {
	all := make([]int, len(t.Header))
	for j := range all {
		all[j] = j
	}
	err := t.WritePublished(w, prot, all)
	if errors.Is(err, errLayout) {
		panic(err) // cannot happen: every column is published once
	}
	return err
}
