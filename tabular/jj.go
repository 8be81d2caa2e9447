package tabular

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/datasets"
)

// ErrJJ is the sentinel of a malformed JJ file; the error is a
// *datasets.DataError naming the file, the line and the field.
var ErrJJ = errors.New("tabular: bad JJ file")

// JJInfinity is the upper prior bound written for a cell without one
// (PriorUpper 0, read as +∞): the JJ format has no infinity. Reading, a
// bound ≥ JJInfinity is read back as no bound. Our choice: the format's
// writers use a large number; this one is far above any published value.
const JJInfinity = 1e20

// LinearRelation is one general linear relation of a LinearSystem:
// Σ_k Coefs[k]·x[Cells[k]] = RHS. A table's Relation is the one with
// −1 at the total, +1 at each part and RHS 0.
type LinearRelation struct {
	RHS   float64
	Cells []int
	Coefs []float64
}

// LinearSystem is a cell suppression problem without its table
// structure: the cells (Value, Cost, Status, prior bounds PriorLower and
// PriorUpper, protection levels Lower, Upper, Sliding; the other Cell
// fields unused) and the linear relations between them, by cell index.
// It is what the JJ format holds and what the audit needs (A x = b with
// bounds); the dimensions, codes, frequencies, rules and contributions
// of a Table are not part of it.
type LinearSystem struct {
	Cells     []Cell
	Relations []LinearRelation
}

// Linear returns t as a LinearSystem: its cells (copied, Top and
// TopHolding dropped) and its relations, in the order of Relations, each
// as the total with coefficient −1 followed by the parts with +1.
func (t *Table) Linear() *LinearSystem {
	ls := &LinearSystem{Cells: make([]Cell, len(t.Cells))}
	for i, c := range t.Cells {
		c.Top, c.TopHolding = nil, nil
		ls.Cells[i] = c
	}
	for r := range t.Relations() {
		ls.Relations = append(ls.Relations, linearOf(r))
	}
	return ls
}

// Linear returns the system of linked tables as a LinearSystem over its
// global cell index: value, cost and status as the tables agree on them,
// the prior bounds and protection levels of the cell in the first table
// that has it, and the union of the relations.
func (s *System) Linear() *LinearSystem {
	ls := &LinearSystem{Cells: make([]Cell, len(s.Cells))}
	for g, sc := range s.Cells {
		var c Cell
		if len(sc.Refs) > 0 {
			r := sc.Refs[0]
			c = s.Tables[r.Table].Cells[r.Cell]
			c.Top, c.TopHolding = nil, nil
		}
		c.Value, c.Freq, c.Cost, c.Status, c.Rule = sc.Value, sc.Freq, sc.Cost, sc.Status, sc.Rule
		ls.Cells[g] = c
	}
	for _, r := range s.Relations {
		ls.Relations = append(ls.Relations, linearOf(r))
	}
	return ls
}

func linearOf(r Relation) LinearRelation {
	lr := LinearRelation{Cells: append([]int{r.Total}, r.Parts...), Coefs: make([]float64, 1+len(r.Parts))}
	lr.Coefs[0] = -1
	for k := range r.Parts {
		lr.Coefs[k+1] = 1
	}
	return lr
}

// jjStatus is the status letter written to a JJ file (sdcTable's
// letters): s safe, u primary (unsafe), x secondary, z must publish; an
// Empty cell is written as z with value 0 and prior bounds [0, 0].
func jjStatus(s Status) string {
	switch s {
	case Primary:
		return "u"
	case Secondary:
		return "x"
	case MustPublish, Empty:
		return "z"
	}
	return "s"
}

// WriteJJ writes ls in the JJ format, the plain-text interchange format
// of cell suppression problems that τ-ARGUS and sdcTable (writeJJFormat)
// read and write (after Fischetti and Salazar-González): whitespace
// separated, one record a line:
//
//	0                                  (a header field, always 0)
//	n                                  (the number of cells)
//	i value cost status lb ub LPL UPL SPL   (n lines, i = 0 … n−1)
//	m                                  (the number of relations)
//	rhs k : j1 (c1) j2 (c2) … jk (ck)  (m lines: Σ c·x_j = rhs over k cells)
//
// with status a letter (s safe, u primary, x secondary, z must publish),
// lb and ub the prior bounds (PriorLower, PriorUpper; JJInfinity when
// there is none), LPL, UPL and SPL the lower, upper and sliding
// protection levels. Numbers are written with the fewest digits that
// read back exactly. An Empty cell is written as z with bounds [0, 0]
// (the format has no empty status; ReadJJ reads such a cell back as
// Empty).
func WriteJJ(w io.Writer, ls *LinearSystem) error {
	bw := bufio.NewWriter(w)
	f := datasets.FormatValue
	fmt.Fprintf(bw, "0\n%d\n", len(ls.Cells))
	for i, c := range ls.Cells {
		lo, hi := c.PriorBounds()
		if math.IsInf(hi, 1) || hi >= JJInfinity {
			hi = JJInfinity
		}
		if c.Status == Empty {
			lo, hi = 0, 0
		}
		fmt.Fprintf(bw, "%d %s %s %s %s %s %s %s %s\n", i, f(c.Value), f(c.Cost), jjStatus(c.Status),
			f(lo), jjNumber(hi), f(c.Lower), f(c.Upper), f(c.Sliding))
	}
	fmt.Fprintf(bw, "%d\n", len(ls.Relations))
	for _, r := range ls.Relations {
		if len(r.Cells) != len(r.Coefs) {
			panic(fmt.Sprintf("tabular: WriteJJ: relation with %d cells and %d coefficients", len(r.Cells), len(r.Coefs)))
		}
		fmt.Fprintf(bw, "%s %d :", f(r.RHS), len(r.Cells))
		for k, j := range r.Cells {
			fmt.Fprintf(bw, " %d (%s)", j, f(r.Coefs[k]))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// jjNumber writes JJInfinity as 1e20 rather than its plain decimal.
func jjNumber(x float64) string {
	if x == JJInfinity {
		return "1e20"
	}
	return datasets.FormatValue(x)
}

// ReadJJ reads a JJ file (see WriteJJ) into a LinearSystem. Reading is
// lenient where the writers differ: any whitespace separates fields, a
// term may be written "j (c)" or "j(c)", the cells' lines may come in any
// order (each index once), and status letters are those of ParseStatus
// (s, u, x, m, z, p, ...). A prior upper bound ≥ JJInfinity is read as
// none (PriorUpper 0); a z cell with value 0 and bounds [0, 0] is read
// as Empty. Cost is read as given.
//
// Errors are *datasets.DataError naming the file (name), the line and the
// field, wrapping ErrJJ: a missing or non-numeric count, a cell line with
// the wrong number of fields or a field that is not a number, a cell index
// out of range or twice, a bad status letter, a negative protection level,
// a relation whose term count does not match its terms or that names a
// cell out of range, fewer or more lines than the counts say.
func ReadJJ(r io.Reader, name string) (*LinearSystem, error) {
	sc := bufio.NewScanner(datasets.SkipBOM(r))
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	line := 0
	// next returns the fields of the next non-blank line.
	next := func(what string) ([]string, error) {
		for sc.Scan() {
			line++
			if f := strings.Fields(sc.Text()); len(f) > 0 {
				return f, nil
			}
		}
		if err := sc.Err(); err != nil {
			return nil, &datasets.DataError{File: name, Line: line, Msg: err.Error(), Err: ErrJJ}
		}
		return nil, &datasets.DataError{File: name, Line: line + 1, Column: what, Msg: "unexpected end of file", Err: ErrJJ}
	}
	bad := func(field, format string, a ...any) error {
		return &datasets.DataError{File: name, Line: line, Column: field, Msg: fmt.Sprintf(format, a...), Err: ErrJJ}
	}
	count := func(what string) (int, error) {
		f, err := next(what)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 0 || len(f) != 1 {
			return 0, bad(what, "%q is not a count", strings.Join(f, " "))
		}
		return n, nil
	}
	number := func(field, s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) {
			return 0, bad(field, "%q is not a number", s)
		}
		return v, nil
	}
	if _, err := count("header"); err != nil {
		return nil, err
	}
	n, err := count("cells")
	if err != nil {
		return nil, err
	}
	ls := &LinearSystem{Cells: make([]Cell, n)}
	seen := make([]int, n) // line of each cell, 0 if not yet
	fields := [...]string{"index", "value", "cost", "status", "lb", "ub", "lpl", "upl", "spl"}
	for range n {
		f, err := next("cell")
		if err != nil {
			return nil, err
		}
		if len(f) != len(fields) {
			return nil, bad("cell", "%d fields, want %d (index value cost status lb ub LPL UPL SPL; is the cell count right?)", len(f), len(fields))
		}
		i, err := strconv.Atoi(f[0])
		if err != nil || i < 0 || i >= n {
			return nil, bad("index", "%q is not a cell index in [0, %d)", f[0], n)
		}
		if seen[i] != 0 {
			return nil, bad("index", "cell %d twice (first on line %d)", i, seen[i])
		}
		seen[i] = line
		var v [len(fields)]float64
		for k := 1; k < len(fields); k++ {
			if k == 3 {
				continue
			}
			if v[k], err = number(fields[k], f[k]); err != nil {
				return nil, err
			}
			if k >= 6 && v[k] < 0 {
				return nil, bad(fields[k], "protection level %v is negative", v[k])
			}
		}
		st, err := ParseStatus(f[3])
		if err != nil {
			return nil, bad("status", "unknown status %q (want s, u, x, m, z or p)", f[3])
		}
		c := Cell{Value: v[1], Cost: v[2], Status: st, PriorLower: v[4], PriorUpper: v[5], Lower: v[6], Upper: v[7], Sliding: v[8]}
		if c.PriorUpper >= JJInfinity {
			c.PriorUpper = 0
		}
		if st == MustPublish && c.Value == 0 && c.PriorLower == 0 && c.PriorUpper == 0 && v[5] == 0 {
			c.Status = Empty
		}
		ls.Cells[i] = c
	}
	m, err := count("relations")
	if err != nil {
		return nil, err
	}
	ls.Relations = make([]LinearRelation, m)
	for q := range m {
		f, err := next("relation")
		if err != nil {
			return nil, err
		}
		if len(f) < 3 || f[2] != ":" {
			return nil, bad("relation", "want \"rhs k : j (c) ...\" (is the relation count right?)")
		}
		rhs, err := number("rhs", f[0])
		if err != nil {
			return nil, err
		}
		k, err := strconv.Atoi(f[1])
		if err != nil || k < 0 {
			return nil, bad("terms", "%q is not a count", f[1])
		}
		// Terms: "j (c)" or "j(c)": join and split at the parentheses.
		text := strings.Join(f[3:], " ")
		r := LinearRelation{RHS: rhs, Cells: make([]int, 0, k), Coefs: make([]float64, 0, k)}
		for t := 1; strings.TrimSpace(text) != ""; t++ {
			open := strings.IndexByte(text, '(')
			close := strings.IndexByte(text, ')')
			if open < 0 || close < open {
				return nil, bad("term", "term %d: want j (c) in %q", t, strings.TrimSpace(text))
			}
			js := strings.TrimSpace(text[:open])
			j, err := strconv.Atoi(js)
			if err != nil {
				return nil, bad("term", "term %d: %q is not a cell index", t, js)
			}
			if j < 0 || j >= n {
				return nil, bad("term", "term %d: cell %d out of range [0, %d)", t, j, n)
			}
			c, err := number("term", strings.TrimSpace(text[open+1:close]))
			if err != nil {
				return nil, err
			}
			r.Cells, r.Coefs = append(r.Cells, j), append(r.Coefs, c)
			text = text[close+1:]
		}
		if len(r.Cells) != k {
			return nil, bad("terms", "the relation says %d terms and lists %d", k, len(r.Cells))
		}
		ls.Relations[q] = r
	}
	if f, err := next("end"); err == nil {
		return nil, bad("end", "unexpected %q after the %d relations (is the relation count right?)", strings.Join(f, " "), m)
	}
	return ls, nil
}
