package audit

import (
	"math/rand/v2"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/fiber"
	"github.com/sdcopt/sdcopt/solvers"
)

// Chained slab search: a large-neighbourhood search for the cells the
// neighbourhood search (search.go) leaves open.
//
// A slab of cell c over a set F of variables is the set of cells that
// agree with c on every variable outside F (a sub-table through c,
// prod_{j in F} d_j cells). The program of search.go over a slab S,
// written for a table X with every released margin (not only the
// confidential table T),
//
//	for every released margin M and every cell m of M:
//	  sum of x_y over y in S projecting onto m = sum of X_y over the same y,
//	x_y >= 0 integer,
//
// keeps every margin of X (the cells outside S keep X's counts), so each
// solution is again a table with every margin. The search starts from
// X = T and maximizes (minimizes) c over the slab of a random F, replaces
// X by the table found and repeats with another F: the tables chain, and
// a later slab uses the counts an earlier one moved next to c. Moves
// that the ball of radius 3 around c does not hold are reached through a
// few slabs of 243 cells each, every program solved in milliseconds. On
// the 3^7 table with 3-way margins and mean 0.2, view of the 14th request
// of sequence 2 of sdcopt bench audit 3^7:3@0.2 (20 cells left open,
// measured 2026-11-26, TestChainReachesWhatTheBallCannot), the cells of
// count 1 whose radius-3 optimum is 2 reached 3 in 2-30 slabs of 5
// variables (0.01-0.5 s); the ball of radius 4 (939 columns) reached 3
// too but took 0.15-0.6 s per cell, radius 5 did not finish in 5 s, and
// CBC over the whole table took 6 s for one of them.
//
// Every table of the chain is checked exactly (moveAt: integer,
// non-negative, every row of the slab exact), so every value it attains
// is attained by an integer table with the view's margins; as the
// neighbourhood search, the chain only finds tables and never proves a
// disclosure. It is exact on pieces and collapsed tables for the reasons
// given for the neighbourhood search (search.go): the programs fix the
// marginal cells of the margin set the auditor decides on.

const (
	// chainSlabMaxCells bounds a slab's cells: free variables are drawn
	// at random while the slab stays within it (5 of the 3^7 table's
	// variables, 4 of the 4^5 table's).
	chainSlabMaxCells = 300
	// chainSteps bounds the slabs chained per cell and direction.
	chainSteps = 40
)

// chainOpen runs the chained slab search on the open cells until
// deadline, on searchWorkers engines at once, as searchOpen does: it
// returns the cells still open (in order) and the attained interval of
// every open cell known (from, widened by the chains' tables; from is
// not modified). seed seeds the slabs' draws (with the cell).
func (a *Auditor) chainOpen(ms *model.MarginSet, open []int, req []int64, from map[int]searched, seed uint64, deadline time.Time) ([]int, map[int]searched) {
	at := newAttained(a.table.Counts, from)
	current, absorb := at.value, at.absorb
	dims := model.Dims(ms.Vars)
	engines := a.searchEngines()
	if len(engines) == 0 {
		return open, map[int]searched{} // no integer engine: the bounds decide
	}
	forEachOpen(engines, open, deadline, func(mip solvers.Solver, c int) {
		q := req[c]
		count := a.table.Counts[c]
		if f := current(c); !a.upperOnly() && a.reached(f) < q && f.lo > max(0, count-q) {
			goal := max(0, count-q)
			chainMove(a.table, ms, dims, c, -1, goal, seed^uint64(c)<<1, deadline, mip, absorb)
		}
		if f := current(c); a.reached(f) < q {
			chainMove(a.table, ms, dims, c, +1, a.base(f)+q, seed^(uint64(c)<<1|1), deadline, mip, absorb)
		}
	})
	return at.split(a, open, req)
}

// chainMove chains slab programs from the confidential table t moving
// cell c down (dir -1, toward goal) or up (dir +1), at most chainSteps
// slabs or until the goal or the deadline, and passes every table found
// (the slab's cells and their counts) to absorb. It returns the last
// table of the chain (t's counts when nothing was found).
func chainMove(t *model.Table, ms *model.MarginSet, dims []int, c int, dir, goal int64, seed uint64, deadline time.Time, mip solvers.Solver, absorb func(cells []int, x []int64)) []int64 {
	ch := fiber.Chainer{MaxCells: chainSlabMaxCells, Steps: chainSteps, SolveLimit: searchSolveLimit}
	return ch.Move(t, ms, c, dir, goal, seed, deadline, mip, absorb)
}

// slab draws a slab of the cell of levels lv (fiber.Draw within
// chainSlabMaxCells). The cell itself comes first.
func slab(dims, lv []int, r *rand.Rand) []int {
	return fiber.Draw(dims, lv, chainSlabMaxCells, r)
}
