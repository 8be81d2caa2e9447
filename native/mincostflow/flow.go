package mincostflow

import (
	"errors"
	"fmt"
	"math"
)

// ErrInput is wrapped by the errors for malformed input.
var ErrInput = errors.New("mincostflow: malformed input")

// ErrInfeasible is wrapped when no b-regular selection of finite cost exists.
var ErrInfeasible = errors.New("mincostflow: no b-regular selection of finite cost")

// KRegular finds a minimum-cost b-regular bipartite graph: choose for every
// row i exactly b columns j (cost[i*n+j] finite, +Inf = forbidden) such that
// every column is chosen exactly b times, minimizing the sum of chosen
// costs. Successive shortest paths with potentials (Dijkstra). Returns
// chosen[i] = the b columns of row i (ascending) and the sum of their costs.
func KRegular(n, b int, cost []float64) (chosen [][]int32, total float64, err error) {
	if n < 0 {
		return nil, 0, fmt.Errorf("%w: n = %d < 0", ErrInput, n)
	}
	if n > math.MaxInt32 || (n > 0 && n > math.MaxInt/n) {
		return nil, 0, fmt.Errorf("%w: n = %d too large", ErrInput, n)
	}
	if b < 0 || b > n {
		return nil, 0, fmt.Errorf("%w: b = %d not in [0, n = %d]", ErrInput, b, n)
	}
	if len(cost) != n*n {
		return nil, 0, fmt.Errorf("%w: %d costs for n = %d (want %d)", ErrInput, len(cost), n, n*n)
	}
	inf := math.Inf(1)
	rowFinite := make([]int, n)
	colFinite := make([]int, n)
	for i := 0; i < n; i++ {
		row := cost[i*n : (i+1)*n]
		for j, c := range row {
			if math.IsNaN(c) || math.IsInf(c, -1) {
				return nil, 0, fmt.Errorf("%w: cost[%d] (row %d, column %d) = %v", ErrInput, i*n+j, i, j, c)
			}
			if c < inf {
				rowFinite[i]++
				colFinite[j]++
			}
		}
	}
	for i := 0; i < n; i++ {
		if rowFinite[i] < b {
			return nil, 0, fmt.Errorf("%w: row %d has %d finite costs < b = %d", ErrInfeasible, i, rowFinite[i], b)
		}
		if colFinite[i] < b {
			return nil, 0, fmt.Errorf("%w: column %d has %d finite costs < b = %d", ErrInfeasible, i, colFinite[i], b)
		}
	}
	chosen = make([][]int32, n)
	if b == 0 {
		for i := range chosen {
			chosen[i] = []int32{}
		}
		return chosen, 0, nil
	}
	s := newSolver(n, b, cost)
	s.initialize()
	for round := 0; round < b; round++ {
		for i := 0; i < n; i++ {
			if s.rowCnt[i] > round {
				continue
			}
			if !s.augment(i) {
				return nil, 0, fmt.Errorf("%w: row %d cannot get its column number %d (no augmenting path)",
					ErrInfeasible, i, round+1)
			}
		}
	}
	for i := 0; i < n; i++ {
		cols := make([]int32, 0, b)
		for j, on := range s.sel[i*n : (i+1)*n] {
			if on {
				cols = append(cols, int32(j))
				total += cost[i*n+j]
			}
		}
		if len(cols) != b {
			return nil, 0, fmt.Errorf("mincostflow: internal error: row %d has %d columns, want %d", i, len(cols), b)
		}
		chosen[i] = cols
	}
	return chosen, total, nil
}

// solver holds the residual graph (the selection) and the Dijkstra state.
type solver struct {
	n, b    int
	cost    []float64
	sel     []bool  // sel[i*n+j]: edge (i, j) chosen (carries flow)
	colRows []int32 // colRows[j*b : j*b+deg[j]]: the rows that chose column j
	deg     []int   // number of rows that chose column j
	rowCnt  []int   // number of columns row i chose
	pr, pc  []float64

	distR, distC []float64
	doneR        []bool  // row settled in this search
	parR         []int32 // column from which a row was reached (backward edge)
	parC         []int32 // row from which a column was reached (forward edge)
	rem          []int32 // columns not settled yet: rem[:nrem]
	pending      []int32 // rows with a tentative distance, not settled
	settledR     []int32
	settledC     []int32
}

func newSolver(n, b int, cost []float64) *solver {
	inf := math.Inf(1)
	s := &solver{
		n: n, b: b, cost: cost,
		sel:     make([]bool, n*n),
		colRows: make([]int32, n*b),
		deg:     make([]int, n),
		pr:      make([]float64, n),
		pc:      make([]float64, n),
		rowCnt:  make([]int, n),
		distR:   make([]float64, n),
		distC:   make([]float64, n),
		doneR:   make([]bool, n),
		parR:    make([]int32, n),
		parC:    make([]int32, n),
		rem:     make([]int32, n),
	}
	for k := 0; k < n; k++ {
		s.distR[k] = inf
	}
	return s
}

// initialize chooses a start that is of minimum cost for its own supplies
// (a column reduction, generalizing the Hungarian one): with pr = 0, column
// j takes its cheapest rows in ascending order (c, then i) while those rows
// have fewer than b columns, at most b of them, stopping at the first row
// that is full; pc_j is the cost of the cheapest entry of column j not
// taken (or of the last taken when every finite entry is taken). Then every
// forward reduced cost c_ij − pc_j is ≥ 0 and every backward one
// pc_j − c_ij ≥ 0, which is all that the searches need.
func (s *solver) initialize() {
	n, b := s.n, s.b
	inf := math.Inf(1)
	// The b+1 cheapest entries of every column, by one row-wise pass.
	w := b + 1
	topC := make([]float64, n*w)
	topR := make([]int32, n*w)
	topN := make([]int, n)
	for k := range topC {
		topC[k] = inf
	}
	for i := 0; i < n; i++ {
		for j, c := range s.cost[i*n : (i+1)*n] {
			if c >= topC[j*w+w-1] {
				continue // also skips +Inf
			}
			tc, tr := topC[j*w:j*w+w], topR[j*w:j*w+w]
			k := min(topN[j], w-1)
			for k > 0 && tc[k-1] > c {
				tc[k], tr[k] = tc[k-1], tr[k-1]
				k--
			}
			tc[k], tr[k] = c, int32(i)
			if topN[j] < w {
				topN[j]++
			}
		}
	}
	for j := 0; j < n; j++ {
		tc, tr := topC[j*w:j*w+topN[j]], topR[j*w:j*w+topN[j]]
		t := 0
		for t < len(tc) && t < b && s.rowCnt[tr[t]] < b {
			i := int(tr[t])
			s.sel[i*n+j] = true
			s.colRows[j*b+s.deg[j]] = int32(i)
			s.deg[j]++
			s.rowCnt[i]++
			t++
		}
		switch {
		case t < len(tc):
			s.pc[j] = tc[t]
		case t > 0:
			s.pc[j] = tc[t-1]
		}
	}
}

// augment sends one unit from row src to the nearest column with spare
// capacity along a shortest residual path; false if none is reachable.
//
// Dijkstra's invariant is kept without a heap: scanning a row relaxes its
// forward edges and finds the smallest tentative column in the same pass;
// rows get tentative distances only from settled columns and wait in a
// short pending list. The next node is the smaller of the two; after a
// full column is settled, a row of its own at the same distance (a tight
// backward edge, the common case) is next without another pass over the
// columns.
func (s *solver) augment(src int) bool {
	if s.rowCnt[src] >= s.b {
		panic("mincostflow: internal error: augment from a full row")
	}
	n, b := s.n, s.b
	inf := math.Inf(1)
	distR, distC := s.distR, s.distC
	pr, pc := s.pr, s.pc
	parC, deg := s.parC, s.deg
	// Reset the previous search.
	for _, r := range s.settledR {
		distR[r] = inf
		s.doneR[r] = false
	}
	for _, r := range s.pending {
		distR[r] = inf
	}
	s.settledR, s.settledC, s.pending = s.settledR[:0], s.settledC[:0], s.pending[:0]
	rem := s.rem
	for j := 0; j < n; j++ {
		distC[j] = inf
		rem[j] = int32(j)
	}
	nrem := n
	distR[src] = 0
	r := src
	end := -1
	for end < 0 {
		// Scan row r (settled): relax its forward edges, find the smallest
		// tentative column.
		s.settledR = append(s.settledR, int32(r))
		s.doneR[r] = true
		base := distR[r] + pr[r]
		row := s.cost[r*n : (r+1)*n]
		selRow := s.sel[r*n : (r+1)*n]
		lowest, index := inf, -1
		r32 := int32(r)
		for k, j := range rem[:nrem] {
			d := distC[j]
			if !selRow[j] {
				if dd := base + row[j] - pc[j]; dd < d {
					d = dd
					distC[j] = d
					parC[j] = r32
				}
			}
			if d < lowest || (d == lowest && deg[j] < b) {
				lowest, index = d, k
			}
		}
		for {
			// The smallest pending row, if not beyond the smallest column.
			pk, pd := -1, inf
			for k, rr := range s.pending {
				if distR[rr] < pd {
					pk, pd = k, distR[rr]
				}
			}
			if pk >= 0 && pd <= lowest {
				r = int(s.pending[pk])
				last := len(s.pending) - 1
				s.pending[pk] = s.pending[last]
				s.pending = s.pending[:last]
				break // scan row r
			}
			if lowest == inf {
				s.rem = rem
				return false // no spare column reachable
			}
			// Settle column j.
			j := rem[index]
			nrem--
			rem[index] = rem[nrem]
			s.settledC = append(s.settledC, j)
			if s.deg[j] < b {
				end = int(j)
				break
			}
			dj := distC[j]
			base := dj + pc[j]
			tight := false
			for _, rr := range s.colRows[int(j)*b : int(j)*b+s.deg[j]] {
				if s.doneR[rr] {
					continue
				}
				d := base - s.cost[int(rr)*n+int(j)] - pr[rr]
				if d <= dj {
					d = dj // tight (or round-off): reduced costs are ≥ 0
					tight = true
				}
				if d < distR[rr] {
					if distR[rr] == inf {
						s.pending = append(s.pending, rr)
					}
					distR[rr] = d
					s.parR[rr] = j
				}
			}
			if tight {
				continue // a pending row at distance dj is next
			}
			// Next smallest column: another pass.
			lowest, index = inf, -1
			for k, jj := range rem[:nrem] {
				if d := distC[jj]; d < lowest || (d == lowest && deg[jj] < b) {
					lowest, index = d, k
				}
			}
		}
	}
	s.rem = rem
	D := distC[end]
	// Potentials: settled nodes gain dist − D (≤ 0); the others keep theirs
	// (the usual π + min(dist, D), shifted by the constant D).
	for _, rr := range s.settledR {
		pr[rr] += distR[rr] - D
	}
	for _, j := range s.settledC {
		pc[j] += distC[j] - D
	}
	// Flip the path: end ← parC[end] (add) ← parR (remove) ← ... ← src.
	s.rowCnt[src]++
	j := end
	for {
		r := int(s.parC[j])
		s.sel[r*n+j] = true
		s.colRows[j*b+s.deg[j]] = int32(r)
		s.deg[j]++
		if r == src {
			break
		}
		jp := int(s.parR[r])
		s.sel[r*n+jp] = false
		s.removeRow(jp, int32(r))
		j = jp
	}
	return true
}

// removeRow deletes row r from the rows of column j.
func (s *solver) removeRow(j int, r int32) {
	rows := s.colRows[j*s.b : j*s.b+s.deg[j]]
	for k, x := range rows {
		if x == r {
			rows[k] = rows[len(rows)-1]
			s.deg[j]--
			return
		}
	}
	panic("mincostflow: internal error: row not in column")
}
