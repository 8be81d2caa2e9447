package frechet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// randomChordal returns the adjacency of a random chordal graph on k
// vertices (k <= MaxVars): vertex v is joined to a random subset S of the
// clique {u} ∪ (neighbours of u before u) of a random earlier vertex u (S
// empty one time in eight, starting a new component). Every S is complete,
// so deleting the vertices from the last one down deletes a simplicial
// vertex each time: the graph is chordal (Dirac 1961).
func randomChordal(rng *rand.Rand, k int) []varSet {
	adj := make([]varSet, k)
	for v := 1; v < k; v++ {
		if rng.IntN(8) == 0 {
			continue
		}
		u := rng.IntN(v)
		cl := adj[u]&(bit(u)-1) | bit(u)
		s := bit(u)
		for _, w := range cl.members() {
			if rng.IntN(2) == 0 {
				s |= bit(w)
			}
		}
		adj[v] = s
		for _, w := range s.members() {
			adj[w] |= bit(v)
		}
	}
	return adj
}

// gonumGraph is adj as a gonum undirected graph, node IDs = positions.
func gonumGraph(adj []varSet) *simple.UndirectedGraph {
	g := simple.NewUndirectedGraph()
	for v := range adj {
		g.AddNode(simple.Node(v))
	}
	for v, a := range adj {
		for _, w := range a.members() {
			if w > v {
				g.SetEdge(g.NewEdge(simple.Node(v), simple.Node(w)))
			}
		}
	}
	return g
}

func nodeSets(nodes [][]graph.Node) []varSet {
	out := make([]varSet, len(nodes))
	for i, c := range nodes {
		for _, n := range c {
			out[i] |= bit(int(n.ID()))
		}
	}
	slices.Sort(out)
	return out
}

// TestJunctionTreeCliquesBronKerbosch checks the maximal cliques of the
// junction tree against gonum's topo.BronKerbosch, and components against
// topo.ConnectedComponents, on seeded random chordal graphs.
func TestJunctionTreeCliquesBronKerbosch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 500 {
		k := 1 + rng.IntN(24)
		adj := randomChordal(rng, k)
		all := bit(k) - 1
		cl, _, _, ok := junctionTree(adj, all)
		if !ok {
			t.Fatalf("trial %d: random chordal graph %v reported not chordal", trial, adj)
		}
		got := slices.Clone(cl)
		slices.Sort(got)
		g := gonumGraph(adj)
		if want := nodeSets(topo.BronKerbosch(g)); !slices.Equal(got, want) {
			t.Fatalf("trial %d: cliques %b, BronKerbosch %b", trial, got, want)
		}
		comps := components(adj, all)
		slices.Sort(comps)
		if want := nodeSets(topo.ConnectedComponents(g)); !slices.Equal(comps, want) {
			t.Fatalf("trial %d: components %b, ConnectedComponents %b", trial, comps, want)
		}
	}
}

// BenchmarkMaximalCliques compares the graph code of this package, on bit
// sets, with gonum's graph/topo on random chordal graphs of 6, 16 and 64
// vertices: junctionTree (chordality test, maximal cliques and their
// perfect sequence) with topo.BronKerbosch (maximal cliques only), with
// and without building the gonum graph, and components with
// topo.ConnectedComponents.
func BenchmarkMaximalCliques(b *testing.B) {
	for _, k := range []int{6, 16, 64} {
		adj := randomChordal(rand.New(rand.NewPCG(uint64(k), 1)), k)
		all := (&IndependenceGraph{adj: adj}).all()
		g := gonumGraph(adj)
		b.Run(fmt.Sprintf("junctionTree/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				junctionTree(adj, all)
			}
		})
		b.Run(fmt.Sprintf("topo.BronKerbosch/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				topo.BronKerbosch(g)
			}
		})
		b.Run(fmt.Sprintf("components/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				components(adj, all)
			}
		})
		b.Run(fmt.Sprintf("topo.ConnectedComponents/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				topo.ConnectedComponents(g)
			}
		})
	}
}
