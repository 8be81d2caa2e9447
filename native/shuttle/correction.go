package shuttle

import (
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// Outcomes of one search of the correction step.
type outcome int

const (
	refuted    outcome = iota // the whole subtree holds no integer table
	found                     // an integer table was found
	outOfNodes                // the node budget ran out first
	stopped                   // the deadline passed or the memory budget ran out (searcher.stopped says which)
)

// searcher runs the correction step's searches on the root state st. Each
// search narrows one bound, explores with the trail recording, and undoes
// everything before returning, so st always holds the root bounds.
type searcher struct {
	r        *Result
	sys      *system
	st       *state
	guess    []int64 // value tried first for every full-table cell
	rf       *refitter
	targets  []int32 // T-cells whose bounds are certified
	certLo   []int64 // per target: least value over the tables found
	certHi   []int64 // per target: largest value over the tables found
	nodes    int64   // nodes of the current search
	maxNodes int64
	deadline time.Time
	// budget is the memory the search may use for the trail, the
	// re-fitted tables of the levels of the current dive and the tables
	// kept for Marginal; tableBudget is the part the kept tables may take.
	budget, tableBudget int64
	stopped             string // StoppedTimeLimit or StoppedMemoryLimit after a stopped outcome
}

// tableShare is the share of the search's memory budget that the integer
// tables kept for Result.Marginal may take; tables found beyond it still
// certify bounds but are not kept.
const tableShare = 8

// correct runs the correction step: it looks for integer tables attaining
// every bound of every target cell, moving a bound inward when the search
// proves it unattainable. budget is the memory it may use (the memory
// limit minus what the shuttle holds).
func (r *Result) correct(ms *model.MarginSet, st *state, opt *Options, budget int64) error {
	sys := r.sys
	s := &searcher{r: r, sys: sys, st: st, guess: ipfGuess(ms), rf: newRefitter(ms), maxNodes: opt.MaxNodes, deadline: opt.Deadline}
	s.targets = append(s.targets, sys.fullT...)
	nfull := len(sys.fullT)
	for _, sub := range opt.Marginals {
		dims := model.SubDims(sys.dims, sub)
		lv := make([]int, len(sub))
		for idx := 0; idx < model.NumCells(dims); idx++ {
			model.CellLevels(dims, idx, lv)
			s.targets = append(s.targets, sys.marginalCell(sub, lv))
		}
	}
	s.certLo = make([]int64, len(s.targets))
	s.certHi = make([]int64, len(s.targets))
	for j := range s.targets {
		s.certLo[j], s.certHi[j] = math.MaxInt64, math.MinInt64
	}
	// What the search holds for its whole run: the projections of the
	// margins (two copies: the first fit's and the refitter's), the guesses,
	// the certified extremes.
	n := int64(nfull)
	s.budget = budget - n*8*int64(len(ms.Margins)) - n*24 - int64(len(s.targets))*16
	s.tableBudget = s.budget / tableShare
	st.record = true

	// A first table: none at all means no integer table fits the margins.
	r.Searches++
	switch s.run(-1, 0, 0) {
	case refuted:
		return fmt.Errorf("%w: the margins are consistent and the shuttle bounds admit real tables, but an exhaustive search finds no integer table", ErrNoIntegerTable)
	case outOfNodes:
		r.finish(s, nfull, fmt.Sprintf("node budget (%d per search) exhausted before any integer table was found: these are the valid shuttle bounds, not proven sharp", s.maxNodes))
		return nil
	case stopped:
		r.Stopped = s.stopped
		r.finish(s, nfull, s.stopNote("before any integer table was found: these are the valid shuttle bounds, not proven sharp"))
		return nil
	}

	total := 2 * len(s.targets)
	done := 0
	if opt.Progress != nil {
		opt.Progress(done, total)
	}
	for j, t := range s.targets {
		for _, upper := range []bool{true, false} {
			for {
				var v int64
				if upper {
					v = st.hi[t]
					if s.certHi[j] >= v {
						break
					}
				} else {
					v = st.lo[t]
					if s.certLo[j] <= v {
						break
					}
				}
				r.Searches++
				out := s.run(t, v, v)
				if out == found {
					continue
				}
				if out == outOfNodes {
					r.Unsettled++
					break
				}
				if out == stopped {
					r.Stopped = s.stopped
					r.finish(s, nfull, s.stopNote(fmt.Sprintf("after %d of %d bound searches", done, total)))
					return nil
				}
				// Proven: no integer table has t = v. Move the bound inward
				// at the root; every table found so far stays inside.
				st.record = false
				if upper {
					st.set(t, st.lo[t], v-1)
				} else {
					st.set(t, v+1, st.hi[t])
				}
				bad := st.propagate()
				if bad >= 0 {
					panic("shuttle: root propagation failed after a refutation although an integer table is known")
				}
				st.record = true
				if bad == propStopped {
					// The inward move is proven; its consequences at the
					// root are only partly propagated: still valid bounds.
					r.Stopped = st.stopped
					s.stopped = st.stopped
					r.finish(s, nfull, s.stopNote(fmt.Sprintf("after %d of %d bound searches", done, total)))
					return nil
				}
			}
			done++
			if opt.Progress != nil {
				opt.Progress(done, total)
			}
		}
	}
	r.finish(s, nfull, "")
	return nil
}

// stopNote says why the correction step stopped and what that leaves.
func (s *searcher) stopNote(when string) string {
	why := "time limit reached"
	if s.stopped == StoppedMemoryLimit {
		why = fmt.Sprintf("memory limit reached (the search's trail and tables outgrew the %s left for it)", humanBytes(max(s.budget, 0)))
	}
	certified := 0
	for j, t := range s.targets {
		if s.certLo[j] == s.st.lo[t] {
			certified++
		}
		if s.certHi[j] == s.st.hi[t] {
			certified++
		}
	}
	return fmt.Sprintf("correction step stopped, %s, %s: %d of %d bounds certified by the %d integer tables found; every bound is valid",
		why, when, certified, 2*len(s.targets), s.r.Tables)
}

// run searches for an integer table with target cell t in [l, u] (t < 0:
// any table) and restores the root state before returning.
func (s *searcher) run(t int32, l, u int64) outcome {
	st := s.st
	s.nodes = 0
	mark := st.mark()
	out := refuted // when the propagation fails at once
	if !s.setTrailCap(0) {
		return stopped
	}
	if cap(st.trail) > st.maxTrail && len(st.trail) == 0 {
		st.trail = nil // grown when fewer tables were kept: regrow within the cap
	}
	if t >= 0 {
		if !st.room(1) {
			s.stopped = st.stopped
			return stopped
		}
		st.set(t, l, u)
	}
	switch bad := st.propagate(); bad {
	case propOK:
		fit := make([]float64, len(s.guess))
		for i, g := range s.guess {
			fit[i] = float64(g)
		}
		out = s.dfs(fit, 1)
	case propStopped:
		s.stopped = st.stopped
		out = stopped
	}
	st.undo(mark)
	s.r.Nodes += s.nodes
	return out
}

// setTrailCap gives the trail what the memory budget leaves after the
// re-fitted tables of depth levels (8 bytes a cell and bytesPerLevel each)
// and the tables kept; false (stopped) when nothing is left or the
// deadline has passed.
func (s *searcher) setTrailCap(depth int) bool {
	if pastDeadline(s.deadline) {
		s.stopped = StoppedTimeLimit
		return false
	}
	n := int64(len(s.guess))
	levels := int64(depth+1) * (8*n + bytesPerLevel)
	avail := s.budget - levels - int64(len(s.r.tables))*8*n
	maxTrail := avail / bytesPerTrailEntry
	if maxTrail < int64(len(s.st.trail))+1 {
		s.stopped = StoppedMemoryLimit
		return false
	}
	s.st.maxTrail = int(maxTrail)
	return true
}

// dfs assigns the full-table cells: it branches on the first unfixed cell in
// table order, with interval [l, u], first fixing it to its guess g, then
// on the ranges [l, g-1] and [g+1, u] (the smaller one first), propagating
// after every branch and backtracking on inconsistency. Ranges, rather
// than one branch per value, let the propagation refute many values at
// once. The guess is the nearest integer to the cell in a real table
// re-fitted at every node to the margins given the fixed cells (refitter).
//
// Table order, rather than the narrowest interval first: it closes the
// margin cells one after another, so the cells that the margins determine
// come last and are forced; on 2^8 with all three-way margins the
// narrowest-first order thrashed at depth 140-180 without finding a table
// in 20,000 nodes, table order found one at once.
func (s *searcher) dfs(parentFit []float64, depth int) outcome {
	st := s.st
	sys := s.sys
	best := -1
	for i, t := range sys.fullT {
		if st.hi[t] > st.lo[t] {
			best = i
			break
		}
	}
	if best < 0 {
		s.record()
		return found
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		return outOfNodes
	}
	if !s.setTrailCap(depth) {
		return stopped
	}
	s.nodes++
	fit := append([]float64(nil), parentFit...)
	s.rf.fit(fit, func(i int) int64 { return st.lo[sys.fullT[i]] }, func(i int) int64 { return st.hi[sys.fullT[i]] })
	t := sys.fullT[best]
	l, u := st.lo[t], st.hi[t]
	g := min(max(int64(math.Round(fit[best])), l), u)
	branches := [3][2]int64{{g, g}, {l, g - 1}, {g + 1, u}}
	if g-l > u-g {
		branches[1], branches[2] = branches[2], branches[1]
	}
	for _, br := range branches {
		if br[0] > br[1] {
			continue
		}
		mark := st.mark()
		if !st.room(1) {
			s.stopped = st.stopped
			return stopped
		}
		st.set(t, br[0], br[1])
		switch st.propagate() {
		case propOK:
			if out := s.dfs(fit, depth+1); out != refuted {
				return out
			}
		case propStopped:
			s.stopped = st.stopped
			return stopped
		}
		st.undo(mark)
	}
	return refuted
}

// record stores the integer table at a leaf (every T-cell is fixed there:
// each block that is not a singleton splits within its family, so the
// propagation determines every T-cell from the full-table cells), updates
// the certified extremes of every target, and makes the table the next
// guess (the next search starts from a known table).
func (s *searcher) record() {
	st := s.st
	tab := make([]int64, len(s.sys.fullT))
	for i, t := range s.sys.fullT {
		tab[i] = st.lo[t]
	}
	for j, t := range s.targets {
		if st.lo[t] != st.hi[t] {
			panic("shuttle: a T-cell is not determined by a complete table")
		}
		v := st.lo[t]
		s.certLo[j] = min(s.certLo[j], v)
		s.certHi[j] = max(s.certHi[j], v)
	}
	if int64(len(s.r.tables)+1)*8*int64(len(tab)) <= s.tableBudget {
		s.r.tables = append(s.r.tables, tab)
	}
	s.r.Tables++
	copy(s.guess, tab)
}

// finish stores the final bounds and what is certified.
func (r *Result) finish(s *searcher, nfull int, note string) {
	st := s.st
	st.record = false
	st.trail = nil
	r.Bounds = r.sys.fullBounds(st)
	r.lo = append([]int64(nil), st.lo...)
	r.hi = append([]int64(nil), st.hi...)
	r.LowerSharp = make([]bool, nfull)
	r.UpperSharp = make([]bool, nfull)
	r.Sharp = true
	for j, t := range s.targets {
		lok := s.certLo[j] == st.lo[t]
		hok := s.certHi[j] == st.hi[t]
		if j < nfull {
			r.LowerSharp[j], r.UpperSharp[j] = lok, hok
		}
		r.Sharp = r.Sharp && lok && hok
	}
	switch {
	case note != "":
		r.Note = note // a stop or a budget: Sharp says whether every bound was certified anyway
	case r.Sharp:
		r.Note = fmt.Sprintf("sharp integer bounds: each bound is attained by one of %d integer tables found", r.Tables)
	default:
		r.Note = fmt.Sprintf("%d bound(s) not proven sharp (node budget of %d per search exhausted); every bound is valid", r.Unsettled, s.maxNodes)
	}
}

// Marginal returns bounds for every cell of the marginal over the variables
// sub (positions, increasing; row-major over them), read from the final
// bounds of T: the T-cell with singletons on sub and full blocks elsewhere.
// They are always valid. sharp reports whether every one of them is
// certified by an integer table found by the correction step attaining it;
// list sub in Options.Marginals to have the correction step make them
// sharp. The check uses the tables the correction step kept, at most an
// eighth of its memory budget: beyond that, sharp may be false for bounds
// that are sharp. Marginal panics on an invalid sub.
func (r *Result) Marginal(sub []int) (b *model.CellBounds, sharp bool) {
	sys := r.sys
	checkSub(len(r.dims), sub)
	mdims := model.SubDims(r.dims, sub)
	n := model.NumCells(mdims)
	b = model.NewCellBounds(n)
	if sys == nil { // stopped before T was built: every cell lies in [0, N]
		for idx := range b.Upper {
			b.Upper[idx] = float64(r.total)
		}
		return b, false
	}
	lv := make([]int, len(sub))
	full := make([]int, len(sys.dims))
	for idx := 0; idx < n; idx++ {
		model.CellLevels(mdims, idx, lv)
		t := sys.marginalCell(sub, lv)
		b.Lower[idx], b.Upper[idx] = float64(r.lo[t]), float64(r.hi[t])
	}
	if len(r.tables) == 0 {
		return b, false
	}
	minv := make([]int64, n)
	maxv := make([]int64, n)
	for idx := range minv {
		minv[idx], maxv[idx] = math.MaxInt64, math.MinInt64
	}
	vals := make([]int64, n)
	for _, tab := range r.tables {
		clear(vals)
		for c, v := range tab {
			model.CellLevels(sys.dims, c, full)
			vals[model.Project(sys.dims, sub, full)] += v
		}
		for idx, v := range vals {
			minv[idx] = min(minv[idx], v)
			maxv[idx] = max(maxv[idx], v)
		}
	}
	sharp = true
	for idx := range vals {
		if float64(minv[idx]) != b.Lower[idx] || float64(maxv[idx]) != b.Upper[idx] {
			sharp = false
		}
	}
	return b, sharp
}
