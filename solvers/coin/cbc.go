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
		Name:        cbcName,
		Description: cbcDescription,
		Caps:        cbcCaps,
		Probe:       func() (string, error) { return cbcVersion(), nil },
		New:         func() (solvers.Solver, error) { return &cbcSolver{}, nil },
		LPRank:      4,
		MIPRank:     2, // after HiGHS: see the wrong-optimum note in doc.go
	})
}

// cbcSlot serializes Cbc_solve: it runs CBC's standalone driver
// (CbcMain1), which keeps process-wide state (parameter parsing globals)
// and is not safe to run concurrently. A channel, not a mutex, so that a
// solve waiting behind an abandoned one (see stop.go) gives up at its own
// hard stop.
var cbcSlot = make(chan struct{}, 1)

// cbcRaw lists the CBC driver options accepted in Params.Raw for MIPs and
// the kind of value each takes ("word" is checked by CBC itself). Each is
// passed as "-name value" to the driver.
var cbcRaw = map[string]string{
	"cuts":                     "word", // on|off|root|ifmove|forceOn
	"preprocess":               "word", // on|off|equal|sos|trysos|...
	"heuristics":               "word", // on|off
	"presolve":                 "word", // on|off|more
	"strategy":                 "int",  // 0|1|2
	"maxNodes":                 "int",
	"maxSolutions":             "int",
	"randomSeed":               "int",
	"randomCbcSeed":            "int",
	"integerTolerance":         "float",
	"cutoff":                   "float",
	"increment":                "float",
	"nodeStrategy":             "word",
	"feasibilityPump":          "word",
	"gomoryCuts":               "word",
	"probingCuts":              "word",
	"cliqueCuts":               "word",
	"knapsackCuts":             "word",
	"mixedIntegerRoundingCuts": "word",
	"flowCoverCuts":            "word",
	"twoMirCuts":               "word",
	"zeroHalfCuts":             "word",
	"liftAndProjectCuts":       "word",
	"reduceAndSplitCuts":       "word",
	"residualCapacityCuts":     "word",
	"roundingHeuristic":        "word",
	"greedyHeuristic":          "word",
	"combineSolutions":         "word",
	"localTreeSearch":          "word",
	"proximitySearch":          "word",
	"Rins":                     "word",
	"Rens":                     "word",
	"Dins":                     "word",
	"passCuts":                 "int",
	"passTreeCuts":             "int",
	"cutDepth":                 "int",
	"multipleRootPasses":       "int",
}

func cbcRawNames() []string {
	out := make([]string, 0, len(cbcRaw))
	for k := range cbcRaw {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cbcSolver is the "cbc" engine. LPs (no integer columns) are solved by the
// CLP path, so they get duals; MIPs go to CBC's branch and cut.
type cbcSolver struct{}

func (*cbcSolver) Name() string                       { return cbcName }
func (*cbcSolver) Version() string                    { return cbcVersion() }
func (*cbcSolver) Capabilities() solvers.Capabilities { return cbcCaps }

// NewSession returns a reloading session: CBC has no warm restart of a
// finished branch and cut, so every Solve starts from scratch.
func (s *cbcSolver) NewSession(p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	return solvers.NewReloadSession(s, p, prm)
}

func (*cbcSolver) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(cbcName, err)
	}
	prm = prm.OrDefault()
	if err := p.Validate(); err != nil {
		return nil, solvers.WithEngine(cbcName, err)
	}
	if !p.IsMIP() {
		return solveLP(cbcName, p, prm, prm.Raw)
	}
	return solveMIP(p, prm)
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func solveMIP(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	// Check the raw options before touching the engine.
	rawNames := make([]string, 0, len(prm.Raw))
	for k := range prm.Raw {
		rawNames = append(rawNames, k)
	}
	sort.Strings(rawNames)
	for _, k := range rawNames {
		v := strings.TrimSpace(prm.Raw[k])
		kind, ok := cbcRaw[k]
		if !ok {
			return nil, solvers.Errorf(cbcName, "options", solvers.ErrUnsupported, "unknown option %q (known: %s)", k, strings.Join(cbcRawNames(), ", "))
		}
		var err error
		switch kind {
		case "int":
			_, err = strconv.Atoi(v)
		case "float":
			_, err = strconv.ParseFloat(v, 64)
		default:
			if v == "" || strings.ContainsAny(v, " \t-") {
				err = fmt.Errorf("bad word")
			}
		}
		if err != nil {
			return nil, solvers.Errorf(cbcName, "options", solvers.ErrUnsupported, "option %q: bad value %q", k, v)
		}
	}

	n := p.NumCols()
	lo := make([]float64, n)
	up := make([]float64, n)
	for j := 0; j < n; j++ {
		lo[j], up[j] = p.Bounds(j)
	}
	q := splitRanged(p)
	m := newCbcModel()
	m.load(n, len(q.rowLo), q.start, q.index, q.value, lo, up, p.Obj, q.rowLo, q.rowUp)
	for j := 0; j < n; j++ {
		if p.Type(j) != solvers.Continuous {
			m.setInteger(j)
		}
	}
	m.setObjSense(direction(p.Sense))

	var warn []string
	if prm.Verbose {
		m.setLogLevel(1)
		m.setParameter("log", "1")
	} else {
		m.setLogLevel(0)
		m.setParameter("log", "0")
		m.setParameter("slog", "0")
	}
	// Params.TimeLimit is wall-clock; CBC counts CPU time unless told.
	m.setParameter("timeMode", "elapsed")
	if l := prm.Limit(); l > 0 {
		s := l.Seconds()
		m.setMaximumSeconds(s)
		m.setParameter("seconds", formatFloat(s))
	}
	// Zero gaps mean the package defaults (Params), not "no gap".
	m.setAllowableGap(prm.AbsGap())
	m.setParameter("allowableGap", formatFloat(prm.AbsGap()))
	m.setAllowableFracGap(prm.RelGap())
	m.setParameter("ratioGap", formatFloat(prm.RelGap()))
	if prm.FeasTol > 0 {
		m.setParameter("primalTolerance", formatFloat(prm.FeasTol))
	}
	if prm.Threads > 1 {
		m.setParameter("threads", strconv.Itoa(prm.Threads))
	}
	for _, k := range rawNames {
		v := strings.TrimSpace(prm.Raw[k])
		if k == "preprocess" && v == "off" {
			warn = append(warn, "preprocess=off: CBC 2.10.8 may abort the process (assertion in OsiClpSolverInterface::crunch) on models that its LP presolve fixes completely")
		}
		m.setParameter(k, v)
	}

	t0 := time.Now()
	stop := hardStop(prm)
	if !acquireCbc(stop) {
		m.free()
		return abandonedResult(cbcName, "it waited for an earlier abandoned CBC solve to finish", prm, time.Since(t0)), nil
	}
	if !runStoppable(stop, func() { m.solve(); <-cbcSlot }, m.free) {
		return abandonedResult(cbcName, "no incumbent", prm, time.Since(t0)), nil
	}
	defer m.free()
	secs := time.Since(t0).Seconds()

	r := &solvers.Result{Solver: cbcName, BestBound: math.NaN(), Seconds: secs, Warnings: warn,
		Iterations: int64(m.iterationCount()), Nodes: int64(m.nodeCount())}
	if x := m.bestSolution(n); x != nil {
		r.HasSolution = true
		r.X = x
		r.RowActivity = p.RowActivity(x)
		r.Objective = p.ObjectiveValue(x)
	}
	switch {
	case m.isProvenOptimal():
		r.Status = solvers.Optimal
	case m.isContinuousUnbounded():
		if r.HasSolution {
			r.Status = solvers.Unbounded
		} else {
			r.Status = solvers.InfeasibleOrUnbounded
		}
	case m.isProvenInfeasible():
		r.Status = solvers.Infeasible
	case m.isSecondsLimitReached():
		r.Status = solvers.TimeLimit
	case m.isNodeLimitReached():
		r.Status = solvers.NodeLimit
	case m.isSolutionLimitReached():
		r.Status = solvers.SolutionLimit
	case m.isAbandoned():
		r.Status = solvers.NumericalTrouble
	case m.status() == 5:
		r.Status = solvers.Interrupted
	default:
		r.Status = solvers.StatusUnknown
		r.Warnings = append(r.Warnings, fmt.Sprintf("CBC: unmapped status %d/%d", m.status(), m.secondaryStatus()))
	}
	if r.Status == solvers.Optimal && !r.HasSolution {
		return nil, solvers.Errorf(cbcName, "solve", solvers.ErrEngine, "CBC reports optimality without a solution")
	}
	switch r.Status {
	case solvers.Optimal, solvers.TimeLimit, solvers.NodeLimit, solvers.SolutionLimit, solvers.Interrupted:
		if b := m.bestPossible(); !math.IsInf(b, 0) && math.Abs(b) < 1e50 {
			r.BestBound = b + p.Offset
		}
	}
	if r.Status != solvers.Optimal && !r.Status.Limit() {
		r.HasSolution = false
	}
	r.Normalize()
	return r, nil
}

// cbcMatrix is the constraint matrix handed to CBC.
type cbcMatrix struct {
	start, index []int
	value        []float64
	rowLo, rowUp []float64
}

// splitRanged rewrites every ranged row lo <= a·x <= up (both bounds
// finite, lo < up) as a·x <= up plus an appended row -a·x <= -lo. CBC
// 2.10.8's MIP preprocessing (CglPreProcess) returns wrong "optimal"
// solutions on small integer programs with ranged rows; the split form
// avoids it (see doc.go). Rows that are not ranged are passed unchanged.
func splitRanged(p *solvers.Problem) cbcMatrix {
	m := p.NumRows()
	extra := make([]int, m) // index of the added row, or -1
	rowLo := append([]float64(nil), p.RowLower...)
	rowUp := append([]float64(nil), p.RowUpper...)
	for i := 0; i < m; i++ {
		extra[i] = -1
		l, u := p.RowLower[i], p.RowUpper[i]
		if !math.IsInf(l, 0) && !math.IsInf(u, 0) && l < u {
			extra[i] = len(rowLo)
			rowLo[i] = math.Inf(-1)
			rowLo = append(rowLo, math.Inf(-1))
			rowUp = append(rowUp, -l)
		}
	}
	if len(rowLo) == m {
		return cbcMatrix{p.ColStart, p.RowIndex, p.Value, rowLo, rowUp}
	}
	n := p.NumCols()
	c := cbcMatrix{start: make([]int, n+1), rowLo: rowLo, rowUp: rowUp}
	for j := 0; j < n; j++ {
		rows, vals := p.Column(j)
		c.index = append(c.index, rows...)
		c.value = append(c.value, vals...)
		for k, i := range rows {
			if e := extra[i]; e >= 0 {
				c.index = append(c.index, e)
				c.value = append(c.value, -vals[k])
			}
		}
		c.start[j+1] = len(c.index)
	}
	return c
}

// acquireCbc takes cbcSlot, waiting at most until stop (zero: no limit),
// and reports whether it did.
func acquireCbc(stop time.Time) bool {
	if stop.IsZero() {
		cbcSlot <- struct{}{}
		return true
	}
	t := time.NewTimer(time.Until(stop))
	defer t.Stop()
	select {
	case cbcSlot <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}
