package hungarian

import (
	"fmt"
	"math"
)

// Sparse is an n×n assignment problem on a sparse bipartite graph in
// compressed-row form: the edges of row i are Cols[Start[i]:Start[i+1]]
// with costs Cost[Start[i]:Start[i+1]]. Missing edges are forbidden. A row
// may not list a column twice.
type Sparse struct {
	N     int
	Start []int     // len N+1, Start[0] = 0, non-decreasing, Start[N] = len(Cols)
	Cols  []int32   // column of each edge
	Cost  []float64 // cost of each edge (finite)
	// Stop, when not nil, is called before every augmenting path search;
	// when it reports true SolveSparse returns an error wrapping
	// ErrStopped.
	Stop func() bool
}

// SolveSparse finds a minimum-cost perfect matching of the sparse problem
// p by the same shortest-augmenting-path method as Solve (column
// reduction, then one Dijkstra search per free row in reduced costs with
// the Jonker-Volgenant potential update), the searches running over the
// edges of the graph with a binary heap of columns instead of a scan of
// all n columns: a search costs O(m log n) in the worst case (m edges)
// and usually touches a few rows near its start, so large sparse problems
// (n in the tens of thousands, tens of edges per row) solve in about the
// time of reading the graph. The result is an optimum of the sparse
// problem: equal to Solve's optimum on the dense matrix with the missing
// entries +Inf. assign[i] = column of row i; total = the sum of the
// chosen costs. Errors: malformed input (ErrInput: lengths, a column out
// of range or repeated in a row, a cost that is NaN or infinite) and no
// perfect matching in the graph (ErrInfeasible, naming the row whose
// search found no free column or a column without edges).
func SolveSparse(p *Sparse) (assign []int, total float64, err error) {
	if p == nil {
		return nil, 0, fmt.Errorf("%w: nil problem", ErrInput)
	}
	n := p.N
	if n < 0 || len(p.Start) != n+1 || p.Start[0] != 0 || p.Start[n] != len(p.Cols) || len(p.Cost) != len(p.Cols) {
		return nil, 0, fmt.Errorf("%w: n = %d, %d row starts, %d columns, %d costs (want n+1 starts from 0 to the number of edges)",
			ErrInput, n, len(p.Start), len(p.Cols), len(p.Cost))
	}
	if n > math.MaxInt32 {
		return nil, 0, fmt.Errorf("%w: n = %d too large", ErrInput, n)
	}
	inf := math.Inf(1)
	v := make([]float64, n) // column potentials
	argmin := make([]int, n)
	last := make([]int, n) // last row that listed column j (repeat check)
	for j := range v {
		v[j], last[j] = inf, -1
	}
	for i := 0; i < n; i++ {
		if p.Start[i+1] < p.Start[i] || p.Start[i+1] > len(p.Cols) {
			return nil, 0, fmt.Errorf("%w: row %d starts at %d after row %d at %d", ErrInput, i+1, p.Start[i+1], i, p.Start[i])
		}
		for e := p.Start[i]; e < p.Start[i+1]; e++ {
			j, c := int(p.Cols[e]), p.Cost[e]
			if j < 0 || j >= n {
				return nil, 0, fmt.Errorf("%w: row %d has column %d outside 0..%d", ErrInput, i, j, n-1)
			}
			if last[j] == i {
				return nil, 0, fmt.Errorf("%w: row %d lists column %d twice", ErrInput, i, j)
			}
			last[j] = i
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return nil, 0, fmt.Errorf("%w: edge (row %d, column %d) has cost %v", ErrInput, i, j, c)
			}
			if c < v[j] {
				v[j], argmin[j] = c, i
			}
		}
	}
	if n == 0 {
		return []int{}, 0, nil
	}
	col4row, row4col := make([]int, n), make([]int, n)
	for k := range col4row {
		col4row[k], row4col[k] = -1, -1
	}
	// Column reduction, as in Solve: reduced costs c_ij − v_j ≥ 0 with
	// u = 0, and a column takes its cheapest row when that row is free.
	for j, vj := range v {
		if vj == inf {
			return nil, 0, fmt.Errorf("%w: column %d has no edge", ErrInfeasible, j)
		}
		if i := argmin[j]; col4row[i] < 0 {
			col4row[i], row4col[j] = j, i
		}
	}
	s := &sparseSearch{p: p, u: make([]float64, n), v: v, col4row: col4row, row4col: row4col,
		dist: make([]float64, n), path: make([]int32, n), done: make([]bool, n)}
	for j := range s.dist {
		s.dist[j] = inf
	}
	for cur := 0; cur < n; cur++ {
		if col4row[cur] >= 0 {
			continue
		}
		if p.Stop != nil && p.Stop() {
			return nil, 0, fmt.Errorf("%w before row %d of %d", ErrStopped, cur, n)
		}
		if !s.augment(cur) {
			return nil, 0, fmt.Errorf("%w: row %d has no augmenting path in the graph (Hall's condition fails)", ErrInfeasible, cur)
		}
	}
	for i, j := range col4row {
		for e := p.Start[i]; e < p.Start[i+1]; e++ {
			if int(p.Cols[e]) == j {
				total += p.Cost[e]
				break
			}
		}
	}
	return col4row, total, nil
}

// sparseSearch is the state of SolveSparse's searches.
type sparseSearch struct {
	p                *Sparse
	u, v             []float64
	col4row, row4col []int
	dist             []float64 // tentative reduced distance of column j (+Inf = not reached)
	path             []int32   // row from which column j was reached
	done             []bool    // column settled in this search
	touched          []int32   // columns with a finite dist (reset after the search)
	settled          []int32   // settled columns, in order
	heap             []heapItem
}

// heapItem is a column in the search heap: dist, then free columns first,
// then lowest column (deterministic ties).
type heapItem struct {
	d    float64
	busy bool // matched column
	j    int32
}

func (a heapItem) less(b heapItem) bool {
	if a.d != b.d {
		return a.d < b.d
	}
	if a.busy != b.busy {
		return !a.busy
	}
	return a.j < b.j
}

func (s *sparseSearch) push(it heapItem) {
	h := append(s.heap, it)
	for x := len(h) - 1; x > 0; {
		parent := (x - 1) / 2
		if !h[x].less(h[parent]) {
			break
		}
		h[x], h[parent] = h[parent], h[x]
		x = parent
	}
	s.heap = h
}

func (s *sparseSearch) pop() heapItem {
	h := s.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for x := 0; ; {
		l, r, m := 2*x+1, 2*x+2, x
		if l < len(h) && h[l].less(h[m]) {
			m = l
		}
		if r < len(h) && h[r].less(h[m]) {
			m = r
		}
		if m == x {
			break
		}
		h[x], h[m] = h[m], h[x]
		x = m
	}
	s.heap = h
	return top
}

// augment grows a shortest path tree from the free row cur over the edges
// until a free column is settled, updates the potentials and flips the
// matching along the path; false when no free column is reachable.
func (s *sparseSearch) augment(cur int) bool {
	p, u, v, dist := s.p, s.u, s.v, s.dist
	inf := math.Inf(1)
	s.heap, s.touched, s.settled = s.heap[:0], s.touched[:0], s.settled[:0]
	defer func() {
		for _, j := range s.touched {
			dist[j], s.done[j] = inf, false
		}
	}()
	scan := func(i int, base float64) {
		for e := p.Start[i]; e < p.Start[i+1]; e++ {
			j := p.Cols[e]
			if s.done[j] {
				continue
			}
			if d := base + p.Cost[e] - u[i] - v[j]; d < dist[j] {
				if dist[j] == inf {
					s.touched = append(s.touched, j)
				}
				dist[j], s.path[j] = d, int32(i)
				s.push(heapItem{d, s.row4col[j] >= 0, j})
			}
		}
	}
	scan(cur, 0)
	sink := -1
	var D float64
	for len(s.heap) > 0 {
		it := s.pop()
		j := it.j
		if s.done[j] || it.d > dist[j] {
			continue // stale entry
		}
		s.done[j] = true
		s.settled = append(s.settled, j)
		if s.row4col[j] < 0 {
			sink, D = int(j), it.d
			break
		}
		scan(s.row4col[j], it.d) // the matched edge is tight: same distance
	}
	if sink < 0 {
		return false
	}
	// Potentials (as in Solve): settled columns v_j −= D − dist_j, the
	// rows reached through them u_i += D − dist_j, the start row u += D.
	u[cur] += D
	for _, j := range s.settled {
		if int(j) == sink {
			continue
		}
		delta := D - dist[j]
		v[j] -= delta
		u[s.row4col[j]] += delta
	}
	for j := sink; ; {
		r := int(s.path[j])
		s.row4col[j] = r
		s.col4row[r], j = j, s.col4row[r]
		if r == cur {
			break
		}
	}
	return true
}
