package audit

import (
	"math/rand/v2"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// Evidence counts the cells a decision checked by what decided each:
//
//   - Sharp: the bounds are proven sharp (every cell decided by them);
//   - Proven: the proven interval is too narrow (disclosed, whatever
//     integer tables exist);
//   - Witness: integer tables known from the bounds' computation (the
//     certified method's witnesses, the confidential table itself when it
//     has every margin of the view) attain a wide enough interval (safe);
//   - Moves: tables reached from the confidential table by local moves in
//     the kernel of the margin system (see moveInterval) attain a wide
//     enough interval (safe);
//   - Undecided: neither (denied).
type Evidence struct {
	Sharp     int `json:"sharp"`
	Proven    int `json:"proven"`
	Witness   int `json:"witness"`
	Moves     int `json:"moves"`
	Undecided int `json:"undecided"`
}

// classify applies the policy to one cell's risk (its intervals filled in
// from iv) and records the evidence. pad: the checked cell is a full cell
// inside the collapsed cell risk.Cell, free in [0, U] (see microdata.go),
// so only the collapsed cell's upper end matters.
func (a *Auditor) classify(iv *intervals, risk CellRisk, pad bool, op *OperatorReport) {
	if op.Evidence == nil {
		op.Evidence = &Evidence{}
	}
	ev := op.Evidence
	known := risk.AttainedUpper >= risk.AttainedLower
	if pad {
		risk.Lower = 0
		if known {
			risk.AttainedLower = 0
		}
	}
	switch {
	case risk.Upper-risk.Lower < risk.Required:
		op.Disclosed = append(op.Disclosed, risk)
		if iv.sharp {
			ev.Sharp++
		} else {
			ev.Proven++
		}
		return
	case known && risk.AttainedUpper-risk.AttainedLower >= risk.Required:
		if iv.sharp {
			ev.Sharp++
		} else {
			ev.Witness++
		}
		return
	}
	// Not decided by the bounds' evidence: move the cell down and up
	// from the confidential table.
	if iv.truth && a.table != nil {
		// Search only as far as the decision needs: down to truth - req
		// (not below the proven lower bound), then up to down + req.
		c := risk.Cell
		iv.movesOnce.Do(func() { iv.moveSets = uncoveredSets(model.Dims(a.table.Vars), iv.margins) })
		down := a.table.Counts[c]
		if !pad {
			down = moveInterval(a.table, iv.moveSets, c, -1, max(risk.Lower, down-risk.Required), uint64(c))
		} else {
			down = 0
		}
		up := moveInterval(a.table, iv.moveSets, c, +1, min(risk.Upper, down+risk.Required), uint64(c))
		if !known {
			risk.AttainedLower, risk.AttainedUpper = down, up
			if pad {
				risk.AttainedLower = 0
			}
		} else {
			risk.AttainedUpper = max(risk.AttainedUpper, up)
			if !pad {
				risk.AttainedLower = min(risk.AttainedLower, down)
			}
		}
		if risk.AttainedUpper-risk.AttainedLower >= risk.Required {
			ev.Moves++
			return
		}
	}
	ev.Undecided++
	op.Undecided = append(op.Undecided, risk)
}

// Local moves. A variable set S that is not inside any released margin's
// variables carries integer moves in the kernel of the margin system: pick
// for every variable of S two levels a_i ≠ b_i and fix the variables
// outside S; the table d that is (-1)^(number of b's) on the 2^|S| cells so
// spanned and 0 elsewhere has every released margin 0 (summing over a
// variable of S outside the margin cancels the signs). For binary tables
// with all 2-way margins of 4 variables these are the parity patterns of
// the 3- and 4-variable sub-boxes. Adding or subtracting d keeps every
// released margin; it keeps the table a table when no count goes below 0.

// maxMoveSets bounds the number of variable sets tried; maxMoveSize their
// size (a move touches 2^size cells); maxMoveTries the level choices tried
// per set and step; maxMoveSteps the steps of one search.
const (
	maxMoveSets  = 64
	maxMoveSize  = 5
	maxMoveTries = 24
	maxMoveSteps = 10000
)

// moveInterval moves cell c of a copy of t in direction dir (-1 down, +1
// up) by the local moves over the variable sets sets (uncoveredSets of
// the margins: they keep every margin) that keep every count non-negative, greedily (a step applies the first
// move found that changes c by dir), until no move is found or the cell
// reaches goal; it returns the value reached, which an integer table with
// the margins attains. Seeded: the same input gives the same value.
func moveInterval(t *model.Table, sets [][]int, c int, dir int64, goal int64, seed uint64) int64 {
	v, _ := moveDelta(t, sets, c, dir, goal, seed)
	return v
}

// moveTable is moveInterval returning also the table reached.
func moveTable(t *model.Table, sets [][]int, c int, dir int64, goal int64, seed uint64) (int64, []int64) {
	v, delta := moveDelta(t, sets, c, dir, goal, seed)
	tab := slices.Clone(t.Counts)
	for idx, x := range delta {
		tab[idx] += x
	}
	return v, tab
}

// moveDelta is moveInterval returning the changes to t (sparse: a search
// touches few cells of a large table).
func moveDelta(t *model.Table, sets [][]int, c int, dir int64, goal int64, seed uint64) (int64, map[int]int64) {
	dims := model.Dims(t.Vars)
	cur := t.Counts[c]
	limit := goal
	delta := map[int]int64{}
	if len(sets) == 0 || (cur-limit)*dir >= 0 {
		return cur, delta
	}
	x := model.CellLevels(dims, c, nil)
	r := rand.New(rand.NewPCG(seed, uint64(dir+2)))
	lv := make([]int, len(dims))
	cells := make([]int, 0, 1<<maxMoveSize)
	signs := make([]int64, 0, 1<<maxMoveSize)
	for step := 0; step < maxMoveSteps && (limit-cur)*dir > 0; step++ {
		moved := false
		for _, si := range r.Perm(len(sets)) {
			S := sets[si]
			for try := 0; try < maxMoveTries && !moved; try++ {
				// Other levels b_i for the variables of S.
				b := make([]int, len(S))
				for k, j := range S {
					b[k] = r.IntN(dims[j] - 1)
					if b[k] >= x[j] {
						b[k]++
					}
				}
				cells, signs = cells[:0], signs[:0]
				ok := true
				for mask := 0; mask < 1<<len(S); mask++ {
					copy(lv, x)
					sign := int64(1)
					for k, j := range S {
						if mask>>k&1 == 1 {
							lv[j] = b[k]
							sign = -sign
						}
					}
					idx := model.CellIndex(dims, lv)
					// The table becomes tab + dir*sign on idx.
					if t.Counts[idx]+delta[idx]+dir*sign < 0 {
						ok = false
						break
					}
					cells, signs = append(cells, idx), append(signs, sign)
				}
				if ok {
					for k, idx := range cells {
						delta[idx] += dir * signs[k]
					}
					cur = t.Counts[c] + delta[c]
					moved = true
				}
			}
			if moved {
				break
			}
		}
		if !moved {
			break
		}
	}
	return cur, delta
}

// uncoveredSets returns the minimal variable sets (at most maxMoveSize
// variables, each with two or more levels) not inside any margin, at most
// maxMoveSets of them, smallest first.
func uncoveredSets(dims []int, margins [][]int) [][]int {
	k := len(dims)
	covered := func(s []int) bool {
		for _, j := range s {
			if dims[j] < 2 {
				return true // no move varies a one-level variable
			}
		}
		for _, m := range margins {
			if model.IsSubset(s, m) {
				return true
			}
		}
		return false
	}
	var out [][]int
	for size := 1; size <= min(k, maxMoveSize) && len(out) < maxMoveSets; size++ {
		forSubsets(k, size, func(s []int) bool {
			if covered(s) {
				return true
			}
			for _, o := range out {
				if model.IsSubset(o, s) {
					return true // not minimal
				}
			}
			out = append(out, slices.Clone(s))
			return len(out) < maxMoveSets
		})
	}
	return out
}

// forSubsets calls fn with every increasing size-subset of 0..k-1 until
// fn returns false.
func forSubsets(k, size int, fn func([]int) bool) {
	s := make([]int, size)
	var rec func(pos, from int) bool
	rec = func(pos, from int) bool {
		if pos == size {
			return fn(s)
		}
		for j := from; j <= k-(size-pos); j++ {
			s[pos] = j
			if !rec(pos+1, j+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}
