// Package costtest holds the test helpers of sdcopt's assignment and
// b-matching solvers (native/hungarian, native/mincostflow, lp's k-regular
// LP): seeded cost matrices, a brute-force b-regular optimum, a checker of
// b-regular selections, and the list of available LP engines.
package costtest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

// RandomCost returns a seeded n×n matrix: with probability pInf an entry is
// forbidden (+Inf); otherwise an integer in [lo, lo+levels) when levels > 0
// (many ties) or a uniform float in [lo, lo+1000).
func RandomCost(rng *rand.Rand, n int, pInf float64, levels int, lo float64) []float64 {
	c := make([]float64, n*n)
	for k := range c {
		switch {
		case rng.Float64() < pInf:
			c[k] = math.Inf(1)
		case levels > 0:
			c[k] = lo + float64(rng.IntN(levels))
		default:
			c[k] = lo + 1000*rng.Float64()
		}
	}
	return c
}

// BruteKRegular enumerates every b-regular selection (each row a b-subset of
// its finite columns, each column used at most b times) and returns the
// minimum total, +Inf when none exists.
func BruteKRegular(n, b int, cost []float64) float64 {
	var subsets [][]int
	var gen func(start int, cur []int)
	gen = func(start int, cur []int) {
		if len(cur) == b {
			subsets = append(subsets, append([]int(nil), cur...))
			return
		}
		for j := start; j < n; j++ {
			gen(j+1, append(cur, j))
		}
	}
	gen(0, nil)
	colCount := make([]int, n)
	best := math.Inf(1)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			best = math.Min(best, sum) // all column counts are b: n·b units, each ≤ b
			return
		}
	next:
		for _, sub := range subsets {
			s := sum
			for _, j := range sub {
				if colCount[j] == b || math.IsInf(cost[i*n+j], 1) {
					continue next
				}
				s += cost[i*n+j]
			}
			for _, j := range sub {
				colCount[j]++
			}
			rec(i+1, s)
			for _, j := range sub {
				colCount[j]--
			}
		}
	}
	rec(0, 0)
	return best
}

// CheckKRegular verifies that chosen is b-regular over finite entries,
// each row ascending, with cost sum total.
func CheckKRegular(t testing.TB, n, b int, cost []float64, chosen [][]int32, total float64) {
	t.Helper()
	if len(chosen) != n {
		t.Fatalf("len(chosen) = %d, want %d", len(chosen), n)
	}
	colCount := make([]int, n)
	sum := 0.0
	for i, cols := range chosen {
		if len(cols) != b {
			t.Fatalf("row %d has %d columns, want %d", i, len(cols), b)
		}
		for k, j := range cols {
			if j < 0 || int(j) >= n || (k > 0 && cols[k-1] >= j) {
				t.Fatalf("row %d: columns %v not ascending in [0, n)", i, cols)
			}
			if math.IsInf(cost[i*n+int(j)], 1) {
				t.Fatalf("row %d chose forbidden column %d", i, j)
			}
			colCount[j]++
			sum += cost[i*n+int(j)]
		}
	}
	for j, c := range colCount {
		if c != b {
			t.Fatalf("column %d chosen %d times, want %d", j, c, b)
		}
	}
	if math.Abs(sum-total) > 1e-9*math.Max(1, math.Abs(sum)) {
		t.Fatalf("total = %v, sum of chosen costs = %v", total, sum)
	}
}

// LPEngines lists the available engines that solve LPs; the test is
// skipped when there is none.
func LPEngines(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, info := range solvers.List() {
		if info.Available && info.Capabilities.LP {
			out = append(out, info.Name)
		}
	}
	if len(out) == 0 {
		t.Skip("no LP engine available")
	}
	return out
}

// Malformed is a b-regular selection input that every solver must reject.
type Malformed struct {
	Name string
	N, B int
	Cost []float64
}

// MalformedKRegular lists the malformed inputs of the k-regular solvers:
// negative sizes, b > n, a short matrix, NaN and -Inf costs.
func MalformedKRegular() []Malformed {
	return []Malformed{
		{"negative n", -1, 0, nil},
		{"negative b", 2, -1, []float64{1, 2, 3, 4}},
		{"b > n", 2, 3, []float64{1, 2, 3, 4}},
		{"short", 2, 1, []float64{1, 2, 3}},
		{"NaN", 2, 1, []float64{1, math.NaN(), 3, 4}},
		{"-Inf", 2, 1, []float64{1, 2, math.Inf(-1), 4}},
	}
}
