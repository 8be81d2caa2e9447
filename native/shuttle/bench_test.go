package shuttle

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// poissonTable returns a table with the given dims and independent
// Poisson(mean) counts (Knuth's multiplication method), seeded.
func poissonTable(t testing.TB, dims []int, mean float64, seed uint64) *model.Table {
	rng := rand.New(rand.NewPCG(seed, 17))
	counts := make([]int64, model.NumCells(dims))
	lim := math.Exp(-mean)
	for i := range counts {
		p := rng.Float64()
		k := int64(0)
		for p > lim {
			k++
			p *= rng.Float64()
		}
		counts[i] = k
	}
	return mustTable(t, dims, counts)
}

// allKWay lists every k-subset of n variables.
func allKWay(n, k int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

// benchBudget is the node budget per bound search on the generated large
// tables: the correction step there is a hard integer search (see doc.go);
// the budget keeps the benchmark to about two minutes, and the metrics say
// how many bounds were left unsettled and whether any table was found.
const benchBudget = 200

type benchCase struct {
	name string
	ms   func(testing.TB) *model.MarginSet
	// maxNodes is the node budget per search used in the benchmark (0 =
	// unlimited).
	maxNodes int64
}

func benchCases() []benchCase {
	return []benchCase{
		{"autoworkers/BF,ABCE,ADE", func(tb testing.TB) *model.MarginSet {
			tab := loadAutoworkers(tb)
			return mustReleased(tb, tab, spec(tb, tab, "BF,ABCE,ADE"))
		}, 0},
		{"autoworkers/ABCE-2way", func(tb testing.TB) *model.MarginSet {
			full := loadAutoworkers(tb)
			tab, _ := full.CollapseTable([]int{0, 1, 2, 4})
			return mustReleased(tb, tab, allTwoWay(4))
		}, 0},
		{"autoworkers/9-margins", func(tb testing.TB) *model.MarginSet {
			tab := loadAutoworkers(tb)
			return mustReleased(tb, tab, spec(tb, tab, "BF,BC,BE,AB,AC,AE,CE,DE,AD"))
		}, 0},
		{"2^8/3-way", func(tb testing.TB) *model.MarginSet {
			tab := poissonTable(tb, []int{2, 2, 2, 2, 2, 2, 2, 2}, 4, 1)
			return mustReleased(tb, tab, allKWay(8, 3))
		}, benchBudget},
		{"5^4/2-way", func(tb testing.TB) *model.MarginSet {
			tab := poissonTable(tb, []int{5, 5, 5, 5}, 4, 2)
			return mustReleased(tb, tab, allKWay(4, 2))
		}, benchBudget},
		{"10^3/2-way", func(tb testing.TB) *model.MarginSet {
			tab := poissonTable(tb, []int{10, 10, 10}, 4, 3)
			return mustReleased(tb, tab, allKWay(3, 2))
		}, benchBudget},
	}
}

// BenchmarkShuttle times the generalized shuttle alone (Correct false).
func BenchmarkShuttle(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name, func(b *testing.B) {
			ms := c.ms(b)
			opt := DefaultOptions()
			opt.Correct = false
			var r *Result
			for b.Loop() {
				var err error
				if r, err = Bounds(ms, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.TCells), "|T|")
			b.ReportMetric(float64(r.Deps), "deps")
			b.ReportMetric(float64(r.DepEvals), "evals")
		})
	}
}

// BenchmarkCorrected times the shuttle with the correction step.
func BenchmarkCorrected(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name, func(b *testing.B) {
			ms := c.ms(b)
			opt := DefaultOptions()
			opt.MaxNodes = c.maxNodes
			var r *Result
			for b.Loop() {
				var err error
				if r, err = Bounds(ms, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.TCells), "|T|")
			b.ReportMetric(float64(r.Nodes), "nodes")
			b.ReportMetric(float64(r.Searches), "searches")
			b.ReportMetric(float64(r.Unsettled), "unsettled")
			sharp := 0.0
			if r.Sharp {
				sharp = 1
			}
			b.ReportMetric(sharp, "sharp")
			changed := 0
			for i := range r.Bounds.Lower {
				if r.Bounds.Lower[i] != r.ShuttleBounds.Lower[i] || r.Bounds.Upper[i] != r.ShuttleBounds.Upper[i] {
					changed++
				}
			}
			b.ReportMetric(float64(changed), "cells-corrected")
		})
	}
}
