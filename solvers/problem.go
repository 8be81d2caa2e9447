package solvers

import (
	"fmt"
	"math"
	"slices"
)

// Inf is the bound used for "no bound". Any value with math.IsInf is
// accepted as infinite by every backend.
var Inf = math.Inf(1)

// Sense is the direction of optimization.
type Sense int8

const (
	Minimize Sense = iota
	Maximize
)

func (s Sense) String() string {
	if s == Maximize {
		return "maximize"
	}
	return "minimize"
}

// VarType is the domain of a column.
type VarType int8

const (
	Continuous VarType = iota
	Integer
	// Binary is an integer column whose bounds are intersected with [0, 1].
	Binary
)

func (t VarType) String() string {
	switch t {
	case Continuous:
		return "continuous"
	case Integer:
		return "integer"
	case Binary:
		return "binary"
	}
	return fmt.Sprintf("VarType(%d)", int(t))
}

// Problem is an LP or MIP in column-oriented (CSC) form. All slices that are
// indexed by column have length NumCols(); those indexed by row have length
// NumRows(). ColType, ColNames and RowNames may be nil (all continuous, no
// names). Column j's nonzeros are RowIndex[ColStart[j]:ColStart[j+1]] with
// values Value[ColStart[j]:ColStart[j+1]]; ColStart has NumCols()+1 entries
// (or is nil when there are no columns).
//
// Problem is a plain value: build it directly, or with AddRow/AddCol, or
// with a RowBuilder for row-wise formulations.
type Problem struct {
	Name   string
	Sense  Sense
	Offset float64 // constant added to the objective

	Obj      []float64
	ColLower []float64
	ColUpper []float64
	ColType  []VarType
	ColNames []string

	RowLower []float64
	RowUpper []float64
	RowNames []string

	ColStart []int
	RowIndex []int
	Value    []float64
}

// NumCols is the number of columns (variables).
func (p *Problem) NumCols() int { return len(p.Obj) }

// NumRows is the number of rows (constraints).
func (p *Problem) NumRows() int { return len(p.RowLower) }

// NumNonzeros is the number of stored matrix entries.
func (p *Problem) NumNonzeros() int { return len(p.Value) }

// IsMIP reports whether any column is integer or binary.
func (p *Problem) IsMIP() bool {
	for _, t := range p.ColType {
		if t != Continuous {
			return true
		}
	}
	return false
}

// Type returns the column type of column j (Continuous when ColType is nil).
func (p *Problem) Type(j int) VarType {
	if p.ColType == nil {
		return Continuous
	}
	return p.ColType[j]
}

// Bounds returns the effective bounds of column j: Binary columns are
// intersected with [0, 1].
func (p *Problem) Bounds(j int) (lo, up float64) {
	lo, up = p.ColLower[j], p.ColUpper[j]
	if p.Type(j) == Binary {
		lo, up = math.Max(lo, 0), math.Min(up, 1)
	}
	return lo, up
}

// AddRow appends a row with bounds [lo, up] and no entries; entries are
// added by AddCol. It returns the row index. name may be empty.
func (p *Problem) AddRow(lo, up float64, name string) int {
	p.RowLower = append(p.RowLower, lo)
	p.RowUpper = append(p.RowUpper, up)
	if name != "" || p.RowNames != nil {
		for len(p.RowNames) < len(p.RowLower)-1 {
			p.RowNames = append(p.RowNames, "")
		}
		p.RowNames = append(p.RowNames, name)
	}
	return len(p.RowLower) - 1
}

// Reserve makes room for cols more columns with nonzeros more entries
// (and their names when names is true), so that building a large problem
// column by column does not copy its arrays again and again.
func (p *Problem) Reserve(cols, nonzeros int, names bool) {
	if cols <= 0 {
		return
	}
	p.Obj = slices.Grow(p.Obj, cols)
	p.ColLower = slices.Grow(p.ColLower, cols)
	p.ColUpper = slices.Grow(p.ColUpper, cols)
	p.ColStart = slices.Grow(p.ColStart, cols+1)
	p.RowIndex = slices.Grow(p.RowIndex, nonzeros)
	p.Value = slices.Grow(p.Value, nonzeros)
	if names {
		p.ColNames = slices.Grow(p.ColNames, cols)
	}
}

// AddCol appends a column with objective coefficient obj, bounds [lo, up],
// type t and entries vals at rows rows. It returns the column index. name
// may be empty. AddCol panics if len(rows) != len(vals) (programmer error);
// out-of-range row indices are reported by Validate.
func (p *Problem) AddCol(obj, lo, up float64, t VarType, rows []int, vals []float64, name string) int {
	if len(rows) != len(vals) {
		panic("solvers: AddCol: len(rows) != len(vals)")
	}
	if len(p.ColStart) == 0 {
		p.ColStart = append(p.ColStart[:0], 0)
	}
	p.Obj = append(p.Obj, obj)
	p.ColLower = append(p.ColLower, lo)
	p.ColUpper = append(p.ColUpper, up)
	if t != Continuous || p.ColType != nil {
		for len(p.ColType) < len(p.Obj)-1 {
			p.ColType = append(p.ColType, Continuous)
		}
		p.ColType = append(p.ColType, t)
	}
	if name != "" || p.ColNames != nil {
		for len(p.ColNames) < len(p.Obj)-1 {
			p.ColNames = append(p.ColNames, "")
		}
		p.ColNames = append(p.ColNames, name)
	}
	p.RowIndex = append(p.RowIndex, rows...)
	p.Value = append(p.Value, vals...)
	p.ColStart = append(p.ColStart, len(p.RowIndex))
	return len(p.Obj) - 1
}

// Column returns the row indices and values of column j (views into the
// problem's arrays; do not modify).
func (p *Problem) Column(j int) (rows []int, vals []float64) {
	a, b := p.ColStart[j], p.ColStart[j+1]
	return p.RowIndex[a:b], p.Value[a:b]
}

// Validate checks the problem's shape and values. It returns an *Error
// wrapping ErrInvalidProblem that names the first offending entry.
func (p *Problem) Validate() error {
	n, m := p.NumCols(), p.NumRows()
	bad := func(format string, args ...any) error {
		return &Error{Op: "validate", Err: fmt.Errorf("%w: %s", ErrInvalidProblem, fmt.Sprintf(format, args...))}
	}
	if len(p.ColLower) != n || len(p.ColUpper) != n {
		return bad("%d columns but %d lower and %d upper bounds", n, len(p.ColLower), len(p.ColUpper))
	}
	if p.ColType != nil && len(p.ColType) != n {
		return bad("%d columns but %d column types", n, len(p.ColType))
	}
	if p.ColNames != nil && len(p.ColNames) != n {
		return bad("%d columns but %d column names", n, len(p.ColNames))
	}
	if len(p.RowUpper) != m {
		return bad("%d row lower bounds but %d upper bounds", m, len(p.RowUpper))
	}
	if p.RowNames != nil && len(p.RowNames) != m {
		return bad("%d rows but %d row names", m, len(p.RowNames))
	}
	if n == 0 {
		if len(p.ColStart) > 1 || len(p.RowIndex) != 0 || len(p.Value) != 0 {
			return bad("matrix entries without columns")
		}
	} else {
		if len(p.ColStart) != n+1 {
			return bad("ColStart has %d entries, want %d", len(p.ColStart), n+1)
		}
		if p.ColStart[0] != 0 || p.ColStart[n] != len(p.RowIndex) || len(p.RowIndex) != len(p.Value) {
			return bad("ColStart/RowIndex/Value lengths disagree (%d, %d, %d)", p.ColStart[n], len(p.RowIndex), len(p.Value))
		}
	}
	if math.IsNaN(p.Offset) || math.IsInf(p.Offset, 0) {
		return bad("objective offset %v", p.Offset)
	}
	for j := 0; j < n; j++ {
		if math.IsNaN(p.Obj[j]) || math.IsInf(p.Obj[j], 0) {
			return bad("column %s: objective coefficient %v", p.colName(j), p.Obj[j])
		}
		lo, up := p.ColLower[j], p.ColUpper[j]
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) {
			return bad("column %s: bounds [%v, %v]", p.colName(j), lo, up)
		}
		if p.ColType != nil && (p.ColType[j] < Continuous || p.ColType[j] > Binary) {
			return bad("column %s: unknown type %d", p.colName(j), p.ColType[j])
		}
		a, b := p.ColStart[j], p.ColStart[j+1]
		if a > b {
			return bad("column %s: ColStart decreases", p.colName(j))
		}
		for k := a; k < b; k++ {
			i := p.RowIndex[k]
			if i < 0 || i >= m {
				return bad("column %s: row index %d out of range [0, %d)", p.colName(j), i, m)
			}
			if v := p.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return bad("column %s, row %s: coefficient %v", p.colName(j), p.rowName(i), v)
			}
		}
	}
	for i := 0; i < m; i++ {
		lo, up := p.RowLower[i], p.RowUpper[i]
		if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) {
			return bad("row %s: bounds [%v, %v]", p.rowName(i), lo, up)
		}
	}
	return nil
}

// ColName returns column j's name, or a generated one ("x<j>") when it has none.
func (p *Problem) ColName(j int) string { return p.colName(j) }

// RowName returns row i's name, or a generated one ("r<i>") when it has none.
func (p *Problem) RowName(i int) string { return p.rowName(i) }

func (p *Problem) colName(j int) string {
	if p.ColNames != nil && p.ColNames[j] != "" {
		return p.ColNames[j]
	}
	return fmt.Sprintf("x%d", j)
}

func (p *Problem) rowName(i int) string {
	if p.RowNames != nil && p.RowNames[i] != "" {
		return p.RowNames[i]
	}
	return fmt.Sprintf("r%d", i)
}

// Clone returns a deep copy of p.
func (p *Problem) Clone() *Problem {
	q := *p
	q.Obj = append([]float64(nil), p.Obj...)
	q.ColLower = append([]float64(nil), p.ColLower...)
	q.ColUpper = append([]float64(nil), p.ColUpper...)
	q.ColType = append([]VarType(nil), p.ColType...)
	q.ColNames = append([]string(nil), p.ColNames...)
	q.RowLower = append([]float64(nil), p.RowLower...)
	q.RowUpper = append([]float64(nil), p.RowUpper...)
	q.RowNames = append([]string(nil), p.RowNames...)
	q.ColStart = append([]int(nil), p.ColStart...)
	q.RowIndex = append([]int(nil), p.RowIndex...)
	q.Value = append([]float64(nil), p.Value...)
	if p.ColType == nil {
		q.ColType = nil
	}
	if p.ColNames == nil {
		q.ColNames = nil
	}
	if p.RowNames == nil {
		q.RowNames = nil
	}
	return &q
}

// RowActivity returns A x.
func (p *Problem) RowActivity(x []float64) []float64 {
	ax := make([]float64, p.NumRows())
	for j := 0; j < p.NumCols(); j++ {
		if x[j] == 0 {
			continue
		}
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			ax[p.RowIndex[k]] += p.Value[k] * x[j]
		}
	}
	return ax
}

// ObjectiveValue returns c'x + offset.
func (p *Problem) ObjectiveValue(x []float64) float64 {
	s := p.Offset
	for j, c := range p.Obj {
		s += c * x[j]
	}
	return s
}

// RowMajor returns the matrix in compressed sparse row form: row i's entries
// are cols[start[i]:start[i+1]] with values vals[start[i]:start[i+1]],
// columns in increasing order.
func (p *Problem) RowMajor() (start, cols []int, vals []float64) {
	m := p.NumRows()
	start = make([]int, m+1)
	for _, i := range p.RowIndex {
		start[i+1]++
	}
	for i := 0; i < m; i++ {
		start[i+1] += start[i]
	}
	next := append([]int(nil), start[:m]...)
	cols = make([]int, len(p.RowIndex))
	vals = make([]float64, len(p.RowIndex))
	for j := 0; j < p.NumCols(); j++ {
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			i := p.RowIndex[k]
			cols[next[i]] = j
			vals[next[i]] = p.Value[k]
			next[i]++
		}
	}
	return start, cols, vals
}
