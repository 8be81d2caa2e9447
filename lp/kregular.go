package lp

import (
	"errors"
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/solvers"
)

// b-regular bipartite selection as a transportation LP.
//
// Given an n×n matrix of costs c_ij (row-major, +Inf = forbidden), choose
// for every row i exactly b columns and every column exactly b times so
// that the sum of the chosen costs is minimal. As an LP, with one column
// x_ij ∈ [0, 1] per finite cost:
//
//	minimize   Σ c_ij x_ij
//	subject to Σ_j x_ij = b   (row i = 0..n-1)
//	           Σ_i x_ij = b   (row n+j, j = 0..n-1)
//
// The constraint matrix is the incidence matrix of a bipartite graph,
// totally unimodular, and the right-hand sides and bounds are integers, so
// every vertex is integral and a simplex engine returns a 0/1 optimum
// (b = 1: the assignment problem). This is the independent cross-check of
// the combinatorial solvers native/hungarian and native/mincostflow.

// ErrNoKRegular is wrapped when no b-regular selection of finite cost
// exists (a row or column with fewer than b finite costs, a violated Hall
// condition, or an engine reporting infeasibility).
var ErrNoKRegular = errors.New("lp: no b-regular selection of finite cost")

// ErrFractional is wrapped when an engine returns an optimal point that is
// not 0/1 (beyond 1e-6): impossible at a vertex, possible for an interior
// point method without crossover.
var ErrFractional = errors.New("lp: fractional solution of the b-regular LP")

// fracTol is the distance from 0 or 1 beyond which a value is fractional.
const fracTol = 1e-6

// checkKRegular validates the input of the b-regular selection.
func checkKRegular(n, b int, cost []float64) error {
	if n < 0 {
		return fmt.Errorf("lp: b-regular selection: n = %d < 0", n)
	}
	if b < 0 || b > n {
		return fmt.Errorf("lp: b-regular selection: b = %d not in [0, n = %d]", b, n)
	}
	if n > 0 && n > math.MaxInt/n {
		return fmt.Errorf("lp: b-regular selection: n = %d too large", n)
	}
	if len(cost) != n*n {
		return fmt.Errorf("lp: b-regular selection: %d costs for n = %d (want %d)", len(cost), n, n*n)
	}
	for k, c := range cost {
		if math.IsNaN(c) || math.IsInf(c, -1) {
			return fmt.Errorf("lp: b-regular selection: cost[%d] (row %d, column %d) = %v", k, k/n, k%n, c)
		}
	}
	return nil
}

// KRegularProblem returns the transportation LP of the b-regular bipartite
// selection: one continuous column x_ij ∈ [0, 1] per finite cost[i*n+j]
// (ordered by i, then j; named "x_i_j"), rows 0..n-1 the row sums and rows
// n..2n-1 the column sums, all equal to b; minimize. Errors: n < 0,
// b outside [0, n], len(cost) ≠ n², NaN or −Inf costs.
func KRegularProblem(n, b int, cost []float64) (*solvers.Problem, error) {
	if err := checkKRegular(n, b, cost); err != nil {
		return nil, err
	}
	m := 0
	for _, c := range cost {
		if !math.IsInf(c, 1) {
			m++
		}
	}
	p := &solvers.Problem{
		Name:     fmt.Sprintf("kregular_n%d_b%d", n, b),
		Sense:    solvers.Minimize,
		Obj:      make([]float64, 0, m),
		ColLower: make([]float64, 0, m),
		ColUpper: make([]float64, 0, m),
		ColNames: make([]string, 0, m),
		RowLower: make([]float64, 2*n),
		RowUpper: make([]float64, 2*n),
		RowNames: make([]string, 2*n),
		ColStart: make([]int, 1, m+1),
		RowIndex: make([]int, 0, 2*m),
		Value:    make([]float64, 0, 2*m),
	}
	for i := 0; i < n; i++ {
		p.RowLower[i], p.RowUpper[i] = float64(b), float64(b)
		p.RowNames[i] = fmt.Sprintf("row_%d", i)
		p.RowLower[n+i], p.RowUpper[n+i] = float64(b), float64(b)
		p.RowNames[n+i] = fmt.Sprintf("col_%d", i)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			c := cost[i*n+j]
			if math.IsInf(c, 1) {
				continue
			}
			p.Obj = append(p.Obj, c)
			p.ColLower = append(p.ColLower, 0)
			p.ColUpper = append(p.ColUpper, 1)
			p.ColNames = append(p.ColNames, fmt.Sprintf("x_%d_%d", i, j))
			p.RowIndex = append(p.RowIndex, i, n+j)
			p.Value = append(p.Value, 1, 1)
			p.ColStart = append(p.ColStart, len(p.RowIndex))
		}
	}
	return p, nil
}

// SolveKRegular solves the b-regular bipartite selection with the named
// LP engine (solvers registry name; "" or "auto" picks one) and decodes
// the 0/1 optimum: chosen[i] = the b columns j of row i with x_ij > 0.5,
// ascending; total = the sum of their original costs. Errors: invalid
// input (as KRegularProblem), ErrNoKRegular when no selection of finite
// cost exists, ErrFractional when the engine's point is not 0/1 within
// 1e-6, ErrNotSolved when the engine stops without an optimum, and the
// engine's own errors.
func SolveKRegular(n, b int, cost []float64, solver string) (chosen [][]int32, total float64, err error) {
	p, err := KRegularProblem(n, b, cost)
	if err != nil {
		return nil, 0, err
	}
	// Counting check: a row or column with fewer than b finite costs.
	for i := 0; i < n; i++ {
		rf, cf := 0, 0
		for j := 0; j < n; j++ {
			if !math.IsInf(cost[i*n+j], 1) {
				rf++
			}
			if !math.IsInf(cost[j*n+i], 1) {
				cf++
			}
		}
		if rf < b {
			return nil, 0, fmt.Errorf("%w: row %d has %d finite costs < b = %d", ErrNoKRegular, i, rf, b)
		}
		if cf < b {
			return nil, 0, fmt.Errorf("%w: column %d has %d finite costs < b = %d", ErrNoKRegular, i, cf, b)
		}
	}
	chosen = make([][]int32, n)
	if b == 0 {
		for i := range chosen {
			chosen[i] = []int32{}
		}
		return chosen, 0, nil
	}
	r, err := solvers.Solve(solver, p, nil)
	if err != nil {
		return nil, 0, err
	}
	switch r.Status {
	case solvers.Optimal:
	case solvers.Infeasible, solvers.InfeasibleOrUnbounded:
		return nil, 0, fmt.Errorf("%w (engine %s: %v)", ErrNoKRegular, r.Solver, r.Status)
	default:
		return nil, 0, fmt.Errorf("%w: b-regular selection (engine %s): %v", ErrNotSolved, r.Solver, r.Status)
	}
	if !r.HasSolution || len(r.X) != p.NumCols() {
		return nil, 0, fmt.Errorf("%w: b-regular selection (engine %s): optimal without a solution vector", ErrNotSolved, r.Solver)
	}
	return decodeKRegular(n, b, cost, r.X, r.Solver)
}

// decodeKRegular turns an LP point x (one value per finite cost, in the
// column order of KRegularProblem) into the selection, checking that x is
// 0/1 within fracTol and b-regular.
func decodeKRegular(n, b int, cost, x []float64, engine string) (chosen [][]int32, total float64, err error) {
	if m := len(cost) - countInf(cost); len(x) != m {
		return nil, 0, fmt.Errorf("lp: b-regular selection (engine %s): %d values for %d columns", engine, len(x), m)
	}
	chosen = make([][]int32, n)
	colCount := make([]int, n)
	k := 0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			c := cost[i*n+j]
			if math.IsInf(c, 1) {
				continue
			}
			xv := x[k]
			k++
			if math.IsNaN(xv) || xv < -fracTol || xv > 1+fracTol {
				return nil, 0, fmt.Errorf("lp: b-regular selection (engine %s): x[%d][%d] = %v outside [0, 1]", engine, i, j, xv)
			}
			if math.Abs(xv-math.Round(xv)) > fracTol {
				return nil, 0, fmt.Errorf("%w: x[%d][%d] = %v (engine %s)", ErrFractional, i, j, xv, engine)
			}
			if xv > 0.5 {
				chosen[i] = append(chosen[i], int32(j))
				colCount[j]++
				total += c
			}
		}
		if len(chosen[i]) != b {
			return nil, 0, fmt.Errorf("lp: b-regular selection (engine %s): row %d has %d chosen columns, want %d",
				engine, i, len(chosen[i]), b)
		}
	}
	for j, c := range colCount {
		if c != b {
			return nil, 0, fmt.Errorf("lp: b-regular selection (engine %s): column %d chosen %d times, want %d",
				engine, j, c, b)
		}
	}
	return chosen, total, nil
}

func countInf(cost []float64) int {
	m := 0
	for _, c := range cost {
		if math.IsInf(c, 1) {
			m++
		}
	}
	return m
}
