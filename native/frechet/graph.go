package frechet

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// MaxVars is the largest number of variables a margin set may have here:
// vertex sets are 64-bit masks. A table over more than 64 variables has
// more than 2^64 cells, so the limit only matters for the graph functions.
const MaxVars = 64

// varSet is a set of variable positions as a bit mask.
type varSet uint64

func bit(i int) varSet { return varSet(1) << uint(i) }

func setOf(vars []int) varSet {
	var s varSet
	for _, j := range vars {
		s |= bit(j)
	}
	return s
}

func (s varSet) has(i int) bool         { return s&bit(i) != 0 }
func (s varSet) subsetOf(t varSet) bool { return s&^t == 0 }
func (s varSet) size() int              { return bits.OnesCount64(uint64(s)) }

// members lists the positions in s, increasing.
func (s varSet) members() []int {
	out := make([]int, 0, s.size())
	for t := uint64(s); t != 0; t &= t - 1 {
		out = append(out, bits.TrailingZeros64(t))
	}
	return out
}

// lowest is the smallest member of a non-empty set.
func (s varSet) lowest() int { return bits.TrailingZeros64(uint64(s)) }

// setName is the bracket name of a set of variables, e.g. "[ABCE]".
func setName(vars []model.Variable, s varSet) string { return model.MarginalName(vars, s.members()) }

// IndependenceGraph is the independence graph of a set of released
// marginals: one vertex per variable of the table, an edge between two
// variables that appear together in some released marginal. A variable in
// no marginal is an isolated vertex that is not covered.
type IndependenceGraph struct {
	vars    []model.Variable
	adj     []varSet
	covered varSet
}

// Graph builds the independence graph of ms. It returns an error when a
// marginal names a position outside ms.Vars, or ms has more than MaxVars
// variables.
func Graph(ms *model.MarginSet) (*IndependenceGraph, error) {
	k := len(ms.Vars)
	if k > MaxVars {
		return nil, fmt.Errorf("%w: %d variables", ErrTooManyVariables, k)
	}
	g := &IndependenceGraph{vars: ms.Vars, adj: make([]varSet, k)}
	for _, m := range ms.Margins {
		var s varSet
		for i, j := range m.Vars {
			if j < 0 || j >= k {
				return nil, fmt.Errorf("frechet: marginal variable position %d out of range [0, %d)", j, k)
			}
			if i > 0 && m.Vars[i-1] >= j {
				return nil, fmt.Errorf("frechet: marginal variables must be distinct and increasing, got %v", m.Vars)
			}
			s |= bit(j)
		}
		g.covered |= s
		for _, j := range m.Vars {
			g.adj[j] |= s &^ bit(j)
		}
	}
	return g, nil
}

// Len is the number of vertices (variables).
func (g *IndependenceGraph) Len() int { return len(g.adj) }

// Adjacent reports whether variables i and j appear together in a marginal.
func (g *IndependenceGraph) Adjacent(i, j int) bool { return g.adj[i].has(j) }

// Neighbors lists the neighbours of variable i, increasing.
func (g *IndependenceGraph) Neighbors(i int) []int { return g.adj[i].members() }

// Covered reports whether variable i appears in some released marginal.
func (g *IndependenceGraph) Covered(i int) bool { return g.covered.has(i) }

// Edges lists the edges {i, j}, i < j, in lexicographic order.
func (g *IndependenceGraph) Edges() [][2]int {
	var out [][2]int
	for i, a := range g.adj {
		for _, j := range a.members() {
			if j > i {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

// String lists the edges as "A-B A-C", then isolated vertices by name.
func (g *IndependenceGraph) String() string {
	var parts []string
	for _, e := range g.Edges() {
		parts = append(parts, g.vars[e[0]].Name+"-"+g.vars[e[1]].Name)
	}
	for i, a := range g.adj {
		if a == 0 {
			parts = append(parts, g.vars[i].Name)
		}
	}
	return strings.Join(parts, " ")
}

func (g *IndependenceGraph) all() varSet {
	if len(g.adj) == 64 {
		return ^varSet(0)
	}
	return bit(len(g.adj)) - 1
}

// isClique reports whether s is complete in the graph adj.
func isClique(adj []varSet, s varSet) bool {
	for t := uint64(s); t != 0; t &= t - 1 {
		i := bits.TrailingZeros64(t)
		if !(s &^ bit(i)).subsetOf(adj[i]) {
			return false
		}
	}
	return true
}

// components returns the connected components of the subgraph of adj
// induced by w, each as a set, ordered by their smallest vertex. Bit-set
// breadth-first search: topo.ConnectedComponents on the gonum graph took
// 75-210x as long (BenchmarkMaximalCliques), and Decompose would need a new
// induced gonum subgraph for every candidate separator it tries.
func components(adj []varSet, w varSet) []varSet {
	var out []varSet
	for rest := w; rest != 0; {
		comp := bit(rest.lowest())
		frontier := comp
		for frontier != 0 {
			var next varSet
			for t := uint64(frontier); t != 0; t &= t - 1 {
				next |= adj[bits.TrailingZeros64(t)]
			}
			next &= w &^ comp
			comp |= next
			frontier = next
		}
		out = append(out, comp)
		rest &^= comp
	}
	return out
}

// neighborhood is the set of vertices of w adjacent to some vertex of d,
// outside d.
func neighborhood(adj []varSet, d, w varSet) varSet {
	var n varSet
	for t := uint64(d); t != 0; t &= t - 1 {
		n |= adj[bits.TrailingZeros64(t)]
	}
	return n & w &^ d
}
