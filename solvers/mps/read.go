package mps

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sdcopt/sdcopt/internal/numtext"
	"github.com/sdcopt/sdcopt/solvers"
)

// Read parses an MPS model (see the package documentation for the accepted
// subset). Errors are *ParseError values carrying the line number.
func Read(r io.Reader) (*solvers.Problem, error) {
	p, _, err := Decode(r, "")
	return p, err
}

// Decode is Read with the file name used in errors and warnings, and the
// warnings returned: conventions applied to the input (a negative upper
// bound turning a default lower bound into -inf) and entries ignored
// (right-hand sides or ranges on free rows).
func Decode(r io.Reader, file string) (*solvers.Problem, []Warning, error) {
	d := &decoder{
		file:   file,
		p:      &solvers.Problem{},
		rowIdx: map[string]int{},
		colIdx: map[string]int{},
		cur:    -1,
	}
	if err := d.run(bufio.NewReaderSize(r, 1<<16)); err != nil {
		return nil, d.warnings, err
	}
	return d.p, d.warnings, nil
}

type section int8

const (
	secNone section = iota
	secName
	secObjSense
	secObjSenseDone
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
)

var sectionNames = map[string]section{
	"NAME":     secName,
	"OBJSENSE": secObjSense,
	"ROWS":     secRows,
	"COLUMNS":  secColumns,
	"RHS":      secRHS,
	"RANGES":   secRanges,
	"BOUNDS":   secBounds,
}

// objRow is the rowIdx value of the objective row.
const objRow = -1

type decoder struct {
	file     string
	line     int
	warnings []Warning
	p        *solvers.Problem

	sec     section
	seen    map[section]bool
	anySec  bool
	hasObj  bool
	rowIdx  map[string]int
	rowType []byte
	rhs     []float64
	rhsSet  []bool
	rng     []float64
	rngSet  []bool
	objRHS  bool
	rhsName string
	rngName string
	bndName string

	colIdx   map[string]int
	cur      int // index of the column being read in COLUMNS, -1 before the first
	inInt    bool
	intLine  int // line of the INTORG marker that opened the integer block
	hasType  bool
	objSet   []bool
	stamp    []int // stamp[i] == cur+1 when the current column has an entry in row i
	lowerSet []bool

	fields []string // reused by splitFields
}

// splitFields splits text like strings.Fields (at Unicode white space)
// into dst.
func splitFields(text string, dst []string) []string {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return append(dst, strings.Fields(text)...)
		}
	}
	start := -1
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			if start >= 0 {
				dst = append(dst, text[start:i])
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		dst = append(dst, text[start:])
	}
	return dst
}

func (d *decoder) errorf(format string, args ...any) error {
	return &ParseError{File: d.file, Line: d.line, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) warnf(format string, args ...any) {
	d.warnings = append(d.warnings, Warning{File: d.file, Line: d.line, Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) run(br *bufio.Reader) error {
	d.seen = map[section]bool{}
	nonEmpty := false
	for {
		text, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return &ParseError{File: d.file, Line: d.line + 1, Msg: "read error: " + rerr.Error(), Err: rerr}
		}
		if text != "" {
			d.line++
			if d.line == 1 {
				// A UTF-8 byte-order mark, as some editors write.
				text = strings.TrimPrefix(text, byteOrderMark)
			}
			if !strings.HasPrefix(text, "*") && len(strings.TrimSpace(text)) > 0 {
				nonEmpty = true
			}
			done, err := d.handleLine(text)
			if err != nil {
				return err
			}
			if done {
				return d.finish()
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	if !nonEmpty {
		return &ParseError{File: d.file, Msg: "empty file"}
	}
	return d.errorf("end of file without ENDATA (truncated file?)")
}

// byteOrderMark is U+FEFF in UTF-8, accepted at the start of a file.
const byteOrderMark = "\ufeff"

// handleLine processes one line and reports whether it was ENDATA.
func (d *decoder) handleLine(text string) (bool, error) {
	if strings.HasPrefix(text, "*") {
		return false, nil
	}
	fields := splitFields(text, d.fields[:0])
	d.fields = fields
	if len(fields) == 0 {
		return false, nil
	}
	first, _ := utf8.DecodeRuneInString(text)
	if unicode.IsSpace(first) {
		return false, d.data(fields)
	}
	return d.header(fields)
}

func (d *decoder) header(fields []string) (bool, error) {
	kw := strings.ToUpper(fields[0])
	if kw == "ENDATA" {
		return true, nil
	}
	sec, ok := sectionNames[kw]
	if !ok {
		return false, d.errorf("unknown section %q (data lines must be indented)", fields[0])
	}
	if d.seen[sec] {
		return false, d.errorf("duplicate %s section", kw)
	}
	switch sec {
	case secName:
		if d.anySec {
			return false, d.errorf("NAME must be the first section")
		}
		d.p.Name = strings.Join(fields[1:], " ")
	case secObjSense:
		if d.seen[secColumns] {
			return false, d.errorf("OBJSENSE must precede COLUMNS")
		}
		if len(fields) > 1 {
			if len(fields) > 2 {
				return false, d.errorf("OBJSENSE takes one value, got %d", len(fields)-1)
			}
			if err := d.sense(fields[1]); err != nil {
				return false, err
			}
			sec = secObjSenseDone
		}
	case secRows:
		if d.seen[secColumns] || d.seen[secRHS] || d.seen[secRanges] || d.seen[secBounds] {
			return false, d.errorf("ROWS must precede COLUMNS, RHS, RANGES and BOUNDS")
		}
	case secColumns:
		if !d.seen[secRows] {
			return false, d.errorf("COLUMNS before ROWS")
		}
		if d.seen[secRHS] || d.seen[secRanges] || d.seen[secBounds] {
			return false, d.errorf("COLUMNS must precede RHS, RANGES and BOUNDS")
		}
	case secRHS, secRanges, secBounds:
		if !d.seen[secRows] {
			return false, d.errorf("%s before ROWS", kw)
		}
	}
	if err := d.endColumns(); err != nil {
		return false, err
	}
	d.seen[sec] = true
	if sec == secObjSenseDone {
		d.seen[secObjSense] = true
	}
	d.anySec = true
	d.sec = sec
	return false, nil
}

func (d *decoder) sense(v string) error {
	switch strings.ToUpper(v) {
	case "MAX", "MAXIMIZE", "MAXIMISE":
		d.p.Sense = solvers.Maximize
	case "MIN", "MINIMIZE", "MINIMISE":
		d.p.Sense = solvers.Minimize
	default:
		return d.errorf("unknown objective sense %q (want MAX or MIN)", v)
	}
	return nil
}

func (d *decoder) data(f []string) error {
	switch d.sec {
	case secNone:
		return d.errorf("data line before any section")
	case secName:
		return d.errorf("unexpected data line after NAME")
	case secObjSense:
		if len(f) != 1 {
			return d.errorf("OBJSENSE takes one value, got %d", len(f))
		}
		d.sec = secObjSenseDone
		return d.sense(f[0])
	case secObjSenseDone:
		return d.errorf("unexpected data line after the objective sense")
	case secRows:
		return d.row(f)
	case secColumns:
		return d.column(f)
	case secRHS:
		return d.rhsLine(f)
	case secRanges:
		return d.rangeLine(f)
	case secBounds:
		return d.boundLine(f)
	}
	panic("mps: unreachable section")
}

func (d *decoder) row(f []string) error {
	if len(f) != 2 {
		return d.errorf("ROWS line needs a type and a name, got %d fields", len(f))
	}
	typ := strings.ToUpper(f[0])
	name := f[1]
	if len(typ) != 1 || !strings.Contains("NELG", typ) {
		return d.errorf("unknown row type %q for row %q (want N, E, L or G)", f[0], name)
	}
	if _, dup := d.rowIdx[name]; dup {
		return d.errorf("duplicate row %q", name)
	}
	if typ == "N" && !d.hasObj {
		d.hasObj = true
		d.rowIdx[name] = objRow
		return nil
	}
	d.rowIdx[name] = len(d.rowType)
	d.rowType = append(d.rowType, typ[0])
	d.p.RowNames = append(d.p.RowNames, name)
	return nil
}

// parseNumber parses a numeric field in decimal or scientific notation
// (numtext.ParseFloat: not Go's "1_0" or "0x1p3"). Overflow and the words
// Inf and Infinity give ±Inf (callers decide whether an infinite value is
// allowed); malformed text and NaN give ok == false.
func parseNumber(s string) (v float64, ok bool) {
	v, err := numtext.ParseFloat(s)
	if err != nil && !errors.Is(err, numtext.ErrNotFinite) {
		return 0, false
	}
	return v, !math.IsNaN(v)
}

// finite parses a field that must hold a finite number; what describes
// the field in the error message and is only evaluated on error.
func (d *decoder) finite(s string, what func() string) (float64, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok:
		return 0, d.errorf("malformed number %q for %s", s, what())
	case math.IsInf(v, 0):
		return 0, d.errorf("%s %q is not finite", what(), s)
	}
	return v, nil
}

func (d *decoder) column(f []string) error {
	if len(f) == 3 && f[1] == "'MARKER'" && !isNumber(f[2]) {
		switch strings.ToUpper(f[2]) {
		case "'INTORG'":
			if d.inInt {
				return d.errorf("INTORG marker inside the integer block opened on line %d (missing INTEND?)", d.intLine)
			}
			d.inInt = true
			d.intLine = d.line
		case "'INTEND'":
			if !d.inInt {
				return d.errorf("INTEND marker without a preceding INTORG")
			}
			d.inInt = false
		default:
			return d.errorf("unsupported marker %s (want 'INTORG' or 'INTEND')", f[2])
		}
		return nil
	}
	if len(f) != 3 && len(f) != 5 {
		return d.errorf("COLUMNS line needs a column name and one or two (row, value) pairs, got %d fields", len(f))
	}
	name := f[0]
	p := d.p
	if d.cur < 0 || name != p.ColNames[d.cur] {
		if _, dup := d.colIdx[name]; dup {
			return d.errorf("column %q appears again after other columns (entries of a column must be contiguous)", name)
		}
		d.cur = len(p.Obj)
		d.colIdx[name] = d.cur
		p.ColNames = append(p.ColNames, name)
		p.Obj = append(p.Obj, 0)
		p.ColLower = append(p.ColLower, 0)
		p.ColUpper = append(p.ColUpper, math.Inf(1))
		t := solvers.Continuous
		if d.inInt {
			t = solvers.Integer
			d.hasType = true
		}
		p.ColType = append(p.ColType, t)
		p.ColStart = append(p.ColStart, len(p.RowIndex))
		d.objSet = append(d.objSet, false)
		d.lowerSet = append(d.lowerSet, false)
	}
	for k := 1; k+1 < len(f); k += 2 {
		i, ok := d.rowIdx[f[k]]
		if !ok {
			return d.errorf("unknown row %q in COLUMNS", f[k])
		}
		v, err := d.finite(f[k+1], func() string {
			return fmt.Sprintf("coefficient of column %q in row %q", name, f[k])
		})
		if err != nil {
			return err
		}
		if i == objRow {
			if d.objSet[d.cur] {
				return d.errorf("duplicate objective entry for column %q", name)
			}
			d.objSet[d.cur] = true
			p.Obj[d.cur] = v
			continue
		}
		if d.stamp == nil {
			d.stamp = make([]int, len(d.rowType))
		}
		if d.stamp[i] == d.cur+1 {
			return d.errorf("duplicate entry for column %q in row %q", name, f[k])
		}
		d.stamp[i] = d.cur + 1
		p.RowIndex = append(p.RowIndex, i)
		p.Value = append(p.Value, v)
	}
	return nil
}

func isNumber(s string) bool {
	_, ok := parseNumber(s)
	return ok
}

// endColumns is called where the COLUMNS section (if any) must be over: at
// every section header and at ENDATA. An integer block still open there
// lacks its INTEND marker.
func (d *decoder) endColumns() error {
	if d.inInt {
		return d.errorf("integer block opened by the INTORG marker on line %d has no INTEND marker", d.intLine)
	}
	return nil
}

// setName checks the optional set name of an RHS, RANGES or BOUNDS line:
// only one set per section is supported.
func (d *decoder) setName(kind string, stored *string, name string) error {
	if *stored == "" {
		*stored = name
		return nil
	}
	if *stored != name {
		return d.errorf("second %s set %q (only one set, %q, is supported)", kind, name, *stored)
	}
	return nil
}

// pairs splits an RHS or RANGES line: [set] row value [row value].
func (d *decoder) pairs(kind string, stored *string, f []string) ([]string, error) {
	if len(f) < 2 || len(f) > 5 {
		return nil, d.errorf("%s line needs an optional set name and one or two (row, value) pairs, got %d fields", kind, len(f))
	}
	if len(f)%2 == 1 {
		if err := d.setName(kind, stored, f[0]); err != nil {
			return nil, err
		}
		f = f[1:]
	}
	return f, nil
}

func (d *decoder) ensureRowArrays() {
	if d.rhs == nil {
		m := len(d.rowType)
		d.rhs = make([]float64, m)
		d.rhsSet = make([]bool, m)
		d.rng = make([]float64, m)
		d.rngSet = make([]bool, m)
	}
}

func (d *decoder) rhsLine(f []string) error {
	f, err := d.pairs("RHS", &d.rhsName, f)
	if err != nil {
		return err
	}
	d.ensureRowArrays()
	for k := 0; k+1 < len(f); k += 2 {
		i, ok := d.rowIdx[f[k]]
		if !ok {
			return d.errorf("unknown row %q in RHS", f[k])
		}
		v, err := d.finite(f[k+1], func() string { return fmt.Sprintf("right-hand side of row %q", f[k]) })
		if err != nil {
			return err
		}
		if i == objRow {
			if d.objRHS {
				return d.errorf("duplicate RHS entry for objective row %q", f[k])
			}
			d.objRHS = true
			d.p.Offset = -v
			continue
		}
		if d.rhsSet[i] {
			return d.errorf("duplicate RHS entry for row %q", f[k])
		}
		d.rhsSet[i] = true
		if d.rowType[i] == 'N' {
			d.warnf("RHS on free row %q ignored", f[k])
			continue
		}
		d.rhs[i] = v
	}
	return nil
}

func (d *decoder) rangeLine(f []string) error {
	f, err := d.pairs("RANGES", &d.rngName, f)
	if err != nil {
		return err
	}
	d.ensureRowArrays()
	for k := 0; k+1 < len(f); k += 2 {
		i, ok := d.rowIdx[f[k]]
		if !ok {
			return d.errorf("unknown row %q in RANGES", f[k])
		}
		v, err := d.finite(f[k+1], func() string { return fmt.Sprintf("range of row %q", f[k]) })
		if err != nil {
			return err
		}
		if i == objRow {
			d.warnf("range on objective row %q ignored", f[k])
			continue
		}
		if d.rngSet[i] {
			return d.errorf("duplicate RANGES entry for row %q", f[k])
		}
		d.rngSet[i] = true
		if d.rowType[i] == 'N' {
			d.warnf("range on free row %q ignored", f[k])
			continue
		}
		d.rng[i] = v
	}
	return nil
}

var boundNeedsValue = map[string]bool{
	"LO": true, "UP": true, "FX": true, "LI": true, "UI": true,
	"FR": false, "MI": false, "PL": false, "BV": false,
}

func (d *decoder) boundLine(f []string) error {
	typ := strings.ToUpper(f[0])
	needs, known := boundNeedsValue[typ]
	if !known {
		if typ == "SC" || typ == "SI" {
			return d.errorf("bound type %s (semi-continuous) is not supported", typ)
		}
		return d.errorf("unknown bound type %q", f[0])
	}
	var col, val string
	switch {
	case needs && len(f) == 4:
		if err := d.setName("BOUNDS", &d.bndName, f[1]); err != nil {
			return err
		}
		col, val = f[2], f[3]
	case needs && len(f) == 3:
		col, val = f[1], f[2]
	case needs:
		return d.errorf("%s bound needs an optional set name, a column and a value, got %d fields", typ, len(f))
	case len(f) == 2:
		col = f[1]
	case len(f) == 3:
		// "TY set col" or "TY col value" (a value is ignored for this type).
		if _, ok := d.colIdx[f[2]]; ok {
			if err := d.setName("BOUNDS", &d.bndName, f[1]); err != nil {
				return err
			}
			col = f[2]
		} else {
			col, val = f[1], f[2]
		}
	case len(f) == 4:
		if err := d.setName("BOUNDS", &d.bndName, f[1]); err != nil {
			return err
		}
		col, val = f[2], f[3]
	default:
		return d.errorf("%s bound needs an optional set name and a column, got %d fields", typ, len(f))
	}
	j, ok := d.colIdx[col]
	if !ok {
		return d.errorf("unknown column %q in BOUNDS", col)
	}
	var v float64
	if val != "" {
		var ok bool
		if v, ok = parseNumber(val); !ok {
			return d.errorf("malformed number %q for %s bound of column %q", val, typ, col)
		}
	}
	p := d.p
	bad := func() error {
		return d.errorf("%s bound %q of column %q is out of range", typ, val, col)
	}
	switch typ {
	case "LO", "LI":
		if math.IsInf(v, 1) {
			return bad()
		}
		p.ColLower[j] = v
		d.lowerSet[j] = true
		if typ == "LI" {
			p.ColType[j] = solvers.Integer
			d.hasType = true
		}
	case "UP", "UI":
		if math.IsInf(v, -1) {
			return bad()
		}
		p.ColUpper[j] = v
		if v < 0 && !d.lowerSet[j] && p.ColLower[j] == 0 {
			p.ColLower[j] = math.Inf(-1)
			d.warnf("negative upper bound %s on column %q with default lower bound 0: lower bound set to -inf", val, col)
		}
		if typ == "UI" {
			p.ColType[j] = solvers.Integer
			d.hasType = true
		}
	case "FX":
		if math.IsInf(v, 0) {
			return bad()
		}
		p.ColLower[j], p.ColUpper[j] = v, v
		d.lowerSet[j] = true
	case "FR":
		p.ColLower[j], p.ColUpper[j] = math.Inf(-1), math.Inf(1)
		d.lowerSet[j] = true
	case "MI":
		p.ColLower[j] = math.Inf(-1)
		d.lowerSet[j] = true
	case "PL":
		p.ColUpper[j] = math.Inf(1)
	case "BV":
		p.ColType[j] = solvers.Binary
		p.ColLower[j], p.ColUpper[j] = 0, 1
		d.lowerSet[j] = true
		d.hasType = true
	}
	return nil
}

// finish builds the row bounds and checks the result.
func (d *decoder) finish() error {
	if !d.seen[secRows] {
		return d.errorf("no ROWS section before ENDATA")
	}
	if err := d.endColumns(); err != nil {
		return err
	}
	p := d.p
	if n := len(p.Obj); n > 0 {
		p.ColStart = append(p.ColStart, len(p.RowIndex))
	}
	if !d.hasType {
		p.ColType = nil
	}
	m := len(d.rowType)
	d.ensureRowArrays()
	p.RowLower = make([]float64, m)
	p.RowUpper = make([]float64, m)
	for i, t := range d.rowType {
		var lo, up float64
		switch t {
		case 'N':
			lo, up = math.Inf(-1), math.Inf(1)
		case 'E':
			lo, up = d.rhs[i], d.rhs[i]
		case 'L':
			lo, up = math.Inf(-1), d.rhs[i]
		case 'G':
			lo, up = d.rhs[i], math.Inf(1)
		}
		if d.rngSet[i] && t != 'N' {
			lo, up = rangeBounds(t, d.rhs[i], d.rng[i])
		}
		p.RowLower[i], p.RowUpper[i] = lo, up
	}
	if err := p.Validate(); err != nil {
		// Not expected: every value was checked on its line.
		return &ParseError{File: d.file, Line: d.line, Msg: err.Error(), Err: err}
	}
	return nil
}
