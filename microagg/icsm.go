package microagg

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// ICSM initial clusterings (ICSMOptions.Init).
const (
	InitMDAV       = "mdav"
	InitVMDAV      = "vmdav"
	InitProjection = "projection"
)

// Default ICSM settings.
const (
	DefaultPoolSize = 100 // p_n of Mortazavi & Jalili, Section 5.1
	DefaultPerturb  = 20  // records reassigned per restart, Section 5.3
	// DefaultNeighbourhood is the number of groups of the restricted H'
	// of the neighbourhood sweep (ICSMOptions.Neighbourhood).
	DefaultNeighbourhood = 32
)

// ICSMOptions are the settings of ICSM. The zero value means: start from
// MDAV, no iteration cap, no time limit, a single run, pool size 100.
type ICSMOptions struct {
	// Init names the initial clustering: mdav (default, as in the
	// paper), vmdav or projection. Ignored when Initial is set.
	Init string
	// Initial, when not nil, is the starting clustering (every group of
	// k..2k-1 records; larger groups are split by Tour2Assignment).
	Initial *model.Clustering
	// MaxIterations caps the number of improving rounds of one run
	// (MAX_ITERATIONS of Algorithm 2); 0 means no cap.
	MaxIterations int
	// TimeLimit bounds the whole call, restarts included; 0 means none.
	// ICSM is anytime: when the limit is hit it returns the best valid
	// clustering found so far.
	TimeLimit time.Duration
	// Restarts is the number of extra runs from perturbed copies of the
	// initial clustering (Section 5.3): in each, the groups of at most
	// Perturb randomly chosen records are shuffled among them (group
	// sizes are kept). The best clustering over all runs is returned.
	Restarts int
	// Perturb is the number of records reassigned per restart; 0 means
	// DefaultPerturb.
	Perturb int
	// Seed drives the perturbations (and nothing else: a run without
	// restarts is deterministic).
	Seed uint64
	// PoolSize is p_n, the number of the best 1-opt/2-opt moves kept per
	// SimpleHeuristic call; 0 means DefaultPoolSize.
	PoolSize int
	// Sources is the number of groups, in increasing Score order, from
	// which ComplexHeuristic searches negative cycles when the previous
	// ones yield none. 1 (the paper: only the group of least Score) is
	// the default; a negative value means every group.
	Sources int
	// Neighbourhood extends the paper's ComplexHeuristic: when the group
	// of least Score (and the next Sources-1) yields no negative cycle,
	// every group in turn becomes the source of a search on the subgraph
	// of H' spanned by its Neighbourhood nearest groups, and every
	// negative cycle found is applied. 0 means DefaultNeighbourhood; a
	// negative value turns the sweep off (the paper's algorithm).
	Neighbourhood int
	// Workers is the number of goroutines of the O(n²) passes; 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int
	// Check recomputes the SSE from scratch after every applied move and
	// fails with ErrICSMCheck when the incrementally maintained value
	// disagrees (a debug mode; it costs O(n·d) per move).
	Check bool
	// Progress, when not nil, is called after every improving round.
	Progress func(ICSMProgress)
}

// ICSMProgress is the state reported to ICSMOptions.Progress.
type ICSMProgress struct {
	Run       int     // 0 for the first run, 1.. for restarts
	Iteration int     // improving rounds of this run so far
	SSE       float64 // SSE of the current clustering of this run
	IL        float64 // 100·SSE/SST
	BestIL    float64 // best IL over all runs so far
	Elapsed   time.Duration
}

// ICSMStats counts what ICSM did.
type ICSMStats struct {
	Runs          int // runs done (1 + restarts started)
	Iterations    int // improving rounds, summed over runs
	Tours         int // Tour2Assignment calls that lowered the SSE
	Migrations    int // applied 1-opt moves
	Exchanges     int // applied 2-opt moves
	Cycles        int // applied n-opt moves (negative cycles) of the paper's ComplexHeuristic
	SweepCycles   int // applied negative cycles of the neighbourhood sweep
	Sweeps        int // neighbourhood sweeps
	CycleLength   int // longest applied cycle (edges)
	SimpleCalls   int
	ComplexCalls  int
	SimpleTime    time.Duration
	ComplexTime   time.Duration
	TourTime      time.Duration
	SweepTime     time.Duration
	InitialSSE    float64 // SSE of the initial clustering
	BestRun       int     // run that produced the result (0 = the first)
	StoppedByTime bool    // the time limit ended the search
	StoppedByIter bool    // MaxIterations ended a run
}

// checkTolerance is the relative difference allowed between a reported
// SSE and model.SSE of the clustering (summation order only).
const checkTolerance = 1e-9

// Check verifies a result against the data it was computed on: the
// clustering covers every record with groups of at least k, and the
// reported SSE equals model.SSE of the clustering (relative tolerance
// 1e-9). A failure wraps ErrICSMCheck: it is a bug, not an input problem.
func (r *ICSMResult) Check(z *model.Dataset, k int) error {
	if _, err := r.Clustering.CheckK(z.N, k); err != nil {
		return fmt.Errorf("%w: invalid clustering: %v", ErrICSMCheck, err)
	}
	sse := model.SSE(z, r.Clustering)
	if math.Abs(sse-r.SSE) > checkTolerance*math.Max(1, sse) {
		return fmt.Errorf("%w: reported SSE %.12g, its clustering has %.12g", ErrICSMCheck, r.SSE, sse)
	}
	return nil
}

// Stop reasons of ICSM (ICSMStats.Stopped), spelled as the solvers'
// statuses.
const (
	StopConverged = "converged"       // no move lowers the SSE
	StopTimeLimit = "time_limit"      // ICSMOptions.TimeLimit ended the search
	StopIterLimit = "iteration_limit" // ICSMOptions.MaxIterations ended a run
)

// Stopped names why the search stopped: StopTimeLimit when the time limit
// ended it, else StopIterLimit when an iteration cap ended a run, else
// StopConverged.
func (s *ICSMStats) Stopped() string {
	switch {
	case s.StoppedByTime:
		return StopTimeLimit
	case s.StoppedByIter:
		return StopIterLimit
	}
	return StopConverged
}

// ICSMResult is the outcome of ICSM.
type ICSMResult struct {
	Clustering *model.Clustering
	SSE        float64 // of Clustering, recomputed from scratch
	SST        float64
	IL         float64 // 100·SSE/SST (0 when SST = 0)
	Stats      ICSMStats
	Seconds    float64
}

// ErrICSMCheck reports a disagreement between the incrementally maintained
// SSE and a from-scratch recomputation (ICSMOptions.Check).
var ErrICSMCheck = errors.New("microagg: ICSM incremental SSE disagrees with a recomputation")

// ErrInit reports an unknown ICSMOptions.Init or an invalid Initial.
var ErrInit = errors.New("microagg: invalid ICSM initial clustering")

// ICSMInits lists the accepted ICSMOptions.Init names.
func ICSMInits() []string { return []string{InitMDAV, InitVMDAV, InitProjection} }

// initial returns the starting clustering of ICSM.
func (o *ICSMOptions) initial(z *model.Dataset, k int) (*model.Clustering, error) {
	if o.Initial != nil {
		c := o.Initial
		if len(c.Group) != z.N {
			return nil, fmt.Errorf("%w: it has %d records, the data %d", ErrInit, len(c.Group), z.N)
		}
		if _, err := c.CheckK(z.N, k); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInit, err)
		}
		return &model.Clustering{Group: append([]int(nil), c.Group...), NumGroups: c.NumGroups}, nil
	}
	switch o.Init {
	case "", InitMDAV:
		return MDAV(z, k)
	case InitVMDAV:
		return VMDAV(z, k, DefaultGamma)
	case InitProjection:
		return Projection(z, k)
	}
	return nil, fmt.Errorf("%w: unknown init %q (want one of mdav, vmdav, projection)", ErrInit, o.Init)
}

func ilOf(sse, sst float64) float64 {
	if sst <= 0 || math.IsNaN(sst) {
		return 0
	}
	return 100 * sse / sst
}
