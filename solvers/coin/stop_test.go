//go:build cgo && coin

package coin

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// randomLP is a feasible bounded LP of m dense rows over n columns,
// seeded: maximize a random objective subject to A x <= b, 0 <= x <= 1.
func randomLP(m, n int, seed uint64) *solvers.Problem {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := &solvers.Problem{Sense: solvers.Maximize}
	for range m {
		p.RowLower = append(p.RowLower, solvers.Inf*-1)
		p.RowUpper = append(p.RowUpper, float64(n)/4)
	}
	p.ColStart = []int{0}
	for range n {
		p.Obj = append(p.Obj, rng.Float64())
		p.ColLower = append(p.ColLower, 0)
		p.ColUpper = append(p.ColUpper, 1)
		for i := range m {
			p.RowIndex = append(p.RowIndex, i)
			p.Value = append(p.Value, rng.Float64())
		}
		p.ColStart = append(p.ColStart, len(p.RowIndex))
	}
	return p
}

// marketSplit is a hard small MIP (Cornuéjols & Dawande's market split):
// m equality rows with random coefficients in [0, 99] over 10(m-1) binary
// columns, right-hand sides half the row sums; the objective is 0, so a
// solve must search for a feasible point (most instances have none).
func marketSplit(m int, seed uint64) *solvers.Problem {
	rng := rand.New(rand.NewPCG(seed, 11))
	n := 10 * (m - 1)
	a := make([][]float64, m)
	p := &solvers.Problem{Sense: solvers.Minimize}
	for i := range a {
		a[i] = make([]float64, n)
		sum := 0.0
		for j := range a[i] {
			a[i][j] = float64(rng.IntN(100))
			sum += a[i][j]
		}
		rhs := float64(int(sum / 2))
		p.RowLower, p.RowUpper = append(p.RowLower, rhs), append(p.RowUpper, rhs)
	}
	p.ColStart = []int{0}
	for j := range n {
		p.Obj = append(p.Obj, 0)
		p.ColLower, p.ColUpper = append(p.ColLower, 0), append(p.ColUpper, 1)
		p.ColType = append(p.ColType, solvers.Binary)
		for i := range m {
			p.RowIndex, p.Value = append(p.RowIndex, i), append(p.Value, a[i][j])
		}
		p.ColStart = append(p.ColStart, len(p.RowIndex))
	}
	return p
}

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
	p := randomLP(150, 1200, 1)
	prm := &solvers.Params{TimeLimit: time.Hour, HardStop: true}
	s := &clpSolver{}
	sess, err := s.NewSession(p, prm)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	r, err := sess.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("abandoned solve returned after %v", el)
	}
	if !r.Abandoned || r.Status != solvers.TimeLimit || r.HasSolution {
		t.Fatalf("got %v abandoned=%v solution=%v, want an abandoned time-limit result without solution", r.Status, r.Abandoned, r.HasSolution)
	}
	if err := sess.SetSense(solvers.Minimize); !errors.Is(err, solvers.ErrClosed) {
		t.Errorf("session after an abandoned solve: %v, want ErrClosed", err)
	}
	sess.Close() // a no-op: the model is freed by the abandoned call

	one, err := s.Solve(p, prm)
	if err != nil {
		t.Fatal(err)
	}
	if !one.Abandoned {
		t.Errorf("one-shot solve: %v, not abandoned", one.Status)
	}
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
	p := marketSplit(5, 3)
	// CBC's own limit ends the abandoned solve after 2 s (the hard stop
	// comes at 1 ms).
	prm := &solvers.Params{TimeLimit: 2 * time.Second, HardStop: true}
	s := &cbcSolver{}
	t0 := time.Now()
	r, err := s.Solve(p, prm)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("abandoned solve returned after %v", el)
	}
	if !r.Abandoned || r.Status != solvers.TimeLimit || r.HasSolution {
		t.Fatalf("got %v abandoned=%v solution=%v, want an abandoned time-limit result without solution", r.Status, r.Abandoned, r.HasSolution)
	}
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
