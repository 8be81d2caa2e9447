//go:build cgo && coin

package coin

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

func init() {
	solvers.Register(solvers.Engine{
		Name:        clpName,
		Description: clpDescription,
		Caps:        clpCaps,
		Probe:       func() (string, error) { return clpVersion(), nil },
		New:         func() (solvers.Solver, error) { return &clpSolver{}, nil },
		LPRank:      1,
		MIPRank:     -1,
	})
}

// clpSolver is the "clp" engine.
type clpSolver struct{}

func (*clpSolver) Name() string                       { return clpName }
func (*clpSolver) Version() string                    { return clpVersion() }
func (*clpSolver) Capabilities() solvers.Capabilities { return clpCaps }

func (*clpSolver) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	return solveLP(clpName, p, prm, prm.OrDefault().Raw)
}

func (*clpSolver) NewSession(p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	return newClpSession(clpName, p, prm)
}

// clpOptions are the raw options understood by the CLP path.
type clpOptions struct {
	method       int  // clpMethod*
	presolve     bool // presolve in the initial solve
	scaling      int  // -1 = CLP default, else Clp_scaling mode
	perturbation int  // -1 = CLP default, else Clp_setPerturbation value
	maxIter      int  // -1 = CLP default
	dualTol      float64
}

// clpRawNames lists the raw options of the CLP path (see doc.go).
var clpRawNames = []string{"algorithm", "dual_tolerance", "max_iterations", "perturbation", "presolve", "scaling"}

func parseClpOptions(engine string, raw map[string]string) (clpOptions, []string, error) {
	o := clpOptions{method: clpMethodAutomatic, presolve: true, scaling: -1, perturbation: -1, maxIter: -1}
	bad := func(name, val, want string) error {
		return solvers.Errorf(engine, "options", solvers.ErrUnsupported, "option %q: value %q (want %s)", name, val, want)
	}
	var warnings []string
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		val := strings.TrimSpace(raw[name])
		lv := strings.ToLower(val)
		switch name {
		case "presolve":
			switch lv {
			case "on", "true", "1":
				o.presolve = true
			case "off", "false", "0":
				o.presolve = false
			default:
				return o, nil, bad(name, val, "on|off")
			}
		case "algorithm":
			switch lv {
			case "auto", "automatic":
				o.method = clpMethodAutomatic
			case "dual":
				o.method = clpMethodDual
			case "primal":
				o.method = clpMethodPrimal
			case "barrier":
				o.method = clpMethodBarrier
			default:
				return o, nil, bad(name, val, "auto|dual|primal|barrier")
			}
		case "scaling":
			modes := map[string]int{"off": 0, "equilibrium": 1, "geometric": 2, "auto": 3, "dynamic": 4}
			v, ok := modes[lv]
			if !ok {
				return o, nil, bad(name, val, "off|equilibrium|geometric|auto|dynamic")
			}
			o.scaling = v
		case "perturbation":
			switch lv {
			case "on":
				o.perturbation = 50
			case "off":
				o.perturbation = 102
			case "auto":
				o.perturbation = 100
			default:
				return o, nil, bad(name, val, "on|off|auto")
			}
		case "max_iterations":
			v, err := strconv.Atoi(val)
			if err != nil || v < 0 {
				return o, nil, bad(name, val, "a non-negative integer")
			}
			o.maxIter = v
		case "dual_tolerance":
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || !(v > 0) {
				return o, nil, bad(name, val, "a positive number")
			}
			o.dualTol = v
		default:
			if engine == cbcName && cbcRaw[name] != "" {
				// A CBC branch-and-cut option on an LP (solved by CLP).
				warnings = append(warnings, fmt.Sprintf("option %q ignored: the problem is an LP, solved by CLP", name))
				continue
			}
			known := clpRawNames
			if engine == cbcName {
				known = append(append([]string(nil), clpRawNames...), cbcRawNames()...)
			}
			return o, nil, solvers.Errorf(engine, "options", solvers.ErrUnsupported, "unknown option %q (known: %s)", name, strings.Join(known, ", "))
		}
	}
	return o, warnings, nil
}

// configure applies the engine-neutral parameters and the options that are
// model settings (not solve arguments). It returns the warnings.
func (o *clpOptions) configure(m *clpModel, prm *solvers.Params) []string {
	var w []string
	if prm.Verbose {
		m.setLogLevel(1)
	} else {
		m.setLogLevel(0)
	}
	if prm.FeasTol > 0 {
		m.setPrimalTolerance(prm.FeasTol)
	}
	if o.dualTol > 0 {
		m.setDualTolerance(o.dualTol)
	}
	if o.scaling >= 0 {
		m.setScaling(o.scaling)
	}
	if o.perturbation >= 0 {
		m.setPerturbation(o.perturbation)
	}
	if o.maxIter >= 0 {
		m.setMaximumIterations(o.maxIter)
	}
	if prm.Threads > 1 {
		w = append(w, fmt.Sprintf("threads=%d ignored: CLP simplex is single-threaded", prm.Threads))
	}
	return w
}

// armTimeLimit sets CLP's time limit (Params.Limit: the smaller of
// TimeLimit and the time left before Deadline); CLP counts it from the
// moment it is set, so it is armed right before every solve. The limit is
// wall-clock time (wallclock.cpp); only if that is unreachable does it
// fall back to CLP's CPU-time limit, which overruns on a busy machine.
func armTimeLimit(m *clpModel, prm *solvers.Params) {
	l := prm.Limit()
	if l > 0 {
		if m.setMaximumWallSeconds(l.Seconds()) {
			m.setMaximumSeconds(-1)
		} else {
			m.setMaximumSeconds(l.Seconds())
		}
	} else {
		m.setMaximumWallSeconds(-1)
		m.setMaximumSeconds(-1)
	}
}

func direction(s solvers.Sense) float64 {
	if s == solvers.Maximize {
		return -1
	}
	return 1
}

// solveLP solves a continuous problem with a fresh CLP model; engine is the
// name reported in results and errors ("clp", or "cbc" for LPs given to cbc).
func solveLP(engine string, p *solvers.Problem, prm *solvers.Params, raw map[string]string) (*solvers.Result, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(engine, err)
	}
	prm = prm.OrDefault()
	if err := p.Validate(); err != nil {
		return nil, solvers.WithEngine(engine, err)
	}
	if p.IsMIP() {
		return nil, solvers.Errorf(engine, "solve", solvers.ErrUnsupported, "CLP is an LP engine and the problem has integer columns (use cbc)")
	}
	opts, warn, err := parseClpOptions(engine, raw)
	if err != nil {
		return nil, err
	}
	if p.NumCols() == 0 {
		r := solveEmpty(engine, p)
		r.Warnings = append(r.Warnings, warn...)
		return r, nil
	}
	m := newClpModel()
	m.load(p.NumCols(), p.NumRows(), p.ColStart, p.RowIndex, p.Value, p.ColLower, p.ColUpper, p.Obj, p.RowLower, p.RowUpper)
	m.setDirection(direction(p.Sense))
	warn = append(warn, opts.configure(m, prm)...)
	armTimeLimit(m, prm)
	t0 := time.Now()
	if !runStoppable(hardStop(prm), func() { m.initialSolve(opts.method, opts.presolve) }, m.free) {
		r := abandonedResult(engine, "no solution", prm, time.Since(t0))
		r.Warnings = append(warn, r.Warnings...)
		return r, nil
	}
	defer m.free()
	secs := time.Since(t0).Seconds()
	r := readClp(engine, m, p.Offset, prm, &opts)
	r.Seconds = secs
	r.Warnings = append(warn, r.Warnings...)
	return r, nil
}

// readClp builds a Result from a solved CLP model.
func readClp(engine string, m *clpModel, offset float64, prm *solvers.Params, o *clpOptions) *solvers.Result {
	r := &solvers.Result{Solver: engine, BestBound: math.NaN(), Iterations: int64(m.iterations())}
	st := m.status()
	switch st {
	case 0:
		r.Status = solvers.Optimal
		r.HasSolution = true
		if sec := m.secondaryStatus(); sec >= 2 && sec <= 4 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("CLP: scaled problem optimal but unscaled problem has infeasibilities (secondary status %d)", sec))
		}
	case 1:
		r.Status = solvers.Infeasible
	case 2:
		// Dual infeasible: unbounded when the point is primal feasible;
		// otherwise CLP has not shown primal feasibility.
		m.checkSolution()
		if m.primalInfeasibilities() == 0 {
			r.Status = solvers.Unbounded
		} else {
			r.Status = solvers.InfeasibleOrUnbounded
		}
	case 3:
		if o.maxIter >= 0 && m.iterations() >= o.maxIter {
			r.Status = solvers.IterationLimit
		} else if prm.TimeLimit > 0 || !prm.Deadline.IsZero() {
			r.Status = solvers.TimeLimit
		} else {
			r.Status = solvers.IterationLimit
		}
		m.checkSolution()
		r.HasSolution = m.primalInfeasibilities() == 0
	case 4:
		r.Status = solvers.NumericalTrouble
	case 5:
		r.Status = solvers.Interrupted
	default:
		r.Status = solvers.StatusUnknown
		r.Warnings = append(r.Warnings, fmt.Sprintf("CLP: unknown status %d", st))
	}
	r.X = m.colSolution()
	r.RowActivity = m.rowActivity()
	if r.HasSolution {
		r.Objective = m.objectiveValue() + offset
	}
	if r.Status == solvers.Optimal {
		r.BestBound = r.Objective
		r.HasDuals = true
		// CLP reports y and d = c - Aᵀy in the package's convention for
		// both senses (verified in TestLPDuals); only -0 is normalized.
		r.Duals = noNegZero(m.rowPrice())
		r.ReducedCosts = noNegZero(m.reducedCost())
	}
	r.Normalize()
	return r
}

func noNegZero(v []float64) []float64 {
	for i, x := range v {
		if x == 0 {
			v[i] = 0
		}
	}
	return v
}

// solveEmpty handles a problem without columns: optimal with objective
// Offset when every row admits activity 0, infeasible otherwise.
func solveEmpty(engine string, p *solvers.Problem) *solvers.Result {
	m := p.NumRows()
	r := &solvers.Result{Solver: engine, Status: solvers.Optimal, X: []float64{}, RowActivity: make([]float64, m), BestBound: math.NaN()}
	for i := 0; i < m; i++ {
		if p.RowLower[i] > 0 || p.RowUpper[i] < 0 {
			r.Status = solvers.Infeasible
			r.Normalize()
			return r
		}
	}
	r.HasSolution = true
	r.Objective = p.Offset
	r.BestBound = p.Offset
	r.HasDuals = true
	r.Duals = make([]float64, m)
	r.ReducedCosts = []float64{}
	return r
}
