package suppress

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// Sentinel errors.
var (
	// ErrInput: a cell's value, cost, status, levels or prior bounds are
	// unusable; the message names the cell.
	ErrInput = errors.New("suppress: bad input")
	// ErrUnsupported: the input asks for what the model does not cover
	// (sliding protection levels).
	ErrUnsupported = errors.New("suppress: not supported")
	// ErrInfeasible: no pattern protects some primary cell, not even
	// suppressing every cell that may be suppressed; the message names it.
	ErrInfeasible = errors.New("suppress: a primary cell cannot be protected")
	// ErrNotSolved: an engine stopped without an answer on an LP that
	// always has one (numerical trouble).
	ErrNotSolved = errors.New("suppress: an engine failed on an attacker LP")
	// ErrUnsafe: the final audit (package intervals) found a primary cell
	// under-protected or a suppressed cell disclosed; the model proved
	// the pattern safe, so this is numerical trouble. The Result is
	// returned with the error.
	ErrUnsafe = errors.New("suppress: the pattern failed the interval audit")
)

// Tolerances and defaults.
const (
	// ConsistTol is the relative tolerance of the relations on the input
	// values (as intervals.ConsistTol).
	ConsistTol = intervals.ConsistTol
	// DefaultMinLevel is the default Settings.MinLevel.
	DefaultMinLevel = 1e-4
	// DefaultProtectionSolver is the default engine of the protection
	// LP: on the synth preset "3way-5000" (freq:3, 4,210 columns before
	// the split) one warm-started re-solve took 60 ms with HiGHS and
	// 770 ms with CLP, which is faster on the attacker and witness LPs
	// (3.6 ms against 8.5 ms and 6 ms against 80 ms at a sparse pattern).
	DefaultProtectionSolver = "highs"
)

// EmptyPolicy says whether empty cells may be suppressed.
type EmptyPolicy int

const (
	// EmptyNever publishes every empty cell (it is known to be 0).
	EmptyNever EmptyPolicy = iota
	// EmptyAllowed lets empty cells be secondary suppressions, at their
	// Cost, moving up by at most the capacity.
	EmptyAllowed
)

// Settings are the options of Solve; nil means defaults.
type Settings struct {
	// LPSolver is the engine of the attacker, protection and master LPs.
	// Default "auto" (CLP, then HiGHS, ...).
	LPSolver string
	// ProtectionSolver is the engine of the heuristic's protection LP.
	// Default DefaultProtectionSolver (LPSolver when it is unavailable).
	ProtectionSolver string
	// MIPSolver is the engine of the master MIP. Default "auto" (HiGHS,
	// then CBC, ...).
	MIPSolver string
	// Params: TimeLimit and Deadline bound the whole Solve (the search
	// stops and the best safe pattern is returned); MIPRelGap and
	// MIPAbsGap are the gaps at which Solve stops as optimal and are
	// passed to the MIP engine with Threads, FeasTol and Raw (Raw goes to
	// the MIP engine only; the LPs get FeasTol). Default nil: no limit,
	// solvers.DefaultParams' gaps.
	Params *solvers.Params
	// Empty is the policy for empty cells. Default EmptyNever.
	Empty EmptyPolicy
	// Prior gives the attacker's prior bounds of cell i with value v, as
	// intervals.Settings.Prior. Default nil: [0, +Inf) when every value is
	// non-negative (or the table counts frequencies), else (−Inf, +Inf).
	Prior func(cell int, value float64) (lo, up float64)
	// Capacity replaces an infinite prior end: how far the attacker can
	// move a suppressed cell that way (see the package documentation).
	// Default 0: the largest |value| plus the largest protection level.
	Capacity float64
	// MinLevel: a primary cell with both levels 0 gets an upper level of
	// MinLevel·max(1, |value|), so that it is not disclosed. Default
	// DefaultMinLevel.
	MinLevel float64
	// Schedule decides the LP rounds, heuristic runs and MIP times.
	// Default nil: DefaultSchedule().
	Schedule *Schedule
	// Progress, when set, is called after each step of the search (the
	// first incumbent, each LP round, each heuristic run, each MIP).
	// Default nil.
	Progress func(Progress)
	// NoAudit skips the final check of the pattern by intervals.Compute
	// and intervals.Audit. Default false: audited. MethodFast always
	// audits (the audit drives its repair).
	NoAudit bool
	// Method is MethodOptimal, MethodFast or MethodAuto. Default ""
	// (MethodOptimal).
	Method string
	// Insiders says whether the pattern is protected against insiders
	// (insider.go; the package documentation, section Insiders).
	// Default InsidersAuto: when the table carries frequencies or
	// contributions.
	Insiders InsiderPolicy
	// ExactAudit makes MethodFast audit by intervals.Compute and
	// intervals.Audit even when its cubes decide the audit (see
	// SolveFast). Default false.
	ExactAudit bool
}

func (s *Settings) minLevel() float64 {
	if s.MinLevel > 0 {
		return s.MinLevel
	}
	return DefaultMinLevel
}

// Progress is the state of the search after one of its steps.
type Progress struct {
	Phase      string // "start", "lp", "heuristic", "mip"; MethodFast: "cubes", "repair"
	Cost       float64
	LowerBound float64
	LPRounds   int
	MIPSolves  int
	Cuts       int
	Elapsed    time.Duration
}

// Stop says why Solve stopped.
type Stop int

const (
	// StopOptimal: the pattern's cost is within the gaps of the lower
	// bound.
	StopOptimal Stop = iota
	// StopTimeLimit: the time limit or deadline came first.
	StopTimeLimit
	// StopRounds: the schedule's round limits came first.
	StopRounds
	// StopNoPrimary: nothing to protect (no primary cell).
	StopNoPrimary
)

func (s Stop) String() string {
	switch s {
	case StopOptimal:
		return "optimal"
	case StopTimeLimit:
		return "time_limit"
	case StopRounds:
		return "round_limit"
	case StopNoPrimary:
		return "no_primary"
	case StopHeuristic:
		return "heuristic"
	}
	return fmt.Sprintf("stop(%d)", int(s))
}

// Result is the outcome of Solve.
type Result struct {
	// Status is the pattern: per cell, Primary, Secondary (suppressed to
	// protect), or the input status for published cells (a Secondary cell
	// of the input not chosen becomes Safe).
	Status []tabular.Status
	// Secondary is the number of secondary cells, Cost the sum of their
	// costs.
	Secondary int
	Cost      float64
	// LowerBound is the best proven lower bound on the cost of a safe
	// pattern (of the model, see the package documentation); Gap is
	// (Cost − LowerBound)/max(Cost, 1e-9), 0 when both are 0.
	LowerBound, Gap float64
	Stop            Stop
	// LPRounds, MIPSolves: master solves; Cuts: capacity constraints
	// added (relation cuts included); AttackerLPs: attacker LPs (the
	// separation); HeuristicLPs: protection and witness LPs (the
	// heuristic's repair and cleanup).
	LPRounds, MIPSolves, Cuts, AttackerLPs, HeuristicLPs int
	// CutNonzeros is the number of coefficients of all cuts.
	CutNonzeros int
	// Seconds spent in the separation (attacker LPs), the heuristic
	// (repair and cleanup) and the master MIPs.
	SeparationSeconds, HeuristicSeconds, MIPSeconds float64
	// Heuristic counts heuristic runs, Incumbents the improvements.
	Heuristic, Incumbents int
	Primary, Targets      int // primary cells, attacker subproblems per pattern
	LPEngine, MIPEngine   string
	ProtectionEngine      string
	Seconds               float64
	// Audit is the report of intervals.Audit on the pattern (nil with
	// Settings.NoAudit). Secondary cells the audit finds disclosed are
	// published before the report is made (Republished counts them):
	// they protect nothing, and publishing a cell whose value the
	// attacker already knows changes no interval.
	Audit       *intervals.Report
	Republished int
	// Method is the method that ran: MethodOptimal or MethodFast.
	// Cubes, CubePasses and RepairRounds are the fast method's targets
	// protected by a hypercube, passes of its cube phase, and
	// audit-and-repair rounds (see SolveFast).
	Method                          string
	Cubes, CubePasses, RepairRounds int
	// InsiderTargets is the number of insider targets the search added
	// (each a primary cell and direction against one insider, checked
	// from then on), InsiderLPs the attacker LPs of the insider checks
	// (their witness LPs count in HeuristicLPs).
	// Insiders is the report of intervals.InsiderDecide (InsiderAudit's
	// report, every insider, no cap) on the pattern; nil when insiders are not modelled (see
	// Settings.Insiders) or with Settings.NoAudit.
	InsiderTargets, InsiderLPs int
	Insiders                   *intervals.InsiderReport
	// InsiderImpossible is the number of insider targets that no
	// pattern reaches (missed even with every free cell suppressed):
	// left out of the model, they make the final insider audit fail
	// (ErrUnsafe, with the first of them in the message).
	InsiderImpossible int
	impossibleNote    string
	// Decided: the fast method's audit was decided by intervals.Decide
	// from its cubes (exact, no LP; Audit has no findings and no
	// intervals) instead of intervals.Compute and intervals.Audit.
	Decided bool
	// FastIncumbent: MethodOptimal started from the fast method's
	// pattern (proven safe; see incumbent.go), whose cost before the
	// cleanup by its moves is FastIncumbentCost, instead of checking the
	// pattern that suppresses every free cell.
	FastIncumbent     bool
	FastIncumbentCost float64
	moves             []intervals.Move // MethodFast: the moves that decided the audit
}

// Apply sets the statuses of t's cells to the pattern.
func (r *Result) Apply(t *tabular.Table) {
	for i := range t.Cells {
		t.Cells[i].Status = r.Status[i]
	}
}

// ApplySystem sets the statuses of the System's cells, and of every
// table's cells that are them, to the pattern of SolveSystem.
func (r *Result) ApplySystem(sys *tabular.System) {
	for g := range sys.Cells {
		sys.Cells[g].Status = r.Status[g]
		for _, ref := range sys.Cells[g].Refs {
			sys.Tables[ref.Table].Cells[ref.Cell].Status = r.Status[g]
		}
	}
}

// Solve finds a secondary suppression pattern of minimum cost for t (see
// the package documentation). It does not change t. Data-dependent
// failures are errors wrapping ErrInput, ErrUnsupported, ErrInfeasible,
// tabular.ErrInconsistent, ErrNotSolved or the solvers package's errors;
// ErrUnsafe comes with the Result. A nil t panics.
func Solve(t *tabular.Table, s *Settings) (*Result, error) {
	method, err := s.method(len(t.Cells))
	if err != nil {
		return nil, err
	}
	know, on, err := insiderKnowledge(t, s)
	if err != nil {
		return nil, err
	}
	var res *Result
	if method == MethodFast {
		res, err = SolveFast(t, s)
		if err == nil && on {
			err = protectInsidersFast(t, s, res, know)
		}
	} else {
		fast := func(fs *Settings) (*Result, error) { return SolveFast(t, fs) }
		res, err = solve(tableSource(t), s, tableAudit(t, s), know, fast, tableDecide(t, s))
	}
	if err != nil || !on || (s != nil && s.NoAudit) {
		return res, err
	}
	return res, insiderAudit(t, s, res)
}

// tableAudit returns the attacker's intervals of t under a pattern.
func tableAudit(t *tabular.Table, s *Settings) func([]tabular.Status) (*intervals.Result, error) {
	return func(st []tabular.Status) (*intervals.Result, error) {
		c := *t
		c.Cells = make([]tabular.Cell, len(t.Cells))
		copy(c.Cells, t.Cells)
		for i := range c.Cells {
			c.Cells[i].Status = st[i]
		}
		return intervals.Compute(&c, auditSettings(s))
	}
}

// SolveSystem is Solve for linked tables: one pattern over the System's
// cells, a shared cell needing the largest level its tables give it.
func SolveSystem(sys *tabular.System, s *Settings) (*Result, error) {
	method, err := s.method(len(sys.Cells))
	if err != nil {
		return nil, err
	}
	if s != nil && s.Insiders == InsidersOn {
		return nil, fmt.Errorf("%w: insiders in linked tables (InsidersOn needs one table)", ErrUnsupported)
	}
	if method == MethodFast {
		return SolveSystemFast(sys, s)
	}
	fast := func(fs *Settings) (*Result, error) { return SolveSystemFast(sys, fs) }
	return solve(systemSource(sys), s, systemAudit(sys, s), nil, fast, systemDecide(sys, s))
}

// systemAudit returns the attacker's intervals of sys under a pattern.
func systemAudit(sys *tabular.System, s *Settings) func([]tabular.Status) (*intervals.Result, error) {
	return func(st []tabular.Status) (*intervals.Result, error) {
		c := *sys
		c.Cells = make([]tabular.SysCell, len(sys.Cells))
		copy(c.Cells, sys.Cells)
		for i := range c.Cells {
			c.Cells[i].Status = st[i]
		}
		return intervals.ComputeSystem(&c, auditSettings(s))
	}
}

func auditSettings(s *Settings) *intervals.Settings {
	if s == nil {
		s = &Settings{}
	}
	return &intervals.Settings{Solver: s.LPSolver, Prior: s.Prior, NoCertificates: true}
}

// search is the state of one Solve.
type search struct {
	m        *model
	s        *Settings
	sched    *Schedule
	start    time.Time
	deadline time.Time // zero: none
	total    time.Duration
	att      *attacker
	reg      *attacker // the regularized attacker LP (regularized.go)
	heur     *heuristic
	ms       *master
	mipSv    solvers.Solver
	best     *pattern
	lb       float64
	res      *Result
	guard    *insiderGuard // nil: insiders not modelled
}

func (se *search) timeUp() bool {
	return !se.deadline.IsZero() && !time.Now().Before(se.deadline)
}

// closed reports whether the incumbent is proven optimal within the gaps.
func (se *search) closed() bool {
	prm := se.s.Params
	c := se.best.cost
	return c-se.lb <= math.Max(prm.AbsGap(), prm.RelGap()*math.Abs(c))
}

// offer makes pt the incumbent when it is cheaper.
func (se *search) offer(pt *pattern) {
	if se.best == nil || pt.cost < se.best.cost-1e-12*math.Max(1, math.Abs(pt.cost)) {
		se.best = pt
		se.res.Incumbents++
	}
}

// firstIncumbent returns the pattern that suppresses every free cell
// except those no attacker optimum moves (dropUnused), or ErrInfeasible
// naming a primary cell it does not protect. The attacker LP decides
// (the witness LP is slow with every cell free to move).
func (se *search) firstIncumbent() (*pattern, error) {
	m := se.m
	pt := &pattern{sup: make([]bool, len(m.col)), witness: make([][]int, len(m.targets))}
	for v := range pt.sup {
		pt.sup[v] = true
	}
	if err := se.att.setY(m.colY(pt.sup)); err != nil {
		return nil, err
	}
	for ti, t := range m.targets {
		o, err := se.att.solve(t)
		if err != nil {
			return nil, err
		}
		if !o.reached {
			return nil, fmt.Errorf("%w: primary cell (%s) cannot reach its level %g even with every other cell suppressed (the attacker reaches %g)",
				ErrInfeasible, m.src.name(t.cell), t.level, o.z)
		}
		pt.witness[ti] = o.witness
	}
	se.heur.dropUnused(pt)
	return pt, nil
}

// progress reports to Settings.Progress.
func (se *search) progress(phase string) {
	if se.s.Progress == nil {
		return
	}
	p := Progress{Phase: phase, LowerBound: se.lb, Elapsed: time.Since(se.start), LPRounds: se.res.LPRounds, MIPSolves: se.res.MIPSolves}
	if se.best != nil {
		p.Cost = se.best.cost
	}
	if se.ms != nil {
		p.Cuts = len(se.ms.cuts)
	}
	se.s.Progress(p)
}

// heuristicFrom runs the heuristic from y (per master variable). With
// addedOnly the cleanup tries only the cells the repair added (y is then
// a master MIP solution, whose cells the cuts ask for).
func (se *search) heuristicFrom(y []float64, addedOnly bool) error {
	defer func(t time.Time) { se.res.HeuristicSeconds += time.Since(t).Seconds() }(time.Now())
	sup := round(y)
	var try []bool
	if addedOnly {
		try = make([]bool, len(sup))
		for v, on := range sup {
			try[v] = !on
		}
	}
	pt, err := se.heur.repair(sup, y, se.deadline)
	if err != nil || pt == nil {
		return err
	}
	if err := se.heur.cleanupOnly(pt, try, se.deadline); err != nil {
		return err
	}
	se.res.Heuristic++
	if err := se.offerSafe(pt, se.deadline); err != nil {
		return err
	}
	se.progress("heuristic")
	return nil
}

// separate solves every target at y (per master variable) and returns the
// violated capacity constraints, and whether every target was reached.
// At the deadline it stops with the cuts found so far (and safe false).
func (se *search) separate(y []float64, sparse int) ([]cut, bool, error) {
	defer func(t time.Time) { se.res.SeparationSeconds += time.Since(t).Seconds() }(time.Now())
	m := se.m
	cy := make([]float64, len(m.cell))
	for c, v := range m.vr {
		cy[c] = 1
		if v >= 0 {
			cy[c] = math.Min(math.Max(y[v], 0), 1)
		}
	}
	if err := se.att.setY(cy); err != nil {
		return nil, false, err
	}
	var cuts []cut
	safe, regSet := true, false
	for _, t := range m.targets {
		if se.timeUp() {
			return cuts, false, nil
		}
		o, err := se.att.solve(t)
		if err != nil {
			return nil, false, err
		}
		if o.reached {
			continue
		}
		safe = false
		c, ok, infeasible := se.att.cutOf(t, o.res)
		if infeasible {
			return nil, false, fmt.Errorf("%w: primary cell (%s) cannot reach its level %g", ErrInfeasible, m.src.name(t.cell), t.level)
		}
		if sparse > 0 && (!ok || len(c.vars) > mipCutVars) {
			sparse--
			if c, ok, err = sparser(se.reg, &regSet, cy, y, t, c, ok); err != nil {
				return nil, false, err
			}
		}
		if ok && c.lhs(y) < 1-violationTol {
			cuts = append(cuts, c)
		}
	}
	return cuts, safe, nil
}

func solve(src source, s *Settings, audit func([]tabular.Status) (*intervals.Result, error), know []intervals.InsiderKnowledge, fast fastFunc, decide decideFunc) (*Result, error) {
	start := time.Now()
	s, m, err := prepare(src, s)
	if err != nil {
		return nil, err
	}
	se := &search{m: m, s: s, sched: s.Schedule.orDefault(), start: start, res: &Result{Method: MethodOptimal}}
	prm := s.Params.OrDefault()
	if prm.TimeLimit > 0 {
		se.deadline, se.total = start.Add(prm.TimeLimit), prm.TimeLimit
	}
	if !prm.Deadline.IsZero() && (se.deadline.IsZero() || prm.Deadline.Before(se.deadline)) {
		se.deadline = prm.Deadline
		se.total = prm.Deadline.Sub(start)
	}
	res := se.res
	m.countTargets(res)
	finish := func() (*Result, error) {
		res.Status = make([]tabular.Status, src.n)
		for i := range res.Status {
			st := src.status(i)
			if st == tabular.Secondary {
				st = tabular.Safe
			}
			res.Status[i] = st
		}
		if se.best != nil {
			for v, on := range se.best.sup {
				if on {
					res.Status[m.cell[m.col[v]]] = tabular.Secondary
					res.Secondary++
				}
			}
			res.Cost = se.best.cost
		}
		if se.att != nil {
			res.AttackerLPs = se.att.solves
		}
		if se.heur != nil {
			res.HeuristicLPs = se.heur.solves
		}
		if se.guard != nil {
			pl := se.guard.pool
			res.InsiderTargets, res.InsiderLPs = pl.nAdded, pl.lps
			res.InsiderImpossible, res.impossibleNote = pl.nImpossible, pl.firstImpossible
		}
		if se.ms != nil {
			res.Cuts = len(se.ms.cuts)
			for _, c := range se.ms.cuts {
				res.CutNonzeros += len(c.vars)
			}
		}
		if !s.NoAudit {
			ir, err := audit(res.Status)
			if err != nil {
				return nil, fmt.Errorf("suppress: auditing the pattern: %w", err)
			}
			// A secondary cell the attacker recomputes (a witness LP
			// moved it only within the engine's feasibility tolerance)
			// protects nothing: publishing it leaves the attacker's
			// polytope, hence every other interval, as it is.
			kept := ir.Intervals[:0:0]
			for _, iv := range ir.Intervals {
				if iv.Status == tabular.Secondary && iv.Disclosed() {
					res.Status[iv.Cell] = tabular.Safe
					res.Secondary--
					res.Cost -= src.cost(iv.Cell)
					res.Republished++
					continue
				}
				kept = append(kept, iv)
			}
			ir.Intervals = kept
			levels := func(i int) (float64, float64) {
				if src.status(i) != tabular.Primary {
					return 0, 0
				}
				lo, up, _ := src.levels(i)
				return lo, up
			}
			res.Audit = intervals.Audit(ir, levels)
		}
		res.LowerBound = math.Min(se.lb, res.Cost)
		if res.Cost > 0 {
			res.Gap = (res.Cost - res.LowerBound) / math.Max(res.Cost, 1e-9)
		}
		res.Seconds = time.Since(start).Seconds()
		if res.Audit != nil && !res.Audit.OK() {
			return res, fmt.Errorf("%w: %d primary cells under-protected, %d suppressed cells disclosed", ErrUnsafe, len(res.Audit.UnderProtected), len(res.Audit.Disclosed))
		}
		return res, nil
	}
	if len(m.targets) == 0 {
		res.Stop = StopNoPrimary
		se.best = &pattern{sup: make([]bool, len(m.col))}
		return finish()
	}
	lpSv, err := solvers.New(s.LPSolver, false)
	if err != nil {
		return nil, err
	}
	res.LPEngine = lpSv.Name()
	// The LPs of the separation and the heuristic always run to the end
	// (they are small, and the safety of the pattern depends on them):
	// only the master problems see the time limit.
	lpPrm := &solvers.Params{FeasTol: prm.FeasTol}
	if se.att, err = newAttacker(m, lpSv, lpPrm); err != nil {
		return nil, err
	}
	defer se.att.close()
	hsv, err := solvers.New(s.LPSolver, false)
	if err != nil {
		return nil, err
	}
	psv, err := s.protectionSolver()
	if err != nil {
		return nil, err
	}
	res.ProtectionEngine = psv.Name()
	// The regularized attacker LP moves every column, like the protection
	// LP: it runs on the protection LP's engine.
	if se.reg, err = newRegularized(m, psv, lpPrm); err != nil {
		return nil, err
	}
	defer se.reg.close()
	if se.heur, err = newHeuristic(m, se.att, hsv, psv, lpPrm); err != nil {
		return nil, err
	}
	defer se.heur.close()
	msv, err := solvers.New(s.LPSolver, false)
	if err != nil {
		return nil, err
	}
	if se.ms, err = newMaster(m, msv, lpPrm); err != nil {
		return nil, err
	}
	defer se.ms.close()

	// The first incumbent: every free cell suppressed.
	all := make([]bool, len(m.col))
	for v := range all {
		all[v] = true
	}
	if know != nil {
		se.guard = &insiderGuard{m: m, att: se.att, heur: se.heur, ms: se.ms, pool: newInsiderPool(m, know, s.minLevel())}
		// Every free cell suppressed is the largest polytope of every
		// insider: a target it misses cannot be reached.
		if _, err := se.guard.check(all, true); err != nil {
			return nil, err
		}
	}
	// The fast method's pattern when it is proven safe (incumbent.go),
	// else every free cell suppressed, which also detects infeasibility.
	first := se.fastIncumbent(fast, decide)
	if first == nil {
		if first, err = se.firstIncumbent(); err != nil {
			return nil, err
		}
	}
	if err := se.offerSafe(first, time.Time{}); err != nil {
		return nil, err
	}
	se.progress("start")
	rc, err := m.relationCuts()
	if err != nil {
		return nil, err
	}
	se.ms.add(false, rc...)

	// Phase 1: the LP relaxation and its cuts.
	var y, bounds []float64
	stop := StopRounds
	for round := 1; ; round++ {
		r, err := se.ms.solveLP()
		if err != nil {
			return nil, err
		}
		res.LPRounds++
		if r.Status != solvers.Optimal {
			return nil, fmt.Errorf("%w: master LP, engine %s: %v", ErrNotSolved, msv.Name(), r.Status)
		}
		y = r.X
		se.lb = math.Max(se.lb, r.Objective)
		cuts, _, err := se.separate(y, 0)
		if err != nil {
			return nil, err
		}
		se.ms.add(false, cuts...)
		se.progress("lp")
		if len(cuts) == 0 {
			break
		}
		if se.sched.HeuristicAfter(round) {
			if err := se.heuristicFrom(y, false); err != nil {
				return nil, err
			}
			if se.closed() {
				break
			}
		}
		if se.timeUp() {
			stop = StopTimeLimit
			break
		}
		bounds = append(bounds, se.lb)
		if se.sched.LPPhaseOver(round, time.Since(start), se.total) || se.sched.LPStalled(bounds) {
			break
		}
	}
	lpY := y
	if !se.sched.HeuristicAfterMIP {
		if err := se.heuristicFrom(y, false); err != nil {
			return nil, err
		}
		lpY = nil
	}

	// Phase 2: the master MIP over the cuts so far.
	proven := false
	if !se.closed() && !se.timeUp() {
		se.mipSv, err = solvers.New(s.MIPSolver, true)
		if err != nil {
			return nil, err
		}
		res.MIPEngine = se.mipSv.Name()
		retry := false
		for se.sched.MoreMIP(res.MIPSolves) {
			mp := *prm
			mp.TimeLimit = se.sched.MIPLimit(time.Until(se.deadline), !se.deadline.IsZero(), retry)
			mp.Deadline = time.Time{}
			r, err := se.mipSv.Solve(se.ms.problem(), &mp)
			if err != nil {
				return nil, err
			}
			res.MIPSolves++
			res.MIPSeconds += r.Seconds
			se.progress("mip")
			switch {
			case !math.IsNaN(r.BestBound) && !math.IsInf(r.BestBound, 0):
				se.lb = math.Max(se.lb, r.BestBound)
			case r.Status == solvers.Optimal:
				se.lb = math.Max(se.lb, r.Objective-math.Max(prm.AbsGap(), prm.RelGap()*math.Abs(r.Objective)))
			}
			if r.Status.NoSolution() {
				return nil, fmt.Errorf("%w: master MIP, engine %s: %v", ErrNotSolved, se.mipSv.Name(), r.Status)
			}
			if !r.HasSolution {
				if retry || se.timeUp() {
					break
				}
				retry = true // once more, with all the time left
				continue
			}
			retry = false
			yi := make([]float64, len(r.X))
			for v, x := range r.X {
				if x > 0.5 {
					yi[v] = 1
				}
			}
			cuts, safe, err := se.separate(yi, se.sched.RegularizedPerMIP)
			if err != nil {
				return nil, err
			}
			// Dense cuts join the MIP only when no sparse one cuts yi off.
			sparse := slices.ContainsFunc(cuts, func(c cut) bool { return len(c.vars) <= mipCutVars })
			se.ms.add(!sparse, cuts...)
			if safe {
				// Safe: the repair only finds the witnesses.
				pt, err := se.heur.repair(round(yi), nil, time.Time{})
				if err != nil {
					return nil, err
				}
				if se.guard != nil {
					// The insiders the model does not hold yet: a
					// violated one cuts yi off, and the heuristic
					// repairs it.
					n, err := se.guard.check(round(yi), false)
					if err != nil {
						return nil, err
					}
					if n > 0 {
						if err := se.heuristicFrom(yi, true); err != nil {
							return nil, err
						}
						if se.closed() {
							break
						}
						if se.timeUp() {
							stop = StopTimeLimit
							break
						}
						continue
					}
				}
				if err := se.heur.cleanup(pt, se.deadline); err != nil {
					return nil, err
				}
				if err := se.offerSafe(pt, se.deadline); err != nil {
					return nil, err
				}
				if r.Status == solvers.Optimal {
					// The relaxation's optimum is safe: optimal within
					// the MIP engine's gaps.
					proven = true
					break
				}
			} else if err := se.heuristicFrom(yi, true); err != nil {
				return nil, err
			}
			if se.closed() {
				break
			}
			if se.timeUp() {
				stop = StopTimeLimit
				break
			}
			if len(cuts) == 0 && !safe {
				break // no cut read from the duals: nothing more to learn
			}
		}
	}
	// The heuristic from the LP optimum, when the schedule put it after
	// the MIPs and they left time and found no pattern.
	if lpY != nil && !proven && !se.closed() && !se.timeUp() && res.Incumbents <= 1 {
		if err := se.heuristicFrom(lpY, false); err != nil {
			return nil, err
		}
	}
	switch {
	case proven || se.closed():
		stop = StopOptimal
	case se.timeUp():
		stop = StopTimeLimit
	}
	res.Stop = stop
	return finish()
}

// protectionSolver returns the engine of the protection LP:
// ProtectionSolver, or DefaultProtectionSolver and then LPSolver when it
// is unset.
func (s *Settings) protectionSolver() (solvers.Solver, error) {
	if s.ProtectionSolver != "" {
		return solvers.New(s.ProtectionSolver, false)
	}
	psv, err := solvers.New(DefaultProtectionSolver, false)
	if err != nil {
		psv, err = solvers.New(s.LPSolver, false)
	}
	return psv, err
}

// prepare is the common start of solve and solveFast: a copy of the
// settings (defaults for nil), checked, and the model.
func prepare(src source, s *Settings) (*Settings, *model, error) {
	if s == nil {
		s = &Settings{}
	}
	sc := *s
	s = &sc
	if err := s.Params.Validate(); err != nil {
		return nil, nil, err
	}
	if s.Capacity < 0 || math.IsNaN(s.Capacity) || math.IsInf(s.Capacity, 0) {
		return nil, nil, fmt.Errorf("%w: capacity %v (want a finite number >= 0)", ErrInput, s.Capacity)
	}
	m, err := buildModel(src, s)
	if err != nil {
		return nil, nil, err
	}
	return s, m, nil
}

// countTargets sets res.Primary and res.Targets: the model's targets are
// grouped by primary cell.
func (m *model) countTargets(res *Result) {
	for _, t := range m.targets {
		if res.Targets == 0 || m.targets[res.Targets-1].cell != t.cell {
			res.Primary++
		}
		res.Targets++
	}
}
