//go:build cgo && coin

package coin

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// TestClpWallClockLimit: the limit armed before a solve is wall-clock
// time. A sleep uses no CPU time, so CLP's CPU-time limit (ClpMaxSeconds)
// would never be hit by it; the wall-clock one is.
func TestClpWallClockLimit(t *testing.T) {
	if !clpWallOK() {
		t.Fatal("wallclock.cpp's view of Clp_Simplex does not match the library")
	}
	m := newClpModel()
	defer m.free()
	m.load(2, 1, []int{0, 1, 2}, []int{0, 0}, []float64{1, 1}, []float64{0, 0}, []float64{1, 1}, []float64{0, 0}, []float64{0}, []float64{1})
	armTimeLimit(m, &solvers.Params{TimeLimit: 50 * time.Millisecond})
	if m.hitLimit() {
		t.Fatal("limit hit at once")
	}
	time.Sleep(80 * time.Millisecond)
	if !m.hitLimit() {
		t.Fatal("a 50 ms limit not hit after 80 ms of wall-clock time")
	}
	armTimeLimit(m, &solvers.Params{})
	if m.hitLimit() {
		t.Fatal("no limit, yet hit")
	}
	armTimeLimit(m, &solvers.Params{Deadline: time.Now().Add(time.Hour)})
	if m.hitLimit() {
		t.Fatal("an hour's deadline hit at once")
	}
}

// transportLP is a random n x n transportation problem (n^2 columns).
func transportLP(n int, seed uint64) *solvers.Problem {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := solvers.NewRowBuilder(solvers.Minimize)
	for k := 0; k < n*n; k++ {
		b.AddVar(float64(rng.IntN(1000)), 0, 10, solvers.Continuous, "")
	}
	for i := 0; i < n; i++ {
		row, col := make([]int, n), make([]int, n)
		for j := 0; j < n; j++ {
			row[j], col[j] = i*n+j, j*n+i
		}
		ones := make([]float64, n)
		for j := range ones {
			ones[j] = 1
		}
		b.AddConstraint(10, 10, row, ones, "")
		b.AddConstraint(10, 10, col, ones, "")
	}
	return b.Problem()
}

// TestSessionDeadline: Params.Deadline is read at every Solve of a
// session, long after the session opened; a solve started past it stops
// at once with status TimeLimit.
func TestSessionDeadline(t *testing.T) {
	p := transportLP(300, 7)
	prm := &solvers.Params{Deadline: time.Now().Add(-time.Second)}
	s, err := (&clpSolver{}).NewSession(p, prm)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Now()
	r, err := s.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.TimeLimit {
		t.Fatalf("status %v past the deadline, want %v", r.Status, solvers.TimeLimit)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Fatalf("a solve past its deadline took %v", el)
	}
	// The same problem with a deadline an hour away solves.
	r2, err := (&clpSolver{}).Solve(p, &solvers.Params{Deadline: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Status != solvers.Optimal {
		t.Fatalf("status %v with an hour left, want optimal", r2.Status)
	}
}
