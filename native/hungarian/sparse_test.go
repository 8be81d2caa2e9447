package hungarian_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/native/hungarian"
)

// toSparse lists the finite entries of a dense cost matrix, row by row
// (columns in a seeded shuffled order, to show that the order in a row
// does not matter).
func toSparse(rng *rand.Rand, n int, cost []float64) *hungarian.Sparse {
	p := &hungarian.Sparse{N: n, Start: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for _, j := range rng.Perm(n) {
			if c := cost[i*n+j]; !math.IsInf(c, 1) {
				p.Cols = append(p.Cols, int32(j))
				p.Cost = append(p.Cost, c)
			}
		}
		p.Start[i+1] = len(p.Cols)
	}
	return p
}

// TestSparseMatchesDense: on random matrices with forbidden entries (from
// none to most, ties from integer levels, negative costs) the sparse
// solver's optimum equals the dense solver's, and both agree on
// infeasibility.
func TestSparseMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	feasible, infeasible := 0, 0
	for trial := 0; trial < 600; trial++ {
		n := 1 + rng.IntN(40)
		pInf := []float64{0, 0.3, 0.7, 0.9}[trial%4]
		levels := []int{0, 3, 50}[trial%3]
		cost := randomCost(rng, n, pInf, levels, -20)
		_, want, errD := hungarian.Solve(n, cost)
		assign, got, errS := hungarian.SolveSparse(toSparse(rng, n, cost))
		if (errD == nil) != (errS == nil) {
			t.Fatalf("trial %d n %d: dense error %v, sparse error %v", trial, n, errD, errS)
		}
		if errD != nil {
			if !errors.Is(errS, hungarian.ErrInfeasible) {
				t.Fatalf("trial %d: sparse error %v, want ErrInfeasible", trial, errS)
			}
			infeasible++
			continue
		}
		feasible++
		checkAssignment(t, n, cost, assign, got)
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("trial %d n %d pInf %v: sparse total %v, dense %v", trial, n, pInf, got, want)
		}
	}
	if feasible < 100 || infeasible < 20 {
		t.Fatalf("only %d feasible and %d infeasible instances: the test lost its coverage", feasible, infeasible)
	}
}

func TestSparseMalformed(t *testing.T) {
	ok := func() *hungarian.Sparse {
		return &hungarian.Sparse{N: 2, Start: []int{0, 2, 3}, Cols: []int32{0, 1, 0}, Cost: []float64{1, 2, 3}}
	}
	if a, total, err := hungarian.SolveSparse(ok()); err != nil || a[0] != 1 || a[1] != 0 || total != 5 {
		t.Fatalf("2x2: %v %v %v, want [1 0] 5", a, total, err)
	}
	for name, mod := range map[string]func(p *hungarian.Sparse){
		"short start":  func(p *hungarian.Sparse) { p.Start = p.Start[:2] },
		"column range": func(p *hungarian.Sparse) { p.Cols[2] = 2 },
		"repeated":     func(p *hungarian.Sparse) { p.Cols[1] = 0 },
		"NaN":          func(p *hungarian.Sparse) { p.Cost[0] = math.NaN() },
		"Inf":          func(p *hungarian.Sparse) { p.Cost[0] = math.Inf(1) },
		"costs":        func(p *hungarian.Sparse) { p.Cost = p.Cost[:2] },
		"decreasing":   func(p *hungarian.Sparse) { p.Start = []int{0, 4, 3} },
	} {
		p := ok()
		mod(p)
		if _, _, err := hungarian.SolveSparse(p); !errors.Is(err, hungarian.ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", name, err)
		}
	}
	if _, _, err := hungarian.SolveSparse(nil); !errors.Is(err, hungarian.ErrInput) {
		t.Errorf("nil: %v", err)
	}
	// Column 1 has no edge.
	p := &hungarian.Sparse{N: 2, Start: []int{0, 1, 2}, Cols: []int32{0, 0}, Cost: []float64{1, 1}}
	if _, _, err := hungarian.SolveSparse(p); !errors.Is(err, hungarian.ErrInfeasible) {
		t.Errorf("column without edges: %v", err)
	}
	if a, total, err := hungarian.SolveSparse(&hungarian.Sparse{Start: []int{0}}); err != nil || len(a) != 0 || total != 0 {
		t.Errorf("n = 0: %v %v %v", a, total, err)
	}
}

// Sparse random costs in [0, 1000): deg edges per row (a random set that
// contains a perfect matching: the identity), seeded.
// go test -run '^$' -bench Sparse ./native/hungarian/
func BenchmarkSolveSparse(b *testing.B) {
	for _, c := range []struct{ n, deg int }{{2000, 30}, {20000, 30}, {20000, 100}} {
		rng := rand.New(rand.NewPCG(8, uint64(c.n)))
		p := &hungarian.Sparse{N: c.n, Start: make([]int, c.n+1)}
		for i := 0; i < c.n; i++ {
			seen := map[int]bool{i: true}
			p.Cols, p.Cost = append(p.Cols, int32(i)), append(p.Cost, 1000*rng.Float64())
			for len(seen) < c.deg {
				j := rng.IntN(c.n)
				if !seen[j] {
					seen[j] = true
					p.Cols, p.Cost = append(p.Cols, int32(j)), append(p.Cost, 1000*rng.Float64())
				}
			}
			p.Start[i+1] = len(p.Cols)
		}
		b.Run(fmt.Sprintf("n=%d/deg=%d", c.n, c.deg), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := hungarian.SolveSparse(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
