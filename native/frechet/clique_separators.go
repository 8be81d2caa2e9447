package frechet

import (
	"fmt"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// maxSeparatorCandidateVars bounds the size of a released marginal whose
// subsets are tried as separators (2^24 subsets); larger marginals would
// have at least 2^24 cells anyway.
const maxSeparatorCandidateVars = 24

// Component is a piece of the decomposition of the independence graph by
// complete separators (an atom when no smaller usable separator exists).
type Component struct {
	// Vars are the component's variables, positions in the parent margin
	// set's Vars, increasing.
	Vars []int
	// Margins is the component's own margin set, over the component's
	// variables (positions re-indexed to 0..len(Vars)-1): the released
	// marginals that lie inside it, plus the marginal of each adjacent
	// separator that none of them contains.
	Margins *model.MarginSet
	// Exact is non-nil when the component is itself a released marginal
	// (positions of the component): its cells are known exactly.
	Exact *model.Marginal
}

// Separator joins Components[Child] to the earlier Components[Parent].
type Separator struct {
	Vars          []int           // positions in the parent margin set's Vars
	Parent, Child int             // component indices, Parent < Child
	Marginal      *model.Marginal // its counts, collapsed from a released marginal
}

// Decomposition is a decomposition of the independence graph of a margin
// set by complete separators whose marginals are known: the components in a
// perfect sequence (each component meets the union of the earlier ones in
// its separator) and the separators with multiplicity.
type Decomposition struct {
	Vars       []model.Variable
	Components []Component
	Separators []Separator // Separators[i] has Child i+1
	Free       []int       // variables in no released marginal, left out of every component
}

// String is e.g. "[BF] [ABCE] [ADE] | separators [B] [AE]", with
// " | free [G]" appended for variables in no marginal.
func (d *Decomposition) String() string {
	comps := make([][]int, len(d.Components))
	for i, c := range d.Components {
		comps[i] = c.Vars
	}
	seps := make([][]int, len(d.Separators))
	for i, s := range d.Separators {
		seps[i] = s.Vars
	}
	return sequenceString(d.Vars, comps, seps, d.Free)
}

// Decompose splits the independence graph of ms (over the variables that
// appear in some marginal) by complete separators whose marginal is known,
// i.e. subsets of a released marginal, recursively until no such separator
// splits a piece. See doc.go for the algorithm. Errors: a malformed or
// inconsistent margin set, ErrNoMargins.
func Decompose(ms *model.MarginSet) (*Decomposition, error) {
	p, err := newProblem(ms)
	if err != nil {
		return nil, err
	}
	return p.decompose()
}

type treeEdge struct {
	a, b int
	sep  varSet
}

func (p *problem) decompose() (*Decomposition, error) {
	d := &Decomposition{Vars: p.ms.Vars, Free: p.free}
	covered := p.g.covered
	if covered == 0 {
		return d, nil
	}
	seen := map[varSet]bool{}
	var cands []varSet
	for _, r := range p.margins {
		if r.set.size() > maxSeparatorCandidateVars {
			return nil, fmt.Errorf("frechet: marginal %s has more than %d variables", setName(p.ms.Vars, r.set), maxSeparatorCandidateVars)
		}
		for s := r.set; ; s = (s - 1) & r.set {
			if !seen[s] {
				seen[s] = true
				cands = append(cands, s)
			}
			if s == 0 {
				break
			}
		}
	}
	slices.SortFunc(cands, func(a, b varSet) int {
		if a.size() != b.size() {
			return a.size() - b.size()
		}
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	})
	atoms, edges := p.split(covered, cands)

	// Order the pieces along the tree: start from the piece holding the
	// first released marginal, then repeatedly attach the neighbouring piece
	// holding the earliest released marginal, so the sequence follows the
	// order in which the margins were given.
	key := make([]int, len(atoms))
	for i, a := range atoms {
		key[i] = len(p.margins)
		for k, r := range p.margins {
			if r.set.subsetOf(a) {
				key[i] = k
				break
			}
		}
	}
	less := func(i, j int) bool { return key[i] < key[j] || key[i] == key[j] && atoms[i] < atoms[j] }
	pos := make([]int, len(atoms))
	for i := range pos {
		pos[i] = -1
	}
	root := 0
	for i := range atoms {
		if less(i, root) {
			root = i
		}
	}
	order := []int{root}
	pos[root] = 0
	var sepOf []treeEdge // in new positions: a = parent, b = child
	for len(order) < len(atoms) {
		best, bestEdge := -1, treeEdge{}
		for _, e := range edges {
			for _, pr := range [2][2]int{{e.a, e.b}, {e.b, e.a}} {
				if pos[pr[0]] >= 0 && pos[pr[1]] < 0 && (best < 0 || less(pr[1], best)) {
					best, bestEdge = pr[1], treeEdge{pos[pr[0]], -1, e.sep}
				}
			}
		}
		if best < 0 {
			panic("frechet: decomposition pieces are not joined into a tree")
		}
		pos[best] = len(order)
		bestEdge.b = len(order)
		order = append(order, best)
		sepOf = append(sepOf, bestEdge)
	}

	for _, a := range order {
		vars := atoms[a].members()
		c := Component{Vars: vars, Margins: &model.MarginSet{Vars: subVars(p.ms.Vars, vars)}}
		var inside []varSet
		for _, r := range p.margins {
			if r.set.subsetOf(atoms[a]) {
				c.Margins.Margins = append(c.Margins.Margins, restrict(r.m, vars))
				inside = append(inside, r.set)
				if r.set == atoms[a] {
					c.Exact = c.Margins.Margins[len(c.Margins.Margins)-1]
				}
			}
		}
		for _, e := range sepOf {
			if order[e.a] != a && order[e.b] != a {
				continue
			}
			implied := false
			for _, s := range inside {
				implied = implied || e.sep.subsetOf(s)
			}
			if !implied {
				m, _ := p.containing(e.sep)
				c.Margins.Margins = append(c.Margins.Margins, restrict(collapse(p.dims, m, e.sep), vars))
				inside = append(inside, e.sep)
			}
		}
		d.Components = append(d.Components, c)
	}
	for _, e := range sepOf {
		m, ok := p.containing(e.sep)
		if !ok {
			panic("frechet: separator outside every released marginal")
		}
		d.Separators = append(d.Separators, Separator{Vars: e.sep.members(), Parent: e.a, Child: e.b, Marginal: collapse(p.dims, m, e.sep)})
	}
	return d, nil
}

// split decomposes the piece w: it looks for the first candidate s (a
// subset of a released marginal, hence complete) that is a minimal
// separator of the subgraph induced by w — the subgraph minus s has at
// least two full components, components whose neighbourhood in w is all of
// s — and splits w into D1 ∪ s and w − D1 for the first full component D1.
// Both parts contain s, and s lies within a single piece of each part (a
// complete set is never split), so joining those two pieces by an edge
// labelled s keeps the running intersection property.
func (p *problem) split(w varSet, cands []varSet) ([]varSet, []treeEdge) {
	for _, s := range cands {
		if s == w || !s.subsetOf(w) {
			continue
		}
		var full []varSet
		for _, d := range components(p.g.adj, w&^s) {
			if neighborhood(p.g.adj, d, w) == s {
				full = append(full, d)
			}
		}
		if len(full) < 2 {
			continue
		}
		a1, e1 := p.split(full[0]|s, cands)
		a2, e2 := p.split(w&^full[0], cands)
		i, j := holding(a1, s), holding(a2, s)
		atoms := append(a1, a2...)
		edges := e1
		for _, e := range e2 {
			edges = append(edges, treeEdge{e.a + len(a1), e.b + len(a1), e.sep})
		}
		edges = append(edges, treeEdge{i, j + len(a1), s})
		return atoms, edges
	}
	return []varSet{w}, nil
}

func holding(pieces []varSet, s varSet) int {
	for i, a := range pieces {
		if s.subsetOf(a) {
			return i
		}
	}
	panic(fmt.Sprintf("frechet: separator %b in no piece of %b", s, pieces))
}
