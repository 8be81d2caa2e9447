package highs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// engine is a session's wasm instance, replaced by a fresh one after a
// trap; gen counts instances so that the session notices that its HiGHS
// object is gone.
type engine struct {
	mu  sync.Mutex
	c   *compiled
	in  *instance
	gen uint64
}

// instance returns a live instance, replacing a dead one. Called with mu
// held.
func (e *engine) instance() (*instance, error) {
	if e.in != nil && e.in.dead == nil {
		return e.in, nil
	}
	if e.in != nil {
		e.in.close()
		e.in = nil
	}
	in, err := getInstance(e.c)
	if err != nil {
		return nil, err
	}
	e.in = in
	e.gen++
	return in, nil
}

// session is a native HiGHS session: the model lives in one HiGHS object,
// changes go through the C API's incremental calls and Solve re-runs HiGHS,
// which starts from the basis of the previous solve.
//
// The session also keeps a copy of the model (a solvers.ReloadSession, which
// validates every change). If the instance dies (a trap in this or another
// session on the same Solver) or HiGHS rejects a change, the next Solve
// rebuilds the HiGHS object from that copy, cold.
//
// A session owns its instance until Close; an unreachable session that was
// not closed has its instance closed by a cleanup.
type session struct {
	e      *engine
	rs     *solvers.ReloadSession
	prm    *solvers.Params
	h      uint32 // HiGHS object, valid while gen == e.gen and !stale
	gen    uint64
	stale  bool
	closed bool
}

// NewSession loads p into a new HiGHS object for incremental re-solves.
func (s *Solver) NewSession(p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	prm = prm.OrDefault()
	rs, err := solvers.NewReloadSession(s, p, prm)
	if err != nil {
		return nil, err
	}
	if err := checkSize(p.NumCols(), p.NumRows(), p.NumNonzeros()); err != nil {
		return nil, err
	}
	c := s.c
	if p.IsMIP() && prm.Limit() > 0 {
		// A MIP solve with a time limit must be stoppable from outside:
		// HiGHS's root node goes seconds without reading the clock (see
		// Solve), and only the runtime with context checks ends such a
		// call. It makes MIP solves slower (BenchmarkStoppable), as in
		// Solver.Solve.
		if c, err = c.stoppableRuntime(); err != nil {
			return nil, err
		}
	}
	ss := &session{e: &engine{c: c}, rs: rs, prm: prm}
	ss.e.mu.Lock()
	defer ss.e.mu.Unlock()
	if _, err := ss.loaded(); err != nil {
		if ss.e.in != nil {
			ss.e.in.close()
		}
		return nil, err
	}
	runtime.AddCleanup(ss, func(e *engine) {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.in != nil {
			e.in.close()
			e.in = nil
		}
	}, ss.e)
	return ss, nil
}

// current reports whether the HiGHS object reflects the model. Called with
// e.mu held.
func (s *session) current() bool { return s.alive() && !s.stale }

// alive reports whether the session's HiGHS object still exists.
func (s *session) alive() bool {
	return s.h != 0 && s.gen == s.e.gen && s.e.in != nil && s.e.in.dead == nil
}

// loaded returns the instance with the session's HiGHS object holding the
// model, rebuilding the object if needed. Called with e.mu held.
func (s *session) loaded() (*instance, error) {
	if s.current() {
		return s.e.in, nil
	}
	if s.alive() {
		s.e.in.call("Highs_destroy", ptr(s.h))
	}
	s.h = 0
	in, err := s.e.instance()
	if err != nil {
		return nil, err
	}
	r, err := in.call("Highs_create")
	if err != nil {
		return nil, err
	}
	h := uint32(r)
	if _, err := applyParams(in, h, s.prm); err != nil {
		in.call("Highs_destroy", ptr(h))
		return nil, err
	}
	if err := passModel(in, h, s.rs.Problem()); err != nil {
		in.call("Highs_destroy", ptr(h))
		return nil, err
	}
	s.h, s.gen, s.stale = h, s.e.gen, false
	return in, nil
}

func (s *session) closedErr(op string) error {
	if s.closed {
		return &solvers.Error{Engine: engineName, Op: op, Err: solvers.ErrClosed}
	}
	return nil
}

// apply runs an engine change after the model copy was updated. When the
// HiGHS object is not current the change is picked up by the next rebuild.
// A change that HiGHS rejects marks the object stale and is reported.
func (s *session) apply(op string, fn func(in *instance, a *arena) (uint64, error)) error {
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	if !s.current() {
		return nil
	}
	in := s.e.in
	a := in.arena()
	defer a.free()
	st, err := fn(in, a)
	if err == nil {
		err = a.err
	}
	if err != nil {
		return err
	}
	if status(st) == hStatusError {
		s.stale = true
		return solvers.Errorf(engineName, op, solvers.ErrInvalidProblem, "HiGHS rejected the change")
	}
	return nil
}

func (s *session) Solve() (*solvers.Result, error) {
	if err := s.closedErr("solve"); err != nil {
		return nil, err
	}
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	in, err := s.loaded()
	if err != nil {
		return nil, err
	}
	p := s.rs.Problem()
	warnings := paramWarnings(s.prm)
	if p.NumCols() == 0 {
		return emptyResult(p, warnings), nil
	}
	in.state.verbose, in.state.out = s.prm.Verbose, logWriter
	limit := s.prm.Limit()
	if !s.prm.Deadline.IsZero() {
		// Params.Deadline is re-read at every solve: the solve gets the
		// time left, not the session's limit.
		if err := setOption(in, s.h, "time_limit", fmtFloat(limit.Seconds())); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	if limit > 0 {
		// HiGHS checks time_limit only between certain steps: its MIP root
		// node was measured going 3.5 s without even a clock read past a
		// limit of 1 s (bounds --method ip on 4^6 with all 3-way margins:
		// limit 5 s, 10.9 s), and compiled wasm cannot be preempted. As in
		// Solver.Solve, the call ends at the limit plus hardStopGrace: at
		// a clock read (checkStop), and for a MIP session, whose engine is
		// the stoppable runtime (NewSession), by its context. The instance
		// dies with it; the next Solve rebuilds the HiGHS object from the
		// session's copy of the model, cold.
		hard := limit + hardStopGrace(limit)
		base := in.ctx
		ctx, cancel := context.WithTimeout(base, hard)
		in.ctx = ctx
		in.state.stopAt = t0.Add(hard)
		defer func() { cancel(); in.ctx, in.state.stopAt = base, time.Time{} }()
	}
	res, err := run(in, s.h, p)
	if err != nil {
		var te *trapError
		if stopped := errors.As(err, &te) && te.kind == "stop"; limit == 0 || (!stopped && in.ctx.Err() == nil) {
			return nil, err
		}
		res = &solvers.Result{Solver: engineName, Status: solvers.TimeLimit, Objective: math.NaN(), BestBound: math.NaN(),
			Warnings: []string{fmt.Sprintf("HiGHS did not stop at its time limit of %v; stopped %v later, without its incumbent", limit, hardStopGrace(limit))}}
	}
	res.Seconds = time.Since(t0).Seconds()
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}

func (s *session) AddCols(obj, lo, up []float64, types []solvers.VarType, start, rows []int, vals []float64) error {
	if err := s.closedErr("add columns"); err != nil {
		return err
	}
	n0 := s.rs.NumCols()
	if err := checkSize(n0+len(obj), s.rs.NumRows(), s.rs.Problem().NumNonzeros()+len(vals)); err != nil {
		return err
	}
	if err := s.rs.AddCols(obj, lo, up, types, start, rows, vals); err != nil {
		return err
	}
	k := len(obj)
	if k == 0 {
		return nil
	}
	p := s.rs.Problem()
	return s.apply("add columns", func(in *instance, a *arena) (uint64, error) {
		clo, cup := make([]float64, k), make([]float64, k)
		var set []int
		for t := 0; t < k; t++ {
			clo[t], cup[t] = p.Bounds(n0 + t)
			if p.Type(n0+t) != solvers.Continuous {
				set = append(set, n0+t)
			}
		}
		pc, pl, pu := a.doubles(obj), a.doubles(clo), a.doubles(cup)
		ps, pi, pv := a.ints(start[:k]), a.ints(rows), a.doubles(vals)
		if a.err != nil {
			return 0, a.err
		}
		st, err := in.call("Highs_addCols", ptr(s.h), i(k), ptr(pc), ptr(pl), ptr(pu), i(len(vals)), ptr(ps), ptr(pi), ptr(pv))
		if err != nil || status(st) == hStatusError || len(set) == 0 {
			return st, err
		}
		integ := make([]int, len(set))
		for t := range integ {
			integ[t] = varInteger
		}
		pset, pint := a.ints(set), a.ints(integ)
		if a.err != nil {
			return 0, a.err
		}
		return in.call("Highs_changeColsIntegralityBySet", ptr(s.h), i(len(set)), ptr(pset), ptr(pint))
	})
}

func (s *session) AddRows(lo, up []float64, start, cols []int, vals []float64) error {
	if err := s.closedErr("add rows"); err != nil {
		return err
	}
	if err := checkSize(s.rs.NumCols(), s.rs.NumRows()+len(lo), s.rs.Problem().NumNonzeros()+len(vals)); err != nil {
		return err
	}
	if err := s.rs.AddRows(lo, up, start, cols, vals); err != nil {
		return err
	}
	k := len(lo)
	if k == 0 {
		return nil
	}
	return s.apply("add rows", func(in *instance, a *arena) (uint64, error) {
		pl, pu := a.doubles(lo), a.doubles(up)
		ps, pi, pv := a.ints(start[:k]), a.ints(cols), a.doubles(vals)
		if a.err != nil {
			return 0, a.err
		}
		return in.call("Highs_addRows", ptr(s.h), i(k), ptr(pl), ptr(pu), i(len(vals)), ptr(ps), ptr(pi), ptr(pv))
	})
}

func (s *session) SetObjective(cols []int, obj []float64) error {
	if err := s.closedErr("set objective"); err != nil {
		return err
	}
	for k, c := range obj {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return solvers.Errorf(engineName, "set objective", solvers.ErrInvalidProblem, "column %d: objective coefficient %v", cols[k], c)
		}
	}
	if err := s.rs.SetObjective(cols, obj); err != nil {
		return err
	}
	if len(cols) == 0 {
		return nil
	}
	return s.apply("set objective", func(in *instance, a *arena) (uint64, error) {
		pset, pc := a.ints(cols), a.doubles(obj)
		if a.err != nil {
			return 0, a.err
		}
		return in.call("Highs_changeColsCostBySet", ptr(s.h), i(len(cols)), ptr(pset), ptr(pc))
	})
}

func (s *session) SetSense(sense solvers.Sense) error {
	if err := s.closedErr("set sense"); err != nil {
		return err
	}
	if err := s.rs.SetSense(sense); err != nil {
		return err
	}
	hs := senseMinimize
	if sense == solvers.Maximize {
		hs = senseMaximize
	}
	return s.apply("set sense", func(in *instance, _ *arena) (uint64, error) {
		return in.call("Highs_changeObjectiveSense", ptr(s.h), i(hs))
	})
}

func checkBounds(op, what string, k int, lo, up float64) error {
	if math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1) {
		return solvers.Errorf(engineName, op, solvers.ErrInvalidProblem, "%s %d: bounds [%v, %v]", what, k, lo, up)
	}
	return nil
}

func (s *session) SetColBounds(j int, lo, up float64) error {
	if err := s.closedErr("set column bounds"); err != nil {
		return err
	}
	if err := checkBounds("set column bounds", "column", j, lo, up); err != nil {
		return err
	}
	if err := s.rs.SetColBounds(j, lo, up); err != nil {
		return err
	}
	lo, up = s.rs.Problem().Bounds(j)
	return s.apply("set column bounds", func(in *instance, _ *arena) (uint64, error) {
		return in.call("Highs_changeColBounds", ptr(s.h), i(j), f(clipInf(in, lo)), f(clipInf(in, up)))
	})
}

func (s *session) SetRowBounds(r int, lo, up float64) error {
	if err := s.closedErr("set row bounds"); err != nil {
		return err
	}
	if err := checkBounds("set row bounds", "row", r, lo, up); err != nil {
		return err
	}
	if err := s.rs.SetRowBounds(r, lo, up); err != nil {
		return err
	}
	return s.apply("set row bounds", func(in *instance, _ *arena) (uint64, error) {
		return in.call("Highs_changeRowBounds", ptr(s.h), i(r), f(clipInf(in, lo)), f(clipInf(in, up)))
	})
}

func (s *session) NumCols() int { return s.rs.NumCols() }
func (s *session) NumRows() int { return s.rs.NumRows() }

// Close destroys the HiGHS object. It is idempotent.
func (s *session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.rs.Close()
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	if s.alive() {
		s.e.in.call("Highs_destroy", ptr(s.h))
	}
	s.h = 0
	putInstance(s.e.in)
	s.e.in = nil
	return nil
}

// clipInf maps infinite values to HiGHS's infinity.
func clipInf(in *instance, x float64) float64 {
	if x >= in.inf {
		return in.inf
	} else if x <= -in.inf {
		return -in.inf
	}
	return x
}
