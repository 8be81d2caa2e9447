package frechet

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// ComponentSolver returns bounds for every cell of the full table over
// sub.Vars given the margin set sub (a component of a decomposition).
type ComponentSolver func(sub *model.MarginSet) (*model.CellBounds, error)

// Reducible returns the bounds of Theorem 2 for every cell of the full table
// over ms.Vars. It decomposes the independence graph by complete separators
// whose marginals are known (Decompose), takes the cells of a component that
// is itself a released marginal as known, calls solve on every other
// component, and combines, for a cell x:
//
//	upper(x) = min over components K of upper_K(x_K),
//	lower(x) = max(0, Σ_K lower_K(x_K) − Σ_S n_S(x_S)),
//
// separators counted with multiplicity. The result is sharp when every
// component's bounds are sharp (doc.go). Variables in no marginal are
// treated as in Bounds. Method labels each cell "reducible(M1+M2)" with the
// methods the component solver reported for the component cells used (nil
// when it reported none). solve may be nil only when every component is a
// released marginal (a decomposable set); it panics otherwise.
//
// Errors: those of Decompose, ErrNotReducible when the decomposition has a
// single component, a solver's error (wrapped, naming the component), or a
// solver result of the wrong size.
func Reducible(ms *model.MarginSet, solve ComponentSolver) (*model.CellBounds, error) {
	var at func(*Component) (*model.CellBounds, error)
	if solve != nil {
		at = func(c *Component) (*model.CellBounds, error) { return solve(c.Margins) }
	}
	return ReducibleAt(ms, at)
}

// ReducibleAt is Reducible with a component solver that is also told where
// the component lies (Component.Vars, positions in ms.Vars), for callers
// that relate the components' cells to the full table's (e.g. to tell
// which combined bounds rest on sharp component bounds). solve is called
// for every component that is not a released marginal, in the order of
// the decomposition.
func ReducibleAt(ms *model.MarginSet, solve func(c *Component) (*model.CellBounds, error)) (*model.CellBounds, error) {
	return ReducibleBy(ms, solve, time.Time{})
}

// deadlineStride is the number of cells the combination visits between
// two looks at the clock (about a millisecond of work).
const deadlineStride = 1 << 14

// ReducibleBy is ReducibleAt with a deadline (zero: none), checked before
// each component is solved and every deadlineStride cells of the
// combination, which visits every cell of the full table: past it, the
// error wraps ErrDeadline and no bounds are returned (the caller falls back
// to the trivial bounds, or whatever it has).
func ReducibleBy(ms *model.MarginSet, solve func(c *Component) (*model.CellBounds, error), deadline time.Time) (*model.CellBounds, error) {
	p, err := newProblem(ms)
	if err != nil {
		return nil, err
	}
	d, err := p.decompose()
	if err != nil {
		return nil, err
	}
	if len(d.Components) < 2 {
		return nil, fmt.Errorf("%w: %s", ErrNotReducible, ms.Name())
	}
	cb := make([]*model.CellBounds, len(d.Components))
	labelled := false
	for i := range d.Components {
		c := &d.Components[i]
		n := model.NumCells(model.Dims(c.Margins.Vars))
		if c.Exact != nil {
			b := &model.CellBounds{Lower: make([]float64, n), Upper: make([]float64, n)}
			for k, v := range c.Exact.Counts {
				b.Lower[k], b.Upper[k] = float64(v), float64(v)
			}
			cb[i] = b
			continue
		}
		if solve == nil {
			panic("frechet: Reducible needs a component solver for " + c.Margins.Name())
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: before component %s", ErrDeadline, model.MarginalName(ms.Vars, c.Vars))
		}
		name := model.MarginalName(ms.Vars, c.Vars)
		b, err := solve(c)
		if err != nil {
			return nil, fmt.Errorf("frechet: component %s: %w", name, err)
		}
		if len(b.Lower) != n || len(b.Upper) != n || (b.Method != nil && len(b.Method) != n) {
			return nil, fmt.Errorf("frechet: component %s: solver returned bounds for %d cells, want %d", name, len(b.Lower), n)
		}
		cb[i] = b
		labelled = labelled || b.Method != nil
	}
	out := p.theorem2(d, cb, labelled, deadline)
	if out == nil {
		return nil, fmt.Errorf("%w: combining the components of %s", ErrDeadline, ms.Name())
	}
	return out, nil
}

// theorem2 combines the components' bounds; nil when deadline (non-zero)
// passes first.
func (p *problem) theorem2(d *Decomposition, cb []*model.CellBounds, labelled bool, deadline time.Time) *model.CellBounds {
	cl := make([]lookup, len(d.Components))
	for i, c := range d.Components {
		cl[i] = newLookup(p.dims, c.Vars)
	}
	sl := make([]lookup, len(d.Separators))
	for i, s := range d.Separators {
		sl[i] = newLookup(p.dims, s.Vars)
	}
	n := model.NumCells(p.dims)
	out := &model.CellBounds{Lower: make([]float64, n), Upper: make([]float64, n)}
	if labelled {
		out.Method = make([]string, n)
	}
	lv := make([]int, len(p.dims))
	var labels, lastLabels []string
	lastLabel := ""
	for idx := range n {
		if idx%deadlineStride == deadlineStride-1 && !deadline.IsZero() && time.Now().After(deadline) {
			return nil
		}
		model.CellLevels(p.dims, idx, lv)
		up, low := math.Inf(1), 0.0
		labels = labels[:0]
		for i, b := range cb {
			k := cl[i].index(lv)
			up = min(up, b.Upper[k])
			low += b.Lower[k]
			if b.Method != nil && b.Method[k] != "" && !slices.Contains(labels, b.Method[k]) {
				labels = append(labels, b.Method[k])
			}
		}
		for i, s := range d.Separators {
			low -= float64(s.Marginal.Counts[sl[i].index(lv)])
		}
		if low < 0 || p.freeSplits {
			low = 0
		}
		out.Lower[idx], out.Upper[idx] = low, up
		if labelled {
			slices.Sort(labels)
			if lastLabel == "" || !slices.Equal(labels, lastLabels) {
				// One string per distinct set of labels, not one per cell
				// (most cells share the set).
				lastLabels = append(lastLabels[:0], labels...)
				lastLabel = "reducible(" + strings.Join(labels, "+") + ")"
			}
			out.Method[idx] = lastLabel
		}
	}
	return out
}
