package enumerate

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// search is one Solve call. Records are renumbered into positions
// 0..n-1 (ord[a] is the record at position a); groups are enumerated as
// increasing position sequences.
type search struct {
	pp     *Prepared
	buf    *searchBuf
	lambda []float64 // original order
	n, eta int
	ord    []int32
	dn     []float64 // dn[a*n+b] = c_{ord[a] ord[b]} / eta
	lam    []float64 // lam[a] = lambda[ord[a]]
	h      []float64 // h[a*eta+q] = (sum of the q smallest c_{ord[a] j}) / (2 eta)
	t      []float64 // t[a] = h[a*eta+eta-1] - lam[a]
	first  []float64 // first[a]: bound on the groups whose smallest position is a
	slack  float64

	top      *topList
	deadline time.Time
	timed    bool
	accept   func([]int) bool
	penalty  Penalty
	stop     atomic.Bool
	workers  int

	// Task a explores the groups whose first position is a.
	ntasks int64
	next   atomic.Int64
	// unfinished is the smallest task not finished (ntasks when the
	// search completed).
	unfinished int64
	// stopAfter > 0 stops the search before task stopAfter (tests).
	stopAfter int64
}

// searchBuf holds the per-call arrays, recycled through Prepared.bufs.
type searchBuf struct {
	ord                 []int32
	dn, lam, t, first   []float64
	h, tOrig, smallRoot []float64
}

// slackRel scales the pruning slack: a subtree is pruned only when its
// bound exceeds the cutoff by more than slack, so that rounding differences
// between a bound and the reduced cost it bounds can never discard a group
// that belongs to the answer.
const slackRel = 1e-10

func newSearch(pp *Prepared, lambda []float64, eta int, o *Options) *search {
	n := pp.n
	s := &search{pp: pp, lambda: lambda, n: n, eta: eta, workers: o.Workers,
		top: newTopList(o.MaxColumns, o.Threshold), deadline: o.Deadline, timed: !o.Deadline.IsZero(), accept: o.Accept, penalty: o.Penalty}
	if o.All {
		s.top.all, s.top.stop = true, &s.stop
	}
	buf, _ := pp.bufs.Get().(*searchBuf)
	if buf == nil {
		buf = &searchBuf{ord: make([]int32, n), dn: make([]float64, n*n), lam: make([]float64, n),
			t: make([]float64, n), first: make([]float64, n), h: make([]float64, n*pp.maxEta),
			tOrig: make([]float64, n), smallRoot: make([]float64, 0, pp.maxEta)}
	}
	s.buf = buf
	f2 := 1 / (2 * float64(eta))
	tOrig := buf.tOrig
	for v := range tOrig {
		tOrig[v] = pp.nn[v*pp.maxEta+eta-1]*f2 - lambda[v]
	}
	ord := buf.ord
	for i := range ord {
		ord[i] = int32(i)
	}
	// Most promising records first: t ascending, ties by record index.
	slices.SortStableFunc(ord, func(a, b int32) int { return cmp.Compare(tOrig[a], tOrig[b]) })
	s.ord = ord
	fe := 1 / float64(eta)
	s.dn, s.lam, s.h, s.t, s.first = buf.dn, buf.lam, buf.h[:n*eta], buf.t, buf.first
	maxD, maxL := 0.0, 0.0
	D := pp.dist.D
	for a, va := range ord {
		row := D[int(va)*n : (int(va)+1)*n]
		out := s.dn[a*n : (a+1)*n]
		for b, vb := range ord {
			x := row[vb]
			out[b] = x * fe
			maxD = max(maxD, math.Abs(x))
		}
		s.lam[a] = lambda[va]
		maxL = max(maxL, math.Abs(lambda[va]))
		for q := 0; q < eta; q++ {
			s.h[a*eta+q] = pp.nn[int(va)*pp.maxEta+q] * f2
		}
		s.t[a] = tOrig[va]
	}
	e := float64(eta)
	s.slack = slackRel * (1 + e*maxL + e*maxD)
	// first[a] = t[a] + sum of the eta-1 smallest t after a (the t of the
	// group's other members).
	small := buf.smallRoot[:0]
	for a := n - 1; a >= 0; a-- {
		s.first[a] = s.t[a] + sumIfFull(small, eta-1)
		small = insertSmallest(small, eta-1, s.t[a])
	}
	s.ntasks = int64(n - eta + 1)
	return s
}

// sumIfFull is the sum of the first q values of a (ascending), +Inf if a
// has fewer than q.
func sumIfFull(a []float64, q int) float64 {
	if q <= 0 {
		return 0
	}
	if len(a) < q {
		return math.Inf(1)
	}
	s := 0.0
	for _, x := range a[:q] {
		s += x
	}
	return s
}

func (s *search) cutoff() float64 { return s.top.cutoff() + s.slack }

func (s *search) run() *Result {
	res := &Result{}
	if s.eta == 1 {
		s.solveSingletons()
		res.Nodes = int64(s.n)
		res.Complete = true
	} else {
		res.Complete, res.Nodes = s.runWorkers()
	}
	if s.top.all {
		s.top.sortAll()
		if s.top.overflow {
			res.Complete, res.Overflow = false, true
		}
	}
	res.Columns = s.top.cols
	best := s.top.thr
	if len(res.Columns) > 0 {
		best = res.Columns[0].ReducedCost
	}
	res.LowerBound = best
	if !res.Complete {
		res.LowerBound = min(best, s.unfinishedBound())
	}
	s.pp.bufs.Put(s.buf)
	s.buf = nil
	return res
}

// solveSingletons: a group of one record has reduced cost −λ_v.
func (s *search) solveSingletons() {
	m := []int{0}
	for v := range s.lambda {
		m[0] = v
		if s.accept != nil && !s.accept(m) {
			continue
		}
		rc := s.pp.dist.ReducedCost(s.lambda, m)
		if s.penalty != nil {
			rc += s.penalty.Extra(nil, v)
		}
		s.top.offer(m, rc)
	}
}

// runWorkers distributes the tasks dynamically over the workers.
func (s *search) runWorkers() (complete bool, nodes int64) {
	nw := max(1, min(s.workers, int(s.ntasks)))
	ws := make([]*worker, nw)
	for i := range ws {
		ws[i] = s.pp.getWorker(s)
	}
	if nw == 1 {
		ws[0].loop()
	} else {
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Go(w.loop)
		}
		wg.Wait()
	}
	s.unfinished = s.ntasks
	if s.stop.Load() {
		s.unfinished = min(s.ntasks, s.next.Load())
	}
	for _, w := range ws {
		nodes += w.nodes
		if w.unfinished >= 0 {
			s.unfinished = min(s.unfinished, w.unfinished)
		}
		w.s = nil
		s.pp.workers.Put(w)
	}
	return s.unfinished >= s.ntasks, nodes
}

// unfinishedBound bounds the groups of the tasks not finished: they all
// have their first position at or after the smallest unfinished task.
func (s *search) unfinishedBound() float64 {
	b := math.Inf(1)
	for a := int(s.unfinished); a < int(s.ntasks); a++ {
		b = min(b, s.first[a])
	}
	return b
}

// worker holds the per-depth scratch of one goroutine. Level m describes a
// partial group S of m records (path[:m]): its candidate positions (all
// after path[m-1]) and for each the increase of the reduced cost if it is
// added, inc_j = Σ_{u∈S} c_uj/η − λ_j. The level-m arrays are the slices
// [m*n : (m+1)*n] of cand, inc, g, sufR and suf1.
type worker struct {
	s                  *search
	n                  int
	cand               []int32
	inc, g, sufR, suf1 []float64
	small              []float64
	path               []int32
	members            []int
	orig               []int // orig[i] = ord[path[i]] (the records, for the penalty)
	nodes              int64
	polled             int64 // w.nodes at the last poll of the deadline
	unfinished         int64
}

// getWorker returns a worker with scratch for this matrix, reset for s.
func (pp *Prepared) getWorker(s *search) *worker {
	w, _ := pp.workers.Get().(*worker)
	if w == nil {
		n, me := pp.n, pp.maxEta
		w = &worker{n: n, cand: make([]int32, n*me), inc: make([]float64, n*me), g: make([]float64, n*me),
			sufR: make([]float64, n*me), suf1: make([]float64, n*me), small: make([]float64, 0, me),
			path: make([]int32, me), members: make([]int, me), orig: make([]int, me)}
	}
	w.s, w.nodes, w.polled, w.unfinished = s, 0, 0, -1
	return w
}

func (w *worker) level(m int) (cand []int32, inc []float64) {
	lo, hi := m*w.n, (m+1)*w.n
	return w.cand[lo:hi], w.inc[lo:hi]
}

// loop takes tasks until none is left or the search is stopped.
func (w *worker) loop() {
	s := w.s
	for {
		x := s.next.Add(1) - 1
		if x >= s.ntasks {
			return
		}
		if (s.timed && time.Now().After(s.deadline)) || (s.stopAfter > 0 && x >= s.stopAfter) {
			s.stop.Store(true)
		}
		if s.stop.Load() || !w.task(int(x)) {
			w.unfinished = x
			return
		}
	}
}

// task explores the groups whose first position is a; false if the
// search was stopped.
func (w *worker) task(a int) bool {
	s := w.s
	n := s.n
	if s.first[a] > s.cutoff() {
		return true
	}
	row := s.dn[a*n : (a+1)*n]
	cand, inc := w.level(1)
	c := 0
	for k := a + 1; k < n; k++ {
		cand[c] = int32(k)
		inc[c] = row[k] - s.lam[k]
		c++
	}
	w.path[0] = int32(a)
	rc := -s.lam[a]
	if s.penalty != nil {
		w.orig[0] = int(s.ord[a])
		rc += s.penalty.Extra(nil, w.orig[0])
	}
	return w.expand(1, c, rc)
}

// checkTime polls the deadline every pollNodes nodes of work (w.nodes,
// which also counts the groups a leaf loop evaluates). Counting calls
// instead let one poll wait for 256 nodes whose pair loops evaluate up to
// n²/2 groups each: on EIA (n = 4,092, k = 4) a branch-and-price node
// whose branching constraints rejected the best groups kept the cutoff at
// the threshold, and its pricing ran 90 s past the run's deadline.
func (w *worker) checkTime() bool {
	s := w.s
	if s.stop.Load() {
		return false
	}
	if s.timed && w.nodes-w.polled >= pollNodes {
		w.polled = w.nodes
		if time.Now().After(s.deadline) {
			s.stop.Store(true)
			return false
		}
	}
	return true
}

// pollNodes is the work (nodes) between two polls of the deadline: a few
// hundred microseconds of a leaf loop.
const pollNodes = 4096

// expand explores the completions of the partial group path[:m] with
// reduced cost rcS (plus its penalty, with Options.Penalty: a lower bound
// on the penalty of every completion), whose c candidates are in level m.
// It returns false if the search was stopped.
func (w *worker) expand(m, c int, rcS float64) bool {
	s := w.s
	w.nodes++
	if !w.checkTime() {
		return false
	}
	eta := s.eta
	r := eta - m
	if c < r {
		return true
	}
	cand, inc := w.level(m)
	cand, inc = cand[:c], inc[:c]
	cut := s.cutoff()
	if r == 1 {
		w.nodes += int64(c)
		for i, k := range cand {
			if rcS+inc[i] <= cut {
				w.offer(m, k)
				cut = s.cutoff()
			}
		}
		return true
	}
	// g_j = inc_j + (sum of the r−1 smallest c_jk)/(2η): a lower bound on
	// the contribution of j to any completion of r records containing it.
	// Keep the r smallest g in small (ascending).
	lo := m * w.n
	g := w.g[lo : lo+c]
	h := s.h
	hq := r - 1
	small := w.small[:0]
	worst := math.Inf(1)
	for i, k := range cand {
		x := inc[i] + h[int(k)*eta+hq]
		g[i] = x
		if x < worst {
			small = insertSmallest(small, r, x)
			if len(small) == r {
				worst = small[r-1]
			}
		}
	}
	if len(small) < r {
		return true // NaN bounds (overflowing input): nothing to rank
	}
	G1 := 0.0
	for _, x := range small[:r-1] {
		G1 += x
	}
	if rcS+G1+small[r-1] > cut {
		return true
	}
	// A candidate j can be in a good completion only if
	// rcS + g_j + (sum of the r−1 smallest other g) <= cut; the others are
	// dropped from the whole subtree.
	tau := cut - rcS - G1
	c2 := 0
	for i := range c {
		if g[i] <= tau {
			cand[c2], inc[c2], g[c2] = cand[i], inc[i], g[i]
			c2++
		}
	}
	c = c2
	cand, inc, g = cand[:c], inc[:c], g[:c]
	// sufR[i]: sum of the r smallest g at indices >= i; suf1[i]: sum of
	// the r−1 smallest g at indices > i (+Inf when too few). small holds
	// the r smallest seen (ascending), sum their sum.
	sufR, suf1 := w.sufR[lo:lo+c], w.suf1[lo:lo+c]
	small = small[:0]
	sum := 0.0
	inf := math.Inf(1)
	for i := c - 1; i >= 0; i-- {
		switch len(small) {
		case r:
			suf1[i] = sum - small[r-1]
		case r - 1:
			suf1[i] = sum
		default:
			suf1[i] = inf
		}
		x := g[i]
		if len(small) < r {
			sum += x
			small = insertSmallest(small, r, x)
		} else if x < small[r-1] {
			sum += x - small[r-1]
			small = insertSmallest(small, r, x)
		}
		if len(small) == r {
			sufR[i] = sum
		} else {
			sufR[i] = inf
		}
	}
	dn, n := s.dn, s.n
	if r == 2 {
		// The children are leaves: evaluate the pairs directly.
		for i := 0; i+1 < c; i++ {
			if rcS+sufR[i] > cut {
				break
			}
			if rcS+g[i]+suf1[i] > cut {
				continue
			}
			if !w.checkTime() {
				return false
			}
			j := cand[i]
			row := dn[int(j)*n : (int(j)+1)*n]
			base := rcS + inc[i]
			if s.penalty != nil {
				base += s.penalty.Extra(w.orig[:m], int(s.ord[j]))
				if base+(g[i]-inc[i])+suf1[i] > cut {
					continue
				}
			}
			w.nodes += int64(c - i)
			for t := i + 1; t < c; t++ {
				k := cand[t]
				if base+inc[t]+row[k] <= cut {
					w.path[m] = j
					w.offer(m+1, k)
					cut = s.cutoff()
				}
			}
		}
		return true
	}
	next, nextInc := w.level(m + 1)
	for i := 0; i+r <= c; i++ {
		if rcS+sufR[i] > cut {
			break
		}
		if rcS+g[i]+suf1[i] > cut {
			continue
		}
		j := cand[i]
		rcJ := rcS + inc[i]
		if s.penalty != nil {
			w.orig[m] = int(s.ord[j])
			rcJ += s.penalty.Extra(w.orig[:m], w.orig[m])
			if rcJ+(g[i]-inc[i])+suf1[i] > cut {
				continue
			}
		}
		row := dn[int(j)*n : (int(j)+1)*n]
		nc := 0
		for t := i + 1; t < c; t++ {
			k := cand[t]
			next[nc] = k
			nextInc[nc] = inc[t] + row[k]
			nc++
		}
		w.path[m] = j
		if !w.expand(m+1, nc, rcJ) {
			return false
		}
		cut = s.cutoff()
	}
	return true
}

// offer evaluates the group path[:m] ∪ {k} exactly and offers it.
func (w *worker) offer(m int, k int32) {
	s := w.s
	mem := w.members[:0]
	for _, a := range w.path[:m] {
		mem = append(mem, int(s.ord[a]))
	}
	mem = append(mem, int(s.ord[k]))
	slices.Sort(mem)
	if s.accept != nil && !s.accept(mem) {
		return
	}
	rc := s.pp.dist.ReducedCost(s.lambda, mem)
	if s.penalty != nil {
		rc += PenaltyOf(s.penalty, mem)
	}
	s.top.offer(mem, rc)
}
