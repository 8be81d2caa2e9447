package colgen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
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
	// more; when it passes, the integer program's incumbent and bound are
	// kept. 0: DefaultCloseTimeLimit, or, when longer, half the master
	// loop's time left (all of it when no branch-and-price follows:
	// NoBranch or subset-row cuts in the master).
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
	// CloseColumns caps the groups of that integer program's first round
	// (0 = DefaultCloseColumns); beyond it the round lists the groups
	// below a smaller threshold, and each further round's cap is four
	// times the last (at most a million; see closeGap).
	CloseColumns int
	// TriangleCuts adds violated triangle inequalities to the pricing ILP.
	TriangleCuts bool
	// NoSubsetRowCuts turns off the subset-row cuts. By default, after
	// the master loop converged, rounds of violated subset-row cuts of
	// three records (Jepsen, Petersen, Spoorendonk & Pisinger, Operations
	// Research 56(2), 2008) join the master, each followed by column
	// generation with exact pricing under the cut duals (see
	// subsetRowPhase). The bound it proves is certified (form
	// CertSubsetRow, with the cuts and their duals), and branch-and-price
	// keeps them (its nodes price with the cut terms). Not with
	// StabilizeBox. On by default since they were
	// measured (120 s runs, bench/README.md "Subset-row cuts"): Tarragona
	// k = 3, 4, 5 gaps 4.22, 0.51, 0.27 % without, 0.06, 0.33, 0.03 % with,
	// at a lower IL in each.
	NoSubsetRowCuts bool
	// NoShareModel keeps the subgradient steps in the ascent's tail
	// instead of the share model's (sharemodel.go).
	NoShareModel bool
	// NoRegionBound skips the region bound (region.go) after a master
	// loop without a bound of its own, computed with a TimeLimit of 300 s
	// or more: the loop then keeps the time the bound would have had (a
	// twelfth of the limit).
	NoRegionBound bool
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
	// ICSMTimeLimit boxes the ICSM start (0 = by TimeLimit: a quarter of
	// it up to 120 s, 30 s up to 360 s, a twelfth beyond; no box without
	// a TimeLimit).
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
	// Smoothing is the weight α of the stability centre in the dual
	// smoothing of the master (Wentges; see stabilize.go): the greedy
	// pricing runs first at α·π̂ + (1−α)·π_out, π̂ the duals of the best
	// Lagrangian bound so far. 0 (the default) or a negative value turns
	// smoothing off; values must be below 1 (0.8 is the usual choice).
	// NoHeuristicPricing turns it off too (the separation point is priced
	// greedily).
	Smoothing float64
	// Ascent turns on the subgradient ascent on the per-record
	// Lagrangian bound, which takes the last ascentTail of the master
	// loop's time when the master has no bound of its own by then, and
	// ascentFinalSteps steps when MaxIterations stops the loop (see
	// ascent in stabilize.go).
	Ascent bool
	// NoShareAscent turns off the ascent on the per-record bound with
	// shares proven by complete enumeration (exactShares, BoundShares),
	// which takes turns with the master while the master's value has not
	// moved for shareStallIters solves without a bound of its own (large
	// k), then, once the master has moved, while the ascent's bound still
	// rises and from half of the loop's time, and takes the last
	// ascentTail of the loop's time when the master has no bound by then.
	NoShareAscent bool
	// Stabilize chooses the stabilization of the master: StabilizeNone
	// ("" too: the plain restricted master) or StabilizeBox (a box around
	// the duals of the best bound so far, moved by serious steps; see
	// box.go). With StabilizeBox the box master replaces the ascent on
	// exactShares.
	Stabilize string
	// Progress, when set, is called when a phase starts and ends, after
	// every master iteration and at every branch-and-price node report,
	// on the goroutine of Run. It only observes: nothing it does changes
	// the computation (the time shares are fixed when Run starts).
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

// Progress is the state of a run reported to Options.Progress. LowerBound
// is always the best valid lower bound proven so far (the master's value
// is one only once pricing proves convergence).
type Progress struct {
	Iteration  int
	Columns    int
	Master     float64 // restricted master LP value
	LowerBound float64 // best proven lower bound on the optimal SSE
	BestSSE    float64
	Elapsed    time.Duration
	// Nodes and OpenNodes: the branch-and-price tree so far (0 before it).
	Nodes, OpenNodes int
	// Phase is the phase under way (PhaseStart, PhaseMaster, PhaseClose,
	// PhaseBranch, PhasePolish).
	Phase string
	// BoundKind says which bound LowerBound is (BoundNearest, ...).
	BoundKind string
	// GapPercent is formula (15) of BestSSE against LowerBound.
	GapPercent float64
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
	// NewGroupPricings counts the pricings for groups that are not
	// columns yet, after a pricing found only master columns
	// (pricer.priceNew).
	NewGroupPricings int
	CloseSeconds     float64
	RegionSeconds    float64 // the region bound (region.go)
	BoundSeconds     float64 // the per-record Lagrangian bound (recordBound)
	ICSMSeconds      float64 // the ICSM start
	PolishSeconds    float64 // the ICSM polish
	BranchSeconds    float64 // branch-and-price
	SubsetRowSeconds float64 // the subset-row cut rounds
	// Separations counts the pricings at a smoothed separation point,
	// Mispricings those that found no column improving the master (then
	// the master's own duals were priced).
	Separations, Mispricings int
	// AscentSteps and AscentSeconds: the subgradient ascent on the
	// per-record bound.
	AscentSteps   int
	AscentSeconds float64
	// BoxEvaluations and BoxSeconds: the exact evaluations (exactShares)
	// at the box master's duals (Options.Stabilize = StabilizeBox);
	// BoxSerious of them moved the stability centre.
	BoxEvaluations, BoxSerious int
	BoxSeconds                 float64
	// ModelSteps of the ascent's steps were the share model's
	// (sharemodel.go), ModelSerious of them moved the best duals;
	// ModelCuts is its number of cuts, ModelEngineSeconds its engine's time.
	ModelSteps, ModelSerious, ModelCuts int
	ModelEngineSeconds                  float64
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
	PhaseStart     = "start"      // MDAV, V-MDAV and the ICSM start
	PhaseMaster    = "master"     // a master LP solve
	PhasePricing   = "pricing"    // exact pricing
	PhaseSubsetRow = "subset_row" // subset-row cut rounds (unless Options.NoSubsetRowCuts)
	PhaseClose     = "close"      // the gap-closing stage
	PhaseBranch    = "branch"     // branch-and-price
	PhasePolish    = "polish"     // the ICSM polish of the master's best clustering
)

// Kinds of lower bound (Result.BoundKind), weakest first.
const (
	BoundNone       = "none"              // no positive bound proven
	BoundNearest    = "nearest_neighbour" // Σ_v min_η s_v(η−1)/(2η) (nearestBound), before any master solve
	BoundLagrangian = "lagrangian"        // Σλ + a bound on the reduced costs of a partition, pricing unfinished
	// BoundSubgradient is the per-record Lagrangian bound (recordBound)
	// at duals found by subgradient ascent (ascent), not the master's.
	BoundSubgradient = "subgradient"
	// BoundShares is the per-record Lagrangian bound with shares proven
	// by complete enumeration (exactShares) at duals of the ascent.
	BoundShares = "exact_shares"
	// BoundRegionLP is the per-record bound at the ascent's best duals
	// with the records of a region covered by whole groups, proven by the
	// LP relaxation of a packing program with subset-row cuts (region.go;
	// certified, CertRegion); BoundRegion the same with the packing
	// program's bound by a MIP engine.
	BoundRegionLP = "region_lp"
	BoundRegion   = "region_ip"
	BoundMasterLP = "master_lp" // the converged master LP (pricing proved no negative reduced cost)
	// BoundSubsetRow is the converged master LP with subset-row cuts
	// (unless Options.NoSubsetRowCuts): pricing with the cut duals proved no
	// negative reduced cost.
	BoundSubsetRow = "subset_row_lp"
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

// sepBoundShare is the largest share of the elapsed time the per-record
// bound may take at the separation points of the smoothing, where it
// moves the stability centre.
const sepBoundShare = 0.3

// ascentTail is the share of the master loop's time, at its end, that
// goes to an ascent when the master has not produced a bound of its own
// by then: the ascent on exactShares by default, the one on the
// per-record bound (recordBound) with Options.Ascent and NoShareAscent.
// The per-record bound's steps cost about one
// per-record bound each, O(n²·k) (0.3 s on Census k = 10). Between master
// iterations (two steps each, or a fifth of the loop's time) it kept
// Census k = 4 from converging in 60 s, and so did this tail
// (bench/README.md), hence Options.Ascent is off by default.
const ascentTail = 0.15

// shareStallIters is the number of master solves without a change of
// the master's value after which the ascent on exactShares takes turns
// with the master (Options.NoShareAscent, shareTurn).
const shareStallIters = 8

// shareRatio is the largest ratio of the ascent's time to the master's
// while the master is stuck at its start (shareTurn): on Census k = 4
// the master leaves its stall after 18 solves and converges, on Census
// k = 10 it never moves.
const shareRatio = 4.0

// sharePaysSteps: the ascent on exactShares whose bound rose within its
// last sharePaysSteps evaluations takes turns with a master stuck again
// after it moved (shareTurn).
const sharePaysSteps = 2 * shareAscentPatience

// sharePaysRatio is the largest ratio of the ascent's time to the
// master's while a master that has moved still has no bound of its own
// and the ascent on exactShares pays (shareClimbs, shareTurn): the
// ratio of a master stuck at its start (shareRatio). At k = 10 such a
// master does not converge within 600 s, and its solves add nothing to
// the bound (bench/README.md).
const sharePaysRatio = shareRatio

// shareLateFrom is the share of the loop's time after which a master that
// has moved but has no bound yet takes turns with the ascent on
// exactShares again (shareTurn).
const shareLateFrom = 0.5

// The time of one step of the ascent on exactShares is bounded by
// shareStepGrowth times the last finished step's, at least shareStepMin
// and at most shareStepShare of the master loop's time. On Tarragona
// k = 10 a step that went too far enumerated for the rest of a 60 s loop;
// on Census k = 10 consecutive finished steps took 0.1 to 9 s, each at most
// about four times the one before.
const (
	shareStepGrowth = 8
	shareStepMin    = time.Second
	shareStepShare  = 0.25
)

// ascentFinalSteps is the number of ascent steps when the iteration limit
// (Options.MaxIterations) stops the master loop before convergence: a
// count, not a time, so that such runs do not depend on the clock.
const ascentFinalSteps = 20

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
	// Cuts is the number of subset-row cuts in the master
	// (unless Options.NoSubsetRowCuts), CutRounds the separation rounds that added
	// them.
	Cuts, CutRounds int
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
	// PolishNote says why the ICSM polish was not run or was cut short of
	// its reserved share of the time limit, or that it was extended by the
	// tail of a master loop without a bound of its own ("" when it ran its
	// share or NoICSM left it out).
	PolishNote string
	// ICSMTimeBoxed: the ICSM start stopped on its time box before it
	// converged (the result may then be worse than an unboxed ICSM run).
	ICSMTimeBoxed bool
	// LowerBound is a proven lower bound on the optimal SSE, available
	// whenever the run stops: the best of the nearest-neighbour bound
	// (before any master solve), the Lagrangian bounds of the iterations,
	// the converged master LP value and the gap-closing integer program's
	// bound (BoundKind says which).
	LowerBound float64
	// BoundSeconds is the time from the start of Run at which LowerBound
	// was reached.
	BoundSeconds float64
	// Trace is the run over time: a point whenever the lower bound or the
	// incumbent's SSE improved (from the first incumbent on), so that a
	// run stopped at any moment is read off it.
	Trace []TracePoint
	// Certificate states the best bound that CheckCertificate can
	// recompute from the data without an LP engine (nil when none); its
	// Bound is LowerBound unless the gap-closing integer program or
	// branch-and-price raised LowerBound further.
	Certificate *Certificate
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
	// Region reports the region bound (region.go), computed after a master
	// loop without a bound of its own at the ascent's best duals:
	// RegionRecords and RegionGroups are the region's records and the
	// groups of its packing program, RegionBound the bound (0 when none),
	// RegionStatus what happened ("" when it did not run).
	RegionRecords, RegionGroups int
	RegionBound                 float64
	RegionStatus                string
	// Converged: pricing proved that no group has a negative reduced cost
	// (below a tolerance of 1e-8 relative to the largest dual).
	// NumericalStop: it stopped because pricing only re-found columns the
	// master holds (the LP's tolerances) and complete enumeration found
	// no other group of negative reduced cost; the bound then uses the
	// exact minimum reduced cost of every size.
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
	// cost under them. With subset-row cuts they are the record duals of
	// the last round with cuts that converged, and the reduced costs that
	// are non-negative include the cut terms.
	Duals      []float64
	Iterations int
	Columns    int
	Stopped    string
	LPSolver   string
	Stats      Stats
	Seconds    float64
}

// TracePoint is the state of a run at a moment: the best valid lower
// bound (LowerBound, clipped at 0) and the incumbent's SSE, Seconds after
// the start of Run.
type TracePoint struct {
	Seconds    float64 `json:"seconds"`
	LowerBound float64 `json:"lower_bound"`
	SSE        float64 `json:"sse"`
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

// has reports whether group m (members ascending) is a column; it leaves
// the key of m in s.buf.
func (s *columnSet) has(m []int) bool {
	s.buf = groupKey(s.buf[:0], m)
	_, ok := s.keys[string(s.buf)]
	return ok
}

// contains is has for concurrent readers (no writer meanwhile): the key
// is built in a buffer of its own.
func (s *columnSet) contains(m []int) bool {
	_, ok := s.keys[string(groupKey(make([]byte, 0, 2*len(m)), m))]
	return ok
}

// groupKey appends the key of group m (members ascending) to buf.
func groupKey(buf []byte, m []int) []byte {
	for _, v := range m {
		buf = binary.AppendUvarint(buf, uint64(v))
	}
	return buf
}

// addNew appends to dst the groups (sorted copies) that are not yet
// columns, registering them.
func (s *columnSet) addNew(dst [][]int, groups [][]int) [][]int {
	for _, g := range groups {
		m := slices.Clone(g)
		slices.Sort(m)
		if s.has(m) {
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
