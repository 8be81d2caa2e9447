package kanon

import (
	"fmt"
	"math/rand/v2"

	"github.com/sdcopt/sdcopt/model"
)

// Extract draws a randomized assignment from a k-regular generalization
// graph: the adjacency lists are shuffled with the seed, the graph is
// decomposed into k perfect matchings by peeling one perfect matching at a
// time (Hopcroft-Karp on the remaining graph, which stays regular, so a
// perfect matching exists by König's theorem), and matching number r,
// drawn uniformly from 0..k-1 with the seed, is returned: assign[j] = the
// original published with box j. Only the first r+1 matchings of the
// decomposition are computed (the others cannot change the result). The
// graph need not contain the identity round; it must be k-regular.
func Extract(g *model.GenGraph, k int, seed uint64) ([]int, error) {
	if g == nil {
		return nil, fmt.Errorf("kanon: nil graph")
	}
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d", ErrK, k)
	}
	n := g.N
	if len(g.Matched) != n {
		return nil, fmt.Errorf("kanon: graph has %d published records for n = %d", len(g.Matched), n)
	}
	deg := make([]int, n)
	seen := make([]int, n)
	for i := range seen {
		seen[i] = -1
	}
	rng := rand.New(rand.NewPCG(seed, streamExtract))
	adj := make([][]int32, n)
	for j, m := range g.Matched {
		if len(m) != k {
			return nil, fmt.Errorf("kanon: published record %d has degree %d, want %d", j, len(m), k)
		}
		for _, i := range m {
			if i < 0 || int(i) >= n || seen[i] == j {
				return nil, fmt.Errorf("kanon: published record %d has a bad or repeated original %d", j, i)
			}
			seen[i] = j
			deg[i]++
		}
		adj[j] = append([]int32(nil), m...)
		rng.Shuffle(len(m), func(a, b int) { adj[j][a], adj[j][b] = adj[j][b], adj[j][a] })
	}
	for i, d := range deg {
		if d != k {
			return nil, fmt.Errorf("kanon: original %d has degree %d, want %d", i, d, k)
		}
	}
	pick := rng.IntN(k)
	var m []int32
	for r := 0; r <= pick; r++ {
		m = perfectMatching(adj)
		if m == nil {
			return nil, fmt.Errorf("kanon: internal error: no perfect matching in a regular graph")
		}
		if r < pick {
			for j := range adj {
				for x, i := range adj[j] {
					if i == m[j] {
						adj[j] = append(adj[j][:x], adj[j][x+1:]...)
						break
					}
				}
			}
		}
	}
	out := make([]int, n)
	for j, i := range m {
		out[j] = int(i)
	}
	return out, nil
}

// perfectMatching returns a perfect matching of the bipartite graph
// adj[u] (left u, right vertices in adj[u]; both sides of size len(adj))
// found by Hopcroft-Karp, or nil if there is none. pairU[u] = right mate.
//
// It is hand-written because gonum (v0.17) has no bipartite matching: its
// only flow routine, graph/network.MaxFlowDinic, returns the value of a
// maximum flow but not the flow on the edges, so it cannot name the
// matched pairs.
func perfectMatching(adj [][]int32) []int32 {
	n := len(adj)
	const inf = int32(1 << 30)
	pairU, pairV := make([]int32, n), make([]int32, n)
	for x := range n {
		pairU[x], pairV[x] = -1, -1
	}
	size := 0
	for u, a := range adj { // greedy start
		for _, v := range a {
			if pairV[v] < 0 {
				pairU[u], pairV[v] = v, int32(u)
				size++
				break
			}
		}
	}
	dist := make([]int32, n)
	it := make([]int, n)
	queue := make([]int32, 0, n)
	var distNil int32
	var dfs func(u int32) bool
	dfs = func(u int32) bool {
		for ; it[u] < len(adj[u]); it[u]++ {
			v := adj[u][it[u]]
			w := pairV[v]
			if (w < 0 && dist[u]+1 == distNil) || (w >= 0 && dist[w] == dist[u]+1 && dfs(w)) {
				pairU[u], pairV[v] = v, u
				it[u]++
				return true
			}
		}
		dist[u] = inf
		return false
	}
	for size < n {
		queue = queue[:0]
		for u := range n {
			if pairU[u] < 0 {
				dist[u] = 0
				queue = append(queue, int32(u))
			} else {
				dist[u] = inf
			}
		}
		distNil = inf
		for q := 0; q < len(queue); q++ {
			u := queue[q]
			if dist[u] >= distNil {
				continue
			}
			for _, v := range adj[u] {
				w := pairV[v]
				if w < 0 {
					if distNil == inf {
						distNil = dist[u] + 1
					}
				} else if dist[w] == inf {
					dist[w] = dist[u] + 1
					queue = append(queue, w)
				}
			}
		}
		if distNil == inf {
			return nil
		}
		for u := range n {
			it[u] = 0
		}
		grown := 0
		for u := range n {
			if pairU[u] < 0 && dfs(int32(u)) {
				grown++
			}
		}
		if grown == 0 {
			return nil
		}
		size += grown
	}
	return pairU
}
