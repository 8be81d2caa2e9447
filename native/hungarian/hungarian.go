package hungarian

import (
	"errors"
	"fmt"
	"math"
)

// ErrInput is wrapped by the errors for malformed input.
var ErrInput = errors.New("hungarian: malformed input")

// ErrInfeasible is wrapped when no perfect matching of finite cost exists.
var ErrInfeasible = errors.New("hungarian: no perfect matching of finite cost")

// ErrStopped is wrapped when the caller's stop function asked the solver
// to give up (SolveStop, Sparse.Stop).
var ErrStopped = errors.New("hungarian: stopped")

// Solve finds a minimum-cost perfect matching of the n×n dense cost matrix
// (row-major, cost[i*n+j]; +Inf = forbidden edge). assign[i] = column of
// row i. Error if no perfect matching of finite cost exists or input is
// malformed (NaN, −Inf, wrong length, n < 0).
func Solve(n int, cost []float64) (assign []int, total float64, err error) {
	return SolveStop(n, cost, nil)
}

// SolveStop is Solve that calls stop (when not nil) before every
// augmenting path search (O(n²) each) and returns an error wrapping
// ErrStopped as soon as it reports true: a caller's deadline is kept
// within one search.
func SolveStop(n int, cost []float64, stop func() bool) (assign []int, total float64, err error) {
	if n < 0 {
		return nil, 0, fmt.Errorf("%w: n = %d < 0", ErrInput, n)
	}
	if n > 0 && n > math.MaxInt/n {
		return nil, 0, fmt.Errorf("%w: n = %d too large", ErrInput, n)
	}
	if len(cost) != n*n {
		return nil, 0, fmt.Errorf("%w: %d costs for n = %d (want %d)", ErrInput, len(cost), n, n*n)
	}
	for k, c := range cost {
		if math.IsNaN(c) || math.IsInf(c, -1) {
			return nil, 0, fmt.Errorf("%w: cost[%d] (row %d, column %d) = %v", ErrInput, k, k/n, k%n, c)
		}
	}
	if n == 0 {
		return []int{}, 0, nil
	}
	inf := math.Inf(1)
	u := make([]float64, n)   // row potentials
	v := make([]float64, n)   // column potentials
	col4row := make([]int, n) // column matched to row i, −1 if free
	row4col := make([]int, n) // row matched to column j, −1 if free
	for k := range col4row {
		col4row[k] = -1
		row4col[k] = -1
	}
	// Column reduction: v_j = min_i c_ij (u = 0 keeps every reduced cost
	// non-negative) and column j takes its cheapest row when that row is
	// still free (a tight edge).
	argmin := make([]int, n)
	for j := range v {
		v[j] = inf
	}
	for i := 0; i < n; i++ {
		for j, c := range cost[i*n : (i+1)*n] {
			if c < v[j] {
				v[j] = c
				argmin[j] = i
			}
		}
	}
	for j, vj := range v {
		if vj == inf {
			return nil, 0, fmt.Errorf("%w: column %d has only forbidden edges", ErrInfeasible, j)
		}
		if i := argmin[j]; col4row[i] < 0 {
			col4row[i] = j
			row4col[j] = i
		}
	}
	sp := &search{
		n: n, cost: cost, u: u, v: v, col4row: col4row, row4col: row4col,
		dist:      make([]float64, n),
		path:      make([]int, n),
		remaining: make([]int, n),
	}
	for cur := 0; cur < n; cur++ {
		if col4row[cur] >= 0 {
			continue
		}
		if stop != nil && stop() {
			return nil, 0, fmt.Errorf("%w before row %d of %d", ErrStopped, cur, n)
		}
		if !sp.augment(cur) {
			return nil, 0, fmt.Errorf("%w: row %d has no augmenting path (Hall's condition fails)", ErrInfeasible, cur)
		}
	}
	assign = col4row
	for i, j := range assign {
		total += cost[i*n+j]
	}
	if math.IsInf(total, 1) {
		// Unreachable: every matched edge was scanned at a finite distance.
		return nil, 0, fmt.Errorf("%w: the optimum uses a forbidden edge", ErrInfeasible)
	}
	return assign, total, nil
}

// search holds the matching, the potentials and the scratch space of the
// shortest augmenting path searches.
type search struct {
	n                int
	cost             []float64
	u, v             []float64
	col4row, row4col []int
	dist             []float64 // shortest reduced distance to column j found so far
	path             []int     // row from which column j was reached
	remaining        []int     // columns not scanned yet (first nrem entries)
	scannedRows      []int
	scannedCols      []int
}

// augment grows a shortest path tree from the free row cur until a free
// column is reached, updates the potentials and flips the matching along
// the path. It returns false when no free column is reachable.
func (s *search) augment(cur int) bool {
	n, cost, u, v := s.n, s.cost, s.u, s.v
	inf := math.Inf(1)
	dist, path, rem := s.dist, s.path, s.remaining
	for j := 0; j < n; j++ {
		dist[j] = inf
		rem[j] = j
	}
	nrem := n
	s.scannedRows = s.scannedRows[:0]
	s.scannedCols = s.scannedCols[:0]
	minVal := 0.0
	i := cur
	sink := -1
	for sink < 0 {
		s.scannedRows = append(s.scannedRows, i)
		row := cost[i*n : (i+1)*n]
		base := minVal - u[i]
		lowest, index := inf, -1
		for k, j := range rem[:nrem] {
			if r := base + row[j] - v[j]; r < dist[j] {
				dist[j] = r
				path[j] = i
			}
			if d := dist[j]; d < lowest || (d == lowest && s.row4col[j] < 0) {
				lowest, index = d, k
			}
		}
		if lowest == inf {
			return false // no free column reachable
		}
		minVal = lowest
		j := rem[index]
		nrem--
		rem[index] = rem[nrem]
		s.scannedCols = append(s.scannedCols, j)
		if s.row4col[j] < 0 {
			sink = j
		} else {
			i = s.row4col[j]
		}
	}
	// Potentials: the tree edges become tight, all reduced costs stay ≥ 0.
	u[cur] += minVal
	for _, r := range s.scannedRows[1:] {
		u[r] += minVal - dist[s.col4row[r]]
	}
	for _, j := range s.scannedCols {
		v[j] -= minVal - dist[j]
	}
	// Flip the matching along the path.
	for j := sink; ; {
		r := path[j]
		s.row4col[j] = r
		s.col4row[r], j = j, s.col4row[r]
		if r == cur {
			break
		}
	}
	return true
}
