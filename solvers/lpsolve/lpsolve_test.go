//go:build cgo && lpsolve

package lpsolve

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

const tol = 1e-7

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func solveOK(t *testing.T, p *solvers.Problem, prm *solvers.Params) *solvers.Result {
	t.Helper()
	r, err := New().Solve(p, prm)
	if err != nil {
		t.Fatalf("Solve(%s): %v", p.Name, err)
	}
	return r
}

func wantVec(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Fatalf("%s = %v, want %v", what, got, want)
		}
	}
}

func wantOptimal(t *testing.T, r *solvers.Result, obj float64) {
	t.Helper()
	if r.Status != solvers.Optimal || !r.HasSolution {
		t.Fatalf("status %v (solution %v), want optimal", r.Status, r.HasSolution)
	}
	if !near(r.Objective, obj) {
		t.Fatalf("objective %.12g, want %.12g", r.Objective, obj)
	}
}

// upperLP: optimize ±(x + y) + 5 subject to r0: x + 2y ≤ 4, r1: x + y ≥ 1,
// x ∈ [0, 3], y ∈ [0, 5]. Hand-computed: maximizing x + y pushes x to its
// upper bound 3 and then y = (4 - 3)/2 = 0.5 (r0 at its upper bound, r1
// inactive at 3.5). Stationarity for the basic y gives the dual of r0 and
// then x's reduced cost; the solution is nondegenerate, so both are unique.
func upperLP(sense solvers.Sense) *solvers.Problem {
	c := 1.0
	if sense == solvers.Minimize {
		c = -1
	}
	p := &solvers.Problem{Name: "upper_" + sense.String(), Sense: sense, Offset: 5}
	p.AddRow(math.Inf(-1), 4, "r0")
	p.AddRow(1, math.Inf(1), "r1")
	p.AddCol(c, 0, 3, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(c, 0, 5, solvers.Continuous, []int{0, 1}, []float64{2, 1}, "y")
	return p
}

func TestLPDualsMin(t *testing.T) {
	// minimize -x - y + 5: objective -3.5 + 5 = 1.5; y basic: -1 = 2·y0, so
	// y0 = -0.5 (≤ 0: a minimization row at its upper bound); x at its upper
	// bound: d_x = -1 - (-0.5) = -0.5 (≤ 0).
	p := upperLP(solvers.Minimize)
	r := solveOK(t, p, nil)
	wantOptimal(t, r, 1.5)
	wantVec(t, "x", r.X, []float64{3, 0.5})
	wantVec(t, "row activity", r.RowActivity, []float64{4, 3.5})
	if !r.HasDuals {
		t.Fatal("no duals")
	}
	wantVec(t, "duals", r.Duals, []float64{-0.5, 0})
	wantVec(t, "reduced costs", r.ReducedCosts, []float64{-0.5, 0})
	if !near(r.BestBound, 1.5) {
		t.Fatalf("best bound %g, want 1.5", r.BestBound)
	}
	if err := solvertest.CheckKKT(p, r); err != nil {
		t.Fatal(err)
	}
}

func TestLPDualsMax(t *testing.T) {
	// maximize x + y + 5: objective 8.5; signs reversed with respect to the
	// minimization above: y0 = 0.5, d_x = 1 - 0.5 = 0.5 (d = c - Aᵀy).
	p := upperLP(solvers.Maximize)
	r := solveOK(t, p, nil)
	wantOptimal(t, r, 8.5)
	wantVec(t, "x", r.X, []float64{3, 0.5})
	wantVec(t, "duals", r.Duals, []float64{0.5, 0})
	wantVec(t, "reduced costs", r.ReducedCosts, []float64{0.5, 0})
	if err := solvertest.CheckKKT(p, r); err != nil {
		t.Fatal(err)
	}
}

func TestLPRowAtLowerBound(t *testing.T) {
	// minimize x + y subject to x + 2y ≥ 4, x ∈ [0, 3], y ∈ [0, 5].
	// Hand-computed: y covers twice as much per unit cost, so y = 2, x = 0,
	// objective 2; y basic: 1 = 2·y0, y0 = 0.5; d_x = 1 - 0.5 = 0.5 ≥ 0 at
	// its lower bound.
	p := &solvers.Problem{Name: "ge_row"}
	p.AddRow(4, math.Inf(1), "")
	p.AddCol(1, 0, 3, solvers.Continuous, []int{0}, []float64{1}, "x")
	p.AddCol(1, 0, 5, solvers.Continuous, []int{0}, []float64{2}, "y")
	r := solveOK(t, p, nil)
	wantOptimal(t, r, 2)
	wantVec(t, "duals", r.Duals, []float64{0.5})
	wantVec(t, "reduced costs", r.ReducedCosts, []float64{0.5, 0})
}

// TestReducedCostQuirks covers the two columns for which lp_solve's own
// sensitivity array is wrong (see doc.go): a column without matrix entries
// and a column with only an upper bound.
func TestReducedCostQuirks(t *testing.T) {
	for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
		s := 1.0
		if sense == solvers.Maximize {
			s = -1
		}
		// minimize s·(2e - 3u + v) with e ∈ [1, 4] empty, u ≤ 4 upper-only,
		// v ≥ 0, row u + v ≥ -10 inactive at the optimum e = 1, u = 4, v = 0
		// (hand-computed; every column sits at a bound, the row dual is 0,
		// so d = c).
		p := &solvers.Problem{Name: "quirks", Sense: sense}
		p.AddRow(-10, math.Inf(1), "")
		p.AddCol(2*s, 1, 4, solvers.Continuous, nil, nil, "e")
		p.AddCol(-3*s, math.Inf(-1), 4, solvers.Continuous, []int{0}, []float64{1}, "u")
		p.AddCol(1*s, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{1}, "v")
		r := solveOK(t, p, nil)
		wantOptimal(t, r, s*(2-12))
		wantVec(t, "x", r.X, []float64{1, 4, 0})
		wantVec(t, "reduced costs", r.ReducedCosts, []float64{2 * s, -3 * s, 1 * s})
		if err := solvertest.CheckKKT(p, r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSmallMIP(t *testing.T) {
	// maximize 3x + 2y subject to x + y ≤ 4.5, x ∈ [0, 2.5], y ≥ 0, both
	// integer. Hand-computed: x ≤ 2 and x + y ≤ 4, so (2, 2) with value 10
	// beats (1, 3) = 9 and (2, 1) = 8; the LP relaxation gives 11.5.
	p := &solvers.Problem{Name: "small_mip", Sense: solvers.Maximize}
	p.AddRow(math.Inf(-1), 4.5, "")
	p.AddCol(3, 0, 2.5, solvers.Integer, []int{0}, []float64{1}, "x")
	p.AddCol(2, 0, math.Inf(1), solvers.Integer, []int{0}, []float64{1}, "y")
	r := solveOK(t, p, nil)
	wantOptimal(t, r, 10)
	wantVec(t, "x", r.X, []float64{2, 2})
	if r.HasDuals {
		t.Fatal("duals reported for a MIP")
	}
	if !near(r.BestBound, 10) {
		t.Fatalf("best bound %g, want 10", r.BestBound)
	}
}

func TestInfeasibleUnbounded(t *testing.T) {
	// x + y ≥ 3 and x + y ≤ 2 contradict each other.
	p := &solvers.Problem{Name: "infeasible"}
	p.AddRow(3, math.Inf(1), "")
	p.AddRow(math.Inf(-1), 2, "")
	p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "")
	p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "")
	if r := solveOK(t, p, nil); r.Status != solvers.Infeasible || r.HasSolution {
		t.Fatalf("status %v solution %v, want infeasible", r.Status, r.HasSolution)
	}
	// minimize -x with x - y ≤ 1, x, y ≥ 0: the ray (1, 1) is unbounded.
	q := &solvers.Problem{Name: "unbounded"}
	q.AddRow(math.Inf(-1), 1, "")
	q.AddCol(-1, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{1}, "")
	q.AddCol(0, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{-1}, "")
	if r := solveOK(t, q, nil); r.Status != solvers.Unbounded || r.HasSolution {
		t.Fatalf("status %v solution %v, want unbounded", r.Status, r.HasSolution)
	}
	// Column bounds lo > up are infeasible without running the engine; so is a
	// binary column with bounds [2, 5] (intersected with [0, 1]).
	c := &solvers.Problem{Name: "crossed"}
	c.AddCol(1, 2, 1, solvers.Continuous, nil, nil, "")
	if r := solveOK(t, c, nil); r.Status != solvers.Infeasible {
		t.Fatalf("crossed bounds: status %v", r.Status)
	}
	b := &solvers.Problem{Name: "binary_out"}
	b.AddCol(1, 2, 5, solvers.Binary, nil, nil, "")
	if r := solveOK(t, b, nil); r.Status != solvers.Infeasible {
		t.Fatalf("binary with bounds [2, 5]: status %v", r.Status)
	}
}

// boundsLP mixes a free column, a fixed column, a ranged row and a free row.
// minimize x + 2z subject to r0: 1 ≤ x + y ≤ 2 (ranged), r1: free x - z,
// r2: x + z ≥ -1; x free, y fixed at 3, z ∈ [0, 10]. Hand-computed: with
// y = 3, r0 gives x ∈ [-2, -1] and r2 gives z ≥ -1 - x, so the objective is
// x + 2·max(0, -1 - x), smallest at x = -1, z = 0 with value -1 (r0 = 2 at
// its upper bound, r2 = -1 at its lower bound). Several dual solutions
// exist (r0 and r2 both active), so only KKT is checked.
func boundsLP() *solvers.Problem {
	p := &solvers.Problem{Name: "bounds"}
	p.AddRow(1, 2, "ranged")
	p.AddRow(math.Inf(-1), math.Inf(1), "free")
	p.AddRow(-1, math.Inf(1), "")
	p.AddCol(1, math.Inf(-1), math.Inf(1), solvers.Continuous, []int{0, 1, 2}, []float64{1, 1, 1}, "x")
	p.AddCol(0, 3, 3, solvers.Continuous, []int{0}, []float64{1}, "y")
	p.AddCol(2, 0, 10, solvers.Continuous, []int{1, 2}, []float64{-1, 1}, "z")
	return p
}

func TestFreeFixedRangedFree(t *testing.T) {
	p := boundsLP()
	r := solveOK(t, p, nil)
	wantOptimal(t, r, -1)
	wantVec(t, "x", r.X, []float64{-1, 3, 0})
	if r.Duals[1] != 0 {
		t.Fatalf("free row dual %g, want 0", r.Duals[1])
	}
	if err := solvertest.CheckKKT(p, r); err != nil {
		t.Fatal(err)
	}
	// Maximize x + 2z instead: z ≤ 10 and x ≤ -1 from r0 give x = -1,
	// z = 10, value 19 (hand-computed).
	p.Sense = solvers.Maximize
	r = solveOK(t, p, nil)
	wantOptimal(t, r, 19)
	if err := solvertest.CheckKKT(p, r); err != nil {
		t.Fatal(err)
	}
	// Ranged row active at its lower bound: minimize x alone. r0 = x + 3 ≥ 1
	// gives x ≥ -2, and z = 1 satisfies r2 at x = -2: objective -2
	// (hand-computed).
	p.Sense = solvers.Minimize
	p.Obj[2] = 0
	r = solveOK(t, p, nil)
	wantOptimal(t, r, -2)
	wantVec(t, "x", r.X[:1], []float64{-2})
	if err := solvertest.CheckKKT(p, r); err != nil {
		t.Fatal(err)
	}
}

func TestEmptyModels(t *testing.T) {
	// No columns: A x = 0, so the rows decide feasibility; objective = offset.
	p := &solvers.Problem{Name: "empty", Offset: -1.25}
	p.AddRow(-1, 1, "")
	r := solveOK(t, p, nil)
	wantOptimal(t, r, -1.25)
	if len(r.X) != 0 || len(r.Duals) != 1 {
		t.Fatalf("x %v duals %v", r.X, r.Duals)
	}
	p.RowLower[0] = 0.5
	if r := solveOK(t, p, nil); r.Status != solvers.Infeasible {
		t.Fatalf("row [0.5, 1] over no columns: status %v", r.Status)
	}
}

func TestParams(t *testing.T) {
	p := upperLP(solvers.Minimize)
	r := solveOK(t, p, &solvers.Params{TimeLimit: 1500 * time.Millisecond, Threads: 4})
	wantOptimal(t, r, 1.5)
	joined := strings.Join(r.Warnings, "; ")
	if !strings.Contains(joined, "rounded up to 2s") || !strings.Contains(joined, "single-threaded") {
		t.Fatalf("warnings %q", joined)
	}
	raw := map[string]string{
		"scaling": "4", "pivoting": "devex", "improve": "6", "bb_rule": "depth", "bb_depthlimit": "-50",
		"bb_floorfirst": "ceiling", "simplex_type": "primal_primal", "epsint": "1e-7", "epsel": "1e-12",
		"epsd": "1e-9", "epspivot": "2e-7", "epslevel": "tight",
	}
	if _, err := New().Solve(p, &solvers.Params{Raw: raw}); !errors.Is(err, solvers.ErrUnsupported) {
		t.Fatalf("bb_rule=depth: err %v, want ErrUnsupported", err)
	}
	raw["bb_rule"] = "pseudocost"
	r = solveOK(t, p, &solvers.Params{Raw: raw, FeasTol: 1e-9})
	wantOptimal(t, r, 1.5)
	if _, err := New().Solve(p, &solvers.Params{Raw: map[string]string{"nope": "1"}}); !errors.Is(err, solvers.ErrUnsupported) {
		t.Fatalf("unknown option: err %v", err)
	}
	if _, err := New().NewSession(p, &solvers.Params{Raw: map[string]string{"presolve": "rows"}}); !errors.Is(err, solvers.ErrUnsupported) {
		t.Fatalf("presolve in a session: err %v", err)
	}
}

func TestPresolveRaw(t *testing.T) {
	// With presolve removing the fixed column and rows, values must still be
	// reported by original index (lp_solve's own arrays shrink).
	p := boundsLP()
	for _, mode := range []string{"rows", "cols", "lindep", "rows+cols+lindep", "7"} {
		r := solveOK(t, p, &solvers.Params{Raw: map[string]string{"presolve": mode}})
		wantOptimal(t, r, -1)
		if err := solvertest.CheckPrimal(p, r); err != nil {
			t.Fatalf("presolve %s: %v", mode, err)
		}
		if r.HasDuals {
			t.Fatalf("presolve %s: duals reported", mode)
		}
	}
}

func sessionOK(t *testing.T, p *solvers.Problem) solvers.Session {
	t.Helper()
	s, err := New().NewSession(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func sameAsCold(t *testing.T, s solvers.Session, ref *solvers.ReloadSession) *solvers.Result {
	t.Helper()
	r, err := s.Solve()
	if err != nil {
		t.Fatal(err)
	}
	c, err := ref.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != c.Status || (c.HasSolution && !near(r.Objective, c.Objective)) {
		t.Fatalf("session %v %.10g, cold %v %.10g", r.Status, r.Objective, c.Status, c.Objective)
	}
	if c.Status == solvers.Optimal && !ref.Problem().IsMIP() {
		if err := solvertest.CheckKKT(ref.Problem(), r); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestSessionEdits(t *testing.T) {
	p := boundsLP()
	p.Offset = 2.5 // set_rh(lp, 0, ·) must survive set_maxim / set_minim
	s := sessionOK(t, p)
	ref, _ := solvers.NewReloadSession(New(), p, nil)
	sameAsCold(t, s, ref)
	edit := func(f func(s solvers.Session) error) {
		t.Helper()
		if err := f(s); err != nil {
			t.Fatal(err)
		}
		if err := f(ref); err != nil {
			t.Fatal(err)
		}
		sameAsCold(t, s, ref)
	}
	// Add a column w ≥ 0 with cost -1 in r2 (coefficient -1) and the ranged row.
	edit(func(s solvers.Session) error {
		return s.AddCols([]float64{-1}, []float64{0}, []float64{4}, nil, []int{0, 2}, []int{0, 2}, []float64{0.5, -1})
	})
	edit(func(s solvers.Session) error { return s.SetSense(solvers.Maximize) })
	edit(func(s solvers.Session) error { return s.SetObjective([]int{0, 3}, []float64{-2, 1}) })
	edit(func(s solvers.Session) error { return s.SetColBounds(1, 2, 2.5) })
	edit(func(s solvers.Session) error { return s.SetRowBounds(1, -3, 3) }) // free row gets bounds
	edit(func(s solvers.Session) error { return s.SetRowBounds(0, math.Inf(-1), math.Inf(1)) })
	edit(func(s solvers.Session) error {
		return s.AddRows([]float64{-1}, []float64{1}, []int{0, 3}, []int{0, 2, 3}, []float64{1, 1, 1})
	})
	edit(func(s solvers.Session) error { return s.SetSense(solvers.Minimize) })
	edit(func(s solvers.Session) error { return s.SetRowBounds(2, 5, 4) }) // crossed: infeasible
	edit(func(s solvers.Session) error { return s.SetRowBounds(2, -1, 4) })
	// A binary column with wide bounds is clipped to [0, 1].
	edit(func(s solvers.Session) error {
		return s.AddCols([]float64{-3}, []float64{0}, []float64{7}, []solvers.VarType{solvers.Binary}, []int{0, 1}, []int{2}, []float64{1})
	})
	edit(func(s solvers.Session) error { return s.SetColBounds(4, -5, 5) })
	if s.NumCols() != 5 || s.NumRows() != 4 {
		t.Fatalf("session shape %dx%d, want 4x5", s.NumRows(), s.NumCols())
	}
	if err := s.SetColBounds(9, 0, 1); !errors.Is(err, solvers.ErrInvalidProblem) {
		t.Fatalf("bad column: %v", err)
	}
	s.Close()
	if _, err := s.Solve(); !errors.Is(err, solvers.ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// setPartitioningSplit returns the LP relaxation of a 100 x 1000
// set-partitioning problem with the (up to) k columns used by its optimum
// moved to the end, so that adding them back changes the optimum.
func setPartitioningSplit(t testing.TB, k int) (full *solvers.Problem, n0 int) {
	orig := solvertest.SetPartitioning(rand.New(rand.NewPCG(7, 8)), 100, 1000, 8, false)
	r, err := New().Solve(orig, nil)
	if err != nil || r.Status != solvers.Optimal {
		t.Fatalf("set partitioning: %v %v", err, r)
	}
	var used, rest []int
	for j := range r.X {
		if r.X[j] > 1e-6 && len(used) < k {
			used = append(used, j)
		} else {
			rest = append(rest, j)
		}
	}
	full = &solvers.Problem{Name: "setpart_split"}
	for i := 0; i < orig.NumRows(); i++ {
		full.AddRow(1, 1, "")
	}
	for _, j := range append(rest, used...) {
		rr, vv := orig.Column(j)
		full.AddCol(orig.Obj[j], 0, 1, solvers.Continuous, rr, vv, "")
	}
	return full, len(rest)
}

func head(p *solvers.Problem, n int) *solvers.Problem {
	q := p.Clone()
	q.Obj, q.ColLower, q.ColUpper = q.Obj[:n], q.ColLower[:n], q.ColUpper[:n]
	q.ColStart = q.ColStart[:n+1]
	q.RowIndex, q.Value = q.RowIndex[:q.ColStart[n]], q.Value[:q.ColStart[n]]
	return q
}

func tail(p *solvers.Problem, n int) (obj, lo, up []float64, start, rows []int, vals []float64) {
	start = []int{0}
	for j := n; j < p.NumCols(); j++ {
		rr, vv := p.Column(j)
		rows = append(rows, rr...)
		vals = append(vals, vv...)
		start = append(start, len(rows))
	}
	return p.Obj[n:], p.ColLower[n:], p.ColUpper[n:], start, rows, vals
}

func TestSessionAddColumnsWarm(t *testing.T) {
	full, n0 := setPartitioningSplit(t, 10)
	cold := solveOK(t, full, nil)
	s := sessionOK(t, head(full, n0))
	if _, err := s.Solve(); err != nil {
		t.Fatal(err)
	}
	obj, lo, up, start, rows, vals := tail(full, n0)
	if err := s.AddCols(obj, lo, up, nil, start, rows, vals); err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve()
	if err != nil {
		t.Fatal(err)
	}
	wantOptimal(t, r, cold.Objective)
	if err := solvertest.CheckKKT(full, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("add %d columns: warm re-solve %d iterations, cold solve %d", full.NumCols()-n0, r.Iterations, cold.Iterations)
	if r.Iterations >= cold.Iterations {
		t.Fatalf("warm re-solve took %d iterations, cold %d", r.Iterations, cold.Iterations)
	}
}

func TestSessionAddRowsWarm(t *testing.T) {
	p := solvertest.SetPartitioning(rand.New(rand.NewPCG(7, 8)), 100, 1000, 8, false)
	s := sessionOK(t, p)
	ref, _ := solvers.NewReloadSession(New(), p, nil)
	r := sameAsCold(t, s, ref)
	// Cut off the optimum: the columns in use may sum to at most 80 % of
	// their current sum.
	var cols []int
	var vals []float64
	sum := 0.0
	for j, v := range r.X {
		if v > 1e-6 && len(cols) < 20 {
			cols = append(cols, j)
			vals = append(vals, 1)
			sum += v
		}
	}
	add := func(s solvers.Session) error {
		return s.AddRows([]float64{math.Inf(-1)}, []float64{0.8 * sum}, []int{0, len(cols)}, cols, vals)
	}
	if err := add(s); err != nil {
		t.Fatal(err)
	}
	if err := add(ref); err != nil {
		t.Fatal(err)
	}
	w := sameAsCold(t, s, ref)
	cold := solveOK(t, ref.Problem(), nil)
	t.Logf("add a cut: warm re-solve %d iterations, cold solve %d", w.Iterations, cold.Iterations)
	if w.Iterations >= cold.Iterations {
		t.Fatalf("warm re-solve took %d iterations, cold %d", w.Iterations, cold.Iterations)
	}
}

func TestTimeLimitMIP(t *testing.T) {
	if testing.Short() {
		t.Skip("hard MIP runs for the full time limit")
	}
	// Market split (Cornuéjols & Dawande) with 6 rows: far beyond lp_solve's
	// branch and bound in a second, with the zero-slack point as incumbent.
	p := solvertest.MarketSplit(rand.New(rand.NewPCG(5, 6)), 6)
	r := solveOK(t, p, &solvers.Params{TimeLimit: time.Second})
	if r.Status != solvers.TimeLimit || !r.HasSolution {
		t.Fatalf("status %v solution %v, want time_limit with an incumbent", r.Status, r.HasSolution)
	}
	if err := solvertest.CheckPrimal(p, r); err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(r.BestBound) || r.BestBound > r.Objective+1e-9 {
		t.Fatalf("best bound %g for incumbent %g", r.BestBound, r.Objective)
	}
	if r.Nodes == 0 || r.Iterations == 0 {
		t.Fatalf("nodes %d iterations %d", r.Nodes, r.Iterations)
	}
}

func TestRegistry(t *testing.T) {
	e, v, err := solvers.Lookup("lpsolve")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v, "5.5.") || e.LPRank != 3 || e.MIPRank != 3 || !e.Caps.WarmStart {
		t.Fatalf("engine %+v version %q", e, v)
	}
}

func BenchmarkSessionAddColumns(b *testing.B) {
	full, n0 := setPartitioningSplit(b, 10)
	obj, lo, up, start, rows, vals := tail(full, n0)
	for b.Loop() {
		s, err := New().NewSession(head(full, n0), nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Solve()
		s.AddCols(obj, lo, up, nil, start, rows, vals)
		s.Solve()
		s.Close()
	}
}

func BenchmarkColdSolve(b *testing.B) {
	full, _ := setPartitioningSplit(b, 10)
	for b.Loop() {
		New().Solve(full, nil)
	}
}

// TestSessionDroppedWithoutClose exercises the cleanup safety net: dropped
// sessions are freed by the runtime without crashing.
func TestSessionDroppedWithoutClose(t *testing.T) {
	for i := 0; i < 20; i++ {
		s, err := New().NewSession(boundsLP(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Solve(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
}
