package kanon

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/native/hungarian"
)

// Assignment modes of hungarian (Options.Assign).
const (
	AssignAuto   = ""       // sparse for partitions of more than SparseMin records, dense otherwise
	AssignDense  = "dense"  // native/hungarian.Solve on the n x n weight matrix
	AssignSparse = "sparse" // native/hungarian.SolveSparse on the candidate graph
)

// SparseMin is the largest partition that hungarian solves densely in
// AssignAuto mode. Dense rounds cost O(n³) time at worst and 8n² bytes
// (32 MiB at 2,000 records, per worker); on Adult at k = 10 the sparse
// rounds on median partitions of 1,000 came within 0.5% of the dense GCP
// (0.0425 against 0.0423, candidates from full rows), and partitions of
// 5,000 solved sparsely beat dense ones of 1,000 (0.0407 against 0.0423;
// bench/README.md).
const SparseMin = 2000

// DefaultCandidates returns the default candidate list length of the
// sparse hungarian for k (Options.Candidates): each record's 16 + k/2
// lightest unused edges and each published record's as many. Measured on
// Adult (partitions of about 3,350 records): at k = 25, 48 instead of 16
// changed the GCP by 0.5%; at k = 50, 40 instead of 16 cut the rounds that
// needed the greedy repair from 118 to 1 (of 441) at the same GCP.
func DefaultCandidates(k int) int { return 16 + k/2 }

// initSparse prepares st for roundSparse with candidate lists of length
// L, drawn from pools of the M nearest records (all records when M >=
// n-1).
func (st *rounds) initSparse(L, M int) error {
	n := st.n
	st.candL = L
	st.rowBuf = make([]float64, n)
	st.cand = make([][]int32, n)
	st.colD, st.colI = make([][]float64, n), make([][]int32, n)
	if M < n-1 {
		st.pool = st.nearestPool(M)
		if st.pool == nil {
			return errDeadline
		}
	}
	return nil
}

// DefaultPool returns the default pool size of the sparse hungarian for
// k (Options.Pool): the max(400, 8k + 64) records nearest to each record.
// The pool decides the quality: on Adult (partitions of about 3,350
// records) k = 25 gives GCP 0.0809 with pools of 164, 0.0768 with 400 and
// 0.0755 with 800; k = 50 gives 0.1424 with 148, 0.1286 with 264 and
// 0.1166 with 800, at a cost proportional to the pool.
func DefaultPool(k int) int { return max(400, 8*k+64) }

// nearestPool returns for every record i the M records j ≠ i nearest to
// it in QI space, that is of least identity-box weight w(i, j) = NCP sum
// of the box of records i and j (ties: the first scanned, j from i+1 on,
// wrapping). It must be called before the first round (the boxes are the
// records then). O(n²d) time once per partition, O(nM) memory. nil when
// st's deadline passes.
func (st *rounds) nearestPool(M int) [][]int32 {
	n := st.n
	M = min(M, n-1)
	pool := make([][]int32, n)
	row := make([]float64, n)
	hd := make([]float64, 0, M)
	hj := make([]int32, 0, M)
	for i := range n {
		if i&15 == 0 && st.expired() {
			return nil
		}
		st.row(i, row)
		hd, hj = hd[:0], hj[:0]
		for x := 1; x < n; x++ {
			j := i + x
			if j >= n {
				j -= n
			}
			hd, hj = heapOffer(hd, hj, M, row[j], int32(j))
		}
		// Nearest first (ties in scan order, from i+1 on), so that among
		// equal weights the candidates of a round are the nearest records,
		// which differ from record to record even among equal records and
		// so keep the rounds feasible.
		ord := make([]int, len(hj))
		for x := range ord {
			ord[x] = x
		}
		slices.SortStableFunc(ord, func(a, b int) int {
			switch {
			case hd[a] < hd[b]:
				return -1
			case hd[a] > hd[b]:
				return 1
			}
			return (int(hj[a])-i+n)%n - (int(hj[b])-i+n)%n // the scan order: from i+1 on
		})
		p := make([]int32, len(hj))
		for x, o := range ord {
			p[x] = hj[o]
		}
		pool[i] = p
	}
	return pool
}

// candidates sets st.cand to the candidate graph of the round: for every
// original i its L lightest unused edges (S_i, T_j) under the current
// weights w(i, j) (the NCP increase of box_j if S_i joins it), and for
// every published T_j its L lightest unused edges; ties go to the edges
// scanned first (j from i+1 on, wrapping, for a row; i ascending for a
// column). One pass over the n x n weights, row by row (O(n²d) time like a
// greedy round, O(nL) memory). errDeadline when st's deadline passes.
func (st *rounds) candidates(L int) error {
	n := st.n
	L = min(L, n-1)
	row := st.rowBuf
	colD, colI := st.colD, st.colI
	for j := range n {
		colD[j], colI[j] = colD[j][:0], colI[j][:0]
	}
	hd := make([]float64, 0, L)
	hj := make([]int32, 0, L)
	inf := math.Inf(1)
	if st.pool != nil {
		return st.poolCandidates(L)
	}
	for i := range n {
		if i&15 == 0 && st.expired() {
			return errDeadline
		}
		st.row(i, row) // +Inf on used edges
		hd, hj = hd[:0], hj[:0]
		for x := 1; x <= n; x++ {
			j := i + x
			if j >= n {
				j -= n
			}
			w := row[j]
			if w == inf {
				continue
			}
			hd, hj = heapOffer(hd, hj, L, w, int32(j))
			if len(colD[j]) < L || w < colD[j][0] {
				colD[j], colI[j] = heapOffer(colD[j], colI[j], L, w, int32(i))
			}
		}
		st.cand[i] = append(st.cand[i][:0], hj...)
	}
	st.mergeColumns()
	return nil
}

// mergeColumns adds the columns' lists (st.colI) to the rows' (st.cand).
func (st *rounds) mergeColumns() {
	n := st.n
	colI := st.colI
	if st.mark == nil {
		st.mark = make([]int32, n)
	}
	for x := range st.mark {
		st.mark[x] = -1
	}
	byRow := make([][]int32, n)
	for j := range n {
		for _, i := range colI[j] {
			byRow[i] = append(byRow[i], int32(j))
		}
	}
	for i := range n {
		for _, j := range st.cand[i] {
			st.mark[j] = int32(i)
		}
		for _, j := range byRow[i] {
			if st.mark[j] != int32(i) {
				st.mark[j] = int32(i)
				st.cand[i] = append(st.cand[i], j)
			}
		}
	}
}

// poolCandidates is candidates restricted to the pools: the L lightest
// unused edges of original i among T_j, j in pool(i), and the L lightest
// of published T_j among S_i, i in pool(j). O(nMd) time per round.
// errDeadline when st's deadline passes.
func (st *rounds) poolCandidates(L int) error {
	n := st.n
	if st.mark == nil {
		st.mark = make([]int32, n)
	}
	mark := st.mark
	for x := range mark {
		mark[x] = -1
	}
	hd := make([]float64, 0, L)
	hj := make([]int32, 0, L)
	for i := range n {
		if i&63 == 0 && st.expired() {
			return errDeadline
		}
		for _, j := range st.partners[i] {
			mark[j] = int32(i) // (S_i, T_j) used
		}
		hd, hj = hd[:0], hj[:0]
		for _, j := range st.pool[i] {
			if mark[j] != int32(i) {
				hd, hj = heapOffer(hd, hj, L, st.w(i, int(j)), j)
			}
		}
		st.cand[i] = append(st.cand[i][:0], hj...)
	}
	for j := range n {
		if j&63 == 0 && st.expired() {
			return errDeadline
		}
		for _, i := range st.matched[j] {
			mark[i] = int32(j) + int32(n) // (S_i, T_j) used; offset keeps row marks apart
		}
		hd, hj = hd[:0], hj[:0]
		for _, i := range st.pool[j] {
			if mark[i] != int32(j)+int32(n) {
				hd, hj = heapOffer(hd, hj, L, st.w(int(i), j), i)
			}
		}
		st.colI[j] = append(st.colI[j][:0], hj...)
	}
	st.mergeColumns()
	return nil
}

// heapOffer offers (w, j) to the max-heap (hd, hj) of the at most L
// lightest so far.
func heapOffer(hd []float64, hj []int32, L int, w float64, j int32) ([]float64, []int32) {
	if len(hd) == L {
		if L == 0 || w >= hd[0] {
			return hd, hj
		}
		hd[0], hj[0] = w, j
		siftDown(hd, hj, 0)
		return hd, hj
	}
	hd, hj = append(hd, w), append(hj, j)
	for c := len(hd) - 1; c > 0; {
		p := (c - 1) / 2
		if hd[c] <= hd[p] {
			break
		}
		hd[c], hd[p], hj[c], hj[p] = hd[p], hd[c], hj[p], hj[c]
		c = p
	}
	return hd, hj
}

// siftDown restores the max-heap (hd, hj) below position c.
func siftDown(hd []float64, hj []int32, c int) {
	for {
		l, r, m := 2*c+1, 2*c+2, c
		if l < len(hd) && hd[l] > hd[m] {
			m = l
		}
		if r < len(hd) && hd[r] > hd[m] {
			m = r
		}
		if m == c {
			return
		}
		hd[c], hd[m], hj[c], hj[m] = hd[m], hd[c], hj[m], hj[c]
		c = m
	}
}

// roundSparse is one round of hungarian on the candidate graph of the
// round (candidates, st.candL edges per record and per published record)
// with the current weights, solved exactly by
// native/hungarian.SolveSparse (the optimum of the round restricted to
// the candidates). When the candidates admit no perfect matching on
// unused edges, the greedy round (roundGreedy, which always completes)
// supplies one, its edges join the candidate graph for this and later
// rounds, and the sparse problem is solved again (now feasible).
func roundSparse(st *rounds) ([]int32, error) {
	if err := st.candidates(st.candL); err != nil {
		return nil, err
	}
	a, err := solveCandidates(st, st.cand)
	if err == nil || !errors.Is(err, hungarian.ErrInfeasible) {
		return a, err
	}
	g, err := roundGreedy(st)
	if err != nil {
		return nil, err
	}
	for i, j := range g {
		if !slices.Contains(st.cand[i], j) {
			st.cand[i] = append(st.cand[i], j)
		}
	}
	st.repairs++
	return solveCandidates(st, st.cand)
}

// solveCandidates solves the round on the unused edges of cand exactly.
func solveCandidates(st *rounds, cand [][]int32) ([]int32, error) {
	n := st.n
	p := &hungarian.Sparse{N: n, Start: make([]int, n+1)}
	p.Cols, p.Cost = st.spCols[:0], st.spCost[:0]
	for i := range n {
		for _, j := range cand[i] { // unused edges only
			p.Cols = append(p.Cols, j)
			p.Cost = append(p.Cost, st.w(i, int(j)))
		}
		p.Start[i+1] = len(p.Cols)
	}
	st.spCols, st.spCost = p.Cols, p.Cost
	p.Stop = st.stopFunc()
	assign, _, err := hungarian.SolveSparse(p)
	if errors.Is(err, hungarian.ErrStopped) {
		return nil, errDeadline
	}
	if err != nil {
		return nil, fmt.Errorf("sparse assignment: %w", err)
	}
	a := make([]int32, n)
	for i, j := range assign {
		a[i] = int32(j)
	}
	return a, nil
}
