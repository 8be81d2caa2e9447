package lp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/internal/costtest"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

var krInf = math.Inf(1)

func krEngines(t *testing.T) []string { t.Helper(); return costtest.LPEngines(t) }

var krRandom = costtest.RandomCost

var krBrute = costtest.BruteKRegular

func krCheck(t *testing.T, n, b int, cost []float64, chosen [][]int32, total float64) {
	t.Helper()
	costtest.CheckKRegular(t, n, b, cost, chosen, total)
}

func TestKRegularProblem(t *testing.T) {
	cost := []float64{
		1, krInf, 3,
		4, 5, 6,
		7, 8, -9,
	}
	p, err := KRegularProblem(3, 2, cost)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.NumCols() != 8 || p.NumRows() != 6 || p.NumNonzeros() != 16 || p.IsMIP() || p.Sense != solvers.Minimize {
		t.Fatalf("cols %d rows %d nnz %d mip %v sense %v", p.NumCols(), p.NumRows(), p.NumNonzeros(), p.IsMIP(), p.Sense)
	}
	for r := 0; r < 6; r++ {
		if p.RowLower[r] != 2 || p.RowUpper[r] != 2 {
			t.Fatalf("row %d bounds [%v, %v], want [2, 2]", r, p.RowLower[r], p.RowUpper[r])
		}
	}
	k := 0
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.IsInf(cost[i*3+j], 1) {
				continue
			}
			if p.Obj[k] != cost[i*3+j] || p.ColLower[k] != 0 || p.ColUpper[k] != 1 || p.ColNames[k] != fmt.Sprintf("x_%d_%d", i, j) {
				t.Fatalf("column %d: obj %v bounds [%v, %v] name %q", k, p.Obj[k], p.ColLower[k], p.ColUpper[k], p.ColNames[k])
			}
			rows := p.RowIndex[p.ColStart[k]:p.ColStart[k+1]]
			vals := p.Value[p.ColStart[k]:p.ColStart[k+1]]
			if len(rows) != 2 || rows[0] != i || rows[1] != 3+j || vals[0] != 1 || vals[1] != 1 {
				t.Fatalf("column %d (x_%d_%d): rows %v values %v", k, i, j, rows, vals)
			}
			k++
		}
	}
}

func TestKRegularMalformed(t *testing.T) {
	for _, c := range costtest.MalformedKRegular() {
		if _, err := KRegularProblem(c.N, c.B, c.Cost); err == nil {
			t.Errorf("KRegularProblem %s: no error", c.Name)
		}
		if _, _, err := SolveKRegular(c.N, c.B, c.Cost, "auto"); err == nil {
			t.Errorf("SolveKRegular %s: no error", c.Name)
		}
	}
	if _, _, err := SolveKRegular(2, 1, []float64{1, 2, 3, 4}, "no-such-engine"); !errors.Is(err, solvers.ErrUnknownSolver) {
		t.Errorf("unknown engine: err = %v", err)
	}
}

// TestSolveKRegularBruteForce: every LP engine against enumeration of all
// b-regular selections, n ≤ 5, b ≤ 3, with forbidden edges and ties.
func TestSolveKRegularBruteForce(t *testing.T) {
	engines := krEngines(t)
	rng := rand.New(rand.NewPCG(8, 21))
	feasible, infeasible := 0, 0
	for n := 1; n <= 5; n++ {
		for b := 1; b <= 3 && b <= n; b++ {
			for r := 0; r < 4; r++ {
				pInf := []float64{0, 0.3, 0.5, 0.15}[r]
				levels := []int{0, 3, 0, 2}[r]
				cost := krRandom(rng, n, pInf, levels, -20)
				want := krBrute(n, b, cost)
				for _, e := range engines {
					chosen, total, err := SolveKRegular(n, b, cost, e)
					if math.IsInf(want, 1) {
						if !errors.Is(err, ErrNoKRegular) {
							t.Fatalf("%s n=%d b=%d r=%d: no selection exists, err = %v", e, n, b, r, err)
						}
						infeasible++
						continue
					}
					if err != nil {
						t.Fatalf("%s n=%d b=%d r=%d: %v (brute force %v)", e, n, b, r, err, want)
					}
					krCheck(t, n, b, cost, chosen, total)
					if math.Abs(total-want) > 1e-7*math.Max(1, math.Abs(want)) {
						t.Fatalf("%s n=%d b=%d r=%d: total %v, brute force %v", e, n, b, r, total, want)
					}
					feasible++
				}
			}
		}
	}
	if feasible < 20*len(engines) || infeasible == 0 {
		t.Fatalf("weak coverage: %d feasible, %d infeasible", feasible, infeasible)
	}
}

func TestSolveKRegularInfeasible(t *testing.T) {
	engines := krEngines(t)
	rng := rand.New(rand.NewPCG(8, 22))
	n, b := 6, 2
	// A row with b−1 finite costs: rejected before any solve.
	cost := krRandom(rng, n, 0, 0, 0)
	for j := b - 1; j < n; j++ {
		cost[j] = krInf
	}
	if _, _, err := SolveKRegular(n, b, cost, engines[0]); !errors.Is(err, ErrNoKRegular) {
		t.Fatalf("short row: err = %v", err)
	}
	// Hall violation the counting check does not see: rows 0..2 only on
	// columns 0..1 (3·2 = 6 units, capacity 2·2 = 4); the engines must
	// prove infeasibility.
	cost = krRandom(rng, n, 0, 0, 0)
	for i := 0; i < 3; i++ {
		for j := 2; j < n; j++ {
			cost[i*n+j] = krInf
		}
	}
	for _, e := range engines {
		if _, _, err := SolveKRegular(n, b, cost, e); !errors.Is(err, ErrNoKRegular) {
			t.Errorf("%s Hall violation: err = %v", e, err)
		}
	}
}

func TestSolveKRegularSmall(t *testing.T) {
	engines := krEngines(t)
	for _, e := range engines {
		chosen, total, err := SolveKRegular(0, 0, nil, e)
		if err != nil || len(chosen) != 0 || total != 0 {
			t.Fatalf("%s n=0: %v %v %v", e, chosen, total, err)
		}
		chosen, total, err = SolveKRegular(2, 0, []float64{1, 2, 3, 4}, e)
		if err != nil || len(chosen) != 2 || len(chosen[0]) != 0 || total != 0 {
			t.Fatalf("%s b=0: %v %v %v", e, chosen, total, err)
		}
		// Hand-checked: a 2-regular selection on 3×3 is the complement of
		// a permutation; dropping the anti-diagonal of 10s leaves six 1s.
		cost := []float64{
			1, 1, 10,
			1, 10, 1,
			10, 1, 1,
		}
		chosen, total, err = SolveKRegular(3, 2, cost, e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		krCheck(t, 3, 2, cost, chosen, total)
		if total != 6 {
			t.Fatalf("%s: total %v, want 6", e, total)
		}
	}
}

// TestDecodeKRegular feeds points an engine might return.
func TestDecodeKRegular(t *testing.T) {
	cost := []float64{1, 2, 3, 4} // n = 2, b = 1; columns x00 x01 x10 x11
	chosen, total, err := decodeKRegular(2, 1, cost, []float64{1e-9, 1 - 1e-9, 1, -1e-9}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if chosen[0][0] != 1 || chosen[1][0] != 0 || total != 5 {
		t.Fatalf("chosen %v total %v, want [[1] [0]] 5", chosen, total)
	}
	// The interior point (all 1/2) is optimal for equal costs but not 0/1.
	if _, _, err := decodeKRegular(2, 1, []float64{1, 1, 1, 1}, []float64{0.5, 0.5, 0.5, 0.5}, "test"); !errors.Is(err, ErrFractional) {
		t.Fatalf("fractional point: err = %v", err)
	}
	if _, _, err := decodeKRegular(2, 1, cost, []float64{1, 0, 1, 0}, "test"); err == nil {
		t.Fatal("column chosen twice: no error")
	}
	if _, _, err := decodeKRegular(2, 1, cost, []float64{1, 1, 0, 0}, "test"); err == nil {
		t.Fatal("row with two columns: no error")
	}
	if _, _, err := decodeKRegular(2, 1, cost, []float64{1, 0, 0}, "test"); err == nil {
		t.Fatal("short point: no error")
	}
	if _, _, err := decodeKRegular(2, 1, cost, []float64{2, 0, 0, 1}, "test"); err == nil {
		t.Fatal("value 2: no error")
	}
}
