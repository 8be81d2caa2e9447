package microagg

import (
	"math"

	"github.com/sdcopt/sdcopt/model"
)

// MDAV partitions the records of z into groups of at least k records with
// the Maximum Distance to Average Vector heuristic (Domingo-Ferrer &
// Mateo-Sanz 2002; Domingo-Ferrer & Torra 2005), in the variant that
// reproduces the published information losses of the CASC data sets (see
// the package documentation). Every group has k records except the last,
// which has k..2k-1. Groups are numbered in the order they are formed.
//
// z is used as given (standardize it first for the usual conventions).
// Errors: empty data set, no attributes, a non-finite value, k < 2 or
// k > n. The cost is O(n²d/k) time in the worst case and O(nd) memory;
// distance passes over more than 20,000 remaining records use two
// goroutines, with results identical to a sequential run.
func MDAV(z *model.Dataset, k int) (*model.Clustering, error) {
	if err := validate(z, k); err != nil {
		return nil, err
	}
	return newMDAV(z, k).run(), nil
}

// mdavTop is the number of records kept in the list of records farthest
// from the last exactly computed centroid c0 (see farthestFromCentroid).
const mdavTop = 256

// mdavState is one run of MDAV over a pool whose pivot 0 is the distance
// of every record to c0, the centroid at the last full centroid pass.
type mdavState struct {
	p       *pool
	k, d    int
	group   []int
	ng      int
	sum     []float64 // sum of the remaining rows
	sums    [2][]float64
	near    [2]*nearestSet
	top     [2]*nearestSet
	c, c0   []float64
	list    []int32 // the mdavTop records farthest from c0, farthest first
	outside float64 // upper bound of the distance to c0 of records not in list
	members []int
	nb      []int
}

func newMDAV(z *model.Dataset, k int) *mdavState {
	d := z.D
	m := &mdavState{
		p: newPool(z.X, z.N, d, false, 0),
		k: k, d: d,
		group: make([]int, z.N),
		sum:   make([]float64, d),
		sums:  [2][]float64{make([]float64, d), make([]float64, d)},
		near:  [2]*nearestSet{newNearestSet(k - 1), newNearestSet(k - 1)},
		top:   [2]*nearestSet{newNearestSet(mdavTop + 1), newNearestSet(mdavTop + 1)},
		c:     make([]float64, d),
		c0:    make([]float64, d),
	}
	m.p.sum(m.sum)
	return m
}

// centroid sets c to the mean of the remaining records.
func (m *mdavState) centroid() {
	inv := 1 / float64(m.p.n)
	for j := range m.c {
		m.c[j] = m.sum[j] * inv
	}
}

// farthestFromCentroid returns the remaining record farthest from c, as a
// full pass would (ties to the lowest original index). The centroid moves
// little from one step to the next, so it first tries the list of records
// farthest from c0: with δ = ||c - c0|| every record outside the list is
// within outside + δ of c, so when the best listed record is farther than
// that it is the answer. Otherwise it makes a full pass, which also makes
// c the new c0, refreshes pivot 0, the list and the running sum.
func (m *mdavState) farthestFromCentroid() extreme {
	p := m.p
	if m.list != nil && p.n > 4*mdavTop {
		delta := math.Sqrt(sqDist(m.c, m.c0))
		best := noExtreme(true)
		for _, id := range m.list {
			q := int(p.pos[id])
			if q < 0 {
				continue
			}
			dist := sqDist(p.row(q), m.c)
			if farther(dist, id, best.dist, best.id) {
				best = extreme{q, id, dist}
			}
		}
		bound := (m.outside + delta) * (1 + boundSlack)
		if best.q >= 0 && best.dist > bound*bound {
			return best
		}
	}
	r := p.centroidPass(m.c, &m.top, &m.sums)
	for j := range m.sum {
		m.sum[j] = m.sums[0][j] + m.sums[1][j]
	}
	copy(m.c0, m.c)
	m.nb = mergeNearest(m.top[0], m.top[1], m.nb)
	m.list = m.list[:0]
	m.outside = 0
	for i, q := range m.nb {
		if i == mdavTop {
			m.outside = math.Sqrt(sqDist(p.row(q), m.c0))
			break
		}
		m.list = append(m.list, p.id[q])
	}
	return r
}

// takeGroup forms a group of the record at position q and the records at
// positions nb, subtracts their rows from the running sum and removes
// them from the pool.
func (m *mdavState) takeGroup(q int, nb []int) {
	p := m.p
	m.members = append(m.members[:0], q)
	m.members = append(m.members, nb...)
	for _, x := range m.members {
		m.group[p.id[x]] = m.ng
		for j, v := range p.row(x) {
			m.sum[j] -= v
		}
	}
	m.ng++
	p.removeAll(m.members)
}

// groupAround forms the group of the record at position q and its k-1
// nearest remaining records. With far, it also returns the remaining
// record farthest from q (found in the same pass, before the group is
// removed; ties to the lowest original index).
func (m *mdavState) groupAround(q int, far bool) (farID int32) {
	p := m.p
	qr := &query{
		c:    append([]float64(nil), p.row(q)...),
		skip: q,
		far:  far,
	}
	s := p.nearest(qr, &m.near)
	m.nb = mergeNearest(m.near[0], m.near[1], m.nb)
	m.takeGroup(q, m.nb)
	if !far {
		return -1
	}
	if p.pos[s.id] < 0 {
		// s was among q's nearest records (possible only with ties): the
		// farthest record left is the farthest from q after the removal.
		return p.id[p.farthestFrom(qr.c).q]
	}
	return s.id
}

func (m *mdavState) run() *model.Clustering {
	p, k := m.p, m.k
	for p.n >= 3*k {
		m.centroid()
		r := m.farthestFromCentroid()
		sid := m.groupAround(r.q, true)
		m.groupAround(int(p.pos[sid]), false)
	}
	if p.n >= 2*k {
		m.centroid()
		r := p.farthestFrom(m.c)
		m.groupAround(r.q, false)
	}
	if p.n > 0 {
		for q := 0; q < p.n; q++ {
			m.group[p.id[q]] = m.ng
		}
		m.ng++
		p.n = 0
	}
	return &model.Clustering{Group: m.group, NumGroups: m.ng}
}
