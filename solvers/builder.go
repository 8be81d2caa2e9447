package solvers

import "sort"

// RowBuilder builds a Problem constraint by constraint, for formulations
// that are naturally written row-wise. Columns are declared first with
// AddVar; rows name their entries by column index. Problem converts to the
// column-oriented form, summing duplicate (row, column) entries and dropping
// explicit zeros.
type RowBuilder struct {
	p       Problem
	entries []entry
}

type entry struct {
	row, col int
	val      float64
}

// NewRowBuilder returns an empty builder for a problem with the given sense.
func NewRowBuilder(sense Sense) *RowBuilder {
	return &RowBuilder{p: Problem{Sense: sense}}
}

// AddVar declares a column and returns its index.
func (b *RowBuilder) AddVar(obj, lo, up float64, t VarType, name string) int {
	return b.p.AddCol(obj, lo, up, t, nil, nil, name)
}

// SetObj changes the objective coefficient of column j.
func (b *RowBuilder) SetObj(j int, c float64) { b.p.Obj[j] = c }

// SetOffset sets the objective constant.
func (b *RowBuilder) SetOffset(c float64) { b.p.Offset = c }

// AddConstraint appends the row lo <= Σ vals[k]·x[cols[k]] <= up and returns
// its index. It panics if len(cols) != len(vals).
func (b *RowBuilder) AddConstraint(lo, up float64, cols []int, vals []float64, name string) int {
	if len(cols) != len(vals) {
		panic("solvers: AddConstraint: len(cols) != len(vals)")
	}
	i := b.p.AddRow(lo, up, name)
	for k, j := range cols {
		b.entries = append(b.entries, entry{i, j, vals[k]})
	}
	return i
}

// NumVars is the number of columns declared so far.
func (b *RowBuilder) NumVars() int { return b.p.NumCols() }

// NumConstraints is the number of rows added so far.
func (b *RowBuilder) NumConstraints() int { return b.p.NumRows() }

// Problem returns the assembled problem. The builder may be used further;
// later calls return independent problems.
func (b *RowBuilder) Problem() *Problem {
	q := b.p.Clone()
	n := q.NumCols()
	es := append([]entry(nil), b.entries...)
	sort.Slice(es, func(a, c int) bool {
		if es[a].col != es[c].col {
			return es[a].col < es[c].col
		}
		return es[a].row < es[c].row
	})
	q.ColStart = make([]int, n+1)
	q.RowIndex = q.RowIndex[:0]
	q.Value = q.Value[:0]
	k := 0
	for j := 0; j < n; j++ {
		for k < len(es) && es[k].col == j {
			i, v := es[k].row, es[k].val
			k++
			for k < len(es) && es[k].col == j && es[k].row == i {
				v += es[k].val
				k++
			}
			if v != 0 {
				q.RowIndex = append(q.RowIndex, i)
				q.Value = append(q.Value, v)
			}
		}
		q.ColStart[j+1] = len(q.RowIndex)
	}
	if k < len(es) {
		// Entries naming columns that were never declared: keep them so
		// that Validate reports the problem instead of dropping data.
		panic("solvers: AddConstraint named an undeclared column")
	}
	return q
}
