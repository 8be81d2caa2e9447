package colgen

import (
	"math"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// TestBoxBruteForce: with the box-stabilized master the bound never
// exceeds the brute-force optimum (50 seeded instances, n ≤ 14, k = 2..4;
// runs to convergence, cut after 1-3 master solves, with and without
// ICSM), and a converged run reports the master LP bound.
func TestBoxBruteForce(t *testing.T) {
	converged, boxed := 0, 0
	for seed := uint64(1); seed <= 50; seed++ {
		n := 6 + int(seed%9)
		k := 2 + int(seed%3)
		if n < 2*k {
			k = 2
		}
		z := randomData(t, n, 2+int(seed%3), 300+seed)
		d := model.NewSqDist(z)
		opt := bruteForce(d, k)
		o := Options{Stabilize: StabilizeBox, NoClose: true, NoBranch: true, NoICSM: seed%2 == 0}
		if seed%4 == 0 {
			o.MaxIterations = 1 + int(seed%3)
		}
		r, err := Run(z, k, &o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkResult(t, z, k, r)
		if r.LowerBound > opt+relTol(opt, r.LowerBound) {
			t.Fatalf("seed %d (n=%d k=%d): %s bound %.12g above the optimum %.12g", seed, n, k, r.BoundKind, r.LowerBound, opt)
		}
		if r.Certificate != nil {
			if _, err := CheckCertificate(z, r.Certificate); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		if r.Stats.BoxEvaluations > 0 {
			boxed++
		}
		if r.Converged {
			converged++
			if r.BoundKind != BoundMasterLP && r.LowerBound < r.SSE-relTol(r.SSE, r.LowerBound) {
				t.Fatalf("seed %d: converged with bound kind %s (LB %.12g LP %.12g SSE %.12g master %.12g, box steps %d, solves %d)", seed, r.BoundKind, r.LowerBound, r.LPBound, r.SSE, r.Master, r.Stats.AscentSteps, r.Stats.MasterSolves)
			}
		}
	}
	if boxed == 0 || converged == 0 {
		t.Fatalf("box iterations in %d runs, %d converged: the test exercises nothing", boxed, converged)
	}
	t.Logf("%d of 50 runs used the box, %d converged", boxed, converged)
}

// TestBoxMatchesPlainLP: on small instances where the column generation
// converges, the box-stabilized run's LP bound equals the plain run's
// (both are the LP optimum of the full master); and the box session with
// a box too wide to bind has the plain master's value over the same
// columns.
func TestBoxMatchesPlainLP(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		n, k := 12+int(seed%3), 2+int(seed%2)
		z := randomData(t, n, 2, 500+seed)
		plain, err := Run(z, k, &Options{NoClose: true, NoBranch: true, NoICSM: true})
		if err != nil {
			t.Fatal(err)
		}
		boxed, err := Run(z, k, &Options{NoClose: true, NoBranch: true, NoICSM: true, Stabilize: StabilizeBox})
		if err != nil {
			t.Fatal(err)
		}
		if !plain.Converged || !boxed.Converged {
			t.Fatalf("seed %d: converged plain %v, box %v (%s)", seed, plain.Converged, boxed.Converged, boxed.Stopped)
		}
		if math.Abs(plain.LPBound-boxed.LPBound) > 1e-6*math.Max(1, plain.LPBound) {
			t.Fatalf("seed %d (n=%d k=%d): LP bound plain %.12g, box %.12g", seed, n, k, plain.LPBound, boxed.LPBound)
		}
	}
}

// TestBoxSessionWithoutBox: the box master with a box too wide to bind
// (δ far above every dual) has the plain master's LP value over the same
// columns, on small instances whose start columns cover every record.
func TestBoxSessionWithoutBox(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		n, k := 10+int(seed%4), 2+int(seed%2)
		z := randomData(t, n, 3, 700+seed)
		o := &Options{Stabilize: StabilizeBox, NoICSM: true}
		r := newRun(z, k, o, newTimePlan(time.Now(), o, time.Now))
		openRunMaster(t, r)
		if r.box == nil {
			t.Fatalf("seed %d: no box master", seed)
		}
		plain, err := r.sess.Solve()
		if err != nil {
			t.Fatal(err)
		}
		r.box.delta = 1e6
		if err := r.box.setCosts(); err != nil {
			t.Fatal(err)
		}
		boxed, err := r.box.sess.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(plain.Objective-boxed.Objective) > 1e-7*math.Max(1, plain.Objective) {
			t.Fatalf("seed %d: plain master %.12g, box master without a binding box %.12g", seed, plain.Objective, boxed.Objective)
		}
		// A binding box (δ = 0 at the nearest-neighbour duals, which price
		// no group negatively) gives a smaller value: the box is there.
		r.box.delta = 0
		if err := r.box.setCosts(); err != nil {
			t.Fatal(err)
		}
		tight, err := r.box.sess.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if tight.Objective > plain.Objective+1e-7*math.Max(1, plain.Objective) {
			t.Fatalf("seed %d: box master at δ = 0 %.12g above the plain master %.12g", seed, tight.Objective, plain.Objective)
		}
		if math.Abs(tight.Objective-floatSum(r.box.center)) > 1e-7*math.Max(1, plain.Objective) {
			t.Fatalf("seed %d: box master at δ = 0 %.12g, centre's sum %.12g", seed, tight.Objective, floatSum(r.box.center))
		}
		r.box.close()
		r.sess.Close()
	}
}
