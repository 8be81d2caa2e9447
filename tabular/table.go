package tabular

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"strings"
)

// ErrInconsistent is the sentinel of a violated relation (a total that is
// not the sum of its parts); the error is an *InconsistencyError.
var ErrInconsistent = errors.New("tabular: inconsistent table")

// Dimension is a spanning variable of a table: its name (the microdata
// column) and its hierarchy of codes.
type Dimension struct {
	Name string
	H    *Hierarchy
}

// Contribution is one contributor's part of a magnitude cell: the
// respondent (or holding) and its unweighted value, with its sampling
// weight (1 when the table has no weights; a holding's weight is that of
// its first respondent).
type Contribution struct {
	ID     string
	Value  float64
	Weight float64
	// Requested: the respondent asked for protection (the microdata's
	// request column, BuildSettings.Request). Respondent level only: a
	// holding's contribution (Cell.TopHolding) never carries it.
	Requested bool
}

// Cell is one cell of a table, at any level of every dimension.
type Cell struct {
	Value  float64 // the (weighted) frequency or magnitude
	Freq   int     // the number of contributors (unweighted records)
	Cost   float64 // the cost of suppressing the cell (the builders set Value)
	Status Status
	Rule   string // the primary rules that made the cell Primary ("freq(3)+p(15)"), "" otherwise

	// Protection levels, ≥ 0, in the cell's units: the interval an
	// intruder can derive for a suppressed cell must reach at least Upper
	// above and Lower below its Value, and be at least Sliding wide
	// wherever it lies (τ-ARGUS's sliding protection level; the JJ
	// format's SPL). ApplyPrimary sets Upper and Lower on the cells it
	// makes primary (package primary's levels); no rule sets Sliding, the
	// audit checks it (intervals.AuditProtection). Default 0: no
	// requirement.
	Upper, Lower, Sliding float64

	// The attacker's prior bounds of the cell's value: before publication
	// everyone knows PriorLower ≤ value ≤ PriorUpper. The zero values are
	// the defaults: PriorLower 0 (contributions are non-negative) and
	// PriorUpper 0 read as +∞, no upper bound (PriorBounds applies that
	// reading; a cell known to be exactly 0 is Empty). Data with negative
	// values must set PriorLower.
	PriorLower, PriorUpper float64

	// The largest contributions of a magnitude table's cell, in decreasing
	// order of Value: Top by respondent, TopHolding by holding (nil
	// without a holding column). At most BuildSettings.TopN of each.
	Top, TopHolding []Contribution
}

// PriorBounds returns the attacker's prior bounds of the cell's value,
// PriorUpper 0 read as +∞.
func (c *Cell) PriorBounds() (lo, hi float64) {
	hi = c.PriorUpper
	if hi == 0 {
		hi = math.Inf(1)
	}
	return c.PriorLower, hi
}

// Table is the set of cells for every combination of codes of its
// dimensions, totals and subtotals included. Cells are in row-major order
// over the dimensions' canonical code indices (the first dimension
// slowest): cell index Σ_d c_d·stride_d.
type Table struct {
	Dims      []Dimension
	Cells     []Cell
	Magnitude bool // a magnitude table (Value sums a response); else frequencies
	Weighted  bool // Value is weighted by sampling weights
	stride    []int
}

// NewTable returns the table over dims with every cell zero and Empty. It
// panics when a dimension has no hierarchy or two share a name
// (programmer error).
func NewTable(dims []Dimension) *Table {
	t := &Table{Dims: dims, stride: make([]int, len(dims))}
	n := 1
	for d := len(dims) - 1; d >= 0; d-- {
		if dims[d].H == nil {
			panic(fmt.Sprintf("tabular: dimension %q has no hierarchy", dims[d].Name))
		}
		for e := d + 1; e < len(dims); e++ {
			if dims[e].Name == dims[d].Name {
				panic(fmt.Sprintf("tabular: dimension %q twice", dims[d].Name))
			}
		}
		t.stride[d] = n
		n *= dims[d].H.Len()
	}
	t.Cells = make([]Cell, n)
	for i := range t.Cells {
		t.Cells[i].Status = Empty
	}
	return t
}

// Len returns the number of cells.
func (t *Table) Len() int { return len(t.Cells) }

// Index returns the index of the cell with code indices c (one per
// dimension).
func (t *Table) Index(c []int) int {
	i := 0
	for d, k := range c {
		i += k * t.stride[d]
	}
	return i
}

// CodeIndices writes the code index of cell i in every dimension into dst
// (grown if short) and returns it.
func (t *Table) CodeIndices(i int, dst []int) []int {
	dst = dst[:0]
	for d := range t.Dims {
		dst = append(dst, i/t.stride[d])
		i %= t.stride[d]
	}
	return dst
}

// Codes returns the codes of cell i, one per dimension.
func (t *Table) Codes(i int) []string {
	c := t.CodeIndices(i, nil)
	s := make([]string, len(c))
	for d, k := range c {
		s[d] = t.Dims[d].H.Code(k)
	}
	return s
}

// Lookup returns the index of the cell with the given codes (one per
// dimension, in the dimensions' order) and whether it exists.
func (t *Table) Lookup(codes ...string) (int, bool) {
	if len(codes) != len(t.Dims) {
		return 0, false
	}
	i := 0
	for d, code := range codes {
		k, ok := t.Dims[d].H.Index(code)
		if !ok {
			return 0, false
		}
		i += k * t.stride[d]
	}
	return i, true
}

// CellName returns cell i as "name=code, name=code", for messages.
func (t *Table) CellName(i int) string {
	var b strings.Builder
	for d, code := range t.Codes(i) {
		if d > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Dims[d].Name + "=" + code)
	}
	return b.String()
}

// Relation is one linear relation between cells: the value of cell Total
// is the sum of the values of the cells Parts, along dimension Dim
// (Total's code there is a non-leaf code, the parts' codes its children,
// the other codes equal). As a row of A in A x = 0: +1 at each part, −1
// at Total.
type Relation struct {
	Total int
	Parts []int
	Dim   int
}

// Relations returns the relations of the table: for every dimension d,
// every non-leaf code p of d and every combination of codes of the other
// dimensions, cell(p) = Σ cell(children of p). They come ordered by
// dimension, then by the cell index of the total. Each Relation's Parts
// is a fresh slice the caller may keep.
func (t *Table) Relations() iter.Seq[Relation] {
	return func(yield func(Relation) bool) {
		for d, dim := range t.Dims {
			h := dim.H
			for i := range t.Cells {
				k := (i / t.stride[d]) % h.Len()
				kids := h.Children(k)
				if len(kids) == 0 {
					continue
				}
				base := i - k*t.stride[d]
				parts := make([]int, len(kids))
				for j, c := range kids {
					parts[j] = base + c*t.stride[d]
				}
				if !yield(Relation{Total: i, Parts: parts, Dim: d}) {
					return
				}
			}
		}
	}
}

// NumRelations returns the number of relations, Σ_d (non-leaf codes of d)·Π_{e≠d} |codes of e|,
// without listing them.
func (t *Table) NumRelations() int {
	n := 0
	for _, dim := range t.Dims {
		inner := 0
		for k := range dim.H.Len() {
			if !dim.H.IsLeaf(k) {
				inner++
			}
		}
		n += inner * len(t.Cells) / dim.H.Len()
	}
	return n
}

// InconsistencyError is a violated relation: the total's value differs
// from the sum of its parts' values by more than the tolerance.
type InconsistencyError struct {
	Total string   // the total cell, as CellName writes it
	Parts []string // the parts
	Value float64  // the total's value
	Sum   float64  // the sum of the parts' values
}

func (e *InconsistencyError) Error() string {
	parts := e.Parts
	more := ""
	if len(parts) > 4 {
		parts, more = parts[:4], fmt.Sprintf(" and %d more", len(e.Parts)-4)
	}
	return fmt.Sprintf("tabular: inconsistent table: cell (%s) = %v but its parts (%s)%s sum to %v",
		e.Total, e.Value, strings.Join(parts, "), ("), more, e.Sum)
}

// Unwrap returns ErrInconsistent.
func (e *InconsistencyError) Unwrap() error { return ErrInconsistent }

// CheckConsistent verifies every relation on the cells' values and
// returns an *InconsistencyError (wrapping ErrInconsistent) for the first
// violated one, in the order of Relations: violated when
// |v_total − Σ v_parts| > tol·max(1, |v_total|). A negative tol panics.
func (t *Table) CheckConsistent(tol float64) error {
	return checkRelations(t.Relations(), func(i int) float64 { return t.Cells[i].Value }, t.CellName, tol)
}

func checkRelations(rels iter.Seq[Relation], value func(int) float64, name func(int) string, tol float64) error {
	if tol < 0 || math.IsNaN(tol) {
		panic(fmt.Sprintf("tabular: negative tolerance %v", tol))
	}
	for r := range rels {
		sum := 0.0
		for _, p := range r.Parts {
			sum += value(p)
		}
		v := value(r.Total)
		if !(math.Abs(v-sum) <= tol*math.Max(1, math.Abs(v))) {
			e := &InconsistencyError{Total: name(r.Total), Value: v, Sum: sum}
			for _, p := range r.Parts {
				e.Parts = append(e.Parts, name(p))
			}
			return e
		}
	}
	return nil
}

// NonNegative reports whether every cell value is known to be ≥ 0: always
// for a frequency table, and for a magnitude table when no cell is
// negative. It decides the attacker's default prior lower bound 0.
func (t *Table) NonNegative() bool {
	if !t.Magnitude {
		return true
	}
	for i := range t.Cells {
		if t.Cells[i].Value < 0 {
			return false
		}
	}
	return true
}
