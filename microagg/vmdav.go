package microagg

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// DefaultGamma is the V-MDAV extension parameter γ used when none is
// given: the value Solanas & Martínez-Ballesté (2006) recommend for
// scattered data such as the CASC sets (about 1.1 suits clustered data).
const DefaultGamma = 0.2

// VMDAV partitions the records of z into groups of k..2k-1 records (more
// only for the groups that absorb the last fewer-than-k records) with
// V-MDAV, the variable-group-size MDAV of Solanas & Martínez-Ballesté
// (2006), in the variant described in the package documentation. gamma
// (γ >= 0) controls how readily groups grow beyond k records: γ = 0 never
// extends a group.
//
// Errors: as for MDAV, and a negative or non-finite gamma. The cost is
// O(n²d) time in the worst case and O(nd) memory.
func VMDAV(z *model.Dataset, k int, gamma float64) (*model.Clustering, error) {
	if err := validate(z, k); err != nil {
		return nil, err
	}
	if math.IsNaN(gamma) || math.IsInf(gamma, 0) || gamma < 0 {
		return nil, fmt.Errorf("%w: gamma = %v, need a finite gamma >= 0", ErrGamma, gamma)
	}
	p := newPool(z.X, z.N, z.D, false, 0)
	return vmdav(p, z, k, gamma), nil
}

func vmdav(p *pool, z *model.Dataset, k int, gamma float64) *model.Clustering {
	n, d := z.N, z.D
	group := make([]int, n)
	for i := range group {
		group[i] = -1
	}
	ng := 0

	// The records in order of decreasing distance to the centroid of the
	// whole data set (ties to the lowest index): the centroid is fixed,
	// so "the unassigned record farthest from it" is the next unassigned
	// record of this order.
	c := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range z.Row(i) {
			c[j] += v
		}
	}
	for j := range c {
		c[j] /= float64(n)
	}
	dc := make([]float64, n)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
		dc[i] = sqDist(z.Row(i), c)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if farther(dc[a], a, dc[b], b) {
			return -1
		}
		if farther(dc[b], b, dc[a], a) {
			return 1
		}
		return 0
	})
	next := 0

	near := [2]*nearestSet{newNearestSet(k - 1), newNearestSet(k - 1)}
	one := [2]*nearestSet{newNearestSet(1), newNearestSet(1)}
	var nb []int
	centers := make([]float64, 0, (2*k-1)*d)
	row := make([]float64, d)
	gamma2 := gamma * gamma

	for p.n >= k {
		for p.pos[order[next]] < 0 {
			next++
		}
		e := int(p.pos[order[next]])
		// The group: e and its k-1 nearest unassigned records.
		copy(row, p.row(e))
		p.nearest(&query{c: row, skip: e}, &near)
		nb = mergeNearest(near[0], near[1], nb)
		nb = append(nb, e)
		centers = centers[:0]
		for _, q := range nb {
			group[p.id[q]] = ng
			centers = append(centers, p.row(q)...)
		}
		p.removeAll(nb)
		// Extension: the unassigned record nearest to the group joins it
		// while it is closer to the group than to any other unassigned
		// record by the factor γ.
		size := k
		for size < 2*k-1 && p.n > 0 && gamma > 0 {
			m := p.nearestToSet(centers)
			din := m.dist
			dout := math.Inf(1)
			copy(row, p.row(m.q))
			if p.n > 1 {
				p.nearest(&query{c: row, skip: m.q}, &one)
				nb = mergeNearest(one[0], one[1], nb)
				dout = sqDist(p.row(nb[0]), row)
			}
			// d_in < γ·d_out on (unsquared) Euclidean distances.
			if !(din < gamma2*dout) {
				break
			}
			group[m.id] = ng
			centers = append(centers, row...)
			p.remove(m.q)
			size++
		}
		ng++
	}
	if p.n > 0 {
		// Fewer than k records are left: each joins the group of the
		// nearest centroid (ties to the lowest group number).
		cent := make([]float64, ng*d)
		cnt := make([]float64, ng)
		for i, g := range group {
			if g < 0 {
				continue
			}
			for j, v := range z.Row(i) {
				cent[g*d+j] += v
			}
			cnt[g]++
		}
		for g := 0; g < ng; g++ {
			for j := 0; j < d; j++ {
				cent[g*d+j] /= cnt[g]
			}
		}
		for q := 0; q < p.n; q++ {
			x := p.row(q)
			best, bd := 0, math.Inf(1)
			for g := 0; g < ng; g++ {
				if dist := sqDist(x, cent[g*d:(g+1)*d]); dist < bd {
					best, bd = g, dist
				}
			}
			group[p.id[q]] = best
		}
		p.n = 0
	}
	return &model.Clustering{Group: group, NumGroups: ng}
}
