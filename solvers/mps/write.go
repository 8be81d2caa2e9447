package mps

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/sdcopt/sdcopt/solvers"
)

// Set names used for the RHS, RANGES and BOUNDS entries written by Write.
const (
	rhsSet   = "RHS"
	rangeSet = "RNG"
	boundSet = "BND"
)

// Write writes p as free-format MPS (see the package documentation for the
// conventions). p must pass Validate; the returned error is then the
// Validate error. A row with finite bounds lo > up cannot be expressed in
// MPS and makes Write fail with an error wrapping solvers.ErrUnsupported,
// as does a ranged row whose width up-lo overflows float64.
func Write(w io.Writer, p *solvers.Problem) error {
	if err := p.Validate(); err != nil {
		return err
	}
	n, m := p.NumCols(), p.NumRows()
	colNames := nameList(n, p.ColNames, "x")
	rowNames := nameList(m, p.RowNames, "r")
	objName := objectiveName(rowNames)

	specs := make([]rowSpec, m)
	for i := 0; i < m; i++ {
		s, ok := specOf(p.RowLower[i], p.RowUpper[i])
		if !ok {
			return solvers.Errorf("", "write mps", solvers.ErrUnsupported,
				"row %s: bounds [%v, %v] cannot be written in MPS", rowNames[i], p.RowLower[i], p.RowUpper[i])
		}
		specs[i] = s
	}

	lw := &lineWriter{w: bufio.NewWriterSize(w, 1<<16)}

	if name := strings.Join(strings.Fields(p.Name), " "); name != "" {
		lw.fields("NAME", name)
	} else {
		lw.fields("NAME")
	}
	if p.Sense == solvers.Maximize {
		lw.fields("OBJSENSE")
		lw.fields("", "MAX")
	}

	lw.fields("ROWS")
	lw.row('N', objName)
	for i, s := range specs {
		lw.row(s.typ, rowNames[i])
	}

	lw.fields("COLUMNS")
	inInt := false
	var stamp []int // stamp[i] = j+1 when column j has an entry in row i
	var merged []int
	for j := 0; j < n; j++ {
		isInt := p.Type(j) != solvers.Continuous
		if isInt && !inInt {
			lw.fields("", "MARKER", "'MARKER'", "'INTORG'")
		} else if !isInt && inInt {
			lw.fields("", "MARKER", "'MARKER'", "'INTEND'")
		}
		inInt = isInt
		rows, vals := p.Column(j)
		if c := p.Obj[j]; c != 0 || len(rows) == 0 {
			lw.entry(colNames[j], objName, c)
		}
		// Duplicate (row, column) entries are merged by summing, so that
		// the file never names a row twice in one column.
		if stamp == nil && len(rows) > 1 {
			stamp = make([]int, m)
		}
		dup := false
		for _, i := range rows {
			if stamp != nil {
				if stamp[i] == j+1 {
					dup = true
				}
				stamp[i] = j + 1
			}
		}
		if !dup {
			for k, i := range rows {
				lw.entry(colNames[j], rowNames[i], vals[k])
			}
			continue
		}
		merged = merged[:0]
		sum := map[int]float64{}
		for k, i := range rows {
			if _, ok := sum[i]; !ok {
				merged = append(merged, i)
			}
			sum[i] += vals[k]
		}
		for _, i := range merged {
			lw.entry(colNames[j], rowNames[i], sum[i])
		}
	}
	if inInt {
		lw.fields("", "MARKER", "'MARKER'", "'INTEND'")
	}

	lw.fields("RHS")
	if p.Offset != 0 {
		lw.entry(rhsSet, objName, -p.Offset)
	}
	for i, s := range specs {
		if s.typ != 'N' && s.rhs != 0 {
			lw.entry(rhsSet, rowNames[i], s.rhs)
		}
	}

	header := false
	for i, s := range specs {
		if s.ranged {
			if !header {
				lw.fields("RANGES")
				header = true
			}
			lw.entry(rangeSet, rowNames[i], s.rng)
		}
	}

	header = false
	bound := func(typ string, j int, v float64, withValue bool) {
		if !header {
			lw.fields("BOUNDS")
			header = true
		}
		if withValue {
			lw.bound(typ, colNames[j], v, true)
		} else {
			lw.bound(typ, colNames[j], 0, false)
		}
	}
	for j := 0; j < n; j++ {
		lo, up := p.ColLower[j], p.ColUpper[j]
		t := p.Type(j)
		if t == solvers.Binary {
			bound("BV", j, 0, false)
			switch {
			case lo == up:
				bound("FX", j, lo, true)
			default:
				if math.IsInf(lo, -1) {
					bound("MI", j, 0, false)
				} else if lo != 0 {
					bound("LO", j, lo, true)
				}
				if math.IsInf(up, 1) {
					bound("PL", j, 0, false)
				} else if up != 1 {
					bound("UP", j, up, true)
				}
			}
			continue
		}
		switch {
		case lo == up:
			bound("FX", j, lo, true)
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			bound("FR", j, 0, false)
		default:
			if math.IsInf(lo, -1) {
				bound("MI", j, 0, false)
			} else if lo != 0 || up < 0 {
				// An explicit LO 0 keeps a negative UP from triggering
				// the classic "lower bound becomes -inf" rule.
				bound("LO", j, lo, true)
			}
			if math.IsInf(up, 1) {
				if t == solvers.Integer {
					bound("PL", j, 0, false)
				}
			} else {
				bound("UP", j, up, true)
			}
		}
	}
	lw.fields("ENDATA")
	return lw.flush()
}

// rowSpec is how a row appears in ROWS, RHS and RANGES.
type rowSpec struct {
	typ    byte // 'N', 'E', 'L', 'G'
	rhs    float64
	ranged bool
	rng    float64
}

// rangeBounds is the RANGES rule shared by the reader and the writer: a
// range R on a row with right-hand side rhs gives
//
//	G: [rhs, rhs+|R|]   L: [rhs-|R|, rhs]
//	E: [rhs, rhs+R] if R > 0, [rhs+R, rhs] if R < 0, [rhs, rhs] if R == 0
func rangeBounds(typ byte, rhs, r float64) (lo, up float64) {
	switch typ {
	case 'G':
		return rhs, rhs + math.Abs(r)
	case 'L':
		return rhs - math.Abs(r), rhs
	case 'E':
		switch {
		case r > 0:
			return rhs, rhs + r
		case r < 0:
			return rhs + r, rhs
		}
		return rhs, rhs
	}
	return math.Inf(-1), math.Inf(1)
}

// specOf returns the MPS form of the row bounds [lo, up]. It reports false
// when the bounds cannot be expressed (finite lo > up, or a range width
// that overflows).
func specOf(lo, up float64) (rowSpec, bool) {
	loInf, upInf := math.IsInf(lo, -1), math.IsInf(up, 1)
	switch {
	case loInf && upInf:
		return rowSpec{typ: 'N'}, true
	case lo == up:
		return rowSpec{typ: 'E', rhs: lo}, true
	case loInf:
		return rowSpec{typ: 'L', rhs: up}, true
	case upInf:
		return rowSpec{typ: 'G', rhs: lo}, true
	case lo > up:
		return rowSpec{}, false
	}
	d := up - lo
	if math.IsInf(d, 0) {
		return rowSpec{}, false
	}
	// One bound is the right-hand side and is exact; the other is
	// recomputed by the reader as rhs ± |R|, which rounds. Search a few
	// ulps around up-lo, in both the G and the L form (bound of smaller
	// magnitude as rhs first), for an R that reproduces the other bound
	// exactly. Not every pair admits one (the computed bound is a rounded
	// sum); then the closest candidate is used, off by about one ulp.
	forms := [2]byte{'G', 'L'}
	if math.Abs(up) < math.Abs(lo) {
		forms = [2]byte{'L', 'G'}
	}
	best, bestErr := rowSpec{}, math.Inf(1)
	for _, f := range forms {
		rhs := lo
		if f == 'L' {
			rhs = up
		}
		lower, upper := d, d
		for k := 0; k <= 4; k++ {
			for _, r := range [2]float64{lower, upper} {
				if r < 0 || math.IsInf(r, 0) {
					continue
				}
				l, u := rangeBounds(f, rhs, r)
				e := math.Abs(l-lo) + math.Abs(u-up)
				if e == 0 {
					return rowSpec{typ: f, rhs: rhs, ranged: true, rng: r}, true
				}
				if e < bestErr {
					best, bestErr = rowSpec{typ: f, rhs: rhs, ranged: true, rng: r}, e
				}
			}
			lower = math.Nextafter(lower, math.Inf(-1))
			upper = math.Nextafter(upper, math.Inf(1))
		}
	}
	return best, true
}

// nameList returns the names to write for n items: given when every name
// is valid (non-empty, no whitespace) and unique, otherwise
// generated names prefix0, prefix1, ...
func nameList(n int, given []string, prefix string) []string {
	if len(given) == n && n > 0 {
		seen := make(map[string]struct{}, n)
		ok := true
		for _, s := range given {
			if !validName(s) {
				ok = false
				break
			}
			if _, dup := seen[s]; dup {
				ok = false
				break
			}
			seen[s] = struct{}{}
		}
		if ok {
			return given
		}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

// validName reports whether s can be written as an MPS name field.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// objectiveName returns "obj", or "obj_1", "obj_2", ... if a row already
// uses the name.
func objectiveName(rows []string) string {
	used := make(map[string]bool, len(rows))
	for _, s := range rows {
		used[s] = true
	}
	name := "obj"
	for k := 1; used[name]; k++ {
		name = "obj_" + strconv.Itoa(k)
	}
	return name
}

// lineWriter formats MPS lines into a buffered writer and remembers the
// first write error.
type lineWriter struct {
	w   *bufio.Writer
	buf []byte
	err error
}

// fields writes one line: the first field starts in column 1 (a section
// header) unless it is empty, in which case the line is indented; fields
// are padded to a width of 10 for readability.
func (l *lineWriter) fields(fs ...string) {
	b := l.buf[:0]
	for k, f := range fs {
		switch {
		case k == 0 && f == "":
			b = append(b, "   "...)
			continue
		case k > 0:
			b = append(b, ' ')
		}
		b = append(b, f...)
		if k < len(fs)-1 {
			for pad := len(f); pad < 9; pad++ {
				b = append(b, ' ')
			}
		}
	}
	b = append(b, '\n')
	l.write(b)
}

// row writes " T  name".
func (l *lineWriter) row(typ byte, name string) {
	buf := append(l.buf[:0], ' ', typ, ' ', ' ')
	buf = append(buf, name...)
	buf = append(buf, '\n')
	l.write(buf)
}

// entry writes "    a  b  v".
func (l *lineWriter) entry(a, b string, v float64) {
	buf := append(l.buf[:0], "    "...)
	buf = padded(buf, a)
	buf = padded(buf, b)
	buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	buf = append(buf, '\n')
	l.write(buf)
}

// bound writes " TY BND  col  [v]".
func (l *lineWriter) bound(typ, col string, v float64, withValue bool) {
	buf := append(l.buf[:0], ' ')
	buf = append(buf, typ...)
	buf = append(buf, ' ')
	buf = padded(buf, boundSet)
	if withValue {
		buf = padded(buf, col)
		buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	} else {
		buf = append(buf, col...)
	}
	buf = append(buf, '\n')
	l.write(buf)
}

func padded(b []byte, s string) []byte {
	b = append(b, s...)
	for pad := len(s); pad < 9; pad++ {
		b = append(b, ' ')
	}
	return append(b, ' ')
}

func (l *lineWriter) write(b []byte) {
	l.buf = b
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
}

func (l *lineWriter) flush() error {
	if l.err != nil {
		return l.err
	}
	return l.w.Flush()
}
