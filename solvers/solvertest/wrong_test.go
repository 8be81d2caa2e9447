package solvertest_test

import (
	"errors"
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// mutant wraps a real engine and corrupts its results, to show that the
// conformance suite catches a wrong backend rather than passing anything.
type mutant struct {
	solvers.Solver
	mutate  func(p *solvers.Problem, r *solvers.Result)
	session func(s solvers.Session) solvers.Session
}

func (m *mutant) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	r, err := m.Solver.Solve(p, prm)
	if err == nil && m.mutate != nil {
		m.mutate(p, r)
	}
	return r, err
}

func (m *mutant) NewSession(p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	s, err := m.Solver.NewSession(p, prm)
	if err == nil && m.session != nil {
		s = m.session(s)
	}
	return s, err
}

// forgetfulSession drops every added column.
type forgetfulSession struct{ solvers.Session }

func (forgetfulSession) AddCols(obj, lo, up []float64, types []solvers.VarType, start, rows []int, vals []float64) error {
	return nil
}

func reference(t *testing.T) solvers.Solver {
	s, err := solvers.New("highs", true)
	if err != nil {
		t.Skipf("reference engine unavailable: %v", err)
	}
	return s
}

func findCheck(t *testing.T, name string) solvertest.Check {
	for _, c := range solvertest.Checks() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q", name)
	return solvertest.Check{}
}

func TestSuiteCatchesWrongBackends(t *testing.T) {
	base := reference(t)
	cases := []struct {
		name   string
		m      *mutant
		checks []string // each must fail
	}{
		{"flipped dual", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			big := -1
			for i, y := range r.Duals {
				if big < 0 || math.Abs(y) > math.Abs(r.Duals[big]) {
					big = i
				}
			}
			if big >= 0 {
				r.Duals[big] = -r.Duals[big]
			}
		}}, []string{"lp_known_min", "lp_known_max", "lp_equality_ranged", "lp_random_kkt"}},
		{"reduced costs not c - Aᵀy", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			for j := range r.ReducedCosts {
				r.ReducedCosts[j] += 0.5
			}
		}}, []string{"lp_known_min", "lp_random_kkt"}},
		{"objective off by 1e-3", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			r.Objective += 1e-3
		}}, []string{"lp_known_max", "mip_known", "lp_random_kkt", "mip_random_enumeration"}},
		{"claims optimal when infeasible", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			if r.Status == solvers.Infeasible || r.Status == solvers.InfeasibleOrUnbounded {
				r.Status, r.HasSolution = solvers.Optimal, true
				r.X = make([]float64, p.NumCols())
			}
		}}, []string{"lp_infeasible", "mip_infeasible"}},
		{"keeps the point of an unbounded run", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			if r.Status == solvers.Unbounded || r.Status == solvers.InfeasibleOrUnbounded {
				r.HasSolution, r.X, r.Objective = true, make([]float64, p.NumCols()), 0
			}
		}}, []string{"lp_unbounded", "lp_no_solution", "mip_no_solution"}},
		{"objective 0 instead of NaN without a solution", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			if !r.HasSolution {
				r.Objective = 0
			}
		}}, []string{"lp_infeasible", "lp_no_solution", "mip_infeasible", "mip_no_solution"}},
		{"X without a solution", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			if r.Status == solvers.Infeasible {
				r.X = make([]float64, p.NumCols())
			}
		}}, []string{"lp_infeasible", "mip_infeasible"}},
		{"ignores integrality", &mutant{Solver: base, mutate: func(p *solvers.Problem, r *solvers.Result) {
			if p.Name == "known_mip" {
				r.X, r.Objective = []float64{2.4, 2.4}, 4.8 // the LP relaxation's optimum
			}
		}}, []string{"mip_known"}},
		{"session forgets columns", &mutant{Solver: base, session: func(s solvers.Session) solvers.Session {
			return forgetfulSession{s}
		}}, []string{"session_lp"}},
	}
	for _, tc := range cases {
		for _, name := range tc.checks {
			err := findCheck(t, name).Run(tc.m)
			if err == nil || errors.Is(err, solvertest.ErrSkip) {
				t.Errorf("%s: check %s passed a wrong backend (err = %v)", tc.name, name, err)
			}
		}
	}
	// And the unmodified engine passes the same checks.
	for _, name := range []string{"lp_known_min", "lp_random_kkt", "mip_known", "lp_infeasible", "lp_no_solution", "mip_no_solution", "session_lp"} {
		if err := findCheck(t, name).Run(base); err != nil {
			t.Errorf("reference engine fails %s: %v", name, err)
		}
	}
}

func TestEnumerateKnownIP(t *testing.T) {
	// maximize x + y s.t. -x + y ≤ 1, 3x + 2y ≤ 12, 2x + 3y ≤ 12 over
	// integers in [0, 5]: optimum 4 (see checkKnownMIP for the derivation).
	p := &solvers.Problem{Sense: solvers.Maximize}
	p.AddRow(math.Inf(-1), 1, "")
	p.AddRow(math.Inf(-1), 12, "")
	p.AddRow(math.Inf(-1), 12, "")
	p.AddCol(1, 0, 5, solvers.Integer, []int{0, 1, 2}, []float64{-1, 3, 2}, "")
	p.AddCol(1, 0, 5, solvers.Integer, []int{0, 1, 2}, []float64{1, 2, 3}, "")
	best, x, ok := solvertest.Enumerate(p)
	if !ok || best != 4 || x[0]+x[1] != 4 {
		t.Errorf("Enumerate = %v %v %v, want 4", best, x, ok)
	}
}
