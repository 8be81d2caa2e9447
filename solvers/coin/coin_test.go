//go:build cgo && coin

package coin

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

const tol = 1e-7

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func nearAll(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
}

func engines() []solvers.Solver { return []solvers.Solver{&clpSolver{}, &cbcSolver{}} }

func mustSolve(t *testing.T, s solvers.Solver, p *solvers.Problem, prm *solvers.Params) *solvers.Result {
	t.Helper()
	r, err := s.Solve(p, prm)
	if err != nil {
		t.Fatalf("%s: %v", s.Name(), err)
	}
	return r
}

// minLP: minimize 2x + 3y + 1 s.t. x + y >= 4, x + 3y >= 6, x, y >= 0.
// Hand-computed: both rows active at (3, 1); objective 2·3 + 3·1 + 1 = 10;
// duals from y0 + y1 = 2, y0 + 3·y1 = 3: y = (1.5, 0.5); reduced costs 0.
func minLP() *solvers.Problem {
	p := &solvers.Problem{Offset: 1}
	p.AddRow(4, solvers.Inf, "")
	p.AddRow(6, solvers.Inf, "")
	p.AddCol(2, 0, solvers.Inf, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(3, 0, solvers.Inf, solvers.Continuous, []int{0, 1}, []float64{1, 3}, "y")
	return p
}

// maxLP: maximize 3x + 2y s.t. x + y <= 4, x + 3y <= 7, 0 <= x <= 3, y >= 0.
// Hand-computed: optimum (3, 1), objective 11; row 0 active (y0 = 2 from the
// basic y: 2 - y0 = 0), row 1 slack (y1 = 0); x at its upper bound with
// d_x = 3 - y0 = 1 (>= 0 at an upper bound of a maximization).
func maxLP() *solvers.Problem {
	p := &solvers.Problem{Sense: solvers.Maximize}
	p.AddRow(-solvers.Inf, 4, "")
	p.AddRow(-solvers.Inf, 7, "")
	p.AddCol(3, 0, 3, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(2, 0, solvers.Inf, solvers.Continuous, []int{0, 1}, []float64{1, 3}, "y")
	return p
}

func TestLPDuals(t *testing.T) {
	for _, s := range engines() {
		r := mustSolve(t, s, minLP(), nil)
		if r.Status != solvers.Optimal || !r.HasSolution || !r.HasDuals {
			t.Fatalf("%s min: %+v", s.Name(), r)
		}
		if !near(r.Objective, 10) || !near(r.BestBound, 10) {
			t.Errorf("%s min: objective %v, want 10", s.Name(), r.Objective)
		}
		nearAll(t, s.Name()+" min x", r.X, []float64{3, 1})
		nearAll(t, s.Name()+" min duals", r.Duals, []float64{1.5, 0.5})
		nearAll(t, s.Name()+" min reduced costs", r.ReducedCosts, []float64{0, 0})
		nearAll(t, s.Name()+" min activity", r.RowActivity, []float64{4, 6})

		r = mustSolve(t, s, maxLP(), nil)
		if r.Status != solvers.Optimal || !r.HasDuals {
			t.Fatalf("%s max: %+v", s.Name(), r)
		}
		if !near(r.Objective, 11) {
			t.Errorf("%s max: objective %v, want 11", s.Name(), r.Objective)
		}
		nearAll(t, s.Name()+" max x", r.X, []float64{3, 1})
		nearAll(t, s.Name()+" max duals", r.Duals, []float64{2, 0})
		nearAll(t, s.Name()+" max reduced costs", r.ReducedCosts, []float64{1, 0})
	}
}

// TestFreeFixedRanged: minimize x - y + z with x free, y fixed at 2, z in
// [0, 10], rows: 1 <= x + z <= 3 (ranged), x - y + z free row, x + y = 3.
// Hand-computed: x = 3 - y = 1, z at 0 satisfies 1 <= 1 <= 3; objective
// 1 - 2 + 0 = -1 (z has cost 1 and the ranged row is slack-free at 1 = lower
// bound with x fixed by the equality).
func TestFreeFixedRanged(t *testing.T) {
	p := &solvers.Problem{}
	p.AddRow(1, 3, "ranged")
	p.AddRow(-solvers.Inf, solvers.Inf, "free")
	p.AddRow(3, 3, "eq")
	p.AddCol(1, -solvers.Inf, solvers.Inf, solvers.Continuous, []int{0, 1, 2}, []float64{1, 1, 1}, "x")
	p.AddCol(-1, 2, 2, solvers.Continuous, []int{1, 2}, []float64{-1, 1}, "y")
	p.AddCol(1, 0, 10, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "z")
	for _, s := range engines() {
		r := mustSolve(t, s, p, nil)
		if r.Status != solvers.Optimal {
			t.Fatalf("%s: %v", s.Name(), r.Status)
		}
		if !near(r.Objective, -1) {
			t.Errorf("%s: objective %v, want -1", s.Name(), r.Objective)
		}
		nearAll(t, s.Name()+" x", r.X, []float64{1, 2, 0})
		if !near(r.Duals[1], 0) {
			t.Errorf("%s: free row dual %v, want 0", s.Name(), r.Duals[1])
		}
		// d = c - Aᵀy for every column.
		for j := 0; j < p.NumCols(); j++ {
			d := p.Obj[j]
			rows, vals := p.Column(j)
			for k, i := range rows {
				d -= vals[k] * r.Duals[i]
			}
			if !near(r.ReducedCosts[j], d) {
				t.Errorf("%s: reduced cost %d = %v, want c - Aᵀy = %v", s.Name(), j, r.ReducedCosts[j], d)
			}
		}
	}
}

func TestInfeasibleUnbounded(t *testing.T) {
	inf := solvers.Inf
	for _, s := range engines() {
		for _, integer := range []bool{false, true} {
			if integer && !s.Capabilities().Integer {
				continue
			}
			ty := solvers.Continuous
			if integer {
				ty = solvers.Integer
			}
			// x + y >= 5 and x + y <= 3: infeasible.
			p := &solvers.Problem{}
			p.AddRow(5, inf, "")
			p.AddRow(-inf, 3, "")
			p.AddCol(1, 0, inf, ty, []int{0, 1}, []float64{1, 1}, "")
			p.AddCol(1, 0, inf, ty, []int{0, 1}, []float64{1, 1}, "")
			if r := mustSolve(t, s, p, nil); r.Status != solvers.Infeasible || r.HasSolution {
				t.Errorf("%s integer=%v infeasible: status %v hasSolution %v", s.Name(), integer, r.Status, r.HasSolution)
			}
			// minimize -x - y s.t. x - y <= 1: unbounded along (1, 1).
			p = &solvers.Problem{}
			p.AddRow(-inf, 1, "")
			p.AddCol(-1, 0, inf, ty, []int{0}, []float64{1}, "")
			p.AddCol(-1, 0, inf, ty, []int{0}, []float64{-1}, "")
			r := mustSolve(t, s, p, nil)
			want := []solvers.Status{solvers.Unbounded}
			if integer {
				// CBC only reports that the relaxation is unbounded.
				want = append(want, solvers.InfeasibleOrUnbounded)
			}
			ok := false
			for _, w := range want {
				ok = ok || r.Status == w
			}
			if !ok {
				t.Errorf("%s integer=%v unbounded: status %v, want one of %v", s.Name(), integer, r.Status, want)
			}
		}
	}
}

// TestSmallMIP: maximize 5x + 4y + 1 s.t. 6x + 4y <= 24, x + 2y <= 6,
// x, y >= 0 integer. Hand-computed by enumeration: (4, 0) gives 21 (the LP
// optimum (3, 1.5) gives 15 + 6 + 1 = 22).
func TestSmallMIP(t *testing.T) {
	p := &solvers.Problem{Sense: solvers.Maximize, Offset: 1}
	p.AddRow(-solvers.Inf, 24, "")
	p.AddRow(-solvers.Inf, 6, "")
	p.AddCol(5, 0, solvers.Inf, solvers.Integer, []int{0, 1}, []float64{6, 1}, "x")
	p.AddCol(4, 0, solvers.Inf, solvers.Integer, []int{0, 1}, []float64{4, 2}, "y")
	r := mustSolve(t, &cbcSolver{}, p, nil)
	if r.Status != solvers.Optimal || !near(r.Objective, 21) || !near(r.BestBound, 21) {
		t.Fatalf("MIP: %v objective %v bound %v, want optimal 21", r.Status, r.Objective, r.BestBound)
	}
	nearAll(t, "MIP x", r.X, []float64{4, 0})
	if _, err := (&clpSolver{}).Solve(p, nil); !errors.Is(err, solvers.ErrUnsupported) {
		t.Errorf("clp on a MIP: err %v, want ErrUnsupported", err)
	}
	// The LP relaxation through cbc goes to CLP and has duals.
	lp := p.Clone()
	lp.ColType = nil
	r = mustSolve(t, &cbcSolver{}, lp, nil)
	if !near(r.Objective, 22) || !r.HasDuals {
		t.Errorf("cbc LP relaxation: objective %v hasDuals %v, want 22 with duals", r.Objective, r.HasDuals)
	}
}

// TestRangedRowMIP: maximize 4a - 5b + 4c over binaries with
// -2 <= a - 6b + 5c <= 2. Enumerated by hand: (1, 0, 0) gives 4; CBC
// 2.10.8's preprocessing returns (1, 1, 1) = 3 on the unsplit ranged row.
func TestRangedRowMIP(t *testing.T) {
	p := &solvers.Problem{Sense: solvers.Maximize}
	p.AddRow(-2, 2, "")
	p.AddCol(4, 0, 1, solvers.Binary, []int{0}, []float64{1}, "a")
	p.AddCol(-5, 0, 1, solvers.Binary, []int{0}, []float64{-6}, "b")
	p.AddCol(4, 0, 1, solvers.Binary, []int{0}, []float64{5}, "c")
	r := mustSolve(t, &cbcSolver{}, p, nil)
	if r.Status != solvers.Optimal || !near(r.Objective, 4) {
		t.Fatalf("status %v objective %v, want optimal 4", r.Status, r.Objective)
	}
}

func TestRawOptions(t *testing.T) {
	for _, raw := range []map[string]string{{"algorithm": "primal"}, {"algorithm": "barrier"}, {"presolve": "off", "scaling": "off", "perturbation": "off"}} {
		r := mustSolve(t, &clpSolver{}, minLP(), &solvers.Params{Raw: raw})
		if r.Status != solvers.Optimal || !near(r.Objective, 10) {
			t.Errorf("raw %v: %v %v", raw, r.Status, r.Objective)
		}
	}
	if _, err := (&clpSolver{}).Solve(minLP(), &solvers.Params{Raw: map[string]string{"algorithm": "magic"}}); !errors.Is(err, solvers.ErrUnsupported) {
		t.Errorf("bad algorithm: err %v", err)
	}
	r := mustSolve(t, &clpSolver{}, minLP(), &solvers.Params{Threads: 4})
	if len(r.Warnings) == 0 {
		t.Errorf("threads=4 on clp: no warning")
	}
	r = mustSolve(t, &clpSolver{}, minLP(), &solvers.Params{Raw: map[string]string{"max_iterations": "0"}})
	if r.Status != solvers.IterationLimit {
		t.Errorf("max_iterations=0: status %v", r.Status)
	}
}

// TestSessionAddColumns: the column-generation pattern. A set-partitioning
// master LP gets batches of new columns; every warm re-solve must match a
// cold solve of the same model (reference: a fresh CLP solve).
func TestSessionAddColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const m = 30
	p := solvertest.SetPartitioning(rng, m, 60, 5, false)
	sess, err := (&clpSolver{}).NewSession(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ref := p.Clone()
	for batch := 0; batch < 8; batch++ {
		r, err := sess.Solve()
		if err != nil {
			t.Fatal(err)
		}
		c := mustSolve(t, &clpSolver{}, ref, nil)
		if r.Status != solvers.Optimal || !near(r.Objective, c.Objective) {
			t.Fatalf("batch %d: session %v %v, cold %v %v", batch, r.Status, r.Objective, c.Status, c.Objective)
		}
		if err := solvertest.CheckKKT(ref, r); err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		var obj, lo, up, vals []float64
		start := []int{0}
		var rows []int
		for k := 0; k < 10; k++ {
			rs := solvertest.SetPartitioningColumn(rng, m, m+k, 5)
			cost := solvertest.SetPartitioningCost(rng, len(rs))
			obj, lo, up = append(obj, cost), append(lo, 0), append(up, 1)
			rows = append(rows, rs...)
			for range rs {
				vals = append(vals, 1)
			}
			start = append(start, len(rows))
			ones := make([]float64, len(rs))
			for i := range ones {
				ones[i] = 1
			}
			ref.AddCol(cost, 0, 1, solvers.Continuous, rs, ones, "")
		}
		if err := sess.AddCols(obj, lo, up, nil, start, rows, vals); err != nil {
			t.Fatal(err)
		}
		// Also exercise bound and objective changes (dual / primal paths).
		if batch%3 == 1 {
			j := rng.IntN(ref.NumCols())
			if err := sess.SetColBounds(j, 0, 0); err != nil {
				t.Fatal(err)
			}
			ref.ColUpper[j] = 0
		}
		if batch%3 == 2 {
			j := rng.IntN(ref.NumCols())
			if err := sess.SetObjective([]int{j}, []float64{1}); err != nil {
				t.Fatal(err)
			}
			ref.Obj[j] = 1
		}
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Solve(); !errors.Is(err, solvers.ErrClosed) {
		t.Errorf("solve after close: %v", err)
	}
}

// TestSessionRowsSense: add a row, flip the sense and change row bounds;
// each re-solve equals a cold solve.
func TestSessionRowsSense(t *testing.T) {
	p := maxLP()
	sess, err := (&clpSolver{}).NewSession(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ref := p.Clone()
	check := func(what string) {
		t.Helper()
		r, err := sess.Solve()
		if err != nil {
			t.Fatal(err)
		}
		c := mustSolve(t, &clpSolver{}, ref, nil)
		if r.Status != c.Status || (c.Status == solvers.Optimal && !near(r.Objective, c.Objective)) {
			t.Fatalf("%s: session %v %v, cold %v %v", what, r.Status, r.Objective, c.Status, c.Objective)
		}
		if c.Status == solvers.Optimal {
			if err := solvertest.CheckKKT(ref, r); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		}
	}
	check("initial")
	// Row y <= 0.5 (hand-checked: optimum moves to (3, 0.5)).
	if err := sess.AddRows([]float64{-solvers.Inf}, []float64{0.5}, []int{0, 1}, []int{1}, []float64{1}); err != nil {
		t.Fatal(err)
	}
	ref.AddRow(-solvers.Inf, 0.5, "")
	ref.ColStart, ref.RowIndex, ref.Value = []int{0, 2, 5}, []int{0, 1, 0, 1, 2}, []float64{1, 1, 1, 3, 1}
	check("add row")
	if err := sess.SetSense(solvers.Minimize); err != nil {
		t.Fatal(err)
	}
	ref.Sense = solvers.Minimize
	check("sense")
	if err := sess.SetRowBounds(0, 2, 4); err != nil {
		t.Fatal(err)
	}
	ref.RowLower[0] = 2
	check("row bounds")
	if err := sess.SetRowBounds(0, 5, 6); err != nil { // x + y <= 3.5 from x <= 3, y <= 0.5: infeasible
		t.Fatal(err)
	}
	ref.RowLower[0], ref.RowUpper[0] = 5, 6
	check("infeasible")
}

// TestTimeLimitHardMIP: a market split instance stops on the time limit
// with an incumbent.
func TestTimeLimitHardMIP(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	p := solvertest.MarketSplit(rand.New(rand.NewPCG(9, 10)), 6)
	r := mustSolve(t, &cbcSolver{}, p, &solvers.Params{TimeLimit: time.Second, MIPRelGap: 1e-6, MIPAbsGap: 1e-9})
	if r.Status != solvers.TimeLimit || !r.HasSolution {
		t.Fatalf("status %v hasSolution %v, want time_limit with a solution", r.Status, r.HasSolution)
	}
	if err := solvertest.CheckPrimal(p, r); err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(r.BestBound) || r.BestBound > r.Objective+1e-6 {
		t.Errorf("best bound %v vs objective %v", r.BestBound, r.Objective)
	}
}

func TestRegistry(t *testing.T) {
	for _, name := range []string{clpName, cbcName} {
		e, v, err := solvers.Lookup(name)
		if err != nil || v == "" {
			t.Fatalf("%s: version %q err %v", name, v, err)
		}
		t.Logf("%s %s: %s", name, v, e.Description)
	}
}
