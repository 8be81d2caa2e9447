package intervals

import (
	"fmt"
	"math"
	"slices"
)

// sparse is a sparse vector over the rows of the attacker problem.
type sparse struct {
	idx []int
	val []float64
}

// fixed is the outcome of presolve: the cells that relations alone
// determine (disclosure by differencing), each with its value and the row
// combination y that proves it (Aᵀy = e_j, so x_j = yᵀb on the whole
// polytope), and the rows that still hold two or more undetermined cells.
type fixed struct {
	is    []bool    // per variable
	value []float64 // per variable, when is
	proof []sparse  // per variable, when is
	// residual is b_i minus the determined cells' part of row i.
	residual []float64
	live     []bool // rows with an undetermined cell
}

// presolve determines cells row by row: a row with one undetermined cell
// x_j (coefficient c) gives x_j = (b_i − Σ c_k·x_k over its determined
// cells)/c, with proof y^j = (e_i − Σ c_k·y^k)/c; every row it shares may
// then have one undetermined cell left. It fails with ErrInfeasible when a
// determined value leaves the prior bounds or a row with no undetermined
// cell left does not hold.
func (a *attacker) presolve() (*fixed, error) {
	n, m := len(a.cells), len(a.rows)
	f := &fixed{is: make([]bool, n), value: make([]float64, n), proof: make([]sparse, n),
		residual: slices.Clone(a.rhs), live: make([]bool, m)}
	open := make([]int, m) // undetermined cells of each row
	var queue []int
	for i, row := range a.rows {
		open[i] = len(row)
		f.live[i] = true
		if len(row) == 1 {
			queue = append(queue, i)
		}
	}
	acc := map[int]float64{}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if open[i] != 1 {
			continue
		}
		j, c := -1, 0.0
		for _, e := range a.rows[i] {
			if !f.is[e.v] {
				j, c = e.v, e.coef
			}
		}
		v := f.residual[i] / c
		tol := ConsistTol * math.Max(1, math.Abs(v))
		if v < a.lo[j]-tol || v > a.up[j]+tol {
			return nil, fmt.Errorf("%w: relation %d (%q = sum of its %d parts) makes cell %s %g, outside its bounds [%g, %g]",
				ErrInfeasible, a.rel[i], a.name(a.relN[a.rel[i]].Total), len(a.relN[a.rel[i]].Parts), a.names[j], v, a.lo[j], a.up[j])
		}
		v = snap(v)
		v = math.Min(math.Max(v, a.lo[j]), a.up[j])
		clear(acc)
		acc[i] = 1 / c
		for _, e := range a.rows[i] {
			if e.v == j {
				continue
			}
			p := f.proof[e.v]
			for k, r := range p.idx {
				acc[r] -= e.coef / c * p.val[k]
			}
		}
		var y sparse
		for r, x := range acc {
			if x != 0 {
				y.idx = append(y.idx, r)
			}
		}
		slices.Sort(y.idx)
		for _, r := range y.idx {
			y.val = append(y.val, acc[r])
		}
		f.is[j], f.value[j], f.proof[j] = true, v, y
		for _, r := range a.varRows[j] {
			open[r]--
			f.residual[r] -= coefOf(a.rows[r], j) * v
			switch open[r] {
			case 1:
				queue = append(queue, r)
			case 0:
				f.live[r] = false
				tol := ConsistTol * math.Max(1, math.Abs(a.rhs[r]))
				if math.Abs(f.residual[r]) > tol*float64(len(a.rows[r])) {
					return nil, fmt.Errorf("%w: relation %d (%q = sum of its %d parts) is violated by %g once the cells it shares with other relations are determined",
						ErrInfeasible, a.rel[r], a.name(a.relN[a.rel[r]].Total), len(a.relN[a.rel[r]].Parts), f.residual[r])
				}
			}
		}
	}
	return f, nil
}

// coefOf is the coefficient of variable j in row.
func coefOf(row []term, j int) float64 {
	c := 0.0
	for _, e := range row {
		if e.v == j {
			c += e.coef
		}
	}
	return c
}

// lift turns the row duals ȳ of a problem over the live rows (right-hand
// sides the residuals) into duals of the whole attacker problem: y = Σ ȳ_i
// (e_i − Σ_k A_ik·y^k) over the determined cells k of row i, so that Aᵀy
// equals the reduced problem's Aᵀȳ on the undetermined cells and is 0 on
// the determined ones, and yᵀb = ȳᵀ(residuals). rows and ys are sorted by
// row on return.
func (f *fixed) lift(a *attacker, rows []int, ys []float64) ([]int, []float64) {
	acc := make(map[int]float64, len(rows))
	for k, i := range rows {
		yi := ys[k]
		acc[i] += yi
		for _, e := range a.rows[i] {
			if !f.is[e.v] {
				continue
			}
			p := f.proof[e.v]
			for q, r := range p.idx {
				acc[r] -= yi * e.coef * p.val[q]
			}
		}
	}
	var out []int
	for r, x := range acc {
		if math.Abs(x) > CertZero {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	vals := make([]float64, len(out))
	for k, r := range out {
		vals[k] = acc[r]
	}
	return out, vals
}
