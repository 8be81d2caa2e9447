package audit

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// Auditing microdata without the full table.
//
// The confidential table T is the cross-classification of the records
// over every declared variable V. A decision involves only the variables
// W ⊆ V of the released margins and of the request (their union). Write
// a cell of T as x = (y, z), y a cell of the table T_W over W (the
// collapse of T) and z a cell over V \ W. Every released margin is over
// some U ⊆ W, so it is a function of T_W alone, and:
//
//  1. The tables over V with the released margins are exactly the tables
//     whose collapse to W has them, with the count n_W(y) of every y
//     split freely (any non-negative integers summing to n_W(y)) over the
//     cells z: the margins fix nothing finer than W. Hence the sharp
//     integer bounds of a W-cell y given the margins are the same whether
//     the table is seen over V or over W: [L(y), U(y)], computed on T_W.
//  2. A full cell x = (y, z) ranges over [0, U(y)] when V \ W has at least
//     two cells (some variable outside W with two or more levels): the
//     upper bound puts all of n_W(y) into z in a table attaining U(y);
//     the lower bound puts it into another z' ≠ z (every table with the
//     margins has such a completion). Both ends are attained by integer
//     tables, so [0, U(y)] is sharp; the lower bound L(y) of the W-cell
//     plays no role. When V \ W has a single cell, x = y and the interval
//     is [L(y), U(y)].
//
// So the policy (Policy.RequiredWidth of every non-empty full cell) is
// checked per W-cell y against the most demanding non-empty full cell
// inside it, req(y) = max RequiredWidth(n_x) over x = (y, z) with n_x > 0,
// with the width U(y) - 0 (or U(y) - L(y) when V \ W has one cell). As
// n_x <= n_W(y) <= U(y) and min_rel_width <= 1, the exact rule and the
// relative rule always hold for a full cell inside a wider W-cell; only
// the small-cell rule can fail: a full cell with count in 1..small-1
// inside a W-cell whose upper bound is below min_width. This is what the
// full-table auditor decides, without building T (tests compare the two).
//
// The full cells' rule does not protect the W-cells themselves: a W-cell
// determined by the margins (L(y) = U(y) = 1, a unique respondent on
// the variables W) leaves every full cell inside it free in [0, 1]. With
// MicrodataOptions.ProtectCollapsed the policy is applied to the cells of
// T_W too (with their own counts and [L(y), U(y)]) unless T_W is itself
// published by a true release or the request (collapsed.go), which is
// more conservative than the full table's rule.
//
// Where the bounds of T_W are not proven sharp, the proven interval
// decides a disclosure and only the attained one a release (as for a full
// table): the full-cell intervals built from them are proven [0, U] and
// attained [0, attained U] respectively.

// DefaultMaxCells is the default of MicrodataOptions.MaxCells.
const DefaultMaxCells = 1 << 22

// MicrodataOptions tune an auditor of microdata; the zero value means
// defaults.
type MicrodataOptions struct {
	// MaxCells bounds the table over the variables of one decision (the
	// union of the history's and the request's variables); a larger one
	// is not built and the request is denied as undecided
	// (0 = DefaultMaxCells).
	MaxCells int
	// ProtectCollapsed also applies the policy to every non-empty cell of
	// the collapsed table of a decision (the table over the variables of
	// the history and the request) unless that table is itself published
	// by a true release or the request: it protects the collapsed cells
	// that a combination of releases pins (collapsed.go).
	ProtectCollapsed bool
}

// microState is the microdata of an auditor and its collapsed tables'
// auditors.
type microState struct {
	md      *datasets.Microdata
	mopt    MicrodataOptions
	levels  [][]int32 // non-empty full cells
	counts  []int64
	mu      sync.Mutex
	inner   map[string]*Auditor // by the variables of the collapsed table
	order   []string
	maxKeep int // auditors kept at most
	// kept is the number of cells of the kept auditors' tables; beyond
	// MaxCells the oldest are dropped (down to one), so that the pieces
	// of a split decision, small and many, stay while the tables of
	// millions of cells do not pile up.
	kept int
}

// refinement maps the policy of the full cells onto the cells of a
// collapsed table (see the derivation above).
type refinement struct {
	req       []int64 // per collapsed cell: the largest required width of a non-empty full cell inside (0: none)
	count     []int64 // the count of that full cell
	pad       bool    // the variables outside the collapsed table have two cells or more
	collapsed bool    // apply the policy to the collapsed cells too
}

// NewMicrodata returns an Auditor of the cross-classification of md's
// records under policy p; the full table is never built. Each decision
// collapses the records to the table over the variables of the history
// and the request and decides there (see the derivation above); the
// auditor of each collapsed table, with its cache, is kept for the next
// decisions over the same variables.
func NewMicrodata(md *datasets.Microdata, p Policy, opt Options, mopt MicrodataOptions) (*Auditor, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if md == nil || md.N == 0 || len(md.Vars) == 0 {
		return nil, errors.New("audit: no microdata")
	}
	if opt.TimeLimit < 0 {
		return nil, fmt.Errorf("audit: negative time limit %v", opt.TimeLimit)
	}
	if opt.TimeLimit == 0 {
		opt.TimeLimit = DefaultTimeLimit
	}
	if mopt.MaxCells < 0 {
		return nil, fmt.Errorf("audit: negative cell limit %d", mopt.MaxCells)
	}
	if mopt.MaxCells == 0 {
		mopt.MaxCells = DefaultMaxCells
	}
	levels, counts := md.Cells()
	ms := &microState{md: md, mopt: mopt, levels: levels, counts: counts, inner: map[string]*Auditor{}, maxKeep: 256}
	return &Auditor{policy: p, opt: opt, micro: ms}, nil
}

// Microdata returns the records of an auditor of microdata (nil for a
// table's auditor).
func (a *Auditor) Microdata() *datasets.Microdata {
	if a.micro == nil {
		return nil
	}
	return a.micro.md
}

// NewHistory returns the empty history of the auditor's table.
func (a *Auditor) NewHistory() *History {
	h := &History{Version: HistoryVersion, Releases: []Release{}}
	for _, v := range a.Vars() {
		h.Vars = append(h.Vars, HistoryVar{Name: v.Name, Levels: slices.Clone(v.Levels)})
	}
	return h
}

// decideMicro decides req on the table over the variables of h and req.
func (a *Auditor) decideMicro(h *History, req Request, deadline time.Time) (*Decision, error) {
	start := time.Now()
	md := a.micro.md
	if err := a.CheckHistory(h); err != nil {
		return nil, err
	}
	inW := make([]bool, len(md.Vars))
	for i, r := range h.Releases {
		sub, err := subsetOf(md.Vars, r.Margin)
		if err != nil {
			return nil, fmt.Errorf("%w: release %d: %v", ErrHistory, i+1, err)
		}
		for _, j := range sub {
			inW[j] = true
		}
	}
	if req.Mode != "" && req.Mode != ModeRelease && req.Mode != ModeSimulate {
		return nil, fmt.Errorf("%w: unknown mode %q (want release or simulate)", ErrRequest, req.Mode)
	}
	if len(req.Margin) == 0 {
		return nil, fmt.Errorf("%w: the margin names no variable", ErrRequest)
	}
	var sub []int
	for _, n := range req.Margin {
		j := md.VarIndex(n)
		if j < 0 {
			return nil, fmt.Errorf("%w: unknown variable %q", ErrRequest, n)
		}
		if slices.Contains(sub, j) {
			return nil, fmt.Errorf("%w: variable %q appears twice", ErrRequest, n)
		}
		sub = append(sub, j)
		inW[j] = true
	}
	sort.Ints(sub)
	var w []int
	for j, in := range inW {
		if in {
			w = append(w, j)
		}
	}
	if !a.opt.FromScratch {
		// A margin implied by a release is answered from it, before any
		// table is collapsed.
		d := &Decision{RequestID: req.RequestID, Requester: req.Requester, Time: req.Time, Margin: a.names(sub), Mode: req.Mode,
			PolicyVersion: a.policy.Version(), Operator: &OperatorReport{Disclosed: []CellRisk{}, Undecided: []CellRisk{}}}
		if d.Mode == "" {
			d.Mode = ModeRelease
		}
		if a.implied(h, sub, d) {
			d.Operator.Seconds = time.Since(start).Seconds()
			return d, nil
		}
	}
	d, err := a.decideSeparated(h, req, sub, w, start, deadline)
	if d != nil || (err != nil && !errors.Is(err, datasets.ErrTooLarge)) {
		return d, err
	}
	var inner *Auditor
	if err == nil {
		// A published table over W: its cells are public, only the full
		// cells' rule applies (collapsed.go).
		inner, err = a.micro.auditor(w, a, a.overWPublished(h, sub, w))
	}
	if errors.Is(err, datasets.ErrTooLarge) {
		return a.tooLarge(req, sub, err, start), nil
	}
	if err != nil {
		return nil, err
	}
	hw := &History{Version: h.Version, Vars: make([]HistoryVar, len(w)), Releases: h.Releases}
	for i, j := range w {
		hw.Vars[i] = h.Vars[j]
	}
	d, err = inner.decideBy(hw, req, deadline)
	if err != nil {
		return nil, err
	}
	d.Operator.Explanation += fmt.Sprintf(" (decided on the %d-cell table over %s, collapsed from %d records over %d variables)",
		len(inner.table.Counts), strings.Join(a.names(w), ":"), md.N, len(md.Vars))
	d.Operator.Seconds = time.Since(start).Seconds()
	return d, nil
}

// auditor returns the auditor of the table over the variables w,
// collapsing the records when it is not kept. A piece's auditor (a piece
// of a split decision, separators.go) never applies the policy to its own
// cells: with ProtectCollapsed the cells of the table over W are checked
// on the pieces' combined intervals instead. Nor does the auditor of a
// table over W that is published (collapsed.go): piece is true for both.
func (s *microState) auditor(w []int, outer *Auditor, piece bool) (*Auditor, error) {
	names := make([]string, len(w))
	for i, j := range w {
		names[i] = s.md.Vars[j].Name
	}
	key := strings.Join(names, "\x00")
	collapsed := s.mopt.ProtectCollapsed && !piece
	if s.mopt.ProtectCollapsed && piece {
		key = "piece\x00" + key
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.inner[key]; a != nil {
		a.verified.copyFrom(&outer.verified)
		return a, nil
	}
	t, err := s.md.Collapse(w, 8*int64(s.mopt.MaxCells))
	if err != nil {
		return nil, err
	}
	a, err := New(t, outer.policy, outer.opt)
	if err != nil {
		return nil, err
	}
	a.refine = s.refinement(w, t, outer.policy)
	a.refine.collapsed = collapsed
	a.verified.copyFrom(&outer.verified)
	s.inner[key] = a
	s.order = append(s.order, key)
	s.kept += len(t.Counts)
	for len(s.order) > 1 && (len(s.order) > s.maxKeep || s.kept > s.mopt.MaxCells) {
		s.kept -= len(s.inner[s.order[0]].table.Counts)
		delete(s.inner, s.order[0])
		s.order = s.order[1:]
	}
	return a, nil
}

// refinement computes, per cell of the table t over w, the most demanding
// requirement of the non-empty full cells inside it.
func (s *microState) refinement(w []int, t *model.Table, p Policy) *refinement {
	r := &refinement{req: make([]int64, len(t.Counts)), count: make([]int64, len(t.Counts)), collapsed: s.mopt.ProtectCollapsed}
	for j, v := range s.md.Vars {
		if !slices.Contains(w, j) && len(v.Levels) >= 2 {
			r.pad = true
		}
	}
	dims := model.Dims(t.Vars)
	for c, lv := range s.levels {
		idx := 0
		for i, j := range w {
			idx = idx*dims[i] + int(lv[j])
		}
		if q := p.RequiredWidth(s.counts[c]); q > r.req[idx] {
			r.req[idx], r.count[idx] = q, s.counts[c]
		}
	}
	return r
}

// checkRefined applies the policy of the full cells (and, with
// ProtectCollapsed, of the collapsed cells) to the intervals of the
// collapsed table's cells.
func (a *Auditor) checkRefined(iv *intervals, op *OperatorReport) {
	r := a.refine
	op.Cells = len(iv.lo)
	for y := range iv.lo {
		label := func() string { return model.CellLabel(a.table.Vars, nil, y) }
		if q := r.req[y]; q > 0 {
			risk := CellRisk{Cell: y, Label: label(), Count: r.count[y], Lower: iv.lo[y], Upper: iv.hi[y],
				AttainedLower: iv.inLo[y], AttainedUpper: iv.inHi[y], Required: q}
			if r.pad {
				risk.Label += " (a full cell inside; the other variables free)"
			}
			a.classify(iv, risk, r.pad, op)
		}
		if r.collapsed {
			if q := a.policy.RequiredWidth(a.table.Counts[y]); q > 0 {
				a.classify(iv, CellRisk{Cell: y, Label: label() + " (collapsed cell)", Count: a.table.Counts[y], Lower: iv.lo[y], Upper: iv.hi[y],
					AttainedLower: iv.inLo[y], AttainedUpper: iv.inHi[y], Required: q}, false, op)
			}
		}
	}
}

// CheckHistory verifies that h belongs to the auditor's table (see
// History.Check); for microdata, the releases marked true are compared
// with the margins counted from the records.
func (a *Auditor) CheckHistory(h *History) error {
	if a.micro == nil {
		return h.Check(a.table)
	}
	md := a.micro.md
	if len(h.Vars) != len(md.Vars) {
		return fmt.Errorf("%w: %d variables, the microdata declare %d", ErrHistory, len(h.Vars), len(md.Vars))
	}
	for i, v := range md.Vars {
		if h.Vars[i].Name != v.Name || !slices.Equal(h.Vars[i].Levels, v.Levels) {
			return fmt.Errorf("%w: variable %d is %s with levels %v, the microdata's is %s with levels %v",
				ErrHistory, i+1, h.Vars[i].Name, h.Vars[i].Levels, v.Name, v.Levels)
		}
	}
	for i, r := range h.Releases {
		sub, err := subsetOf(md.Vars, r.Margin)
		if err != nil {
			return fmt.Errorf("%w: release %d: %v", ErrHistory, i+1, err)
		}
		if n := model.NumCells(model.SubDims(model.Dims(md.Vars), sub)); len(r.Counts) != n {
			return fmt.Errorf("%w: release %d (%s): %d counts, the margin has %d cells", ErrHistory, i+1, marginName(r.Margin), len(r.Counts), n)
		}
		for j, c := range r.Counts {
			if c < 0 {
				return fmt.Errorf("%w: release %d (%s): cell %d has the negative count %d", ErrHistory, i+1, marginName(r.Margin), j, c)
			}
		}
		if r.Simulated || a.verified.has(&h.Releases[i]) {
			continue
		}
		// A true release is compared with the records once per auditor
		// (a decision's history repeats the earlier decisions' releases).
		t, err := md.Collapse(sub, 8*int64(a.micro.mopt.MaxCells))
		if err != nil {
			return fmt.Errorf("%w: release %d (%s): %v", ErrHistory, i+1, marginName(r.Margin), err)
		}
		for j, c := range r.Counts {
			if c != t.Counts[j] {
				return fmt.Errorf("%w: release %d (%s) is marked true but differs from the records at margin cell %d (%d, the records give %d)",
					ErrHistory, i+1, marginName(r.Margin), j, c, t.Counts[j])
			}
		}
		a.verified.add(&h.Releases[i])
	}
	return nil
}

// copyFrom adds the releases o has verified: a true release checked
// against the records (the outer auditor's CheckHistory) is a margin of
// every table collapsed from them, so the auditor of a collapsed table
// need not collapse its table (millions of cells for a large W) to check
// it again.
func (c *releaseCache) copyFrom(o *releaseCache) {
	o.mu.Lock()
	keys := make([][32]byte, 0, len(o.ok))
	for k := range o.ok {
		keys = append(keys, k)
	}
	o.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok == nil {
		c.ok = map[[32]byte]bool{}
	}
	for _, k := range keys {
		c.ok[k] = true
	}
}
