package highs

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

const tol = 1e-7

// newSolver returns a HiGHS solver or skips the test when the runtime is not
// installed.
func newSolver(t *testing.T) *Solver {
	t.Helper()
	s, err := New()
	if errors.Is(err, solvers.ErrUnavailable) {
		t.Skipf("HiGHS runtime not installed: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func checkVec(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s = %v, want %v", name, got, want)
	}
	for k := range want {
		if !near(got[k], want[k]) {
			t.Fatalf("%s = %v, want %v", name, got, want)
		}
	}
}

// smallLP is: minimize x + y subject to x + 2y >= 2, 3x + y >= 3,
// 0 <= x, y <= 10. Hand-computed: both rows are active at the optimum
// x = 4/5, y = 3/5 with value 7/5; solving Aᵀy = c for the row duals gives
// y = (2/5, 1/5), and the reduced costs are 0 (both columns basic).
// For sense Maximize the objective is negated (maximize -x - y), so the
// optimum is the same point with value -7/5 and duals (-2/5, -1/5).
func smallLP(sense solvers.Sense) *solvers.Problem {
	b := solvers.NewRowBuilder(sense)
	c := 1.0
	if sense == solvers.Maximize {
		c = -1
	}
	x := b.AddVar(c, 0, 10, solvers.Continuous, "x")
	y := b.AddVar(c, 0, 10, solvers.Continuous, "y")
	b.AddConstraint(2, solvers.Inf, []int{x, y}, []float64{1, 2}, "")
	b.AddConstraint(3, solvers.Inf, []int{x, y}, []float64{3, 1}, "")
	return b.Problem()
}

func TestVersion(t *testing.T) {
	s := newSolver(t)
	// The pinned npm package highs@1.15.3 is built from HiGHS 1.15.1.
	if v := s.Version(); v != "1.15.1" {
		t.Errorf("Version() = %q, want 1.15.1", v)
	}
	_, v, err := solvers.Lookup("highs")
	if err != nil || v != "1.15.1" {
		t.Errorf("Lookup(highs) = %q, %v", v, err)
	}
}

func TestSmallLP(t *testing.T) {
	s := newSolver(t)
	for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
		r, err := s.Solve(smallLP(sense), nil)
		if err != nil {
			t.Fatal(err)
		}
		sign := 1.0
		if sense == solvers.Maximize {
			sign = -1
		}
		if r.Status != solvers.Optimal || !r.HasSolution || !r.HasDuals {
			t.Fatalf("%v: status %v, solution %v, duals %v", sense, r.Status, r.HasSolution, r.HasDuals)
		}
		// Values from the hand computation in smallLP's comment.
		if !near(r.Objective, sign*1.4) || !near(r.BestBound, sign*1.4) {
			t.Errorf("%v: objective %v, bound %v, want %v", sense, r.Objective, r.BestBound, sign*1.4)
		}
		checkVec(t, "x", r.X, []float64{0.8, 0.6})
		checkVec(t, "row activity", r.RowActivity, []float64{2, 3})
		checkVec(t, "duals", r.Duals, []float64{sign * 0.4, sign * 0.2})
		checkVec(t, "reduced costs", r.ReducedCosts, []float64{0, 0})
	}
}

// TestMaxDualConvention checks d = c - Aᵀy and the sign rules of
// solvers/doc.go on a maximization LP with an active column bound:
// maximize 3x + 2y subject to x + y <= 4, x <= 3 (column bound), y >= 0.
// Hand-computed: x = 3 (at its upper bound), y = 1, value 11. The row is
// active at its upper bound, so for a maximization y_row >= 0: from the
// basic column y, 2 - y_row = 0 gives y_row = 2; the reduced cost of x is
// 3 - 2 = 1 >= 0 at its upper bound (reversed signs for maximization).
// Strong duality: 2·4 + 1·3 = 11.
func TestMaxDualConvention(t *testing.T) {
	s := newSolver(t)
	p := &solvers.Problem{Sense: solvers.Maximize}
	p.AddRow(math.Inf(-1), 4, "")
	p.AddCol(3, 0, 3, solvers.Continuous, []int{0}, []float64{1}, "x")
	p.AddCol(2, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{1}, "y")
	r, err := s.Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.Optimal || !near(r.Objective, 11) {
		t.Fatalf("status %v objective %v, want optimal 11", r.Status, r.Objective)
	}
	checkVec(t, "x", r.X, []float64{3, 1})
	checkVec(t, "duals", r.Duals, []float64{2})
	checkVec(t, "reduced costs", r.ReducedCosts, []float64{1, 0})
}

// TestSmallMIP: maximize 5a + 4b + 3c subject to 2a + 3b + c <= 5,
// 4a + b + 2c <= 11, 3a + 4b + 2c <= 8, a, b, c binary, plus an integer
// d in [0, 3] with cost -1 and no rows. Enumerating the 8 binary points by
// hand: (1, 0, 1) uses (3, 6, 5) and gives 8; (1, 1, 0) uses (5, 5, 7) and
// gives 9; (1, 1, 1) violates row 1 (6 > 5). The optimum is 9 with d = 0.
func TestSmallMIP(t *testing.T) {
	s := newSolver(t)
	p := &solvers.Problem{Sense: solvers.Maximize}
	for k := 0; k < 3; k++ {
		p.AddRow(math.Inf(-1), []float64{5, 11, 8}[k], "")
	}
	p.AddCol(5, 0, 7, solvers.Binary, []int{0, 1, 2}, []float64{2, 4, 3}, "a") // bounds clipped to [0, 1]
	p.AddCol(4, 0, 1, solvers.Binary, []int{0, 1, 2}, []float64{3, 1, 4}, "b")
	p.AddCol(3, -2, 1, solvers.Binary, []int{0, 1, 2}, []float64{1, 2, 2}, "c")
	p.AddCol(-1, 0, 3, solvers.Integer, nil, nil, "d")
	r, err := s.Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.Optimal || !r.HasSolution || !near(r.Objective, 9) || !near(r.BestBound, 9) {
		t.Fatalf("got %v objective %v bound %v, want optimal 9", r.Status, r.Objective, r.BestBound)
	}
	checkVec(t, "x", r.X, []float64{1, 1, 0, 0})
	if r.HasDuals {
		t.Error("MIP result claims duals")
	}
}

func TestInfeasibleUnbounded(t *testing.T) {
	s := newSolver(t)
	// x >= 2 and x <= 1 (two rows) cannot both hold.
	p := &solvers.Problem{}
	p.AddRow(2, math.Inf(1), "")
	p.AddRow(math.Inf(-1), 1, "")
	p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "")
	r, err := s.Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.Infeasible || r.HasSolution {
		t.Errorf("infeasible LP: status %v, solution %v", r.Status, r.HasSolution)
	}
	// minimize -x - y subject to x - y <= 1: the ray (1, 1) is unbounded.
	q := &solvers.Problem{}
	q.AddRow(math.Inf(-1), 1, "")
	q.AddCol(-1, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{1}, "")
	q.AddCol(-1, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{-1}, "")
	r, err = s.Solve(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.Unbounded && r.Status != solvers.InfeasibleOrUnbounded {
		t.Errorf("unbounded LP: status %v", r.Status)
	}
	// The same as a MIP with integer columns.
	q.ColType = []solvers.VarType{solvers.Integer, solvers.Integer}
	r, err = s.Solve(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.Unbounded && r.Status != solvers.InfeasibleOrUnbounded {
		t.Errorf("unbounded MIP: status %v", r.Status)
	}
}

func TestParams(t *testing.T) {
	s := newSolver(t)
	p := smallLP(solvers.Minimize)
	_, err := s.Solve(p, &solvers.Params{Raw: map[string]string{"no_such_option": "1"}})
	if !errors.Is(err, solvers.ErrUnsupported) {
		t.Errorf("unknown option: err = %v", err)
	}
	_, err = s.Solve(p, &solvers.Params{Raw: map[string]string{"presolve": "sometimes"}})
	if !errors.Is(err, solvers.ErrUnsupported) {
		t.Errorf("invalid value: err = %v", err)
	}
	r, err := s.Solve(p, &solvers.Params{Threads: 4, Raw: map[string]string{
		"presolve": "off", "simplex_strategy": "4", "primal_feasibility_tolerance": "1e-8", "log_to_console": "false"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.Optimal || !near(r.Objective, 1.4) || len(r.Warnings) != 1 {
		t.Errorf("with raw options: %v %v warnings %q", r.Status, r.Objective, r.Warnings)
	}
}

// TestEngineFailure forces an abort inside the engine (HiGHS-wasm cannot
// start worker threads, so threads=2 aborts) and checks that the error is
// typed and that the same Solver works afterwards with a fresh instance.
func TestEngineFailure(t *testing.T) {
	s := newSolver(t)
	p := smallLP(solvers.Minimize)
	_, err := s.Solve(p, &solvers.Params{Raw: map[string]string{"threads": "2"}})
	if !errors.Is(err, solvers.ErrEngine) {
		t.Fatalf("threads=2: err = %v, want ErrEngine", err)
	}
	t.Logf("forced failure: %v", err)
	r, err := s.Solve(p, nil)
	if err != nil || r.Status != solvers.Optimal || !near(r.Objective, 1.4) {
		t.Fatalf("after failure: %v %+v", err, r)
	}
}

// TestSessionWarm adds columns to a transportation LP in a session and
// compares each warm re-solve with a cold solve of the same model.
func TestSessionWarm(t *testing.T) {
	s := newSolver(t)
	rng := rand.New(rand.NewPCG(7, 8))
	full := solvertest.Transportation(rng, 6, 8)
	// The restricted model keeps every column of source 0 (columns 0..7)
	// and every third other column; the supply rows become <= rows and
	// source 0 gets unlimited supply, so every restriction is feasible.
	n := full.NumCols()
	sub := &solvers.Problem{
		RowLower: append([]float64(nil), full.RowLower...),
		RowUpper: append([]float64(nil), full.RowUpper...),
	}
	for i := 0; i < 6; i++ {
		sub.RowLower[i] = math.Inf(-1)
	}
	sub.RowUpper[0] = math.Inf(1)
	var rest []int
	for j := 0; j < n; j++ {
		rows, vals := full.Column(j)
		if j < 8 || j%3 == 0 {
			sub.AddCol(full.Obj[j], 0, math.Inf(1), solvers.Continuous, rows, vals, "")
		} else {
			rest = append(rest, j)
		}
	}
	ses, err := s.NewSession(sub, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ses.Close()
	cold := sub.Clone()
	for len(rest) > 0 {
		r, err := ses.Solve()
		if err != nil {
			t.Fatal(err)
		}
		rc, err := s.Solve(cold, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != solvers.Optimal || rc.Status != solvers.Optimal || !near(r.Objective, rc.Objective) {
			t.Fatalf("warm %v %v, cold %v %v", r.Status, r.Objective, rc.Status, rc.Objective)
		}
		k := min(5, len(rest))
		var obj, lo, up, vals []float64
		var rows []int
		start := []int{0}
		for _, j := range rest[:k] {
			rr, vv := full.Column(j)
			obj = append(obj, full.Obj[j])
			lo = append(lo, 0)
			up = append(up, math.Inf(1))
			rows = append(rows, rr...)
			vals = append(vals, vv...)
			start = append(start, len(rows))
			cold.AddCol(full.Obj[j], 0, math.Inf(1), solvers.Continuous, rr, vv, "")
		}
		rest = rest[k:]
		if err := ses.AddCols(obj, lo, up, nil, start, rows, vals); err != nil {
			t.Fatal(err)
		}
	}
	if ses.NumCols() != n || ses.NumRows() != full.NumRows() {
		t.Errorf("session has %d x %d, want %d x %d", ses.NumRows(), ses.NumCols(), full.NumRows(), n)
	}
}

// TestSessionChanges exercises every session change on smallLP, comparing
// with cold solves of the ReloadSession copy, and recovery after a forced
// engine failure on the same Solver.
func TestSessionChanges(t *testing.T) {
	s := newSolver(t)
	ses, err := s.NewSession(smallLP(solvers.Minimize), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := solvers.NewReloadSession(s, smallLP(solvers.Minimize), nil)
	if err != nil {
		t.Fatal(err)
	}
	both := func(f func(solvers.Session) error) {
		t.Helper()
		if err := f(ses); err != nil {
			t.Fatal(err)
		}
		if err := f(ref); err != nil {
			t.Fatal(err)
		}
		r1, err := ses.Solve()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := ref.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if r1.Status != r2.Status || (r1.Status == solvers.Optimal && !near(r1.Objective, r2.Objective)) {
			t.Fatalf("session %v %v, reload %v %v", r1.Status, r1.Objective, r2.Status, r2.Objective)
		}
	}
	both(func(x solvers.Session) error { return x.SetObjective([]int{0}, []float64{3}) })
	both(func(x solvers.Session) error { return x.SetSense(solvers.Maximize) })
	both(func(x solvers.Session) error { return x.SetColBounds(1, 0, 2) })
	both(func(x solvers.Session) error { return x.SetRowBounds(0, math.Inf(-1), 6) })
	both(func(x solvers.Session) error {
		// A new binary column z (bounds clipped to [0, 1]) with cost 5 in
		// row 0, and a new row x + y + z <= 3.
		if err := x.AddCols([]float64{5}, []float64{-1}, []float64{4}, []solvers.VarType{solvers.Binary}, []int{0, 1}, []int{0}, []float64{1}); err != nil {
			return err
		}
		return x.AddRows([]float64{math.Inf(-1)}, []float64{3}, []int{0, 3}, []int{0, 1, 2}, []float64{1, 1, 1})
	})
	both(func(x solvers.Session) error { return x.SetColBounds(2, 0, 0) })
	if err := ses.SetColBounds(7, 0, 1); !errors.Is(err, solvers.ErrInvalidProblem) {
		t.Errorf("bad column: %v", err)
	}
	// Abort the engine inside the session: loading a model with 3e8
	// columns behind the session's back fails to allocate, which aborts.
	// The next call rebuilds the HiGHS object from the model copy.
	sx := ses.(*session)
	_, err = sx.e.in.call("Highs_passLp", ptr(sx.h), i(300000000), i(0), i(0), i(formatColwise), i(senseMinimize), f(0),
		0, 0, 0, 0, 0, 0, 0, 0)
	if !errors.Is(err, solvers.ErrEngine) {
		t.Fatalf("forced failure: %v", err)
	}
	t.Logf("forced failure: %v", err)
	both(func(x solvers.Session) error { return x.SetColBounds(2, 0, 1) })
	ses.Close()
	if _, err := ses.Solve(); !errors.Is(err, solvers.ErrClosed) {
		t.Errorf("solve after close: %v", err)
	}
	if err := ses.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

// TestConcurrent solves random LPs in two goroutines with one Solver each
// and compares with sequential solves.
func TestConcurrent(t *testing.T) {
	s0 := newSolver(t)
	var probs []*solvers.Problem
	var want []float64
	rng := rand.New(rand.NewPCG(9, 10))
	for k := 0; k < 20; k++ {
		p := solvertest.RandomLP(rng, 5+rng.IntN(10), 5+rng.IntN(10))
		r, err := s0.Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		probs = append(probs, p)
		want = append(want, r.Objective)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := New()
			if err != nil {
				errs[g] = err
				return
			}
			for k, p := range probs {
				r, err := s.Solve(p, nil)
				if err != nil {
					errs[g] = err
					return
				}
				if !near(r.Objective, want[k]) {
					errs[g] = errors.New("objective differs from the sequential solve")
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestEmpty(t *testing.T) {
	s := newSolver(t)
	p := &solvers.Problem{Offset: 2}
	p.AddRow(-1, 1, "")
	r, err := s.Solve(p, nil)
	if err != nil || r.Status != solvers.Optimal || r.Objective != 2 {
		t.Fatalf("%v %+v", err, r)
	}
	p.AddRow(1, 2, "") // activity 0 violates 1 <= 0
	r, err = s.Solve(p, nil)
	if err != nil || r.Status != solvers.Infeasible {
		t.Fatalf("%v %+v", err, r)
	}
}

func TestConformance(t *testing.T) {
	newSolver(t)
	solvertest.Run(t, func() (solvers.Solver, error) { return New() })
}

// TestSessionFromEmpty starts a session without columns (the column
// generation pattern) and adds them: minimize x + 2y subject to
// x + y >= 1 with x, y >= 0. Hand-computed optimum: x = 1, value 1,
// row dual 1.
func TestSessionFromEmpty(t *testing.T) {
	s := newSolver(t)
	p := &solvers.Problem{}
	p.AddRow(1, math.Inf(1), "")
	ses, err := s.NewSession(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ses.Close()
	r, err := ses.Solve()
	if err != nil || r.Status != solvers.Infeasible {
		t.Fatalf("no columns: %v %+v", err, r) // 0 >= 1 fails
	}
	inf := math.Inf(1)
	if err := ses.AddCols([]float64{1, 2}, []float64{0, 0}, []float64{inf, inf}, nil, []int{0, 1, 2}, []int{0, 0}, []float64{1, 1}); err != nil {
		t.Fatal(err)
	}
	r, err = ses.Solve()
	if err != nil || r.Status != solvers.Optimal || !near(r.Objective, 1) {
		t.Fatalf("after adding columns: %v %+v", err, r)
	}
	checkVec(t, "x", r.X, []float64{1, 0})
	checkVec(t, "duals", r.Duals, []float64{1})
	checkVec(t, "reduced costs", r.ReducedCosts, []float64{0, 1})
}

func TestMissingRuntime(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SDCOPT_HIGHS_DIR", dir)
	_, err := doLoad()
	if !errors.Is(err, solvers.ErrUnavailable) || !strings.Contains(err.Error(), "make deps") {
		t.Errorf("missing files: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "highs.wasm"), []byte("not wasm"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = doLoad()
	if !errors.Is(err, solvers.ErrUnavailable) || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("mismatched file: %v", err)
	}
}

// marketSplit is a market split instance (Cornuéjols & Dawande 1999):
// m equality rows Σ a_ij x_j + s⁺_i − s⁻_i = ⌊Σ_j a_ij / 2⌋ over n binary
// x, a_ij uniform in [0, 99], minimizing the total slack. Branch and bound
// needs a number of nodes exponential in n for these (m = 4, n = 30 takes
// minutes to hours).
func marketSplit(m, n int, seed uint64) *solvers.Problem {
	rng := rand.New(rand.NewPCG(seed, 1))
	a := make([][]float64, m)
	p := &solvers.Problem{}
	for i := range m {
		a[i] = make([]float64, n)
		sum := 0.0
		for j := range n {
			a[i][j] = float64(rng.IntN(100))
			sum += a[i][j]
		}
		d := math.Floor(sum / 2)
		p.AddRow(d, d, "")
	}
	for j := range n {
		rows, vals := make([]int, m), make([]float64, m)
		for i := range m {
			rows[i], vals[i] = i, a[i][j]
		}
		p.AddCol(0, 0, 1, solvers.Binary, rows, vals, "")
	}
	for i := range m {
		p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{i}, []float64{1}, "")
		p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{i}, []float64{-1}, "")
	}
	return p
}

// TestHardStop: a solve with a time limit is ended from outside (by the
// host's clock, see checkStop) at the limit plus hardStopGrace when HiGHS
// has not stopped by itself. Here the grace is made negative so that the
// hard stop (0.3 s) comes long before HiGHS's own limit (1 h): the solve
// must return TimeLimit without a solution and with a warning, and the
// pool must go on giving working instances (the stopped one is dead and
// discarded).
func TestHardStop(t *testing.T) {
	s := newSolver(t)
	defer func(g func(time.Duration) time.Duration) { hardStopGrace = g }(hardStopGrace)
	hardStopGrace = func(limit time.Duration) time.Duration { return -limit + 300*time.Millisecond }
	start := time.Now()
	r, err := s.Solve(marketSplit(4, 30, 7), &solvers.Params{TimeLimit: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != solvers.TimeLimit || r.HasSolution || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[len(r.Warnings)-1], "did not stop") {
		t.Fatalf("got %v (solution %v), warnings %q; want a hard stop", r.Status, r.HasSolution, r.Warnings)
	}
	// Generous: without the hard stop this solve runs for minutes.
	if d := time.Since(start); d > time.Minute {
		t.Errorf("hard stop after %v", d)
	}
	hardStopGrace = solvers.HardStopGrace
	for range 3 { // the pool still gives working instances
		p := &solvers.Problem{Sense: solvers.Maximize}
		for k := 0; k < 3; k++ {
			p.AddRow(math.Inf(-1), []float64{5, 11, 8}[k], "")
		}
		p.AddCol(5, 0, 1, solvers.Binary, []int{0, 1, 2}, []float64{2, 4, 3}, "a")
		p.AddCol(4, 0, 1, solvers.Binary, []int{0, 1, 2}, []float64{3, 1, 4}, "b")
		p.AddCol(3, 0, 1, solvers.Binary, []int{0, 1, 2}, []float64{1, 2, 2}, "c")
		r, err := s.Solve(p, &solvers.Params{TimeLimit: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != solvers.Optimal || !near(r.Objective, 9) {
			t.Fatalf("after a hard stop: %v %v, want optimal 9 (see TestSmallMIP)", r.Status, r.Objective)
		}
	}
}

// BenchmarkStoppable compares one MIP solved in the normal runtime (no
// time limit) and in the stoppable one (a time limit far away): the price
// of wazero's context checks that a MIP with a time limit pays.
func BenchmarkStoppable(b *testing.B) {
	s, err := New()
	if err != nil {
		b.Skip(err)
	}
	p := marketSplit(3, 16, 3)
	for _, c := range []struct {
		name  string
		limit time.Duration
	}{{"normal", 0}, {"stoppable", time.Hour}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := s.Solve(p, &solvers.Params{TimeLimit: c.limit})
				if err != nil || r.Status != solvers.Optimal {
					b.Fatal(r, err)
				}
			}
		})
	}
}
