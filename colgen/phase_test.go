package colgen

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// tinyRun is a run of n ≤ 12 records whose optimum brute force knows.
func tinyRun(t *testing.T, seed uint64, opt *Options) (*run, float64) {
	t.Helper()
	z := randomData(t, 12, 2, seed)
	if err := validate(z, 3, opt); err != nil {
		t.Fatal(err)
	}
	r := newRun(z, 3, opt, newTimePlan(time.Now(), opt, time.Now))
	return r, bruteForce(r.d, 3)
}

// TestPhaseStart: the start bound is positive and no more than the
// optimum; the initial columns are distinct groups of k..2k-1 records and
// the incumbent is no worse than MDAV and V-MDAV.
func TestPhaseStart(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		r, opt := tinyRun(t, seed, &Options{})
		if err := r.startBound(); err != nil {
			t.Fatal(err)
		}
		if r.res.LowerBound <= 0 || r.res.LowerBound > opt+relTol(opt, r.res.LowerBound) || r.res.BoundKind != BoundNearest {
			t.Fatalf("seed %d: start bound %.12g (%s), optimum %.12g", seed, r.res.LowerBound, r.res.BoundKind, opt)
		}
		cols, err := r.initialColumns()
		if err != nil {
			t.Fatal(err)
		}
		if len(cols) == 0 || len(cols) != len(r.cs.cols) {
			t.Fatalf("seed %d: %d initial columns, pool %d", seed, len(cols), len(r.cs.cols))
		}
		for _, c := range cols {
			if len(c) < r.k || len(c) > 2*r.k-1 {
				t.Fatalf("seed %d: initial column of %d records", seed, len(c))
			}
		}
		if r.best.sse > min(r.res.MDAV, r.res.VMDAV) || math.IsInf(r.res.ICSM, 0) || r.best.sse < opt-relTol(opt, r.best.sse) {
			t.Fatalf("seed %d: incumbent %.12g, MDAV %.12g, V-MDAV %.12g, ICSM %.12g, optimum %.12g", seed, r.best.sse, r.res.MDAV, r.res.VMDAV, r.res.ICSM, opt)
		}
	}
}

// TestPhaseRound: an integral master solution is taken as it is (source
// master); a fractional one is rounded by SRH and MSTH into two valid
// clusterings.
func TestPhaseRound(t *testing.T) {
	r, _ := tinyRun(t, 3, &Options{NoICSM: true})
	openRunMaster(t, r)
	defer r.sess.Close()
	// The first columns are the incumbent's groups: x = 1 on them.
	x := make([]float64, len(r.cs.cols))
	covered := 0
	for j, c := range r.cs.cols {
		if covered+len(c) > r.n {
			break
		}
		x[j] = 1
		covered += len(c)
		if covered == r.n {
			break
		}
	}
	if covered != r.n {
		t.Skip("the incumbent's groups are not the first columns")
	}
	if got := r.round(x, make([]float64, len(x))); got != nil || !r.res.Integral {
		t.Fatalf("integral x: rounded %v, integral %v", got, r.res.Integral)
	}
	for j := range x {
		x[j] = 0.5
	}
	got := r.round(x, make([]float64, len(x)))
	if len(got) != 2 || r.res.Integral || math.IsInf(r.res.SRH, 0) || math.IsInf(r.res.MSTH, 0) {
		t.Fatalf("fractional x: %d roundings, integral %v, SRH %g, MSTH %g", len(got), r.res.Integral, r.res.SRH, r.res.MSTH)
	}
	for i, g := range got {
		cl, err := model.NewClustering(r.n, g)
		if err != nil {
			t.Fatalf("rounding %d: %v", i, err)
		}
		if _, err := cl.CheckK(r.n, r.k); err != nil {
			t.Fatalf("rounding %d: %v", i, err)
		}
	}
}

// TestPhasesInOrder steps through the phases as Run does and checks each:
// the master loop converges with a bound between the start bound and the
// optimum, gap closing (or branch-and-price without it) proves the
// optimum, the polish is then not needed and says so, and the result is
// Run's.
func TestPhasesInOrder(t *testing.T) {
	closed, branched := 0, 0
	// The default (subset-row cuts, which on these tiny instances often
	// prove the optimum by themselves), the gap-closing stage without
	// cuts, and branch-and-price without both (with cuts it is tested by
	// TestBranchAndPrice).
	for _, o := range []Options{{}, {NoSubsetRowCuts: true}, {NoClose: true, NoSubsetRowCuts: true}} {
		for seed := uint64(1); seed <= 4; seed++ {
			opt := o
			r, best := tinyRun(t, seed, &opt)
			if err := r.startBound(); err != nil {
				t.Fatal(err)
			}
			startBound := r.res.LowerBound
			cols, err := r.initialColumns()
			if err != nil {
				t.Fatal(err)
			}
			if err := r.openMaster(cols); err != nil {
				t.Fatal(err)
			}
			if err := r.masterLoop(); err != nil {
				t.Fatal(err)
			}
			if !r.res.Converged || r.res.LowerBound < startBound || r.res.LowerBound > best+relTol(best, r.res.LowerBound) {
				t.Fatalf("seed %d: master loop: converged %v, bound %.12g (start %.12g, optimum %.12g)", seed, r.res.Converged, r.res.LowerBound, startBound, best)
			}
			loopBound := r.res.LowerBound
			if err := r.subsetRowPhase(); err != nil {
				t.Fatal(err)
			}
			if r.res.LowerBound < loopBound || r.res.LowerBound > best+relTol(best, r.res.LowerBound) {
				t.Fatalf("seed %d: cut rounds: bound %.12g (master loop %.12g, optimum %.12g)", seed, r.res.LowerBound, loopBound, best)
			}
			if err := r.closeGapPhase(); err != nil {
				t.Fatal(err)
			}
			if o.NoClose != (r.res.CloseStatus == "") && !r.proven() {
				t.Fatalf("seed %d: NoClose %v, close status %q", seed, o.NoClose, r.res.CloseStatus)
			}
			if err := r.branchAndPrice(); err != nil {
				t.Fatal(err)
			}
			if !r.proven() || math.Abs(r.best.sse-best) > relTol(best, r.best.sse) {
				t.Fatalf("seed %d, NoClose %v: not proven (SSE %.12g, bound %.12g, optimum %.12g)", seed, o.NoClose, r.best.sse, r.res.LowerBound, best)
			}
			if err := r.polish(); err != nil {
				t.Fatal(err)
			}
			if r.bestMaster.groups != nil && !strings.HasPrefix(r.res.PolishNote, "not needed") {
				t.Fatalf("seed %d: polish note %q", seed, r.res.PolishNote)
			}
			if r.res.CloseStatus != "" {
				closed++
			}
			if r.res.Nodes > 0 {
				branched++
			}
			got, err := r.finish()
			r.sess.Close()
			if err != nil {
				t.Fatal(err)
			}
			opt2 := o
			want, err := Run(r.z, r.k, &opt2)
			if err != nil {
				t.Fatal(err)
			}
			if got.SSE != want.SSE || got.LowerBound != want.LowerBound || got.Iterations != want.Iterations || got.Source != want.Source || got.Nodes != want.Nodes {
				t.Fatalf("seed %d: stepped phases give SSE %.12g bound %.12g (%d iterations, %s), Run %.12g %.12g (%d, %s)", seed,
					got.SSE, got.LowerBound, got.Iterations, got.Source, want.SSE, want.LowerBound, want.Iterations, want.Source)
			}
		}
	}
	t.Logf("%d runs closed the gap by the integer program, %d by branch-and-price", closed, branched)
	if closed == 0 || branched == 0 {
		t.Fatal("the instances do not exercise both gap closing and branch-and-price")
	}
}
