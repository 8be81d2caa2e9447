package frechet

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// Decomposable reports whether the released marginals, after dropping
// duplicates and marginals contained in another, are exactly the maximal
// cliques of their independence graph restricted to the variables they
// cover, and that graph is chordal: the marginals are then the minimal
// sufficient statistics of a decomposable log-linear model on those
// variables, and Bounds applies (and is sharp). Variables in no marginal are
// allowed (see doc.go). A non-graphical set such as [AB] [AC] [BC] has a
// chordal graph (the triangle) whose clique [ABC] is not released: not
// decomposable. Decomposable is false for malformed margin sets and for a
// set with no marginals; it does not check consistency (Bounds does).
func Decomposable(ms *model.MarginSet) bool {
	g, err := Graph(ms)
	if err != nil || len(ms.Margins) == 0 {
		return false
	}
	p := &problem{ms: ms, dims: model.Dims(ms.Vars), g: g, margins: reduceMargins(ms.Margins)}
	_, _, err = p.cliqueTree()
	return err == nil
}

// cliqueTree returns the clique marginals of a decomposable margin set in a
// perfect sequence, and the marginals of the separators S2..Sm (each
// collapsed from its parent clique), or ErrNotDecomposable with the reason.
// When no variable is covered (only the grand total is released) the single
// clique is the empty marginal.
func (p *problem) cliqueTree() (cliques, seps []*model.Marginal, err error) {
	covered := p.g.covered
	if covered == 0 {
		return []*model.Marginal{p.margins[0].m}, nil, nil
	}
	cl, sp, par, ok := junctionTree(p.g.adj, covered)
	if !ok {
		return nil, nil, fmt.Errorf("%w: the independence graph (%s) is not chordal", ErrNotDecomposable, p.g)
	}
	bySet := map[varSet]*model.Marginal{}
	for _, r := range p.margins {
		bySet[r.set] = r.m
	}
	match := len(bySet) == len(cl)
	for _, c := range cl {
		match = match && bySet[c] != nil
	}
	if !match {
		names := make([]string, len(cl))
		for i, c := range cl {
			names[i] = setName(p.ms.Vars, c)
		}
		return nil, nil, fmt.Errorf("%w: the margins %s are not the cliques %s of their chordal graph (the model is not graphical)",
			ErrNotDecomposable, p.ms.Name(), strings.Join(names, " "))
	}
	for i, c := range cl {
		cliques = append(cliques, bySet[c])
		if i > 0 {
			seps = append(seps, collapse(p.dims, bySet[cl[par[i]]], sp[i]))
		}
	}
	return cliques, seps, nil
}

// Bounds returns the sharp bounds of Theorem 1 for every cell of the full
// table over ms.Vars: for a cell x,
//
//	upper(x) = min over cliques C of n_C(x_C),
//	lower(x) = max(0, Σ_C n_C(x_C) − Σ_S n_S(x_S)),
//
// with the separators S of a perfect sequence counted with multiplicity.
// A variable in no marginal leaves the upper bound unchanged and makes every
// lower bound 0 unless it has a single level (doc.go). Errors: a malformed or
// inconsistent margin set (the *model.InconsistencyError is wrapped),
// ErrNoMargins, ErrNotDecomposable.
func Bounds(ms *model.MarginSet) (*model.CellBounds, error) {
	p, err := newProblem(ms)
	if err != nil {
		return nil, err
	}
	cliques, seps, err := p.cliqueTree()
	if err != nil {
		return nil, err
	}
	return p.theorem1(cliques, seps), nil
}

func (p *problem) theorem1(cliques, seps []*model.Marginal) *model.CellBounds {
	cl := make([]lookup, len(cliques))
	for i, m := range cliques {
		cl[i] = newLookup(p.dims, m.Vars)
	}
	sl := make([]lookup, len(seps))
	for i, m := range seps {
		sl[i] = newLookup(p.dims, m.Vars)
	}
	n := model.NumCells(p.dims)
	b := &model.CellBounds{Lower: make([]float64, n), Upper: make([]float64, n)}
	lv := make([]int, len(p.dims))
	for idx := range n {
		model.CellLevels(p.dims, idx, lv)
		up := int64(math.MaxInt64)
		var low int64
		for i, m := range cliques {
			c := m.Counts[cl[i].index(lv)]
			up = min(up, c)
			low += c
		}
		for i, m := range seps {
			low -= m.Counts[sl[i].index(lv)]
		}
		if low < 0 || p.freeSplits {
			low = 0
		}
		b.Lower[idx], b.Upper[idx] = float64(low), float64(up)
	}
	return b
}

// MarginalBounds returns sharp bounds for the cells of the marginal over
// the variables at positions sub (increasing; it panics otherwise), row-major
// over sub, for a decomposable margin set. It removes, one at a time,
// variables outside sub that are simplicial in the remaining graph (their
// neighbours are pairwise adjacent, so exactly one clique holds them) and
// variables in no marginal; each removal leaves the set of attainable
// marginals over the remaining variables unchanged (doc.go). When every
// variable outside sub goes, Theorem 1 on the collapsed marginals gives the
// bounds; otherwise it returns ErrNotCollapsible, and the marginal's bounds
// need an LP, IP or the shuttle. Other errors as for Bounds.
func MarginalBounds(ms *model.MarginSet, sub []int) (*model.CellBounds, error) {
	for i, j := range sub {
		if j < 0 || j >= len(ms.Vars) || (i > 0 && sub[i-1] >= j) {
			panic(fmt.Sprintf("frechet: MarginalBounds needs increasing positions in [0, %d), got %v", len(ms.Vars), sub))
		}
	}
	p, err := newProblem(ms)
	if err != nil {
		return nil, err
	}
	if _, _, err := p.cliqueTree(); err != nil {
		return nil, err
	}
	target := setOf(sub)
	w := p.g.covered | target
	for changed := true; changed; {
		changed = false
		for _, v := range (w &^ target).members() {
			if isClique(p.g.adj, p.g.adj[v]&w) {
				w &^= bit(v)
				changed = true
			}
		}
	}
	if extra := w &^ target; extra != 0 {
		return nil, fmt.Errorf("%w: %s cannot be reached from %s by removing simplicial variables (%s stay)",
			ErrNotCollapsible, setName(ms.Vars, target), ms.Name(), setName(ms.Vars, extra))
	}
	red := &model.MarginSet{Vars: subVars(ms.Vars, sub)}
	for _, r := range p.margins {
		red.Margins = append(red.Margins, restrict(collapse(p.dims, r.m, r.set&target), sub))
	}
	return Bounds(red)
}
