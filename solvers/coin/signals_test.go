//go:build cgo && coin

package coin

import (
	"math/rand/v2"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/internal/sigtest"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

func TestMain(m *testing.M) {
	if sigtest.IsChild() {
		sigtest.RunChild(stressCBC, stressCLP)
	}
	os.Exit(m.Run())
}

// engineSigs are the signals whose actions the engine bracket guards.
var engineSigs = []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}

func snapshot(t *testing.T) []sigtest.Action {
	t.Helper()
	if !sigtest.Supported {
		t.Skip("signal actions are read on linux/amd64 and linux/arm64 only")
	}
	a, err := sigtest.Snapshot(engineSigs...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEngineCallsKeepSignalActions: every kind of engine call leaves the
// SIGINT and SIGTERM actions exactly as the Go runtime installed them.
// Before the fix, CLP's initial solve (directly, and inside CBC's driver)
// re-installed the Go handler with signal(3), which dropped SA_ONSTACK and
// SA_SIGINFO.
func TestEngineCallsKeepSignalActions(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	lp := solvertest.Transportation(rng, 20, 20)
	mip := solvertest.SetPartitioning(rng, 30, 200, 5, true)
	hard := solvertest.MarketSplit(rng, 5)
	cases := []struct {
		name string
		run  func() error
	}{
		{"clp solve", func() error { _, err := (&clpSolver{}).Solve(lp, nil); return err }},
		{"clp solve without presolve", func() error {
			_, err := (&clpSolver{}).Solve(lp, &solvers.Params{Raw: map[string]string{"presolve": "off"}})
			return err
		}},
		{"clp session warm re-solves", func() error {
			s, err := (&clpSolver{}).NewSession(lp, nil)
			if err != nil {
				return err
			}
			defer s.Close()
			for _, step := range []func() error{
				func() error { return nil },
				func() error { return s.SetObjective([]int{0}, []float64{1000}) }, // primal re-solve
				func() error { return s.SetRowBounds(0, 0, 5) },                   // dual re-solve
			} {
				if err := step(); err != nil {
					return err
				}
				if _, err := s.Solve(); err != nil {
					return err
				}
			}
			return nil
		}},
		{"cbc lp", func() error { _, err := (&cbcSolver{}).Solve(lp, nil); return err }},
		{"cbc mip", func() error { _, err := (&cbcSolver{}).Solve(mip, nil); return err }},
		{"cbc mip stopped by a time limit", func() error {
			_, err := (&cbcSolver{}).Solve(hard, &solvers.Params{TimeLimit: 100 * time.Millisecond})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(t)
			for i, a := range before {
				if a.Flags&(sigtest.FlagOnStack|sigtest.FlagSigInfo) != sigtest.FlagOnStack|sigtest.FlagSigInfo {
					t.Fatalf("%v before the call: %v lacks SA_ONSTACK|SA_SIGINFO (not the Go runtime's handler?)", engineSigs[i], a)
				}
			}
			restored := restoredActions.Load()
			if err := c.run(); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t)
			for i := range before {
				if !after[i].Equal(before[i]) {
					t.Errorf("%v: action before %v, after %v", engineSigs[i], before[i], after[i])
				}
			}
			// The actions were never changed, not changed and put back.
			if n := restoredActions.Load() - restored; n != 0 {
				t.Errorf("%d engine calls changed a signal action that the bracket had to restore", n)
			}
		})
	}
}

// TestEngineSignalCallsAbsorbed: CBC's driver runs CLP's initial solve,
// which calls signal(SIGINT, ...) twice; the interposed signal(3) must see
// (and absorb) those calls, or the fix is not in effect on this platform.
func TestEngineSignalCallsAbsorbed(t *testing.T) {
	p := solvertest.SetPartitioning(rand.New(rand.NewPCG(33, 34)), 20, 80, 4, true)
	n0 := absorbedSignalCalls()
	if _, err := (&cbcSolver{}).Solve(p, nil); err != nil {
		t.Fatal(err)
	}
	if n := absorbedSignalCalls() - n0; n < 2 {
		t.Errorf("a CBC solve made %d absorbed signal(3) calls, want at least 2 (CLP's install and restore)", n)
	}
}

// TestSignalInterposition checks the interposed signal(3) directly: outside
// engine calls it changes the action as the C library's does; inside, it
// returns the handler the caller believes installed and leaves the real
// action alone.
func TestSignalInterposition(t *testing.T) {
	const sigDFL, sigIGN = 0, 1
	before := snapshot(t)
	term := before[1]
	defer func() {
		if err := sigtest.Set(syscall.SIGTERM, term); err != nil {
			t.Fatal(err)
		}
	}()

	// Outside an engine call: passed through.
	if prev := callSignal(syscall.SIGTERM, sigIGN); prev != term.Handler {
		t.Errorf("outside: signal returned %#x, want the installed handler %#x", prev, term.Handler)
	}
	if a, _ := sigtest.Get(syscall.SIGTERM); a.Handler != sigIGN {
		t.Errorf("outside: SIGTERM action %v after signal(SIG_IGN), want SIG_IGN", a)
	}
	if err := sigtest.Set(syscall.SIGTERM, term); err != nil {
		t.Fatal(err)
	}

	// Inside: recorded, not installed.
	enterEngine()
	steps := []struct {
		h, wantPrev uintptr
	}{
		{sigIGN, term.Handler}, // the first call sees the real handler
		{sigDFL, sigIGN},       // later calls see what the engine installed
		{term.Handler, sigDFL}, // and the engine's restore is absorbed too
	}
	for i, s := range steps {
		if prev := callSignal(syscall.SIGTERM, s.h); prev != s.wantPrev {
			t.Errorf("inside, call %d: signal returned %#x, want %#x", i, prev, s.wantPrev)
		}
		if a, _ := sigtest.Get(syscall.SIGTERM); !a.Equal(term) {
			t.Errorf("inside, call %d: SIGTERM action changed to %v", i, a)
		}
	}
	leaveEngine()
	if a, _ := sigtest.Get(syscall.SIGTERM); !a.Equal(term) {
		t.Errorf("after: SIGTERM action %v, want %v", a, term)
	}
}

// stressDelays are the delays after the child's "ready" at which
// TestInterruptStress sends SIGINT: 20 runs that land in every phase of
// the child's solves (CLP's initial solve, CBC's preprocessing, root LP
// and search, the gaps between calls).
var stressDelays = []time.Duration{
	0, 1 * time.Millisecond, 3 * time.Millisecond, 7 * time.Millisecond, 15 * time.Millisecond,
	25 * time.Millisecond, 40 * time.Millisecond, 60 * time.Millisecond, 90 * time.Millisecond, 130 * time.Millisecond,
	180 * time.Millisecond, 240 * time.Millisecond, 300 * time.Millisecond, 370 * time.Millisecond, 450 * time.Millisecond,
	540 * time.Millisecond, 640 * time.Millisecond, 750 * time.Millisecond, 870 * time.Millisecond, 1000 * time.Millisecond,
}

// TestInterruptStress re-runs this test binary as a child that solves a
// hard CBC MIP (with a time limit) and CLP LPs in a loop while its main
// thread runs Go code; the parent sends SIGINT. The child must receive it
// through os/signal and never die of the runtime's "non-Go code set up
// signal handler without SA_ONSTACK flag" (see sigtest.RunChild).
func TestInterruptStress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 child processes")
	}
	sigtest.Stress(t, stressDelays)
}

// stressCBC is one child solve: a set-partitioning MIP whose root LP takes
// a few milliseconds and whose search is stopped by a 300 ms time limit.
func stressCBC() {
	p := solvertest.SetPartitioning(rand.New(rand.NewPCG(35, 36)), 120, 1200, 6, true)
	if _, err := (&cbcSolver{}).Solve(p, &solvers.Params{TimeLimit: 300 * time.Millisecond}); err != nil {
		panic(err)
	}
}

// stressCLP is the other child loop: short CLP solves, concurrent with
// the CBC ones, so that engine calls nest.
func stressCLP() {
	p := solvertest.Transportation(rand.New(rand.NewPCG(37, 38)), 30, 30)
	if _, err := (&clpSolver{}).Solve(p, nil); err != nil {
		panic(err)
	}
}
