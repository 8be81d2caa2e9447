package all

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

// Engine benchmarks: one b.Run per engine and size over seeded instances
// built once. Run with `make bench` or
// go test -tags "lpsolve coin" -run '^$' -bench . ./solvers/all/

func benchEngines(b *testing.B, mip bool) []string {
	var names []string
	for _, e := range solvers.List() {
		if e.Available && (!mip || e.Capabilities.Integer) {
			names = append(names, e.Name)
		}
	}
	if len(names) == 0 {
		b.Skip("no engine available")
	}
	return names
}

func benchSolve(b *testing.B, p *solvers.Problem, mip bool) {
	for _, name := range benchEngines(b, mip) {
		b.Run(name, func(b *testing.B) {
			s, err := solvers.New(name, mip)
			if err != nil {
				b.Fatal(err)
			}
			var iters int64
			for i := 0; i < b.N; i++ {
				r, err := s.Solve(p, nil)
				if err != nil {
					b.Fatal(err)
				}
				if r.Status != solvers.Optimal {
					b.Fatalf("status %v", r.Status)
				}
				iters = r.Iterations
			}
			b.ReportMetric(float64(iters), "iters")
		})
	}
}

// BenchmarkTransportLP: balanced transportation LPs, m sources x m sinks
// (m² columns, 2m rows).
func BenchmarkTransportLP(b *testing.B) {
	for _, m := range []int{100, 300} {
		p := solvertest.Transportation(rand.New(rand.NewPCG(21, uint64(m))), m, m)
		b.Run(fmt.Sprintf("%dx%d", m, m), func(b *testing.B) { benchSolve(b, p, false) })
	}
}

// BenchmarkSetPartitioningLP: the LP relaxation of a set-partitioning
// problem of the shape of a column-generation master (rows x columns).
func BenchmarkSetPartitioningLP(b *testing.B) {
	p := solvertest.SetPartitioning(rand.New(rand.NewPCG(22, 1)), 400, 4000, 5, false)
	b.Run("400x4000", func(b *testing.B) { benchSolve(b, p, false) })
}

// BenchmarkSetPartitioningIP: set partitioning with binary columns.
func BenchmarkSetPartitioningIP(b *testing.B) {
	p := solvertest.SetPartitioning(rand.New(rand.NewPCG(23, 1)), 40, 1500, 5, true)
	b.Run("40x1500", func(b *testing.B) { benchSolve(b, p, true) })
}

// BenchmarkKnapsackMIP: multi-dimensional 0-1 knapsack with correlated
// weights and values.
func BenchmarkKnapsackMIP(b *testing.B) {
	p := solvertest.Knapsack(rand.New(rand.NewPCG(24, 1)), 5, 35)
	b.Run("5x35", func(b *testing.B) { benchSolve(b, p, true) })
}

// BenchmarkWarmResolve compares, per engine, re-solving a 400 x 4000
// set-partitioning LP after adding 100 columns in a session (warm) with
// solving the 400 x 4100 LP from scratch (cold). Only the re-solve (warm)
// or the solve (cold) is timed; building and first-solving the session is
// not.
func BenchmarkWarmResolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(25, 1))
	const m, n, extra = 400, 4000, 100
	full := solvertest.SetPartitioning(rng, m, n+extra, 5, false)
	base := truncateCols(full, n)
	obj, lo, up, start, rows, vals := tailCols(full, n)
	for _, name := range benchEngines(b, false) {
		e, _, _ := solvers.Lookup(name)
		if !e.Caps.Incremental {
			continue
		}
		b.Run(name+"/warm", func(b *testing.B) {
			s, err := solvers.New(name, false)
			if err != nil {
				b.Fatal(err)
			}
			var iters int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ses, err := s.NewSession(base, nil)
				if err != nil {
					b.Fatal(err)
				}
				if r, err := ses.Solve(); err != nil || r.Status != solvers.Optimal {
					b.Fatalf("first solve: %v %v", r, err)
				}
				if err := ses.AddCols(obj, lo, up, nil, start, rows, vals); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				r, err := ses.Solve()
				b.StopTimer()
				if err != nil || r.Status != solvers.Optimal {
					b.Fatalf("re-solve: %v %v", r, err)
				}
				iters = r.Iterations
				ses.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(iters), "iters")
		})
		b.Run(name+"/cold", func(b *testing.B) {
			s, err := solvers.New(name, false)
			if err != nil {
				b.Fatal(err)
			}
			var iters int64
			for i := 0; i < b.N; i++ {
				r, err := s.Solve(full, nil)
				if err != nil || r.Status != solvers.Optimal {
					b.Fatalf("cold solve: %v %v", r, err)
				}
				iters = r.Iterations
			}
			b.ReportMetric(float64(iters), "iters")
		})
	}
}

// truncateCols returns a copy of p with only its first n columns.
func truncateCols(p *solvers.Problem, n int) *solvers.Problem {
	q := &solvers.Problem{Name: p.Name, Sense: p.Sense, Offset: p.Offset,
		RowLower: append([]float64(nil), p.RowLower...), RowUpper: append([]float64(nil), p.RowUpper...)}
	for j := 0; j < n; j++ {
		rows, vals := p.Column(j)
		q.AddCol(p.Obj[j], p.ColLower[j], p.ColUpper[j], p.Type(j), rows, vals, "")
	}
	return q
}

// tailCols returns the columns n.. of p in the form of Session.AddCols.
func tailCols(p *solvers.Problem, n int) (obj, lo, up []float64, start, rows []int, vals []float64) {
	start = []int{0}
	for j := n; j < p.NumCols(); j++ {
		r, v := p.Column(j)
		obj = append(obj, p.Obj[j])
		lo = append(lo, p.ColLower[j])
		up = append(up, p.ColUpper[j])
		rows = append(rows, r...)
		vals = append(vals, v...)
		start = append(start, len(rows))
	}
	return
}

// BenchmarkMIPCorrectness is a measurement, not a timing: it solves
// correctnessCount seeded random small integer programs with every MIP
// engine and reports how many optima differ from brute-force enumeration
// (metric "wrong"). It backs the choice of HiGHS as the "auto" MIP engine.
func BenchmarkMIPCorrectness(b *testing.B) {
	const correctnessCount = 20000
	for _, name := range benchEngines(b, true) {
		b.Run(name, func(b *testing.B) {
			s, err := solvers.New(name, true)
			if err != nil {
				b.Fatal(err)
			}
			wrong := 0
			for i := 0; i < b.N; i++ {
				wrong = 0
				rng := rand.New(rand.NewPCG(99, 1))
				for k := 0; k < correctnessCount; k++ {
					p := solvertest.RandomIntegerProgram(rng, 1+rng.IntN(4), 2+rng.IntN(5))
					want, _, _ := solvertest.Enumerate(p)
					r, err := s.Solve(p, nil)
					if err != nil || r.Status != solvers.Optimal || math.Abs(r.Objective-want) > solvertest.ObjTol*math.Max(1, math.Abs(want)) {
						wrong++
					}
				}
			}
			b.ReportMetric(float64(wrong), "wrong")
			b.ReportMetric(correctnessCount, "programs")
		})
	}
}
