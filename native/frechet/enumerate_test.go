package frechet

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// enumerateTables calls f with every non-negative integer table over ms.Vars
// whose marginals equal ms.Margins (brute force: cells are assigned in
// row-major order within what the margins still allow; the last cell of a
// marginal cell is forced). ms must have at least one marginal.
func enumerateTables(ms *model.MarginSet, f func(x []int64)) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	rem := make([][]int64, len(ms.Margins))
	where := make([][]int, n) // where[cell][m] = index of the marginal cell of margin m
	last := make([][]int, len(ms.Margins))
	for m, mg := range ms.Margins {
		rem[m] = append([]int64(nil), mg.Counts...)
		last[m] = make([]int, len(mg.Counts))
	}
	lv := make([]int, len(dims))
	for idx := range n {
		model.CellLevels(dims, idx, lv)
		where[idx] = make([]int, len(ms.Margins))
		for m, mg := range ms.Margins {
			k := model.Project(dims, mg.Vars, lv)
			where[idx][m] = k
			last[m][k] = idx
		}
	}
	x := make([]int64, n)
	var rec func(idx int)
	rec = func(idx int) {
		if idx == n {
			f(x)
			return
		}
		hi, forced := int64(math.MaxInt64), int64(-1)
		for m, k := range where[idx] {
			r := rem[m][k]
			hi = min(hi, r)
			if last[m][k] == idx {
				if forced >= 0 && forced != r {
					return
				}
				forced = r
			}
		}
		lo := int64(0)
		if forced >= 0 {
			if forced > hi {
				return
			}
			lo, hi = forced, forced
		}
		for v := lo; v <= hi; v++ {
			x[idx] = v
			for m, k := range where[idx] {
				rem[m][k] -= v
			}
			rec(idx + 1)
			for m, k := range where[idx] {
				rem[m][k] += v
			}
		}
	}
	rec(0)
}

// bruteBounds returns the sharp integer bounds of every cell of the marginal
// over sub (all variables when sub is nil) and the number of tables.
func bruteBounds(ms *model.MarginSet, sub []int) (*model.CellBounds, int) {
	dims := model.Dims(ms.Vars)
	if sub == nil {
		for j := range dims {
			sub = append(sub, j)
		}
	}
	n := model.NumCells(model.SubDims(dims, sub))
	lo := make([]float64, n)
	hi := make([]float64, n)
	for i := range lo {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	count := 0
	lv := make([]int, len(dims))
	agg := make([]float64, n)
	enumerateTables(ms, func(x []int64) {
		count++
		clear(agg)
		for idx, v := range x {
			model.CellLevels(dims, idx, lv)
			agg[model.Project(dims, sub, lv)] += float64(v)
		}
		for i, v := range agg {
			lo[i], hi[i] = min(lo[i], v), max(hi[i], v)
		}
	})
	return &model.CellBounds{Lower: lo, Upper: hi}, count
}

// randomTable draws a table with the given dims and total by dropping total
// units into uniformly random cells.
func randomTable(rng *rand.Rand, dims []int, total int) *model.Table {
	vars := make([]model.Variable, len(dims))
	for i, d := range dims {
		vars[i].Name = string(rune('A' + i))
		for l := range d {
			vars[i].Levels = append(vars[i].Levels, string(rune('0'+l)))
		}
	}
	counts := make([]int64, model.NumCells(dims))
	for range total {
		counts[rng.IntN(len(counts))]++
	}
	return &model.Table{Vars: vars, Counts: counts}
}

// randomSubsets draws a random margin set over k variables: half the time
// 1 to 5 subsets of a uniformly drawn size in [1, k-1], otherwise every pair
// of a random graph (edge probability 0.6) plus possibly one larger subset,
// which often gives non-graphical and non-chordal sets.
func randomSubsets(rng *rand.Rand, k int) [][]int {
	var out [][]int
	draw := func() []int {
		s := rng.Perm(k)[:1+rng.IntN(k-1)]
		slices.Sort(s)
		return s
	}
	if rng.IntN(2) == 0 {
		for range 1 + rng.IntN(5) {
			out = append(out, draw())
		}
		return out
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			if rng.IntN(10) < 6 {
				out = append(out, []int{i, j})
			}
		}
	}
	if len(out) == 0 || rng.IntN(3) == 0 {
		out = append(out, draw())
	}
	return out
}
