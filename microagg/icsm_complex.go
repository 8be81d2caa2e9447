package microagg

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// scores returns Score(G_p) of Equation 7 for every group: the weights of
// all edges of H leaving the records of G_p minus those entering them.
// Summed over the records y of a group q, R1(x, G_q, y) has the closed
// form S1(x, q) = (m_q - 1)·a(x, q) - SSE_q·(1 + 1/m_q), so
//
//	Score(p) = Σ_{x∈p} Σ_{q≠p} S1(x, q) - Σ_{y∉p} S1(y, p),
//
// O(n·c·d) instead of O(n²·d).
func (s *icsmState) scores() []float64 {
	ng := s.numGroups()
	workers := max(1, s.workers)
	outs := make([][]float64, workers)
	ins := make([][]float64, workers)
	var wg sync.WaitGroup
	chunk := (s.n + workers - 1) / workers
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, in := make([]float64, ng), make([]float64, ng)
			for i := w * chunk; i < min(s.n, (w+1)*chunk); i++ {
				x := s.row(int32(i))
				p := s.slot[i]
				for q := range ng {
					if int32(q) == p {
						continue
					}
					mq := float64(s.size(q))
					v := (mq-1)*sqDist(x, s.centroid(q)) - s.gsse[q]*(1+1/mq)
					out[p] += v
					in[q] += v
				}
			}
			outs[w], ins[w] = out, in
		}()
	}
	wg.Wait()
	score := make([]float64, ng)
	for w := range workers {
		for p := range ng {
			score[p] += outs[w][p] - ins[w][p]
		}
	}
	return score
}

// cycleSearch is the scratch of one ComplexHeuristic search.
type cycleSearch struct {
	s       *icsmState
	src     int       // source group G_s
	nsrc    int       // stride of dist and pred: 2k (sources: the records of G_s, then the node G_s at nodeSrc)
	nodeSrc int       // source index of the node G_s (= |G_s|)
	rank    []int     // group -> rank
	order   []int     // rank -> group
	dist    []float64 // (n+c) x nsrc: shortest distance from each source
	pred    []int32   // (n+c) x nsrc: predecessor node (-1 at a source)
	bestCl  []float64 // nsrc: least distance to a cluster node of lower rank so far
	bestClN []int32   // nsrc: that node
	workers int
}

// Node numbering: records 0..n-1, the node of group p is n+p.

// complexHeuristic is Algorithm 4: build H' from the group G_s with the
// least Score (ranks by distance of the centroids from G_s's, edges only
// from lower to higher rank, weights of Equation 8), find the shortest
// paths from the records of G_s and the node G_s to every node (H' is a
// DAG, so one pass in rank order), close each path with the edge back to
// its source, and apply the most negative cycle. Every group appears at
// most once on such a cycle, so its weight is the exact SSE change. When
// G_s yields no negative cycle, the next groups by Score are tried, up to
// sources groups (sources < 0: all). It returns the cycle length (edges)
// and the SSE change, 0 and 0 when nothing was applied, and ok = false
// when stop fired.
func (s *icsmState) complexHeuristic(sources int, stop func() bool) (length int, delta float64, ok bool) {
	ng := s.numGroups()
	if ng < 2 {
		return 0, 0, true
	}
	score := s.scores()
	byScore := make([]int, ng)
	for p := range byScore {
		byScore[p] = p
	}
	slices.SortStableFunc(byScore, func(a, b int) int { return cmp.Compare(score[a], score[b]) })
	if sources < 0 || sources > ng {
		sources = ng
	}
	for _, gs := range byScore[:sources] {
		if stop() {
			return 0, 0, false
		}
		cs := s.newCycleSearch(gs)
		cost, src, end := cs.run()
		if cost < -icsmTol {
			return cs.apply(src, end)
		}
	}
	return 0, 0, true
}

// apply applies the cycle from source j to end and returns its length in
// edges, the SSE change and ok = true.
func (cs *cycleSearch) apply(j int, end int32) (int, float64, bool) {
	moved, to := cs.cycle(j, end)
	length := len(moved) + cs.clusterNodes(j, end)
	cs.release()
	return length, cs.s.reassign(moved, to), true
}

// sweepState remembers, per group version, the version counter at which
// a neighbourhood search from it last found nothing: the search needs to
// run again only when a group of its neighbourhood changed since.
type sweepState struct {
	quiet map[uint64]uint64
}

// neighbourhoodSweep extends ComplexHeuristic beyond the paper: from every
// group G_p in turn it searches negative cycles as Algorithm 4 does, on
// the subgraph of H' spanned by the hood groups nearest to G_p (by
// centroid distance, G_p included), and applies each cycle found at once.
// Restricting H' keeps a search at O((hood·2k)²·d), so every group can be
// a source; the paper's single source (the least Score) is kept by
// complexHeuristic. It returns the cycles applied, the longest, the SSE
// change, and ok = false when stop fired.
func (s *icsmState) neighbourhoodSweep(hood int, sw *sweepState, check func(float64, float64) error, stop func() bool) (cycles, longest int, delta float64, ok bool, err error) {
	ng := s.numGroups()
	if ng < 2 {
		return 0, 0, 0, true, nil
	}
	if sw.quiet == nil {
		sw.quiet = make(map[uint64]uint64)
	}
	hood = min(hood, ng)
	// Sources are searched in batches of sweepBatch on the workers, on the
	// clustering as it is before the batch; the cycles found are then
	// applied in source order, each only if the groups it touches did not
	// change in the meantime (a skipped source is searched again in the
	// next sweep). The batch size is fixed, so the result does not depend
	// on the number of workers.
	const sweepBatch = 2
	type job struct {
		p      int
		order  []int
		cost   float64
		moved  []int32
		to     []int32
		slots  []int32  // touched groups ...
		vers   []uint64 // ... and their versions at search time
		length int
		mark   uint64
	}
	workers := max(1, min(s.workers, sweepBatch))
	searchers := make([]*cycleSearch, workers)
	for w := range searchers {
		searchers[w] = &cycleSearch{s: s}
	}
	dc := make([]float64, ng)
	for p := 0; p < ng; {
		if stop() {
			return cycles, longest, delta, false, nil
		}
		var batch []*job
		for ; p < ng && len(batch) < sweepBatch; p++ {
			order := s.hoodOf(p, hood, dc)
			if q, seen := sw.quiet[s.ver[p]]; seen {
				changed := false
				for _, g := range order {
					changed = changed || s.ver[g] > q
				}
				if !changed {
					continue
				}
			}
			batch = append(batch, &job{p: p, order: order, mark: s.nextVer})
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cs := searchers[w]
				for b := w; b < len(batch); b += workers {
					jb := batch[b]
					cs.reset(jb.p, jb.order, 1)
					cost, src, end := cs.run()
					jb.cost = cost
					if cost < -icsmTol {
						jb.moved, jb.to = cs.cycle(src, end)
						jb.length = len(jb.moved) + cs.clusterNodes(src, end)
						for t, x := range jb.moved {
							for _, g := range []int32{s.slot[x], jb.to[t]} {
								if !slices.Contains(jb.slots, g) {
									jb.slots = append(jb.slots, g)
									jb.vers = append(jb.vers, s.ver[g])
								}
							}
						}
					}
					cs.release()
				}
			}()
		}
		wg.Wait()
		for _, jb := range batch {
			if jb.cost >= -icsmTol {
				sw.quiet[s.ver[jb.p]] = jb.mark
				continue
			}
			current := true
			for t, g := range jb.slots {
				current = current && s.ver[g] == jb.vers[t]
			}
			if !current {
				continue
			}
			before := s.sse
			d := s.reassign(jb.moved, jb.to)
			if err := check(d, before); err != nil {
				return cycles, longest, delta, true, err
			}
			cycles++
			longest = max(longest, jb.length)
			delta += d
		}
	}
	return cycles, longest, delta, true, nil
}

// hoodOf returns the hood groups nearest to group p by centroid distance
// (dc is scratch), p first and the others by rank (sortByRank).
func (s *icsmState) hoodOf(p, hood int, dc []float64) []int {
	ng := s.numGroups()
	cp := s.centroid(p)
	for q := range ng {
		dc[q] = sqDist(s.centroid(q), cp)
	}
	dc[p] = -1
	// A max-heap of the hood nearest groups seen so far.
	h := make([]int, 0, hood)
	worse := func(a, b int) bool { return dc[a] > dc[b] || (dc[a] == dc[b] && a > b) }
	for q := range ng {
		if len(h) < hood {
			h = append(h, q)
			for c := len(h) - 1; c > 0; {
				par := (c - 1) / 2
				if !worse(h[c], h[par]) {
					break
				}
				h[c], h[par] = h[par], h[c]
				c = par
			}
			continue
		}
		if !worse(h[0], q) {
			continue
		}
		h[0] = q
		for c := 0; ; {
			l, r, m := 2*c+1, 2*c+2, c
			if l < len(h) && worse(h[l], h[m]) {
				m = l
			}
			if r < len(h) && worse(h[r], h[m]) {
				m = r
			}
			if m == c {
				break
			}
			h[c], h[m] = h[m], h[c]
			c = m
		}
	}
	dc[p] = 0
	sortByRank(h, dc, p)
	return h
}

func (s *icsmState) newCycleSearch(gs int) *cycleSearch {
	ng := s.numGroups()
	dc := make([]float64, ng)
	order := make([]int, ng)
	for p := range ng {
		dc[p] = sqDist(s.centroid(p), s.centroid(gs))
		order[p] = p
	}
	sortByRank(order, dc, gs)
	cs := &cycleSearch{s: s}
	cs.reset(gs, order, s.workers)
	return cs
}

// sortByRank orders groups by the distance of their centroid to G_s's
// (dc), G_s first; ties by group number.
func sortByRank(order []int, dc []float64, gs int) {
	slices.SortStableFunc(order, func(a, b int) int {
		if a == gs {
			return -1
		}
		if b == gs {
			return 1
		}
		if c := cmp.Compare(dc[a], dc[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}

// reset prepares a search from group gs over the groups of order (gs
// first, then by rank); groups not in order are not part of H'. The
// distance arrays are reused between searches: only the entries of the
// previous search's nodes are cleared.
func (cs *cycleSearch) reset(gs int, order []int, workers int) {
	s := cs.s
	ng := s.numGroups()
	ns := max(2*s.k, s.size(gs)+1)
	nodes := s.n + ng
	if len(cs.rank) != ng || len(cs.dist) != nodes*ns {
		cs.rank = make([]int, ng)
		for p := range cs.rank {
			cs.rank[p] = -1
		}
		cs.dist = make([]float64, nodes*ns)
		cs.pred = make([]int32, nodes*ns)
		for i := range cs.dist {
			cs.dist[i] = math.Inf(1)
			cs.pred[i] = -1
		}
	} else {
		cs.release()
	}
	cs.src, cs.nsrc, cs.nodeSrc, cs.order, cs.workers = gs, ns, s.size(gs), order, max(1, workers)
	for r, p := range order {
		cs.rank[p] = r
	}
	for j, x := range s.members[gs] {
		cs.dist[int(x)*ns+j] = 0
	}
	cs.dist[(s.n+gs)*ns+cs.nodeSrc] = 0
	cs.bestCl = make([]float64, ns)
	cs.bestClN = make([]int32, ns)
	for j := range cs.bestCl {
		cs.bestCl[j] = math.Inf(1)
		cs.bestClN[j] = -1
	}
}

func (cs *cycleSearch) clearNode(v, ns int) {
	for j := range ns {
		cs.dist[v*ns+j] = math.Inf(1)
		cs.pred[v*ns+j] = -1
	}
}

// release clears the entries of the last search (before the clustering
// changes, since reset finds them through the members of the groups).
func (cs *cycleSearch) release() {
	s := cs.s
	for _, q := range cs.order {
		cs.rank[q] = -1
		cs.clearNode(s.n+q, cs.nsrc)
		for _, y := range s.members[q] {
			cs.clearNode(int(y), cs.nsrc)
		}
	}
	cs.order = nil
}

// run computes the shortest distances level by level and returns the
// least cycle cost with its source index and end node.
func (cs *cycleSearch) run() (best float64, bsrc int, bend int32) {
	s := cs.s
	ns := cs.nsrc
	act := cs.nodeSrc + 1          // active sources
	lower := make([]int32, 0, s.n) // records of lower ranks reached from some source
	workers := cs.workers
	type part struct {
		d    []float64 // (m_q+1) x ns
		from []int32
	}
	parts := make([]part, workers)
	for r, q := range cs.order {
		if r > 0 {
			mq := s.members[q]
			cq := s.centroid(q)
			invq := 1 / float64(len(mq))
			m1 := len(mq) + 1
			r3 := make([]float64, len(mq))
			for j, y := range mq {
				r3[j] = s.r3(q, y)
			}
			var wg sync.WaitGroup
			chunk := (len(lower) + workers - 1) / workers
			for w := range workers {
				lo, hi := min(len(lower), w*chunk), min(len(lower), (w+1)*chunk)
				wg.Add(1)
				go func() {
					defer wg.Done()
					pt := &parts[w]
					if cap(pt.d) < m1*ns {
						pt.d, pt.from = make([]float64, m1*ns), make([]int32, m1*ns)
					}
					pt.d, pt.from = pt.d[:m1*ns], pt.from[:m1*ns]
					d, from := pt.d, pt.from
					for i := range d {
						d[i], from[i] = math.Inf(1), -1
					}
					for _, x := range lower[lo:hi] {
						xr := s.row(x)
						dx := cs.dist[int(x)*ns : int(x)*ns+act]
						ax := sqDist(xr, cq)
						// x joins G_q (R2).
						w2 := s.r2(q, ax)
						if !math.IsInf(w2, 1) {
							dn := d[len(mq)*ns:]
							for j, v := range dx {
								if c := v + w2; c < dn[j] {
									dn[j], from[len(mq)*ns+j] = c, x
								}
							}
						}
						// x replaces y in G_q (R1).
						for t, y := range mq {
							w1 := ax - s.b[y] - sqDist(xr, s.row(y))*invq
							dy := d[t*ns:]
							for j, v := range dx {
								if c := v + w1; c < dy[j] {
									dy[j], from[t*ns+j] = c, x
								}
							}
						}
					}
				}()
			}
			wg.Wait()
			// Reduce the workers' parts (in chunk order: ties go to the
			// lower chunk) and add the edges from cluster nodes (R3).
			for t := range m1 {
				var node int
				if t < len(mq) {
					node = int(mq[t])
				} else {
					node = s.n + q
				}
				dn := cs.dist[node*ns : node*ns+ns]
				pn := cs.pred[node*ns : node*ns+ns]
				for w := range workers {
					for j := range act {
						if c := parts[w].d[t*ns+j]; c < dn[j] {
							dn[j], pn[j] = c, parts[w].from[t*ns+j]
						}
					}
				}
				if t < len(mq) && !math.IsInf(r3[t], 1) {
					for j := range act {
						if c := cs.bestCl[j] + r3[t]; c < dn[j] {
							dn[j], pn[j] = c, cs.bestClN[j]
						}
					}
				}
			}
		}
		// The level is final: extend the lower sets.
		for _, y := range s.members[q] {
			if reachable(cs.dist[int(y)*ns : int(y)*ns+ns]) {
				lower = append(lower, y)
			}
		}
		dn := cs.dist[(s.n+q)*ns : (s.n+q)*ns+ns]
		for j, v := range dn {
			if v < cs.bestCl[j] {
				cs.bestCl[j], cs.bestClN[j] = v, int32(s.n+q)
			}
		}
	}
	return cs.close()
}

func reachable(d []float64) bool {
	for _, v := range d {
		if !math.IsInf(v, 1) {
			return true
		}
	}
	return false
}

// close adds the edge back to the source to every path and returns the
// least cycle.
func (cs *cycleSearch) close() (best float64, bsrc int, bend int32) {
	s := cs.s
	ns := cs.nsrc
	gs := cs.src
	ms := s.members[gs]
	cgs := s.centroid(gs)
	invs := 1 / float64(len(ms))
	best, bsrc, bend = math.Inf(1), -1, -1
	consider := func(c float64, j int, v int32) {
		if c < best {
			best, bsrc, bend = c, j, v
		}
	}
	for r := 1; r < len(cs.order); r++ {
		q := cs.order[r]
		for _, y := range s.members[q] {
			dy := cs.dist[int(y)*ns : int(y)*ns+ns]
			yr := s.row(y)
			ay := sqDist(yr, cgs)
			for j, x := range ms {
				if !math.IsInf(dy[j], 1) {
					// y replaces x in G_s (R1).
					consider(dy[j]+ay-s.b[x]-sqDist(yr, s.row(x))*invs, j, y)
				}
			}
			if j := cs.nodeSrc; !math.IsInf(dy[j], 1) {
				consider(dy[j]+s.r2(gs, ay), j, y) // y joins G_s (R2)
			}
		}
		node := int32(s.n + q)
		dn := cs.dist[int(node)*ns : int(node)*ns+ns]
		for j, x := range ms {
			if !math.IsInf(dn[j], 1) {
				consider(dn[j]+s.r3(gs, x), j, node) // x leaves G_s (R3)
			}
		}
	}
	return best, bsrc, bend
}

// cycle returns the records of the cycle from source j to end and the
// slot each one moves to. A record's new group is given by its outgoing
// edge: to a record (it replaces that record in its group) or to a
// cluster node (it joins that group).
func (cs *cycleSearch) cycle(j int, end int32) (moved, to []int32) {
	s := cs.s
	ns := cs.nsrc
	var srcNode int32
	if j < cs.nodeSrc {
		srcNode = s.members[cs.src][j]
	} else {
		srcNode = int32(s.n + cs.src)
	}
	nodes := []int32{end}
	for v := end; v != srcNode; {
		v = cs.pred[int(v)*ns+j]
		nodes = append(nodes, v)
	}
	slices.Reverse(nodes) // srcNode ... end
	nodes = append(nodes, srcNode)
	target := func(v int32) int32 {
		if int(v) >= s.n {
			return v - int32(s.n)
		}
		return s.slot[v]
	}
	for t := 0; t+1 < len(nodes); t++ {
		if u := nodes[t]; int(u) < s.n {
			moved = append(moved, u)
			to = append(to, target(nodes[t+1]))
		}
	}
	return moved, to
}

// clusterNodes counts the cluster nodes on the cycle (for the reported
// cycle length in edges).
func (cs *cycleSearch) clusterNodes(j int, end int32) int {
	s := cs.s
	ns := cs.nsrc
	c := 0
	v := end
	for v >= 0 {
		if int(v) >= s.n {
			c++
		}
		v = cs.pred[int(v)*ns+j]
	}
	return c
}
