package hungarian_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/internal/costtest"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/native/hungarian"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

var inf = math.Inf(1)

var randomCost = costtest.RandomCost

// bruteForce returns the minimum total over all permutations (+Inf when
// every permutation uses a forbidden edge), by Heap's algorithm.
func bruteForce(n int, cost []float64) float64 {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	eval := func() float64 {
		s := 0.0
		for i, j := range perm {
			s += cost[i*n+j]
		}
		return s
	}
	best := eval()
	c := make([]int, n)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				perm[0], perm[i] = perm[i], perm[0]
			} else {
				perm[c[i]], perm[i] = perm[i], perm[c[i]]
			}
			best = math.Min(best, eval())
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
	return best
}

// checkAssignment verifies that assign is a permutation of finite-cost
// entries whose cost sum is total.
func checkAssignment(t *testing.T, n int, cost []float64, assign []int, total float64) {
	t.Helper()
	if len(assign) != n {
		t.Fatalf("len(assign) = %d, want %d", len(assign), n)
	}
	seen := make([]bool, n)
	sum := 0.0
	for i, j := range assign {
		if j < 0 || j >= n || seen[j] {
			t.Fatalf("assign = %v is not a permutation", assign)
		}
		seen[j] = true
		if math.IsInf(cost[i*n+j], 1) {
			t.Fatalf("row %d assigned to forbidden column %d", i, j)
		}
		sum += cost[i*n+j]
	}
	if math.Abs(sum-total) > 1e-9*math.Max(1, math.Abs(sum)) {
		t.Fatalf("total = %v, sum of assigned costs = %v", total, sum)
	}
}

func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	type kind struct {
		pInf   float64
		levels int
		lo     float64
	}
	kinds := []kind{
		{0, 0, 0},      // distinct floats
		{0, 3, 0},      // heavy ties
		{0, 1, 5},      // all equal
		{0.3, 0, 0},    // forbidden edges
		{0.5, 4, -2},   // forbidden edges, ties, negative costs
		{0.7, 10, 0},   // often infeasible
		{0.2, 0, -500}, // mixed signs
	}
	feasible, infeasible := 0, 0
	for n := 1; n <= 8; n++ {
		reps := 60
		if n == 8 {
			reps = 12
		}
		for _, kd := range kinds {
			for r := 0; r < reps; r++ {
				cost := randomCost(rng, n, kd.pInf, kd.levels, kd.lo)
				want := bruteForce(n, cost)
				assign, total, err := hungarian.Solve(n, cost)
				if math.IsInf(want, 1) {
					if !errors.Is(err, hungarian.ErrInfeasible) {
						t.Fatalf("n=%d %+v: no finite permutation, got err=%v assign=%v", n, kd, err, assign)
					}
					infeasible++
					continue
				}
				if err != nil {
					t.Fatalf("n=%d %+v: %v (brute force %v)", n, kd, err, want)
				}
				checkAssignment(t, n, cost, assign, total)
				if math.Abs(total-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Fatalf("n=%d %+v: total %v, brute force %v\ncost=%v", n, kd, total, want, cost)
				}
				feasible++
			}
		}
	}
	if feasible < 1000 || infeasible < 50 {
		t.Fatalf("weak coverage: %d feasible, %d infeasible instances", feasible, infeasible)
	}
}

func lpEngines(t *testing.T) []string { t.Helper(); return costtest.LPEngines(t) }

// TestAgainstLP compares with the assignment LP (lp.SolveKRegular, b = 1)
// solved by every available LP engine: the LP has integral vertices, so its
// optimum is the assignment optimum.
func TestAgainstLP(t *testing.T) {
	engines := lpEngines(t)
	rng := rand.New(rand.NewPCG(8, 2))
	for _, n := range []int{2, 5, 10, 17, 30} {
		for r := 0; r < 4; r++ {
			pInf := []float64{0, 0.3, 0.6, 0}[r]
			levels := []int{0, 0, 5, 2}[r]
			cost := randomCost(rng, n, pInf, levels, -100)
			assign, total, err := hungarian.Solve(n, cost)
			for _, e := range engines {
				_, lpTotal, lpErr := lp.SolveKRegular(n, 1, cost, e)
				if lpErr != nil {
					if errors.Is(lpErr, lp.ErrNoKRegular) && errors.Is(err, hungarian.ErrInfeasible) {
						continue
					}
					t.Fatalf("n=%d r=%d %s: LP error %v, hungarian error %v", n, r, e, lpErr, err)
				}
				if err != nil {
					t.Fatalf("n=%d r=%d: hungarian %v, LP (%s) optimum %v", n, r, err, e, lpTotal)
				}
				checkAssignment(t, n, cost, assign, total)
				if math.Abs(total-lpTotal) > 1e-7*math.Max(1, math.Abs(total)) {
					t.Fatalf("n=%d r=%d: hungarian %v, LP (%s) %v", n, r, total, e, lpTotal)
				}
			}
		}
	}
}

// TestPermutationInvariance: permuting rows and columns permutes the
// optimal assignment and keeps the optimal total (larger n than brute force
// can reach, no engine needed).
func TestPermutationInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	for _, n := range []int{50, 200} {
		cost := randomCost(rng, n, 0.2, 0, 0)
		_, total, err := hungarian.Solve(n, cost)
		if err != nil {
			t.Fatal(err)
		}
		rp, cp := rng.Perm(n), rng.Perm(n)
		pc := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				pc[i*n+j] = cost[rp[i]*n+cp[j]]
			}
		}
		assign, ptotal, err := hungarian.Solve(n, pc)
		if err != nil {
			t.Fatal(err)
		}
		checkAssignment(t, n, pc, assign, ptotal)
		if math.Abs(total-ptotal) > 1e-9*total {
			t.Fatalf("n=%d: total %v, permuted %v", n, total, ptotal)
		}
	}
}

func TestKnown(t *testing.T) {
	// Hand-checked 3×3 with a unique optimum: the cyclic shift 0→1, 1→2,
	// 2→0 costs 1+1+1 = 3; every other permutation uses an entry ≥ 5.
	cost := []float64{
		5, 1, 9,
		9, 5, 1,
		1, 9, 5,
	}
	assign, total, err := hungarian.Solve(3, cost)
	if err != nil {
		t.Fatal(err)
	}
	if total != 3 || assign[0] != 1 || assign[1] != 2 || assign[2] != 0 {
		t.Fatalf("assign = %v total = %v, want [1 2 0] 3", assign, total)
	}
	// Forcing by forbidden edges: the only finite permutation is the
	// anti-diagonal.
	cost = []float64{
		inf, inf, 7,
		inf, -2, inf,
		4, inf, inf,
	}
	assign, total, err = hungarian.Solve(3, cost)
	if err != nil {
		t.Fatal(err)
	}
	if total != 9 || assign[0] != 2 || assign[1] != 1 || assign[2] != 0 {
		t.Fatalf("assign = %v total = %v, want [2 1 0] 9", assign, total)
	}
}

func TestSmall(t *testing.T) {
	assign, total, err := hungarian.Solve(0, nil)
	if err != nil || len(assign) != 0 || total != 0 {
		t.Fatalf("n=0: %v %v %v", assign, total, err)
	}
	assign, total, err = hungarian.Solve(1, []float64{-3.5})
	if err != nil || len(assign) != 1 || assign[0] != 0 || total != -3.5 {
		t.Fatalf("n=1: %v %v %v", assign, total, err)
	}
	if _, _, err = hungarian.Solve(1, []float64{inf}); !errors.Is(err, hungarian.ErrInfeasible) {
		t.Fatalf("n=1 forbidden: err = %v", err)
	}
}

func TestInfeasible(t *testing.T) {
	n := 6
	rng := rand.New(rand.NewPCG(8, 4))
	// A row of +Inf only.
	cost := randomCost(rng, n, 0, 0, 0)
	for j := 0; j < n; j++ {
		cost[3*n+j] = inf
	}
	if _, _, err := hungarian.Solve(n, cost); !errors.Is(err, hungarian.ErrInfeasible) {
		t.Fatalf("row of +Inf: err = %v", err)
	}
	// A column of +Inf only.
	cost = randomCost(rng, n, 0, 0, 0)
	for i := 0; i < n; i++ {
		cost[i*n+4] = inf
	}
	if _, _, err := hungarian.Solve(n, cost); !errors.Is(err, hungarian.ErrInfeasible) {
		t.Fatalf("column of +Inf: err = %v", err)
	}
	// Hall violation: rows 0, 1, 2 may only use columns 0 and 1 (every row
	// and column still has a finite entry).
	cost = randomCost(rng, n, 0, 0, 0)
	for i := 0; i < 3; i++ {
		for j := 2; j < n; j++ {
			cost[i*n+j] = inf
		}
	}
	if _, _, err := hungarian.Solve(n, cost); !errors.Is(err, hungarian.ErrInfeasible) {
		t.Fatalf("Hall violation: err = %v", err)
	}
	// Hall violation found only by the last row.
	cost = randomCost(rng, n, 0, 0, 0)
	for i := 0; i < n; i++ {
		if i == 0 || i == n-1 {
			for j := 1; j < n; j++ {
				cost[i*n+j] = inf
			}
		}
	}
	if _, _, err := hungarian.Solve(n, cost); !errors.Is(err, hungarian.ErrInfeasible) {
		t.Fatalf("two rows on one column: err = %v", err)
	}
}

func TestMalformed(t *testing.T) {
	good := []float64{1, 2, 3, 4}
	cases := []struct {
		name string
		n    int
		cost []float64
	}{
		{"negative n", -1, nil},
		{"short", 2, good[:3]},
		{"long", 1, good},
		{"nil with n=1", 1, nil},
		{"NaN", 2, []float64{1, math.NaN(), 3, 4}},
		{"-Inf", 2, []float64{1, 2, math.Inf(-1), 4}},
	}
	for _, c := range cases {
		if _, _, err := hungarian.Solve(c.n, c.cost); !errors.Is(err, hungarian.ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", c.name, err)
		}
	}
	// The input is not modified.
	cp := append([]float64(nil), good...)
	if _, _, err := hungarian.Solve(2, cp); err != nil {
		t.Fatal(err)
	}
	for k := range cp {
		if cp[k] != good[k] {
			t.Fatal("Solve modified the cost matrix")
		}
	}
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 5))
	n := 40
	cost := randomCost(rng, n, 0.1, 3, 0) // many ties
	a1, t1, err := hungarian.Solve(n, cost)
	if err != nil {
		t.Fatal(err)
	}
	a2, t2, err := hungarian.Solve(n, cost)
	if err != nil {
		t.Fatal(err)
	}
	if t1 != t2 {
		t.Fatalf("totals differ: %v %v", t1, t2)
	}
	for i := range a1 {
		if a1[i] != a2[i] {
			t.Fatalf("assignments differ at row %d", i)
		}
	}
}

// TestAgainstLPLarge: larger instances against the first available LP
// engine in name order; skipped under -short.
func TestAgainstLPLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large LP cross-check")
	}
	engines := lpEngines(t)
	rng := rand.New(rand.NewPCG(8, 6))
	for _, c := range []struct {
		n      int
		pInf   float64
		levels int
	}{{150, 0, 0}, {200, 0.6, 0}, {200, 0.1, 5}} {
		cost := randomCost(rng, c.n, c.pInf, c.levels, 0)
		assign, total, err := hungarian.Solve(c.n, cost)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		checkAssignment(t, c.n, cost, assign, total)
		_, lpTotal, err := lp.SolveKRegular(c.n, 1, cost, engines[0])
		if err != nil {
			t.Fatalf("%+v: LP (%s): %v", c, engines[0], err)
		}
		if math.Abs(total-lpTotal) > 1e-7*math.Max(1, math.Abs(total)) {
			t.Fatalf("%+v: hungarian %v, LP (%s) %v", c, total, engines[0], lpTotal)
		}
	}
}

// TestStop: a stop function that reports true gives up with hungarian.ErrStopped
// (dense and sparse), the kanon deadline of issue 44, item 16; one that
// never does gives Solve's answer.
func TestStop(t *testing.T) {
	const n = 60
	rng := rand.New(rand.NewPCG(44, 16))
	cost := make([]float64, n*n)
	for x := range cost {
		cost[x] = rng.Float64()
	}
	want, wantTotal, err := hungarian.Solve(n, cost)
	if err != nil {
		t.Fatal(err)
	}
	sp := &hungarian.Sparse{N: n, Start: make([]int, n+1)}
	for i := range n {
		for j := range n {
			sp.Cols, sp.Cost = append(sp.Cols, int32(j)), append(sp.Cost, cost[i*n+j])
		}
		sp.Start[i+1] = len(sp.Cols)
	}
	for _, calls := range []int{0, 2, 1 << 30} {
		c := 0
		stop := func() bool { c++; return c > calls }
		a, total, err := hungarian.SolveStop(n, cost, stop)
		if calls < n && !errors.Is(err, hungarian.ErrStopped) {
			t.Errorf("dense, stop after %d calls: %v", calls, err)
		}
		if calls >= n && (err != nil || total != wantTotal || !slices.Equal(a, want)) {
			t.Errorf("dense, never stopped: %v, total %v want %v", err, total, wantTotal)
		}
		c = 0
		sp.Stop = stop
		a, total, err = hungarian.SolveSparse(sp)
		if calls < n && !errors.Is(err, hungarian.ErrStopped) {
			t.Errorf("sparse, stop after %d calls: %v", calls, err)
		}
		if calls >= n && (err != nil || math.Abs(total-wantTotal) > 1e-9) {
			t.Errorf("sparse, never stopped: %v, total %v want %v (%v)", err, total, wantTotal, a)
		}
	}
}
