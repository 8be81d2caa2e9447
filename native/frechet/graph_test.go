package frechet

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// structure returns a margin set over k binary variables named A, B, ...
// whose marginals are given by spec (e.g. "AB,BC"), with zero counts: enough
// for the graph functions.
func structure(t testing.TB, k int, spec string) *model.MarginSet {
	t.Helper()
	tab := randomTable(rand.New(rand.NewPCG(1, 1)), twos(k), 0)
	ms, err := tab.ReleaseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func twos(k int) []int {
	d := make([]int, k)
	for i := range d {
		d[i] = 2
	}
	return d
}

func TestGraphChordality(t *testing.T) {
	cases := []struct {
		k            int
		spec         string
		graph        string
		chordal      bool
		decomposable bool
		cliques      string // junction tree, when chordal
	}{
		{3, "AB,BC", "A-B B-C", true, true, "[AB] [BC] | separators [B]"},
		// All two-way margins of three variables: the triangle is chordal
		// but its clique [ABC] is not released (no three-way interaction).
		{3, "AB,AC,BC", "A-B A-C B-C", true, false, "[ABC]"},
		{4, "AB,BC,CD,AD", "A-B A-D B-C C-D", false, false, ""},
		{4, "AB,BC,CD,AD,AC", "A-B A-C A-D B-C C-D", true, false, "[ABC] [ACD] | separators [AC]"},
		{4, "ABC,ACD", "A-B A-C A-D B-C C-D", true, true, "[ABC] [ACD] | separators [AC]"},
		// A contained margin and a duplicate are dropped before comparing.
		{4, "ABC,AB,ACD,ACD", "A-B A-C A-D B-C C-D", true, true, "[ABC] [ACD] | separators [AC]"},
		// Two connected components: an empty separator.
		{4, "AB,CD", "A-B C-D", true, true, "[AB] [CD] | separators []"},
		// D in no marginal: an isolated vertex, allowed (doc.go).
		{4, "AB,BC", "A-B B-C D", true, true, "[AB] [BC] [D] | separators [B] []"},
		{5, "AB,BC,CD,DE,EA", "A-B A-E B-C C-D D-E", false, false, ""},
	}
	for _, c := range cases {
		ms := structure(t, c.k, c.spec)
		g, err := Graph(ms)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.String(); got != c.graph {
			t.Errorf("%s: graph %q, want %q", c.spec, got, c.graph)
		}
		if g.Chordal() != c.chordal {
			t.Errorf("%s: chordal %v, want %v", c.spec, !c.chordal, c.chordal)
		}
		if Decomposable(ms) != c.decomposable {
			t.Errorf("%s: decomposable %v, want %v", c.spec, !c.decomposable, c.decomposable)
		}
		jt, ok := g.JunctionTree()
		if ok != c.chordal {
			t.Errorf("%s: junction tree ok=%v", c.spec, ok)
		}
		if ok && jt.String() != c.cliques {
			t.Errorf("%s: junction tree %q, want %q", c.spec, jt, c.cliques)
		}
		_, err = Bounds(ms)
		if c.decomposable != (err == nil) || (err != nil && !errors.Is(err, ErrNotDecomposable)) {
			t.Errorf("%s: Bounds error %v", c.spec, err)
		}
	}
}

// chordalByElimination is the definition-level check: a graph is chordal
// iff repeatedly deleting simplicial vertices empties it (Dirac 1961).
func chordalByElimination(adj []varSet) bool {
	w := bit(len(adj)) - 1
	for w != 0 {
		found := false
		for _, v := range w.members() {
			if isClique(adj, adj[v]&w) {
				w &^= bit(v)
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// TestJunctionTreeProperties checks MCS chordality against elimination and
// the junction tree against its definition on seeded random graphs.
func TestJunctionTreeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	chordal := 0
	for trial := range 3000 {
		k := 2 + rng.IntN(7)
		g := &IndependenceGraph{adj: make([]varSet, k)}
		for i := range k {
			g.vars = append(g.vars, model.Variable{Name: string(rune('A' + i)), Levels: []string{"0"}})
			for j := range i {
				if rng.IntN(100) < 45 {
					g.adj[i] |= bit(j)
					g.adj[j] |= bit(i)
				}
			}
		}
		want := chordalByElimination(g.adj)
		if g.Chordal() != want {
			t.Fatalf("trial %d: graph %s: chordal %v, want %v", trial, g, !want, want)
		}
		jt, ok := g.JunctionTree()
		if ok != want {
			t.Fatalf("trial %d: junction tree ok = %v", trial, ok)
		}
		if !ok {
			continue
		}
		chordal++
		var union varSet
		cl := make([]varSet, len(jt.Cliques))
		for i, c := range jt.Cliques {
			cl[i] = setOf(c)
		}
		for i, c := range cl {
			if !isClique(g.adj, c) {
				t.Fatalf("trial %d: %s: clique %v is not complete", trial, g, jt.Cliques[i])
			}
			for v := range k {
				if !c.has(v) && c.subsetOf(g.adj[v]) {
					t.Fatalf("trial %d: %s: clique %v is not maximal", trial, g, jt.Cliques[i])
				}
			}
			s := setOf(jt.Separators[i])
			if s != c&union {
				t.Fatalf("trial %d: separator %v is not the intersection with the earlier cliques", trial, jt.Separators[i])
			}
			if i > 0 && !s.subsetOf(cl[jt.Parent[i]]) {
				t.Fatalf("trial %d: separator %v not inside parent %v", trial, jt.Separators[i], jt.Cliques[jt.Parent[i]])
			}
			union |= c
		}
		if union != bit(k)-1 {
			t.Fatalf("trial %d: cliques miss vertices", trial)
		}
		for _, e := range g.Edges() {
			in := false
			for _, c := range cl {
				in = in || (c.has(e[0]) && c.has(e[1]))
			}
			if !in {
				t.Fatalf("trial %d: edge %v in no clique", trial, e)
			}
		}
	}
	if chordal < 300 {
		t.Fatalf("only %d chordal graphs drawn", chordal)
	}
}

func TestGraphErrors(t *testing.T) {
	ms := structure(t, 3, "AB")
	ms.Margins = append(ms.Margins, &model.Marginal{Vars: []int{1, 0}, Counts: make([]int64, 4)})
	if _, err := Graph(ms); err == nil {
		t.Error("Graph accepted a marginal with unsorted variables")
	}
	if Decomposable(ms) {
		t.Error("Decomposable accepted a malformed margin set")
	}
	empty := &model.MarginSet{Vars: ms.Vars}
	if _, err := Bounds(empty); !errors.Is(err, ErrNoMargins) {
		t.Errorf("Bounds with no margins: %v", err)
	}
	big := &model.MarginSet{Vars: make([]model.Variable, MaxVars+1)}
	if _, err := Graph(big); !errors.Is(err, ErrTooManyVariables) {
		t.Errorf("Graph with %d variables: %v", MaxVars+1, err)
	}
}
