package audit

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// Box search: the neighbourhood search of search.go on sparse tables with
// many variables, where only upper ends matter (upperOnly).
//
// The pieces of a split microdata decision over 7-9 variables have
// 10^4-10^6 cells and hold 10^5 records: most cells are 0. A Hamming ball
// of radius 3 around a cell of such a table has more cells than
// searchMaxCells (1 + 9·5 + 36·25 + 84·125 for nine variables of six
// levels), and most of them are empty, so they can only be raised, never
// give up the units a raised cell needs. The box search takes instead a
// box around the cell c: per variable j a set S_j of levels holding c's,
// W = S_1 × ... × S_d, grown from the non-empty cells nearest to c (by
// Hamming distance, the larger counts first among equals) for as long as
// W keeps at most boxMaxCells cells. W is a set of cells like any other:
// the program of search.go over W (every released marginal cell that W
// meets keeps the sum of T over its cells in W, the cells outside W keep
// their counts) has only tables with every margin of the view as
// solutions, each checked exactly (neighbourhood.raise). With upperOnly a
// cell y is safe as soon as a table found has x_y >= q(y) (search.go).
// One program raises every open cell of the box at once: it maximizes
// the sum of the open cells' values, each capped at its width, c's with a
// weight above the others' sum (so c reaches q(c) whenever the box lets
// it); every table found attains its values at every cell of W, and each
// one is checked against every open cell of its box before the next
// program. Measured on the 331,776-cell piece of synthetic20:3 (sequence
// 5, its 19th request; 3,743 cells open after the local moves, 2 cores
// shared with other jobs, first pass only): boxes of at most 128 cells
// decided about 3,200 of them in 9.5 s, of 256 about 2,600, of 512 about
// 2,500 and of 64 about 2,900 (lp_solve takes about 5 ms for a 128-cell
// box, 18 ms for 512).
//
// Nothing here proves a disclosure: cells the boxes leave open go on to the
// neighbourhood search (tables up to searchMaxTable) and the bounds
// (cellbounds, only the open cells), as before. The passes, their time
// (boxDeadline) and what follows them are set below.

// boxMaxCells is the largest box searched first; boxMaxCellsWide the
// larger box of the second pass, for the cells the first leaves open, and
// boxMaxCellsWidest that of a third pass on the tables above
// searchMaxTable (on smaller ones the neighbourhood search follows).
const (
	boxMaxCells       = 128
	boxMaxCellsWide   = 512
	boxMaxCellsWidest = 2048
)

// boxSolveLimit bounds each program of the box search.
const boxSolveLimit = 200 * time.Millisecond

// lpsolveGrain is the granularity of lp_solve's time limit (whole
// seconds, at least one): a program started closer to the deadline could
// end up to that much past it, so the box search on lp_solve starts none
// then.
const lpsolveGrain = time.Second

// searchBoxes runs the box search (see above) on the open cells until
// deadline. It returns the cells still open, in the order given, and the
// attained interval of every cell a table found has moved (moved is the
// starting point, as in searchOpen).
func (a *Auditor) searchBoxes(ms *model.MarginSet, open []int, req []int64, moved map[int]searched, deadline time.Time) ([]int, map[int]searched) {
	dims := model.Dims(ms.Vars)
	d := len(dims)
	// The non-empty cells and their levels.
	var nz []int
	for c, x := range a.table.Counts {
		if x > 0 {
			nz = append(nz, c)
		}
	}
	nzLv := make([]int, len(nz)*d)
	for i, c := range nz {
		model.CellLevels(dims, c, nzLv[i*d:(i+1)*d])
	}
	at := newAttained(a.table.Counts, moved)
	reachedAt := func(c int) bool { return at.value(c).hi >= req[c] }
	engines := a.searchEngines()
	if len(engines) == 0 {
		return open, map[int]searched{}
	}
	passes := []int{boxMaxCells, boxMaxCellsWide}
	if len(a.table.Counts) > searchMaxTable {
		// Nothing else searches such a table: a third pass with the
		// widest boxes for the cells left.
		passes = append(passes, boxMaxCellsWidest)
	}
	for _, limit := range passes {
		forEachOpen(engines, open, deadline, func(mip solvers.Solver, c int) {
			last := deadline // no program starts after last
			if mip.Name() == "lpsolve" {
				last = deadline.Add(-lpsolveGrain)
			}
			if reachedAt(c) || time.Now().After(last) {
				return
			}
			lv := make([]int, d)
			model.CellLevels(dims, c, lv)
			cells := boxAround(dims, lv, nz, nzLv, a.table.Counts, limit)
			if len(cells) < 2 {
				return
			}
			nb := buildProgram(a.table, ms, dims, cells)
			// Every open cell of the box raised toward its width, the
			// cell c first (the largest weight).
			cols, goals := []int{0}, []int64{req[c]}
			for i, y := range cells[1:] {
				if req[y] > 0 && at.value(y).hi < req[y] {
					cols, goals = append(cols, i+1), append(goals, req[y])
				}
			}
			if x, _, ok := nb.raise(mip, cols, goals, deadline, boxSolveLimit); ok {
				at.absorb(nb.cells, x)
			}
		})
	}
	return at.split(a, open, req) // upperOnly: reached is the upper end
}

// boxAround returns the cells of the box grown around the cell of levels
// lv (see above), the cell itself first: the non-empty cells (nz, their
// levels nzLv) nearest to it join while the box keeps at most limit cells.
func boxAround(dims, lv []int, nz, nzLv []int, counts []int64, limit int) []int {
	d := len(dims)
	// The non-empty cells by distance (1..d), the larger counts first
	// within a distance, then by index.
	byDist := make([][]int, d+1)
	for i := range nz {
		z := nzLv[i*d : (i+1)*d]
		dist := 0
		for j, l := range z {
			if l != lv[j] {
				dist++
			}
		}
		byDist[dist] = append(byDist[dist], i)
	}
	sets := make([][]int, d) // S_j
	for j := range d {
		sets[j] = []int{lv[j]}
	}
	size := 1
	full := func() bool { // no variable can take one more level
		for j := range d {
			if size/len(sets[j])*(len(sets[j])+1) <= limit && len(sets[j]) < dims[j] {
				return false
			}
		}
		return true
	}
	for dist := 1; dist <= d && !full(); dist++ {
		near := byDist[dist]
		slices.SortFunc(near, func(x, y int) int {
			if c := cmp.Compare(counts[nz[y]], counts[nz[x]]); c != 0 {
				return c
			}
			return x - y
		})
		for _, i := range near {
			z := nzLv[i*d : (i+1)*d]
			grown := size
			for j, l := range z {
				if !slices.Contains(sets[j], l) {
					grown = grown / len(sets[j]) * (len(sets[j]) + 1)
				}
			}
			if grown > limit || grown == size {
				continue
			}
			for j, l := range z {
				if !slices.Contains(sets[j], l) {
					sets[j] = append(sets[j], l)
				}
			}
			size = grown
			if full() {
				break
			}
		}
	}
	// The product of the level sets, the cell itself first (every S_j
	// starts with its level).
	cells := make([]int, 0, size)
	cur := make([]int, d)
	idx := make([]int, d)
	for {
		for j := range d {
			cur[j] = sets[j][idx[j]]
		}
		cells = append(cells, model.CellIndex(dims, cur))
		j := d - 1
		for j >= 0 {
			idx[j]++
			if idx[j] < len(sets[j]) {
				break
			}
			idx[j] = 0
			j--
		}
		if j < 0 {
			break
		}
	}
	return cells
}

// boxMinTable is the least table the box search runs on (smaller tables'
// balls are small enough for the neighbourhood search alone).
const boxMinTable = 4096

// raise solves the program with the cells of the columns cols maximized,
// each not beyond its goal, the first with a weight above the others'
// sum, and returns the box's counts in the table found, checked as in
// neighbourhood.moveAt: integer, non-negative, every row exact. optimal
// reports the engine's proof of the optimum.
func (nb *neighbourhood) raise(mip solvers.Solver, cols []int, goals []int64, deadline time.Time, limit time.Duration) (x []int64, optimal, ok bool) {
	p := *nb.p
	p.Obj = make([]float64, len(nb.cells))
	p.ColUpper = slices.Clone(nb.p.ColUpper)
	for i, at := range cols {
		p.Obj[at] = 1
		if i == 0 {
			p.Obj[at] = float64(len(cols))
		}
		p.ColUpper[at] = math.Min(p.ColUpper[at], float64(goals[i]))
		if p.ColUpper[at] < p.ColLower[at] {
			return nil, false, false
		}
	}
	p.Sense = solvers.Maximize
	return nb.solveChecked(mip, &p, deadline, limit)
}

// boxDeadline is the end of the box search on a table of n cells: the
// decision's deadline above searchMaxTable (nothing else searches there),
// else boxShare of the time left, for the neighbourhood search, which
// decides most of the cells the boxes leave, and, up to
// boxShareMaxTable cells, the whole table's programs.
func boxDeadline(n int, deadline time.Time) time.Time {
	if n > searchMaxTable {
		return deadline
	}
	return time.Now().Add(time.Duration(boxShare * float64(time.Until(deadline))))
}

// boxShareMaxTable is the largest table whose whole-table programs
// (decideWhole) run after the box search: on larger ones they take longer
// than a decision has (the first pass on the 62,208-cell piece of
// synthetic20:3, sequence 1, its 15th request, started with 3.4 s left
// and ended 3.9 s past the deadline). Their bounds, too, need
// bigBoundsMin.
const boxShareMaxTable = 1 << 14

// boxShare is the share of a decision's time left that the box search
// takes on a table of at most searchMaxTable cells.
const boxShare = 0.6

// bigBoundsMin is the least time left for which the bounds are computed
// for the cells the searches leave open on a table above
// boxShareMaxTable searched by boxes; with less, the decision
// takes the evidence at hand: the bounds' programs over such a table are
// built before their time limit applies.
const bigBoundsMin = 3 * time.Second
