package audit

import (
	"slices"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/fiber"
	"github.com/sdcopt/sdcopt/solvers"
)

// Neighbourhood search: integer programs that move one cell of the
// confidential table while every cell farther than a few variables from it
// keeps its count.
//
// Let T be the confidential table, all of whose margins are in the view,
// c a cell and W the cells within Hamming distance r of c (cells whose
// levels differ from c's in at most r variables). The integer program over
// x_y, y in W,
//
//	for every released margin M and every cell m of M:
//	  sum of x_y over y in W projecting onto m = sum of T_y over the same y,
//	x_y >= 0 integer,
//
// is a slice of the fiber: T with its cells in W replaced by x has every
// released margin of T (the cells outside W are unchanged and those in W
// add up to the same marginal counts), so every solution is a table that
// attains x_c. Its rows are few (one per marginal cell that W meets) and
// its columns are 1 + r(d-1)k + ... (106 for 4^5 at r = 2 against 1024
// cells), so CBC solves it in milliseconds where the program over the whole
// table takes seconds, while it still contains every composition of the
// local moves within W, not only the greedy ones (moves.go). A cell is
// moved down toward its count - required width and then up toward the value
// reached + required width: the attained interval is wide enough (safe),
// or the cell stays open for the bounds. The search never proves a
// disclosure: it only finds tables.

// Collapsed tables of microdata and the pieces of a split decision. The
// search runs also on the auditor of a table over W (microdata.go) or
// over a piece K_i of W (separators.go), when only the upper ends of its
// cells matter (upperOnly). It is exact there:
//
//   - Cells checked. requirement() gives each cell y of the auditor's
//     table the largest RequiredWidth of a non-empty full cell inside it
//     (refine.req; the policy of the cell itself only with
//     ProtectCollapsed, refine.collapsed, which a piece never has and
//     upperOnly excludes), needed() the cells where it is positive, and
//     checkRefined checks exactly those, each with pad = refine.pad: the
//     full cell ranges over [0, U(y)], so it keeps its width q iff the
//     attained upper end reaches q (classify sets both lower ends to 0).
//     So with upperOnly the search aims at hi >= q (reached, base): no
//     downward move, the upward one toward q, and a disclosure is proven
//     by the whole table's optimum below q alone.
//   - Tables. The programs fix every marginal cell of the margin set ms
//     the auditor decides on (for a piece: the margins inside K_i and the
//     separators' margins next to it, M_i) at the confidential table's
//     sums, and the search runs only when the auditor's table has every
//     margin of ms (viewIsTrue). Every table found (checked integer,
//     non-negative, rows exact) is then an integer table with M_i, which
//     glues with tables of the other pieces into tables over W with every
//     margin (separators.go, 3.), and an optimum of the whole table's
//     program is the sharp bound U_i(y) given M_i (2.).
//   - Widths. For a piece, checkPieces (V \ W with two cells or more)
//     releases when every piece attains q at y_i and denies when one
//     proves U_i(y_i) < q: both read the upper ends only, the ones the
//     search aims at. A piece whose pad is false (V \ W with one cell) is
//     checked jointly on every cell (bounds with every), never searched.
//
// Not searched: a collapsed table with pad false (its cells are the full
// cells, checked on [lo, hi]) or with ProtectCollapsed (its cells checked
// on both ends too).

// upperOnly reports whether the auditor checks its cells by their upper
// ends only (see above).
func (a *Auditor) upperOnly() bool {
	return a.refine != nil && a.refine.pad && !a.refine.collapsed
}

// reached is the width an attained interval gives a cell as the policy
// reads it: hi - lo, or hi when only upper ends matter.
func (a *Auditor) reached(f searched) int64 {
	if a.upperOnly() {
		return f.hi
	}
	return f.hi - f.lo
}

// base is the lower end an upward move aims from: the least value
// attained, or 0 when only upper ends matter.
func (a *Auditor) base(f searched) int64 {
	if a.upperOnly() {
		return 0
	}
	return f.lo
}

// nearRadii are the neighbourhoods searched first, for every open cell
// (radius 2 as well decided few cells on the 3^7 table with 3-way margins
// and mean 0.2, and the decisions of sequence 1 took 0.1-0.4 s less
// without it); farRadii those searched after the whole-table programs
// (decideWhole) for the cells still open, which the near ones miss and
// the whole table does not settle in its first, short limit.
var (
	nearRadii = []int{3}
	farRadii  = []int{4, 5}
)

// searchMaxCells is the largest neighbourhood searched (the program's
// columns): beyond it the program is as slow as the whole table's.
const searchMaxCells = 2500

// searchSolveLimit bounds each integer program of the search at radius 3
// or less, and grows with the radius beyond (1 s at radius 4, 2 s beyond); a
// program stopped there decides nothing (the cell stays open). Measured on
// the 3^7 table with 3-way margins and mean 0.2: radius 3 programs take
// 10-25 ms, radius 4 300-500 ms.
const searchSolveLimit = 250 * time.Millisecond

// solveLimit is the time limit of a program at radius r.
func solveLimit(r int) time.Duration {
	if r <= 3 {
		return searchSolveLimit
	}
	return searchSolveLimit << min(r-2, 3) // 1 s at 4, 2 s from 5
}

// wholeSolveLimit is the least time limit of a program over the whole
// table in decideWhole's last pass (each gets a fair share of the time
// left); wholeFirstLimit that of its first pass, which settles the cells
// disclosed (CBC proves the optimum of such a cell of the 4^5 table with
// 3-way margins, mean 0.2, in 30-60 ms) before the far neighbourhoods
// are searched.
const (
	wholeSolveLimit = 2 * time.Second
	wholeFirstLimit = 300 * time.Millisecond
	// wholeFirstFailures ends the first pass after so many cells in a
	// row left undecided (the cells left are likely safe, for the far
	// neighbourhoods).
	wholeFirstFailures = 4
)

// searched is what the search found for one cell: integer tables with
// the view's margins attain lo and hi.
type searched struct{ lo, hi int64 }

// searchOpen runs the neighbourhood search on the open cells until
// deadline, on searchWorkers engines at once: it returns the cells still
// open (in the order given; the search did not attain the required width)
// and the attained interval of every cell searched. req is requirement().
// Every table found attains a value of each cell of its neighbourhood, so
// a cell searched later may be decided by the tables of the cells before
// it without a program of its own.
//
// moved holds the intervals the local moves attained (the search starts
// from them; nil for none); minRadius is the first radius tried (the size
// of the smallest move set: a smaller ball holds no local move).
func (a *Auditor) searchOpen(ms *model.MarginSet, open []int, req []int64, moved map[int]searched, radii []int, minRadius int, deadline time.Time) ([]int, map[int]searched) {
	at := newAttained(a.table.Counts, moved)
	done := func(c int) (searched, bool) {
		f := at.value(c)
		return f, a.reached(f) >= req[c] || time.Now().After(deadline)
	}
	dims := model.Dims(ms.Vars)
	engines := a.searchEngines()
	if len(engines) == 0 {
		return open, map[int]searched{} // no integer engine: the bounds decide
	}
	forEachOpen(engines, open, deadline, func(mip solvers.Solver, c int) {
		q := req[c]
		for _, r := range radii {
			if r < minRadius && r < radii[len(radii)-1] {
				continue
			}
			if _, ok := done(c); ok {
				break
			}
			nb, ok := newNeighbourhood(a.table, ms, dims, c, r)
			if !ok {
				break
			}
			if f, _ := done(c); !a.upperOnly() && f.lo > max(0, a.table.Counts[c]-q) {
				if x, ok := nb.move(mip, -1, max(0, a.table.Counts[c]-q), deadline, solveLimit(r)); ok {
					at.absorb(nb.cells, x)
				}
			}
			if f, ok := done(c); !ok {
				if x, ok := nb.move(mip, +1, a.base(f)+q, deadline, solveLimit(r)); ok {
					at.absorb(nb.cells, x)
				}
			}
		}
	})
	return at.split(a, open, req)
}

// attained holds the interval of values the tables found so far attain
// at each cell, shared by a search's workers: a cell no table has moved
// attains its count.
type attained struct {
	mu     sync.Mutex
	att    map[int]searched
	counts []int64
}

// newAttained starts from the intervals of from (not modified; nil for
// none) over the table of counts.
func newAttained(counts []int64, from map[int]searched) *attained {
	t := &attained{att: make(map[int]searched, len(from)), counts: counts}
	for c, f := range from {
		t.att[c] = f
	}
	return t
}

func (t *attained) valueLocked(c int) searched {
	if f, ok := t.att[c]; ok {
		return f
	}
	return searched{t.counts[c], t.counts[c]}
}

// value returns the interval attained at cell c.
func (t *attained) value(c int) searched {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.valueLocked(c)
}

// absorb widens the intervals of cells by the values x of a table found
// (x[i] at cells[i]).
func (t *attained) absorb(cells []int, x []int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, y := range cells {
		f := t.valueLocked(y)
		t.att[y] = searched{min(f.lo, x[i]), max(f.hi, x[i])}
	}
}

// split returns the cells of open (in order) whose attained interval is
// not wide enough for req (Auditor.reached), and the interval of every
// cell of open that some table (or from) moved.
func (t *attained) split(a *Auditor, open []int, req []int64) ([]int, map[int]searched) {
	t.mu.Lock()
	defer t.mu.Unlock()
	found := map[int]searched{}
	var left []int
	for _, c := range open {
		f := t.valueLocked(c)
		if _, ok := t.att[c]; ok {
			found[c] = f
		}
		if a.reached(f) < req[c] {
			left = append(left, c)
		}
	}
	return left, found
}

// searchEngines opens the integer engines of a search, one per worker
// (none when no integer engine is available: the bounds decide).
func (a *Auditor) searchEngines() []solvers.Solver {
	var engines []solvers.Solver
	for range searchWorkers {
		mip, err := searchEngine(a.opt.Solver)
		if err != nil {
			break
		}
		engines = append(engines, mip)
	}
	return engines
}

// forEachOpen hands the cells of open, in order and until deadline, to
// one worker per engine, which calls work with its engine and the cell;
// it returns when every worker is done.
func forEachOpen(engines []solvers.Solver, open []int, deadline time.Time, work func(mip solvers.Solver, c int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for _, mip := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				work(mip, c)
			}
		}()
	}
	for _, c := range open {
		if time.Now().After(deadline) {
			break
		}
		next <- c
	}
	close(next)
	wg.Wait()
}

// searchWorkers is the number of engines searching at once (the machine's
// two cores).
const searchWorkers = 2

// searchEngine returns the integer engine of the search: for "" and
// "auto" lp_solve when it is linked (the programs have about a hundred
// columns, and lp_solve solves them in about 1.5 ms against CBC's 2-15 ms
// and HiGHS-wasm's 8-50 ms: 3^7 table with 3-way margins, mean 0.2 per
// cell, the same 284-628 programs per decision, measured 2026-11-26),
// else the engine of cellbounds.NewTableMIP. The engine only proposes
// tables: every one is checked exactly before it counts.
func searchEngine(solver string) (solvers.Solver, error) {
	if solver == "" || solver == "auto" {
		if s, err := solvers.New("lpsolve", true); err == nil {
			return s, nil
		}
	}
	s, err := cellbounds.NewTableMIP(solver)
	if err != nil {
		return nil, err
	}
	if !s.Capabilities().Integer {
		return nil, solvers.ErrUnsupported
	}
	return s, nil
}

// neighbourhood is the integer program of one cell's neighbourhood (the
// program of package fiber over W).
type neighbourhood struct {
	prog  *fiber.Program
	cells []int // W, table indices; cells[0] is the cell moved
	p     *solvers.Problem
}

// newNeighbourhood builds the program of cell c at radius r; false when
// W is too large or has no cell besides c.
func newNeighbourhood(t *model.Table, ms *model.MarginSet, dims []int, c, r int) (*neighbourhood, bool) {
	x := model.CellLevels(dims, c, nil)
	cells := []int{c}
	lv := slices.Clone(x)
	if r < 0 {
		// The whole table, in table order (cells[0] is cell 0).
		cells = make([]int, len(t.Counts))
		for i := range cells {
			cells[i] = i
		}
		return buildProgram(t, ms, dims, cells), true
	}
	var rec func(from, depth int) bool
	rec = func(from, depth int) bool {
		if depth == r {
			return true
		}
		for j := from; j < len(dims); j++ {
			for l := 0; l < dims[j]; l++ {
				if l == x[j] {
					continue
				}
				lv[j] = l
				cells = append(cells, model.CellIndex(dims, lv))
				if len(cells) > searchMaxCells || !rec(j+1, depth+1) {
					lv[j] = x[j]
					return false
				}
			}
			lv[j] = x[j]
		}
		return true
	}
	if !rec(0, 0) || len(cells) < 2 {
		return nil, false
	}
	return buildProgram(t, ms, dims, cells), true
}

// buildProgram is the program over the cells (see the top of the file).
func buildProgram(t *model.Table, ms *model.MarginSet, dims []int, cells []int) *neighbourhood {
	prog := fiber.Build(t, ms, dims, cells)
	return &neighbourhood{prog: prog, cells: prog.Cells, p: prog.Problem}
}

// move solves the program with the moved cell minimized (dir -1, not
// below goal) or maximized (dir +1, not above goal) and returns the
// neighbourhood's counts in a table found, checked: integer, non-negative,
// every row exact.
func (nb *neighbourhood) move(mip solvers.Solver, dir int64, goal int64, deadline time.Time, limit time.Duration) ([]int64, bool) {
	x, _, ok := nb.moveAt(mip, 0, dir, goal, deadline, limit)
	return x, ok
}

// moveAt is move for the cell of column at with a time limit; optimal
// reports that the engine proved the value reached the best one within
// the goal (no table moves the cell further toward it).
func (nb *neighbourhood) moveAt(mip solvers.Solver, at int, dir int64, goal int64, deadline time.Time, limit time.Duration) (x []int64, optimal, ok bool) {
	return nb.prog.MoveAt(mip, at, dir, goal, deadline, limit)
}

// solveChecked solves p, a variant of the neighbourhood's program (other
// objective or column bounds, same rows), and returns the neighbourhood's
// counts in the table found, checked in exact integer arithmetic:
// integer, non-negative, every row exact. optimal reports the engine's
// proof of the optimum.
func (nb *neighbourhood) solveChecked(mip solvers.Solver, p *solvers.Problem, deadline time.Time, limit time.Duration) (x []int64, optimal, ok bool) {
	return nb.prog.SolveChecked(mip, p, deadline, limit)
}

// searchMaxTable is the largest table searched by neighbourhoods: a
// neighbourhood's rows are found by projecting its cells, cheap at any
// size, but the search runs once per open cell, and on the collapsed
// tables of microdata (up to millions of cells) a radius-3 ball over
// many variables is nearly all empty cells. Larger tables whose cells
// matter by their upper ends only are searched by boxes grown from the
// non-empty cells instead (bigpieces.go), at any size.
const searchMaxTable = 1 << 16

// decideWhole decides the cells the neighbourhood search left open (in
// order, until deadline) by integer programs over the whole table (the
// program above with W every cell, the exact fiber): with a the least
// value attained so far,
//
//  1. when a > 0, the least value L of the cell (minimized; optimal, or
//     the table found only widens the attained interval);
//  2. the cell maximized, but not beyond a + required width: a table
//     reaching that value decides the cell safe; an optimum U below it,
//     with L = a proven (step 1, or a = 0 <= every table), proves
//     U - L < required width: disclosed, on the engine's word (as the
//     certified method's "ip" proofs).
//
// It returns the cells still open (a solve stopped at its limit), the
// attained intervals widened, and the proven intervals of the cells found
// disclosed.
//
// limit is the time limit of each program (0: a fair share of the time
// left, at least wholeSolveLimit); proven is added to.
func (a *Auditor) decideWhole(ms *model.MarginSet, open []int, req []int64, found, proven map[int]searched, limit time.Duration, deadline time.Time) []int {
	if len(open) == 0 {
		return open
	}
	mip, err := cellbounds.NewTableMIP(a.opt.Solver)
	if err != nil || !mip.Capabilities().Integer {
		return open
	}
	nb, _ := newNeighbourhood(a.table, ms, model.Dims(ms.Vars), 0, -1)
	lpe, err := solvers.New(a.opt.Solver, false)
	if err != nil || !lpe.Capabilities().LP {
		lpe = nil
	}
	value := func(c int) searched {
		if f, ok := found[c]; ok {
			return f
		}
		return searched{a.table.Counts[c], a.table.Counts[c]}
	}
	isOpen := map[int]bool{}
	for _, c := range open {
		isOpen[c] = true
	}
	absorb := func(x []int64) {
		for c := range isOpen {
			f := value(c)
			found[c] = searched{min(f.lo, x[c]), max(f.hi, x[c])}
		}
	}
	var left []int
	failures := 0
	for i, c := range open {
		q := req[c]
		if f := value(c); a.reached(f) >= q {
			delete(isOpen, c) // decided by a table found for another cell
			continue
		}
		if time.Now().After(deadline) || (limit > 0 && failures >= wholeFirstFailures) {
			left = append(left, open[i:]...)
			break
		}
		if limit > 0 && lpe != nil {
			// First pass: only the cells whose LP relaxation leaves them
			// too narrow (likely disclosed; the integer program then
			// proves it at once). The others are likely safe.
			if v, ok := nb.lpMax(lpe, c, deadline); ok && v >= float64(a.base(value(c))+q)-1e-6 {
				left = append(left, c)
				continue
			}
		}
		limit := limit
		if limit == 0 {
			// A fair share of the time left, at least wholeSolveLimit.
			limit = max(wholeSolveLimit, time.Until(deadline)/time.Duration(len(open)-i))
		}
		// Upper ends only: the lower end is 0 whatever the tables
		// (upperOnly), nothing to minimize.
		lowerProven := a.upperOnly() || value(c).lo == 0
		if !lowerProven {
			x, optimal, ok := nb.moveAt(mip, c, -1, 0, deadline, limit)
			if ok {
				absorb(x)
				lowerProven = optimal
			}
		}
		f := value(c)
		if a.reached(f) < q {
			x, optimal, ok := nb.moveAt(mip, c, +1, a.base(f)+q, deadline, limit)
			if ok {
				absorb(x)
				if f = value(c); a.reached(f) < q && optimal && lowerProven {
					proven[c] = searched{a.base(f), x[c]}
				}
			}
		}
		failures++
		if f = value(c); a.reached(f) < q {
			if _, ok := proven[c]; !ok {
				left = append(left, c)
				continue
			}
		}
		failures = 0
		delete(isOpen, c)
	}
	return left
}

// lpMax is the LP relaxation's maximum of the cell of column at (ok false
// when the engine did not prove one).
func (nb *neighbourhood) lpMax(lpe solvers.Solver, at int, deadline time.Time) (float64, bool) {
	p := *nb.p
	p.Obj = make([]float64, len(nb.cells))
	p.Obj[at] = 1
	p.Sense = solvers.Maximize
	p.ColType = nil
	prm := solvers.DefaultParams()
	prm.TimeLimit, prm.Deadline = searchSolveLimit, deadline
	res, err := lpe.Solve(&p, prm)
	if err != nil || res.Status != solvers.Optimal {
		return 0, false
	}
	return res.Objective, true
}
