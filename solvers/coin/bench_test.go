//go:build cgo && coin

package coin

import (
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// masterLP is the column-generation measurement: a 400-row, 4000-column
// set-partitioning LP and a batch of 100 new columns.
func masterLP() (p *solvers.Problem, obj, lo, up []float64, start, rows []int, vals []float64) {
	const m, n, size = 400, 4000, 8
	rng := rand.New(rand.NewPCG(21, 22))
	p = solvertest.SetPartitioning(rng, m, n, size, false)
	start = []int{0}
	for k := 0; k < 100; k++ {
		rs := solvertest.SetPartitioningColumn(rng, m, m+k, size)
		obj = append(obj, solvertest.SetPartitioningCost(rng, len(rs)))
		lo, up = append(lo, 0), append(up, 1)
		rows = append(rows, rs...)
		for range rs {
			vals = append(vals, 1)
		}
		start = append(start, len(rows))
	}
	return
}

// TestWarmVsColdReport logs iterations of a warm re-solve after adding 100
// columns against a cold solve of the enlarged LP (no assertions on speed;
// the objective values must agree).
func TestWarmVsColdReport(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	p, obj, lo, up, start, rows, vals := masterLP()
	sess, err := (&clpSolver{}).NewSession(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	r0, _ := sess.Solve()
	if err := sess.AddCols(obj, lo, up, nil, start, rows, vals); err != nil {
		t.Fatal(err)
	}
	warm, _ := sess.Solve()
	big := p.Clone()
	for k := range obj {
		big.AddCol(obj[k], lo[k], up[k], solvers.Continuous, rows[start[k]:start[k+1]], vals[start[k]:start[k+1]], "")
	}
	cold := mustSolve(t, &clpSolver{}, big, nil)
	if !near(warm.Objective, cold.Objective) {
		t.Fatalf("warm %v != cold %v", warm.Objective, cold.Objective)
	}
	t.Logf("initial: obj %.6f, %d iterations, %.4fs", r0.Objective, r0.Iterations, r0.Seconds)
	t.Logf("warm after +100 cols: obj %.6f, %d iterations, %.4fs", warm.Objective, warm.Iterations, warm.Seconds)
	t.Logf("cold of enlarged LP: obj %.6f, %d iterations, %.4fs", cold.Objective, cold.Iterations, cold.Seconds)
}

// BenchmarkSessionAdd100Cols: one warm re-solve after adding 100 columns.
func BenchmarkSessionAdd100Cols(b *testing.B) {
	p, obj, lo, up, start, rows, vals := masterLP()
	for b.Loop() {
		b.StopTimer()
		sess, _ := (&clpSolver{}).NewSession(p, nil)
		sess.Solve()
		sess.AddCols(obj, lo, up, nil, start, rows, vals)
		b.StartTimer()
		sess.Solve()
		b.StopTimer()
		sess.Close()
		b.StartTimer()
	}
}

// BenchmarkColdSolve4100: a cold solve of the enlarged LP.
func BenchmarkColdSolve4100(b *testing.B) {
	p, obj, lo, up, start, rows, vals := masterLP()
	for k := range obj {
		p.AddCol(obj[k], lo[k], up[k], solvers.Continuous, rows[start[k]:start[k+1]], vals[start[k]:start[k+1]], "")
	}
	for b.Loop() {
		(&clpSolver{}).Solve(p, nil)
	}
}
