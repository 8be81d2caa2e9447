//go:build cgo && lpsolve

package lpsolve

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/internal/sigtest"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// TestSolveKeepsSignalActions: lp_solve 5.5 installs no signal handlers
// (liblpsolve55.a imports neither signal nor sigaction; nm shows it), so
// no bracket like the coin backend's is needed. This test keeps that fact
// checked: LP, MIP, time-limited and session solves leave the SIGINT and
// SIGTERM actions exactly as the Go runtime installed them.
func TestSolveKeepsSignalActions(t *testing.T) {
	if !sigtest.Supported {
		t.Skip("signal actions are read on linux/amd64 and linux/arm64 only")
	}
	rng := rand.New(rand.NewPCG(41, 42))
	lp := solvertest.Transportation(rng, 15, 15)
	mip := solvertest.Knapsack(rng, 3, 25)
	hard := solvertest.MarketSplit(rng, 5)
	cases := []struct {
		name string
		run  func() error
	}{
		{"lp", func() error { _, err := New().Solve(lp, nil); return err }},
		{"mip", func() error { _, err := New().Solve(mip, nil); return err }},
		{"mip stopped by a time limit", func() error {
			_, err := New().Solve(hard, &solvers.Params{TimeLimit: time.Second})
			return err
		}},
		{"session", func() error {
			s, err := New().NewSession(lp, nil)
			if err != nil {
				return err
			}
			defer s.Close()
			if _, err := s.Solve(); err != nil {
				return err
			}
			if err := s.SetObjective([]int{0}, []float64{500}); err != nil {
				return err
			}
			_, err = s.Solve()
			return err
		}},
	}
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := sigtest.Snapshot(sigs...)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.run(); err != nil {
				t.Fatal(err)
			}
			after, err := sigtest.Snapshot(sigs...)
			if err != nil {
				t.Fatal(err)
			}
			for i := range sigs {
				if !after[i].Equal(before[i]) {
					t.Errorf("%v: action before %v, after %v", sigs[i], before[i], after[i])
				}
			}
		})
	}
}
