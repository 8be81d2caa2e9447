package colgen

import (
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

// Run microaggregates z (records already standardized) into groups of at
// least k records by the column generation of Gentile,
// Spagnolo-Arrizabalaga & Castro (MicroaggregationHeuristicMP, Section
// 5.2), and returns the best clustering with a lower bound on the optimal
// SSE.
//
// The phases, in order (each a method of run below):
//   - start: the combinatorial lower bound and the initial columns (MDAV,
//     V-MDAV, the user's clusterings, the ICSM start);
//   - master loop: solve the restricted master LP, round its solution
//     (integral solution, SRH, MSTH), price new columns and raise the
//     Lagrangian bound, until pricing proves no negative reduced cost;
//   - gap closing: the set-partitioning integer program over every group
//     within the gap;
//   - branch-and-price, when the gap is still open;
//   - polish: ICSM from the master's best clustering.
func Run(z *model.Dataset, k int, opt *Options) (*Result, error) {
	if opt == nil {
		opt = &Options{}
	}
	start := time.Now()
	if err := validate(z, k, opt); err != nil {
		return nil, err
	}
	r := newRun(z, k, opt, newTimePlan(start, opt, time.Now))
	if err := r.startBound(); err != nil {
		return nil, err
	}
	initCols, err := r.initialColumns()
	if err != nil {
		return nil, err
	}
	if err := r.openMaster(initCols); err != nil {
		return nil, err
	}
	defer r.sess.Close()
	if r.box != nil {
		defer r.box.close()
	}
	defer r.smodel.close()
	if err := r.masterLoop(); err != nil {
		return nil, err
	}
	r.regionPhase()
	if err := r.subsetRowPhase(); err != nil {
		return nil, err
	}
	if err := r.closeGapPhase(); err != nil {
		return nil, err
	}
	if err := r.branchAndPrice(); err != nil {
		return nil, err
	}
	if err := r.polish(); err != nil {
		return nil, err
	}
	return r.finish()
}

// validate checks k, the options and the memory the distance matrix needs,
// before any work; failures wrap ErrInput.
func validate(z *model.Dataset, k int, opt *Options) error {
	n := z.N
	if k < 2 {
		return fmt.Errorf("%w: k = %d, column generation needs k ≥ 2", ErrInput, k)
	}
	if n < k {
		return fmt.Errorf("%w: k = %d is larger than the %d records", ErrInput, k, n)
	}
	switch {
	case opt.CloseColumns < 0:
		return fmt.Errorf("%w: CloseColumns %d", ErrInput, opt.CloseColumns)
	case opt.TimeLimit < 0:
		return fmt.Errorf("%w: TimeLimit %v", ErrInput, opt.TimeLimit)
	case opt.ICSMTimeLimit < 0:
		return fmt.Errorf("%w: ICSMTimeLimit %v", ErrInput, opt.ICSMTimeLimit)
	case opt.ICSMRestarts < 0:
		return fmt.Errorf("%w: ICSMRestarts %d", ErrInput, opt.ICSMRestarts)
	case opt.MaxIterations < 0:
		return fmt.Errorf("%w: MaxIterations %d", ErrInput, opt.MaxIterations)
	case opt.CEColumns < 0:
		return fmt.Errorf("%w: CEColumns %d", ErrInput, opt.CEColumns)
	case opt.Smoothing >= 1 || math.IsNaN(opt.Smoothing):
		return fmt.Errorf("%w: Smoothing %g (want < 1)", ErrInput, opt.Smoothing)
	case opt.Workers < 0:
		return fmt.Errorf("%w: Workers %d", ErrInput, opt.Workers)
	}
	if opt.Stabilize != "" && !slices.Contains(StabilizeMethods(), opt.Stabilize) {
		return fmt.Errorf("%w: unknown stabilization %q (want one of %v)", ErrInput, opt.Stabilize, StabilizeMethods())
	}
	if opt.Exact != "" && !slices.Contains(ExactMethods(), opt.Exact) {
		return fmt.Errorf("%w: unknown exact pricing %q (want one of %v)", ErrInput, opt.Exact, ExactMethods())
	}
	// The exact pricing ILP's size is known from n and the group size:
	// refuse up front rather than after the column generation has run.
	if err := checkExactPricingSize(n, k, opt.Exact); err != nil {
		return err
	}
	for i, c := range opt.Initial {
		if c == nil || len(c.Group) != n {
			return fmt.Errorf("%w: initial clustering %d does not cover the %d records", ErrInput, i, n)
		}
		if _, err := c.CheckK(n, k); err != nil {
			return fmt.Errorf("%w: initial clustering %d: %v", ErrInput, i, err)
		}
	}
	// The n x n squared-distance matrix dominates the memory.
	if need, limit := float64(n)*float64(n)*8, sysmem.DefaultLimit(); need > float64(limit) {
		return fmt.Errorf("%w: %d records need a %d x %d distance matrix of %s, more than the memory limit of %s (%s)",
			ErrInput, n, n, n, sysmem.Human(need), sysmem.Human(float64(limit)), sysmem.DefaultSource())
	}
	return nil
}

// run is the state the phases of Run share.
type run struct {
	z    *model.Dataset
	k, n int
	opt  *Options
	plan timePlan
	d    *model.SqDist
	prep *enumerate.Prepared
	res  *Result
	cs   *columnSet
	// best is the incumbent π*; bestMaster the best clustering of the
	// master's own phases (integral solutions, roundings, the gap-closing
	// program, branch-and-price): the ICSM polish starts from it.
	best, bestMaster *incumbent

	eng       solvers.Solver
	sess      solvers.Session
	masterPrm *solvers.Params
	rd        *rounder
	pr        *pricer
	// lastSumLambda is Σ_v λ_v of the last master solve.
	lastSumLambda float64
	// stab is the dual smoothing (nil when off).
	stab *stabilizer
	// box is the box-stabilized master (nil when off; box.go).
	box *boxMaster
	// asc is the subgradient ascent on the per-record bound (nil when
	// off), loopStart the start of the master loop.
	asc       *ascent
	loopStart time.Time
	// stallIters counts the consecutive master solves whose value did not
	// move (lastMaster: the previous value); shareAscent says the ascent
	// on exactShares has taken over the loop.
	stallIters  int
	lastMaster  float64
	shareAscent bool
	// masterMoved: the master's value has changed since its first solve.
	masterMoved bool
	// shareFrom is when the ascent on exactShares started, shareSeconds
	// the time its steps took since (shareTurn).
	shareFrom    time.Time
	shareSeconds float64
	// shareLate: the late turns (shareTurn) have started;
	// shareStuckAgain: the turns of a master stuck again after it moved;
	// shareStartStuck: the ascent started while the master was stuck at
	// its start (shareClimbs).
	shareLate, shareStuckAgain, shareStartStuck bool
	// src holds the subset-row cuts of the master (nil without them);
	// cutSigma are the cut duals of the last converged round with cuts
	// (nil when none converged), under which res.Duals and lastSumLambda
	// hold (subsetrow.go).
	src      *srcPool
	cutSigma []float64
	// smodel is the share model that takes the ascent's steps in its
	// tail (nil until then, or off; sharemodel.go); modelOff: its engine
	// failed, the ascent goes on without it (the caller's
	// Options.NoShareModel is left as it was).
	smodel   *shareModel
	modelOff bool
}

func newRun(z *model.Dataset, k int, opt *Options, plan timePlan) *run {
	return &run{z: z, k: k, n: z.N, opt: opt, plan: plan, d: model.NewSqDist(z),
		res: &Result{MDAV: math.Inf(1), VMDAV: math.Inf(1), SRH: math.Inf(1), MSTH: math.Inf(1), ICSM: math.Inf(1), Polish: math.Inf(1),
			LowerBound: math.Inf(-1)},
		cs: newColumnSet(z.N), best: &incumbent{sse: math.Inf(1)}, bestMaster: &incumbent{sse: math.Inf(1)}}
}

// raise keeps b as the lower bound when it is the best so far.
func (r *run) raise(b float64, kind string) {
	if b > r.res.LowerBound {
		r.res.LowerBound, r.res.BoundKind = b, kind
		r.res.BoundSeconds = r.plan.clock().Sub(r.plan.start).Seconds()
		r.trace()
	}
}

// trace appends the state of the run (time, best bound, incumbent) to
// Result.Trace, once an incumbent exists.
func (r *run) trace() {
	if math.IsInf(r.best.sse, 1) {
		return
	}
	p := TracePoint{Seconds: r.plan.clock().Sub(r.plan.start).Seconds(), LowerBound: max(r.res.LowerBound, 0), SSE: r.best.sse}
	if t := r.res.Trace; len(t) > 0 && t[len(t)-1].LowerBound == p.LowerBound && t[len(t)-1].SSE == p.SSE {
		return
	}
	r.res.Trace = append(r.res.Trace, p)
}

// stop records why and in which phase the run stopped.
func (r *run) stop(reason, phase string) { r.res.Stopped, r.res.StoppedPhase = reason, phase }

// proven: the incumbent's SSE meets the lower bound (within exactTol).
func (r *run) proven() bool {
	return r.best.sse-r.res.LowerBound <= exactTol*math.Max(1, r.best.sse)
}

// consider offers a clustering (its groups of 2k or more records split
// first) to the incumbent and, for the master's own sources, to
// bestMaster; it returns its SSE.
func (r *run) consider(groups [][]int, source string) float64 {
	groups, split := splitLarge(r.d, groups, r.k)
	r.res.Split += split
	s := r.d.PartitionCost(groups)
	if s < r.best.sse-1e-12*math.Max(1, s) {
		r.best.sse, r.best.groups, r.best.source = s, groups, source
		r.trace()
	}
	switch source {
	case "master", "srh", "msth", "close", "branch":
		if s < r.bestMaster.sse-1e-12*math.Max(1, s) {
			r.bestMaster.sse, r.bestMaster.groups, r.bestMaster.source = s, groups, source
		}
	}
	return s
}

// report sends the state of the run to Options.Progress: the phase, the
// best valid lower bound so far (never the master's value before it is
// proven), the incumbent and their gap.
func (r *run) report(phase string, p Progress) {
	if r.opt.Progress == nil {
		return
	}
	p.Phase = phase
	p.Iteration, p.Columns = r.res.Iterations, len(r.cs.cols)
	if p.Master == 0 {
		p.Master = r.res.Master
	}
	p.LowerBound = max(p.LowerBound, r.res.LowerBound, 0)
	p.BoundKind = r.res.BoundKind
	if p.LowerBound > r.res.LowerBound {
		p.BoundKind = BoundBranchAndPrice
	}
	p.BestSSE = r.best.sse
	p.GapPercent = GapPercent(r.best.sse, p.LowerBound)
	p.Elapsed = r.plan.clock().Sub(r.plan.start)
	r.opt.Progress(p)
}

// startBound raises the lower bound to the combinatorial bounds that hold
// before any master solve: the nearest-neighbour bound (nearestBound) and
// the per-record Lagrangian bound with λ = 0 (recordBound).
func (r *run) startBound() error {
	prep, err := enumerate.Prepare(r.d, min(2*r.k-1, r.n))
	if err != nil {
		return err
	}
	r.prep = prep
	nb := nearestBound(prep, r.d, r.k)
	r.raise(nb, BoundNearest)
	if c := nearestDuals(prep, r.d, r.k); c != nil {
		r.certify(nb, CertNearest, c, nil, nil)
	}
	zero := make([]float64, r.n)
	rb := recordBound(r.d, prep, zero, nil, r.k, r.opt.Workers, r.plan.loopEnd)
	r.raise(rb, BoundNearest)
	r.certify(rb, CertRecords, zero, nil, nil)
	return nil
}

// initialColumns runs the start heuristics — MDAV, V-MDAV (γ =
// Options.Gamma), the user's clusterings and, unless NoICSM, the ICSM
// start in its time box — offers their clusterings to the incumbent, and
// returns their groups of k..2k-1 records as the master's first columns.
func (r *run) initialColumns() ([][]int, error) {
	z, k, opt, res, cs := r.z, r.k, r.opt, r.res, r.cs
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
	res.MDAV = r.consider(mdav.Groups(), "mdav")
	res.VMDAV = r.consider(vmdav.Groups(), "vmdav")
	var initCols [][]int
	initCols = cs.addNew(initCols, keepSizes(r.best.groups, k))
	initCols = cs.addNew(initCols, mdav.Groups())
	initCols = cs.addNew(initCols, keepSizes(vmdav.Groups(), k))
	for _, c := range opt.Initial {
		r.consider(c.Groups(), "initial")
		initCols = cs.addNew(initCols, keepSizes(c.Groups(), k))
	}
	r.report(PhaseStart, Progress{})
	if !opt.NoICSM && !r.plan.passed(r.plan.loopEnd) {
		box := r.plan.icsmStartBox()
		t0 := time.Now()
		ir, err := microagg.ICSM(z, k, microagg.ICSMOptions{TimeLimit: box, Restarts: icsmRestarts(opt), Seed: opt.Seed})
		res.Stats.ICSMSeconds += time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("colgen: ICSM start: %w", err)
		}
		res.ICSM = r.consider(ir.Clustering.Groups(), "icsm")
		// Restarts start only after the unperturbed run finished.
		res.ICSMTimeBoxed = ir.Stats.StoppedByTime && ir.Stats.Runs <= 1
		initCols = cs.addNew(initCols, keepSizes(ir.Clustering.Groups(), k))
		r.report(PhaseStart, Progress{})
	}
	return initCols, nil
}

// openMaster builds the restricted master LP over the initial columns in
// an incremental session of the LP engine, and the rounder and pricer of
// the master loop.
func (r *run) openMaster(initCols [][]int) error {
	prob, err := lp.MasterProblem(r.d, initCols)
	if err != nil {
		return err
	}
	lpName := r.opt.LPSolver
	if lpName == "" {
		lpName = "auto"
	}
	r.eng, err = solvers.New(lpName, false)
	if err != nil {
		return err
	}
	r.res.LPSolver = r.eng.Name()
	// The session reads its Params at every Solve (the engines keep the
	// pointer they are given), so the time limit is re-armed before each
	// master solve with the time left.
	r.masterPrm = &solvers.Params{}
	r.sess, err = r.eng.NewSession(prob, r.masterPrm)
	if err != nil {
		return err
	}
	r.rd = newRounder(r.z, r.d, r.k)
	r.pr = &pricer{d: r.d, k: r.k, opt: r.opt, prep: r.prep, stats: &r.res.Stats, deadline: r.plan.loopEnd}
	r.loopStart = r.plan.clock()
	if r.opt.Ascent {
		if c := nearestDuals(r.prep, r.d, r.k); c != nil {
			r.asc = newAscent(c, floatSum(c))
		}
	}
	if alpha := r.opt.smoothing(); alpha > 0 {
		if c := nearestDuals(r.prep, r.d, r.k); c != nil {
			r.stab = &stabilizer{alpha: alpha, center: c, bound: floatSum(c)}
		}
	}
	if r.opt.Stabilize == StabilizeBox {
		return r.openBox(initCols)
	}
	return nil
}

// masterLoop is the column generation proper: master solve, rounding,
// pricing and bounds, until pricing proves convergence or a limit stops
// it. It sets Result.Columns, LPBound and HeuristicSSE.
func (r *run) masterLoop() error {
	for {
		done, err := r.iterate()
		if err != nil {
			return err
		}
		if done {
			break
		}
	}
	r.plan.ended(PhaseMaster)
	r.res.Columns = len(r.cs.cols)
	r.res.LPBound = max(r.res.LowerBound, 0)
	r.res.HeuristicSSE = r.best.sse
	return nil
}

// loopOver: the master loop's time is up (loopEnd passed, or the region
// bound's share has begun).
func (r *run) loopOver() bool { return r.plan.passed(r.plan.loopEnd) || r.regionDue() }

// moreTurns: the ascent takes turn number turn (from 0) before this
// master solve: the first, and more while the master is stuck again
// after it moved and the ascent pays, or has moved and the ascent climbs
// (shareClimbs), as its share of the time allows (shareTurn), until the
// loop's time is up. (Before the region's share was part of that, a turn
// loop that reached it span on turns of no step until loopEnd: 50 s of
// a 600 s EIA run at k = 10.)
func (r *run) moreTurns(turn int) bool {
	return (turn == 0 || r.shareStuckAgain && r.sharePays() || r.shareClimbs()) && r.shareTurn() && !r.loopOver()
}

// iterate is one iteration of the master loop; done says the loop ends
// (Result.Stopped says why).
func (r *run) iterate() (done bool, err error) {
	res, opt := r.res, r.opt
	if opt.MaxIterations > 0 && res.Iterations >= opt.MaxIterations {
		if r.noMasterBound() && r.n >= 2*r.k {
			r.startShareAscent()
		}
		r.ascend(ascentFinalSteps)
		r.stop(StopIterLimit, PhaseMaster)
		return true, nil
	}
	if r.regionDue() {
		r.stop(StopTimeLimit, PhaseMaster)
		return true, nil
	}
	if r.stuckTail() {
		r.plan.handOver()
		r.stop(StopTimeLimit, PhaseMaster)
		return true, nil
	}
	if r.ascentTail() {
		r.ascend(0)
	} else {
		// A turn of the ascent before this master solve; while the master
		// is stuck again after it moved and the ascent climbs, or has
		// moved and the ascent climbs (shareClimbs), as many turns as its
		// share of the time allows (shareTurn): such a master's solves add
		// nothing to the bound.
		for turn := 0; r.moreTurns(turn); turn++ {
			t0 := r.plan.clock()
			r.ascend(1)
			r.shareSeconds += r.plan.clock().Sub(t0).Seconds()
		}
	}
	if r.loopOver() {
		r.stop(StopTimeLimit, PhaseMaster)
		if res.Iterations == 0 {
			r.stop(StopTimeLimit, PhaseStart)
		}
		return true, nil
	}
	if !r.plan.loopEnd.IsZero() {
		// The master's solve and the pricing after it end at the loop's
		// end, or where the region bound's share begins.
		r.pr.deadline = r.loopDeadline()
		r.masterPrm.TimeLimit = time.Until(r.pr.deadline)
	}
	if r.boxActive() {
		return r.iterateBox()
	}
	t0 := time.Now()
	mr, err := r.sess.Solve()
	res.Stats.MasterSeconds += time.Since(t0).Seconds()
	res.Stats.MasterSolves++
	if err != nil {
		return true, fmt.Errorf("colgen: master LP: %w", err)
	}
	if mr.Status == solvers.TimeLimit || (mr.Status != solvers.Optimal && r.plan.passed(r.plan.loopEnd)) {
		r.stop(StopTimeLimit, PhaseMaster)
		return true, nil
	}
	if mr.Status != solvers.Optimal || !mr.HasDuals {
		return true, fmt.Errorf("colgen: master LP ended %v without optimal duals (engine %s)", mr.Status, r.eng.Name())
	}
	res.Iterations++
	if res.Iterations > 1 && math.Abs(mr.Objective-r.lastMaster) <= 1e-9*math.Max(1, math.Abs(mr.Objective)) {
		r.stallIters++
	} else if res.Iterations > 1 {
		r.stallIters = 0
		r.masterMoved = true
	}
	r.lastMaster = mr.Objective
	res.Master = mr.Objective
	res.Duals = mr.Duals

	rounded := r.round(mr.X, mr.ReducedCosts)
	var newCols [][]int
	out, sumLambda, err := r.stabilizedPricing(mr.Duals, &newCols)
	if err != nil {
		return true, err
	}
	for _, c := range out.cols {
		newCols = r.cs.addNew(newCols, [][]int{c.Members})
	}
	priced := len(newCols)
	if !opt.NoRoundedColumns && priced > 0 {
		for _, g := range rounded {
			before := len(newCols)
			newCols = r.cs.addNew(newCols, keepSizes(g, r.k))
			res.Stats.RoundedColumns += len(newCols) - before
		}
	}
	r.report(PhaseMaster, Progress{Master: mr.Objective})
	if out.complete {
		res.Converged = true
		r.stop(StopConverged, "")
		return true, nil
	}
	if out.timedOut && priced == 0 {
		r.stop(StopTimeLimit, PhasePricing)
		return true, nil
	}
	if priced == 0 {
		// Pricing found only master columns: look for new groups by
		// complete enumeration before calling it converged.
		var timedOut bool
		if newCols, timedOut, err = r.pr.newGroups(mr.Duals, r.cs, newCols); err != nil {
			return true, err
		}
		if len(newCols) == 0 {
			if timedOut {
				r.stop(StopTimeLimit, PhasePricing)
				return true, nil
			}
			return true, r.numericalStop(mr.Duals, sumLambda)
		}
	}
	obj, lo, up, st, rows, vals, err := lp.MasterColumns(r.d, newCols)
	if err != nil {
		return true, err
	}
	if err := r.sess.AddCols(obj, lo, up, nil, st, rows, vals); err != nil {
		return true, fmt.Errorf("colgen: adding columns: %w", err)
	}
	return false, nil
}

// round is the master phase's heuristic: an integral master solution x is
// a clustering; otherwise SRH and MSTH round it (Section 5.1). It returns
// the rounded clusterings (nil for an integral x), which may join the
// master as columns.
func (r *run) round(x, reducedCosts []float64) [][][]int {
	res := r.res
	t0 := time.Now()
	defer func() { res.Stats.RoundingSeconds += time.Since(t0).Seconds() }()
	if g, ok := integralGroups(x, r.cs.cols); ok {
		r.consider(g, "master")
		res.Integral = true
		return nil
	}
	res.Integral = false
	srh := r.rd.simpleRounding(x, reducedCosts, r.cs.cols)
	res.SRH = min(res.SRH, r.consider(srh, "srh"))
	msth := r.rd.mstRounding(x, r.cs.cols)
	res.MSTH = min(res.MSTH, r.consider(msth, "msth"))
	return [][][]int{srh, msth}
}

// priceAndBound is the pricing phase: new columns of negative reduced
// cost under the duals, and the Lagrangian bound they prove, Σ_v λ_v +
// a bound on the reduced costs of a partition (lagrangianTerm). The bound
// holds for any λ, so it stays rigorous whatever the LP's tolerances; at
// convergence it is the master LP value up to them. The per-record bound
// (recordBound, O(n²·k)) runs while its share of the elapsed time stays
// under recordBoundShare. It returns Σ_v λ_v too.
func (r *run) priceAndBound(duals []float64) (*priceOutcome, float64, error) {
	out, err := r.pr.price(duals)
	if err != nil {
		return nil, 0, err
	}
	sumLambda := floatSum(duals)
	kind := BoundLagrangian
	if out.complete {
		kind = BoundMasterLP
	}
	b := sumLambda + lagrangianTerm(r.n, r.k, out.lb)
	r.raise(b, kind)
	r.certify(b, CertSizes, duals, out.lb, out.proof)
	if !out.complete && r.res.Stats.BoundSeconds <= recordBoundShare*r.plan.clock().Sub(r.plan.start).Seconds() {
		b = max(b, r.recordBound(duals, out.lb, out.proof))
	}
	if r.stab != nil {
		r.stab.offer(duals, b)
	}
	r.lastSumLambda = sumLambda
	return out, sumLambda, nil
}

// recordBound raises the lower bound to recordBound at lambda and returns
// it (−Inf when the deadline cut it short).
func (r *run) recordBound(lambda, lb []float64, proofs []string) float64 {
	t0 := time.Now()
	b := recordBound(r.d, r.prep, lambda, lb, r.k, r.opt.Workers, r.loopDeadline())
	r.res.Stats.BoundSeconds += time.Since(t0).Seconds()
	r.raise(b, BoundLagrangian)
	r.certify(b, CertRecords, lambda, lb, proofs)
	return b
}

// stabilizedPricing is the pricing phase with dual smoothing (see
// stabilize.go): the greedy pricing at the separation point π_sep, whose
// Lagrangian bound may move the stability centre; its columns are
// appended to *newCols. When none of them has a negative reduced cost
// under the master's duals (a mis-pricing), or without smoothing, it is
// priceAndBound at the master's duals.
func (r *run) stabilizedPricing(duals []float64, newCols *[][]int) (*priceOutcome, float64, error) {
	if r.stab == nil || r.pr.accept != nil {
		return r.priceAndBound(duals)
	}
	sep := r.stab.separation(duals)
	r.stab.Separations++
	r.res.Stats.Separations++
	cols, lb, proofs := r.pr.heuristicAll(sep)
	b := floatSum(sep) + lagrangianTerm(r.n, r.k, lb)
	r.raise(b, BoundLagrangian)
	r.certify(b, CertSizes, sep, lb, proofs)
	if r.res.Stats.BoundSeconds <= sepBoundShare*r.plan.clock().Sub(r.plan.start).Seconds() {
		b = max(b, r.recordBound(sep, lb, proofs))
	}
	r.stab.offer(sep, b)
	tol := rcTolerance(duals)
	improving := 0
	for _, c := range cols {
		*newCols = r.cs.addNew(*newCols, [][]int{c.Members})
		if r.d.ReducedCost(duals, c.Members) < tol {
			improving++
		}
	}
	if improving > 0 {
		sumLambda := floatSum(duals)
		r.lastSumLambda = sumLambda
		return &priceOutcome{lb: lb}, sumLambda, nil
	}
	r.res.Stats.Mispricings++
	return r.priceAndBound(duals)
}

// noMasterBound: the master has proven no bound of its own (only the
// nearest-neighbour bound or an ascent's).
func (r *run) noMasterBound() bool {
	if r.res.Converged {
		return false
	}
	k := r.res.BoundKind
	return k == BoundNearest || k == BoundSubgradient || k == BoundShares
}

// ascentTail: the master loop is in the last ascentTail share of its time
// without a bound from the master's duals: its remaining time goes to the
// ascent (on exactShares by default, on recordBound with Options.Ascent
// and NoShareAscent), which raises the bound of a run that will not
// converge without taking time from one that is converging.
func (r *run) ascentTail() bool {
	if r.plan.loopEnd.IsZero() || r.boxActive() || !r.noMasterBound() || r.n < 2*r.k {
		return false
	}
	left := r.plan.loopEnd.Sub(r.plan.clock())
	if left >= time.Duration(ascentTail*float64(r.plan.loopEnd.Sub(r.loopStart))) {
		return false
	}
	if r.asc == nil || r.asc.ex == nil {
		r.startShareAscent()
	}
	return r.asc != nil && !r.asc.done()
}

// stuckTail: the master loop reaches its tail (the last ascentTail share
// of its time) without a bound of its own (large k: Census and Tarragona
// k = 10 in 60 s). The tail used to go to the ascent, which then kept the
// master from solving anyway (ascentTail); there its last steps add
// little to the bound, while the IL of such a run rests on the ICSM
// polish, whose restarts from the master's clustering improve it only
// when one finishes inside the box (Tarragona k = 10: 30.5009 until the
// 6th restart ends, 3-6 s into the polish on an idle machine, then
// 30.3018; bench/README.md). So the tail goes to the polish
// (timePlan.handOver), whose box grows from a tenth to about a fifth of
// the limit, at most to polishMinBox (so only for limits under 120 s).
// Not with NoICSM (no polish), Options.Ascent (whose ascent owns the
// tail) or NoShareAscent (the master keeps the tail, as before the ascent
// with exact shares).
func (r *run) stuckTail() bool {
	return r.tailToPolish() && !r.plan.clock().Before(r.tailStart())
}

// tailToPolish: the conditions of stuckTail but the time.
func (r *run) tailToPolish() bool {
	return !r.plan.loopEnd.IsZero() && !r.opt.NoICSM && !r.opt.Ascent && !r.opt.NoShareAscent && r.n >= 2*r.k &&
		r.plan.polishReserve < polishMinBox && r.noMasterBound() && r.bestMaster.groups != nil
}

// tailStart is when the loop's tail begins: its last ascentTail share,
// but no more than the polish needs to reach polishMinBox.
func (r *run) tailStart() time.Time {
	tail := time.Duration(ascentTail * float64(r.plan.loopEnd.Sub(r.loopStart)))
	if need := polishMinBox - r.plan.polishReserve; need < tail {
		tail = need
	}
	return r.plan.loopEnd.Add(-tail)
}

// polishMinBox is the polish's box that stuckTail tops its reserve up to
// (from the loop's tail): twice the 6 s in which, on an idle machine,
// the polish of Tarragona k = 10 just finished the restart that brings
// it from 30.5009 to 30.3018 (3-6 s in; bench/README.md). From a time
// limit of 120 s the reserve (a tenth) is that long and the ascent keeps
// the tail (Census k = 10 in 600 s: the ascent in the tail raised the
// bound from 9.08 to 9.57).
const polishMinBox = 12 * time.Second

// shareTurn: the ascent on exactShares takes a step before this master
// solve. The ascent takes turns with the master, its time measured
// against the master's since its turns (re)started, in three cases:
//   - stuck: the master's value has not moved from its first solve for
//     shareStallIters solves (a degenerate master stuck at its start: 18
//     solves on Census k = 4, 30 at k = 5, the whole minute at k = 10);
//     the ascent's time may reach s/shareStallIters times the master's,
//     at most shareRatio, s the solves the master has been stuck (and so
//     again, turns restarted, for a master stuck again after it moved
//     while the ascent pays);
//   - climbs (shareClimbs): the master has moved, has no bound of its
//     own, and the ascent started while it was stuck still pays (its
//     bound rose within its last sharePaysSteps evaluations); the
//     ascent's time may reach sharePaysRatio times the master's, as many
//     turns in a row as that allows. Only with a time limit;
//   - late: the master has moved but still has no bound after half of the
//     loop's time; the ratio grows from 0 there to 1 at the tail
//     (ascentTail), so that a master about to converge keeps most of the
//     time (Census k = 10 in 600 s: the master moved after 220 s and
//     never converged); at least sharePaysRatio while the ascent pays.
//
// Before the climbing turns, a master that had moved gave the ascent no
// turn until half of the loop (unless stuck again for shareStallIters
// solves): in 600 s at k = 10 the bound of Census, Tarragona and EIA was
// flat from about 180 s to 360 s (bench/README.md); with them, it rises
// until the loop's end (Tarragona: 28.69 → 29.10 IL, gap 5.26 → 4.05 %;
// EIA: 1.672 → 1.805 IL, 13.78 → 6.92 %; 600 s, one run each). A master
// that moves and then converges is not held back: the climbing turns are
// only for an ascent started while the master was stuck at its start
// (not for one started by the late turns: EIA k = 3 in 60 s, see
// shareClimbs), and they end with the master's own bound (Census k = 4
// in 60 s: the root still converges at 26 s, 10 ascent steps in 0.14 s,
// a gap of 1.54 % after 28 nodes as in the runs before, 0.97-1.54 %).
func (r *run) shareTurn() bool {
	if r.opt.NoShareAscent || !r.noMasterBound() || r.n < 2*r.k {
		return false
	}
	if r.boxActive() {
		return r.boxAscentTurn()
	}
	stalled := r.stallIters >= shareStallIters
	stuck := stalled && (!r.masterMoved || r.sharePays())
	frac := r.loopFraction()
	late := r.masterMoved && frac >= shareLateFrom
	climbs := r.shareClimbs()
	if stuck && r.masterMoved && !r.shareStuckAgain {
		// Stuck again after it moved, with an ascent that still climbs:
		// the turns restart (the master's time alone gives no credit).
		r.shareStuckAgain = true
		r.shareFrom, r.shareSeconds = r.plan.clock(), 0
	}
	if !stalled {
		r.shareStuckAgain = false
	}
	if !stuck && !late && !climbs {
		return false
	}
	if late && !r.shareLate {
		// The turns restart: the master's time alone since the stall
		// gives the ascent no credit.
		r.shareLate = true
		r.shareFrom, r.shareSeconds = r.plan.clock(), 0
	}
	if !r.shareAscent {
		r.startShareAscent()
		r.shareFrom, r.shareSeconds = r.plan.clock(), 0
		r.shareStartStuck = !r.masterMoved
		return true
	}
	if r.asc.done() {
		return false
	}
	master := r.plan.clock().Sub(r.shareFrom).Seconds() - r.shareSeconds
	ratio := 0.0
	if stuck {
		ratio = min(shareRatio, float64(r.stallIters)/shareStallIters)
	} else if late {
		ratio = min(1, (frac-shareLateFrom)/(1-ascentTail-shareLateFrom))
	}
	if climbs {
		ratio = max(ratio, sharePaysRatio)
	}
	return r.shareSeconds <= ratio*master
}

// shareClimbs: the master has moved (so it is not stuck at its start),
// the loop has a time limit, and the ascent on exactShares, started while
// the master was stuck at its start (shareStartStuck), pays (sharePays):
// the ascent takes turns at sharePaysRatio of the master's time, from the
// move on (shareTurn; it checks that the master has no bound of its own).
// Not for an ascent started by the late turns: EIA k = 3 in 60 s, whose
// master moves early and converges at 48 s, started it at half of the
// loop (35 s), and at sharePaysRatio from there the master did not
// converge (bound 0.3105 IL, 11.8 %, against 0.3233, 7.9 %).
func (r *run) shareClimbs() bool {
	return r.masterMoved && r.shareStartStuck && !r.plan.loopEnd.IsZero() && r.sharePays()
}

// sharePays: the ascent on exactShares has raised its bound within its
// last sharePaysSteps evaluations.
func (r *run) sharePays() bool {
	return r.shareAscent && r.asc != nil && !r.asc.done() && r.asc.sinceBest < sharePaysSteps
}

// loopFraction is the share of the master loop's time already gone (0
// without a time limit).
func (r *run) loopFraction() float64 {
	if r.plan.loopEnd.IsZero() {
		return 0
	}
	total := r.plan.loopEnd.Sub(r.loopStart)
	if total <= 0 {
		return 1
	}
	return float64(r.plan.clock().Sub(r.loopStart)) / float64(total)
}

// startShareAscent replaces the ascent (if any) by the ascent on
// exactShares from the nearest-neighbour duals, under which no group has
// a negative reduced cost (the bound there is the nearest-neighbour
// bound). Nothing with NoShareAscent.
func (r *run) startShareAscent() {
	if r.opt.NoShareAscent || r.shareAscent {
		return
	}
	r.shareAscent = true
	c := nearestDuals(r.prep, r.d, r.k)
	r.asc = newAscent(c, floatSum(c))
	r.asc.ex = newExactShares(r.d, r.prep, r.k, r.opt.Workers)
	r.asc.theta = shareAscentTheta
}

// ascend runs steps of the subgradient ascent on the per-record bound
// (ascent, stabilize.go) until it stalls, the loop's deadline passes or,
// when steps > 0, that many steps are done. The bounds it proves raise the
// lower bound (BoundSubgradient) and are certified; its best duals are
// offered to the smoothing as stability centre.
func (r *run) ascend(steps int) {
	if r.asc == nil {
		return
	}
	for i := 0; (steps <= 0 || i < steps) && !r.asc.done() && !r.loopOver(); i++ {
		t0 := time.Now()
		deadline := r.loopDeadline()
		if r.asc.ex != nil && !deadline.IsZero() {
			// One step's enumeration may not eat the loop: a step that
			// went too far fails within its budget and the next is shorter.
			budget := min(max(shareStepMin, shareStepGrowth*r.asc.lastOK), time.Duration(shareStepShare*float64(deadline.Sub(r.loopStart))))
			if d := r.plan.clock().Add(budget); d.Before(deadline) {
				deadline = d
			}
			if r.tailToPolish() && r.tailStart().Before(deadline) {
				// The tail goes to the polish (stuckTail): no step runs into it.
				deadline = r.tailStart()
			}
		}
		theta, useModel := r.asc.theta, r.modelTurn()
		var b float64
		done := false
		if useModel {
			b, done = r.modelStep(deadline)
		}
		if !done {
			b = r.asc.step(r.d, r.prep, r.k, r.opt.Workers, deadline, r.best.sse)
			if r.smodel != nil {
				r.smodel.collect(r.asc.ex)
				if r.asc.ex.scaled && r.asc.theta < theta {
					// The ascent stalled: the model gets the next steps.
					r.smodel.grant = shareModelGrant
				}
			}
		}
		r.res.Stats.AscentSeconds += time.Since(t0).Seconds()
		r.res.Stats.AscentSteps++
		if r.asc.ex != nil {
			r.raise(b, BoundShares)
			r.certify(r.asc.bestVal, CertShares, r.asc.best, nil, nil)
			continue
		}
		r.raise(b, BoundSubgradient)
		r.certify(r.asc.bestVal, CertRecords, r.asc.best, nil, nil)
	}
	if r.stab != nil {
		r.stab.offer(r.asc.best, r.asc.bestVal)
	}
	r.boxOffer()
}

// modelTurn says whether the ascent's next step is the share model's
// (sharemodel.go). The model exists from the ascent's first step on
// exactShares (unless Options.NoShareModel or no LP engine) and collects
// the groups of every evaluation; after the ascent's scaling phase it
// takes the steps that a stall of the ascent gave it (shareModelGrant).
func (r *run) modelTurn() bool {
	a := r.asc
	if r.opt.NoShareModel || r.modelOff || a.ex == nil || r.eng == nil {
		return false
	}
	if r.smodel == nil {
		m, err := newShareModel(r.d, r.eng, r.best.sse/float64(r.n))
		if err != nil {
			r.modelOff = true
			return false
		}
		r.smodel = m
		m.collect(a.ex)
	}
	return a.ex.scaled && a.ex.gBest == nil && r.smodel.grant > 0
}

// modelStep is a step of the share model; done is false when the ascent
// steps instead (the model's engine gave no duals in time, or failed:
// then the model is dropped).
func (r *run) modelStep(deadline time.Time) (b float64, done bool) {
	a := r.asc
	b, done, err := r.smodel.step(a, deadline, r.best.sse)
	st := &r.res.Stats
	st.ModelSteps, st.ModelSerious, st.ModelCuts, st.ModelEngineSeconds = r.smodel.Steps, r.smodel.Serious, r.smodel.Cuts, r.smodel.EngineSeconds
	if err != nil {
		// The engine failed: the ascent goes on without the model.
		r.smodel.close()
		r.smodel = nil
		r.modelOff = true
		return 0, false
	}
	if done {
		a.Steps++
	}
	return b, done
}

func floatSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// numericalStop ends the master loop when pricing found only columns the
// master already holds: the LP's tolerances and ours disagree and the
// master cannot improve further. The run stops as converged, with the
// exact minimum reduced cost of every size in the bound (or on the time
// limit when that computation is cut short).
func (r *run) numericalStop(duals []float64, sumLambda float64) error {
	lb, proofs, complete, err := r.pr.exactBounds(duals)
	if err != nil {
		return err
	}
	b := sumLambda + lagrangianTerm(r.n, r.k, lb)
	r.certify(b, CertSizes, duals, lb, proofs)
	if !complete {
		r.raise(b, BoundLagrangian)
		r.stop(StopTimeLimit, PhasePricing)
		return nil
	}
	r.raise(b, BoundMasterLP)
	r.res.Converged, r.res.NumericalStop = true, true
	r.stop(StopConverged, "")
	return nil
}

// closeShare is the share of the loop's time left that the gap-closing
// stage gets by default when branch-and-price follows it (timePlan.closeDeadline).
const closeShare = 0.5

// closeGapPhase is the gap-closing stage after convergence (closeGap):
// the set-partitioning integer program over every group whose reduced
// cost is within the gap, in its time share (timePlan.closeDeadline). Its
// solution competes for the incumbent and its bound raises the lower
// bound.
func (r *run) closeGapPhase() error {
	res, opt := r.res, r.opt
	if !res.Converged || opt.NoClose || r.best.sse-res.LowerBound <= exactTol*math.Max(1, r.best.sse) || r.plan.passed(r.plan.loopEnd) {
		return nil
	}
	r.report(PhaseClose, Progress{})
	t0 := time.Now()
	maxCols := opt.CloseColumns
	if maxCols <= 0 {
		maxCols = DefaultCloseColumns
	}
	// Half the loop's time left goes to the stage by default, all of it
	// when no branch-and-price follows (NoBranch).
	share := closeShare
	if opt.NoBranch {
		share = 1
	}
	closeDeadline := r.plan.closeDeadline(share)
	co, err := closeGap(r.d, r.prep, r.k, res.Duals, r.lastSumLambda, r.best.sse, r.cs.cols, maxCols, opt.Workers,
		pickEngine(opt.MIPSolver, "cbc", "lpsolve", "highs"), closeDeadline, r.cutPenalty(), r.src)
	res.Stats.CloseSeconds = time.Since(t0).Seconds()
	if err != nil {
		return err
	}
	res.CloseColumns, res.CloseStatus = co.columns, co.status
	if co.groups != nil {
		r.consider(co.groups, "close")
	}
	if !math.IsNaN(co.bound) {
		r.raise(co.bound, BoundIntegerProgram)
	}
	res.Closed = co.optimal
	if !co.optimal && r.plan.passed(closeDeadline) && closeDeadline.Equal(r.plan.loopEnd) {
		r.stop(StopTimeLimit, PhaseClose)
	}
	r.plan.ended(PhaseClose)
	r.report(PhaseClose, Progress{})
	return nil
}

// branchAndPrice explores the branch-and-price tree (brancher) from the
// converged master when the gap is still open, within the loop's time
// share; the tree's bound raises the lower bound.
func (r *run) branchAndPrice() error {
	res := r.res
	if !res.Converged || r.opt.NoBranch || r.proven() || r.plan.passed(r.plan.loopEnd) {
		return nil
	}
	if r.src != nil && len(r.src.cuts) > 0 && r.cutSigma == nil {
		// Cuts joined the master but their pricing never converged.
		return nil
	}
	if r.sess.NumCols() != len(r.cs.cols) {
		return fmt.Errorf("colgen: the master holds %d columns, the pool %d", r.sess.NumCols(), len(r.cs.cols))
	}
	r.report(PhaseBranch, Progress{})
	t0 := time.Now()
	br := &brancher{d: r.d, n: r.n, k: r.k, sess: r.sess, prm: r.masterPrm, cs: r.cs, pr: r.pr, src: r.src, rd: r.rd, consider: r.consider, best: r.best,
		deadline: r.plan.loopEnd}
	if r.opt.Progress != nil {
		br.progress = func(nodes, open int, bound float64) {
			r.report(PhaseBranch, Progress{LowerBound: bound, Nodes: nodes, OpenNodes: open})
		}
	}
	bo, err := br.run(res.LowerBound)
	res.Stats.BranchSeconds = time.Since(t0).Seconds()
	if err != nil {
		return err
	}
	res.Nodes, res.OpenNodes = bo.nodes, bo.open
	r.raise(bo.bound, BoundBranchAndPrice)
	res.Columns = len(r.cs.cols)
	if bo.timedOut {
		r.stop(StopTimeLimit, PhaseBranch)
	}
	r.plan.ended(PhaseBranch)
	r.report(PhaseBranch, Progress{Nodes: bo.nodes, OpenNodes: bo.open})
	return nil
}

// polish is the ICSM polish (microagg.ICSM from the master's best
// clustering), unless the incumbent is proven optimal already. It gets
// the time left until the end of the run, which is its reserved share
// (timePlan.polishReserve) unless an earlier phase overran its own;
// Result.PolishNote says when it was skipped or cut short, and why.
func (r *run) polish() error {
	res, opt := r.res, r.opt
	switch {
	case opt.NoICSM:
		return nil
	case r.bestMaster.groups == nil:
		res.PolishNote = "not run: the master produced no clustering of its own"
		return nil
	case r.proven():
		res.PolishNote = "not needed: the clustering is proven optimal"
		return nil
	}
	box, note := r.plan.polishBox()
	res.PolishNote = note
	if box < 0 {
		return nil
	}
	r.report(PhasePolish, Progress{})
	t0 := time.Now()
	cl, err := model.NewClustering(r.n, r.bestMaster.groups)
	if err != nil {
		return fmt.Errorf("colgen: master clustering: %w", err)
	}
	ir, err := microagg.ICSM(r.z, r.k, microagg.ICSMOptions{Initial: cl, TimeLimit: box, Restarts: icsmRestarts(opt), Seed: opt.Seed + 1})
	res.Stats.PolishSeconds = time.Since(t0).Seconds()
	if err != nil {
		return fmt.Errorf("colgen: ICSM polish: %w", err)
	}
	res.Polish = r.consider(ir.Clustering.Groups(), "polish")
	if ir.Stats.StoppedByTime && ir.Stats.Runs <= 1 && res.Stopped != StopTimeLimit {
		r.stop(StopTimeLimit, PhasePolish)
	}
	r.report(PhasePolish, Progress{})
	return nil
}

// finish builds the result: the incumbent's clustering, the bound clipped
// to [0, SSE] and the gap (formula (15)).
func (r *run) finish() (*Result, error) {
	res := r.res
	cl, err := model.NewClustering(r.n, r.best.groups)
	if err != nil {
		return nil, fmt.Errorf("colgen: best clustering: %w", err)
	}
	res.Clustering = cl
	res.SSE = r.best.sse
	res.Source = r.best.source
	if res.LowerBound < 0 {
		res.LowerBound, res.BoundKind, res.BoundSeconds = 0, BoundNone, 0
	}
	// The engine's LP value carries its tolerances: a bound a hair above
	// the incumbent is the incumbent.
	if res.LowerBound > res.SSE {
		res.LowerBound = res.SSE
	}
	res.Exact = r.proven()
	res.GapPercent = res.Gap(res.SSE)
	res.Seconds = r.plan.clock().Sub(r.plan.start).Seconds()
	return res, nil
}
