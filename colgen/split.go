package colgen

import (
	"math"
	"math/bits"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// splitExactMax is the largest group splitLarge partitions optimally (a
// dynamic program over its subsets, at most 3^13 ≈ 1.6 million steps);
// larger groups are first cut greedily.
const splitExactMax = 13

// splitLarge returns the groups with every group of 2k or more records
// replaced by groups of k..2k-1 records, and how many groups it split.
//
// Splitting never raises the SSE: a group's sum of squares is the sum of
// its parts' plus the (non-negative) spread of the parts' centroids. A
// group of at most splitExactMax records is partitioned optimally (the
// partition of least SSE into groups of k..2k-1); a larger one is first cut
// greedily, MDAV-like, into pieces of k records (the record with the
// largest distance sum and its k-1 nearest) until fewer than 2k remain.
func splitLarge(d *model.SqDist, groups [][]int, k int) ([][]int, int) {
	split := 0
	var out [][]int
	for _, g := range groups {
		if len(g) < 2*k {
			out = append(out, g)
			continue
		}
		split++
		rest := slices.Clone(g)
		for len(rest) > splitExactMax {
			var piece []int
			piece, rest = cutFarthest(d, rest, k)
			out = append(out, piece)
		}
		if len(rest) >= 2*k {
			out = append(out, splitOptimal(d, rest, k)...)
		} else {
			out = append(out, rest)
		}
	}
	for _, g := range out {
		slices.Sort(g)
	}
	return out, split
}

// cutFarthest removes from rest (2k or more records) the record with the
// largest sum of distances to the others and its k-1 nearest records.
func cutFarthest(d *model.SqDist, rest []int, k int) (piece, left []int) {
	far, farSum := -1, -1.0
	for _, v := range rest {
		s := 0.0
		for _, u := range rest {
			s += d.At(v, u)
		}
		if s > farSum {
			far, farSum = v, s
		}
	}
	others := slices.DeleteFunc(slices.Clone(rest), func(u int) bool { return u == far })
	slices.SortStableFunc(others, func(a, b int) int {
		da, db := d.At(far, a), d.At(far, b)
		switch {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return a - b
	})
	piece = append([]int{far}, others[:k-1]...)
	return piece, others[k-1:]
}

// splitOptimal partitions g (2k..splitExactMax records) into groups of
// k..2k-1 records with the least SSE, by dynamic programming over subsets:
// f(S) = min over T ⊆ S holding S's lowest member, k ≤ |T| ≤ 2k-1, of
// SSE(T) + f(S∖T).
func splitOptimal(d *model.SqDist, g []int, k int) [][]int {
	m := len(g)
	full := uint32(1)<<m - 1
	// pair[S] = Σ_{i<j ∈ S} c_ij.
	pair := make([]float64, full+1)
	for s := uint32(1); s <= full; s++ {
		low := bits.TrailingZeros32(s)
		r := s &^ (1 << low)
		p := pair[r]
		for t := r; t != 0; t &= t - 1 {
			p += d.At(g[low], g[bits.TrailingZeros32(t)])
		}
		pair[s] = p
	}
	f := make([]float64, full+1)
	choice := make([]uint32, full+1)
	for s := uint32(1); s <= full; s++ {
		f[s] = math.Inf(1)
		low := uint32(1) << bits.TrailingZeros32(s)
		r := s &^ low
		// T = low ∪ sub for every sub ⊆ r.
		for sub := r; ; sub = (sub - 1) & r {
			t := sub | low
			if c := bits.OnesCount32(t); c >= k && c <= 2*k-1 && !math.IsInf(f[s&^t], 1) {
				if v := pair[t]/float64(c) + f[s&^t]; v < f[s] {
					f[s], choice[s] = v, t
				}
			}
			if sub == 0 {
				break
			}
		}
	}
	var out [][]int
	for s := full; s != 0; s &^= choice[s] {
		var grp []int
		for t := choice[s]; t != 0; t &= t - 1 {
			grp = append(grp, g[bits.TrailingZeros32(t)])
		}
		out = append(out, grp)
	}
	return out
}
