package lp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// ErrInfeasible is wrapped by the errors of CellBounds when the margins
// are inconsistent or admit no non-negative table (the polytope Q is
// empty).
var ErrInfeasible = errors.New("lp: the margins admit no non-negative table")

// ErrNotSolved is wrapped when an engine failed on a bound: numerical
// trouble, a status it could not classify, an unbounded minimum. An engine
// that stops on a limit (Params.TimeLimit, Options.Deadline, an iteration
// or node limit) is not an error: the bound is then the engine's dual
// bound rounded inward (integer solves) or the trivial bound, and is
// counted in Stats.Unproven.
var ErrNotSolved = errors.New("lp: a bound was not proven")

// ErrTooLarge is wrapped by Solve when CellBoundsMemory exceeds
// Options.MemoryLimit; nothing is built or loaded then.
var ErrTooLarge = errors.New("lp: model too large for the memory limit")

// snapTol is the distance to the nearest integer below which an LP bound
// is reported as that integer (engine round-off on integral vertices).
const snapTol = 1e-7

// intTol is the slack when rounding a MIP's dual bound to an integer
// bound: an objective of whole numbers whose best bound is 312.0000004 is
// at most 312.
const intTol = 1e-6

// Options select what to bound and how. A nil *Options means defaults.
type Options struct {
	// Marginal, when non-nil, asks for bounds on the cells of the marginal
	// over these variable positions (increasing) instead of the cells of
	// the full table: the objective is the sum of the full-table cells
	// projecting to a marginal cell. Default nil: full-table cells.
	Marginal []int
	// Cells restricts the solves to these targets (indices of full-table
	// cells, or of marginal cells with Marginal). Default nil: every one.
	// The bounds of other targets are NaN in the result.
	Cells []int
	// Progress, when non-nil, is called after each target with the number
	// done and the total.
	Progress func(done, total int)
	// Cold re-solves every LP from scratch (a reloading session) instead of
	// warm-starting in one engine session; for benchmarks.
	Cold bool
	// Stats, when non-nil, receives counts about the run.
	Stats *Stats
	// MemoryLimit, when positive, is the most bytes the run may take by
	// CellBoundsMemory's estimate; a larger model is refused with
	// ErrTooLarge before anything is built. Default 0: no check.
	MemoryLimit int64
	// Deadline, when not zero, ends the run: every solve gets at most the
	// time left (its engine time limit is the smaller of Params.TimeLimit
	// and the time left, to within max(MinDeadlineSlack, 5% of the time
	// left at the start), by reopening the session with a shorter limit
	// when needed), and once it has passed no solve starts. Bounds not
	// solved by then are the trivial bounds (Stats.Stopped). Default: none.
	Deadline time.Time
}

// MinDeadlineSlack is the least time a solve may run past
// Options.Deadline: a session's engine time limit is fixed when it opens,
// and reopening it (losing the warm start) for every small difference would
// cost more than it saves. Engines have their own granularity on top
// (lp_solve counts whole seconds).
const MinDeadlineSlack = 250 * time.Millisecond

// deadlineSlack is how far past the deadline a solve may run in a run
// with the time left: max(MinDeadlineSlack, 5% of it). A variable so that
// a test can make every solve reopen the session.
var deadlineSlack = func(left time.Duration) time.Duration { return max(MinDeadlineSlack, left/20) }

// Stats describe a run of CellBounds.
type Stats struct {
	Targets    int   // cells bounded
	Solves     int   // engine solves
	Presolved  int   // targets fixed at 0 without a solve
	Iterations int64 // simplex iterations summed over the solves
	Nodes      int64 // branch-and-bound nodes (integer solves)
	// Unproven counts bounds that are valid but not proven optimal: integer
	// bounds taken from the engine's dual bound because it stopped on a
	// limit or with a gap, and the Trivial ones.
	Unproven int
	// Trivial counts bounds set to the trivial bound (0, or the least
	// margin cell containing the target, at most the grand total) because
	// the solve stopped on a limit without a usable dual bound, or was not
	// run because Options.Deadline had passed. Included in Unproven.
	Trivial int
	// Stopped reports that Options.Deadline passed before every target was
	// solved.
	Stopped bool
	// LowerAttained and UpperAttained (one entry per target) report that
	// an integer table attaining the bound was found: for an LP, the
	// optimal vertex returned by the engine was integral (so the LP bound
	// is also the sharp integer bound); for an IP, the bound was proven
	// optimal. Presolved targets ([0, 0]) are attained.
	LowerAttained, UpperAttained []bool
}

// attainTol is the distance from an integer below which an LP vertex
// coordinate counts as integral.
const attainTol = 1e-7

// integral reports whether every coordinate of x is within attainTol of an
// integer.
func integral(x []float64) bool {
	for _, v := range x {
		if math.Abs(v-math.Round(v)) > attainTol {
			return false
		}
	}
	return true
}

// CellBoundsProblem returns the polytope Q of the margin set as a problem
// with a zero objective: one column per full-table cell (x_c ≥ 0; integer
// when integer is true; upper bound min_M n_M(c_M)), one equality row per
// released marginal cell. It panics when a marginal's shape does not match
// ms.Vars (check ms with MarginSet.Check first).
func CellBoundsProblem(ms *model.MarginSet, integer bool) *solvers.Problem {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	p := &solvers.Problem{Name: "cellbounds", Sense: solvers.Minimize}
	rowOf := make([]int, len(ms.Margins)) // first row of each marginal
	for k, m := range ms.Margins {
		if len(m.Counts) != model.NumCells(model.SubDims(dims, m.Vars)) {
			panic(fmt.Sprintf("lp: marginal %d has %d counts for %v", k, len(m.Counts), model.SubDims(dims, m.Vars)))
		}
		rowOf[k] = p.NumRows()
		for i, c := range m.Counts {
			v := float64(c)
			p.AddRow(v, v, "m"+strconv.Itoa(k)+"_"+strconv.Itoa(i))
		}
	}
	typ := solvers.Continuous
	if integer {
		typ = solvers.Integer
	}
	lv := make([]int, len(dims))
	rows := make([]int, len(ms.Margins))
	vals := make([]float64, len(ms.Margins))
	for j := range vals {
		vals[j] = 1
	}
	p.Reserve(n, n*len(ms.Margins), true)
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		up := solvers.Inf
		for k, m := range ms.Margins {
			mi := model.Project(dims, m.Vars, lv)
			rows[k] = rowOf[k] + mi
			up = math.Min(up, float64(m.Counts[mi]))
		}
		p.AddCol(0, 0, up, typ, rows, vals, "x"+strconv.Itoa(c))
	}
	if n == 0 {
		p.ColStart = nil
	}
	return p
}

// CellBounds returns the LP bounds min/max x_c over Q for every cell (or
// the cells of a marginal, or a subset; see Options), with two solves per
// cell in one warm-started engine session of s. Errors: ErrInfeasible
// (wrapped, together with the *model.InconsistencyError when the margins
// disagree), ErrTooLarge (Options.MemoryLimit), ErrNotSolved (an engine
// failure, not a limit: see Solve), engine errors, and MarginSet.Check's
// errors for malformed margins. A nil prm means solvers.DefaultParams().
func CellBounds(ms *model.MarginSet, s solvers.Solver, prm *solvers.Params, opt *Options) (*model.CellBounds, error) {
	return Solve(ms, s, prm, opt, false)
}

// target is a set of full-table cells whose sum is bounded.
type target struct {
	cols []int
}

// Solve is the driver behind CellBounds (integer false) and ip.CellBounds
// (integer true): it builds CellBoundsProblem(ms, integer) and bounds each
// target with two solves in one session. Every target asked for gets valid
// bounds unless an error is returned: a solve stopped by a limit or by
// Options.Deadline leaves its bound at the engine's dual bound (integer
// solves) or the trivial bound (Stats.Unproven, Stats.Trivial,
// Stats.Stopped). Errors: ErrTooLarge (Options.MemoryLimit), ErrInfeasible
// or ErrNoIntegerTable (integer), ErrNotSolved (an engine failure on a
// bound), engine errors, and MarginSet.Check's errors.
func Solve(ms *model.MarginSet, s solvers.Solver, prm *solvers.Params, opt *Options, integer bool) (*model.CellBounds, error) {
	if opt == nil {
		opt = &Options{}
	}
	infeasible := ErrInfeasible
	method := "lp"
	if integer {
		infeasible = ErrNoIntegerTable
		method = "ip"
	}
	if err := ms.Check(); err != nil {
		var ie *model.InconsistencyError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("%w: %w", infeasible, err)
		}
		return nil, err
	}
	if opt.MemoryLimit > 0 {
		if need := CellBoundsMemory(ms, opt); need > opt.MemoryLimit {
			return nil, fmt.Errorf("%w: the %s model of %d cells and %d margins needs about %s, more than the limit of %s",
				ErrTooLarge, method, model.NumCells(model.Dims(ms.Vars)), len(ms.Margins), fmtBytes(need), fmtBytes(opt.MemoryLimit))
		}
	}
	p := CellBoundsProblem(ms, integer)
	targets, err := makeTargets(ms, opt.Marginal)
	if err != nil {
		return nil, err
	}
	which := opt.Cells
	if which == nil {
		which = make([]int, len(targets))
		for i := range which {
			which[i] = i
		}
	}
	for _, t := range which {
		if t < 0 || t >= len(targets) {
			panic(fmt.Sprintf("lp: Options.Cells names target %d of %d", t, len(targets)))
		}
	}
	nt := len(targets)
	b := &model.CellBounds{Lower: make([]float64, nt), Upper: make([]float64, nt), Method: make([]string, nt)}
	for i := range b.Lower {
		b.Lower[i], b.Upper[i] = math.NaN(), math.NaN()
	}
	st := opt.Stats
	if st == nil {
		st = &Stats{}
	}
	*st = Stats{Targets: len(which), LowerAttained: make([]bool, nt), UpperAttained: make([]bool, nt)}
	total := grandTotal(ms)

	// Presolve: a target whose cells are all fixed at 0 is [0, 0].
	var todo, presolved []int
	for _, t := range which {
		zero := true
		for _, j := range targets[t].cols {
			zero = zero && p.ColUpper[j] == 0
		}
		if zero {
			b.Lower[t], b.Upper[t], b.Method[t] = 0, 0, method
			st.LowerAttained[t], st.UpperAttained[t] = true, true
			st.Presolved++
			presolved = append(presolved, t)
			continue
		}
		todo = append(todo, t)
	}
	done := len(which) - len(todo)
	if opt.Progress != nil && done > 0 {
		opt.Progress(done, len(which))
	}
	if len(todo) == 0 {
		// Q may still be empty (consistent pairwise, no table): check once.
		if len(which) > 0 {
			proven, err := checkFeasible(s, p, prm, opt.Deadline, infeasible)
			if err != nil {
				return nil, err
			}
			if !proven {
				// [0, 0] is valid, but no table is known to attain it.
				st.Stopped = pastDeadline(opt.Deadline)
				for _, t := range presolved {
					st.LowerAttained[t], st.UpperAttained[t] = false, false
				}
			}
		}
		return b, nil
	}

	ds := newDeadlineSession(s, p, prm, opt)
	defer ds.close()
	solvedAny := false
	var prev []int
	cols := make([]int, 0, 16)
	obj := make([]float64, 0, 16)
	for _, t := range todo {
		objSet := false
		for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
			var v float64
			var unproven, trivial bool
			var r *solvers.Result
			sess, reopened, err := ds.ready()
			if err != nil {
				return nil, err
			}
			if sess == nil {
				st.Stopped = true
				trivial = true
			} else {
				if reopened {
					prev = nil // a fresh session has the zero objective
				}
				if reopened || !objSet {
					cols, obj = cols[:0], obj[:0]
					for _, j := range prev {
						cols = append(cols, j)
						obj = append(obj, 0)
					}
					for _, j := range targets[t].cols {
						cols = append(cols, j)
						obj = append(obj, 1)
					}
					if err := sess.SetObjective(cols, obj); err != nil {
						return nil, err
					}
					prev, objSet = targets[t].cols, true
				}
				if err := sess.SetSense(sense); err != nil {
					return nil, err
				}
				r, err = sess.Solve()
				if err != nil {
					return nil, err
				}
				if r.Abandoned {
					ds.abandoned()
				}
				st.Solves++
				st.Iterations += r.Iterations
				st.Nodes += r.Nodes
				v, unproven, trivial, err = boundValue(r, sense, integer)
				if err != nil {
					if errors.Is(err, errEmpty) {
						return nil, fmt.Errorf("%w (engine %s: %v)", infeasible, s.Name(), r.Status)
					}
					return nil, fmt.Errorf("%w: target %d (%v, engine %s): %v", ErrNotSolved, t, sense, s.Name(), err)
				}
				solvedAny = solvedAny || !trivial
				if r.Status.Limit() && pastDeadline(opt.Deadline) {
					st.Stopped = true
				}
			}
			if trivial {
				v = 0
				if sense == solvers.Maximize {
					v = trivialUpper(p, targets[t].cols, total)
				}
				unproven = true
				st.Trivial++
			} else if sense == solvers.Maximize {
				// A dual bound may exceed what the margins allow outright.
				v = math.Min(v, trivialUpper(p, targets[t].cols, total))
			}
			if unproven {
				st.Unproven++
			}
			attained := !unproven && (integer || (r.HasSolution && integral(r.X)))
			if attained && !integer {
				v = math.Round(v)
			}
			if sense == solvers.Minimize {
				b.Lower[t], st.LowerAttained[t] = v, attained
			} else {
				b.Upper[t], st.UpperAttained[t] = v, attained
			}
		}
		b.Method[t] = method
		done++
		if opt.Progress != nil {
			opt.Progress(done, len(which))
		}
	}
	if !solvedAny {
		// No solve finished: no table is known, so the presolved [0, 0]
		// are valid but not known to be attained.
		for _, t := range presolved {
			st.LowerAttained[t], st.UpperAttained[t] = false, false
		}
	}
	return b, nil
}

// grandTotal is the sum of the first margin's counts (every consistent
// margin has it), or +Inf without margins.
func grandTotal(ms *model.MarginSet) float64 {
	if len(ms.Margins) == 0 {
		return math.Inf(1)
	}
	var n int64
	for _, c := range ms.Margins[0].Counts {
		n += c
	}
	return float64(n)
}

// trivialUpper is the upper bound of a target known without a solve: the
// sum of its columns' upper bounds (each the least margin cell containing
// the cell), at most the grand total.
func trivialUpper(p *solvers.Problem, cols []int, total float64) float64 {
	u := 0.0
	for _, j := range cols {
		u += p.ColUpper[j]
	}
	return math.Min(u, total)
}

// TrivialBounds returns the bounds of every full-table cell known without
// any solve: [0, min over the released margins M of n_M(c_M)] (the column
// bounds of CellBoundsProblem), valid for every table with the margins.
// It panics when a marginal's shape does not match ms.Vars.
func TrivialBounds(ms *model.MarginSet) *model.CellBounds {
	u := TrivialUppers(ms)
	b := model.NewCellBounds(len(u))
	for c, x := range u {
		b.Lower[c], b.Upper[c] = 0, float64(x)
		if len(ms.Margins) == 0 {
			b.Upper[c] = math.Inf(1)
		}
	}
	return b
}

// TrivialUppers returns, per full-table cell, the least released marginal
// cell containing it, at most the grand total (math.MaxInt64, unbounded,
// when no margin is released): the upper half of TrivialBounds in
// integers.
func TrivialUppers(ms *model.MarginSet) []int64 {
	dims := model.Dims(ms.Vars)
	u := make([]int64, model.NumCells(dims))
	total := int64(math.MaxInt64)
	if len(ms.Margins) > 0 {
		total = int64(grandTotal(ms))
	}
	lv := make([]int, len(dims))
	for c := range u {
		model.CellLevels(dims, c, lv)
		u[c] = total
		for _, m := range ms.Margins {
			u[c] = min(u[c], m.Counts[model.Project(dims, m.Vars, lv)])
		}
	}
	return u
}

// Bytes per item of the model and of the engine's copy (CellBoundsMemory).
// The engine figures are deliberately generous: column- and row-wise
// copies of the matrix, a presolved copy and the LU factors' fill
// (engineBytesPerNonzero), and a few dozen dense work vectors over rows
// and columns (engineBytesPerVector).
const (
	// modelBytesPerCol: objective and bounds (float64 each), type, name (a
	// string header and its text), ColStart; the target (a slice header and
	// its index); the result's bounds, method label and statistics.
	modelBytesPerCol     = 3*8 + 1 + 16 + 8 + 8 + 24 + 8 + 2*8 + 16 + 2
	modelBytesPerRow     = 2*8 + 16 + 8 // bounds, name
	modelBytesPerNonzero = 16           // RowIndex (int) and Value (float64)

	engineBytesPerNonzero = 64
	engineBytesPerVector  = 256
)

// CellBoundsMemory estimates the bytes Solve needs for ms with opt (nil:
// defaults): the model (one column per cell, one row per released margin
// cell, one nonzero per cell and margin), a second copy for reloading
// sessions (Options.Cold), and the engine's copy with its work space. It
// does not include an integer engine's branch-and-bound tree, which grows
// with the search; bound that with a time limit.
func CellBoundsMemory(ms *model.MarginSet, opt *Options) int64 {
	dims := model.Dims(ms.Vars)
	cols := int64(model.NumCells(dims))
	var rows int64
	for _, m := range ms.Margins {
		rows += int64(model.NumCells(model.SubDims(dims, m.Vars)))
	}
	nz := cols * int64(len(ms.Margins))
	mdl := cols*modelBytesPerCol + rows*modelBytesPerRow + nz*modelBytesPerNonzero
	if opt != nil && opt.Cold {
		mdl += cols*(3*8+1+24+8) + rows*(2*8+24) + nz*modelBytesPerNonzero
	}
	return mdl + nz*engineBytesPerNonzero + (rows+cols)*engineBytesPerVector
}

// fmtBytes formats a byte count with a binary unit ("1.5 GiB").
func fmtBytes(b int64) string {
	const units = "KMGTPE"
	if b < 1024 {
		return fmt.Sprintf("%d B", b)
	}
	v := float64(b)
	u := -1
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %ciB", v, units[u])
}

func pastDeadline(d time.Time) bool { return !d.IsZero() && !time.Now().Before(d) }

// deadlineSession holds the engine session of Solve and keeps every solve
// within Options.Deadline: the session's engine time limit is the smaller
// of Params.TimeLimit and the time left when it opened, and it is reopened
// with a shorter one when the time left falls below its limit by more than
// slack (max(MinDeadlineSlack, 5% of the time left at the start)). Without
// a deadline it is one session for the whole run, as before.
type deadlineSession struct {
	s        solvers.Solver
	p        *solvers.Problem
	prm      *solvers.Params
	cold     bool
	deadline time.Time
	slack    time.Duration
	sess     solvers.Session
	limit    time.Duration // the session's engine time limit; 0 = none
}

func newDeadlineSession(s solvers.Solver, p *solvers.Problem, prm *solvers.Params, opt *Options) *deadlineSession {
	d := &deadlineSession{s: s, p: p, prm: prm, cold: opt.Cold, deadline: opt.Deadline}
	if !d.deadline.IsZero() {
		d.slack = deadlineSlack(time.Until(d.deadline))
	}
	return d
}

// ready returns the session to solve with next, and whether it was
// (re)opened since the last call (its objective is then the problem's zero
// objective and its sense the problem's). It returns a nil session when
// the deadline has passed.
func (d *deadlineSession) ready() (sess solvers.Session, reopened bool, err error) {
	want := d.prm.OrDefault().TimeLimit
	if !d.deadline.IsZero() {
		left := time.Until(d.deadline)
		if left <= 0 {
			return nil, false, nil
		}
		if want == 0 || left < want {
			want = left
		}
		if d.sess != nil && d.limit > 0 && d.limit <= left+d.slack {
			return d.sess, false, nil
		}
	} else if d.sess != nil {
		return d.sess, false, nil
	}
	d.close()
	prm := d.prm
	if want != prm.OrDefault().TimeLimit || !d.deadline.IsZero() {
		// The engine also stops every solve at the deadline itself
		// (Params.Deadline, wall-clock), so a solve never runs past it
		// by more than the engine's check interval.
		c := *prm.OrDefault()
		c.TimeLimit = want
		c.Deadline = d.deadline
		c.HardStop = true // see abandoned
		prm = &c
	}
	if d.cold {
		d.sess, err = solvers.NewReloadSession(d.s, d.p, prm)
	} else {
		d.sess, err = d.s.NewSession(d.p, prm)
		if errors.Is(err, solvers.ErrUnsupported) {
			d.sess, err = solvers.NewReloadSession(d.s, d.p, prm)
		}
	}
	if err != nil {
		d.sess = nil
		return nil, false, err
	}
	d.limit = want
	if pastDeadline(d.deadline) {
		// Opening took the time that was left (loading a model of
		// millions of columns takes seconds): solve nothing more.
		return nil, false, nil
	}
	return d.sess, true, nil
}

// abandoned forgets a session whose solve the engine abandoned at its hard
// stop (solvers.Result.Abandoned: the session is closed); the next ready
// opens a new one if there is time left.
func (d *deadlineSession) abandoned() {
	d.sess = nil
}

func (d *deadlineSession) close() {
	if d.sess != nil {
		d.sess.Close()
		d.sess = nil
	}
}

// ErrNoIntegerTable is wrapped by the integer solves (package ip) when the
// margins admit no integer table, or are inconsistent.
// It lives here, not in package ip, because ip builds on this driver;
// ip.ErrInfeasible is the same value.
var ErrNoIntegerTable = errors.New("ip: the margins admit no integer table")

var errEmpty = errors.New("empty")

// checkFeasible solves the zero-objective problem once, within deadline
// (zero: none). proven is false when it could not tell (a limit, or the
// deadline had passed): not an error.
func checkFeasible(s solvers.Solver, p *solvers.Problem, prm *solvers.Params, deadline time.Time, infeasible error) (proven bool, err error) {
	if !deadline.IsZero() {
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		c := *prm.OrDefault()
		if tl := c.TimeLimit; tl == 0 || left < tl {
			c.TimeLimit = left
		}
		c.Deadline = deadline
		c.HardStop = true // a one-shot solve: nothing to reopen
		prm = &c
	}
	r, err := s.Solve(p, prm)
	if err != nil {
		return false, err
	}
	switch {
	case r.Status == solvers.Optimal:
		return true, nil
	case r.Status == solvers.Infeasible, r.Status == solvers.InfeasibleOrUnbounded:
		return false, fmt.Errorf("%w (engine %s: %v)", infeasible, s.Name(), r.Status)
	case r.Status.Limit():
		return false, nil
	}
	return false, fmt.Errorf("%w: feasibility check (engine %s): %v", ErrNotSolved, s.Name(), r.Status)
}

// boundValue turns a solve result into a bound. For integer solves the
// engine's dual bound, rounded inward to an integer, is used when the
// engine stopped on a limit or with a gap (unproven = true: valid, maybe
// not sharp). A solve stopped on a limit without a usable dual bound
// (every LP, and integer solves without one) gives trivial = true: the
// caller uses the trivial bound. Numerical trouble, an unknown status and
// an unbounded minimum are errors.
func boundValue(r *solvers.Result, sense solvers.Sense, integer bool) (v float64, unproven, trivial bool, err error) {
	switch r.Status {
	case solvers.Infeasible, solvers.InfeasibleOrUnbounded:
		return 0, false, false, errEmpty
	case solvers.Unbounded:
		if sense == solvers.Maximize {
			return math.Inf(1), false, false, nil
		}
		return 0, false, false, fmt.Errorf("minimum unbounded")
	case solvers.Optimal:
		if !integer {
			return snap(r.Objective), false, false, nil
		}
		obj := math.Round(r.Objective)
		bb := r.BestBound
		if math.IsNaN(bb) || math.IsInf(bb, 0) {
			return obj, false, false, nil
		}
		if sense == solvers.Maximize {
			if ub := math.Floor(bb + intTol); ub > obj {
				return ub, true, false, nil
			}
		} else if lb := math.Ceil(bb - intTol); lb < obj {
			return lb, true, false, nil
		}
		return obj, false, false, nil
	}
	if !r.Status.Limit() {
		return 0, false, false, fmt.Errorf("engine stopped: %v", r.Status)
	}
	if integer && !math.IsNaN(r.BestBound) && !math.IsInf(r.BestBound, 0) {
		if sense == solvers.Maximize {
			return math.Floor(r.BestBound + intTol), true, false, nil
		}
		return math.Max(0, math.Ceil(r.BestBound-intTol)), true, false, nil
	}
	return 0, true, true, nil
}

// snap rounds v to the nearest integer when it is within snapTol of it.
func snap(v float64) float64 {
	if r := math.Round(v); math.Abs(v-r) <= snapTol*math.Max(1, math.Abs(v)) {
		if r == 0 {
			return 0 // not -0
		}
		return r
	}
	return v
}

// makeTargets lists the cell sets to bound: single full-table cells, or
// the cells of the marginal over sub.
func makeTargets(ms *model.MarginSet, sub []int) ([]target, error) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	if sub == nil {
		ts := make([]target, n)
		for c := range ts {
			ts[c] = target{cols: []int{c}}
		}
		return ts, nil
	}
	for i, j := range sub {
		if j < 0 || j >= len(dims) || (i > 0 && sub[i-1] >= j) {
			panic(fmt.Sprintf("lp: Options.Marginal %v is not an increasing list of variable positions < %d", sub, len(dims)))
		}
	}
	ts := make([]target, model.NumCells(model.SubDims(dims, sub)))
	lv := make([]int, len(dims))
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		m := model.Project(dims, sub, lv)
		ts[m].cols = append(ts[m].cols, c)
	}
	return ts, nil
}
