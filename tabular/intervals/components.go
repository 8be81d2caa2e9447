package intervals

import (
	"slices"

	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// component is an independent block of the attacker problem: variables
// (indices of suppressed cells, increasing) and the rows over them
// (increasing). No row has variables in two components, so the polytope
// is the product of the components' polytopes and min/max x_j only
// depends on the component of j.
type component struct {
	vars []int
	rows []int
}

// components splits the attacker problem into connected components of
// the graph whose nodes are the suppressed cells and whose edges join
// cells that share a row (each row's cells are chained, which gives the
// same components as joining every pair). The graph is a
// gonum.org/v1/gonum/graph/simple.UndirectedGraph and the components
// come from topo.ConnectedComponents, as DESIGN.md asks of graph code.
// Components are ordered by their smallest variable, so the result does
// not depend on map order; whole returns one component of everything.
// Cells determined by presolve (a.fix) and rows without an undetermined
// cell are left out.
func (a *attacker) components(whole bool) []component {
	n := len(a.cells)
	open := func(j int) bool { return a.fix == nil || !a.fix.is[j] }
	live := func(i int) bool { return a.fix == nil || a.fix.live[i] }
	if whole {
		var c component
		for j := 0; j < n; j++ {
			if open(j) {
				c.vars = append(c.vars, j)
			}
		}
		for i := range a.rows {
			if live(i) {
				c.rows = append(c.rows, i)
			}
		}
		if len(c.vars) == 0 {
			return nil
		}
		return []component{c}
	}
	g := simple.NewUndirectedGraph()
	for j := 0; j < n; j++ {
		if open(j) {
			g.AddNode(simple.Node(j))
		}
	}
	for i, row := range a.rows {
		if !live(i) {
			continue
		}
		u := -1
		for _, e := range row {
			if !open(e.v) {
				continue
			}
			if u >= 0 && u != e.v && !g.HasEdgeBetween(int64(u), int64(e.v)) {
				g.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(e.v)})
			}
			u = e.v
		}
	}
	cc := topo.ConnectedComponents(g)
	comp := make([]int, n) // component of each variable
	out := make([]component, len(cc))
	for k, nodes := range cc {
		vars := make([]int, len(nodes))
		for i, nd := range nodes {
			vars[i] = int(nd.ID())
		}
		slices.Sort(vars)
		out[k].vars = vars
	}
	slices.SortFunc(out, func(x, y component) int { return x.vars[0] - y.vars[0] })
	for k := range out {
		for _, v := range out[k].vars {
			comp[v] = k
		}
	}
	for i, row := range a.rows {
		if !live(i) {
			continue
		}
		for _, e := range row {
			if open(e.v) {
				out[comp[e.v]].rows = append(out[comp[e.v]].rows, i)
				break
			}
		}
	}
	return out
}
