// Package fiber moves one cell of an integer table within the fiber of a
// released set of margins (the integer tables with those margins): every
// margin keeps its counts. It holds small integer programs over a set of
// cells S (a slab, a ball, a box) with every other cell fixed, and chains
// of such programs over random slabs.
//
// For a table X with every margin of the set and a set S of its cells, the
// program over x_y, y in S,
//
//	for every margin M and every cell m of M:
//	  sum of x_y over y in S projecting onto m = sum of X_y over the same y,
//	x_y >= 0 integer,
//
// is a slice of the fiber of the margins (the integer tables with them):
// X with its cells in S replaced by a solution has every margin of X (the
// cells outside S are unchanged and those in S add up to the same
// marginal counts). Its rows are the marginal cells S meets, its columns
// the cells of S, so an engine solves it in milliseconds where the program
// over the whole table takes seconds. Every solution is checked in exact
// integer arithmetic (integer, non-negative, every row exact) before it
// is returned: the engine only proposes tables.
//
// A slab of cell c over a set F of variables is the set of cells that
// agree with c on every variable outside F (the sub-table through c,
// prod_{j in F} d_j cells). A chain (Chainer.Move) maximizes (minimizes) c
// over the slab of a random F, replaces X by the table found and repeats
// with another F: a later slab uses the counts an earlier one moved next
// to c, so the chain reaches moves that no single slab holds.
package fiber

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// Program is the integer program of a set of cells (see the package
// comment), with a zero objective; MoveAt and SolveChecked solve variants
// of it.
type Program struct {
	// Cells are the table indices of the columns, in order.
	Cells []int
	// Problem is the program: one row per marginal cell met (lower =
	// upper = its sum over Cells), one integer column per cell of Cells
	// with bounds [0, least row sum of the column].
	Problem *solvers.Problem
	rhs     []int64
	rows    [][]int // rows of each column
}

// Build returns the program over cells of the table t (which has every
// margin of ms; dims are the dimensions of ms.Vars).
func Build(t *model.Table, ms *model.MarginSet, dims []int, cells []int) *Program {
	lv := make([]int, len(dims))
	nb := &Program{Cells: cells, rows: make([][]int, len(cells))}
	rowOf := make([]map[int]int, len(ms.Margins))
	for k := range rowOf {
		rowOf[k] = map[int]int{}
	}
	for i, y := range cells {
		model.CellLevels(dims, y, lv)
		for k, m := range ms.Margins {
			mc := model.Project(dims, m.Vars, lv)
			row, ok := rowOf[k][mc]
			if !ok {
				row = len(nb.rhs)
				rowOf[k][mc] = row
				nb.rhs = append(nb.rhs, 0)
			}
			nb.rhs[row] += t.Counts[y]
			nb.rows[i] = append(nb.rows[i], row)
		}
	}
	p := &solvers.Problem{Name: "neighbourhood"}
	for _, v := range nb.rhs {
		p.AddRow(float64(v), float64(v), "")
	}
	p.Reserve(len(cells), len(cells)*len(ms.Margins), false)
	p.ColStart = append(p.ColStart, 0)
	for i := range cells {
		rs := slices.Clone(nb.rows[i])
		slices.Sort(rs)
		rs = slices.Compact(rs) // a margin of no variable repeats no row, but be safe
		u := int64(math.MaxInt64)
		for _, row := range rs {
			u = min(u, nb.rhs[row])
			p.RowIndex = append(p.RowIndex, row)
			p.Value = append(p.Value, 1)
		}
		if len(rs) == 0 {
			u = 0 // no margin: the cell cannot be checked, keep it
		}
		p.Obj = append(p.Obj, 0)
		p.ColLower = append(p.ColLower, 0)
		p.ColUpper = append(p.ColUpper, float64(u))
		p.ColType = append(p.ColType, solvers.Integer)
		p.ColStart = append(p.ColStart, len(p.RowIndex))
	}
	nb.Problem = p
	return nb
}

// MoveAt solves the program with the cell of column at minimized (dir
// -1, not below goal) or maximized (dir +1, not above goal), within limit
// and deadline, and returns the counts of Cells in the table found,
// checked as SolveChecked does; optimal reports that the engine proved
// the value reached the best one within the goal (no table moves the
// cell further toward it).
func (nb *Program) MoveAt(mip solvers.Solver, at int, dir int64, goal int64, deadline time.Time, limit time.Duration) (x []int64, optimal, ok bool) {
	p := *nb.Problem
	p.Obj = make([]float64, len(nb.Cells))
	p.ColLower, p.ColUpper = slices.Clone(nb.Problem.ColLower), slices.Clone(nb.Problem.ColUpper)
	p.Obj[at] = 1
	if dir < 0 {
		p.Sense = solvers.Minimize
		p.ColLower[at] = math.Max(0, float64(goal))
	} else {
		p.Sense = solvers.Maximize
		p.ColUpper[at] = math.Min(p.ColUpper[at], float64(goal))
	}
	if p.ColLower[at] > p.ColUpper[at] {
		return nil, false, false
	}
	return nb.SolveChecked(mip, &p, deadline, limit)
}

// SolveChecked solves p, a variant of the program (other objective or
// column bounds, the same rows), and returns the counts of Cells in the
// table found, checked in exact integer arithmetic: integer,
// non-negative, every row exact. optimal reports the engine's proof of
// the optimum.
func (nb *Program) SolveChecked(mip solvers.Solver, p *solvers.Problem, deadline time.Time, limit time.Duration) (x []int64, optimal, ok bool) {
	prm := solvers.DefaultParams()
	prm.TimeLimit, prm.Deadline = limit, deadline
	res, err := mip.Solve(p, prm)
	if err != nil || !res.HasSolution || len(res.X) != len(nb.Cells) {
		return nil, false, false
	}
	sum := make([]int64, len(nb.rhs))
	x = make([]int64, len(res.X))
	for i, v := range res.X {
		r := math.Round(v)
		if math.Abs(v-r) > 1e-6 || r < 0 {
			return nil, false, false
		}
		x[i] = int64(r)
		for _, row := range nb.rows[i] {
			sum[row] += x[i]
		}
	}
	if !slices.Equal(sum, nb.rhs) {
		return nil, false, false
	}
	return x, res.Status == solvers.Optimal, true
}

// Draw draws a slab of the cell of levels lv: variables in random order
// are freed while the slab stays within maxCells cells, one variable at
// least stays fixed. The cell itself comes first.
func Draw(dims, lv []int, maxCells int, r *rand.Rand) []int {
	size := 1
	var free []int
	for _, j := range r.Perm(len(dims)) {
		if len(free) == len(dims)-1 {
			break
		}
		if size*dims[j] <= maxCells {
			size *= dims[j]
			free = append(free, j)
		}
	}
	slices.Sort(free)
	y := slices.Clone(lv)
	cells := []int{model.CellIndex(dims, lv)}
	// Enumerate the sub-table over free (odometer), skipping the cell.
	for {
		k := len(free) - 1
		for ; k >= 0; k-- {
			j := free[k]
			y[j] = (y[j] + 1) % dims[j]
			if y[j] != lv[j] {
				break
			}
		}
		if k < 0 {
			return cells
		}
		cells = append(cells, model.CellIndex(dims, y))
	}
}

// Chainer chains slab programs (see the package comment).
type Chainer struct {
	// MaxCells bounds a slab's cells (Draw), Steps the slabs chained per
	// move, SolveLimit each program's time.
	MaxCells, Steps int
	SolveLimit      time.Duration
	// Keep skips a table that moves the cell back (a program stopped at
	// its time limit may return one): the chain's value of the cell then
	// only moves in its direction.
	Keep bool
}

// Move chains slab programs from the table t (which has every margin of
// ms) moving cell c down (dir -1, toward goal) or up (dir +1), at most
// ch.Steps slabs or until the goal or the deadline, and passes every
// table found (the slab's cells and their counts; the cells outside keep
// the chain's previous table) to absorb (nil: none). It returns the last
// table of the chain (t's counts when nothing was found). seed seeds the
// slabs' draws.
func (ch Chainer) Move(t *model.Table, ms *model.MarginSet, c int, dir, goal int64, seed uint64, deadline time.Time, mip solvers.Solver, absorb func(cells []int, x []int64)) []int64 {
	dims := model.Dims(ms.Vars)
	cur := slices.Clone(t.Counts)
	x := &model.Table{Vars: t.Vars, Counts: cur}
	r := rand.New(rand.NewPCG(seed, 0x636861696e))
	lv := model.CellLevels(dims, c, nil)
	for step := 0; step < ch.Steps; step++ {
		if (dir > 0 && cur[c] >= goal) || (dir < 0 && cur[c] <= goal) || (!deadline.IsZero() && time.Now().After(deadline)) {
			break
		}
		cells := Draw(dims, lv, ch.MaxCells, r)
		if len(cells) < 2 {
			break
		}
		nb := Build(x, ms, dims, cells)
		y, _, ok := nb.MoveAt(mip, 0, dir, goal, deadline, ch.SolveLimit)
		if !ok || (ch.Keep && (y[0]-cur[c])*dir < 0) {
			continue
		}
		for i, idx := range cells {
			cur[idx] = y[i]
		}
		if absorb != nil {
			absorb(cells, y)
		}
	}
	return cur
}
