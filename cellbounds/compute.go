package cellbounds

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"sdcopt/ip"
	"sdcopt/lp"
	"sdcopt/model"
	"sdcopt/native/frechet"
	"sdcopt/native/shuttle"
	"sdcopt/solvers"
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
var Methods = []string{Auto, LP, IP, Shuttle, Frechet, Reducible}

var (
	// ErrInfeasible: the margins are inconsistent or admit no table.
	ErrInfeasible = errors.New("cellbounds: the margins admit no table")
	// ErrNotApplicable: the asked method does not apply to these margins.
	ErrNotApplicable = errors.New("cellbounds: method does not apply to these margins")
	// ErrUnknownMethod: a method name not in Methods.
	ErrUnknownMethod = errors.New("cellbounds: unknown method")
)

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
	// Progress, when set, receives per-method progress (done, total).
	Progress func(method string, done, total int)
}

// Run is the outcome of one method.
type Run struct {
	Method  string
	Bounds  *model.CellBounds // every full-table cell; Bounds.Method per cell
	Solver  string            // the engine used, "" for native methods
	Seconds float64
	// Sharp reports that every bound is proven to be the sharp integer
	// bound (Fréchet, IP without gaps, shuttle with every bound certified,
	// and combinations of those).
	Sharp bool
	// Note says what the method proved, in one sentence.
	Note string
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
// malformed ones are returned as they are.
func Compute(ms *model.MarginSet, set Settings) (*Result, error) {
	if set.Method == "" {
		set.Method = Auto
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
	}
	if err != nil {
		return nil, classify(err)
	}
	r.Method = method
	r.Seconds = time.Since(start).Seconds()
	fillMethod(r.Bounds, method)
	return r, nil
}

// classify wraps the infeasibility and applicability sentinels of the
// method packages into this package's.
func classify(err error) error {
	switch {
	case errors.Is(err, ErrInfeasible), errors.Is(err, ErrNotApplicable):
		return err
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

func runEngine(ms *model.MarginSet, set *Settings, integer bool) (*Run, error) {
	s, err := solvers.New(set.Solver, integer)
	if err != nil {
		return nil, err
	}
	method := LP
	if integer {
		method = IP
	}
	var st lp.Stats
	opt := &lp.Options{Progress: progress(set, method), Cold: set.Cold, Stats: &st}
	b, err := lp.Solve(ms, s, set.Params, opt, integer)
	if err != nil {
		return nil, err
	}
	r := &Run{Bounds: b, Solver: s.Name()}
	switch {
	case !integer:
		r.Note = fmt.Sprintf("LP bounds from %d solves (%d cells presolved at 0); not sharp in general", st.Solves, st.Presolved)
	case st.Unproven == 0:
		r.Sharp = true
		r.Note = fmt.Sprintf("sharp integer bounds proven by %s (%d integer solves)", s.Name(), st.Solves)
	default:
		r.Note = fmt.Sprintf("%d integer bounds are the engine's dual bounds (limit or gap): valid, maybe not sharp", st.Unproven)
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
	sr, err := shuttle.Bounds(ms, opt)
	if err != nil {
		return nil, err
	}
	return &Run{Bounds: sr.Bounds, Sharp: sr.Sharp, Note: sr.Note}, nil
}

func runFrechet(ms *model.MarginSet) (*Run, error) {
	if !frechet.Decomposable(ms) {
		return nil, fmt.Errorf("%w: %s are not the cliques of a decomposable (chordal) independence graph", frechet.ErrNotDecomposable, ms.Name())
	}
	b, err := frechet.Bounds(ms)
	if err != nil {
		return nil, err
	}
	return &Run{Bounds: b, Sharp: true, Note: "closed-form Fréchet bounds of a decomposable model (Theorem 1): sharp"}, nil
}

// componentSolver solves the components of a reducible graph with the best
// applicable native method, recording their names and sharpness.
type componentSolver struct {
	set     *Settings
	methods map[string]bool
	sharp   bool
	notes   []string
}

func (c *componentSolver) solve(sub *model.MarginSet) (*model.CellBounds, error) {
	var r *Run
	var err error
	name := Frechet
	if frechet.Decomposable(sub) {
		r, err = runFrechet(sub)
	} else {
		name, r, err = runSettled(sub, c.set)
	}
	if err != nil {
		return nil, err
	}
	c.methods[name] = true
	c.sharp = c.sharp && r.Sharp
	c.notes = append(c.notes, fmt.Sprintf("%s by %s", sub.Name(), name))
	fillMethod(r.Bounds, name)
	return r.Bounds, nil
}

func runReducible(ms *model.MarginSet, set *Settings) (*Run, error) {
	cs := &componentSolver{set: set, methods: map[string]bool{}, sharp: true}
	b, err := frechet.Reducible(ms, cs.solve)
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

	return &Run{Bounds: b, Sharp: cs.sharp,
		Note: "Theorem 2 over the components: " + strings.Join(cs.notes, "; ")}, nil
}

func runAuto(ms *model.MarginSet, set *Settings) (*Run, error) {
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

// runSettled computes sharp integer bounds for a margin set that is neither
// decomposable nor reducible: the shuttle with correction for small
// tables, certified LP+IP otherwise, the IP settling whatever the faster
// method left unproven. It returns the name of the method that settled it.
func runSettled(ms *model.MarginSet, set *Settings) (string, *Run, error) {
	if model.NumCells(model.Dims(ms.Vars)) <= AutoShuttleMaxCells {
		sset := *set
		if sset.Shuttle == nil {
			opt := shuttle.DefaultOptions()
			opt.MaxNodes = autoShuttleNodes
			sset.Shuttle = opt
		}
		r, err := runShuttle(ms, &sset)
		if err != nil {
			return "", nil, err
		}
		if r.Sharp {
			fillMethod(r.Bounds, Shuttle)
			return Shuttle, r, nil
		}
	}
	r, err := runCertified(ms, set)
	return "lp+ip", r, err
}

// runCertified computes sharp integer bounds by LP first: when the engine's
// optimal vertex for a bound is an integer table, that table attains the
// bound, so the LP bound is the sharp integer bound. Only the cells with a
// bound not attained this way are solved as integer programs.
func runCertified(ms *model.MarginSet, set *Settings) (*Run, error) {
	sl, err := solvers.New(set.Solver, false)
	if err != nil {
		return nil, err
	}
	var st lp.Stats
	b, err := lp.Solve(ms, sl, set.Params, &lp.Options{Progress: progress(set, LP), Cold: set.Cold, Stats: &st}, false)
	if err != nil {
		return nil, err
	}
	var open []int
	for t := range b.Lower {
		b.Method[t] = "lp(integral vertex)"
		if !st.LowerAttained[t] || !st.UpperAttained[t] {
			open = append(open, t)
		}
	}
	r := &Run{Bounds: b, Solver: sl.Name(), Sharp: true}
	if len(open) == 0 {
		r.Note = fmt.Sprintf("every LP bound (%s, %d solves) was attained by an integral optimal vertex: sharp", sl.Name(), st.Solves)
		return r, nil
	}
	if len(open) > AutoIPMaxCells {
		return tightenUnproven(ms, set, r, open, st.Solves)
	}
	si, err := solvers.New(set.Solver, true)
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
	bi, err := lp.Solve(ms, si, prm, &lp.Options{Cells: open, Progress: progress(set, IP), Stats: &sti}, true)
	if err != nil {
		return nil, err
	}
	for _, t := range open {
		b.Lower[t], b.Upper[t], b.Method[t] = bi.Lower[t], bi.Upper[t], IP
	}
	if sl.Name() != si.Name() {
		r.Solver = sl.Name() + "+" + si.Name()
	}
	r.Sharp = sti.Unproven == 0
	r.Note = fmt.Sprintf("LP (%s) bounds attained by integral vertices for %d of %d cells; the other %d solved as integer programs (%s)",
		sl.Name(), len(b.Lower)-len(open), len(b.Lower), len(open), si.Name())
	if !r.Sharp {
		r.Note += fmt.Sprintf("; %d integer bounds are engine dual bounds (limit or gap): valid, maybe not sharp", sti.Unproven)
	}
	return r, nil
}

// tightenUnproven finishes runCertified when too many cells are open for
// the IP: every open bound becomes the tighter of the rounded LP bound
// (ceil of the lower, floor of the upper: valid for integer tables) and
// the generalized shuttle's bound (valid integer bounds, without the
// correction step). The result is valid but not proven sharp.
func tightenUnproven(ms *model.MarginSet, set *Settings, r *Run, open []int, solves int) (*Run, error) {
	opt := shuttle.DefaultOptions()
	opt.Correct = false
	sr, err := shuttle.Bounds(ms, opt)
	if err != nil {
		return nil, err
	}
	b := r.Bounds
	for _, t := range open {
		lo := math.Max(math.Ceil(b.Lower[t]-FracTol), sr.Bounds.Lower[t])
		up := math.Min(math.Floor(b.Upper[t]+FracTol), sr.Bounds.Upper[t])
		b.Lower[t], b.Upper[t], b.Method[t] = lo, up, "lp+shuttle(unproven)"
	}
	r.Sharp = false
	r.Note = fmt.Sprintf("LP (%s, %d solves) bounds attained by integral vertices for %d of %d cells; the other %d exceed auto's IP limit (%d cells) "+
		"and carry the tighter of the rounded LP and shuttle bounds: valid integer bounds, not proven sharp (use --method ip to prove them)",
		r.Solver, solves, len(b.Lower)-len(open), len(b.Lower), len(open), AutoIPMaxCells)
	return r, nil
}

// Fractional reports whether an LP bound is not within FracTol of an
// integer.
func Fractional(v float64) bool {
	return !math.IsInf(v, 0) && math.Abs(v-math.Round(v)) > FracTol
}
