package microagg

import (
	"math"
	"runtime"
	"slices"
	"sync"
)

// parallelMin is the number of remaining records from which a distance
// pass over the pool is split between two goroutines. Below it the two
// halves run one after the other: the work is the same, only the
// goroutine overhead differs.
const parallelMin = 20000

// pool is the compact set of records not yet assigned to a group, as used
// by MDAV and V-MDAV. Rows hold the coordinates of the n remaining records
// in dense order (row p is rows[p*d : (p+1)*d]), id their original
// indices and pos the inverse map (pos[id[p]] == p). Removing a record
// moves the last one into its place, so every pass reads n contiguous
// rows and nothing else. aux is an optional per-record value that moves
// with its record.
type pool struct {
	d, n int
	rows []float64
	id   []int32
	pos  []int32
	aux  []float64

	// piv holds, for every record, its distances (not squared) to np
	// fixed reference points ("pivots"; row q is piv[q*np : (q+1)*np]).
	// By the triangle inequality, |piv_x - piv_y| <= ||x - y|| <=
	// piv_x + piv_y for every pivot, which lets a pass skip records
	// without reading their rows. nil when unused.
	np  int
	piv []float64

	// parallel enables the two-goroutine passes; minPar is the pool size
	// from which they are used. Results never depend on either: a pass
	// always works on the same two halves [0, n/2) and [n/2, n) and
	// combines their results the same way.
	parallel bool
	minPar   int
}

func newPool(x []float64, n, d int, withAux bool, npiv int) *pool {
	p := &pool{
		d: d, n: n,
		rows:     append([]float64(nil), x[:n*d]...),
		id:       make([]int32, n),
		pos:      make([]int32, n),
		parallel: runtime.GOMAXPROCS(0) > 1,
		minPar:   parallelMin,
	}
	for i := range p.id {
		p.id[i] = int32(i)
		p.pos[i] = int32(i)
	}
	if withAux {
		p.aux = make([]float64, n)
	}
	if npiv > 0 {
		p.np = npiv
		p.piv = make([]float64, n*npiv)
	}
	return p
}

func (p *pool) row(q int) []float64 { return p.rows[q*p.d : (q+1)*p.d] }

// remove deletes the record at position q, moving the last record into
// its place. To remove several records, remove them in decreasing
// position order.
func (p *pool) remove(q int) {
	last := p.n - 1
	p.pos[p.id[q]] = -1
	if q != last {
		d := p.d
		copy(p.rows[q*d:(q+1)*d], p.rows[last*d:(last+1)*d])
		p.id[q] = p.id[last]
		p.pos[p.id[q]] = int32(q)
		if p.aux != nil {
			p.aux[q] = p.aux[last]
		}
		if p.np > 0 {
			copy(p.piv[q*p.np:(q+1)*p.np], p.piv[last*p.np:(last+1)*p.np])
		}
	}
	p.n--
}

// removeAll removes the records at the given positions (any order; the
// slice is sorted in place).
func (p *pool) removeAll(qs []int) {
	sortDesc(qs)
	for _, q := range qs {
		p.remove(q)
	}
}

func sortDesc(a []int) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && a[j-1] < v {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}

// halves runs f on the two halves of the pool, in parallel when the pool
// is large enough. f must write only to the state of its half.
func (p *pool) halves(f func(half, lo, hi int)) {
	mid := p.n / 2
	if p.parallel && p.n >= p.minPar {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(1, mid, p.n)
		}()
		f(0, 0, mid)
		wg.Wait()
		return
	}
	f(0, 0, mid)
	f(1, mid, p.n)
}

// sqDist is the squared Euclidean distance ||a - b||². Every pass uses it,
// so a distance is the same number whichever pass computes it.
//
//go:noinline
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for j := range a {
		t := a[j] - b[j]
		s += t * t
	}
	return s
}

// farther reports whether (da, ia) comes before (db, ib) when looking for
// the farthest record: larger distance first, then lower original index.
func farther(da float64, ia int32, db float64, ib int32) bool {
	return da > db || (da == db && ia < ib)
}

// nearer reports whether (da, ia) comes before (db, ib) when looking for
// the nearest records: smaller distance first, then lower original index.
func nearer(da float64, ia int32, db float64, ib int32) bool {
	return da < db || (da == db && ia < ib)
}

// extreme is the best record of a pass (position, original index and
// squared distance); q < 0 when the pass saw no record.
type extreme struct {
	q    int
	id   int32
	dist float64
}

func noExtreme(far bool) extreme {
	if far {
		return extreme{q: -1, id: math.MaxInt32, dist: math.Inf(-1)}
	}
	return extreme{q: -1, id: math.MaxInt32, dist: math.Inf(1)}
}

// nearestSet keeps the m nearest records seen so far (by (distance,
// original index)) in a binary max-heap whose top is the worst kept one.
// It starts filled with sentinels worse than any record.
type nearestSet struct {
	dist  []float64
	id    []int32
	q     []int
	order []int // scratch for sorted
}

func newNearestSet(m int) *nearestSet {
	h := &nearestSet{dist: make([]float64, m), id: make([]int32, m), q: make([]int, m)}
	h.reset()
	return h
}

func (h *nearestSet) reset() {
	for i := range h.dist {
		h.dist[i], h.id[i], h.q[i] = math.Inf(1), math.MaxInt32, -1
	}
}

// offer considers a record; the caller has checked that it beats the top
// (nearer(d, id, h.dist[0], h.id[0])).
func (h *nearestSet) offer(d float64, id int32, q int) {
	m := len(h.dist)
	i := 0
	for {
		l := 2*i + 1
		if l >= m {
			break
		}
		c := l
		if r := l + 1; r < m && nearer(h.dist[l], h.id[l], h.dist[r], h.id[r]) {
			c = r
		}
		if !nearer(d, id, h.dist[c], h.id[c]) {
			break
		}
		h.dist[i], h.id[i], h.q[i] = h.dist[c], h.id[c], h.q[c]
		i = c
	}
	h.dist[i], h.id[i], h.q[i] = d, id, q
}

// mergeNearest returns the positions of the m nearest records of the two
// halves' sets (sentinels excluded), nearest first, in out's storage.
func mergeNearest(a, b *nearestSet, out []int) []int {
	m := len(a.dist)
	out = out[:0]
	ia, ib := a.sorted(), b.sorted()
	for len(out) < m {
		var ta, tb bool
		ta = len(ia) > 0
		tb = len(ib) > 0
		switch {
		case ta && tb:
			x, y := ia[0], ib[0]
			if nearer(a.dist[x], a.id[x], b.dist[y], b.id[y]) {
				out = append(out, a.q[x])
				ia = ia[1:]
			} else {
				out = append(out, b.q[y])
				ib = ib[1:]
			}
		case ta:
			out = append(out, a.q[ia[0]])
			ia = ia[1:]
		case tb:
			out = append(out, b.q[ib[0]])
			ib = ib[1:]
		default:
			return out
		}
	}
	return out
}

// sorted returns the indices of the set's real entries (sentinels
// excluded), nearest first.
func (h *nearestSet) sorted() []int {
	idx := h.order[:0]
	for i := range h.dist {
		if h.q[i] >= 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(x, y int) int {
		if nearer(h.dist[x], h.id[x], h.dist[y], h.id[y]) {
			return -1
		}
		if nearer(h.dist[y], h.id[y], h.dist[x], h.id[x]) {
			return 1
		}
		return 0
	})
	h.order = idx
	return idx
}

// boundSlack is the relative safety margin of the distance bounds used to
// skip full passes: distances are rounded, so a bound is only trusted when
// it holds with this much to spare.
const boundSlack = 1e-9

// query describes a distance pass from one record: find its m nearest
// remaining records (other than itself) and optionally the farthest one.
type query struct {
	c    []float64 // the record's coordinates
	skip int       // its position, never reported
	far  bool      // also find the farthest record
}

// nearest runs the pass; near receives the per-half nearest sets (reset
// here). It returns the farthest record when q.far.
func (p *pool) nearest(q *query, near *[2]*nearestSet) extreme {
	var res [2]extreme
	p.halves(func(h, lo, hi int) {
		near[h].reset()
		if q.far {
			res[h] = p.nearFarRange(q.c, q.skip, near[h], lo, hi)
		} else {
			p.nearRange(q.c, q.skip, near[h], lo, hi)
			res[h] = noExtreme(true)
		}
	})
	if farther(res[1].dist, res[1].id, res[0].dist, res[0].id) {
		return res[1]
	}
	return res[0]
}

// nearRange offers the records at positions [lo, hi) other than skip to
// ns by their distance to c. Distances are only completed for records
// that can enter ns.
func (p *pool) nearRange(c []float64, skip int, ns *nearestSet, lo, hi int) {
	d := p.d
	rows, ids := p.rows, p.id
	q := lo
	for ; q+1 < hi; q += 2 {
		worst := ns.dist[0]
		d0, d1 := sqDist2Bound(rows[q*d:q*d+d], rows[q*d+d:q*d+2*d], c, worst)
		if q != skip && (d0 < worst || (d0 == worst && ids[q] < ns.id[0])) {
			ns.offer(d0, ids[q], q)
		}
		if q+1 != skip && (d1 < ns.dist[0] || (d1 == ns.dist[0] && ids[q+1] < ns.id[0])) {
			ns.offer(d1, ids[q+1], q+1)
		}
	}
	if q < hi && q != skip {
		dist := sqDist(rows[q*d:q*d+d], c)
		if dist < ns.dist[0] || (dist == ns.dist[0] && ids[q] < ns.id[0]) {
			ns.offer(dist, ids[q], q)
		}
	}
}

// sqDist2Bound is sqDist2, except that it may stop early and return
// partial sums once both exceed bound (both results are then > bound).
// The terms are added in the same order as in sqDist, so complete results
// are the same numbers; a partial one is a lower bound of the full one,
// since adding non-negative terms never decreases a rounded sum.
//
//go:noinline
func sqDist2Bound(a0, a1, c []float64, bound float64) (float64, float64) {
	a1 = a1[:len(a0)]
	c = c[:len(a0)]
	var s0, s1 float64
	j := 0
	if len(c) >= 8 {
		for ; j < 4; j++ {
			cj := c[j]
			t0 := a0[j] - cj
			t1 := a1[j] - cj
			s0 += t0 * t0
			s1 += t1 * t1
		}
		if s0 > bound && s1 > bound {
			return s0, s1
		}
	}
	for ; j < len(c); j++ {
		cj := c[j]
		t0 := a0[j] - cj
		t1 := a1[j] - cj
		s0 += t0 * t0
		s1 += t1 * t1
	}
	return s0, s1
}

// nearFarRange is nearRange that also returns the farthest record of the
// range. It computes two distances per call of the kernel.
func (p *pool) nearFarRange(c []float64, skip int, ns *nearestSet, lo, hi int) extreme {
	d := p.d
	rows, ids := p.rows, p.id
	best := noExtreme(true)
	visit := func(q int, dist float64) {
		id := ids[q]
		if dist < ns.dist[0] || (dist == ns.dist[0] && id < ns.id[0]) {
			ns.offer(dist, id, q)
		}
		if dist > best.dist || (dist == best.dist && id < best.id) {
			best = extreme{q, id, dist}
		}
	}
	q := lo
	for ; q+1 < hi; q += 2 {
		d0, d1 := sqDist2(rows[q*d:q*d+d], rows[q*d+d:q*d+2*d], c)
		if q != skip {
			visit(q, d0)
		}
		if q+1 != skip {
			visit(q+1, d1)
		}
	}
	if q < hi && q != skip {
		visit(q, sqDist(rows[q*d:q*d+d], c))
	}
	return best
}

// sqDist2 returns sqDist(a0, c) and sqDist(a1, c), each the same number
// sqDist gives, loading c once for both.
//
//go:noinline
func sqDist2(a0, a1, c []float64) (float64, float64) {
	a1 = a1[:len(a0)]
	c = c[:len(a0)]
	var s0, s1 float64
	for j, cj := range c {
		t0 := a0[j] - cj
		t1 := a1[j] - cj
		s0 += t0 * t0
		s1 += t1 * t1
	}
	return s0, s1
}

// farthestFrom returns the remaining record farthest from c (a full pass).
func (p *pool) farthestFrom(c []float64) extreme {
	var res [2]extreme
	p.halves(func(h, lo, hi int) {
		best := noExtreme(true)
		d := p.d
		rows, ids := p.rows, p.id
		for q := lo; q < hi; q++ {
			dist := sqDist(rows[q*d:q*d+d], c)
			if dist > best.dist || (dist == best.dist && ids[q] < best.id) {
				best = extreme{q, ids[q], dist}
			}
		}
		res[h] = best
	})
	if farther(res[1].dist, res[1].id, res[0].dist, res[0].id) {
		return res[1]
	}
	return res[0]
}

// centroidPass is a full pass from the point c: it returns the farthest record, collects the
// top sets (farthest records, keyed by negated distance) and the sum of
// the rows (per half).
func (p *pool) centroidPass(c []float64, top *[2]*nearestSet, sums *[2][]float64) extreme {
	var res [2]extreme
	p.halves(func(h, lo, hi int) {
		best := noExtreme(true)
		d := p.d
		rows, ids := p.rows, p.id
		ts := top[h]
		ts.reset()
		sum := sums[h]
		for j := range sum {
			sum[j] = 0
		}
		for q := lo; q < hi; q++ {
			row := rows[q*d : q*d+d]
			sum = sum[:len(row)]
			for j, v := range row {
				sum[j] += v
			}
			dist := sqDist(row, c)
			id := ids[q]
			if dist > best.dist || (dist == best.dist && id < best.id) {
				best = extreme{q, id, dist}
			}
			if -dist < ts.dist[0] || (-dist == ts.dist[0] && id < ts.id[0]) {
				ts.offer(-dist, id, q)
			}
		}
		res[h] = best
	})
	if farther(res[1].dist, res[1].id, res[0].dist, res[0].id) {
		return res[1]
	}
	return res[0]
}

// sum returns the sum of the remaining rows, computed as the sum of the
// two halves so that it is the same number in every pass mode.
func (p *pool) sum(out []float64) {
	var part [2][]float64
	p.halves(func(h, lo, hi int) {
		s := make([]float64, p.d)
		d := p.d
		for q := lo; q < hi; q++ {
			row := p.rows[q*d : q*d+d]
			for j, v := range row {
				s[j] += v
			}
		}
		part[h] = s
	})
	for j := range out {
		out[j] = part[0][j] + part[1][j]
	}
}

// sqDistBound is sqDist, except that it may stop early and return a
// partial sum once that exceeds bound (the result is then > bound). The
// terms are added in the same order as in sqDist, so a complete result is
// the same number.
func sqDistBound(a, c []float64, bound float64) float64 {
	c = c[:len(a)]
	var s float64
	j := 0
	if len(c) >= 8 {
		for ; j < 4; j++ {
			t := a[j] - c[j]
			s += t * t
		}
		if s > bound {
			return s
		}
	}
	for ; j < len(c); j++ {
		t := a[j] - c[j]
		s += t * t
	}
	return s
}

// nearestToSet returns the remaining record nearest to the set of points
// (rows of centers, row-major), by its distance to the nearest point of
// the set (ties to the lowest original index).
func (p *pool) nearestToSet(centers []float64) extreme {
	var res [2]extreme
	p.halves(func(h, lo, hi int) {
		d := p.d
		rows, ids := p.rows, p.id
		best := noExtreme(false)
		for q := lo; q < hi; q++ {
			row := rows[q*d : q*d+d]
			for c := 0; c+d <= len(centers); c += d {
				dist := sqDistBound(row, centers[c:c+d], best.dist)
				if dist < best.dist || (dist == best.dist && ids[q] < best.id) {
					best = extreme{q, ids[q], dist}
				}
			}
		}
		res[h] = best
	})
	if nearer(res[1].dist, res[1].id, res[0].dist, res[0].id) {
		return res[1]
	}
	return res[0]
}
