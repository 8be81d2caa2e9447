package frechet

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

var (
	// ErrNotDecomposable: the released marginals are not the minimal
	// sufficient statistics of a decomposable log-linear model, so Theorem 1
	// does not apply.
	ErrNotDecomposable = errors.New("frechet: margins are not the cliques of a decomposable model")
	// ErrNotReducible: no complete separator whose marginal is known splits
	// the independence graph, so Theorem 2 does not apply.
	ErrNotReducible = errors.New("frechet: independence graph has no usable complete separator")
	// ErrDeadline: ReducibleBy's deadline passed before the combination
	// of the components' bounds was complete.
	ErrDeadline = errors.New("frechet: deadline passed")
	// ErrNotCollapsible: the requested marginal cannot be reached by removing
	// simplicial variables, so its bounds have no closed form here.
	ErrNotCollapsible = errors.New("frechet: marginal is not collapsible")
	// ErrNoMargins: the margin set releases nothing, not even the total.
	ErrNoMargins = errors.New("frechet: no released marginals")
	// ErrTooManyVariables: more than MaxVars variables.
	ErrTooManyVariables = errors.New("frechet: too many variables")
)

// released is a released marginal with its variable set.
type released struct {
	set varSet
	m   *model.Marginal
}

// problem is a validated margin set: its graph, its marginals with the
// redundant ones (duplicates, and marginals contained in another) dropped,
// the grand total and the variables in no marginal.
type problem struct {
	ms      *model.MarginSet
	dims    []int
	g       *IndependenceGraph
	margins []released
	total   int64
	free    []int // variables in no released marginal
	// freeSplits is true when some free variable has more than one level:
	// then every full-table cell can be emptied by moving its count to
	// another level of that variable (see doc.go).
	freeSplits bool
}

func newProblem(ms *model.MarginSet) (*problem, error) {
	g, err := Graph(ms)
	if err != nil {
		return nil, err
	}
	if len(ms.Margins) == 0 {
		return nil, ErrNoMargins
	}
	if err := ms.Check(); err != nil {
		return nil, fmt.Errorf("frechet: %w", err)
	}
	p := &problem{ms: ms, dims: model.Dims(ms.Vars), g: g, margins: reduceMargins(ms.Margins)}
	for _, c := range ms.Margins[0].Counts {
		p.total += c
	}
	for j := range ms.Vars {
		if !g.covered.has(j) {
			p.free = append(p.free, j)
			if p.dims[j] > 1 {
				p.freeSplits = true
			}
		}
	}
	return p, nil
}

// reduceMargins drops duplicates and marginals contained in another one,
// keeping the first copy, in input order. The empty marginal (the grand
// total) survives only when it is the only one.
func reduceMargins(ms []*model.Marginal) []released {
	var out []released
	for i, m := range ms {
		s := setOf(m.Vars)
		redundant := false
		for j, o := range ms {
			t := setOf(o.Vars)
			if j != i && s.subsetOf(t) && (s != t || j < i) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, released{s, m})
		}
	}
	return out
}

// containing returns a reduced marginal whose variables include s.
func (p *problem) containing(s varSet) (*model.Marginal, bool) {
	for _, r := range p.margins {
		if s.subsetOf(r.set) {
			return r.m, true
		}
	}
	return nil, false
}

// collapse sums marginal m onto the variables sub ⊆ m.Vars.
func collapse(dims []int, m *model.Marginal, sub varSet) *model.Marginal {
	if !sub.subsetOf(setOf(m.Vars)) {
		panic(fmt.Sprintf("frechet: cannot collapse marginal over %v onto %v", m.Vars, sub.members()))
	}
	out := &model.Marginal{Vars: sub.members()}
	if setOf(m.Vars) == sub {
		out.Counts = m.Counts
		return out
	}
	out.Counts = make([]int64, model.NumCells(model.SubDims(dims, out.Vars)))
	mdims := model.SubDims(dims, m.Vars)
	lv := make([]int, len(m.Vars))
	full := make([]int, len(dims))
	for idx, c := range m.Counts {
		model.CellLevels(mdims, idx, lv)
		for i, j := range m.Vars {
			full[j] = lv[i]
		}
		out.Counts[model.Project(dims, out.Vars, full)] += c
	}
	return out
}

// restrict re-expresses marginal m (over positions of the parent table) over
// the positions of the sub-table whose variables are sub, when m's variables
// are all in sub. Counts are shared: the row-major order is unchanged.
func restrict(m *model.Marginal, sub []int) *model.Marginal {
	out := &model.Marginal{Vars: make([]int, len(m.Vars)), Counts: m.Counts}
	for i, j := range m.Vars {
		k, ok := slices.BinarySearch(sub, j)
		if !ok {
			panic(fmt.Sprintf("frechet: marginal variable %d not in %v", j, sub))
		}
		out.Vars[i] = k
	}
	return out
}

// subVars returns the variables at positions sub.
func subVars(vars []model.Variable, sub []int) []model.Variable {
	out := make([]model.Variable, len(sub))
	for i, j := range sub {
		out[i] = vars[j]
	}
	return out
}

// lookup reads the cell of a table over the positions vars (row-major, first
// slowest) that contains a full-table cell.
type lookup struct {
	vars    []int
	strides []int
}

func newLookup(dims []int, vars []int) lookup {
	l := lookup{vars: vars, strides: make([]int, len(vars))}
	s := 1
	for i := len(vars) - 1; i >= 0; i-- {
		l.strides[i] = s
		s *= dims[vars[i]]
	}
	return l
}

// index of the cell containing the full cell with level vector lv.
func (l lookup) index(lv []int) int {
	idx := 0
	for i, j := range l.vars {
		idx += lv[j] * l.strides[i]
	}
	return idx
}
