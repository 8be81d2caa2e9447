package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/frechet"
)

// Modes of a request.
const (
	ModeRelease  = "release"  // the true margin or nothing
	ModeSimulate = "simulate" // the true margin, or a simulated one when the true one is denied
)

// Outcomes of a decision.
const (
	Released  = "released"  // the true margin is published
	Simulated = "simulated" // a margin of a simulated table is published
	Denied    = "denied"    // nothing is published
)

// ErrRequest reports a request that names no or unknown variables or an
// unknown mode.
var ErrRequest = errors.New("audit: bad request")

// Options tune an Auditor; the zero value means defaults.
type Options struct {
	// Solver is the engine of the bounds' LPs/IPs, of the decision's
	// search and of the simulation ("" = auto: for the search's small
	// programs lp_solve when it is linked, see searchEngine).
	Solver string
	// TimeLimit is the deadline of each decision (0 = DefaultTimeLimit):
	// the bounds, the certified bounds when those are not proven sharp,
	// and a simulation share it, each getting the time left. What it
	// leaves undecided is denied.
	TimeLimit time.Duration
	// CacheSize is the number of public views whose bounds are kept
	// (0 = DefaultCacheSize).
	CacheSize int
	// FromScratch turns the incremental work off (implied margins, the
	// cache, the shuttle's warm start): every decision computes the bounds
	// anew. For benchmarks.
	FromScratch bool

	// noFirstMoves leaves every checked cell open to the search and the
	// bounds (no local moves before them; tests only, see export_test.go).
	noFirstMoves bool
}

// Defaults of Options.
const (
	DefaultTimeLimit = 60 * time.Second
	DefaultCacheSize = 64
)

// Request asks for one margin.
type Request struct {
	// Margin names the variables, in any order.
	Margin []string
	// Mode is ModeRelease (default "") or ModeSimulate.
	Mode string
	// Seed drives the simulation.
	Seed uint64
	// RequestID, Requester and Time are recorded with the release.
	RequestID string
	Requester string
	Time      time.Time
}

// Decision is the answer to a request, with the operator's evidence.
type Decision struct {
	RequestID     string    `json:"request_id,omitempty"`
	Requester     string    `json:"requester,omitempty"`
	Time          time.Time `json:"time,omitzero"`
	Margin        []string  `json:"margin"`
	Mode          string    `json:"mode"`
	Outcome       string    `json:"outcome"`
	Counts        []int64   `json:"counts,omitempty"`
	Simulated     bool      `json:"simulated"`
	PolicyVersion string    `json:"policy_version"`
	// Operator is the evidence behind the decision: for the operator
	// only, never part of the public answer (Public).
	Operator *OperatorReport `json:"operator,omitempty"`
}

// OperatorReport explains a decision.
type OperatorReport struct {
	// Explanation says in one sentence why.
	Explanation string `json:"explanation"`
	// Implied: the margin follows from an earlier release (named by
	// Source); nothing was computed.
	Implied bool   `json:"implied"`
	Source  string `json:"source,omitempty"`
	// Method is the cellbounds method that computed the bounds; Sharp
	// says whether they are proven sharp; Cached that they came from the
	// cache; Warm that the shuttle started from the history's bounds.
	Method  string  `json:"method,omitempty"`
	Sharp   bool    `json:"sharp"`
	Cached  bool    `json:"cached"`
	Warm    bool    `json:"warm"`
	Seconds float64 `json:"seconds"`
	// Cells is the number of cells checked; Disclosed the cells the
	// true release would disclose (bounds proven too narrow) and
	// Undecided those whose safety could not be proven (treated as
	// disclosed).
	Cells     int        `json:"cells"`
	Disclosed []CellRisk `json:"disclosed"`
	Undecided []CellRisk `json:"undecided"`
	// Inconsistent: the true margin contradicts the public view (which
	// holds simulated margins), so no table has both.
	Inconsistent bool `json:"inconsistent,omitempty"`
	// SimulationSeed and SimulationMethod describe a simulated answer.
	SimulationSeed   uint64 `json:"simulation_seed,omitempty"`
	SimulationMethod string `json:"simulation_method,omitempty"`
	// Evidence counts the checked cells by what decided them (see
	// Evidence in evidence.go).
	Evidence *Evidence `json:"evidence,omitempty"`

	// deadline of the decision: the local moves stop there too.
	deadline time.Time
}

// CellRisk is one cell the release would put at risk.
type CellRisk struct {
	Cell  int    `json:"cell"`
	Label string `json:"label"`
	Count int64  `json:"count"`
	// Lower and Upper are the proven bounds given history and request;
	// AttainedLower and AttainedUpper the interval integer tables are
	// known to attain (equal to the bounds when they are sharp).
	Lower         int64 `json:"lower"`
	Upper         int64 `json:"upper"`
	AttainedLower int64 `json:"attained_lower"`
	AttainedUpper int64 `json:"attained_upper"`
	Required      int64 `json:"required_width"`
}

// PublicDecision is what a requester sees: a denial carries no reason.
type PublicDecision struct {
	RequestID     string   `json:"request_id,omitempty"`
	Margin        []string `json:"margin"`
	Outcome       string   `json:"outcome"`
	Counts        []int64  `json:"counts,omitempty"`
	Simulated     bool     `json:"simulated"`
	PolicyVersion string   `json:"policy_version"`
}

// Public strips the operator's evidence.
func (d *Decision) Public() PublicDecision {
	return PublicDecision{RequestID: d.RequestID, Margin: slices.Clone(d.Margin), Outcome: d.Outcome,
		Counts: slices.Clone(d.Counts), Simulated: d.Simulated, PolicyVersion: d.PolicyVersion}
}

// Auditor decides requests on one confidential table under one policy. It
// is safe for concurrent use; callers serialize the decisions of one
// table's history (two requests decided against the same history may each
// be safe alone and not together).
type Auditor struct {
	table  *model.Table
	policy Policy
	opt    Options

	mu    sync.Mutex
	cache map[[32]byte]*intervals
	order [][32]byte
	// verified: the true releases already compared with the table.
	verified releaseCache

	// micro is set for an auditor of microdata (NewMicrodata; table is
	// nil); refine for the auditor of a collapsed table inside it.
	micro  *microState
	refine *refinement
}

// New returns an Auditor of table t under policy p.
func New(t *model.Table, p Policy, opt Options) (*Auditor, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if _, err := model.NewTable(t.Vars, t.Counts); err != nil {
		return nil, err
	}
	if opt.TimeLimit < 0 {
		return nil, fmt.Errorf("audit: negative time limit %v", opt.TimeLimit)
	}
	if opt.TimeLimit == 0 {
		opt.TimeLimit = DefaultTimeLimit
	}
	if opt.CacheSize <= 0 {
		opt.CacheSize = DefaultCacheSize
	}
	return &Auditor{table: t, policy: p, opt: opt, cache: map[[32]byte]*intervals{}}, nil
}

// Table returns the confidential table (nil for an auditor of microdata,
// whose full table is never built; see Vars).
func (a *Auditor) Table() *model.Table { return a.table }

// Vars returns the variables of the confidential table, with their levels.
func (a *Auditor) Vars() []model.Variable {
	if a.micro != nil {
		return a.micro.md.Vars
	}
	return a.table.Vars
}

// Policy returns the policy.
func (a *Auditor) Policy() Policy { return a.policy }

// ParseMargin reads a margin spec ("A:C", "AC" with one-letter names) into
// variable names in table order.
func (a *Auditor) ParseMargin(spec string) ([]string, error) {
	subs, err := model.ParseMarginSpec(a.Vars(), spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRequest, err)
	}
	if len(subs) != 1 {
		return nil, fmt.Errorf("%w: %q names %d margins, want one", ErrRequest, spec, len(subs))
	}
	return a.names(subs[0]), nil
}

func (a *Auditor) names(sub []int) []string {
	out := make([]string, len(sub))
	for i, j := range sub {
		out[i] = a.Vars()[j].Name
	}
	return out
}

// Decide answers req given history h (which it does not change; see
// History.Append).
func (a *Auditor) Decide(h *History, req Request) (*Decision, error) {
	return a.decideBy(h, req, time.Now().Add(a.opt.TimeLimit))
}

// decideBy is Decide with the decision's deadline (one for everything the
// decision computes, also across the auditors of collapsed tables).
func (a *Auditor) decideBy(h *History, req Request, deadline time.Time) (*Decision, error) {
	if a.micro != nil {
		return a.decideMicro(h, req, deadline)
	}
	start := time.Now()
	if err := h.check(a.table, &a.verified); err != nil {
		return nil, err
	}
	mode := req.Mode
	if mode == "" {
		mode = ModeRelease
	}
	if mode != ModeRelease && mode != ModeSimulate {
		return nil, fmt.Errorf("%w: unknown mode %q (want release or simulate)", ErrRequest, req.Mode)
	}
	if len(req.Margin) == 0 {
		return nil, fmt.Errorf("%w: the margin names no variable", ErrRequest)
	}
	var sub []int
	for _, n := range req.Margin {
		j := a.table.VarIndex(n)
		if j < 0 {
			return nil, fmt.Errorf("%w: unknown variable %q", ErrRequest, n)
		}
		if slices.Contains(sub, j) {
			return nil, fmt.Errorf("%w: variable %q appears twice", ErrRequest, n)
		}
		sub = append(sub, j)
	}
	sort.Ints(sub)
	d := &Decision{RequestID: req.RequestID, Requester: req.Requester, Time: req.Time, Margin: a.names(sub), Mode: mode,
		PolicyVersion: a.policy.Version(), Operator: &OperatorReport{Disclosed: []CellRisk{}, Undecided: []CellRisk{}}}
	d.Operator.deadline = deadline
	defer func() { d.Operator.Seconds = time.Since(start).Seconds() }()

	if !a.opt.FromScratch && a.implied(h, sub, d) {
		return d, nil
	}
	view, err := a.publicView(h)
	if err != nil {
		return nil, err
	}
	truth, err := a.table.Collapse(sub)
	if err != nil {
		return nil, err
	}
	asked := &model.MarginSet{Vars: a.table.Vars, Margins: append(slices.Clone(view.Margins), truth)}
	iv, err := a.bounds(asked, view, d.Operator, deadline, false)
	switch {
	case errors.Is(err, cellbounds.ErrInfeasible) && len(view.Margins) > 0:
		// Only possible when simulated releases are in the view.
		d.Operator.Inconsistent = true
	case err != nil:
		return nil, err
	default:
		a.check(iv, d.Operator)
	}
	op := d.Operator
	if !op.Inconsistent && len(op.Disclosed) == 0 && len(op.Undecided) == 0 {
		d.Outcome, d.Counts = Released, truth.Counts
		op.Explanation = fmt.Sprintf("every one of the %d cells keeps the width the policy requires given the %d earlier releases and this margin",
			op.Cells, len(h.Releases))
		return d, nil
	}
	why := a.reason(op)
	if mode == ModeSimulate && a.policy.AllowSimulate {
		if len(view.Margins) == 0 {
			// Nothing released yet: not even the total is public, and a
			// simulated table may depend only on the releases (a table
			// drawn with the confidential total would publish it).
			d.Outcome = Denied
			op.Explanation = why + "; not simulated: nothing has been released yet, so not even the total is public, and a simulated table may depend only on the releases"
			return d, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			d.Outcome = Denied
			op.Explanation = why + "; no time left to simulate within the decision's time limit"
			return d, nil
		}
		sim, err := Simulate(view, req.Seed, a.opt.Solver, left)
		if errors.Is(err, ErrNoTable) {
			d.Outcome = Denied
			op.Explanation = why + "; simulation impossible: no integer table has every released margin"
			return d, nil
		}
		if errors.Is(err, ErrSimulationLimit) {
			d.Outcome = Denied
			op.Explanation = why + "; the simulation found no table within the decision's time limit"
			return d, nil
		}
		if err != nil {
			return nil, err
		}
		m, err := sim.Collapse(sub)
		if err != nil {
			return nil, err
		}
		d.Outcome, d.Counts, d.Simulated = Simulated, m.Counts, true
		op.SimulationSeed, op.SimulationMethod = req.Seed, SimulationMethod
		op.Explanation = why + "; answered from a table simulated from the public releases"
		return d, nil
	}
	d.Outcome = Denied
	op.Explanation = why
	return d, nil
}

// implied answers from an earlier release containing the margin: a true
// one gives the true margin, else a simulated one its (public) values.
func (a *Auditor) implied(h *History, sub []int, d *Decision) bool {
	best := -1
	for i, r := range h.Releases {
		rs, _ := subsetOf(a.Vars(), r.Margin) // h.Check passed
		if !model.IsSubset(sub, rs) {
			continue
		}
		if best < 0 || (h.Releases[best].Simulated && !r.Simulated) {
			best = i
		}
	}
	if best < 0 {
		return false
	}
	r := h.Releases[best]
	rs, _ := subsetOf(a.Vars(), r.Margin)
	counts := model.CollapseMarginal(a.Vars(), &model.Marginal{Vars: rs, Counts: r.Counts}, sub)
	d.Counts, d.Simulated = counts, r.Simulated
	d.Outcome = Released
	if r.Simulated {
		d.Outcome = Simulated
	}
	d.Operator.Implied, d.Operator.Source, d.Operator.Sharp = true, fmt.Sprintf("release %d %s", best+1, marginName(r.Margin)), true
	d.Operator.Explanation = fmt.Sprintf("implied by release %d %s: already public, nothing computed", best+1, marginName(r.Margin))
	return true
}

// publicView is the margin set of every release with its released values
// (one margin per variable set; the same set released twice must agree).
func (a *Auditor) publicView(h *History) (*model.MarginSet, error) {
	ms := &model.MarginSet{Vars: a.table.Vars}
	for i, r := range h.Releases {
		sub, _ := subsetOf(a.table.Vars, r.Margin)
		if m, ok := ms.MarginalOf(sub); ok {
			if !slices.Equal(m.Counts, r.Counts) {
				return nil, fmt.Errorf("%w: release %d %s repeats an earlier margin with other values", ErrHistory, i+1, marginName(r.Margin))
			}
			continue
		}
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: sub, Counts: slices.Clone(r.Counts)})
	}
	if len(ms.Margins) > 0 {
		if err := ms.Check(); err != nil {
			return nil, fmt.Errorf("%w: the released margins contradict each other: %v", ErrHistory, err)
		}
	}
	return ms, nil
}

// intervals are per-cell proven bounds (outer) and attained values
// (inner: the true sharp interval contains [inLo, inHi] and lies within
// [lo, hi]).
type intervals struct {
	lo, hi     []int64
	inLo, inHi []int64
	sharp      bool
	stopped    bool // a computation stopped at the decision's deadline
	method     string
	bounds     *model.CellBounds
	// truth: the confidential table has every margin of the view (it is
	// a witness, the start of the local moves); margins are the view's
	// variable sets.
	truth   bool
	margins [][]int
	// moveSets are the variable sets of the local moves (evidence.go),
	// computed once.
	movesOnce sync.Once
	moveSets  [][]int
	// bySearch marks the cells whose attained interval the neighbourhood
	// search widened (search.go).
	bySearch map[int]bool
	// byMoves marks those the local moves widened.
	byMoves map[int]bool
}

// addMoved widens the attained intervals by the local moves' tables.
func (iv *intervals) addMoved(moved map[int]searched) {
	for c, f := range moved {
		if iv.inHi[c] >= iv.inLo[c] && f.lo >= iv.inLo[c] && f.hi <= iv.inHi[c] {
			continue
		}
		if iv.inHi[c] < iv.inLo[c] {
			iv.inLo[c], iv.inHi[c] = f.lo, f.hi
		} else {
			iv.inLo[c], iv.inHi[c] = min(iv.inLo[c], f.lo), max(iv.inHi[c], f.hi)
		}
		if iv.byMoves == nil {
			iv.byMoves = map[int]bool{}
		}
		iv.byMoves[c] = true
	}
}

// addProven narrows the proven intervals by the whole-table programs'
// optima.
func (iv *intervals) addProven(proven map[int]searched) {
	for c, p := range proven {
		iv.lo[c], iv.hi[c] = max(iv.lo[c], p.lo), min(iv.hi[c], p.hi)
	}
}

// addFound widens the attained intervals by the neighbourhood search's
// tables.
func (iv *intervals) addFound(found map[int]searched) {
	for c, f := range found {
		lo, hi := min(iv.inLo[c], f.lo), max(iv.inHi[c], f.hi)
		if iv.inHi[c] < iv.inLo[c] {
			lo, hi = f.lo, f.hi // nothing attained before
		}
		if lo < iv.inLo[c] || hi > iv.inHi[c] || iv.inHi[c] < iv.inLo[c] {
			if iv.bySearch == nil {
				iv.bySearch = map[int]bool{}
			}
			iv.bySearch[c] = true
		}
		iv.inLo[c], iv.inHi[c] = lo, hi
	}
}

// bounds computes (or takes from the cache) the intervals of ms by
// deadline; prev, when cached, is the shuttle's starting point. Intervals
// cut short by the deadline are not cached.
//
// every asks for the attained interval of every cell (the joint check of
// components needs them all); otherwise only the cells the policy checks
// are worked on (see compute). The two are cached apart.
func (a *Auditor) bounds(ms, prev *model.MarginSet, op *OperatorReport, deadline time.Time, every bool) (*intervals, error) {
	key := viewKey(ms)
	if every {
		key[0] ^= 0xff
	}
	if a.opt.FromScratch {
		return a.compute(ms, nil, op, deadline, every)
	}
	a.mu.Lock()
	iv := a.cache[key]
	var init *model.CellBounds
	if p := a.cache[viewKey(prev)]; p != nil && len(prev.Margins) > 0 {
		init = p.bounds
	}
	a.mu.Unlock()
	if iv != nil {
		op.Cached, op.Method, op.Sharp = true, iv.method, iv.sharp
		return iv, nil
	}
	iv, err := a.compute(ms, init, op, deadline, every)
	if err != nil {
		return nil, err
	}
	if iv.stopped {
		return iv, nil
	}
	a.mu.Lock()
	if _, ok := a.cache[key]; !ok {
		a.cache[key] = iv
		a.order = append(a.order, key)
		if len(a.order) > a.opt.CacheSize {
			delete(a.cache, a.order[0])
			a.order = a.order[1:]
		}
	}
	a.mu.Unlock()
	return iv, nil
}

// compute computes the intervals of ms by deadline, the shuttle starting
// from init when given.
func (a *Auditor) compute(ms *model.MarginSet, init *model.CellBounds, op *OperatorReport, deadline time.Time, every bool) (*intervals, error) {
	// The cheapest evidence first: when every margin of the view is
	// true, local moves from the confidential table show most cells safe
	// in milliseconds, and only the others need bounds (decide, don't
	// bound everything).
	need := a.needed(ms)
	truth := a.viewIsTrue(ms)
	var margins [][]int
	for _, m := range ms.Margins {
		margins = append(margins, m.Vars)
	}
	var sets [][]int
	// The search's attained intervals and the intervals it proved too
	// narrow (search.go).
	var found, proven map[int]searched
	// moved: the intervals the local moves attained.
	var moved map[int]searched
	// boxed: the intervals the box search attained (bigpieces.go);
	// bigBoxed: it ran on a table whose whole-table programs and bounds
	// take longer than a decision has (they are skipped or need time).
	var boxed map[int]searched
	bigBoxed := false
	open := need
	if every {
		open = nil // every cell, in table order
	}
	if truth && !every {
		sets = cellbounds.MoveSets(model.Dims(ms.Vars), margins)
		open, moved = a.openAfterMoves(ms, sets, need, deadline)
		if len(open) > 0 && a.upperOnly() && len(a.table.Counts) >= boxMinTable && !frechet.Decomposable(ms) {
			// Sparse tables of many variables: boxes around the open
			// cells first, at any size (bigpieces.go).
			open = a.notTriviallyDisclosed(ms, open, a.requirement())
			open, boxed = a.searchBoxes(ms, open, a.requirement(), moved, boxDeadline(len(a.table.Counts), deadline))
			bigBoxed = len(a.table.Counts) > boxShareMaxTable
		}
		if len(open) > 0 && (a.refine == nil || a.upperOnly()) && len(a.table.Counts) <= searchMaxTable && !frechet.Decomposable(ms) {
			// The cells the moves leave open: integer programs over
			// their neighbourhoods (search.go), unless the closed form
			// of a decomposable view gives sharp bounds at once. On the
			// tables of microdata (refine) only where the upper ends
			// alone decide (upperOnly; exact there, see search.go): on
			// synthetic20:3 the search aiming at full widths took p95
			// from 1.1 to 2.1 s on the collapsed tables, with the same
			// decisions (bench/README.md).
			// Near neighbourhoods for every open cell, then chained
			// slabs, then the whole table with a short limit (which
			// proves most disclosures), then far neighbourhoods, then
			// the whole table with the time left.
			req := a.requirement()
			minRadius := len(ms.Vars)
			for _, s := range sets {
				minRadius = min(minRadius, len(s))
			}
			proven = map[int]searched{}
			open = a.notTriviallyDisclosed(ms, open, req)
			open, found = a.searchOpen(ms, open, req, moved, nearRadii, minRadius, deadline)
			if len(open) > 0 {
				// Chained slabs (chain.go): they reach in milliseconds
				// what radius 4 takes half a second per cell for, and
				// before the first whole-table pass they spare it the
				// LP relaxation of the cells they decide (sdcopt bench
				// audit, 3^7:3@0.2 and 4^5:3@0.2, 5 sequences of 20
				// requests, load 2.5-3.8: the whole run 50 -> 40 s and
				// 24 -> 16 s, p95 3.1 -> 2.2 s and 1.3 -> 0.9 s against
				// the chain after that pass; the same decisions).
				var chained map[int]searched
				open, chained = a.chainOpen(ms, open, req, found, 1, deadline)
				maps.Copy(found, chained)
			}
			if !bigBoxed {
				open = a.decideWhole(ms, open, req, found, proven, wholeFirstLimit, deadline)
			}
			if len(open) > 0 {
				var far map[int]searched
				open, far = a.searchOpen(ms, open, req, found, farRadii, 0, deadline)
				maps.Copy(found, far)
				if !bigBoxed {
					open = a.decideWhole(ms, open, req, found, proven, 0, deadline)
				}
			}
		}
		if len(boxed) > 0 {
			if found == nil {
				found = map[int]searched{}
			}
			for c, f := range boxed {
				if g, ok := found[c]; ok {
					f = searched{min(f.lo, g.lo), max(f.hi, g.hi)}
				}
				found[c] = f
			}
		}
		if len(open) == 0 {
			iv := trivialIntervals(ms)
			iv.truth, iv.margins = true, margins
			iv.movesOnce.Do(func() { iv.moveSets = sets })
			iv.addMoved(moved)
			iv.addFound(found)
			iv.addProven(proven)
			op.Method, op.Sharp = iv.method, false
			if len(found) > 0 {
				iv.method += "+search"
				op.Method = iv.method
			}
			return iv, nil
		}
	}
	if time.Now().After(deadline) || (bigBoxed && time.Until(deadline) < bigBoundsMin) {
		// No time left: not even the closed forms (seconds on tables of
		// millions of cells). The trivial bounds are valid; what the
		// evidence at hand does not decide is undecided.
		iv := trivialIntervals(ms)
		iv.truth, iv.margins, iv.stopped, iv.method = truth, margins, true, "trivial"
		if truth {
			for c, x := range a.table.Counts {
				iv.inLo[c], iv.inHi[c] = x, x // the confidential table has the view
			}
		}
		if sets != nil {
			iv.movesOnce.Do(func() { iv.moveSets = sets })
		}
		iv.addMoved(moved)
		iv.addFound(found)
		iv.addProven(proven)
		op.Method, op.Sharp = iv.method, false
		return iv, nil
	}
	set := cellbounds.Settings{Method: cellbounds.Auto, Solver: a.opt.Solver, TimeLimit: timeLeft(deadline), Initial: init}
	if len(a.table.Counts) > cellbounds.AutoShuttleMaxCells && !every {
		// Beyond the shuttle's tables auto bounds every cell by LP+IP:
		// only the open cells, likely disclosures first.
		set.Cells = open
	}
	run, err := cellbounds.Compute(ms, set)
	if err != nil {
		return nil, err
	}
	n := len(run.Bounds.Lower)
	iv := &intervals{lo: make([]int64, n), hi: make([]int64, n), method: methodName(run.Bounds.Method), bounds: run.Bounds, sharp: run.Sharp,
		stopped: run.Stopped == cellbounds.StoppedTimeLimit}
	for c := range n {
		iv.lo[c], iv.hi[c] = ceil(run.Bounds.Lower[c]), floor(run.Bounds.Upper[c])
	}
	if run.Sharp {
		iv.inLo, iv.inHi = iv.lo, iv.hi
	} else {
		// Not proven sharp: the certified method's witnesses give the
		// attained interval, its duals the proven one.
		// Only the open cells the policy checks, the likely disclosures
		// first: a decision needs no other bound. Auto ran the certified
		// method on them already when it was given them.
		cr := &run.Run
		if run.Certificates == nil || set.Cells == nil {
			cset := cellbounds.Settings{Method: cellbounds.Certified, Solver: a.opt.Solver, TimeLimit: timeLeft(deadline), Cells: open}
			res, err := cellbounds.Compute(ms, cset)
			if err != nil {
				return nil, err
			}
			cr = &res.Run
		}
		iv.stopped = iv.stopped || cr.Stopped == cellbounds.StoppedTimeLimit
		iv.method += "+certified"
		iv.inLo, iv.inHi = make([]int64, n), make([]int64, n)
		for c := range n {
			iv.lo[c], iv.hi[c] = max(iv.lo[c], ceil(cr.Bounds.Lower[c])), min(iv.hi[c], floor(cr.Bounds.Upper[c]))
			iv.inLo[c], iv.inHi[c] = iv.hi[c]+1, iv.lo[c]-1 // empty until a table is known
		}
		var tables [][]int64
		if cr.Certificates != nil { // none when the time was up before it started
			tables = cr.Certificates.Witnesses
		}
		iv.truth, iv.margins = truth, margins
		if sets != nil {
			iv.movesOnce.Do(func() { iv.moveSets = sets })
		}
		if iv.truth {
			tables = append(tables, a.table.Counts) // the confidential table has every true margin
		}
		for _, w := range tables {
			for c, x := range w {
				iv.inLo[c], iv.inHi[c] = min(iv.inLo[c], x), max(iv.inHi[c], x)
			}
		}
		iv.addMoved(moved)
		iv.addFound(found)
		iv.addProven(proven)
		if len(found) > 0 {
			iv.method += "+search"
		}
		// Sharp where it matters: every bound of every checked cell is
		// attained and proven (the others were not worked on).
		iv.sharp = cr.Sharp || (cr.Certificates != nil && !every && len(open) == len(need) && allSharp(cr.Certificates, need))
		if iv.sharp {
			iv.inLo, iv.inHi = iv.lo, iv.hi
		}
	}
	op.Method, op.Sharp, op.Warm = iv.method, iv.sharp, init != nil && iv.method == cellbounds.Shuttle
	return iv, nil
}

// openAfterMoves returns the cells of need (in order) that local moves
// from the confidential table (over the variable sets sets) do not show
// safe: moved down toward count - required and then up, the interval
// reached is narrower than the required width (upperOnly: moved up toward
// the required width, not reached). The moves never leave the
// integer tables with the view's margins, so a cell they show safe is
// safe whatever the bounds; classify finds the same moves again.
//
// The moves stop at deadline: the cells not reached by then are open.
//
// It returns also the interval the moves attained for each cell they
// moved.
func (a *Auditor) openAfterMoves(ms *model.MarginSet, sets [][]int, need []int, deadline time.Time) ([]int, map[int]searched) {
	moved := map[int]searched{}
	if len(sets) == 0 || a.opt.noFirstMoves {
		return need, moved
	}
	req := a.requirement()
	dims := model.Dims(ms.Vars)
	lv := make([]int, len(dims))
	var open []int
	for i, c := range need {
		if i%64 == 0 && time.Now().After(deadline) {
			return append(open, need[i:]...), moved
		}
		q := req[c]
		model.CellLevels(dims, c, lv)
		u := int64(math.MaxInt64)
		for _, m := range ms.Margins {
			u = min(u, m.Counts[model.Project(dims, m.Vars, lv)])
		}
		down := a.table.Counts[c]
		if !a.upperOnly() {
			down = moveInterval(a.table, sets, c, -1, max(0, a.table.Counts[c]-q), uint64(c))
		}
		up := moveInterval(a.table, sets, c, +1, min(u, a.base(searched{down, down})+q), uint64(c))
		if up > down {
			moved[c] = searched{down, up}
		}
		if a.reached(searched{down, up}) < q {
			open = append(open, c)
		}
	}
	return open, moved
}

// notTriviallyDisclosed drops the cells whose trivial bounds [0, u_c]
// (u_c the least released marginal cell containing c) are narrower than
// the width required: disclosed whatever the search finds, they need no
// search (classify finds them disclosed by trivialIntervals' bounds).
func (a *Auditor) notTriviallyDisclosed(ms *model.MarginSet, cells []int, req []int64) []int {
	dims := model.Dims(ms.Vars)
	lv := make([]int, len(dims))
	var out []int
	for _, c := range cells {
		model.CellLevels(dims, c, lv)
		u := int64(math.MaxInt64)
		for _, m := range ms.Margins {
			u = min(u, m.Counts[model.Project(dims, m.Vars, lv)])
		}
		if u >= req[c] {
			out = append(out, c)
		}
	}
	return out
}

// trivialIntervals are the trivial bounds of every cell, [0, least
// released marginal cell containing it] (valid, not sharp), with nothing
// attained yet.
func trivialIntervals(ms *model.MarginSet) *intervals {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	b := &model.CellBounds{Lower: make([]float64, n), Upper: make([]float64, n), Method: make([]string, n)}
	iv := &intervals{lo: make([]int64, n), hi: make([]int64, n), inLo: make([]int64, n), inHi: make([]int64, n), method: "moves", bounds: b}
	lv := make([]int, len(dims))
	for c := range n {
		model.CellLevels(dims, c, lv)
		u := int64(math.MaxInt64)
		for _, m := range ms.Margins {
			u = min(u, m.Counts[model.Project(dims, m.Vars, lv)])
		}
		iv.hi[c], b.Upper[c], b.Method[c] = u, float64(u), "trivial"
		iv.inLo[c], iv.inHi[c] = u+1, -1 // empty until a table is known
	}
	return iv
}

// requirement returns the width the policy requires of each cell of the
// auditor's table (for the auditor of a collapsed table, the most
// demanding of its full cells and, with ProtectCollapsed, of itself).
func (a *Auditor) requirement() []int64 {
	req := make([]int64, len(a.table.Counts))
	for y, count := range a.table.Counts {
		q := int64(0)
		if a.refine == nil || a.refine.collapsed {
			q = a.policy.RequiredWidth(count)
		}
		if a.refine != nil {
			q = max(q, a.refine.req[y])
		}
		req[y] = q
	}
	return req
}

// needed lists the cells the policy checks (those with a required width),
// the likely disclosures first: ordered by the room their trivial upper
// bound leaves over the required width (u_c - required, u_c the least
// released marginal cell containing c; the lower bound is at least 0, so
// a cell with u_c < required is disclosed whatever else is released),
// then by index.
func (a *Auditor) needed(ms *model.MarginSet) []int {
	req := a.requirement()
	dims := model.Dims(ms.Vars)
	lv := make([]int, len(dims))
	type cell struct {
		c    int
		room int64
	}
	var cells []cell
	for c, q := range req {
		if q == 0 {
			continue
		}
		model.CellLevels(dims, c, lv)
		u := int64(math.MaxInt64)
		for _, m := range ms.Margins {
			u = min(u, m.Counts[model.Project(dims, m.Vars, lv)])
		}
		cells = append(cells, cell{c, u - q})
	}
	slices.SortStableFunc(cells, func(x, y cell) int {
		if x.room != y.room {
			if x.room < y.room {
				return -1
			}
			return 1
		}
		return x.c - y.c
	})
	out := make([]int, len(cells))
	for i, x := range cells {
		out[i] = x.c
	}
	return out
}

// allSharp reports whether both bounds of every cell of cells are
// attained and proven by the certificates.
func allSharp(certs *cellbounds.Certificates, cells []int) bool {
	for _, c := range cells {
		if !certs.Cells[c].Lower.Sharp() || !certs.Cells[c].Upper.Sharp() {
			return false
		}
	}
	return true
}

// timeLeft is the time until deadline as a cellbounds time limit: at
// least a nanosecond, since 0 there means no limit (a passed deadline
// gives the trivial bounds at once).
func timeLeft(deadline time.Time) time.Duration {
	return max(time.Until(deadline), time.Nanosecond)
}

// viewIsTrue reports whether every margin of ms is a margin of the table.
// A margin found true is remembered (the auditor's cache of true
// releases): a decision's view repeats the history's margins.
func (a *Auditor) viewIsTrue(ms *model.MarginSet) bool {
	for _, m := range ms.Margins {
		r := &Release{Margin: a.names(m.Vars), Counts: m.Counts}
		if a.verified.has(r) {
			continue
		}
		t, err := a.table.Collapse(m.Vars)
		if err != nil || !slices.Equal(t.Counts, m.Counts) {
			return false
		}
		a.verified.add(r)
	}
	return true
}

// check applies the policy to every cell.
func (a *Auditor) check(iv *intervals, op *OperatorReport) {
	if a.refine != nil {
		a.checkRefined(iv, op)
		return
	}
	op.Cells = len(iv.lo)
	for c, count := range a.table.Counts {
		req := a.policy.RequiredWidth(count)
		if req == 0 {
			continue
		}
		risk := CellRisk{Cell: c, Label: model.CellLabel(a.table.Vars, nil, c), Count: count, Lower: iv.lo[c], Upper: iv.hi[c],
			AttainedLower: iv.inLo[c], AttainedUpper: iv.inHi[c], Required: req}
		a.classify(iv, risk, false, op)
	}
}

func (a *Auditor) reason(op *OperatorReport) string {
	switch {
	case op.Inconsistent:
		return "the true margin contradicts the simulated releases: no table has both"
	case len(op.Disclosed) > 0:
		r := op.Disclosed[0]
		return fmt.Sprintf("%d cells would be disclosed, e.g. %s (count %d) would lie in [%d, %d] (width %d, required %d)",
			len(op.Disclosed), r.Label, r.Count, r.Lower, r.Upper, r.Upper-r.Lower, r.Required)
	default:
		r := op.Undecided[0]
		return fmt.Sprintf("%d cells could not be proven safe within the time limit, e.g. %s: proven [%d, %d], attained [%d, %d], width %d required",
			len(op.Undecided), r.Label, r.Lower, r.Upper, r.AttainedLower, r.AttainedUpper, r.Required)
	}
}

// viewKey hashes a margin set's margins (variables and values).
func viewKey(ms *model.MarginSet) [32]byte {
	type m struct {
		vars   []int
		counts []int64
	}
	var ms2 []m
	for _, x := range ms.Margins {
		ms2 = append(ms2, m{x.Vars, x.Counts})
	}
	slices.SortFunc(ms2, func(a, b m) int { return slices.Compare(a.vars, b.vars) })
	h := sha256.New()
	var buf [8]byte
	for _, x := range ms2 {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(x.vars)))
		h.Write(buf[:])
		for _, v := range x.vars {
			binary.LittleEndian.PutUint64(buf[:], uint64(v))
			h.Write(buf[:])
		}
		binary.LittleEndian.PutUint64(buf[:], uint64(len(x.counts)))
		h.Write(buf[:])
		for _, v := range x.counts {
			binary.LittleEndian.PutUint64(buf[:], uint64(v))
			h.Write(buf[:])
		}
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func methodName(ms []string) string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "+")
}

// ceil and floor round a bound inward to the integer it stands for (LP
// bounds carry round-off).
func ceil(x float64) int64  { return int64(math.Ceil(x - 1e-6)) }
func floor(x float64) int64 { return int64(math.Floor(x + 1e-6)) }
