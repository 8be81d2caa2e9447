package cellbounds

import (
	"math/rand/v2"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// Local moves. A variable set S that is not inside any released margin's
// variables carries integer moves in the kernel of the margin system: pick
// for every variable of S two levels a_i ≠ b_i and fix the variables
// outside S; the table d that is (-1)^(number of b's) on the 2^|S| cells so
// spanned and 0 elsewhere has every released margin 0 (summing over a
// variable of S outside the margin cancels the signs). For binary tables
// with all 2-way margins of 4 variables these are the parity patterns of
// the 3- and 4-variable sub-boxes. Adding or subtracting d keeps every
// released margin; it keeps the table a table when no count goes below 0.

// MaxMoveSets bounds the number of variable sets tried; MaxMoveSize their
// size (a move touches 2^size cells); MaxMoveTries the level choices tried
// per set and step; MaxMoveSteps the steps of one search.
const (
	MaxMoveSets  = 64
	MaxMoveSize  = 5
	MaxMoveTries = 24
	MaxMoveSteps = 10000
)

// MoveCell moves cell c of a copy of t in direction dir (-1 down, +1 up)
// by the local moves over the variable sets sets (MoveSets of the
// margins: they keep every margin) that keep every count non-negative,
// greedily (a step applies the first move found that changes c by dir),
// until no move is found or the cell reaches goal. It returns the value
// reached, which an integer table with the margins attains (t plus
// delta), and the changes to t (sparse: a search touches few cells of a
// large table). Seeded: the same input gives the same value.
func MoveCell(t *model.Table, sets [][]int, c int, dir int64, goal int64, seed uint64) (int64, map[int]int64) {
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
	cells := make([]int, 0, 1<<MaxMoveSize)
	signs := make([]int64, 0, 1<<MaxMoveSize)
	for step := 0; step < MaxMoveSteps && (limit-cur)*dir > 0; step++ {
		moved := false
		for _, si := range r.Perm(len(sets)) {
			S := sets[si]
			for try := 0; try < MaxMoveTries && !moved; try++ {
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

// MoveSets returns the variable sets of the local moves of a margin set:
// the minimal sets (at most MaxMoveSize variables, each with two or more
// levels) not inside any margin, at most MaxMoveSets of them, smallest
// first.
func MoveSets(dims []int, margins [][]int) [][]int {
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
	for size := 1; size <= min(k, MaxMoveSize) && len(out) < MaxMoveSets; size++ {
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
			return len(out) < MaxMoveSets
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
