package microagg

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// parallelMin is the number of remaining records from which a distance
// pass over the pool is split between two goroutines. Below it the pass
// runs on the calling goroutine: the work is the same, only the goroutine
// overhead differs.
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
	// that sums rows (halves) always works on the same two halves [0, n/2)
	// and [n/2, n) and combines their results the same way; a nearest or
	// farthest pass (chunked) computes a selection by (distance, index),
	// which does not depend on how the records are split.
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

// chunkSize is the number of records in a chunk of a chunked pass.
const chunkSize = 2048

// chunked runs f over the positions [0, n) of the pool, in chunks of
// chunkSize records that two workers (w = 0, the calling goroutine, and
// w = 1, a helper goroutine when the pool is large enough) claim in turn
// from a shared counter: a worker that starts late or is descheduled
// simply takes fewer chunks, where fixed halves would make the other one
// wait. Which worker sees which records depends on timing, so f must
// compute a result that does not: per-worker selections of the nearest
// or farthest records by (distance, original index), which is a total
// order, merged afterwards (never floating-point sums, whose rounding
// depends on the order). f must write only to the state of worker w.
func (p *pool) chunked(f func(w, lo, hi int)) {
	n := p.n
	if !p.parallel || n < p.minPar || n <= chunkSize {
		f(0, 0, n)
		return
	}
	var next atomic.Int64
	work := func(w int) {
		for {
			lo := int(next.Add(chunkSize)) - chunkSize
			if lo >= n {
				return
			}
			f(w, lo, min(lo+chunkSize, n))
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		work(1)
	}()
	work(0)
	wg.Wait()
}

// sqDist is the squared Euclidean distance ||a - b||². Every pass uses it,
// so a distance is the same number whichever pass computes it.
//
// It stays hand-written: gonum has no squared distance, and
// floats.Distance(a, b, 2) (a square root of a rescaled sum, guarding
// against overflow) squared is not the same number and was 8x slower on
// 10 attributes (BenchmarkSqDist: one pass over 10^5 records).
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
// halves' (or workers') sets (sentinels excluded), nearest first, in
// out's storage.
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

// nearest runs the pass; near receives the per-worker nearest sets (reset
// here). It returns the farthest record when q.far.
func (p *pool) nearest(q *query, near *[2]*nearestSet) extreme {
	res := [2]extreme{noExtreme(true), noExtreme(true)}
	near[0].reset()
	near[1].reset()
	p.chunked(func(w, lo, hi int) {
		if q.far {
			if r := p.nearFarRange(q.c, q.skip, near[w], lo, hi); farther(r.dist, r.id, res[w].dist, res[w].id) {
				res[w] = r
			}
		} else {
			p.nearRange(q.c, q.skip, near[w], lo, hi)
		}
	})
	if farther(res[1].dist, res[1].id, res[0].dist, res[0].id) {
		return res[1]
	}
	return res[0]
}

// nearRange offers the records at positions [lo, hi) other than skip to
// ns by their distance to c. Distances are only completed for records
// that can enter ns. Records are taken four at a time (sqDist4Bound).
func (p *pool) nearRange(c []float64, skip int, ns *nearestSet, lo, hi int) {
	d := p.d
	rows, ids := p.rows, p.id
	// offer offers the record at position q, at distance dist, if it
	// beats the worst kept record (the top of ns).
	offer := func(q int, dist float64) {
		if q != skip && (dist < ns.dist[0] || (dist == ns.dist[0] && ids[q] < ns.id[0])) {
			ns.offer(dist, ids[q], q)
		}
	}
	q := lo
	for ; q+3 < hi; q += 4 {
		d0, d1, d2, d3 := sqDist4Bound(rows[q*d:(q+4)*d], c, ns.dist[0])
		offer(q, d0)
		offer(q+1, d1)
		offer(q+2, d2)
		offer(q+3, d3)
	}
	for ; q < hi; q++ {
		offer(q, sqDist(rows[q*d:q*d+d], c))
	}
}

// sqDist4Bound is sqDist4, except that it may stop early and return
// partial sums once all four exceed bound (all results are then >
// bound). The terms are added in the same order as in sqDist, so complete
// results are the same numbers; a partial one is a lower bound of the
// full one, since adding non-negative terms never decreases a rounded sum.
func sqDist4Bound(r, c []float64, bound float64) (s0, s1, s2, s3 float64) {
	d := len(c)
	a0, a1, a2, a3 := r[:d], r[d:][:d], r[2*d:][:d], r[3*d:][:d]
	j := 0
	if d >= 8 {
		for i, cj := range c[:4] {
			t0, t1, t2, t3 := a0[i]-cj, a1[i]-cj, a2[i]-cj, a3[i]-cj
			s0 += t0 * t0
			s1 += t1 * t1
			s2 += t2 * t2
			s3 += t3 * t3
		}
		if s0 > bound && s1 > bound && s2 > bound && s3 > bound {
			return
		}
		j = 4
	}
	c = c[j:]
	a0, a1, a2, a3 = a0[j:], a1[j:], a2[j:], a3[j:]
	for i, cj := range c {
		t0, t1, t2, t3 := a0[i]-cj, a1[i]-cj, a2[i]-cj, a3[i]-cj
		s0 += t0 * t0
		s1 += t1 * t1
		s2 += t2 * t2
		s3 += t3 * t3
	}
	return
}

// nearFarRange is nearRange that also returns the farthest record of the
// range. It computes four distances per call of the kernel.
func (p *pool) nearFarRange(c []float64, skip int, ns *nearestSet, lo, hi int) extreme {
	d := p.d
	rows, ids := p.rows, p.id
	best := noExtreme(true)
	// Most records are neither among the nearest nor the farthest: one
	// test of the distance against the worst kept nearest (worst) and the
	// farthest so far (best.dist) dismisses them; equal distances go on
	// to the comparison of indices.
	worst := ns.dist[0]
	visit := func(q int, dist float64) {
		if dist > worst && dist < best.dist || q == skip {
			return
		}
		id := ids[q]
		if dist < worst || (dist == worst && id < ns.id[0]) {
			ns.offer(dist, id, q)
			worst = ns.dist[0]
		}
		if dist > best.dist || (dist == best.dist && id < best.id) {
			best = extreme{q, id, dist}
		}
	}
	q := lo
	for ; q+3 < hi; q += 4 {
		d0, d1, d2, d3 := sqDist4(rows[q*d:(q+4)*d], c)
		visit(q, d0)
		visit(q+1, d1)
		visit(q+2, d2)
		visit(q+3, d3)
	}
	for ; q < hi; q++ {
		visit(q, sqDist(rows[q*d:q*d+d], c))
	}
	return best
}

// sqDist4 returns the squared distances to c of the four consecutive rows
// of r (each len(c) long), each the same number sqDist gives (same terms,
// same order), loading c once for the four: the four sums are
// independent, so they proceed in parallel in the CPU pipeline.
func sqDist4(r, c []float64) (s0, s1, s2, s3 float64) {
	d := len(c)
	a0, a1, a2, a3 := r[:d], r[d:][:d], r[2*d:][:d], r[3*d:][:d]
	for j, cj := range c {
		t0, t1, t2, t3 := a0[j]-cj, a1[j]-cj, a2[j]-cj, a3[j]-cj
		s0 += t0 * t0
		s1 += t1 * t1
		s2 += t2 * t2
		s3 += t3 * t3
	}
	return
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
