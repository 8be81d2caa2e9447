package colgen

import (
	"cmp"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// rounder turns fractional master solutions into clusterings (Section 5.2).
type rounder struct {
	z    *model.Dataset
	d    *model.SqDist
	k    int
	assn []int // scratch: group of each record, -1 = unassigned
}

func newRounder(z *model.Dataset, d *model.SqDist, k int) *rounder {
	return &rounder{z: z, d: d, k: k, assn: make([]int, z.N)}
}

// support lists the columns with a positive value, by descending value
// (ties by column index, so the result is deterministic).
func support(x []float64, tol float64) []int {
	var s []int
	for c, v := range x {
		if v > tol {
			s = append(s, c)
		}
	}
	slices.SortStableFunc(s, func(a, b int) int { return cmp.Compare(x[b], x[a]) })
	return s
}

// simpleRounding is SimpleRoundingHeuristic: take the column with the
// largest value, discard the columns meeting it, repeat while at least 2k
// records are unassigned; the rest forms one group when it has k..2k-1
// records and is otherwise spread over the nearest centroids
// (AddRemainingNodes). The argmax runs over all columns of the master, as
// in the paper, so once the support is used up the columns at 0 compete;
// their ties (and all ties) go to the smaller reduced cost rc under the
// current duals, then to the older column.
func (r *rounder) simpleRounding(x, rc []float64, cols [][]int) [][]int {
	n := r.z.N
	for i := range r.assn {
		r.assn[i] = -1
	}
	left := n
	var groups [][]int
	order := make([]int, len(cols))
	for c := range order {
		order[c] = c
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(x[b], x[a]); c != 0 {
			return c
		}
		return cmp.Compare(rc[a], rc[b])
	})
	for _, c := range order {
		if left < 2*r.k {
			break
		}
		g := cols[c]
		free := true
		for _, v := range g {
			if r.assn[v] >= 0 {
				free = false
				break
			}
		}
		if !free {
			continue
		}
		for _, v := range g {
			r.assn[v] = len(groups)
		}
		groups = append(groups, slices.Clone(g))
		left -= len(g)
	}
	return r.finish(groups)
}

// finish places the unassigned records: one group when there are k..2k-1
// of them, otherwise each joins the group whose centroid is nearest.
func (r *rounder) finish(groups [][]int) [][]int {
	var rest []int
	for v, g := range r.assn {
		if g < 0 {
			rest = append(rest, v)
		}
	}
	if len(rest) == 0 {
		return groups
	}
	if (len(rest) >= r.k && len(rest) <= 2*r.k-1) || len(groups) == 0 {
		return append(groups, rest)
	}
	return r.addRemaining(groups, rest)
}

// addRemaining is AddRemainingNodes: every record in rest joins the group
// of groups whose centroid (before any record is added) is nearest.
func (r *rounder) addRemaining(groups [][]int, rest []int) [][]int {
	dim := r.z.D
	cent := make([]float64, len(groups)*dim)
	for g, members := range groups {
		c := cent[g*dim : (g+1)*dim]
		for _, v := range members {
			for a, x := range r.z.Row(v) {
				c[a] += x
			}
		}
		for a := range c {
			c[a] /= float64(len(members))
		}
	}
	for _, v := range rest {
		xv := r.z.Row(v)
		best, bestD := 0, 0.0
		for g := range groups {
			c := cent[g*dim : (g+1)*dim]
			s := 0.0
			for a, x := range xv {
				t := x - c[a]
				s += t * t
			}
			if g == 0 || s < bestD {
				best, bestD = g, s
			}
		}
		groups[best] = append(groups[best], v)
	}
	for _, g := range groups {
		slices.Sort(g)
	}
	return groups
}

// pairValue is z_ij = Σ_{C ∋ i,j} x_C for one pair of records.
type pairValue struct {
	i, j int32
	z    float64
}

// mstRounding is RoundingMSTHeuristic: z_ij = Σ_{C ∋ i,j} x_C over the
// support of x, pairs scanned by descending z_ij, the groups of i and j
// glued when their sizes add up to at most maxCl; groups still smaller than
// k are dissolved and their records placed by AddRemainingNodes. The paper
// runs maxCl = k+1..2k-1; we also try maxCl = k. It returns the clustering
// with the smallest SSE over the maxCl values.
func (r *rounder) mstRounding(x []float64, cols [][]int) [][]int {
	acc := map[int64]float64{}
	n := r.z.N
	for _, c := range support(x, 1e-9) {
		g := cols[c]
		for a, i := range g {
			for _, j := range g[a+1:] {
				lo, hi := min(i, j), max(i, j)
				acc[int64(lo)*int64(n)+int64(hi)] += x[c]
			}
		}
	}
	pairs := make([]pairValue, 0, len(acc))
	for key, v := range acc {
		pairs = append(pairs, pairValue{int32(key / int64(n)), int32(key % int64(n)), v})
	}
	slices.SortFunc(pairs, func(a, b pairValue) int {
		if c := cmp.Compare(b.z, a.z); c != 0 {
			return c
		}
		if c := cmp.Compare(a.i, b.i); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	var best [][]int
	bestSSE := 0.0
	parent := make([]int, n)
	size := make([]int, n)
	for maxCl := r.k; maxCl <= 2*r.k-1; maxCl++ {
		for i := range parent {
			parent[i], size[i] = i, 1
		}
		var find func(int) int
		find = func(i int) int {
			for parent[i] != i {
				parent[i] = parent[parent[i]]
				i = parent[i]
			}
			return i
		}
		for _, p := range pairs {
			a, b := find(int(p.i)), find(int(p.j))
			if a == b || size[a]+size[b] > maxCl {
				continue
			}
			if size[a] < size[b] {
				a, b = b, a
			}
			parent[b] = a
			size[a] += size[b]
		}
		idx := make(map[int]int)
		var groups [][]int
		for i := range r.assn {
			r.assn[i] = -1
		}
		for v := 0; v < n; v++ {
			root := find(v)
			if size[root] < r.k {
				continue
			}
			g, ok := idx[root]
			if !ok {
				g = len(groups)
				idx[root] = g
				groups = append(groups, nil)
			}
			groups[g] = append(groups[g], v)
			r.assn[v] = g
		}
		groups = r.finish(groups)
		s := r.d.PartitionCost(groups)
		if best == nil || s < bestSSE {
			best, bestSSE = groups, s
		}
	}
	return best
}
