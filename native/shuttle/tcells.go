package shuttle

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// system is the set T of cells of all (block-family) dichotomizations of all
// collapses of the table, with its two-cell dependencies. A T-cell is a
// mixed-radix index over the block ids of every variable (first variable
// slowest, as model.Table).
type system struct {
	dims   []int
	fams   []*family
	stride []int
	size   int
	// The dependencies t12 = t1 + t2, as three parallel arrays.
	d1, d2, d12 []int32
	// adj lists, in CSR form, the dependencies each T-cell takes part in.
	adjStart []int32
	adj      []int32
	// fullT is the T-cell of every cell of the full table (singletons on
	// every variable), in model.Table order.
	fullT []int32
}

// errDeadline is returned by newSystem when the deadline passes while T
// is built.
var errDeadline = errors.New("shuttle: deadline passed")

// newSystem builds T and its dependencies. It returns ErrTooLarge when T
// has more than 2^31 - 1 cells or more than maxDeps dependencies, and
// errDeadline when deadline (if not zero) passes before it is done.
func newSystem(dims []int, allMax, maxDeps int, deadline time.Time) (*system, error) {
	k := len(dims)
	sys := &system{dims: dims, fams: make([]*family, k), stride: make([]int, k), size: 1}
	for i := k - 1; i >= 0; i-- {
		sys.fams[i] = newFamily(dims[i], allMax)
		sys.stride[i] = sys.size
		nb := len(sys.fams[i].blocks)
		if sys.size > (1<<31-1)/nb {
			return nil, fmt.Errorf("%w: |T| exceeds 2^31", ErrTooLarge)
		}
		sys.size *= nb
	}
	ndeps := 0
	for i, f := range sys.fams {
		ndeps += len(f.triples) * (sys.size / len(f.blocks))
		if ndeps > maxDeps {
			return nil, fmt.Errorf("%w: more than %d two-cell dependencies (|T| = %d, variable %d has %d blocks)",
				ErrTooLarge, maxDeps, sys.size, i, len(f.blocks))
		}
	}
	sys.d1 = make([]int32, 0, ndeps)
	sys.d2 = make([]int32, 0, ndeps)
	sys.d12 = make([]int32, 0, ndeps)
	for i, f := range sys.fams {
		if pastDeadline(deadline) {
			return nil, errDeadline
		}
		nb := len(f.blocks)
		st := sys.stride[i]
		for outer := 0; outer < sys.size; outer += st * nb {
			for inner := 0; inner < st; inner++ {
				base := outer + inner // block 0 on variable i
				for _, tr := range f.triples {
					sys.d1 = append(sys.d1, int32(base+int(tr[0])*st))
					sys.d2 = append(sys.d2, int32(base+int(tr[1])*st))
					sys.d12 = append(sys.d12, int32(base+int(tr[2])*st))
				}
			}
		}
	}
	// CSR adjacency: every dependency appears in the lists of its 3 cells.
	sys.adjStart = make([]int32, sys.size+1)
	for d := range sys.d12 {
		sys.adjStart[sys.d1[d]+1]++
		sys.adjStart[sys.d2[d]+1]++
		sys.adjStart[sys.d12[d]+1]++
	}
	for t := 0; t < sys.size; t++ {
		sys.adjStart[t+1] += sys.adjStart[t]
	}
	if pastDeadline(deadline) {
		return nil, errDeadline
	}
	sys.adj = make([]int32, 3*len(sys.d12))
	fill := append([]int32(nil), sys.adjStart[:sys.size]...)
	for d := range sys.d12 {
		for _, t := range [3]int32{sys.d1[d], sys.d2[d], sys.d12[d]} {
			sys.adj[fill[t]] = int32(d)
			fill[t]++
		}
	}
	n := model.NumCells(dims)
	sys.fullT = make([]int32, n)
	lv := make([]int, k)
	all := make([]int, k)
	for i := range all {
		all[i] = i
	}
	for idx := 0; idx < n; idx++ {
		model.CellLevels(dims, idx, lv)
		sys.fullT[idx] = sys.marginalCell(all, lv)
	}
	return sys, nil
}

// release drops the dependency arrays once no propagation is left to do
// (a Result keeps the system only to map marginal cells to T-cells).
func (sys *system) release() {
	sys.d1, sys.d2, sys.d12, sys.adjStart, sys.adj = nil, nil, nil, nil, nil
}

// marginalCell returns the T-cell of the cell lv of the marginal over the
// variables sub: singletons on sub, full blocks elsewhere.
func (sys *system) marginalCell(sub, lv []int) int32 {
	t := 0
	j := 0
	for i, f := range sys.fams {
		b := f.full
		if j < len(sub) && sub[j] == i {
			b = f.single[lv[j]]
			j++
		}
		t += int(b) * sys.stride[i]
	}
	return int32(t)
}

// label names a T-cell, e.g. "A=no,C∈{x,y}" (collapsed variables omitted).
func (sys *system) label(vars []model.Variable, t int32) string {
	var parts []string
	rest := int(t)
	for i, f := range sys.fams {
		b := rest / sys.stride[i]
		rest %= sys.stride[i]
		if int32(b) == f.full {
			continue
		}
		blk := f.blocks[b]
		if len(blk) == 1 {
			parts = append(parts, vars[i].Name+"="+vars[i].Levels[blk[0]])
			continue
		}
		ls := make([]string, len(blk))
		for j, l := range blk {
			ls[j] = vars[i].Levels[l]
		}
		parts = append(parts, vars[i].Name+"∈{"+strings.Join(ls, ",")+"}")
	}
	if len(parts) == 0 {
		return "the grand total"
	}
	return strings.Join(parts, ",")
}

// fullBounds extracts the bounds of the full-table cells.
func (sys *system) fullBounds(st *state) *model.CellBounds {
	b := model.NewCellBounds(len(sys.fullT))
	for i, t := range sys.fullT {
		b.Lower[i] = float64(st.lo[t])
		b.Upper[i] = float64(st.hi[t])
	}
	return b
}

// state holds integer bounds [lo, hi] for every T-cell and propagates the
// two-cell rules with a worklist. When record is set, every change is
// pushed on the trail so that a search can undo it: a T-cell at most once
// per trail segment (between two marks), so that a segment holds at most
// |T| entries.
type state struct {
	sys    *system
	lo, hi []int64
	// queue is a ring buffer of the cells to propagate; inq keeps a cell
	// from being in it twice, so it never holds more than |T| cells.
	queue       []int32
	qhead, qlen int
	inq         []bool
	trail       []change
	record      bool
	evals       int64
	// stamp[t] == epoch when t is on the trail of the current segment.
	stamp []uint32
	epoch uint32
	// maxTrail caps the capacity of the trail (the memory budget of the
	// search, set by the searcher); 0 means no cap.
	maxTrail int
	// deadline (zero: none) stops the propagation; stopped says why the
	// last propagation stopped early (StoppedTimeLimit or
	// StoppedMemoryLimit).
	deadline time.Time
	stopped  string
}

type change struct {
	t      int32
	lo, hi int64
}

func (sys *system) newState() *state {
	return &state{sys: sys, lo: make([]int64, sys.size), hi: make([]int64, sys.size), inq: make([]bool, sys.size),
		queue: make([]int32, sys.size), stamp: make([]uint32, sys.size), epoch: 1}
}

// set narrows the bounds of t to [l, u] (the caller checks l <= u and that
// this is a narrowing, and, when recording, that the trail has room: see
// room) and queues t.
func (s *state) set(t int32, l, u int64) {
	if s.record && s.stamp[t] != s.epoch {
		s.stamp[t] = s.epoch
		s.trail = append(s.trail, change{t, s.lo[t], s.hi[t]})
	}
	s.lo[t], s.hi[t] = l, u
	if !s.inq[t] {
		s.inq[t] = true
		i := s.qhead + s.qlen
		if i >= len(s.queue) {
			i -= len(s.queue)
		}
		s.queue[i] = t
		s.qlen++
	}
}

// room makes sure that k more changes can be recorded on the trail
// without exceeding maxTrail, growing it by doubling; false (and stopped =
// StoppedMemoryLimit) when the cap does not allow it.
func (s *state) room(k int) bool {
	if !s.record || cap(s.trail)-len(s.trail) >= k {
		return true
	}
	need := len(s.trail) + k
	c := max(2*cap(s.trail), 1024, need)
	if s.maxTrail > 0 {
		c = min(c, s.maxTrail)
	}
	if c < need {
		s.stopped = StoppedMemoryLimit
		return false
	}
	t := make([]change, len(s.trail), c)
	copy(t, s.trail)
	s.trail = t
	return true
}

// mark starts a new trail segment and returns its start for undo.
func (s *state) mark() int {
	s.epoch++
	if s.epoch == 0 { // wrapped: forget every stamp (it only costs duplicates)
		clear(s.stamp)
		s.epoch = 1
	}
	return len(s.trail)
}

// undo restores the bounds recorded after trail position mark.
func (s *state) undo(mark int) {
	for i := len(s.trail) - 1; i >= mark; i-- {
		c := s.trail[i]
		s.lo[c.t], s.hi[c.t] = c.lo, c.hi
	}
	s.trail = s.trail[:mark]
}

// deadlineCheckEvals is how many dependency evaluations the propagation
// runs between two looks at the clock (a few hundred microseconds).
const deadlineCheckEvals = 1 << 12

func pastDeadline(d time.Time) bool { return !d.IsZero() && !time.Now().Before(d) }

// Results of propagate besides a T-cell whose bounds crossed.
const (
	propOK      = -1 // a fixpoint was reached
	propStopped = -2 // the deadline passed or the trail is full: s.stopped says which
)

// propagate applies the two-cell rules
//
//	t12 ∈ [t1L + t2L, t1U + t2U],  t1 ∈ [t12L - t2U, t12U - t2L]  (and t2 alike)
//
// to every dependency of a queued cell until nothing moves. It returns
// propOK, a T-cell whose lower bound exceeds its upper bound (no table fits
// the bounds), or propStopped when the deadline passed or the trail reached
// maxTrail first (s.stopped says which; the bounds are then valid but not a
// fixpoint, and with record on every change is on the trail). The queue is
// empty afterwards in every case.
func (s *state) propagate() int32 {
	sys := s.sys
	lo, hi := s.lo, s.hi
	s.stopped = ""
	if pastDeadline(s.deadline) {
		s.stopped = StoppedTimeLimit
		s.clearQueue()
		return propStopped
	}
	for s.qlen > 0 {
		t := s.queue[s.qhead]
		s.qhead++
		if s.qhead == len(s.queue) {
			s.qhead = 0
		}
		s.qlen--
		s.inq[t] = false
		for _, d := range sys.adj[sys.adjStart[t]:sys.adjStart[t+1]] {
			s.evals++
			if s.evals%deadlineCheckEvals == 0 && pastDeadline(s.deadline) {
				s.stopped = StoppedTimeLimit
				s.clearQueue()
				return propStopped
			}
			if s.record && cap(s.trail)-len(s.trail) < 3 && !s.room(3) {
				s.clearQueue()
				return propStopped
			}
			a, b, c := sys.d1[d], sys.d2[d], sys.d12[d]
			la, ua, lb, ub, lc, uc := lo[a], hi[a], lo[b], hi[b], lo[c], hi[c]
			nlc, nuc := max(lc, la+lb), min(uc, ua+ub)
			nla, nua := max(la, nlc-ub), min(ua, nuc-lb)
			nlb, nub := max(lb, nlc-nua), min(ub, nuc-nla)
			bad := int32(-1)
			switch {
			case nlc > nuc:
				bad = c
			case nla > nua:
				bad = a
			case nlb > nub:
				bad = b
			}
			if bad >= 0 {
				s.clearQueue()
				return bad
			}
			if nlc != lc || nuc != uc {
				s.set(c, nlc, nuc)
			}
			if nla != la || nua != ua {
				s.set(a, nla, nua)
			}
			if nlb != lb || nub != ub {
				s.set(b, nlb, nub)
			}
		}
	}
	s.qhead = 0
	return propOK
}

func (s *state) clearQueue() {
	for ; s.qlen > 0; s.qlen-- {
		s.inq[s.queue[s.qhead]] = false
		s.qhead++
		if s.qhead == len(s.queue) {
			s.qhead = 0
		}
	}
	s.qhead = 0
}
