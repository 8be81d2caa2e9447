//go:build cgo && coin

package coin

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// withGrace makes every hard stop come 1 ms after the start of a call
// whatever its limit (an hour below), so that calls the engines would
// finish long after are abandoned; it restores the grace at the end.
func withGrace(t *testing.T) {
	old := hardStopGrace
	hardStopGrace = func(limit time.Duration) time.Duration { return time.Millisecond - limit }
	t.Cleanup(func() { hardStopGrace = old })
}

// TestHardStopClp: with Params.HardStop, a CLP solve still running at its
// hard stop returns at once with TimeLimit, no solution and Abandoned; the
// session is closed after it; new solves work, and the abandoned one ends
// in the background. Without HardStop the same solve runs to its optimum.
func TestHardStopClp(t *testing.T) {
	withGrace(t)
	p := solvertest.RandomLP(rand.New(rand.NewPCG(1, 7)), 150, 1200)
	prm := &solvers.Params{TimeLimit: time.Hour, HardStop: true}
	s := &clpSolver{}
	sess, err := s.NewSession(p, prm)
	if err != nil {
		t.Fatal(err)
	}
	checkAbandoned(t, sess.Solve)
	if err := sess.SetSense(solvers.Minimize); !errors.Is(err, solvers.ErrClosed) {
		t.Errorf("session after an abandoned solve: %v, want ErrClosed", err)
	}
	sess.Close() // a no-op: the model is freed by the abandoned call

	checkAbandoned(t, func() (*solvers.Result, error) { return s.Solve(p, prm) }) // one-shot
	full, err := s.Solve(p, &solvers.Params{TimeLimit: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if full.Status != solvers.Optimal || full.Abandoned || full.Seconds < 0.001 {
		t.Errorf("without HardStop: %v in %.3f s (abandoned %v), want optimal after more than the 1 ms stop", full.Status, full.Seconds, full.Abandoned)
	}
}

// TestHardStopCbc: an abandoned CBC solve returns at its hard stop; CBC
// runs one solve at a time, so a solve started right after it waits for
// the abandoned one and gives up at its own hard stop or, once the
// engine is free, solves; either way it returns a valid result.
func TestHardStopCbc(t *testing.T) {
	withGrace(t)
	p := solvertest.MarketSplit(rand.New(rand.NewPCG(3, 11)), 5)
	// CBC's own limit ends the abandoned solve after 2 s (the hard stop
	// comes at 1 ms).
	prm := &solvers.Params{TimeLimit: 2 * time.Second, HardStop: true}
	s := &cbcSolver{}
	checkAbandoned(t, func() (*solvers.Result, error) { return s.Solve(p, prm) })
	small := &solvers.Problem{Sense: solvers.Maximize, Obj: []float64{1, 1}, ColLower: []float64{0, 0}, ColUpper: []float64{3, 3},
		ColType: []solvers.VarType{solvers.Integer, solvers.Integer}, ColStart: []int{0, 1, 2}, RowIndex: []int{0, 0}, Value: []float64{2, 2},
		RowLower: []float64{-solvers.Inf}, RowUpper: []float64{5}}
	// Without a limit it waits for the engine and solves: max x+y s.t.
	// 2x+2y <= 5 over integers is 2.
	r2, err := s.Solve(small, &solvers.Params{})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Status != solvers.Optimal || r2.Objective != 2 {
		t.Errorf("after the abandoned solve: %v objective %v, want optimal 2", r2.Status, r2.Objective)
	}
}

// checkAbandoned runs solve, which must be abandoned at its 1 ms hard
// stop: it returns long before the engine would finish, with TimeLimit,
// no solution and Abandoned.
func checkAbandoned(t *testing.T, solve func() (*solvers.Result, error)) {
	t.Helper()
	t0 := time.Now()
	r, err := solve()
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("abandoned solve returned after %v", el)
	}
	if !r.Abandoned || r.Status != solvers.TimeLimit || r.HasSolution {
		t.Fatalf("got %v abandoned=%v solution=%v, want an abandoned time-limit result without solution", r.Status, r.Abandoned, r.HasSolution)
	}
}
