package highs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

const engineName = "highs"

// HiGHS constants (highs_c_api.h).
const (
	hStatusError = -1

	senseMinimize = 1
	senseMaximize = -1

	formatColwise = 1

	varContinuous = 0
	varInteger    = 1

	optBool   = 0
	optInt    = 1
	optDouble = 2
	optString = 3

	solutionFeasible = 2
)

// HiGHS model status codes.
const (
	msNotset = iota
	msLoadError
	msModelError
	msPresolveError
	msSolveError
	msPostsolveError
	msModelEmpty
	msOptimal
	msInfeasible
	msUnboundedOrInfeasible
	msUnbounded
	msObjectiveBound
	msObjectiveTarget
	msTimeLimit
	msIterationLimit
	msUnknown
	msSolutionLimit
	msInterrupt
)

var capabilities = solvers.Capabilities{LP: true, Integer: true, Duals: true, Incremental: true, WarmStart: true, TimeLimit: true}

// Solver is the HiGHS backend. It borrows a wasm instance from a
// process-wide pool for each Solve, so Solvers are cheap; use one Solver
// per goroutine (or one per Solve).
type Solver struct {
	c *compiled
}

// New returns a HiGHS solver, or an error wrapping solvers.ErrUnavailable
// when the runtime files are missing or do not verify.
func New() (*Solver, error) {
	c, err := load()
	if err != nil {
		return nil, err
	}
	return &Solver{c: c}, nil
}

func (s *Solver) Name() string                       { return engineName }
func (s *Solver) Version() string                    { return s.c.version }
func (s *Solver) Capabilities() solvers.Capabilities { return capabilities }

// Solve solves p from scratch in a fresh HiGHS object.
func (s *Solver) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	prm = prm.OrDefault()
	if err := p.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	if err := checkSize(p.NumCols(), p.NumRows(), p.NumNonzeros()); err != nil {
		return nil, err
	}
	c := s.c
	limit := prm.Limit()
	hard := time.Duration(0)
	if limit > 0 {
		// HiGHS checks time_limit only between certain steps (a
		// k-anonymity MIP was measured 30-240 s past a 4-10 s limit inside
		// its root node) and compiled wasm cannot be preempted. Two stops
		// from outside at the limit plus hardStopGrace: the host's clock
		// functions (checkStop: cheap, enough where HiGHS reads the clock,
		// as in its simplex), and for a MIP, whose root node was seen going
		// two minutes without a clock read, the stoppable runtime.
		hard = limit + hardStopGrace(limit)
		if p.IsMIP() {
			var err error
			if c, err = c.stoppableRuntime(); err != nil {
				return nil, err
			}
		}
	}
	in, err := getInstance(c)
	if err != nil {
		return nil, err
	}
	defer putInstance(in) // after Highs_destroy below
	if hard > 0 {
		base := in.ctx
		ctx, cancel := context.WithTimeout(base, hard)
		in.ctx = ctx
		in.state.stopAt = time.Now().Add(hard)
		defer func() { cancel(); in.ctx, in.state.stopAt = base, time.Time{} }() // before putInstance
	}
	r, err := in.call("Highs_create")
	if err != nil {
		return nil, err
	}
	h := uint32(r)
	defer in.call("Highs_destroy", ptr(h))
	warnings, err := applyParams(in, h, prm)
	if err != nil {
		return nil, err
	}
	if p.NumCols() == 0 {
		return emptyResult(p, warnings), nil
	}
	t0 := time.Now()
	if err := passModel(in, h, p); err != nil {
		return nil, err
	}
	res, err := run(in, h, p)
	if err != nil {
		var te *trapError
		if stopped := errors.As(err, &te) && te.kind == "stop"; !stopped && (hard == 0 || in.ctx.Err() == nil) {
			return nil, err
		}
		// Stopped from outside: the instance is dead and its incumbent,
		// if any, lost with it.
		res = &solvers.Result{Solver: engineName, Status: solvers.TimeLimit, Objective: math.NaN(), BestBound: math.NaN(),
			Warnings: []string{fmt.Sprintf("HiGHS did not stop at its time limit of %v; stopped %v later, without its incumbent", limit, hard-limit)}}
	}
	res.Seconds = time.Since(t0).Seconds()
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}

// hardStopGrace is solvers.HardStopGrace, how long past its time limit a
// solve may run before it is stopped from outside (see checkStop). A
// variable so that a test can stop a solve early.
var hardStopGrace = solvers.HardStopGrace

// checkSize rejects models whose dimensions do not fit in a 32-bit HighsInt.
func checkSize(n, m, nnz int) error {
	if n > math.MaxInt32 || m > math.MaxInt32 || nnz > math.MaxInt32 {
		return solvers.Errorf(engineName, "solve", solvers.ErrUnsupported, "model too large for 32-bit HighsInt (%d columns, %d rows, %d nonzeros)", n, m, nnz)
	}
	return nil
}

// emptyResult solves a model without columns: optimal when every row
// admits activity 0, infeasible otherwise.
func emptyResult(p *solvers.Problem, warnings []string) *solvers.Result {
	m := p.NumRows()
	res := &solvers.Result{Solver: engineName, Status: solvers.Optimal, Objective: p.Offset, BestBound: p.Offset,
		X: []float64{}, RowActivity: make([]float64, m), Warnings: warnings}
	for i := 0; i < m; i++ {
		if p.RowLower[i] > 0 || p.RowUpper[i] < 0 {
			res.Status = solvers.Infeasible
			res.BestBound = math.NaN()
			res.Normalize()
			return res
		}
	}
	res.HasSolution = true
	res.HasDuals = true
	res.Duals = make([]float64, m)
	res.ReducedCosts = []float64{}
	return res
}

// setOption sets option name of HiGHS object h to the string value,
// converting it to the option's type. Unknown names and rejected values
// give errors wrapping solvers.ErrUnsupported.
func setOption(in *instance, h uint32, name, value string) error {
	a := in.arena()
	defer a.free()
	nm := a.cstr(name)
	tp := a.alloc(4)
	if a.err != nil {
		return a.err
	}
	st, err := in.call("Highs_getOptionType", ptr(h), ptr(nm), ptr(tp))
	if err != nil {
		return err
	}
	if status(st) == hStatusError {
		return solvers.Errorf(engineName, "set option", solvers.ErrUnsupported, "unknown HiGHS option %q", name)
	}
	bad := func() error {
		return solvers.Errorf(engineName, "set option", solvers.ErrUnsupported, "invalid value %q for HiGHS option %q", value, name)
	}
	v := strings.TrimSpace(value)
	switch a.readI32(tp) {
	case optBool:
		var b bool
		switch strings.ToLower(v) {
		case "true", "on", "1", "yes":
			b = true
		case "false", "off", "0", "no":
		default:
			return bad()
		}
		st, err = in.call("Highs_setBoolOptionValue", ptr(h), ptr(nm), bval(b))
	case optInt:
		n, perr := strconv.ParseInt(v, 10, 32)
		if perr != nil {
			return bad()
		}
		st, err = in.call("Highs_setIntOptionValue", ptr(h), ptr(nm), i(int(n)))
	case optDouble:
		x, perr := strconv.ParseFloat(v, 64)
		if perr != nil {
			return bad()
		}
		st, err = in.call("Highs_setDoubleOptionValue", ptr(h), ptr(nm), f(x))
	case optString:
		sv := a.cstr(value)
		if a.err != nil {
			return a.err
		}
		st, err = in.call("Highs_setStringOptionValue", ptr(h), ptr(nm), ptr(sv))
	default:
		return solvers.Errorf(engineName, "set option", solvers.ErrUnsupported, "HiGHS option %q has unknown type %d", name, a.readI32(tp))
	}
	if err != nil {
		return err
	}
	if status(st) == hStatusError {
		return bad()
	}
	return nil
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// applyParams maps the engine-neutral parameters to HiGHS options, then
// applies the raw options (which therefore take precedence).
func applyParams(in *instance, h uint32, prm *solvers.Params) (warnings []string, err error) {
	// HiGHS's own log goes through fd_write to the host.
	in.state.verbose = prm.Verbose
	in.state.out = logWriter
	set := func(name, value string) {
		if err == nil {
			err = setOption(in, h, name, value)
		}
	}
	set("output_flag", strconv.FormatBool(prm.Verbose))
	// HiGHS-wasm has no threads: more than one aborts the engine.
	set("threads", "1")
	if l := prm.Limit(); l > 0 {
		set("time_limit", fmtFloat(l.Seconds()))
	}
	rel, abs := prm.MIPRelGap, prm.MIPAbsGap
	if rel == 0 {
		rel = solvers.DefaultMIPRelGap
	}
	if abs == 0 {
		abs = solvers.DefaultMIPAbsGap
	}
	set("mip_rel_gap", fmtFloat(rel))
	set("mip_abs_gap", fmtFloat(abs))
	if prm.FeasTol > 0 {
		set("primal_feasibility_tolerance", fmtFloat(prm.FeasTol))
		set("dual_feasibility_tolerance", fmtFloat(prm.FeasTol))
		set("mip_feasibility_tolerance", fmtFloat(prm.FeasTol))
	}
	names := make([]string, 0, len(prm.Raw))
	for k := range prm.Raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		set(k, prm.Raw[k])
	}
	if err != nil {
		return nil, err
	}
	return paramWarnings(prm), nil
}

// paramWarnings lists the parameters that HiGHS-wasm ignores.
func paramWarnings(prm *solvers.Params) []string {
	if prm.Threads > 1 {
		return []string{fmt.Sprintf("threads=%d ignored: HiGHS-wasm is single-threaded", prm.Threads)}
	}
	return nil
}

// passModel loads p into HiGHS object h (column-wise; binary columns as
// integer columns with bounds clipped to [0, 1]).
func passModel(in *instance, h uint32, p *solvers.Problem) error {
	n, m := p.NumCols(), p.NumRows()
	a := in.arena()
	defer a.free()
	lo := make([]float64, n)
	up := make([]float64, n)
	for j := range lo {
		lo[j], up[j] = p.Bounds(j)
	}
	cost := a.doubles(p.Obj)
	clo := a.doubles(lo)
	cup := a.doubles(up)
	rlo := a.doubles(p.RowLower)
	rup := a.doubles(p.RowUpper)
	start := a.ints(p.ColStart[:n]) // HiGHS wants the n column starts
	index := a.ints(p.RowIndex)
	value := a.doubles(p.Value)
	var integrality uint32
	mip := p.IsMIP()
	if mip {
		integ := make([]int, n)
		for j := range integ {
			if p.Type(j) != solvers.Continuous {
				integ[j] = varInteger
			}
		}
		integrality = a.ints(integ)
	}
	if a.err != nil {
		return a.err
	}
	sense := senseMinimize
	if p.Sense == solvers.Maximize {
		sense = senseMaximize
	}
	args := []uint64{ptr(h), i(n), i(m), i(p.NumNonzeros()), i(formatColwise), i(sense), f(p.Offset),
		ptr(cost), ptr(clo), ptr(cup), ptr(rlo), ptr(rup), ptr(start), ptr(index), ptr(value)}
	fn := "Highs_passLp"
	if mip {
		fn = "Highs_passMip"
		args = append(args, ptr(integrality))
	}
	st, err := in.call(fn, args...)
	if err != nil {
		return err
	}
	if status(st) == hStatusError {
		return solvers.Errorf(engineName, "load model", solvers.ErrInvalidProblem, "HiGHS rejected the model")
	}
	return nil
}

// info reads HiGHS info values.
type info struct {
	in  *instance
	h   uint32
	a   *arena
	buf uint32
	err error
}

func newInfo(in *instance, h uint32) *info {
	a := in.arena()
	r := &info{in: in, h: h, a: a}
	r.buf = a.alloc(8)
	r.err = a.err
	return r
}

func (r *info) get(fn, name string) bool {
	if r.err != nil {
		return false
	}
	nm := r.a.cstr(name)
	if r.a.err != nil {
		r.err = r.a.err
		return false
	}
	st, err := r.in.call(fn, ptr(r.h), ptr(nm), ptr(r.buf))
	if err != nil {
		r.err = err
		return false
	}
	return status(st) != hStatusError
}

func (r *info) int(name string) int64 {
	if !r.get("Highs_getIntInfoValue", name) {
		return -1
	}
	return int64(r.a.readI32(r.buf))
}

func (r *info) int64(name string) int64 {
	if !r.get("Highs_getInt64InfoValue", name) {
		return -1
	}
	return r.a.readI64(r.buf)
}

func (r *info) float(name string) float64 {
	if !r.get("Highs_getDoubleInfoValue", name) {
		return math.NaN()
	}
	return r.a.readF64(r.buf)
}

// mapStatus maps a HiGHS model status to a solvers.Status; ok is false for
// the statuses that mean the call failed.
func mapStatus(ms int32) (solvers.Status, bool) {
	switch ms {
	case msOptimal, msModelEmpty:
		return solvers.Optimal, true
	case msInfeasible:
		return solvers.Infeasible, true
	case msUnboundedOrInfeasible:
		return solvers.InfeasibleOrUnbounded, true
	case msUnbounded:
		return solvers.Unbounded, true
	case msObjectiveBound:
		return solvers.Interrupted, true
	case msObjectiveTarget, msSolutionLimit:
		return solvers.SolutionLimit, true
	case msTimeLimit:
		return solvers.TimeLimit, true
	case msIterationLimit:
		return solvers.IterationLimit, true
	case msInterrupt:
		return solvers.Interrupted, true
	case msPresolveError, msSolveError, msPostsolveError:
		return solvers.NumericalTrouble, true
	case msUnknown:
		return solvers.StatusUnknown, true
	}
	return solvers.StatusUnknown, false
}

var statusNames = map[int32]string{
	msNotset: "not set", msLoadError: "load error", msModelError: "model error",
}

// run runs HiGHS on the model loaded in h (whose shape and types p
// describes) and collects the result.
func run(in *instance, h uint32, p *solvers.Problem) (*solvers.Result, error) {
	// HiGHS compares time_limit with the object's accumulated run time;
	// Params.TimeLimit bounds one solve.
	if _, err := in.call("Highs_zeroAllClocks", ptr(h)); err != nil {
		return nil, err
	}
	if _, err := in.call("Highs_run", ptr(h)); err != nil {
		return nil, err
	}
	r, err := in.call("Highs_getModelStatus", ptr(h))
	if err != nil {
		return nil, err
	}
	ms := status(r)
	st, ok := mapStatus(ms)
	if !ok {
		if ms == msLoadError || ms == msModelError {
			return nil, solvers.Errorf(engineName, "solve", solvers.ErrInvalidProblem, "HiGHS model status %d (%s)", ms, statusNames[ms])
		}
		return nil, solvers.Errorf(engineName, "solve", solvers.ErrEngine, "HiGHS model status %d (%s)", ms, statusNames[ms])
	}
	res := &solvers.Result{Solver: engineName, Status: st, BestBound: math.NaN()}
	mip := p.IsMIP()

	inf := newInfo(in, h)
	defer inf.a.free()
	primal := inf.int("primal_solution_status")
	dual := inf.int("dual_solution_status")
	obj := inf.float("objective_function_value")
	if mip {
		// HiGHS 1.15.1 has no info for the LP iterations summed over the
		// tree (mip_total_lp_iterations is not an info record there; its
		// type query fails): report simplex_iteration_count, which HiGHS
		// keeps after a MIP solve.
		it := inf.int("simplex_iteration_count")
		res.Iterations = max(it, 0)
		res.Nodes = max(inf.int64("mip_node_count"), 0)
		if b := inf.float("mip_dual_bound"); !math.IsInf(b, 0) && !math.IsNaN(b) && st != solvers.Infeasible {
			res.BestBound = b
		}
	} else {
		for _, name := range []string{"simplex_iteration_count", "ipm_iteration_count", "crossover_iteration_count", "pdlp_iteration_count"} {
			res.Iterations += max(inf.int(name), 0)
		}
	}
	if inf.err != nil {
		return nil, inf.err
	}
	n, m := p.NumCols(), p.NumRows()
	if primal == solutionFeasible {
		a := in.arena()
		defer a.free()
		cv, cd, rv, rd := a.alloc(8*n), a.alloc(8*n), a.alloc(8*m), a.alloc(8*m)
		if a.err != nil {
			return nil, a.err
		}
		if _, err := in.call("Highs_getSolution", ptr(h), ptr(cv), ptr(cd), ptr(rv), ptr(rd)); err != nil {
			return nil, err
		}
		res.HasSolution = true
		res.X = a.readDoubles(cv, n)
		res.RowActivity = a.readDoubles(rv, m)
		res.Objective = obj
		if !mip && st == solvers.Optimal {
			res.BestBound = obj
			if dual == solutionFeasible {
				res.HasDuals = true
				res.Duals = a.readDoubles(rd, m)
				res.ReducedCosts = a.readDoubles(cd, n)
			}
		}
	}
	// HiGHS keeps the primal feasible point it reached before detecting
	// an unbounded ray; it is not a solution (see solvers.Result).
	res.Normalize()
	return res, nil
}
