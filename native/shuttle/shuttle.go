package shuttle

import (
	"errors"
	"fmt"
	"time"

	"sdcopt/model"
)

// ErrNoIntegerTable is wrapped by Bounds when the released margins admit no
// integer table: they disagree with each other (no real table either), the
// shuttle propagation finds a lower bound above an upper bound, or the
// correction step's exhaustive search finds no integer table.
var ErrNoIntegerTable = errors.New("shuttle: the margins admit no integer table")

// ErrTooLarge is wrapped by Bounds when the set T of the table would have
// more two-cell dependencies than Options.MaxDeps.
var ErrTooLarge = errors.New("shuttle: table too large for the generalized shuttle")

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
	// Progress, when set, is called after every bound search of the
	// correction step with the number of bounds settled and the total.
	Progress func(done, total int)
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
	tables [][]int64 // integer tables found (full-table cells)
}

// Bounds computes bounds for every cell of the table over ms.Vars given
// the released marginals ms.Margins, by the generalized shuttle algorithm
// and, when opt.Correct, its correction step (Dobra and Fienberg, Section
// 4). Errors: the margin set fails ms.Check (shape or negative counts: a
// plain error; disagreeing margins: wraps ErrNoIntegerTable and the
// *model.InconsistencyError), no margin is released, the margins admit no
// integer table (ErrNoIntegerTable), or T is too large (ErrTooLarge). It
// panics on a nil ms and on invalid Options.Marginals.
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
	dims := model.Dims(ms.Vars)
	for _, sub := range opt.Marginals {
		checkSub(len(dims), sub)
	}
	allMax := opt.AllSubsetsMax
	if allMax <= 0 {
		allMax = DefaultAllSubsetsMax
	}
	maxDeps := opt.MaxDeps
	if maxDeps <= 0 {
		maxDeps = DefaultMaxDeps
	}
	sys, err := newSystem(dims, allMax, maxDeps)
	if err != nil {
		return nil, err
	}
	r := &Result{sys: sys, TCells: sys.size, Deps: len(sys.d12)}
	for _, f := range sys.fams {
		r.Families = append(r.Families, f.kind)
		r.Blocks = append(r.Blocks, len(f.blocks))
	}

	st := sys.newState()
	n := marginTotal(ms.Margins[0])
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
				return nil, fmt.Errorf("%w: marginal %s cell %s = %d is outside [%d, %d]", ErrNoIntegerTable,
					model.MarginalName(ms.Vars, m.Vars), sys.label(ms.Vars, t), c, st.lo[t], st.hi[t])
			}
			st.set(t, c, c)
		}
	}
	if bad := st.propagate(); bad >= 0 {
		return nil, fmt.Errorf("%w: the shuttle propagation finds no value for %s (lower bound above upper bound)",
			ErrNoIntegerTable, sys.label(ms.Vars, bad))
	}
	r.DepEvals = st.evals
	r.ShuttleBounds = sys.fullBounds(st)
	r.ShuttleSeconds = time.Since(start).Seconds()

	if !opt.Correct {
		r.Bounds = r.ShuttleBounds
		r.LowerSharp = make([]bool, len(sys.fullT))
		r.UpperSharp = make([]bool, len(sys.fullT))
		r.lo, r.hi = st.lo, st.hi
		r.Note = "generalized shuttle bounds without the correction step: valid, not proven sharp"
		sys.release()
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	}
	if err := r.correct(ms, st, opt); err != nil {
		return nil, err
	}
	sys.release()
	r.Seconds = time.Since(start).Seconds()
	return r, nil
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
