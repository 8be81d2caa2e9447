package all

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// TestRequiredEngines fails when an engine named in SDCOPT_REQUIRE_ENGINES
// (set by make test) is not available, so a missing install step cannot
// pass silently as a skipped backend.
func TestRequiredEngines(t *testing.T) {
	req := os.Getenv("SDCOPT_REQUIRE_ENGINES")
	if req == "" {
		t.Skip("SDCOPT_REQUIRE_ENGINES not set")
	}
	avail := map[string]solvers.Info{}
	for _, e := range solvers.List() {
		avail[e.Name] = e
	}
	for _, name := range strings.Split(req, ",") {
		e, ok := avail[name]
		switch {
		case !ok:
			t.Errorf("engine %q is not registered", name)
		case !e.Available:
			t.Errorf("engine %q is not available: %s", name, e.Reason)
		}
	}
}

func available(t *testing.T, mip bool) []solvers.Solver {
	var out []solvers.Solver
	for _, e := range solvers.List() {
		if !e.Available || (mip && !e.Capabilities.Integer) {
			continue
		}
		s, err := solvers.New(e.Name, mip)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		out = append(out, s)
	}
	if len(out) < 2 {
		t.Skipf("fewer than two engines available for cross-checks")
	}
	return out
}

func compare(ss []solvers.Solver, p *solvers.Problem) error {
	var ref *solvers.Result
	refName := ""
	for _, s := range ss {
		r, err := s.Solve(p, nil)
		if err != nil {
			return fmt.Errorf("%s: %v", s.Name(), err)
		}
		if ref == nil {
			ref, refName = r, s.Name()
			continue
		}
		if r.Status != ref.Status {
			return fmt.Errorf("status: %s %v, %s %v", refName, ref.Status, s.Name(), r.Status)
		}
		if r.Status == solvers.Optimal && math.Abs(r.Objective-ref.Objective) > solvertest.ObjTol*math.Max(1, math.Abs(ref.Objective)) {
			return fmt.Errorf("objective: %s %.12g, %s %.12g", refName, ref.Objective, s.Name(), r.Objective)
		}
	}
	return nil
}

// TestCrossEngineRandomLPs solves a few hundred seeded random LPs (every
// bound and row type) with every available engine and requires the same
// status and optimal objective.
func TestCrossEngineRandomLPs(t *testing.T) {
	ss := available(t, false)
	rng := rand.New(rand.NewPCG(11, 12))
	count := 300
	if testing.Short() {
		count = 50
	}
	for k := 0; k < count; k++ {
		p := solvertest.RandomLP(rng, 2+rng.IntN(20), 2+rng.IntN(25))
		if err := compare(ss, p); err != nil {
			t.Fatalf("random LP %d: %v", k, err)
		}
	}
}

// TestCrossEngineRandomMIPs does the same for small integer programs and
// random set-partitioning and knapsack MIPs.
func TestCrossEngineRandomMIPs(t *testing.T) {
	ss := available(t, true)
	rng := rand.New(rand.NewPCG(13, 14))
	count := 200
	if testing.Short() {
		count = 30
	}
	for k := 0; k < count; k++ {
		var p *solvers.Problem
		switch k % 3 {
		case 0:
			p = solvertest.RandomIntegerProgram(rng, 1+rng.IntN(5), 2+rng.IntN(6))
		case 1:
			p = solvertest.SetPartitioning(rng, 8+rng.IntN(8), 30+rng.IntN(30), 4, true)
		default:
			p = solvertest.Knapsack(rng, 1+rng.IntN(3), 8+rng.IntN(8))
		}
		if err := compare(ss, p); err != nil {
			t.Fatalf("random MIP %d (%s): %v", k, p.Name, err)
		}
	}
}
