package colgen

import (
	"math"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// convergedRun runs the start, the master loop and, with cuts, the
// subset-row rounds of a run without ICSM, gap closing or branching, and
// reports whether the master converged.
func convergedRun(t *testing.T, r *run) bool {
	t.Helper()
	runMasterLoop(t, r)
	if err := r.subsetRowPhase(); err != nil {
		t.Fatal(err)
	}
	return r.res.Converged
}

// runMasterLoop runs the start bound, the initial columns, the master and
// its loop of r.
func runMasterLoop(t *testing.T, r *run) {
	t.Helper()
	openRunMaster(t, r)
	if err := r.masterLoop(); err != nil {
		t.Fatal(err)
	}
}

// openRunMaster runs the start bound and the initial columns of r and
// opens its master.
func openRunMaster(t *testing.T, r *run) {
	t.Helper()
	if err := r.startBound(); err != nil {
		t.Fatal(err)
	}
	ic, err := r.initialColumns()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.openMaster(ic); err != nil {
		t.Fatal(err)
	}
}

// groupsWithin counts the groups of k..2k-1 records whose reduced cost
// (with the cut terms of the run's last converged round with cuts,
// evaluated by srcPool.reducedCost) is below thr.
func groupsWithin(t *testing.T, r *run, thr float64) int {
	t.Helper()
	var accept func([]int) bool
	if r.cutSigma != nil {
		accept = func(g []int) bool { return r.src.reducedCost(r.d, r.res.Duals, r.cutSigma, g) < thr }
	}
	count := 0
	for eta := r.k; eta <= 2*r.k-1 && eta <= r.n; eta++ {
		res, err := r.prep.Solve(r.res.Duals, eta, &enumerate.Options{All: true, Threshold: thr, MaxColumns: 100_000, Accept: accept})
		if err != nil {
			t.Fatal(err)
		}
		count += len(res.Columns)
	}
	return count
}

// TestCloseGapRounds: when more groups lie within the gap than the cap
// allows, the gap-closing stage lists those below a smaller threshold,
// and its rounds (the cap growing) still prove the brute-force optimum;
// with caps far too small it keeps a bound no higher than the optimum.
// The incumbent is MDAV's or V-MDAV's (no ICSM), so the gap is wide, and
// the restricted master IP gets only the incumbent's groups. Before the
// rounds, an overflowing list ended the stage without a proof, and the
// test fails on the count of proofs after an overflow. With and without
// subset-row cuts (their filter and rows).
func TestCloseGapRounds(t *testing.T) {
	for _, cuts := range []bool{false, true} {
		proofs := 0
		for seed := uint64(1); seed <= 40; seed++ {
			z, d, k, ok := srcInstance(t, seed)
			if !ok {
				continue
			}
			if !cuts {
				var prepOK bool
				z, d, _, _, k, prepOK = seededInstance(t, seed, 9, 6, 300)
				if !prepOK {
					continue
				}
			}
			optimum := bruteForce(d, k)
			o := &Options{NoICSM: true, NoClose: true, NoBranch: true, NoSubsetRowCuts: !cuts}
			r := newRun(z, k, o, newTimePlan(time.Now(), o, time.Now))
			converged := convergedRun(t, r)
			r.sess.Close()
			if !converged || r.proven() {
				continue
			}
			ub := r.best.sse
			z0 := r.lastSumLambda
			margin := float64(r.n/k)*math.Abs(rcTolerance(r.res.Duals)) + 1e-9*math.Max(1, math.Abs(ub))
			within := groupsWithin(t, r, ub-z0+margin)
			if within < 4 {
				continue
			}
			tol := 1e-7 * math.Max(1, optimum)
			incumbent := keepSizes(r.best.groups, k)
			for _, capCols := range []int{1, 2, within / 3, within - 1} {
				if capCols < 1 {
					continue
				}
				co, err := closeGap(r.d, r.prep, k, r.res.Duals, z0, ub, incumbent, capCols, 1, "cbc", time.Time{}, r.cutPenalty(), r.src)
				if err != nil {
					t.Fatal(err)
				}
				if !math.IsNaN(co.bound) && co.bound > optimum+tol {
					t.Fatalf("cuts %v seed %d cap %d: bound %.12g above the optimum %.12g (%s)", cuts, seed, capCols, co.bound, optimum, co.status)
				}
				if co.groups != nil && co.sse < optimum-tol {
					t.Fatalf("cuts %v seed %d cap %d: SSE %.12g below the optimum %.12g", cuts, seed, capCols, co.sse, optimum)
				}
				if co.optimal && math.Abs(co.sse-optimum) > tol {
					t.Fatalf("cuts %v seed %d cap %d: optimal %.12g, brute force %.12g", cuts, seed, capCols, co.sse, optimum)
				}
				if capCols >= within/3 {
					// The cap grows past the groups within the gap by the
					// second round at the latest.
					if !co.optimal {
						t.Fatalf("cuts %v seed %d cap %d of %d groups: not proven (%s)", cuts, seed, capCols, within, co.status)
					}
					if co.overflow {
						proofs++
					}
				}
			}
		}
		t.Logf("cuts %v: %d proofs after an overflowing list", cuts, proofs)
		if proofs < 3 {
			t.Errorf("cuts %v: %d proofs after an overflowing list: the instances do not test the rounds", cuts, proofs)
		}
	}
}

// TestListWithin: the list holds exactly the groups below its threshold t,
// at most the cap; when the groups within the gap overflow the cap, the
// bisection moves t above the last shrunk threshold that fits (thr times
// a power of closeShrink) on some instances.
func TestListWithin(t *testing.T) {
	moved := 0
	for seed := uint64(1); seed <= 20; seed++ {
		z, _, _, _, k, ok := seededInstance(t, seed, 9, 6, 300)
		if !ok {
			continue
		}
		o := &Options{NoICSM: true, NoClose: true, NoBranch: true, NoSubsetRowCuts: true}
		r := newRun(z, k, o, newTimePlan(time.Now(), o, time.Now))
		converged := convergedRun(t, r)
		r.sess.Close()
		if !converged || r.proven() {
			continue
		}
		thr := r.best.sse - r.lastSumLambda
		within := groupsWithin(t, r, thr)
		for _, capCols := range []int{within / 4, within / 2, within} {
			if capCols < 2 {
				continue
			}
			groups, tt, status, err := listWithin(r.prep, k, r.n, r.res.Duals, thr, 1e-9, capCols, 1, time.Time{}, nil)
			if err != nil || status != "" {
				t.Fatalf("seed %d cap %d: %v %q", seed, capCols, err, status)
			}
			if groups == nil {
				// More than the cap even below the floor (reduced costs at 0).
				continue
			}
			if len(groups) > capCols || len(groups) != groupsWithin(t, r, tt) {
				t.Fatalf("seed %d cap %d: %d groups below %.6g, %d there", seed, capCols, len(groups), tt, groupsWithin(t, r, tt))
			}
			if capCols >= within && tt != thr {
				t.Fatalf("seed %d: every group fits, threshold %.6g, want %.6g", seed, tt, thr)
			}
			if tt < thr {
				shrunk := thr
				for shrunk > tt {
					shrunk *= closeShrink
				}
				if shrunk < tt {
					moved++
				}
			}
		}
	}
	if moved == 0 {
		t.Error("the bisection never moved the threshold above a shrunk one")
	}
	t.Logf("%d lists above a shrunk threshold", moved)
}

// paramsRecorder is a solver that records the parameters of its solves
// and returns a time limit without a solution.
type paramsRecorder struct {
	solvers.Solver
	prm []solvers.Params
}

func (p *paramsRecorder) Solve(_ *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	p.prm = append(p.prm, *prm)
	return &solvers.Result{Status: solvers.TimeLimit, Abandoned: true, Objective: math.NaN(), BestBound: math.NaN()}, nil
}

// TestPartitioningHardStop: the gap-closing programs ask for a hard stop
// at their deadline (CBC's own limit came 5 minutes late on a program of
// a few hundred thousand groups), and an abandoned solve gives no
// partition and no bound.
func TestPartitioningHardStop(t *testing.T) {
	z := randomData(t, 12, 2, 1)
	d := model.NewSqDist(z)
	groups := [][]int{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}}
	rec := &paramsRecorder{}
	r, err := solvePartitioningCuts(rec, d, groups, time.Now().Add(time.Minute), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.prm) != 1 || !rec.prm[0].HardStop || rec.prm[0].TimeLimit <= 0 {
		t.Fatalf("params %+v, want one solve with HardStop and a time limit", rec.prm)
	}
	if r.groups != nil || !math.IsNaN(r.bound) {
		t.Fatalf("abandoned solve gave groups %v, bound %g", r.groups, r.bound)
	}
}
