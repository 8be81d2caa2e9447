package cellbounds_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/solvers"
)

// abandoningName is an engine for the tests below: CLP (integer programs
// go to CBC), except that every third solve of a session is "abandoned" as
// an engine does at its hard
// stop (solvers.Params.HardStop): the session is closed and the result is
// a time limit without a solution and with Result.Abandoned.
const abandoningName = "test-abandoning-clp"

var abandoned atomic.Int64

func init() {
	solvers.Register(solvers.Engine{
		Name: abandoningName, Description: "CLP whose every third session solve is abandoned (tests)",
		Probe: func() (string, error) {
			s, err := solvers.New("clp", false)
			if err != nil {
				return "", err
			}
			return s.Version(), nil
		},
		Caps:   solvers.Capabilities{LP: true, Duals: true, Incremental: true, WarmStart: true, TimeLimit: true},
		New:    func() (solvers.Solver, error) { s, err := solvers.New("clp", false); return &abandoningSolver{s}, err },
		LPRank: -1, MIPRank: -1,
	})
}

type abandoningSolver struct{ solvers.Solver }

func (a *abandoningSolver) Name() string { return abandoningName }

// Solve passes the integer programs (witness searches, IPs) to CBC.
func (a *abandoningSolver) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	if p.IsMIP() {
		s, err := solvers.New("cbc", true)
		if err != nil {
			return nil, err
		}
		return s.Solve(p, prm)
	}
	return a.Solver.Solve(p, prm)
}

func (a *abandoningSolver) NewSession(p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	if !prm.HardStop {
		return nil, fmt.Errorf("session without Params.HardStop: an abandoned solve would break it")
	}
	s, err := a.Solver.NewSession(p, prm)
	return &abandoningSession{Session: s}, err
}

type abandoningSession struct {
	solvers.Session
	n      int
	closed bool
}

func (s *abandoningSession) Solve() (*solvers.Result, error) {
	if s.closed {
		return nil, solvers.ErrClosed
	}
	s.n++
	if s.n%3 == 0 {
		s.closed = true
		s.Session.Close()
		abandoned.Add(1)
		return &solvers.Result{Solver: abandoningName, Status: solvers.TimeLimit, Abandoned: true, Objective: math.NaN(), BestBound: math.NaN()}, nil
	}
	return s.Session.Solve()
}

func (s *abandoningSession) SetObjective(cols []int, obj []float64) error {
	if s.closed {
		return solvers.ErrClosed
	}
	return s.Session.SetObjective(cols, obj)
}

func (s *abandoningSession) SetSense(x solvers.Sense) error {
	if s.closed {
		return solvers.ErrClosed
	}
	return s.Session.SetSense(x)
}

func (s *abandoningSession) SetColBounds(j int, lo, up float64) error {
	if s.closed {
		return solvers.ErrClosed
	}
	return s.Session.SetColBounds(j, lo, up)
}

func (s *abandoningSession) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.Session.Close()
}

// TestAbandonedSolves: the certified method and the LP bounds go on after
// engine solves abandoned at their hard stop (new sessions), with every
// bound valid: containing the sharp integer bounds. Run with a deadline
// (so that the engines are asked for hard stops) that does not expire.
func TestAbandonedSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261126, 1))
	before := abandoned.Load()
	for i := range 6 {
		tab, ms := randomCase(rng)
		ref, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.IP})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{cellbounds.Certified, cellbounds.LP} {
			res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: m, Solver: abandoningName, TimeLimit: time.Hour})
			if err != nil {
				t.Fatalf("case %d %s: %v", i, m, err)
			}
			checkContains(t, fmt.Sprintf("case %d %s", i, m), res.Bounds, ref.Bounds, tab)
		}
	}
	if n := abandoned.Load() - before; n == 0 {
		t.Fatal("no solve was abandoned: the test tests nothing")
	} else {
		t.Logf("%d solves abandoned", n)
	}
}
