package shuttle

import (
	"math"

	"github.com/sdcopt/sdcopt/model"
)

// ipfSweeps is the number of iterative proportional fitting sweeps used
// for the first value guesses of the correction step; the guesses only
// order the search, so a rough fit is enough.
const ipfSweeps = 30

// ipfGuess fits the log-linear model whose minimal sufficient statistics are
// the released margins by iterative proportional fitting (Bishop, Fienberg
// and Holland 1975, Ch. 3) from a uniform table, and rounds the fit: a real
// table close to the margins, used as the first value to try for every cell.
func ipfGuess(ms *model.MarginSet) []int64 {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	fit := make([]float64, n)
	for i := range fit {
		fit[i] = 1
	}
	proj := make([][]int32, len(ms.Margins))
	lv := make([]int, len(dims))
	for m, mg := range ms.Margins {
		proj[m] = make([]int32, n)
		for idx := 0; idx < n; idx++ {
			model.CellLevels(dims, idx, lv)
			proj[m][idx] = int32(model.Project(dims, mg.Vars, lv))
		}
	}
	var sums []float64
	for sweep := 0; sweep < ipfSweeps; sweep++ {
		for m, mg := range ms.Margins {
			if cap(sums) < len(mg.Counts) {
				sums = make([]float64, len(mg.Counts))
			}
			sums = sums[:len(mg.Counts)]
			clear(sums)
			for idx, p := range proj[m] {
				sums[p] += fit[idx]
			}
			for idx, p := range proj[m] {
				if sums[p] > 0 {
					fit[idx] *= float64(mg.Counts[p]) / sums[p]
				} else {
					fit[idx] = 0
				}
			}
		}
	}
	g := make([]int64, n)
	for i, v := range fit {
		g[i] = int64(math.Round(v))
	}
	return g
}

// refitter re-fits, during the search, the cells not yet fixed to the
// released margins minus the fixed cells (iterative proportional fitting
// on the residual problem), so that every value tried is taken from a real
// table close to the margins and to the current bounds.
type refitter struct {
	counts [][]int64 // margin counts
	proj   [][]int32 // margin cell of every full-table cell
	target []float64 // scratch: residual count of a margin cell
	sums   []float64 // scratch: fitted sum of a margin cell
}

// refitSweeps is the number of proportional fitting sweeps per search
// node; the fit starts from the parent node's, so a few suffice.
const refitSweeps = 3

// refitFloor is the value a free cell restarts from when its fit is 0 (the
// multiplicative updates of proportional fitting never leave 0).
const refitFloor = 0.1

func newRefitter(ms *model.MarginSet) *refitter {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	rf := &refitter{}
	lv := make([]int, len(dims))
	size := 0
	for _, mg := range ms.Margins {
		p := make([]int32, n)
		for idx := 0; idx < n; idx++ {
			model.CellLevels(dims, idx, lv)
			p[idx] = int32(model.Project(dims, mg.Vars, lv))
		}
		rf.proj = append(rf.proj, p)
		rf.counts = append(rf.counts, mg.Counts)
		size = max(size, len(mg.Counts))
	}
	rf.target = make([]float64, size)
	rf.sums = make([]float64, size)
	return rf
}

// fit updates fit in place for the cells with lo < hi; cells with lo == hi
// are fixed at lo.
func (rf *refitter) fit(fit []float64, lo, hi func(i int) int64) {
	for i := range fit {
		l, u := lo(i), hi(i)
		if l == u {
			fit[i] = float64(l)
		} else if fit[i] <= 0 {
			fit[i] = refitFloor
		}
	}
	for sweep := 0; sweep < refitSweeps; sweep++ {
		for m, p := range rf.proj {
			k := len(rf.counts[m])
			target, sums := rf.target[:k], rf.sums[:k]
			for c := range target {
				target[c] = float64(rf.counts[m][c])
			}
			clear(sums)
			for i, q := range p {
				if lo(i) == hi(i) {
					target[q] -= fit[i]
				} else {
					sums[q] += fit[i]
				}
			}
			for i, q := range p {
				if lo(i) == hi(i) {
					continue
				}
				if sums[q] > 0 && target[q] > 0 {
					fit[i] *= target[q] / sums[q]
				} else {
					fit[i] = 0
				}
			}
		}
	}
}
