package mincostflow_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/internal/costtest"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/native/hungarian"
	"github.com/sdcopt/sdcopt/native/mincostflow"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

var inf = math.Inf(1)

var randomCost = costtest.RandomCost

var bruteForce = costtest.BruteKRegular

func checkSelection(t *testing.T, n, b int, cost []float64, chosen [][]int32, total float64) {
	t.Helper()
	costtest.CheckKRegular(t, n, b, cost, chosen, total)
}

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Max(1, math.Abs(b)) }

func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 11))
	type kind struct {
		pInf   float64
		levels int
		lo     float64
	}
	kinds := []kind{
		{0, 0, 0},
		{0, 3, 0},
		{0, 1, 2},
		{0.25, 0, 0},
		{0.4, 4, -2},
		{0.6, 10, 0},
		{0.15, 0, -500},
	}
	feasible, infeasible := 0, 0
	for n := 1; n <= 5; n++ {
		for b := 0; b <= 3 && b <= n; b++ {
			reps := 25
			if n == 5 && b >= 2 {
				reps = 6
			}
			for _, kd := range kinds {
				for r := 0; r < reps; r++ {
					cost := randomCost(rng, n, kd.pInf, kd.levels, kd.lo)
					want := bruteForce(n, b, cost)
					chosen, total, err := mincostflow.KRegular(n, b, cost)
					if math.IsInf(want, 1) {
						if !errors.Is(err, mincostflow.ErrInfeasible) {
							t.Fatalf("n=%d b=%d %+v: no selection exists, got err=%v chosen=%v", n, b, kd, err, chosen)
						}
						infeasible++
						continue
					}
					if err != nil {
						t.Fatalf("n=%d b=%d %+v: %v (brute force %v)\ncost=%v", n, b, kd, err, want, cost)
					}
					checkSelection(t, n, b, cost, chosen, total)
					if !near(total, want, 1e-9) {
						t.Fatalf("n=%d b=%d %+v: total %v, brute force %v\ncost=%v", n, b, kd, total, want, cost)
					}
					feasible++
				}
			}
		}
	}
	if feasible < 500 || infeasible < 50 {
		t.Fatalf("weak coverage: %d feasible, %d infeasible", feasible, infeasible)
	}
}

// TestHungarian: b = 1 is the assignment problem.
func TestHungarian(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 12))
	for _, n := range []int{1, 7, 30, 100, 300} {
		for r := 0; r < 3; r++ {
			pInf := []float64{0, 0.5, 0.2}[r]
			levels := []int{0, 0, 4}[r]
			cost := randomCost(rng, n, pInf, levels, -10)
			_, htotal, herr := hungarian.Solve(n, cost)
			chosen, total, err := mincostflow.KRegular(n, 1, cost)
			if herr != nil || err != nil {
				if errors.Is(herr, hungarian.ErrInfeasible) && errors.Is(err, mincostflow.ErrInfeasible) {
					continue
				}
				t.Fatalf("n=%d r=%d: hungarian %v, KRegular %v", n, r, herr, err)
			}
			checkSelection(t, n, 1, cost, chosen, total)
			if !near(total, htotal, 1e-9) {
				t.Fatalf("n=%d r=%d: KRegular %v, hungarian %v", n, r, total, htotal)
			}
		}
	}
}

func lpEngines(t *testing.T) []string { t.Helper(); return costtest.LPEngines(t) }

// TestAgainstLP compares with the transportation LP (lp.SolveKRegular)
// solved by every available LP engine (integral vertices: its optimum is
// the b-regular optimum).
func TestAgainstLP(t *testing.T) {
	engines := lpEngines(t)
	rng := rand.New(rand.NewPCG(8, 13))
	sizes := []int{3, 8, 15, 25, 40}
	if testing.Short() {
		sizes = []int{3, 8, 15}
	}
	checked := 0
	for _, n := range sizes {
		for r := 0; r < 4; r++ {
			b := 1 + rng.IntN(min(n, 5))
			pInf := []float64{0, 0.3, 0.7, 0.1}[r]
			levels := []int{0, 0, 3, 2}[r]
			cost := randomCost(rng, n, pInf, levels, -50)
			chosen, total, err := mincostflow.KRegular(n, b, cost)
			for _, e := range engines {
				_, lpTotal, lpErr := lp.SolveKRegular(n, b, cost, e)
				if lpErr != nil || err != nil {
					if errors.Is(lpErr, lp.ErrNoKRegular) && errors.Is(err, mincostflow.ErrInfeasible) {
						continue
					}
					t.Fatalf("n=%d b=%d r=%d %s: LP %v, KRegular %v", n, b, r, e, lpErr, err)
				}
				checkSelection(t, n, b, cost, chosen, total)
				if !near(total, lpTotal, 1e-7) {
					t.Fatalf("n=%d b=%d r=%d: KRegular %v, LP (%s) %v", n, b, r, total, e, lpTotal)
				}
				checked++
			}
		}
	}
	if checked < len(engines)*len(sizes) {
		t.Fatalf("only %d feasible comparisons", checked)
	}
}

func TestInfeasible(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 14))
	n, b := 8, 3
	// A row with only b−1 finite costs.
	cost := randomCost(rng, n, 0, 0, 0)
	for j := b - 1; j < n; j++ {
		cost[2*n+j] = inf
	}
	if _, _, err := mincostflow.KRegular(n, b, cost); !errors.Is(err, mincostflow.ErrInfeasible) {
		t.Fatalf("short row: err = %v", err)
	}
	// A column with only b−1 finite costs.
	cost = randomCost(rng, n, 0, 0, 0)
	for i := b - 1; i < n; i++ {
		cost[i*n+5] = inf
	}
	if _, _, err := mincostflow.KRegular(n, b, cost); !errors.Is(err, mincostflow.ErrInfeasible) {
		t.Fatalf("short column: err = %v", err)
	}
	// Hall-type violation although every row and column has ≥ b finite
	// costs: rows 0..4 may only use columns 0..3, needing 5·3 = 15 units
	// where those columns hold 4·3 = 12.
	cost = randomCost(rng, n, 0, 0, 0)
	for i := 0; i < 5; i++ {
		for j := 4; j < n; j++ {
			cost[i*n+j] = inf
		}
	}
	if _, _, err := mincostflow.KRegular(n, b, cost); !errors.Is(err, mincostflow.ErrInfeasible) {
		t.Fatalf("Hall violation: err = %v", err)
	}
	// The same with 4 rows is feasible (rows 0..3 fill columns 0..3).
	cost = randomCost(rng, n, 0, 0, 0)
	for i := 0; i < 4; i++ {
		for j := 4; j < n; j++ {
			cost[i*n+j] = inf
		}
	}
	chosen, total, err := mincostflow.KRegular(n, b, cost)
	if err != nil {
		t.Fatalf("tight but feasible: %v", err)
	}
	checkSelection(t, n, b, cost, chosen, total)
}

func TestSmall(t *testing.T) {
	chosen, total, err := mincostflow.KRegular(0, 0, nil)
	if err != nil || len(chosen) != 0 || total != 0 {
		t.Fatalf("n=0: %v %v %v", chosen, total, err)
	}
	chosen, total, err = mincostflow.KRegular(1, 1, []float64{-2})
	if err != nil || len(chosen) != 1 || len(chosen[0]) != 1 || chosen[0][0] != 0 || total != -2 {
		t.Fatalf("n=1: %v %v %v", chosen, total, err)
	}
	// b = 0: the empty selection.
	chosen, total, err = mincostflow.KRegular(2, 0, []float64{1, inf, inf, inf})
	if err != nil || len(chosen) != 2 || len(chosen[0]) != 0 || len(chosen[1]) != 0 || total != 0 {
		t.Fatalf("b=0: %v %v %v", chosen, total, err)
	}
	// b = n: everything, when every cost is finite.
	cost := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	chosen, total, err = mincostflow.KRegular(3, 3, cost)
	if err != nil {
		t.Fatal(err)
	}
	checkSelection(t, 3, 3, cost, chosen, total)
	if total != 45 {
		t.Fatalf("b=n: total %v, want 45", total)
	}
	// Hand-checked b = 2, n = 3: a 2-regular selection on 3×3 is the
	// complement of a permutation; dropping the anti-diagonal (the three
	// entries 10) leaves six entries 1, total 6.
	cost = []float64{
		1, 1, 10,
		1, 10, 1,
		10, 1, 1,
	}
	chosen, total, err = mincostflow.KRegular(3, 2, cost)
	if err != nil {
		t.Fatal(err)
	}
	checkSelection(t, 3, 2, cost, chosen, total)
	if total != 6 {
		t.Fatalf("b=2: total %v, want 6 (chosen %v)", total, chosen)
	}
}

func TestMalformed(t *testing.T) {
	for _, c := range costtest.MalformedKRegular() {
		if _, _, err := mincostflow.KRegular(c.N, c.B, c.Cost); !errors.Is(err, mincostflow.ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", c.Name, err)
		}
	}
}

// TestPermutationInvariance: relabelling rows and columns keeps the
// optimal total (sizes beyond the LP cross-check).
func TestPermutationInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 15))
	n, b := 150, 4
	cost := randomCost(rng, n, 0.3, 0, 0)
	_, total, err := mincostflow.KRegular(n, b, cost)
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
	chosen, ptotal, err := mincostflow.KRegular(n, b, pc)
	if err != nil {
		t.Fatal(err)
	}
	checkSelection(t, n, b, pc, chosen, ptotal)
	if !near(ptotal, total, 1e-9) {
		t.Fatalf("total %v, permuted %v", total, ptotal)
	}
}

// TestAgainstLPLarge: longer augmenting paths than the small cases, against
// the first available LP engine in name order; skipped under -short.
func TestAgainstLPLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large LP cross-check")
	}
	engines := lpEngines(t)
	rng := rand.New(rand.NewPCG(8, 16))
	for _, c := range []struct {
		n, b   int
		pInf   float64
		levels int
	}{{100, 3, 0, 0}, {120, 5, 0.5, 0}, {150, 2, 0.2, 6}} {
		cost := randomCost(rng, c.n, c.pInf, c.levels, 0)
		chosen, total, err := mincostflow.KRegular(c.n, c.b, cost)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		checkSelection(t, c.n, c.b, cost, chosen, total)
		_, lpTotal, err := lp.SolveKRegular(c.n, c.b, cost, engines[0])
		if err != nil {
			t.Fatalf("%+v: LP (%s): %v", c, engines[0], err)
		}
		if !near(total, lpTotal, 1e-7) {
			t.Fatalf("%+v: KRegular %v, LP (%s) %v", c, total, engines[0], lpTotal)
		}
	}
}
