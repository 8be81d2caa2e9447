package microagg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// ICSM improves a clustering of the standardized data z by the Iterative
// Constraint Satisfaction local search of Mortazavi & Jalili (2015),
// Algorithms 2-5: starting from MDAV (or opt.Init / opt.Initial), it
// repeats
//
//	inner: tour of the clustering -> Tour2Assignment -> SimpleHeuristic
//	       (1-opt migrations, 2-opt exchanges), until neither changes it;
//	outer: ComplexHeuristic (one negative cycle of H', an n-opt move),
//
// until nothing improves, MaxIterations improving rounds were done or the
// time limit is reached; then it runs from Restarts perturbed copies of
// the initial clustering and returns the best clustering found. Every
// applied step keeps every group within k..2k-1 records and lowers the
// SSE. Errors: as for MDAV, ErrInit, and ErrICSMCheck in Check mode.
func ICSM(z *model.Dataset, k int, opt ICSMOptions) (*ICSMResult, error) {
	if err := validate(z, k); err != nil {
		return nil, err
	}
	if opt.MaxIterations < 0 || opt.Restarts < 0 || opt.Perturb < 0 || opt.PoolSize < 0 || opt.TimeLimit < 0 {
		return nil, fmt.Errorf("microagg: ICSM: negative setting (max iterations %d, restarts %d, perturb %d, pool %d, time limit %v)",
			opt.MaxIterations, opt.Restarts, opt.Perturb, opt.PoolSize, opt.TimeLimit)
	}
	start := time.Now()
	var deadline time.Time
	if opt.TimeLimit > 0 {
		deadline = start.Add(opt.TimeLimit)
	}
	init, err := opt.initial(z, k)
	if err != nil {
		return nil, err
	}
	r := &icsmRunner{z: z, k: k, opt: opt, start: start, deadline: deadline, sst: model.SST(z)}
	r.workers = opt.Workers
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if r.opt.PoolSize == 0 {
		r.opt.PoolSize = DefaultPoolSize
	}
	if r.opt.Sources == 0 {
		r.opt.Sources = 1
	}
	if r.opt.Neighbourhood == 0 {
		r.opt.Neighbourhood = DefaultNeighbourhood
	}
	perturb := opt.Perturb
	if perturb == 0 {
		perturb = DefaultPerturb
	}
	r.stats.InitialSSE = model.SSE(z, init)
	r.bestIL = math.Inf(1)

	best, bestSSE, err := r.run(0, init)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x1c5a))
	for run := 1; run <= opt.Restarts && !r.timeUp(); run++ {
		c, sse, err := r.run(run, perturbClustering(init, perturb, rng))
		if err != nil {
			return nil, err
		}
		if sse < bestSSE-icsmTol {
			best, bestSSE = c, sse
			r.stats.BestRun = run
		}
	}
	sse := model.SSE(z, best)
	return &ICSMResult{
		Clustering: best, SSE: sse, SST: r.sst, IL: ilOf(sse, r.sst),
		Stats: r.stats, Seconds: time.Since(start).Seconds(),
	}, nil
}

// perturbClustering reassigns m random records of c among themselves:
// their group labels are shuffled, so every group keeps its size
// (Mortazavi & Jalili, Section 5.3).
func perturbClustering(c *model.Clustering, m int, rng *rand.Rand) *model.Clustering {
	g := append([]int(nil), c.Group...)
	m = min(m, len(g))
	idx := rng.Perm(len(g))[:m]
	labels := make([]int, m)
	for j, i := range idx {
		labels[j] = g[i]
	}
	rng.Shuffle(m, func(a, b int) { labels[a], labels[b] = labels[b], labels[a] })
	for j, i := range idx {
		g[i] = labels[j]
	}
	return &model.Clustering{Group: g, NumGroups: c.NumGroups}
}

type icsmRunner struct {
	z        *model.Dataset
	k        int
	opt      ICSMOptions
	start    time.Time
	deadline time.Time
	sst      float64
	workers  int
	stats    ICSMStats
	bestIL   float64
	noCache  bool // evaluate every pair of groups in every SimpleHeuristic call
	pairs    int64
}

func (r *icsmRunner) timeUp() bool {
	if !r.deadline.IsZero() && time.Now().After(r.deadline) {
		r.stats.StoppedByTime = true
		return true
	}
	return false
}

// run is one ICSM run (Algorithm 2) from c. It returns the final
// clustering and its SSE.
func (r *icsmRunner) run(run int, c *model.Clustering) (*model.Clustering, float64, error) {
	r.stats.Runs++
	s := newICSMState(r.z, r.k, c, r.workers)
	cache := &simpleCache{noCache: r.noCache}
	sweep := &sweepState{}
	iter := 0
	stop := r.timeUp
	check := func(what string, predicted float64, before float64) error {
		if !r.opt.Check {
			return nil
		}
		got := s.recomputeSSE()
		scale := 1 + math.Abs(before)
		if math.Abs(got-s.sse) > 1e-9*scale {
			return fmt.Errorf("%w: after %s the maintained SSE is %.17g, recomputed %.17g", ErrICSMCheck, what, s.sse, got)
		}
		if math.Abs((got-before)-predicted) > 1e-9*scale {
			return fmt.Errorf("%w: %s predicted an SSE change of %.17g, the change is %.17g", ErrICSMCheck, what, predicted, got-before)
		}
		if got >= before {
			return fmt.Errorf("%w: %s did not lower the SSE (%.17g -> %.17g)", ErrICSMCheck, what, before, got)
		}
		if _, err := s.clustering().CheckK(s.n, r.k); err != nil {
			return fmt.Errorf("%w: after %s: %v", ErrICSMCheck, what, err)
		}
		for p := range s.numGroups() {
			if m := s.size(p); m > 2*r.k-1 {
				return fmt.Errorf("%w: after %s group %d has %d records (more than 2k-1)", ErrICSMCheck, what, p, m)
			}
		}
		return nil
	}
	improved := func() bool {
		iter++
		r.stats.Iterations++
		il := ilOf(s.sse, r.sst)
		r.bestIL = math.Min(r.bestIL, il)
		if r.opt.Progress != nil {
			r.opt.Progress(ICSMProgress{Run: run, Iteration: iter, SSE: s.sse, IL: il, BestIL: r.bestIL, Elapsed: time.Since(r.start)})
		}
		if r.opt.MaxIterations > 0 && iter >= r.opt.MaxIterations {
			r.stats.StoppedByIter = true
			return false
		}
		return true
	}
	large := false
	for p := range s.numGroups() {
		large = large || s.size(p) > 2*r.k-1
	}
outer:
	for {
		for { // inner loop: Tour2Assignment and the 1-opt/2-opt moves
			if stop() {
				break outer
			}
			changed := false
			t0 := time.Now()
			path := s.tour()
			groups, cost := s.tour2Assignment(path)
			r.stats.TourTime += time.Since(t0)
			// The current clustering is a partition of the tour into
			// consecutive groups, so cost <= SSE; take it when lower (and
			// always when a group is too large: the split is not worse).
			if !math.IsNaN(cost) && (cost < s.sse-icsmTol*(1+s.sse) || large) {
				before := s.sse
				s.setGroups(groups)
				large = false
				r.stats.Tours++
				changed = true
				if err := check("Tour2Assignment", cost-before, before); err != nil && cost < before {
					return nil, 0, err
				}
			}
			if stop() {
				break outer
			}
			t0 = time.Now()
			before := s.sse
			exch, migr, delta, ok := s.simpleHeuristic(cache, r.opt.PoolSize, stop)
			r.stats.SimpleTime += time.Since(t0)
			r.stats.SimpleCalls++
			if !ok {
				break outer
			}
			if exch+migr > 0 {
				r.stats.Exchanges += exch
				r.stats.Migrations += migr
				changed = true
				if err := check("SimpleHeuristic", delta, before); err != nil {
					return nil, 0, err
				}
			}
			if !changed {
				break
			}
			if !improved() {
				break outer
			}
		}
		t0 := time.Now()
		before := s.sse
		length, delta, ok := s.complexHeuristic(r.opt.Sources, stop)
		r.stats.ComplexTime += time.Since(t0)
		r.stats.ComplexCalls++
		if !ok {
			break
		}
		if length == 0 {
			if r.opt.Neighbourhood < 0 {
				break
			}
			t0 := time.Now()
			cycles, longest, _, ok, err := s.neighbourhoodSweep(r.opt.Neighbourhood, sweep, func(d, before float64) error {
				return check("neighbourhood cycle", d, before)
			}, stop)
			r.stats.SweepTime += time.Since(t0)
			r.stats.Sweeps++
			if err != nil {
				return nil, 0, err
			}
			if !ok || cycles == 0 {
				break
			}
			r.stats.SweepCycles += cycles
			r.stats.CycleLength = max(r.stats.CycleLength, longest)
			if !improved() {
				break
			}
			continue
		}
		r.stats.Cycles++
		r.stats.CycleLength = max(r.stats.CycleLength, length)
		if err := check("ComplexHeuristic", delta, before); err != nil {
			return nil, 0, err
		}
		if !improved() {
			break
		}
	}
	r.pairs += cache.evaluated
	cl := s.clustering()
	return cl, model.SSE(r.z, cl), nil
}
