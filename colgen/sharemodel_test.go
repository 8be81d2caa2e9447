package colgen

import (
	"math"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// TestShareModelReachesLPBound: the share model's steps alone, from the
// nearest-neighbour duals, reach the LP bound of the full master (whose
// maximum over the duals the per-record bound equals) on small instances,
// and never pass it; the plain run's converged master gives the LP bound.
func TestShareModelReachesLPBound(t *testing.T) {
	eng, err := solvers.New("auto", false)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		n, k := 12+int(seed%5), 2+int(seed%3)
		z := randomData(t, n, 2, 900+seed)
		plain, err := Run(z, k, &Options{NoClose: true, NoBranch: true, NoICSM: true, NoSubsetRowCuts: true})
		if err != nil {
			t.Fatal(err)
		}
		if !plain.Converged {
			t.Fatalf("seed %d: the plain run did not converge (%s)", seed, plain.Stopped)
		}
		lp := plain.LPBound
		o := &Options{}
		r := newRun(z, k, o, newTimePlan(time.Now(), o, time.Now))
		if err := r.startBound(); err != nil {
			t.Fatal(err)
		}
		r.best.sse = plain.SSE
		r.startShareAscent()
		a := r.asc
		deadline := time.Now().Add(time.Minute)
		if v, exact := a.ex.eval(a.best, deadline, a.g); exact && v > a.bestVal {
			a.newBest(v)
		}
		m, err := newShareModel(r.d, eng, plain.SSE/float64(n))
		if err != nil {
			t.Fatal(err)
		}
		m.collect(a.ex)
		tol := 1e-6 * math.Max(1, lp)
		for i := 0; i < 400 && a.bestVal < lp-tol; i++ {
			v, done, err := m.step(a, deadline, plain.SSE)
			if err != nil || !done {
				t.Fatalf("seed %d step %d: done %v err %v", seed, i, done, err)
			}
			if v > lp+tol {
				t.Fatalf("seed %d step %d: bound %.12g above the LP bound %.12g", seed, i, v, lp)
			}
		}
		m.close()
		if a.bestVal < lp-tol {
			t.Fatalf("seed %d (n=%d k=%d): the model reached %.12g, LP bound %.12g (steps %d, serious %d, δ %.3g)", seed, n, k, a.bestVal, lp, m.Steps, m.Serious, m.delta)
		}
		t.Logf("seed %d (n=%d k=%d): LP bound %.8g in %d steps (%d serious, %d cuts)", seed, n, k, lp, m.Steps, m.Serious, m.Cuts)
	}
}

// TestShareModelTakesTheTail: in a run whose master is open, a stall of
// the ascent gives its next steps to the share model (shareModelGrant);
// its bounds stay at most the brute-force optimum and are certified (the
// certificate re-checks without an engine); with Options.NoShareModel the
// ascent keeps its own steps.
func TestShareModelTakesTheTail(t *testing.T) {
	used := 0
	for seed := uint64(1); seed <= 12; seed++ {
		z, d, _, n, k, ok := seededInstance(t, seed, 12, 6, 300)
		if !ok {
			continue
		}
		opt := bruteForce(d, k)
		for _, off := range []bool{false, true} {
			o := &Options{NoICSM: true, NoShareModel: off}
			r := newRun(z, k, o, newTimePlan(time.Now(), o, time.Now))
			openRunMaster(t, r)
			r.best.sse = opt
			r.startShareAscent()
			for i := 0; i < 60 && (!r.asc.ex.scaled || r.asc.ex.gBest != nil); i++ {
				r.ascend(1)
			}
			// A stall of the ascent gives the model its steps.
			for i := 0; i < 40 && r.res.Stats.ModelSteps == 0; i++ {
				r.ascend(1)
			}
			r.ascend(20)
			r.smodel.close()
			r.sess.Close()
			steps := r.res.Stats.ModelSteps
			if off && steps != 0 {
				t.Fatalf("seed %d: %d model steps with NoShareModel", seed, steps)
			}
			if b := r.res.LowerBound; b > opt+relTol(b, opt) {
				t.Fatalf("seed %d (n=%d k=%d, model off %v): bound %.12g above the optimum %.12g", seed, n, k, off, b, opt)
			}
			if off || steps == 0 {
				continue
			}
			used++
			if r.res.BoundKind == BoundShares {
				if _, err := CheckCertificate(z, r.res.Certificate); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		}
	}
	if used == 0 {
		t.Fatal("the model never took a step")
	}
}
