package cellbounds

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/fiber"
	"github.com/sdcopt/sdcopt/solvers"
)

// The slab search for attained values (Gaps.Search): chained slab
// programs (package fiber) from a table with the margins, cell by cell,
// as the auditor's search for open cells. A slab of cell c frees a random
// set of variables (at most SearchSlabCells cells: 8 of 10 binary
// variables), and the integer program over it keeps every margin
// restricted to the slab while it minimizes (maximizes) c; the chain
// re-centres on each table found and draws the next slab. Every table of
// a chain is checked in exact integer arithmetic against every margin of
// the set (non-negative, every marginal count equal) before its values
// count as attained.
//
// Lower bounds first: every cell whose least attained value is above its
// proven lower bound is chained down toward it (SearchSteps slabs of at
// most SearchSlabCells cells from the table). Then, in rounds until the
// deadline, every cell whose largest attained value is below its proven
// upper bound is chained up toward it from the best table its chains have
// reached so far (the table first), SearchRoundSteps slabs per round:
// slabs of SearchSlabCells cells while a round raises its cells by one or
// more on average, then slabs of SearchWideSlabCells cells (solved by
// NewTableMIP's engine). Each round continues the chains, so the values
// rise with the time given. An upward
// chain keeps only tables that do not lower the cell (fiber.Chainer.Keep).
// The cells are handed out in batches of SearchWorkers, each chain seeded
// by the seed, the cell and the round, and the tables of a batch are
// absorbed in cell order after it: a run is deterministic for a seed as
// long as no program stops at its time limit and the deadline does not
// cut a batch.
//
// The sizes and engines, measured on a 2^10 binary table with counts
// uniform in 0..9 and all 3-way margins (the table of
// TestSlabSearchBinary; 2026-11-26, load about 4, a timing loop over 10
// cells, one slab each, not kept as a test): minimizing a cell over a
// slab of 64 cells takes lp_solve 11 ms and reaches what slabs of 128 and
// 256 cells reach (30 and 190 ms); maximizing it over 64 cells takes
// lp_solve 54 ms (CBC 19 ms) and raises it by 12 on average, over 128
// cells lp_solve 0.7 s (2 of 10 stopped at 2 s), CBC 0.24 s (all
// optimal) for 27; over 256 cells both mostly stop at 2 s. Chained, 15
// slabs of 64 cells raise a cell from its count (2-8) to 42-47 in 0.25 s,
// 15 of 128 cells (CBC) to 62-87 in 2-4 s.

// SearchSlabCells, SearchWideSlabCells, SearchSteps, SearchRoundSteps,
// SearchSolveLimit and SearchWorkers are the slab search's parameters
// (above).
const (
	SearchSlabCells     = 64
	SearchWideSlabCells = 128
	SearchSteps         = 16
	SearchRoundSteps    = 3
	SearchSolveLimit    = time.Second
	SearchWorkers       = 2
)

// SearchOptions configure Gaps.Search.
type SearchOptions struct {
	// Solver names the integer engine ("" or "auto": lp_solve when linked,
	// else NewTableMIP's engine).
	Solver string
	// Seed seeds the slabs' draws.
	Seed uint64
	// Deadline ends the search (zero: the lower phase and one upward
	// round only).
	Deadline time.Time
	// SlabCells and WideSlabCells bound the slabs' cells (0:
	// SearchSlabCells, SearchWideSlabCells).
	SlabCells, WideSlabCells int
	// OnTable, when set, receives every table the search found (each
	// checked against every margin), in the order absorbed; it must not
	// keep x past the call.
	OnTable func(x []int64)
}

// SearchEngine returns the integer engine of the slab search: for "" and
// "auto" lp_solve when it is linked (the slab programs are small, as the
// auditor's), else the engine of NewTableMIP, which must solve integer
// programs.
func SearchEngine(solver string) (solvers.Solver, error) {
	if solver == "" || solver == "auto" {
		if s, err := solvers.New("lpsolve", true); err == nil {
			return s, nil
		}
	}
	s, err := NewTableMIP(solver)
	if err != nil {
		return nil, err
	}
	if !s.Capabilities().Integer {
		return nil, fmt.Errorf("slab search: engine %s solves no integer programs: %w", s.Name(), solvers.ErrUnsupported)
	}
	return s, nil
}

// marginChecker checks tables against every margin of a set in exact
// integer arithmetic: proj[c*K+k] is the cell of margin k (of K) that
// table cell c projects onto.
type marginChecker struct {
	ms   *model.MarginSet
	proj []int32
}

func newMarginChecker(ms *model.MarginSet, dims []int) *marginChecker {
	n, k := model.NumCells(dims), len(ms.Margins)
	mc := &marginChecker{ms: ms, proj: make([]int32, n*k)}
	lv := make([]int, len(dims))
	for c := range n {
		model.CellLevels(dims, c, lv)
		for j, m := range ms.Margins {
			mc.proj[c*k+j] = int32(model.Project(dims, m.Vars, lv))
		}
	}
	return mc
}

// has reports whether counts is non-negative and has every margin.
func (mc *marginChecker) has(counts []int64) bool {
	k := len(mc.ms.Margins)
	if len(counts)*k != len(mc.proj) {
		return false
	}
	sums := make([][]int64, k)
	for j, m := range mc.ms.Margins {
		sums[j] = make([]int64, len(m.Counts))
	}
	for c, x := range counts {
		if x < 0 {
			return false
		}
		if x == 0 {
			continue
		}
		for j, p := range mc.proj[c*k : (c+1)*k] {
			sums[j][p] += x
		}
	}
	for j, m := range mc.ms.Margins {
		if !slices.Equal(sums[j], m.Counts) {
			return false
		}
	}
	return true
}

// chainResult is what one chain found: the tables (each checked), the
// cells' least and largest values over them, the tables that widened
// those beyond the attained values at the chain's start (the witnesses
// to record), and the last table.
type chainResult struct {
	tables int
	lo, hi []int64 // per cell of the table; nil when no table was found
	wider  [][]int64
	last   []int64
	all    [][]int64 // every table, with SearchOptions.OnTable
}

// Search widens the attained values by the slab search (see above) from
// t, an integer table with every margin of ms (checked: an error when it
// has not). It returns an error only for bad input or no integer engine;
// the search itself ends at opt.Deadline, with g.SearchStopped set when
// the deadline cut it.
func (g *Gaps) Search(t *model.Table, ms *model.MarginSet, opt SearchOptions) error {
	n := len(g.Gap)
	if len(t.Counts) != n || model.NumCells(model.Dims(ms.Vars)) != n {
		return fmt.Errorf("slab search: table of %d cells, bounds of %d", len(t.Counts), n)
	}
	dims := model.Dims(ms.Vars)
	check := newMarginChecker(ms, dims)
	if !check.has(t.Counts) {
		return fmt.Errorf("slab search: the table does not have the margins")
	}
	// One engine pair per worker: the small programs' (SearchEngine) and
	// the wide slabs' (NewTableMIP's when it solves integer programs).
	type pair struct{ small, wide solvers.Solver }
	var engines []pair
	for range SearchWorkers {
		small, err := SearchEngine(opt.Solver)
		if err != nil {
			if len(engines) > 0 {
				break
			}
			return err
		}
		wide := small
		if w, err := NewTableMIP(opt.Solver); err == nil && w.Capabilities().Integer {
			wide = w
		}
		engines = append(engines, pair{small, wide})
	}
	g.record(t.Counts) // the table itself, if CertifiedGaps did not have it
	slabCells, wideCells := opt.SlabCells, opt.WideSlabCells
	if slabCells <= 0 {
		slabCells = SearchSlabCells
	}
	if wideCells <= 0 {
		wideCells = SearchWideSlabCells
	}
	past := func() bool { return !opt.Deadline.IsZero() && time.Now().After(opt.Deadline) }
	table := &model.Table{Vars: t.Vars, Counts: t.Counts}

	// run chains cell c from start (dir, goal, steps) and returns what it
	// found; every table is checked against every margin.
	run := func(mip solvers.Solver, start []int64, c int, dir, goal int64, ch fiber.Chainer, seed uint64) chainResult {
		cur := slices.Clone(start)
		var res chainResult
		bad := false
		last := ch.Move(&model.Table{Vars: t.Vars, Counts: start}, ms, c, dir, goal, seed, opt.Deadline, mip, func(cells []int, y []int64) {
			for i, idx := range cells {
				cur[idx] = y[i]
			}
			if bad || !check.has(cur) {
				bad = true // never: the slab's rows are checked; be safe
				return
			}
			if res.lo == nil {
				// The attained values at the start (g is not written
				// while chains run).
				res.lo, res.hi = slices.Clone(g.AttainedLower), slices.Clone(g.AttainedUpper)
			}
			wider := false
			for i, idx := range cells {
				if y[i] < res.lo[idx] || y[i] > res.hi[idx] {
					wider = true
				}
				res.lo[idx], res.hi[idx] = min(res.lo[idx], y[i]), max(res.hi[idx], y[i])
			}
			if wider && (len(res.wider)+1)*len(cur) <= GapWitnessValues {
				// Kept to become a witness (Gaps.record); beyond the cap
				// of the witnesses, a table widens nothing.
				res.wider = append(res.wider, slices.Clone(cur))
			}
			res.tables++
			if opt.OnTable != nil {
				res.all = append(res.all, slices.Clone(cur))
			}
		})
		if !bad {
			res.last = last
		}
		return res
	}
	// batch runs the chains of cells (one per engine at once) and
	// absorbs their tables in cell order; after(c, res) sees each result.
	batch := func(cells []int, chain func(e pair, c int) chainResult, after func(c int, r chainResult)) {
		results := make([]chainResult, len(cells))
		var wg sync.WaitGroup
		for i, c := range cells {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = chain(engines[i], c)
			}()
		}
		wg.Wait()
		for i, c := range cells {
			r := results[i]
			g.SearchTables += r.tables
			for _, x := range r.all {
				opt.OnTable(x)
			}
			for _, w := range r.wider {
				g.Searched += g.record(w)
			}
			after(c, r)
		}
	}
	// each hands the cells that need(c) to batch, in order, until the
	// deadline.
	each := func(need func(c int) bool, chain func(e pair, c int) chainResult, after func(c int, r chainResult)) bool {
		var cells []int
		for c := 0; c < n; c++ {
			if past() {
				g.SearchStopped = true
				return false
			}
			if !need(c) {
				continue
			}
			cells = append(cells, c)
			if len(cells) == len(engines) {
				batch(cells, chain, after)
				cells = cells[:0]
			}
		}
		if len(cells) > 0 {
			batch(cells, chain, after)
		}
		return !past()
	}
	seedOf := func(c, round int, dir int64) uint64 {
		return opt.Seed ^ uint64(c)<<2 ^ uint64(round)<<32 ^ uint64(dir+1)
	}
	// Lower bounds.
	if !each(func(c int) bool { return g.AttainedLower[c] > g.lower[c] },
		func(e pair, c int) chainResult {
			ch := fiber.Chainer{MaxCells: slabCells, Steps: SearchSteps, SolveLimit: SearchSolveLimit}
			return run(e.small, table.Counts, c, -1, g.lower[c], ch, seedOf(c, 0, -1))
		}, func(int, chainResult) {}) {
		g.sum()
		return nil
	}
	// Upper bounds, in rounds from the best table of each cell's chains:
	// small slabs while a round raises its cells by one or more on
	// average, wide slabs from then on.
	best := map[int][]int64{}
	wide := false
	for round := 1; ; round++ {
		open, gain := 0, int64(0)
		ok := each(func(c int) bool { return g.AttainedUpper[c] < g.upper[c] },
			func(e pair, c int) chainResult {
				start := table.Counts
				if b, ok := best[c]; ok {
					start = b
				}
				ch, mip := fiber.Chainer{MaxCells: slabCells, Steps: SearchRoundSteps, SolveLimit: SearchSolveLimit, Keep: true}, e.small
				if wide {
					ch.MaxCells, mip = wideCells, e.wide
				}
				return run(mip, start, c, +1, g.upper[c], ch, seedOf(c, round, +1))
			}, func(c int, r chainResult) {
				open++
				if r.last == nil {
					return
				}
				from := table.Counts[c]
				if b, ok := best[c]; ok {
					from = b[c]
				}
				if r.last[c] >= from {
					best[c] = r.last
					gain += r.last[c] - from
				}
			})
		g.SearchRounds = round
		if !ok || open == 0 || opt.Deadline.IsZero() {
			break
		}
		if gain < int64(open) {
			wide = true
		}
	}
	g.sum()
	return nil
}
