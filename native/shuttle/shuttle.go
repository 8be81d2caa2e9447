package shuttle

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// ErrNoIntegerTable is wrapped by Bounds when the released margins admit no
// integer table: they disagree with each other (no real table either), the
// shuttle propagation finds a lower bound above an upper bound, or the
// correction step's exhaustive search finds no integer table.
var ErrNoIntegerTable = errors.New("shuttle: the margins admit no integer table")

// ErrTooLarge is wrapped by Bounds when the set T of the table would have
// more two-cell dependencies than Options.MaxDeps, or when T and the
// shuttle's state (Estimate's Memory.Shuttle) would take more memory than
// Options.MemoryLimit. Nothing large is allocated before the check.
var ErrTooLarge = errors.New("shuttle: table too large for the generalized shuttle")

// Values of Result.Stopped.
const (
	// StoppedTimeLimit: Options.Deadline passed before Bounds was done.
	StoppedTimeLimit = "time_limit"
	// StoppedMemoryLimit: the correction step was skipped, or a search was
	// cut short, to stay within Options.MemoryLimit.
	StoppedMemoryLimit = "memory_limit"
)

// Defaults of Options.
const (
	// DefaultAllSubsetsMax: variables with at most this many categories use
	// every nonempty subset of categories as a block (2^c - 1 blocks).
	DefaultAllSubsetsMax = 4
	// DefaultMaxDeps caps the number of two-cell dependencies (each costs
	// 24 bytes with its adjacency entries).
	DefaultMaxDeps = 30_000_000
)

// Options tune Bounds. A nil *Options means DefaultOptions(). Note that the
// zero Options has Correct false: start from DefaultOptions() and change
// fields.
type Options struct {
	// Correct runs the correction step that makes every bound sharp
	// (default true).
	Correct bool
	// MaxNodes is the node budget of each search of the correction step
	// (one search tries to attain one bound of one cell); 0 means
	// unlimited (default 0). A bound whose search runs out of nodes keeps
	// its valid, possibly not sharp, value and Result.Sharp is false.
	MaxNodes int64
	// Marginals lists marginals (variable positions, increasing) whose cells
	// the correction step also makes sharp, so that Result.Marginal reports
	// certified bounds for them (default none).
	Marginals [][]int
	// AllSubsetsMax: variables with at most this many categories use all
	// subsets as blocks, larger ones intervals plus singleton complements
	// (default DefaultAllSubsetsMax; 0 means the default).
	AllSubsetsMax int
	// MaxDeps caps the number of two-cell dependencies (default
	// DefaultMaxDeps; 0 means the default).
	MaxDeps int
	// MemoryLimit bounds the memory of Bounds, in bytes (default 0 =
	// DefaultMemoryLimit(), half of the physical memory). T, its
	// dependencies and the propagation state (Estimate's Memory.Shuttle)
	// must fit, else Bounds returns ErrTooLarge; the correction step runs
	// only when its worst case (Memory.Correction) fits in the rest, and a
	// search that outgrows the rest anyway stops, leaving valid bounds
	// (Result.Stopped = StoppedMemoryLimit).
	MemoryLimit int64
	// Deadline, when not zero, stops Bounds when it passes: building T, the
	// propagation and every search check it (the propagation every few
	// thousand dependency evaluations, the search at every node). The
	// result then holds the bounds known at that moment, which are valid
	// (Result.Stopped = StoppedTimeLimit). Default: no deadline.
	Deadline time.Time
	// Initial, when set, holds valid bounds of every cell of the full
	// table known beforehand, e.g. the bounds given a subset of these
	// margins (a release auditor's previous decision: adding margins only
	// narrows the bounds). The propagation starts from them instead of
	// [0, grand total]; bounds that are not valid give wrong results or
	// ErrNoIntegerTable. Default none.
	Initial *model.CellBounds
	// Progress, when set, is called when the correction step starts (0
	// done) and after every bound search with the number of bounds settled
	// and the total. After a stop the last call may have done < total.
	Progress func(done, total int)
}

func (o *Options) allSubsetsMax() int {
	if o.AllSubsetsMax <= 0 {
		return DefaultAllSubsetsMax
	}
	return o.AllSubsetsMax
}

func (o *Options) memoryLimit() int64 {
	if o.MemoryLimit <= 0 {
		return DefaultMemoryLimit()
	}
	return o.MemoryLimit
}

// DefaultOptions returns the defaults: correction on, no node limit.
func DefaultOptions() *Options {
	return &Options{Correct: true}
}

// Result holds the bounds for every cell of the full table.
type Result struct {
	// Bounds are the final bounds: corrected (sharp where certified) when
	// Options.Correct, else the shuttle bounds.
	Bounds *model.CellBounds
	// ShuttleBounds are the bounds of the generalized shuttle alone, before
	// the correction step.
	ShuttleBounds *model.CellBounds
	// Sharp is true when the correction step certified every bound of
	// every full-table cell (and of every cell of Options.Marginals) by an
	// integer table attaining it.
	Sharp bool
	// LowerSharp and UpperSharp tell, per full-table cell, whether that
	// bound is certified by an integer table attaining it.
	LowerSharp, UpperSharp []bool
	// Note explains what is and is not proven, in one sentence.
	Note string
	// Stopped is "" when Bounds did all it was asked, StoppedTimeLimit when
	// Options.Deadline passed first, StoppedMemoryLimit when the
	// correction step was skipped or cut short by Options.MemoryLimit.
	// Either way every bound is valid and Sharp is false unless every bound
	// was certified before the stop.
	Stopped string

	// Statistics.
	Families       []string // block family of every variable
	Blocks         []int    // number of blocks of every variable
	TCells         int      // |T|, the product of Blocks
	Deps           int      // two-cell dependencies t12 = t1 + t2
	DepEvals       int64    // dependency evaluations of the shuttle propagation
	Nodes          int64    // search nodes of the correction step
	Searches       int      // bound searches run (the rest were certified by earlier tables)
	Tables         int      // integer tables found
	Unsettled      int      // bounds left uncertified (node budget)
	Seconds        float64  // total time
	ShuttleSeconds float64  // time to build T and propagate

	sys    *system
	lo, hi []int64   // final bounds of every T-cell
	tables [][]int64 // integer tables found (full-table cells), as memory allows
	dims   []int
	total  int64 // the grand total N
}

// Bounds computes bounds for every cell of the table over ms.Vars given
// the released marginals ms.Margins, by the generalized shuttle algorithm
// and, when opt.Correct, its correction step (Dobra and Fienberg, Section
// 4). Errors: the margin set fails ms.Check (shape or negative counts: a
// plain error; disagreeing margins: wraps ErrNoIntegerTable and the
// *model.InconsistencyError), no margin is released, the margins admit no
// integer table (ErrNoIntegerTable), or T is too large (ErrTooLarge: more
// dependencies than Options.MaxDeps, or more memory than
// Options.MemoryLimit). A passed Options.Deadline or a correction step too
// large for the memory limit is not an error: the result holds valid
// bounds and says why it stopped (Result.Stopped). It panics on a nil ms
// and on invalid Options.Marginals.
func Bounds(ms *model.MarginSet, opt *Options) (*Result, error) {
	start := time.Now()
	if opt == nil {
		opt = DefaultOptions()
	}
	if err := ms.Check(); err != nil {
		var inc *model.InconsistencyError
		if errors.As(err, &inc) {
			return nil, fmt.Errorf("%w: %w", ErrNoIntegerTable, err)
		}
		return nil, err
	}
	if len(ms.Margins) == 0 {
		return nil, errors.New("shuttle: no marginal released (the grand total is unknown)")
	}
	r, st, budget, err := prepare(ms, opt, start)
	if err != nil {
		return nil, err
	}
	if st == nil { // stopped before T was built
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	}
	sys := r.sys
	mem := estimate(r.dims, ms.Margins, opt.allSubsetsMax(), len(opt.Marginals) > 0)
	switch {
	case r.Stopped != "":
		r.Note = "time limit reached during the shuttle propagation: valid bounds, not proven sharp"
	case !opt.Correct:
		r.Note = "generalized shuttle bounds without the correction step: valid, not proven sharp"
	case mem.Correction > budget:
		r.Stopped = StoppedMemoryLimit
		r.Note = fmt.Sprintf("correction step skipped: its search may need up to %s (%d levels of up to %d T-cells each), "+
			"more than the %s left of the memory limit; valid shuttle bounds, not proven sharp",
			humanBytes(mem.Correction), len(sys.fullT), sys.size, humanBytes(max(budget, 0)))
	default:
		if err := r.correct(ms, st, opt, budget); err != nil {
			return nil, err
		}
		sys.release()
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	}
	r.Bounds = r.ShuttleBounds
	r.LowerSharp = make([]bool, len(sys.fullT))
	r.UpperSharp = make([]bool, len(sys.fullT))
	r.lo, r.hi = st.lo, st.hi
	sys.release()
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// prepare does what Bounds does before the correction step: it checks the
// memory estimate against the limit, builds T and runs the shuttle. It
// returns the result so far (ShuttleBounds; Stopped when the deadline
// passed during the propagation), the propagated state (nil when the
// deadline passed before T was built: the result then holds the trivial
// bounds) and the memory left for the correction step.
func prepare(ms *model.MarginSet, opt *Options, start time.Time) (r *Result, st *state, budget int64, err error) {
	dims := model.Dims(ms.Vars)
	for _, sub := range opt.Marginals {
		checkSub(len(dims), sub)
	}
	allMax := opt.allSubsetsMax()
	maxDeps := opt.MaxDeps
	if maxDeps <= 0 {
		maxDeps = DefaultMaxDeps
	}
	limit := opt.memoryLimit()
	mem := estimate(dims, ms.Margins, allMax, len(opt.Marginals) > 0)
	if mem.Shuttle > limit {
		return nil, nil, 0, fmt.Errorf("%w: T (|T| = %d, %d dependencies) needs about %s, more than the memory limit of %s",
			ErrTooLarge, mem.TCells, mem.Deps, humanBytes(mem.Shuttle), humanBytes(limit))
	}
	n := marginTotal(ms.Margins[0])
	r = &Result{dims: dims, total: n}
	sys, err := newSystem(dims, allMax, maxDeps, opt.Deadline)
	if errors.Is(err, errDeadline) {
		r.stopEarly(ms, StoppedTimeLimit, "time limit reached while building T: trivial bounds [0, smallest margin cell], not proven sharp")
		return r, nil, 0, nil
	}
	if err != nil {
		return nil, nil, 0, err
	}
	r.sys, r.TCells, r.Deps = sys, sys.size, len(sys.d12)
	for _, f := range sys.fams {
		r.Families = append(r.Families, f.kind)
		r.Blocks = append(r.Blocks, len(f.blocks))
	}

	st = sys.newState()
	st.deadline = opt.Deadline
	for t := range st.lo {
		st.hi[t] = n
	}
	for _, m := range ms.Margins {
		mdims := model.SubDims(dims, m.Vars)
		lv := make([]int, len(m.Vars))
		for idx, c := range m.Counts {
			model.CellLevels(mdims, idx, lv)
			t := sys.marginalCell(m.Vars, lv)
			if c < st.lo[t] || c > st.hi[t] {
				return nil, nil, 0, fmt.Errorf("%w: marginal %s cell %s = %d is outside [%d, %d]", ErrNoIntegerTable,
					model.MarginalName(ms.Vars, m.Vars), sys.label(ms.Vars, t), c, st.lo[t], st.hi[t])
			}
			st.set(t, c, c)
		}
	}
	if in := opt.Initial; in != nil {
		if len(in.Lower) != len(sys.fullT) || len(in.Upper) != len(sys.fullT) {
			return nil, nil, 0, fmt.Errorf("shuttle: Options.Initial has %d bounds for %d cells", len(in.Lower), len(sys.fullT))
		}
		for i, t := range sys.fullT {
			lo, hi := max(st.lo[t], int64(math.Ceil(in.Lower[i]-1e-9))), min(st.hi[t], int64(math.Floor(in.Upper[i]+1e-9)))
			if lo > hi {
				return nil, nil, 0, fmt.Errorf("%w: the initial bounds of %s [%g, %g] leave no value",
					ErrNoIntegerTable, sys.label(ms.Vars, t), in.Lower[i], in.Upper[i])
			}
			if lo != st.lo[t] || hi != st.hi[t] {
				st.set(t, lo, hi)
			}
		}
	}
	bad := st.propagate()
	if bad >= 0 {
		return nil, nil, 0, fmt.Errorf("%w: the shuttle propagation finds no value for %s (lower bound above upper bound)",
			ErrNoIntegerTable, sys.label(ms.Vars, bad))
	}
	if bad == propStopped {
		r.Stopped = st.stopped
	}
	r.DepEvals = st.evals
	r.ShuttleBounds = sys.fullBounds(st)
	r.ShuttleSeconds = time.Since(start).Seconds()
	return r, st, limit - mem.Shuttle, nil
}

// stopEarly fills a result for a run stopped before T was built: the
// trivial bounds, nothing certified.
func (r *Result) stopEarly(ms *model.MarginSet, why, note string) {
	r.Bounds = trivialBounds(r.dims, ms.Margins)
	r.ShuttleBounds = r.Bounds
	r.LowerSharp = make([]bool, len(r.Bounds.Lower))
	r.UpperSharp = make([]bool, len(r.Bounds.Lower))
	r.Stopped, r.Note = why, note
}

func checkSub(k int, sub []int) {
	for i, j := range sub {
		if j < 0 || j >= k || (i > 0 && sub[i-1] >= j) {
			panic(fmt.Sprintf("shuttle: marginal %v: variable positions must be distinct, increasing and in [0, %d)", sub, k))
		}
	}
}

func marginTotal(m *model.Marginal) int64 {
	var s int64
	for _, c := range m.Counts {
		s += c
	}
	return s
}
