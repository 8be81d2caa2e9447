package lp

import (
	"fmt"
	"slices"
	"sort"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// CornerSystem is a second description of the polytope Q = {x ≥ 0 : the
// released margins of x are the given ones}, with one row per linearly
// independent constraint instead of one per released marginal cell.
//
// The down-closure of the released margins is every subset S of the
// variables of some released margin (the empty set included). For each S
// and each "corner" level vector l of S — every level but the first
// (the reference level) — the row sums the cells with x_S = l:
//
//	Σ_{c : c_S = l} x_c = n_S(l),
//
// n_S being the marginal of S, which any released margin containing S
// determines. By inclusion and exclusion every released marginal cell is
// an integer combination of corner rows (a reference level is "all
// levels" minus the others), and every corner row is a sum of released
// marginal cells, so both systems describe Q; the corner rows are
// linearly independent (the corner parameterization of hierarchical
// log-linear models). For a 2^10 table with all 3-way margins that is 176
// rows and 33,024 nonzeros against 960 rows and 122,880 nonzeros, and
// about half the simplex time per re-solve (bench/README.md).
//
// The dual of a bound over the corner system is a vector over marginal
// cells of the down-closure (Row), which is what a certificate of the
// bound records (package cellbounds).
type CornerSystem struct {
	// Problem has one column per full-table cell (bounds [0, u_c], u_c the
	// least released marginal cell containing c) and one equality row per
	// corner cell, with a zero objective.
	Problem *solvers.Problem
	// Subsets lists the down-closure: variable positions, increasing,
	// ordered by size then lexicographically.
	Subsets [][]int
	// Rows describe the rows of Problem: row i sums the cells whose
	// levels on Subsets[Rows[i].Subset] give the cell Rows[i].Cell of that
	// subset's marginal table (row-major over the subset's dims).
	Rows []CornerRow
	// Upper are the trivial upper bounds u_c (the column bounds).
	Upper []int64
}

// CornerRow names a row of a CornerSystem.
type CornerRow struct {
	Subset int   // index into CornerSystem.Subsets
	Cell   int   // cell of that subset's marginal table
	RHS    int64 // n_S(cell)
}

// DownClosure returns every subset of the variables of each released
// margin, deduplicated, ordered by size then lexicographically.
func DownClosure(ms *model.MarginSet) [][]int {
	seen := map[string]bool{}
	var subs [][]int
	for _, m := range ms.Margins {
		v := m.Vars
		if len(v) > 30 {
			panic("lp: a margin of more than 30 variables") // 2^30 subsets: never a real release
		}
		for mask := 0; mask < 1<<len(v); mask++ {
			var s []int
			for i := range v {
				if mask&(1<<i) != 0 {
					s = append(s, v[i])
				}
			}
			key := fmt.Sprint(s)
			if !seen[key] {
				seen[key] = true
				subs = append(subs, s)
			}
		}
	}
	sort.Slice(subs, func(a, b int) bool {
		if len(subs[a]) != len(subs[b]) {
			return len(subs[a]) < len(subs[b])
		}
		return slices.Compare(subs[a], subs[b]) < 0
	})
	return subs
}

// SubsetMarginal returns the marginal over the variables sub (positions,
// increasing) implied by the released margins: the collapse of the first
// released margin containing sub; false when none contains it.
func SubsetMarginal(ms *model.MarginSet, sub []int) ([]int64, bool) {
	for _, m := range ms.Margins {
		if !model.IsSubset(sub, m.Vars) {
			continue
		}
		return model.CollapseMarginal(ms.Vars, m, sub), true
	}
	return nil, false
}

// NewCornerSystem builds the corner system of a consistent margin set
// (check it with MarginSet.Check first: the right-hand sides are taken
// from the first margin that contains each subset). integer makes the
// columns integer.
func NewCornerSystem(ms *model.MarginSet, integer bool) *CornerSystem {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	cs := &CornerSystem{Subsets: DownClosure(ms), Problem: &solvers.Problem{Name: "cellbounds-corner", Sense: solvers.Minimize}}
	p := cs.Problem
	rowOf := make([]int, len(cs.Subsets)) // first row of each subset
	for si, s := range cs.Subsets {
		rowOf[si] = len(cs.Rows)
		marg, ok := SubsetMarginal(ms, s)
		if !ok {
			panic("lp: a subset of the down-closure is in no margin") // cannot happen
		}
		sd := model.SubDims(dims, s)
		lv := make([]int, len(s))
		for ci, v := range marg {
			model.CellLevels(sd, ci, lv)
			if slices.Contains(lv, 0) {
				continue // a reference level: not a corner
			}
			cs.Rows = append(cs.Rows, CornerRow{Subset: si, Cell: ci, RHS: v})
			p.AddRow(float64(v), float64(v), "")
		}
	}
	cs.Upper = TrivialUppers(ms)
	typ := solvers.Continuous
	if integer {
		typ = solvers.Integer
	}
	lv := make([]int, len(dims))
	var rows []int
	var vals []float64
	// Every cell is a column with an entry per subset it is a corner of:
	// room for the columns and two entries each up front (on tables of
	// millions of cells the copies of growing arrays took most of the
	// time of building the model).
	p.Reserve(n, 2*n, false)
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		rows, vals = rows[:0], vals[:0]
		for si, s := range cs.Subsets {
			// The corner index of c's levels on s, when all are non-reference.
			idx, corner := 0, true
			for _, v := range s {
				if lv[v] == 0 {
					corner = false
					break
				}
				idx = idx*(dims[v]-1) + lv[v] - 1
			}
			if corner {
				rows = append(rows, rowOf[si]+idx)
				vals = append(vals, 1)
			}
		}
		p.AddCol(0, 0, float64(cs.Upper[c]), typ, rows, vals, "")
	}
	return cs
}
