package microagg

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// groupSSE is the SSE of one group from scratch.
func groupSSE(z *model.Dataset, members []int) float64 {
	c := make([]float64, z.D)
	for _, i := range members {
		for t, v := range z.Row(i) {
			c[t] += v
		}
	}
	for t := range c {
		c[t] /= float64(len(members))
	}
	s := 0.0
	for _, i := range members {
		s += sqDist(z.Row(i), c)
	}
	return s
}

// TestICSMExample1 checks R1 on Example 1 of Mortazavi & Jalili, Section
// 4.1: T = [2..7], G1 = {2,3,4}, G2 = {5,6,7}; R1(3, G2, 6) = 6.
func TestICSMExample1(t *testing.T) {
	z := &model.Dataset{N: 6, D: 1, X: []float64{2, 3, 4, 5, 6, 7}}
	s := newICSMState(z, 3, &model.Clustering{Group: []int{0, 0, 0, 1, 1, 1}, NumGroups: 2}, 1)
	if s.sse != 4 { // Example 1: SSE = 4
		t.Fatalf("SSE %v, want 4", s.sse)
	}
	a := sqDist(s.row(1), s.centroid(1))
	r1 := a - s.b[4] - sqDist(s.row(1), s.row(4))/3
	if math.Abs(r1-6) > 1e-12 {
		t.Fatalf("R1(3, G2, 6) = %v, want 6", r1)
	}
}

// TestICSMWeights checks R1, R2 and R3 against from-scratch changes of a
// group's SSE on random groups.
func TestICSMWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		k := 2 + rng.IntN(4)
		z := uniformData(4*k, 3, uint64(trial))
		m := k + rng.IntN(k) // the group: records 0..m-1, others outside
		group := make([]int, z.N)
		for i := range group {
			if i >= m {
				group[i] = 1
			}
		}
		s := newICSMState(z, k, &model.Clustering{Group: group, NumGroups: 2}, 1)
		base := make([]int, m)
		for i := range base {
			base[i] = i
		}
		x, y := int32(m+rng.IntN(z.N-m)), int32(rng.IntN(m))
		a := sqDist(s.row(x), s.centroid(0))
		// R1: x replaces y.
		repl := slices.Clone(base)
		repl[y] = int(x)
		if got, want := a-s.b[y]-sqDist(s.row(x), s.row(y))/float64(m), groupSSE(z, repl)-groupSSE(z, base); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("trial %d: R1 %v, from scratch %v", trial, got, want)
		}
		// R2: x joins.
		if want := groupSSE(z, append(slices.Clone(base), int(x))) - groupSSE(z, base); m < 2*k-1 {
			if got := s.r2(0, a); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("trial %d: R2 %v, from scratch %v", trial, got, want)
			}
		} else if !math.IsInf(s.r2(0, a), 1) {
			t.Fatalf("trial %d: R2 on a full group is finite", trial)
		}
		// R3: y leaves.
		if want := groupSSE(z, slices.Delete(slices.Clone(base), int(y), int(y)+1)) - groupSSE(z, base); m > k {
			if got := s.r3(0, y); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("trial %d: R3 %v, from scratch %v", trial, got, want)
			}
		} else if !math.IsInf(s.r3(0, y), 1) {
			t.Fatalf("trial %d: R3 on a group of k is finite", trial)
		}
	}
}

// noImprovingMove reports the first exchange or migration (keeping sizes
// in k..2k-1) that lowers the SSE of c by more than tol, computed from
// scratch.
func noImprovingMove(z *model.Dataset, k int, c *model.Clustering, tol float64) (string, bool) {
	groups := c.Groups()
	sse := make([]float64, len(groups))
	for p, g := range groups {
		sse[p] = groupSSE(z, g)
	}
	for p, gp := range groups {
		for q, gq := range groups {
			if p == q {
				continue
			}
			for i, x := range gp {
				rest := slices.Delete(slices.Clone(gp), i, i+1)
				if len(gp) > k && len(gq) < 2*k-1 {
					if d := groupSSE(z, rest) + groupSSE(z, append(slices.Clone(gq), x)) - sse[p] - sse[q]; d < -tol {
						return "migration", false
					}
				}
				if q < p {
					continue
				}
				for j, y := range gq {
					np := append(slices.Clone(rest), y)
					nq := slices.Clone(gq)
					nq[j] = x
					if d := groupSSE(z, np) + groupSSE(z, nq) - sse[p] - sse[q]; d < -tol {
						return "exchange", false
					}
				}
			}
		}
	}
	return "", true
}

// TestICSMProperties runs ICSM in Check mode (every applied step is
// verified against a from-scratch SSE, must lower it and keep sizes in
// k..2k-1) on seeded data, and checks the result: a valid clustering, SSE
// recomputed, not above the initial one, and a local optimum for every
// single exchange and migration.
func TestICSMProperties(t *testing.T) {
	cycles := 0
	for trial := range 24 {
		n := 40 + 13*trial
		k := 2 + trial%4
		var z *model.Dataset
		if trial%2 == 0 {
			z = gaussianClusters(n, 2+trial%5, 3+trial%4, uint64(trial))
		} else {
			z = uniformData(n, 2+trial%5, uint64(trial))
		}
		for _, hood := range []int{-1, 0} {
			init := []string{InitMDAV, InitVMDAV, InitProjection}[trial%3]
			res, err := ICSM(z, k, ICSMOptions{Check: true, Neighbourhood: hood, Init: init, Sources: 1 + trial%3})
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			checkSizes(t, "icsm", res.Clustering, n, k, k, 2*k-1, 0)
			if got := model.SSE(z, res.Clustering); relDiff(got, res.SSE) > sameTol {
				t.Fatalf("trial %d: SSE %v, recomputed %v", trial, res.SSE, got)
			}
			if res.SSE > res.Stats.InitialSSE*(1+1e-12) {
				t.Fatalf("trial %d: SSE %v above the initial %v", trial, res.SSE, res.Stats.InitialSSE)
			}
			if what, ok := noImprovingMove(z, k, res.Clustering, 1e-9); !ok {
				t.Fatalf("trial %d (hood %d): an improving %s remains", trial, hood, what)
			}
			cycles += res.Stats.Cycles + res.Stats.SweepCycles
		}
	}
	if cycles == 0 {
		t.Fatal("no negative cycle was applied in any trial: the n-opt step went unchecked")
	}
}

// TestICSMBruteForce: on tiny data the result is never below the optimum
// over all partitions.
func TestICSMBruteForce(t *testing.T) {
	for trial := range 30 {
		n := 6 + trial%4
		k := 2 + trial%2
		z := uniformData(n, 2, uint64(100+trial))
		res, err := ICSM(z, k, ICSMOptions{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		opt := bruteForceSSE(z, k)
		if res.SSE < opt*(1-1e-12)-1e-12 {
			t.Fatalf("trial %d: ICSM SSE %v below the optimum %v", trial, res.SSE, opt)
		}
	}
}

// TestICSMDeterminism: the result depends neither on the number of
// workers nor on the cache of pair moves (which must give exactly the
// moves of a full evaluation).
func TestICSMDeterminism(t *testing.T) {
	z := gaussianClusters(400, 4, 6, 11)
	for _, k := range []int{3, 5} {
		var ref []int
		for _, workers := range []int{1, 2, 3} {
			for _, noCache := range []bool{false, true} {
				r := &icsmRunner{z: z, k: k, start: time.Now(), sst: model.SST(z), workers: workers, noCache: noCache}
				r.opt = ICSMOptions{PoolSize: DefaultPoolSize, Sources: 1, Neighbourhood: DefaultNeighbourhood}
				c0, _ := MDAV(z, k)
				c, _, err := r.run(0, c0)
				if err != nil {
					t.Fatal(err)
				}
				if ref == nil {
					ref = c.Group
				} else if !slices.Equal(ref, c.Group) {
					t.Fatalf("k=%d workers=%d noCache=%v: a different clustering", k, workers, noCache)
				}
			}
		}
	}
}

// TestICSMTour2Assignment: the tour is a permutation that keeps groups
// consecutive, and Tour2Assignment equals the best PartitionSequence over
// the 2k-1 rotations of the tour.
func TestICSMTour2Assignment(t *testing.T) {
	for trial := range 12 {
		k := 2 + trial%4
		z := gaussianClusters(60+7*trial, 3, 4, uint64(trial))
		c, _ := MDAV(z, k)
		s := newICSMState(z, k, c, 2)
		path := s.tour()
		seen := make([]bool, z.N)
		for pos, i := range path {
			if seen[i] {
				t.Fatalf("trial %d: record %d twice in the tour", trial, i)
			}
			seen[i] = true
			if pos > 0 && s.slot[path[pos-1]] != s.slot[i] {
				for _, j := range path[:pos] {
					if s.slot[j] == s.slot[i] {
						t.Fatalf("trial %d: group %d is not consecutive in the tour", trial, s.slot[i])
					}
				}
			}
		}
		groups, cost := s.tour2Assignment(path)
		best := math.Inf(1)
		for r := range 2*k - 1 {
			order := make([]int, z.N)
			for j := range order {
				order[j] = int(path[(j+r)%z.N])
			}
			_, sse, err := PartitionSequence(z, order, k)
			if err != nil {
				t.Fatal(err)
			}
			best = math.Min(best, sse)
		}
		if relDiff(cost, best) > sameTol {
			t.Fatalf("trial %d: Tour2Assignment %v, best rotation %v", trial, cost, best)
		}
		if cost > s.sse*(1+1e-12) {
			t.Fatalf("trial %d: Tour2Assignment %v above the clustering it came from %v", trial, cost, s.sse)
		}
		var all []int
		for _, g := range groups {
			if len(g) < k || len(g) > 2*k-1 {
				t.Fatalf("trial %d: group of %d records", trial, len(g))
			}
			for _, i := range g {
				all = append(all, int(i))
			}
		}
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("trial %d: groups do not partition the records", trial)
			}
		}
	}
}

// TestICSMLimits: a time limit and an iteration cap return valid
// clusterings; restarts are reproducible by seed and never worse than a
// single run.
func TestICSMLimits(t *testing.T) {
	z := gaussianClusters(300, 3, 5, 5)
	res, err := ICSM(z, 3, ICSMOptions{TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	checkSizes(t, "time limit", res.Clustering, z.N, 3, 3, 5, 0)
	if !res.Stats.StoppedByTime {
		t.Error("a 1 ns time limit did not stop the search")
	}
	res, err = ICSM(z, 3, ICSMOptions{MaxIterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Iterations != 1 || !res.Stats.StoppedByIter {
		t.Errorf("MaxIterations 1: %d iterations, stopped by the cap %v", res.Stats.Iterations, res.Stats.StoppedByIter)
	}
	single, _ := ICSM(z, 3, ICSMOptions{})
	a, _ := ICSM(z, 3, ICSMOptions{Restarts: 3, Seed: 9})
	b, _ := ICSM(z, 3, ICSMOptions{Restarts: 3, Seed: 9})
	if !slices.Equal(a.Clustering.Group, b.Clustering.Group) {
		t.Error("the same seed gave different clusterings")
	}
	if a.SSE > single.SSE*(1+1e-12) || a.Stats.Runs != 4 {
		t.Errorf("restarts: SSE %v (single %v), %d runs", a.SSE, single.SSE, a.Stats.Runs)
	}
}

func TestICSMBadInput(t *testing.T) {
	z := uniformData(20, 2, 1)
	if _, err := ICSM(z, 3, ICSMOptions{Init: "nope"}); !errors.Is(err, ErrInit) {
		t.Errorf("unknown init: %v", err)
	}
	if _, err := ICSM(z, 3, ICSMOptions{Initial: &model.Clustering{Group: []int{0, 0, 0}, NumGroups: 1}}); !errors.Is(err, ErrInit) {
		t.Errorf("initial of the wrong size: %v", err)
	}
	if _, err := ICSM(z, 21, ICSMOptions{}); !errors.Is(err, ErrK) {
		t.Errorf("k > n: %v", err)
	}
	if _, err := ICSM(z, 3, ICSMOptions{Restarts: -1}); err == nil {
		t.Error("negative restarts accepted")
	}
	// A user clustering with a group larger than 2k-1 is split.
	res, err := ICSM(z, 3, ICSMOptions{Initial: &model.Clustering{Group: make([]int, 20), NumGroups: 1}, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	checkSizes(t, "split", res.Clustering, 20, 3, 3, 5, 0)
}
