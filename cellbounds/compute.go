package cellbounds

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/frechet"
	"github.com/sdcopt/sdcopt/native/shuttle"
	"github.com/sdcopt/sdcopt/solvers"
)

// Method names.
const (
	Auto      = "auto"
	LP        = "lp"
	IP        = "ip"
	Shuttle   = "shuttle"
	Frechet   = "frechet"
	Reducible = "reducible"
)

// Methods lists the method names accepted by Compute.
var Methods = []string{Auto, LP, IP, Shuttle, Frechet, Reducible, Certified}

var (
	// ErrInfeasible: the margins are inconsistent or admit no table.
	ErrInfeasible = errors.New("cellbounds: the margins admit no table")
	// ErrNotApplicable: the asked method does not apply to these margins.
	ErrNotApplicable = errors.New("cellbounds: method does not apply to these margins")
	// ErrUnknownMethod: a method name not in Methods.
	ErrUnknownMethod = errors.New("cellbounds: unknown method")
	// ErrTooLarge: the asked method (or a compared one) would need more
	// memory than Settings.MemoryLimit by its estimate, and no cheaper
	// valid method stands in for it. Nothing large has been allocated.
	ErrTooLarge = errors.New("cellbounds: too large for the memory limit")
)

// Values of Run.Stopped.
const (
	// StoppedTimeLimit: Settings.TimeLimit ran out before the method was
	// done.
	StoppedTimeLimit = "time_limit"
	// StoppedMemoryLimit: the memory limit made the method settle for a
	// cheaper valid variant (the shuttle without its correction step, or a
	// correction search cut short; auto without the shuttle's tightening).
	StoppedMemoryLimit = "memory_limit"
)

// ResultBytesPerCell is what Compute reserves of Settings.MemoryLimit per
// cell and run (the asked method and every other compared one) for the
// results: the lower and upper bounds (float64 each) and the method label
// (a string header).
const ResultBytesPerCell = 8 + 8 + 16

// DefaultMemoryLimit is the memory limit used when Settings.MemoryLimit is
// 0: half of the physical memory (shuttle.DefaultMemoryLimit).
func DefaultMemoryLimit() int64 { return shuttle.DefaultMemoryLimit() }

// FracTol is the distance from an integer above which an LP bound counts
// as fractional.
const FracTol = 1e-6

// Settings choose the method and engine. The zero value means defaults.
type Settings struct {
	// Method is one of Methods (default "" = "auto").
	Method string
	// Compare lists further methods whose bounds are computed on the same
	// margins (default none).
	Compare []string
	// Solver is the engine for "lp" and "ip" (default "" = "auto": CLP for
	// LPs, HiGHS for MIPs; see solvers.New).
	Solver string
	// Params are the engine parameters (default nil = solvers defaults).
	Params *solvers.Params
	// Shuttle tunes the shuttle (default nil = shuttle.DefaultOptions()).
	Shuttle *shuttle.Options
	// Cold makes LP/IP re-solve every model from scratch (benchmarks).
	Cold bool
	// Progress, when set, receives per-method progress (done, total): the
	// solves of "lp" and "ip" (also as phases of "auto"), the bound searches
	// of the shuttle's correction step (first with done = 0). After a stop
	// the last call of a phase may have done < total.
	Progress func(method string, done, total int)
	// MemoryLimit bounds the memory of every method, in bytes (default 0 =
	// DefaultMemoryLimit(), half of the physical memory). Compute reserves
	// the results of every run (ResultBytesPerCell) and gives each
	// method the rest: "lp" and "ip" refuse a model whose estimate
	// (lp.CellBoundsMemory) exceeds it, the shuttle refuses a set T that
	// does not fit (shuttle.Estimate) and skips or cuts short its
	// correction step when that does not fit (Run.Stopped =
	// StoppedMemoryLimit); a refusal is an error wrapping ErrTooLarge.
	// An integer engine's branch-and-bound tree is not covered: bound it
	// with TimeLimit.
	MemoryLimit int64
	// TimeLimit bounds the whole Compute call, every method and every
	// compared run sharing one deadline (default 0 = none). When it runs
	// out, every cell still gets valid bounds: those settled so far, an
	// integer engine's dual bound, the shuttle's current bounds, or the
	// trivial bounds [0, least margin cell containing the cell]; the run
	// has Stopped = StoppedTimeLimit. Solves get at most the time left (to
	// within lp.MinDeadlineSlack or 5% of the limit), the shuttle checks
	// it every few thousand dependency evaluations and at every search
	// node. "frechet" always completes: its closed form costs no more than
	// the trivial bounds. Params.TimeLimit stays a per-solve limit.
	TimeLimit time.Duration
	// Initial, when set, holds valid bounds of every cell known
	// beforehand, e.g. given a subset of these margins (a release
	// auditor's previous decision). "auto" starts the shuttle from them
	// (shuttle.Options.Initial); the closed forms and the LP/IP do not need
	// them. Bounds that are not valid give wrong results.
	Initial *model.CellBounds
	// Certify asks for a certificate of every bound (Run.Certificates):
	// "auto" then runs the Certified method whatever the margins (the
	// closed forms and the shuttle give no checkable evidence).
	Certify bool
	// Cells, when not nil, are the cells whose bounds the certified
	// method works on, in this order: their LPs are solved first to last
	// and only their bounds are searched for witnesses; the other cells
	// keep the trivial bounds (valid, reported as not sharp unless a
	// witness found on the way attains them). A caller that needs some
	// cells only (a release auditor: the non-zero cells, the likely
	// disclosures first) saves the rest of the work. "auto" keeps its
	// closed forms (decomposable, reducible: every cell at once) and
	// otherwise runs the certified method on these cells; other methods
	// ignore it. Indices outside the table are an error.
	Cells []int

	deadline time.Time // set by Compute from TimeLimit
	memLimit int64     // set by Compute: MemoryLimit minus the results
}

// Run is the outcome of one method.
type Run struct {
	Method  string            // the method asked for (one of Methods)
	Bounds  *model.CellBounds // every full-table cell; Bounds.Method per cell
	Solver  string            // the engine used, "" for native methods
	Seconds float64           // wall-clock time of the method
	// Sharp reports that every bound is proven to be the sharp integer
	// bound (Fréchet, IP without gaps, shuttle with every bound certified,
	// LP bounds all attained by integral vertices, and combinations of
	// those): ValidCells == 0.
	Sharp bool
	// SharpCells counts the cells whose two bounds are both proven sharp
	// integer bounds (attained by an integer table, or given by a sharp
	// closed form); ValidCells counts the others, whose bounds are valid
	// (every table with the margins lies within them) but not proven sharp.
	// SharpCells + ValidCells is the number of cells.
	SharpCells, ValidCells int
	// Stopped is "" when the method ran to completion, StoppedTimeLimit
	// ("time_limit") when Settings.TimeLimit ran out first,
	// StoppedMemoryLimit ("memory_limit") when the memory limit made it
	// settle for less. Every cell has valid bounds either way.
	Stopped string
	// Note says what the method proved, in one sentence.
	Note string
	// Certificates hold the evidence of every bound (method Certified;
	// nil for the others).
	Certificates *Certificates
	// CertifiedStats count how the certified method settled the bounds.
	CertifiedStats *CertifiedStats

	sharpCell []bool // per cell: both bounds proven sharp (set by the runners)
	// methodNote is the method's own note, before finish's summary.
	methodNote string
}

// finish counts the sharp cells and writes the note of a stopped run.
func (r *Run) finish() {
	r.SharpCells, r.ValidCells = 0, 0
	for _, ok := range r.sharpCell {
		if ok {
			r.SharpCells++
		}
	}
	r.ValidCells = len(r.Bounds.Lower) - r.SharpCells
	r.Sharp = r.ValidCells == 0
	r.Note = r.methodNote
	if r.Stopped != "" {
		why := "time limit reached"
		if r.Stopped == StoppedMemoryLimit {
			why = "memory limit reached"
		}
		r.Note = fmt.Sprintf("%s: %d of %d cells have proven sharp bounds, the other %d valid bounds only; %s",
			why, r.SharpCells, len(r.Bounds.Lower), r.ValidCells, r.Note)
	}
}

// Result is what Compute returns: the asked method's run and the compared
// ones.
type Result struct {
	Run
	// Compare holds the runs of Settings.Compare by method name.
	Compare map[string]*Run
}

// Compute bounds every cell of the full table over ms.Vars given
// ms.Margins. It checks the margins first (model.MarginSet.Check):
// disagreeing margins wrap ErrInfeasible and the *model.InconsistencyError;
// malformed ones are returned as they are. A method (or compared method)
// that needs more memory than Settings.MemoryLimit returns an error
// wrapping ErrTooLarge; Settings.TimeLimit running out is not an error
// (Run.Stopped). lp.ErrNotSolved is wrapped only for a genuine engine
// failure (numerical trouble, an unknown status), never for a limit.
func Compute(ms *model.MarginSet, set Settings) (*Result, error) {
	start := time.Now()
	if set.Method == "" {
		set.Method = Auto
	}
	if set.TimeLimit > 0 {
		set.deadline = start.Add(set.TimeLimit)
	}
	set.memLimit = set.MemoryLimit
	if set.memLimit <= 0 {
		set.memLimit = DefaultMemoryLimit()
	}
	for _, m := range append([]string{set.Method}, set.Compare...) {
		if !validMethod(m) {
			return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownMethod, m, strings.Join(Methods, ", "))
		}
	}
	if err := ms.Check(); err != nil {
		var ie *model.InconsistencyError
		if errors.As(err, &ie) {
			return nil, fmt.Errorf("%w: %w", ErrInfeasible, err)
		}
		return nil, err
	}
	runs := int64(1)
	for _, m := range set.Compare {
		if m != set.Method {
			runs++
		}
	}
	cells := numCells(model.Dims(ms.Vars))
	if need := satMul(satMul(cells, ResultBytesPerCell), runs); need > set.memLimit {
		return nil, fmt.Errorf("%w: the bounds of %d cells for %d method(s) need about %s, more than the memory limit of %s",
			ErrTooLarge, cells, runs, fmtBytes(need), fmtBytes(set.memLimit))
	} else {
		set.memLimit -= need
	}
	main, err := runMethod(ms, set.Method, &set)
	if err != nil {
		return nil, err
	}
	res := &Result{Run: *main}
	for _, m := range set.Compare {
		if m == set.Method {
			res.Compare = addRun(res.Compare, main)
			continue
		}
		r, err := runMethod(ms, m, &set)
		if err != nil {
			return nil, fmt.Errorf("--compare %s: %w", m, err)
		}
		res.Compare = addRun(res.Compare, r)
	}
	return res, nil
}

func addRun(m map[string]*Run, r *Run) map[string]*Run {
	if m == nil {
		m = map[string]*Run{}
	}
	m[r.Method] = r
	return m
}

func validMethod(m string) bool {
	for _, x := range Methods {
		if m == x {
			return true
		}
	}
	return false
}

// runMethod runs one method and classifies its errors.
func runMethod(ms *model.MarginSet, method string, set *Settings) (*Run, error) {
	start := time.Now()
	var r *Run
	var err error
	switch method {
	case LP:
		r, err = runEngine(ms, set, false)
	case IP:
		r, err = runEngine(ms, set, true)
	case Shuttle:
		r, err = runShuttle(ms, set)
	case Frechet:
		r, err = runFrechet(ms)
	case Reducible:
		r, err = runReducible(ms, set)
	case Auto:
		r, err = runAuto(ms, set)
	case Certified:
		r, err = runCertifiedMethod(ms, set)
	}
	if err != nil {
		return nil, classify(err)
	}
	r.Method = method
	if r.Stopped != "" {
		// Whatever a stopped method has, the trivial bounds hold too.
		intersect(r.Bounds, lp.TrivialBounds(ms))
	}
	r.methodNote = r.Note
	r.finish()
	r.Seconds = time.Since(start).Seconds()
	fillMethod(r.Bounds, method)
	return r, nil
}

// intersect narrows a to the intersection of a and b (both valid bounds).
func intersect(a, b *model.CellBounds) {
	for i := range a.Lower {
		a.Lower[i] = math.Max(a.Lower[i], b.Lower[i])
		a.Upper[i] = math.Min(a.Upper[i], b.Upper[i])
	}
}

func pastDeadline(d time.Time) bool { return !d.IsZero() && !time.Now().Before(d) }

// numCells is the number of cells of a table with dims, saturating at
// math.MaxInt64.
func numCells(dims []int) int64 {
	n := int64(1)
	for _, d := range dims {
		n = satMul(n, int64(d))
	}
	return n
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// fmtBytes formats a byte count with a binary unit ("1.5 GiB").
func fmtBytes(b int64) string {
	if b == math.MaxInt64 {
		return "more than 8 EiB"
	}
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

// allTrue returns n true flags.
func allTrue(n int) []bool {
	f := make([]bool, n)
	for i := range f {
		f[i] = true
	}
	return f
}

// attainedBoth returns, per target, whether both bounds were attained
// (proven sharp) in an lp.Solve run.
func attainedBoth(st *lp.Stats) []bool {
	f := make([]bool, len(st.LowerAttained))
	for i := range f {
		f[i] = st.LowerAttained[i] && st.UpperAttained[i]
	}
	return f
}

// classify wraps the infeasibility and applicability sentinels of the
// method packages into this package's.
func classify(err error) error {
	switch {
	case errors.Is(err, ErrInfeasible), errors.Is(err, ErrNotApplicable), errors.Is(err, ErrTooLarge):
		return err
	case errors.Is(err, lp.ErrTooLarge), errors.Is(err, shuttle.ErrTooLarge):
		return fmt.Errorf("%w: %w", ErrTooLarge, err)
	case errors.Is(err, lp.ErrInfeasible), errors.Is(err, ip.ErrInfeasible), errors.Is(err, shuttle.ErrNoIntegerTable):
		return fmt.Errorf("%w: %w", ErrInfeasible, err)
	case errors.Is(err, frechet.ErrNotDecomposable), errors.Is(err, frechet.ErrNotReducible):
		return fmt.Errorf("%w: %w", ErrNotApplicable, err)
	}
	return err
}

func fillMethod(b *model.CellBounds, method string) {
	if b.Method == nil {
		b.Method = make([]string, len(b.Lower))
	}
	for i := range b.Method {
		if b.Method[i] == "" {
			b.Method[i] = method
		}
	}
}

func progress(set *Settings, method string) func(done, total int) {
	if set.Progress == nil {
		return nil
	}
	return func(done, total int) { set.Progress(method, done, total) }
}

// trivialRun is what an engine method returns when the time is up before
// it starts: the trivial bounds, nothing proven.
func trivialRun(ms *model.MarginSet, note string) *Run {
	b := lp.TrivialBounds(ms)
	return &Run{Bounds: b, Stopped: StoppedTimeLimit, sharpCell: make([]bool, len(b.Lower)), Note: note}
}

// lpOptions are the options of lp.Solve for set's deadline and memory.
func lpOptions(set *Settings, method string, st *lp.Stats) *lp.Options {
	return &lp.Options{Progress: progress(set, method), Cold: set.Cold, Stats: st, MemoryLimit: set.memLimit, Deadline: set.deadline}
}

// checkModel refuses a model that does not fit in the memory limit before
// an engine is created.
func checkModel(ms *model.MarginSet, set *Settings, method string) error {
	if need := lp.CellBoundsMemory(ms, &lp.Options{Cold: set.Cold}); need > set.memLimit {
		return fmt.Errorf("%w: %w: the %s model needs about %s, more than the %s left of the memory limit",
			ErrTooLarge, lp.ErrTooLarge, method, fmtBytes(need), fmtBytes(set.memLimit))
	}
	return nil
}

func runEngine(ms *model.MarginSet, set *Settings, integer bool) (*Run, error) {
	method := LP
	if integer {
		method = IP
	}
	if err := checkModel(ms, set, method); err != nil {
		return nil, err
	}
	if pastDeadline(set.deadline) {
		return trivialRun(ms, "no solve started: trivial bounds"), nil
	}
	s, err := solvers.New(set.Solver, integer)
	if err != nil {
		return nil, err
	}
	var st lp.Stats
	b, err := lp.Solve(ms, s, set.Params, lpOptions(set, method, &st), integer)
	if err != nil {
		return nil, err
	}
	r := &Run{Bounds: b, Solver: s.Name(), sharpCell: attainedBoth(&st)}
	if st.Stopped {
		r.Stopped = StoppedTimeLimit
	}
	sharp := 0
	for _, ok := range r.sharpCell {
		if ok {
			sharp++
		}
	}
	switch {
	case !integer && sharp == len(b.Lower):
		r.Note = fmt.Sprintf("LP bounds from %d solves (%d cells presolved at 0), each attained by an integral optimal vertex: sharp", st.Solves, st.Presolved)
	case !integer:
		r.Note = fmt.Sprintf("LP bounds from %d solves (%d cells presolved at 0); not sharp in general", st.Solves, st.Presolved)
	case st.Unproven == 0:
		r.Note = fmt.Sprintf("sharp integer bounds proven by %s (%d integer solves)", s.Name(), st.Solves)
	case st.Unproven > st.Trivial:
		r.Note = fmt.Sprintf("%d integer bounds are the engine's dual bounds (limit or gap): valid, maybe not sharp", st.Unproven-st.Trivial)
	default:
		r.Note = fmt.Sprintf("integer bounds from %s (%d integer solves)", s.Name(), st.Solves)
	}
	if st.Trivial > 0 {
		r.Note += fmt.Sprintf("; %d bounds are trivial (their solve stopped on a limit or never ran): valid, not sharp", st.Trivial)
	}
	return r, nil
}

func runShuttle(ms *model.MarginSet, set *Settings) (*Run, error) {
	opt := shuttle.DefaultOptions()
	if set.Shuttle != nil {
		c := *set.Shuttle
		opt = &c
	}
	if opt.Progress == nil {
		opt.Progress = progress(set, Shuttle)
	}
	return shuttleRun(ms, set, opt)
}

// shuttleRun runs shuttle.Bounds within set's deadline and memory limit
// (the earlier and smaller of those and opt's own).
func shuttleRun(ms *model.MarginSet, set *Settings, opt *shuttle.Options) (*Run, error) {
	if opt.MemoryLimit <= 0 || opt.MemoryLimit > set.memLimit {
		opt.MemoryLimit = set.memLimit
	}
	if !set.deadline.IsZero() && (opt.Deadline.IsZero() || set.deadline.Before(opt.Deadline)) {
		opt.Deadline = set.deadline
	}
	sr, err := shuttle.Bounds(ms, opt)
	if err != nil {
		return nil, err
	}
	f := make([]bool, len(sr.LowerSharp))
	for i := range f {
		f[i] = sr.LowerSharp[i] && sr.UpperSharp[i]
	}
	return &Run{Bounds: sr.Bounds, Sharp: sr.Sharp, Note: sr.Note, Stopped: sr.Stopped, sharpCell: f}, nil
}

func runFrechet(ms *model.MarginSet) (*Run, error) {
	if !frechet.Decomposable(ms) {
		return nil, fmt.Errorf("%w: %s are not the cliques of a decomposable (chordal) independence graph", frechet.ErrNotDecomposable, ms.Name())
	}
	b, err := frechet.Bounds(ms)
	if err != nil {
		return nil, err
	}
	return &Run{Bounds: b, Sharp: true, Note: "closed-form Fréchet bounds of a decomposable model (Theorem 1): sharp",
		sharpCell: allTrue(len(b.Lower))}, nil
}

// componentSolver solves the components of a reducible graph with the best
// applicable native method, recording their names, sharpness, stops and
// which component cells have sharp bounds.
type componentSolver struct {
	set     *Settings
	methods map[string]bool
	notes   []string
	stopped string
	parts   []componentSharp
}

// componentSharp is a solved component: its variables (positions in the
// full margin set) and, per component cell, whether its bounds are sharp.
type componentSharp struct {
	vars  []int
	sharp []bool
}

func (c *componentSolver) solve(comp *frechet.Component) (*model.CellBounds, error) {
	sub := comp.Margins
	var r *Run
	var err error
	name := Frechet
	if frechet.Decomposable(sub) {
		r, err = runFrechet(sub)
	} else {
		cset := *c.set
		cset.Initial = nil // bounds of the whole table, not of the component
		cset.Cells = nil   // cells of the whole table too
		name, r, err = runSettled(sub, &cset)
	}
	if err != nil {
		return nil, err
	}
	c.methods[name] = true
	c.notes = append(c.notes, fmt.Sprintf("%s by %s", sub.Name(), name))
	if r.Stopped != "" && c.stopped != StoppedTimeLimit {
		c.stopped = r.Stopped
	}
	c.parts = append(c.parts, componentSharp{vars: comp.Vars, sharp: r.sharpCell})
	fillMethod(r.Bounds, name)
	return r.Bounds, nil
}

// cellSharp tells, per full-table cell, whether its combined bounds rest on
// sharp bounds of every solved component (components known exactly are
// sharp): Theorem 2 glues tables attaining the component bounds, so the
// combined bound is then attained too.
func (c *componentSolver) cellSharp(dims []int) []bool {
	n := model.NumCells(dims)
	f := allTrue(n)
	lv := make([]int, len(dims))
	for idx := 0; idx < n; idx++ {
		model.CellLevels(dims, idx, lv)
		for _, p := range c.parts {
			if !p.sharp[model.Project(dims, p.vars, lv)] {
				f[idx] = false
				break
			}
		}
	}
	return f
}

func runReducible(ms *model.MarginSet, set *Settings) (*Run, error) {
	cs := &componentSolver{set: set, methods: map[string]bool{}}
	b, err := frechet.ReducibleBy(ms, cs.solve, set.deadline)
	if errors.Is(err, frechet.ErrDeadline) {
		return trivialRun(ms, "the reducible decomposition stopped at the time limit: trivial bounds"), nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for m := range cs.methods {
		names = append(names, m)
	}
	sort.Strings(names)
	tag := Reducible + "(" + strings.Join(names, "+") + ")"
	fillMethod(b, tag) // cells the combination did not label

	return &Run{Bounds: b, Stopped: cs.stopped, sharpCell: cs.cellSharp(model.Dims(ms.Vars)),
		Note: "Theorem 2 over the components: " + strings.Join(cs.notes, "; ")}, nil
}

func runAuto(ms *model.MarginSet, set *Settings) (*Run, error) {
	if set.Certify {
		r, err := runCertifiedMethod(ms, set)
		if err == nil {
			fillMethod(r.Bounds, Certified)
		}
		return r, err
	}
	if frechet.Decomposable(ms) {
		r, err := runFrechet(ms)
		if err == nil {
			fillMethod(r.Bounds, Frechet)
		}
		return r, err
	}
	r, err := runReducible(ms, set)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, frechet.ErrNotReducible) {
		return nil, err
	}
	_, r, err = runSettled(ms, set)
	return r, err
}

// AutoShuttleMaxCells is the largest table (in cells) that auto settles with
// the shuttle and its correction step; larger tables go to certified LP+IP
// (the correction step's search grows too fast: on 2^8 with all 3-way
// margins it certified nothing in 113 s, see native/shuttle's benchmarks).
const AutoShuttleMaxCells = 64

// AutoIPMaxCells is the most cells auto settles by integer programs after
// the LP. Beyond it (5x5x5x5 with all 2-way margins leaves hundreds, and
// HiGHS needs more than 5 s for many of those IPs) auto returns valid
// integer bounds without proving them sharp; ask for --method ip to prove
// them.
const AutoIPMaxCells = 64

// AutoIPTimeLimit is the per-solve time limit of auto's integer programs
// when Settings.Params sets none.
const AutoIPTimeLimit = 5 * time.Second

// autoShuttleNodes is the per-search node budget auto gives the correction
// step when the user did not set one; bounds it leaves open go to the IP.
const autoShuttleNodes = 20000

// AutoShuttleBudget is the most time auto gives the shuttle with
// correction before the certified LP+IP settles what it left open (unless
// Settings.Shuttle is set). The shuttle is cheaper only on the smallest
// tables, by milliseconds; beyond them the certified method dominates it
// by orders of magnitude. `sdcopt bench bounds` on this machine (2 cores,
// load 5-14; sharp cells in parentheses, 30 s limit):
//
//	case                           cells  shuttle         certified  ip
//	2^4:2                          16     0.001 s (16)    0.004 s    -
//	2^5:2                          32     0.009 s (32)    0.011 s    5.4 s
//	2^5:3                          32     0.001 s (32)    0.014 s    -
//	3x4x5:2                        60     0.067 s (60)    0.013 s    6.1 s
//	4x4x4:2                        64     0.37 s (64)     0.081 s    3.8 s
//	2^6:3                          64     0.97 s (64)     0.24 s     13.1 s
//	2^6:2                          64     30 s (1 of 64)  0.40 s     6.0 s
//	autoworkers, all 15 2-way      64     30 s (10 of 64) 0.055 s    7.6 s
//
// (certified after the engines are loaded: the first LP in a process
// costs about 0.6 s more). So the shuttle gets the time certified would
// take on a 64-cell table, and the certified method settles the rest.
const AutoShuttleBudget = 100 * time.Millisecond

// runSettled computes sharp integer bounds for a margin set that is neither
// decomposable nor reducible: for small tables the shuttle with
// correction for at most AutoShuttleBudget, then the certified method;
// for larger tables LP+IP, the IP settling whatever the LP left unproven. It returns the name of the method that settled it. Under
// limits it keeps what it has: the shuttle's bounds when the time is up or
// the LP model does not fit, the tighter of the shuttle's and the LP+IP's
// bounds when the latter stopped.
func runSettled(ms *model.MarginSet, set *Settings) (string, *Run, error) {
	if set.Cells != nil {
		// Some cells only: the certified method on them (the shuttle and
		// LP+IP bound every cell).
		rc, err := runCertifiedMethod(ms, set)
		if err != nil {
			return "", nil, err
		}
		fillMethod(rc.Bounds, Certified)
		return Certified, rc, nil
	}
	if model.NumCells(model.Dims(ms.Vars)) <= AutoShuttleMaxCells {
		sset := *set
		if sset.Shuttle == nil {
			opt := shuttle.DefaultOptions()
			opt.MaxNodes = autoShuttleNodes
			opt.Initial = set.Initial
			opt.Deadline = time.Now().Add(AutoShuttleBudget)
			sset.Shuttle = opt
		}
		r, err := runShuttle(ms, &sset)
		switch {
		case errors.Is(err, shuttle.ErrTooLarge):
			r = nil // T does not fit: the LP and the IP may
		case err != nil:
			return "", nil, err
		case allSharp(r.sharpCell) || pastDeadline(set.deadline):
			// Sharp, or no time left for the LP and the IP.
			fillMethod(r.Bounds, Shuttle)
			return Shuttle, r, nil
		}
		// The certified method (dual certificates, witness tables, CBC for
		// what neither settles) dominates the LP+IP of larger tables here:
		// 0.05 s against 1-2 s on 2^6 and autoworkers with all 2-way
		// margins (see AutoShuttleBudget).
		rc, err := runCertifiedMethod(ms, set)
		if errors.Is(err, ErrTooLarge) && r != nil {
			// The LP model does not fit: keep the shuttle's valid bounds.
			fillMethod(r.Bounds, Shuttle)
			return Shuttle, r, nil
		}
		if err != nil {
			return "", nil, err
		}
		if r != nil && rc.Stopped != "" {
			// Both are valid: keep the tighter bound of each cell.
			intersect(rc.Bounds, r.Bounds)
			for i, ok := range r.sharpCell {
				rc.sharpCell[i] = rc.sharpCell[i] || ok
			}
		}
		fillMethod(rc.Bounds, Certified)
		return Certified, rc, nil
	}
	r, err := runCertified(ms, set)
	return "lp+ip", r, err
}

func allSharp(f []bool) bool {
	for _, ok := range f {
		if !ok {
			return false
		}
	}
	return true
}

// runCertified computes sharp integer bounds by LP first: when the engine's
// optimal vertex for a bound is an integer table, that table attains the
// bound, so the LP bound is the sharp integer bound. Only the cells with a
// bound not attained this way are solved as integer programs. Open cells
// keep the tighter of their LP bound rounded inward (valid for integer
// tables) and the integer program's bound, so a stop leaves valid bounds.
func runCertified(ms *model.MarginSet, set *Settings) (*Run, error) {
	if err := checkModel(ms, set, "lp+ip"); err != nil {
		return nil, err
	}
	if pastDeadline(set.deadline) {
		r := trivialRun(ms, "no LP solve started: trivial bounds")
		fillMethod(r.Bounds, "trivial")
		return r, nil
	}
	sl, err := solvers.New(set.Solver, false)
	if err != nil {
		return nil, err
	}
	var st lp.Stats
	b, err := lp.Solve(ms, sl, set.Params, lpOptions(set, LP, &st), false)
	if err != nil {
		return nil, err
	}
	var open []int
	sharp := attainedBoth(&st)
	for t := range b.Lower {
		b.Method[t] = "lp(integral vertex)"
		if !sharp[t] {
			open = append(open, t)
			b.Lower[t] = math.Ceil(b.Lower[t] - FracTol)
			b.Upper[t] = math.Floor(b.Upper[t] + FracTol)
		}
	}
	r := &Run{Bounds: b, Solver: sl.Name(), sharpCell: sharp}
	if len(open) == 0 {
		r.Note = fmt.Sprintf("every LP bound (%s, %d solves) was attained by an integral optimal vertex: sharp", sl.Name(), st.Solves)
		return r, nil
	}
	if st.Stopped {
		r.Stopped = StoppedTimeLimit
		for _, t := range open {
			b.Method[t] = "lp(rounded)"
		}
		r.Note = fmt.Sprintf("the LP (%s, %d solves) was cut short: %d cells carry their rounded LP or trivial bounds",
			sl.Name(), st.Solves, len(open))
		return r, nil
	}
	if len(open) > AutoIPMaxCells {
		return tightenUnproven(ms, set, r, open, st.Solves)
	}
	// CBC before the registry's MIP default, as for every integer program
	// over tables with given margins (NewTableMIP): on 2^6 with all 2-way
	// margins HiGHS took 9.2 s for the open cells, CBC 0.4 s.
	si, err := NewTableMIP(set.Solver)
	if err != nil {
		return nil, err
	}
	prm := set.Params.OrDefault()
	if prm.TimeLimit == 0 {
		// Without a limit one hard cell can stall auto for hours: a bound
		// cut short is still valid (the engine's dual bound, rounded
		// inward) and is reported as unproven.
		c := *prm
		c.TimeLimit = AutoIPTimeLimit
		prm = &c
	}
	var sti lp.Stats
	io := lpOptions(set, IP, &sti)
	io.Cells = open
	io.Cold = false
	bi, err := lp.Solve(ms, si, prm, io, true)
	if err != nil {
		return nil, err
	}
	for _, t := range open {
		b.Lower[t] = math.Max(b.Lower[t], bi.Lower[t])
		b.Upper[t] = math.Min(b.Upper[t], bi.Upper[t])
		b.Method[t] = IP
		sharp[t] = sti.LowerAttained[t] && sti.UpperAttained[t]
	}
	if sl.Name() != si.Name() {
		r.Solver = sl.Name() + "+" + si.Name()
	}
	if sti.Stopped {
		r.Stopped = StoppedTimeLimit
	}
	r.Note = fmt.Sprintf("LP (%s) bounds attained by integral vertices for %d of %d cells; the other %d solved as integer programs (%s)",
		sl.Name(), len(b.Lower)-len(open), len(b.Lower), len(open), si.Name())
	if sti.Unproven > 0 {
		r.Note += fmt.Sprintf("; %d integer bounds are engine dual bounds or rounded LP bounds (limit or gap): valid, maybe not sharp", sti.Unproven)
	}
	return r, nil
}

// tightenUnproven finishes runCertified when too many cells are open for
// the IP: every open bound becomes the tighter of the rounded LP bound
// (ceil of the lower, floor of the upper: valid for integer tables) and
// the generalized shuttle's bound (valid integer bounds, without the
// correction step). The result is valid but not proven sharp. When T does
// not fit in the memory limit the shuttle is left out (Stopped =
// StoppedMemoryLimit).
func tightenUnproven(ms *model.MarginSet, set *Settings, r *Run, open []int, solves int) (*Run, error) {
	opt := shuttle.DefaultOptions()
	opt.Correct = false
	sr, err := shuttleRun(ms, set, opt)
	label, with := "lp+shuttle(unproven)", "the tighter of the rounded LP and shuttle bounds"
	switch {
	case errors.Is(err, shuttle.ErrTooLarge):
		sr, label, with = nil, "lp(rounded)", "the rounded LP bounds (the shuttle's T does not fit in the memory limit)"
		r.Stopped = StoppedMemoryLimit
	case err != nil:
		return nil, err
	case sr.Stopped != "":
		r.Stopped = sr.Stopped
	}
	b := r.Bounds
	for _, t := range open {
		if sr != nil {
			b.Lower[t] = math.Max(b.Lower[t], sr.Bounds.Lower[t])
			b.Upper[t] = math.Min(b.Upper[t], sr.Bounds.Upper[t])
		}
		b.Method[t] = label
	}
	r.Note = fmt.Sprintf("LP (%s, %d solves) bounds attained by integral vertices for %d of %d cells; the other %d exceed auto's IP limit (%d cells) "+
		"and carry %s: valid integer bounds, not proven sharp (use --method ip to prove them)",
		r.Solver, solves, len(b.Lower)-len(open), len(b.Lower), len(open), AutoIPMaxCells, with)
	return r, nil
}

// Fractional reports whether an LP bound is not within FracTol of an
// integer.
func Fractional(v float64) bool {
	return !math.IsInf(v, 0) && math.Abs(v-math.Round(v)) > FracTol
}
