package colgen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/internal/sysmem"
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// Options are the settings of Run. The zero value means the paper's scheme
// with the default engines.
type Options struct {
	// LPSolver is the engine of the master LP ("" or "auto": the registry's
	// LP default). It must support incremental sessions.
	LPSolver string
	// MIPSolver is the engine of the pricing ILP (14) and of the
	// set-partitioning integer programs of the gap-closing stage. "" or
	// "auto" picks, among the available engines, lp_solve then CBC then
	// HiGHS for the pricing ILP and CBC then lp_solve then HiGHS for the
	// set partitioning — the fastest first, as measured in bench/README.md
	// (HiGHS-wasm is 10-30x slower on both).
	MIPSolver string
	// CloseTimeLimit bounds the gap-closing stage when TimeLimit leaves
	// more (0 = DefaultCloseTimeLimit); when it passes, the integer
	// program's incumbent and bound are kept.
	CloseTimeLimit time.Duration
	// Exact chooses the exact pricing when the heuristic finds no column:
	// ExactCE (the default: complete enumeration for every size), ExactEP
	// (the ILP (14) for every size) or ExactTable2 (the paper's rule).
	// The paper's rule sends sizes ≥ 7 to the ILP; here complete
	// enumeration proves those sizes in well under a millisecond where the
	// ILP takes seconds (bench/README.md), so it is not the default.
	Exact string
	// NoBranch skips the branch-and-price after the gap-closing stage
	// (see branch.go).
	NoBranch bool
	// NoClose skips the gap-closing stage after convergence (see
	// closeGap): enumerate every group whose reduced cost is within the
	// gap and solve the set-partitioning integer program over them.
	NoClose bool
	// CloseColumns caps the groups of that integer program (0 =
	// DefaultCloseColumns); beyond it the stage is skipped.
	CloseColumns int
	// TriangleCuts adds violated triangle inequalities to the pricing ILP.
	TriangleCuts bool
	// NoHeuristicPricing skips SolveHeuristicPricing (exact pricing only).
	NoHeuristicPricing bool
	// CEColumns is the number of columns complete enumeration returns per
	// call (the most negative ones); 0 means DefaultCEColumns (the paper
	// returns 1; 20 made Census k = 5 converge in 210 master solves where 1
	// had not converged after 599, bench/README.md).
	CEColumns int
	// NoRoundedColumns keeps the groups of the rounded clusterings out of
	// the master. By default they are added as columns (they are feasible
	// groups, so the bound is unaffected; they give the master integer
	// solutions to combine).
	NoRoundedColumns bool
	// Gamma is V-MDAV's γ (0 = microagg.DefaultGamma).
	Gamma float64
	// Initial holds more clusterings whose groups start the master; the
	// best of them competes for the incumbent.
	Initial []*model.Clustering
	// NoICSM leaves ICSM (microagg.ICSM, Mortazavi & Jalili) out: by
	// default the run also starts from an ICSM clustering (from MDAV, as
	// `sdcopt microagg --method icsm` does, so the result is never worse
	// than that run when it finishes within ICSMTimeLimit), and at the end
	// ICSM polishes the best clustering of the master (integral solutions,
	// roundings, the gap-closing program). NoICSM gives the paper's scheme.
	NoICSM bool
	// ICSMTimeLimit boxes the ICSM start (0 = a quarter of TimeLimit, or
	// no box without a TimeLimit).
	ICSMTimeLimit time.Duration
	// ICSMRestarts are the perturbed restarts of the ICSM start
	// (microagg.ICSMOptions.Restarts), seeded by Seed. 0 means: none
	// without a TimeLimit; with one, as many as fit in the ICSM time box
	// (the first run is the unperturbed one, so restarts only improve
	// it), and the polish restarts likewise within its share of the time.
	ICSMRestarts int
	Seed         uint64
	// TimeLimit bounds the run (0 = none). When it passes, Run returns the
	// best clustering and the best lower bound proven so far.
	TimeLimit time.Duration
	// MaxIterations bounds the number of master solves (0 = none).
	MaxIterations int
	// Workers is the number of goroutines of complete enumeration (0 = all).
	Workers int
	// Progress, when set, is called after every iteration.
	Progress func(Progress)
}

func (o *Options) maxCEColumns() int {
	if o.CEColumns > 0 {
		return o.CEColumns
	}
	return DefaultCEColumns
}

// DefaultCEColumns is the default of Options.CEColumns.
const DefaultCEColumns = 20

// Progress is reported after every iteration.
type Progress struct {
	Iteration  int
	Columns    int
	Master     float64 // restricted master LP value
	LowerBound float64 // best proven lower bound on the optimal SSE
	BestSSE    float64
	Elapsed    time.Duration
	// Nodes and OpenNodes: the branch-and-price tree so far (0 before it).
	Nodes, OpenNodes int
}

// Stats tell where the time went.
type Stats struct {
	MasterSeconds    float64
	MasterSolves     int
	RoundingSeconds  float64
	HeuristicSeconds float64
	HeuristicCalls   int
	HeuristicColumns int
	CESeconds        float64
	CECalls          int
	EPSeconds        float64
	EPCalls          int
	RoundedColumns   int
	CloseSeconds     float64
	BoundSeconds     float64 // the per-record Lagrangian bound (recordBound)
	ICSMSeconds      float64 // the ICSM start
	PolishSeconds    float64 // the ICSM polish
	BranchSeconds    float64 // branch-and-price
}

// PricingSeconds is the time spent pricing.
func (s Stats) PricingSeconds() float64 { return s.HeuristicSeconds + s.CESeconds + s.EPSeconds }

// Stop reasons (Result.Stopped).
const (
	StopConverged = "converged"  // no column of negative reduced cost is left
	StopTimeLimit = "time_limit" // Options.TimeLimit passed
	StopIterLimit = "iteration_limit"
)

// Phases of a run (Result.StoppedPhase names the one a limit stopped).
const (
	PhaseStart   = "start"   // MDAV, V-MDAV and the ICSM start
	PhaseMaster  = "master"  // a master LP solve
	PhasePricing = "pricing" // exact pricing
	PhaseClose   = "close"   // the gap-closing stage
	PhaseBranch  = "branch"  // branch-and-price
	PhasePolish  = "polish"  // the ICSM polish of the master's best clustering
)

// Kinds of lower bound (Result.BoundKind), weakest first.
const (
	BoundNone       = "none"              // no positive bound proven
	BoundNearest    = "nearest_neighbour" // Σ_v min_η s_v(η−1)/(2η) (nearestBound), before any master solve
	BoundLagrangian = "lagrangian"        // Σλ + a bound on the reduced costs of a partition, pricing unfinished
	BoundMasterLP   = "master_lp"         // the converged master LP (pricing proved no negative reduced cost)
	// BoundIntegerProgram is the bound of the gap-closing integer
	// program over every group within the gap.
	BoundIntegerProgram = "integer_program"
	// BoundBranchAndPrice is the smallest bound of the open nodes of the
	// branch-and-price tree (the SSE itself when the tree is closed).
	BoundBranchAndPrice = "branch_and_price"
)

// deadlineMargin is the share of Options.TimeLimit kept for the final
// checks: phases aim at 98 % of it, so that engines that check their
// clocks coarsely (CBC between nodes) still end within 5 %.
const deadlineMargin = 0.02

// recordBoundShare is the largest share of the elapsed time the
// per-record Lagrangian bound (recordBound) may take.
const recordBoundShare = 0.1

// Result is the outcome of Run.
type Result struct {
	// Clustering is the best clustering found (π*), SSE its SSE.
	Clustering *model.Clustering
	SSE        float64
	// Source names the heuristic that found it: mdav, vmdav, icsm (the
	// ICSM start), initial, master (an integral master solution), srh,
	// msth, close (the gap-closing integer program) or polish (ICSM from
	// the master's best clustering).
	Source string
	// BoundKind says which bound LowerBound is (BoundNearest, ...).
	BoundKind string
	// StoppedPhase names the phase a time or iteration limit stopped
	// (PhaseMaster, ...); empty when the run converged.
	StoppedPhase string
	// Nodes is the size of the branch-and-price tree (nodes solved),
	// OpenNodes the nodes left when a limit stopped it.
	Nodes, OpenNodes int
	// Split counts the groups of 2k or more records (from AddRemainingNodes
	// or an initial clustering) split before they competed for the
	// incumbent; no returned group has 2k records or more.
	Split int
	// ICSM is the SSE of the ICSM start and Polish that of the ICSM polish
	// (+Inf when not run).
	ICSM, Polish float64
	// ICSMTimeBoxed: the ICSM start stopped on its time box before it
	// converged (the result may then be worse than an unboxed ICSM run).
	ICSMTimeBoxed bool
	// LowerBound is a proven lower bound on the optimal SSE, available
	// whenever the run stops: the best of the nearest-neighbour bound
	// (before any master solve), the Lagrangian bounds of the iterations,
	// the converged master LP value and the gap-closing integer program's
	// bound (BoundKind says which).
	LowerBound float64
	// Master is the last restricted master LP value; LPBound the master
	// LP bound (Master when the run converged, else the best Lagrangian
	// bound) — the SSE_MP of the paper's formula (15), before the
	// gap-closing stage raises LowerBound.
	Master  float64
	LPBound float64
	// Close reports the gap-closing stage: Closed when its integer program
	// was solved to optimality (the clustering is then optimal),
	// CloseColumns its groups, CloseStatus what happened.
	Closed       bool
	CloseColumns int
	CloseStatus  string
	// Converged: pricing proved that no group has a negative reduced cost
	// (below a tolerance of 1e-8 relative to the largest dual).
	// NumericalStop: it stopped because pricing only re-found columns the
	// master holds (the LP's tolerances); the bound then uses the exact
	// minimum reduced cost of every size.
	Converged     bool
	NumericalStop bool
	// Integral: the last master LP solution is integral.
	Integral bool
	// Exact: the run converged and the best clustering's SSE equals the
	// lower bound (within 1e-7 relative): it is optimal.
	Exact bool
	// GapPercent is 100·(SSE − LowerBound)/SSE (the paper's formula (15)).
	GapPercent float64
	// Best SSE per heuristic (+Inf when it never produced a clustering):
	// MDAV and V-MDAV start the run, SRH and MSTH are the best roundings
	// over all iterations (SimpleRoundingHeuristic, RoundingMSTHeuristic).
	MDAV, VMDAV, SRH, MSTH float64
	// HeuristicSSE is the SSE of π* when the column generation ended,
	// before the gap-closing stage: the output of the paper's algorithm.
	HeuristicSSE float64
	// Duals are the row duals λ of the last master solve (one per record);
	// at convergence no group of k..2k-1 records has a negative reduced
	// cost under them.
	Duals      []float64
	Iterations int
	Columns    int
	Stopped    string
	LPSolver   string
	Stats      Stats
	Seconds    float64
}

// Gap returns formula (15) for a heuristic SSE against the lower bound.
func (r *Result) Gap(sse float64) float64 { return GapPercent(sse, r.LowerBound) }

// ErrCheck is wrapped by Result.Check: a result that contradicts its
// data, which is a bug, never an input problem.
var ErrCheck = errors.New("colgen: result failed verification")

// Check verifies a result against the data it was computed on: the
// clustering covers every record with groups of at least k, the reported
// SSE equals model.SSE of the clustering (relative tolerance 1e-9), no
// group has 2k records or more (such a group can be split without raising
// the SSE) and the lower bound does not exceed the SSE. Failures wrap
// ErrCheck.
func (r *Result) Check(z *model.Dataset, k int) error {
	if _, err := r.Clustering.CheckK(z.N, k); err != nil {
		return fmt.Errorf("%w: invalid clustering: %v", ErrCheck, err)
	}
	if z.N >= 2*k {
		for g, size := range r.Clustering.Sizes() {
			if size >= 2*k {
				return fmt.Errorf("%w: group %d has %d records, 2k = %d or more", ErrCheck, g, size, 2*k)
			}
		}
	}
	sse := model.SSE(z, r.Clustering)
	if math.Abs(sse-r.SSE) > 1e-9*math.Max(1, sse) {
		return fmt.Errorf("%w: reported SSE %.12g, its clustering has %.12g", ErrCheck, r.SSE, sse)
	}
	if r.LowerBound > sse*(1+1e-9)+1e-12 {
		return fmt.Errorf("%w: lower bound %.12g exceeds the SSE %.12g of its clustering", ErrCheck, r.LowerBound, sse)
	}
	return nil
}

// GapPercent is the paper's formula (15), 100·(sse − bound)/sse: NaN for
// a missing (infinite or NaN) SSE, 0 for a zero SSE (nothing to gain).
func GapPercent(sse, bound float64) float64 {
	switch {
	case math.IsInf(sse, 0) || math.IsNaN(sse):
		return math.NaN()
	case sse <= 0:
		return 0
	}
	return 100 * (sse - bound) / sse
}

// ErrInput reports unusable input (k out of range, too few records).
var ErrInput = errors.New("colgen: bad input")

// Run microaggregates z (records already standardized) into groups of at
// least k records by the column generation of Gentile,
// Spagnolo-Arrizabalaga & Castro (MicroaggregationHeuristicMP, Section
// 5.2), and returns the best clustering with a lower bound on the optimal
// SSE.
func Run(z *model.Dataset, k int, opt *Options) (*Result, error) {
	if opt == nil {
		opt = &Options{}
	}
	start := time.Now()
	n := z.N
	if k < 2 {
		return nil, fmt.Errorf("%w: k = %d, column generation needs k ≥ 2", ErrInput, k)
	}
	if n < k {
		return nil, fmt.Errorf("%w: k = %d is larger than the %d records", ErrInput, k, n)
	}
	switch {
	case opt.CloseColumns < 0:
		return nil, fmt.Errorf("%w: CloseColumns %d", ErrInput, opt.CloseColumns)
	case opt.TimeLimit < 0:
		return nil, fmt.Errorf("%w: TimeLimit %v", ErrInput, opt.TimeLimit)
	case opt.ICSMTimeLimit < 0:
		return nil, fmt.Errorf("%w: ICSMTimeLimit %v", ErrInput, opt.ICSMTimeLimit)
	case opt.ICSMRestarts < 0:
		return nil, fmt.Errorf("%w: ICSMRestarts %d", ErrInput, opt.ICSMRestarts)
	case opt.MaxIterations < 0:
		return nil, fmt.Errorf("%w: MaxIterations %d", ErrInput, opt.MaxIterations)
	case opt.CEColumns < 0:
		return nil, fmt.Errorf("%w: CEColumns %d", ErrInput, opt.CEColumns)
	case opt.Workers < 0:
		return nil, fmt.Errorf("%w: Workers %d", ErrInput, opt.Workers)
	}
	if opt.Exact != "" && !slices.Contains(ExactMethods(), opt.Exact) {
		return nil, fmt.Errorf("%w: unknown exact pricing %q (want one of %v)", ErrInput, opt.Exact, ExactMethods())
	}
	// The exact pricing ILP's size is known from n and the group size:
	// refuse up front rather than after the column generation has run.
	if err := checkExactPricingSize(n, k, opt.Exact); err != nil {
		return nil, err
	}
	for i, c := range opt.Initial {
		if c == nil || len(c.Group) != n {
			return nil, fmt.Errorf("%w: initial clustering %d does not cover the %d records", ErrInput, i, n)
		}
		if _, err := c.CheckK(n, k); err != nil {
			return nil, fmt.Errorf("%w: initial clustering %d: %v", ErrInput, i, err)
		}
	}
	// The n x n squared-distance matrix dominates the memory.
	if need, limit := float64(n)*float64(n)*8, sysmem.DefaultLimit(); need > float64(limit) {
		return nil, fmt.Errorf("%w: %d records need a %d x %d distance matrix of %s, more than the memory limit of %s (%s)",
			ErrInput, n, n, n, sysmem.Human(need), sysmem.Human(float64(limit)), sysmem.DefaultSource())
	}
	// deadline ends the run; the column generation and the gap-closing
	// stage stop at loopDeadline, which keeps a tenth of the time for the
	// ICSM polish, and everything stops a little before deadline
	// (deadlineMargin) to leave time for the final checks.
	var deadline, loopDeadline time.Time
	if opt.TimeLimit > 0 {
		deadline = start.Add(opt.TimeLimit - time.Duration(deadlineMargin*float64(opt.TimeLimit)))
		loopDeadline = deadline
		if !opt.NoICSM {
			loopDeadline = deadline.Add(-opt.TimeLimit / 10)
		}
	}
	timeUp := func(t time.Time) bool { return !t.IsZero() && time.Now().After(t) }
	d := model.NewSqDist(z)
	res := &Result{MDAV: math.Inf(1), VMDAV: math.Inf(1), SRH: math.Inf(1), MSTH: math.Inf(1), ICSM: math.Inf(1), Polish: math.Inf(1),
		LowerBound: math.Inf(-1)}
	raise := func(b float64, kind string) {
		if b > res.LowerBound {
			res.LowerBound, res.BoundKind = b, kind
		}
	}
	stop := func(reason, phase string) { res.Stopped, res.StoppedPhase = reason, phase }
	prep, err := enumerate.Prepare(d, min(2*k-1, n))
	if err != nil {
		return nil, err
	}
	// The combinatorial bound holds before any master solve.
	raise(nearestBound(prep, d, k), BoundNearest)
	raise(recordBound(d, prep, make([]float64, n), nil, k, opt.Workers, loopDeadline), BoundNearest)

	// Initial columns: MDAV, V-MDAV, ICSM and the user's clusterings.
	cs := newColumnSet(n)
	best := &incumbent{sse: math.Inf(1)}
	// bestMaster is the best clustering of the master's own phases
	// (integral solutions, roundings, the gap-closing program): the ICSM
	// polish starts from it.
	bestMaster := &incumbent{sse: math.Inf(1)}
	consider := func(groups [][]int, source string) float64 {
		groups, split := splitLarge(d, groups, k)
		res.Split += split
		s := d.PartitionCost(groups)
		if s < best.sse-1e-12*math.Max(1, s) {
			best.sse, best.groups, best.source = s, groups, source
		}
		switch source {
		case "master", "srh", "msth", "close", "branch":
			if s < bestMaster.sse-1e-12*math.Max(1, s) {
				bestMaster.sse, bestMaster.groups, bestMaster.source = s, groups, source
			}
		}
		return s
	}
	mdav, err := microagg.MDAV(z, k)
	if err != nil {
		return nil, err
	}
	gamma := opt.Gamma
	if gamma == 0 {
		gamma = microagg.DefaultGamma
	}
	vmdav, err := microagg.VMDAV(z, k, gamma)
	if err != nil {
		return nil, err
	}
	res.MDAV = consider(mdav.Groups(), "mdav")
	res.VMDAV = consider(vmdav.Groups(), "vmdav")
	var initCols [][]int
	initCols = cs.addNew(initCols, keepSizes(best.groups, k))
	initCols = cs.addNew(initCols, mdav.Groups())
	initCols = cs.addNew(initCols, keepSizes(vmdav.Groups(), k))
	for _, c := range opt.Initial {
		consider(c.Groups(), "initial")
		initCols = cs.addNew(initCols, keepSizes(c.Groups(), k))
	}
	if !opt.NoICSM && !timeUp(loopDeadline) {
		box := opt.ICSMTimeLimit
		if box == 0 && opt.TimeLimit > 0 {
			box = opt.TimeLimit / 4
		}
		if !loopDeadline.IsZero() {
			if left := time.Until(loopDeadline); box == 0 || left < box {
				box = left
			}
		}
		t0 := time.Now()
		ir, err := microagg.ICSM(z, k, microagg.ICSMOptions{TimeLimit: box, Restarts: icsmRestarts(opt), Seed: opt.Seed})
		res.Stats.ICSMSeconds += time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("colgen: ICSM start: %w", err)
		}
		res.ICSM = consider(ir.Clustering.Groups(), "icsm")
		// Restarts start only after the unperturbed run finished.
		res.ICSMTimeBoxed = ir.Stats.StoppedByTime && ir.Stats.Runs <= 1
		initCols = cs.addNew(initCols, keepSizes(ir.Clustering.Groups(), k))
	}

	prob, err := lp.MasterProblem(d, initCols)
	if err != nil {
		return nil, err
	}
	lpName := opt.LPSolver
	if lpName == "" {
		lpName = "auto"
	}
	eng, err := solvers.New(lpName, false)
	if err != nil {
		return nil, err
	}
	res.LPSolver = eng.Name()
	// The session reads its Params at every Solve (the engines keep the
	// pointer they are given), so the time limit is re-armed before each
	// master solve with the time left.
	masterPrm := &solvers.Params{}
	sess, err := eng.NewSession(prob, masterPrm)
	if err != nil {
		return nil, err
	}
	defer sess.Close()

	rd := newRounder(z, d, k)
	pr := &pricer{d: d, k: k, opt: opt, prep: prep, stats: &res.Stats, deadline: loopDeadline}
	var x []float64
	lastSumLambda := 0.0
	for {
		if opt.MaxIterations > 0 && res.Iterations >= opt.MaxIterations {
			stop(StopIterLimit, PhaseMaster)
			break
		}
		if timeUp(loopDeadline) {
			stop(StopTimeLimit, PhaseMaster)
			if res.Iterations == 0 {
				stop(StopTimeLimit, PhaseStart)
			}
			break
		}
		if !loopDeadline.IsZero() {
			masterPrm.TimeLimit = time.Until(loopDeadline)
		}
		t0 := time.Now()
		mr, err := sess.Solve()
		res.Stats.MasterSeconds += time.Since(t0).Seconds()
		res.Stats.MasterSolves++
		if err != nil {
			return nil, fmt.Errorf("colgen: master LP: %w", err)
		}
		if mr.Status == solvers.TimeLimit || (mr.Status != solvers.Optimal && timeUp(loopDeadline)) {
			stop(StopTimeLimit, PhaseMaster)
			break
		}
		if mr.Status != solvers.Optimal || !mr.HasDuals {
			return nil, fmt.Errorf("colgen: master LP ended %v without optimal duals (engine %s)", mr.Status, eng.Name())
		}
		res.Iterations++
		res.Master = mr.Objective
		res.Duals = mr.Duals
		x = mr.X

		// Master phase: integral solution or rounding.
		t0 = time.Now()
		var rounded [][][]int
		if g, ok := integralGroups(x, cs.cols); ok {
			consider(g, "master")
			res.Integral = true
		} else {
			res.Integral = false
			srh := rd.simpleRounding(x, mr.ReducedCosts, cs.cols)
			res.SRH = min(res.SRH, consider(srh, "srh"))
			msth := rd.mstRounding(x, cs.cols)
			res.MSTH = min(res.MSTH, consider(msth, "msth"))
			rounded = [][][]int{srh, msth}
		}
		res.Stats.RoundingSeconds += time.Since(t0).Seconds()

		// Pricing phase.
		out, err := pr.price(mr.Duals)
		if err != nil {
			return nil, err
		}
		// The Lagrangian bound Σ_v λ_v + min Σ_C rc_C·x_C holds for any λ,
		// so it stays rigorous whatever the LP's tolerances; at
		// convergence it is the master LP value up to them.
		sumLambda := 0.0
		for _, v := range mr.Duals {
			sumLambda += v
		}
		kind := BoundLagrangian
		if out.complete {
			kind = BoundMasterLP
		}
		raise(sumLambda+lagrangianTerm(n, k, out.lb), kind)
		// The per-record bound costs O(n²·k): it runs while its share of
		// the elapsed time stays under recordBoundShare.
		if !out.complete && res.Stats.BoundSeconds <= recordBoundShare*time.Since(start).Seconds() {
			t0 := time.Now()
			raise(recordBound(d, prep, mr.Duals, out.lb, k, opt.Workers, loopDeadline), BoundLagrangian)
			res.Stats.BoundSeconds += time.Since(t0).Seconds()
		}
		lastSumLambda = sumLambda
		var newCols [][]int
		for _, c := range out.cols {
			newCols = cs.addNew(newCols, [][]int{c.Members})
		}
		priced := len(newCols)
		if !opt.NoRoundedColumns && priced > 0 {
			for _, g := range rounded {
				before := len(newCols)
				newCols = cs.addNew(newCols, keepSizes(g, k))
				res.Stats.RoundedColumns += len(newCols) - before
			}
		}
		if opt.Progress != nil {
			opt.Progress(Progress{Iteration: res.Iterations, Columns: len(cs.cols), Master: mr.Objective,
				LowerBound: res.LowerBound, BestSSE: best.sse, Elapsed: time.Since(start)})
		}
		if out.complete {
			res.Converged = true
			stop(StopConverged, "")
			break
		}
		if out.timedOut && priced == 0 {
			stop(StopTimeLimit, PhasePricing)
			break
		}
		if priced == 0 {
			// Pricing found only columns the master already holds: the
			// LP's tolerances and ours disagree, the master cannot improve
			// further. Stop as converged, with the exact minimum reduced
			// cost of every size in the bound.
			lb, complete, err := pr.exactBounds(mr.Duals)
			if err != nil {
				return nil, err
			}
			if !complete {
				raise(sumLambda+lagrangianTerm(n, k, lb), BoundLagrangian)
				stop(StopTimeLimit, PhasePricing)
				break
			}
			raise(sumLambda+lagrangianTerm(n, k, lb), BoundMasterLP)
			res.Converged, res.NumericalStop = true, true
			stop(StopConverged, "")
			break
		}
		obj, lo, up, st, rows, vals, err := lp.MasterColumns(d, newCols)
		if err != nil {
			return nil, err
		}
		if err := sess.AddCols(obj, lo, up, nil, st, rows, vals); err != nil {
			return nil, fmt.Errorf("colgen: adding columns: %w", err)
		}
	}
	res.Columns = len(cs.cols)
	res.LPBound = max(res.LowerBound, 0)
	res.HeuristicSSE = best.sse
	if res.Converged && !opt.NoClose && best.sse-res.LowerBound > exactTol*math.Max(1, best.sse) && !timeUp(loopDeadline) {
		t0 := time.Now()
		maxCols := opt.CloseColumns
		if maxCols <= 0 {
			maxCols = DefaultCloseColumns
		}
		closeLimit := opt.CloseTimeLimit
		if closeLimit <= 0 {
			closeLimit = DefaultCloseTimeLimit
		}
		closeDeadline := time.Now().Add(closeLimit)
		if !loopDeadline.IsZero() && loopDeadline.Before(closeDeadline) {
			closeDeadline = loopDeadline
		}
		co, err := closeGap(d, prep, k, res.Duals, lastSumLambda, best.sse, cs.cols, maxCols, opt.Workers,
			pickEngine(opt.MIPSolver, "cbc", "lpsolve", "highs"), closeDeadline)
		res.Stats.CloseSeconds = time.Since(t0).Seconds()
		if err != nil {
			return nil, err
		}
		res.CloseColumns, res.CloseStatus = co.columns, co.status
		if co.groups != nil {
			consider(co.groups, "close")
		}
		if !math.IsNaN(co.bound) {
			raise(co.bound, BoundIntegerProgram)
		}
		res.Closed = co.optimal
		if !co.optimal && timeUp(closeDeadline) && closeDeadline.Equal(loopDeadline) {
			stop(StopTimeLimit, PhaseClose)
		}
	}
	proven := func() bool { return best.sse-res.LowerBound <= exactTol*math.Max(1, best.sse) }
	if res.Converged && !opt.NoBranch && !proven() && !timeUp(loopDeadline) {
		if sess.NumCols() != len(cs.cols) {
			return nil, fmt.Errorf("colgen: the master holds %d columns, the pool %d", sess.NumCols(), len(cs.cols))
		}
		t0 := time.Now()
		br := &brancher{d: d, n: n, k: k, sess: sess, prm: masterPrm, cs: cs, pr: pr, rd: rd, consider: consider, best: best,
			deadline: loopDeadline}
		if opt.Progress != nil {
			br.progress = func(nodes, open int, bound float64) {
				opt.Progress(Progress{Iteration: res.Iterations, Columns: len(cs.cols), Master: res.Master, LowerBound: max(res.LowerBound, bound),
					BestSSE: best.sse, Elapsed: time.Since(start), Nodes: nodes, OpenNodes: open})
			}
		}
		bo, err := br.run(res.LowerBound)
		res.Stats.BranchSeconds = time.Since(t0).Seconds()
		if err != nil {
			return nil, err
		}
		res.Nodes, res.OpenNodes = bo.nodes, bo.open
		raise(bo.bound, BoundBranchAndPrice)
		res.Columns = len(cs.cols)
		if bo.timedOut {
			stop(StopTimeLimit, PhaseBranch)
		}
	}
	// The ICSM polish: local search from the master's best clustering,
	// unless it is proven optimal already.
	if !opt.NoICSM && bestMaster.groups != nil && !proven() && !timeUp(deadline) {
		t0 := time.Now()
		cl, err := model.NewClustering(n, bestMaster.groups)
		if err != nil {
			return nil, fmt.Errorf("colgen: master clustering: %w", err)
		}
		var box time.Duration
		if !deadline.IsZero() {
			box = max(time.Until(deadline), time.Millisecond)
		}
		ir, err := microagg.ICSM(z, k, microagg.ICSMOptions{Initial: cl, TimeLimit: box, Restarts: icsmRestarts(opt), Seed: opt.Seed + 1})
		res.Stats.PolishSeconds = time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("colgen: ICSM polish: %w", err)
		}
		res.Polish = consider(ir.Clustering.Groups(), "polish")
		if ir.Stats.StoppedByTime && ir.Stats.Runs <= 1 && res.Stopped != StopTimeLimit {
			stop(StopTimeLimit, PhasePolish)
		}
	}
	cl, err := model.NewClustering(n, best.groups)
	if err != nil {
		return nil, fmt.Errorf("colgen: best clustering: %w", err)
	}
	res.Clustering = cl
	res.SSE = best.sse
	res.Source = best.source
	if res.LowerBound < 0 {
		res.LowerBound, res.BoundKind = 0, BoundNone
	}
	// The engine's LP value carries its tolerances: a bound a hair above
	// the incumbent is the incumbent.
	if res.LowerBound > res.SSE {
		res.LowerBound = res.SSE
	}
	res.Exact = proven()
	res.GapPercent = res.Gap(res.SSE)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// icsmRestarts is the number of ICSM restarts of the start and the polish
// (see Options.ICSMRestarts): with a time limit and no explicit number,
// as many as the time box allows.
func icsmRestarts(opt *Options) int {
	if opt.ICSMRestarts == 0 && opt.TimeLimit > 0 {
		return math.MaxInt32
	}
	return opt.ICSMRestarts
}

// pickEngine returns name, or for "" and "auto" the first available of
// prefer ("auto" when none is).
func pickEngine(name string, prefer ...string) string {
	if name != "" && name != "auto" {
		return name
	}
	for _, p := range prefer {
		if _, _, err := solvers.Lookup(p); err == nil {
			return p
		}
	}
	return "auto"
}

// exactTol is the relative gap below which a clustering counts as proven
// optimal: the bound carries the LP engine's tolerances (about 1e-7 on
// reduced costs, times ⌊n/k⌋ groups).
const exactTol = 1e-6

type incumbent struct {
	sse    float64
	groups [][]int
	source string
}

// keepSizes returns the groups with k..2k-1 members (rounded clusterings
// may hold larger groups after AddRemainingNodes; they are feasible but
// outside the family C* the pricing searches).
func keepSizes(groups [][]int, k int) [][]int {
	var out [][]int
	for _, g := range groups {
		if len(g) >= k && len(g) <= 2*k-1 {
			out = append(out, g)
		}
	}
	return out
}

// integralGroups returns the groups of an integral master solution.
func integralGroups(x []float64, cols [][]int) ([][]int, bool) {
	var g [][]int
	for c, v := range x {
		switch {
		case v > 1-1e-6:
			g = append(g, cols[c])
		case v > 1e-6:
			return nil, false
		}
	}
	return g, true
}

// columnSet holds the master's columns, one per distinct group.
type columnSet struct {
	n    int
	cols [][]int
	keys map[string]int
	buf  []byte
}

func newColumnSet(n int) *columnSet { return &columnSet{n: n, keys: map[string]int{}} }

// addNew appends to dst the groups (sorted copies) that are not yet
// columns, registering them.
func (s *columnSet) addNew(dst [][]int, groups [][]int) [][]int {
	for _, g := range groups {
		m := slices.Clone(g)
		slices.Sort(m)
		s.buf = s.buf[:0]
		for _, v := range m {
			s.buf = binary.AppendUvarint(s.buf, uint64(v))
		}
		if _, ok := s.keys[string(s.buf)]; ok {
			continue
		}
		s.keys[string(s.buf)] = len(s.cols)
		s.cols = append(s.cols, m)
		dst = append(dst, m)
	}
	return dst
}

// ResolveEngines checks the engine names of Options.LPSolver and
// Options.MIPSolver: the master needs an engine with incremental sessions
// and duals, the pricing ILP a MIP engine. An empty name is "auto"; when
// lpName names a MIP-capable engine and mipName is empty, the pricing ILP
// uses it too. Unknown names and engines without the needed capabilities
// are errors wrapping ErrInput; an engine that is registered but not
// available here is reported when it is used.
func ResolveEngines(lpName, mipName string) (string, string, error) {
	if lpName == "" {
		lpName = "auto"
	}
	if lpName != "auto" {
		e, _, err := solvers.Lookup(lpName)
		if err != nil {
			return "", "", fmt.Errorf("%w: master engine: %w", ErrInput, err)
		}
		if !e.Caps.Incremental || !e.Caps.Duals {
			return "", "", fmt.Errorf("%w: engine %s cannot hold the master LP (needs incremental sessions and duals)", ErrInput, lpName)
		}
		if mipName == "" && e.Caps.Integer {
			mipName = lpName
		}
	}
	if mipName == "" {
		mipName = "auto"
	}
	if mipName != "auto" {
		e, _, err := solvers.Lookup(mipName)
		if err != nil {
			return "", "", fmt.Errorf("%w: pricing engine: %w", ErrInput, err)
		}
		if !e.Caps.Integer {
			return "", "", fmt.Errorf("%w: pricing engine %s does not solve MIPs", ErrInput, mipName)
		}
	}
	return lpName, mipName, nil
}
