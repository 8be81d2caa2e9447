package enumerate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// SharesOptions control Prepared.MinShares. The zero value (or nil) runs
// on runtime.GOMAXPROCS(0) goroutines without deadline.
type SharesOptions struct {
	// Workers is the number of goroutines; 0 = runtime.GOMAXPROCS(0).
	Workers int
	// Deadline stops the search when passed (Exact = false); the zero
	// time means no deadline.
	Deadline time.Time
	// Hints are groups evaluated before the search (members distinct
	// records; groups of another size or with a record out of range are
	// skipped): good groups — such as the Group of a call at nearby duals
	// — give the records their final share as cutoff from the start.
	Hints [][]int
	// Beat, when set, is a bound the caller holds: when after the Hints
	// Σ_v (λ_v + the best share of v from them) ≤ *Beat, the search is
	// not run (Abandoned), since Σ_v (λ_v + μ_v) is at most that sum and
	// cannot beat it. The shares returned are then the lower bounds of a
	// search stopped at once, the groups those of the hints. Checked
	// after the hints only, so the outcome does not depend on the timing
	// of the workers.
	Beat *float64
	// Accept, when not nil, restricts the shares to the groups it accepts
	// (members ascending; the slice must not be retained): Share[v] is then
	// min(0, min over the accepted groups C ∋ v of rc_C/|C|). The bounds of
	// the search hold for all groups, so they hold for the accepted ones.
	// It is called from several goroutines.
	Accept func(members []int) bool
}

// Shares is the outcome of Prepared.MinShares.
type Shares struct {
	// Share[v] is a lower bound on
	// μ_v = min(0, min over the groups C ∋ v with Lo ≤ |C| ≤ Hi of rc_C/|C|),
	// equal to it (up to rounding) when Exact.
	Share []float64
	// Group[v] is the group of smallest share containing v found (members
	// ascending), nil when none of negative share was found; when Exact
	// it attains Share[v] (with ties, any of the groups that do). Records
	// of one group share the slice.
	Group [][]int
	// Exact: every record's search finished before the deadline.
	Exact bool
	// Nodes counts the search nodes (partial groups whose bound was
	// computed and complete groups evaluated).
	Nodes int64
	// Abandoned: the search stopped on SharesOptions.Beat (Exact false);
	// Estimate is then Σ_v (λ_v + the best share of v found), an upper
	// bound on Σ_v (λ_v + μ_v) (at most *Beat).
	Abandoned bool
	Estimate  float64
}

// MinShares computes, for every record v, the smallest share
// μ_v = min(0, min_{C ∋ v, lo ≤ |C| ≤ hi} rc_C/|C|) of a group containing
// it, rc_C = Σ_{i<j∈C} c_ij/|C| − Σ_{u∈C} λ_u (the reduced cost of
// Solve), by one branch and bound per record and size anchored at the
// record, without listing the groups of negative reduced cost.
//
// Anchored at v with size η, a partial group S ∋ v is bounded as in Solve
// (rc(S) plus the r smallest g_j, see the package documentation); at the
// root S = {v} and the candidates are all other records, ordered by g_j
// ascending (exactly for those that can open a group at the first level,
// by buckets of g_j for the rest; see searchSize). The cutoff is η·b_v
// with b_v the best share of v known so far (0 at first): only groups of smaller share matter to μ_v. Every group
// evaluated improves the best shares of all its members, so a record's
// cutoff is often its final share before its own search starts. A record
// w is left out of v's candidates when a lower bound L_{w,η} on the share
// of every group of η records containing w exceeds b_v: the closed form
// t_w + (the η−1 smallest t of the others), t as in RootBound; the
// anchored root bound of w once computed; b_w once w's own search of that
// size finished. The records are searched in two passes on the workers:
// the first computes each record's anchored root bounds and evaluates the
// greedy group (v with its η−1 candidates of smallest g), the second runs
// the branch and bound, the records whose bound is closest to their best
// share first (they finish fast and then leave the other records'
// candidate lists).
//
// When the deadline stops it, a record whose search of a size did not
// finish keeps for that size the smaller of its best share and the bound
// of the open part of its search tree (the root's children not finished),
// divided by η; a size not searched keeps its root bound. Errors: as
// Solve's for lambda, lo and hi (2 ≤ lo ≤ hi ≤ MaxEta), negative Workers.
func (pp *Prepared) MinShares(lambda []float64, lo, hi int, opts *SharesOptions) (*Shares, error) {
	if err := pp.checkDuals(lambda, hi); err != nil {
		return nil, err
	}
	if lo < 2 || lo > hi {
		return nil, fmt.Errorf("enumerate: group sizes %d..%d (need 2 <= lo <= hi)", lo, hi)
	}
	var o SharesOptions
	if opts != nil {
		o = *opts
	}
	if o.Workers < 0 {
		return nil, errors.New("enumerate: negative Workers")
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	a := newAnchored(pp, lambda, lo, hi, &o)
	a.hint(o.Hints)
	if o.Beat != nil {
		sum := 0.0
		for v, l := range lambda {
			sum += l + ldf(&a.best[v])
		}
		if sum <= *o.Beat {
			a.abandoned, a.estimate = true, sum
			a.stop.Store(true)
		}
	}
	return a.run(), nil
}

// anchored is one MinShares call. Shares and bounds are float64 bits in
// atomics: the workers read each other's while they search.
type anchored struct {
	pp       *Prepared
	lambda   []float64
	lo, hi   int
	n        int
	ns       int // hi − lo + 1
	workers  int
	deadline time.Time
	timed    bool
	stop     atomic.Bool
	// slack (in reduced-cost units) as in Solve: a bound prunes only when
	// it exceeds the cutoff by more than slack.
	slack float64

	best []atomic.Uint64 // best share per record (≤ 0)
	// low[(η−lo)*n+v]: lower bound on the share of every group of η
	// records containing v.
	low []atomic.Uint64
	// done[v]: v's search finished (best[v] is μ_v).
	done []atomic.Bool
	// shut[(η−lo)*n+v]: the root bound of v at size η exceeded v's best
	// share (pass 1): no group of η records containing v can improve it.
	// Only v's own passes read and write it.
	shut []bool

	mu     sync.Mutex
	groups [][]int
	arg    []int32 // index into groups, −1: none
	accept func([]int) bool
	// abandoned: the hints reached SharesOptions.Beat, with the sum
	// estimate (Shares.Estimate; no worker runs after it).
	abandoned bool
	estimate  float64

	next  atomic.Int64
	order []int32
	nodes atomic.Int64
	// stopNodes > 0 stops a worker's search after that many nodes (tests).
	stopNodes int64
}

func ldf(x *atomic.Uint64) float64    { return math.Float64frombits(x.Load()) }
func stf(x *atomic.Uint64, v float64) { x.Store(math.Float64bits(v)) }

// raiseLow raises *x to v if v is larger (only the owner writes).
func raiseLow(x *atomic.Uint64, v float64) {
	if v > ldf(x) {
		stf(x, v)
	}
}

func newAnchored(pp *Prepared, lambda []float64, lo, hi int, o *SharesOptions) *anchored {
	n := pp.n
	ns := hi - lo + 1
	a := &anchored{pp: pp, lambda: lambda, lo: lo, hi: hi, n: n, ns: ns, workers: o.Workers,
		deadline: o.Deadline, timed: !o.Deadline.IsZero(),
		best: make([]atomic.Uint64, n), low: make([]atomic.Uint64, n*ns), done: make([]atomic.Bool, n), shut: make([]bool, n*ns),
		arg: make([]int32, n), accept: o.Accept}
	maxD, maxL := 0.0, 0.0
	for _, x := range pp.dist.D {
		maxD = max(maxD, math.Abs(x))
	}
	for _, l := range lambda {
		maxL = max(maxL, math.Abs(l))
	}
	e := float64(hi)
	a.slack = slackRel * (1 + e*maxL + e*maxD)
	for v := range a.arg {
		a.arg[v] = -1
	}
	// The closed-form bound: t_w + the η−1 smallest t of the others.
	t := make([]float64, n)
	small := make([]float64, 0, hi)
	for eta := lo; eta <= hi; eta++ {
		f2 := 1 / (2 * float64(eta))
		small = small[:0]
		for v := range n {
			t[v] = pp.nn[v*pp.maxEta+eta-1]*f2 - lambda[v]
			small = insertSmallest(small, eta, t[v])
		}
		sumEta := 0.0
		for _, x := range small {
			sumEta += x
		}
		last := small[len(small)-1]
		sumRest := sumEta - last // the η−1 smallest
		for v := range n {
			var b float64
			if t[v] <= last {
				// v may be among the η smallest: the η−1 smallest others
				// are the η smallest without one copy of t_v.
				b = sumEta
			} else {
				b = t[v] + sumRest
			}
			stf(&a.low[(eta-lo)*n+v], b/float64(eta))
		}
	}
	return a
}

func (a *anchored) expired() bool {
	if a.stop.Load() {
		return true
	}
	if a.timed && time.Now().After(a.deadline) {
		a.stop.Store(true)
		return true
	}
	return false
}

// offer records the group mem (ascending, not retained) of share sh for
// each member whose best share it improves (ties: the lexicographically
// smaller group).
func (a *anchored) offer(mem []int, sh float64) {
	if !(sh < 0) {
		return
	}
	if a.accept != nil && !a.accept(mem) {
		return
	}
	better := false
	for _, u := range mem {
		if sh <= ldf(&a.best[u]) {
			better = true
			break
		}
	}
	if !better {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	idx := int32(-1)
	for _, u := range mem {
		cur := ldf(&a.best[u])
		if sh < cur || (sh == cur && a.arg[u] >= 0 && slices.Compare(mem, a.groups[a.arg[u]]) < 0) {
			if idx < 0 {
				idx = int32(len(a.groups))
				a.groups = append(a.groups, slices.Clone(mem))
			}
			stf(&a.best[u], sh)
			a.arg[u] = idx
		}
	}
}

// hint evaluates and offers the groups of hints that fit.
func (a *anchored) hint(hints [][]int) {
	var mem []int
	for _, h := range hints {
		if len(h) < a.lo || len(h) > a.hi {
			continue
		}
		mem = append(mem[:0], h...)
		slices.Sort(mem)
		ok := mem[0] >= 0 && mem[len(mem)-1] < a.n
		for i := 1; ok && i < len(mem); i++ {
			ok = mem[i] != mem[i-1]
		}
		if ok {
			a.offer(mem, a.pp.dist.ReducedCost(a.lambda, mem)/float64(len(mem)))
		}
	}
}

func (a *anchored) run() *Shares {
	n := a.n
	// Pass 1: root bounds and greedy groups.
	a.parallel(func(w *anchorWorker, v int) { w.roots(v) }, nil)
	// Pass 2: the branch and bound, records closest to closed first.
	if !a.stop.Load() {
		a.searchOrder()
		a.parallel(func(w *anchorWorker, v int) { w.search(v) }, a.order)
	}
	res := &Shares{Share: make([]float64, n), Group: make([][]int, n), Exact: true, Nodes: a.nodes.Load()}
	for v := range n {
		b := ldf(&a.best[v])
		if !a.done[v].Load() {
			res.Exact = false
			for s := range a.ns {
				b = min(b, ldf(&a.low[s*n+v]))
			}
		}
		res.Share[v] = min(0, b)
	}
	if a.abandoned && !res.Exact {
		res.Abandoned, res.Estimate = true, a.estimate
	}
	for v := range n {
		if i := a.arg[v]; i >= 0 {
			res.Group[v] = a.groups[i]
		}
	}
	return res
}

// searchOrder sets the order of pass 2: the records without a group of
// negative share yet first (most of them have none, and each one finished
// leaves the candidates of the records after it), then by the gap between
// their best share and their smallest bound.
func (a *anchored) searchOrder() {
	n := a.n
	gap := make([]float64, n)
	a.order = make([]int32, n)
	for v := range n {
		a.order[v] = int32(v)
		lb := 0.0
		for s := range a.ns {
			lb = min(lb, ldf(&a.low[s*n+v]))
		}
		gap[v] = ldf(&a.best[v]) - lb
	}
	slices.SortStableFunc(a.order, func(x, y int32) int {
		zx, zy := ldf(&a.best[x]) == 0, ldf(&a.best[y]) == 0
		if zx != zy {
			if zx {
				return -1
			}
			return 1
		}
		return cmp.Compare(gap[x], gap[y])
	})
}

// parallel runs f on every record (in order, or 0..n−1) on the workers
// until done or stopped.
func (a *anchored) parallel(f func(*anchorWorker, int), order []int32) {
	a.next.Store(0)
	nw := max(1, min(a.workers, a.n))
	var wg sync.WaitGroup
	for range nw {
		wg.Go(func() {
			w := newAnchorWorker(a)
			defer func() { a.nodes.Add(w.nodes) }()
			for {
				x := a.next.Add(1) - 1
				if x >= int64(a.n) || a.expired() {
					return
				}
				v := int(x)
				if order != nil {
					v = int(order[x])
				}
				f(w, v)
			}
		})
	}
	wg.Wait()
}

// anchorWorker is one goroutine's scratch: level m holds the candidates
// of a partial group of m records and their increments inc_j (as in
// Solve's worker).
type anchorWorker struct {
	a                  *anchored
	n                  int
	cand               []int32
	inc, g, sufR, suf1 []float64
	small              []float64
	path               []int
	members            []int
	sel                []int32 // the η−1 candidates of smallest g
	keys               []uint64
	bucket             []uint8
	selG               []float64
	nodes              int64
	tick               int
	eta                int
	fe, f2, cutBase    float64
	anchor             int
	open               float64 // bound of the open part of a stopped search
}

func newAnchorWorker(a *anchored) *anchorWorker {
	n, me := a.n, a.pp.maxEta
	return &anchorWorker{a: a, n: n, cand: make([]int32, n*me), inc: make([]float64, n*me), g: make([]float64, n*me),
		sufR: make([]float64, n*me), suf1: make([]float64, n*me), small: make([]float64, 0, me),
		path: make([]int, me), members: make([]int, me), sel: make([]int32, 0, me), selG: make([]float64, 0, me), keys: make([]uint64, n), bucket: make([]uint8, n)}
}

// cutoff is η·(best share of the anchor) + slack, in reduced-cost units.
func (w *anchorWorker) cutoff() float64 {
	return float64(w.eta)*ldf(&w.a.best[w.anchor]) + w.a.slack
}

// level1 fills level 1 of the anchored search of v at size eta: the
// candidates not left out, their inc and g; it returns their number and
// the root bound rc({v}) + (the η−1 smallest g), and keeps in w.sel the
// candidates of the η−1 smallest g (ascending g).
func (w *anchorWorker) level1(v, eta int) (int, float64) {
	a := w.a
	pp := a.pp
	n := w.n
	w.eta, w.anchor = eta, v
	w.fe, w.f2 = 1/float64(eta), 1/(2*float64(eta))
	r := eta - 1
	hq := r - 1
	bv := ldf(&a.best[v])
	s := eta - a.lo
	row := pp.dist.D[v*n : (v+1)*n]
	low := a.low[s*n : (s+1)*n]
	nn := pp.nnBySize[hq*n : (hq+1)*n]
	cand, inc := w.cand[n:2*n], w.inc[n:2*n]
	g := w.g[n : 2*n]
	sel, selG := w.sel[:0], w.selG[:0]
	worst := math.Inf(1)
	c := 0
	for j := range n {
		if j == v || ldf(&low[j]) >= bv {
			continue
		}
		x := row[j]*w.fe - a.lambda[j]
		gj := x + nn[j]*w.f2
		cand[c], inc[c], g[c] = int32(j), x, gj
		c++
		if gj < worst || len(sel) < r {
			// insert (gj, j) into the r smallest
			i := len(sel)
			if i == r {
				i--
			} else {
				sel, selG = append(sel, 0), append(selG, 0)
			}
			for i > 0 && selG[i-1] > gj {
				sel[i], selG[i] = sel[i-1], selG[i-1]
				i--
			}
			sel[i], selG[i] = int32(j), gj
			if len(sel) == r {
				worst = selG[r-1]
			}
		}
	}
	w.sel, w.selG = sel, selG
	if len(sel) < r {
		return c, math.Inf(1)
	}
	rb := -a.lambda[v]
	for _, x := range selG {
		rb += x
	}
	return c, rb
}

// greedy evaluates v with the candidates in w.sel and offers it.
func (w *anchorWorker) greedy(v int) {
	mem := w.members[:0]
	mem = append(mem, v)
	for _, j := range w.sel {
		mem = append(mem, int(j))
	}
	slices.Sort(mem)
	w.nodes++
	w.a.offer(mem, w.a.pp.dist.ReducedCost(w.a.lambda, mem)/float64(len(mem)))
}

// roots is pass 1 for record v: per size whose bound is below v's best
// share, the anchored root bound and the greedy group.
func (w *anchorWorker) roots(v int) {
	a := w.a
	for eta := a.lo; eta <= a.hi; eta++ {
		s := (eta-a.lo)*a.n + v
		l := &a.low[s]
		if ldf(l) >= ldf(&a.best[v]) {
			continue
		}
		bv := ldf(&a.best[v])
		_, rb := w.level1(v, eta)
		// The candidates left out are in groups of share above bv only.
		raiseLow(l, min(rb/float64(eta), bv))
		if rb <= w.cutoff() {
			w.greedy(v)
		} else {
			a.shut[s] = true
		}
	}
}

// search is pass 2 for record v: the branch and bound of every size
// whose bound is below v's best share, the most promising size first.
func (w *anchorWorker) search(v int) {
	a := w.a
	type sz struct {
		eta int
		lb  float64
	}
	var sizes [32]sz
	ss := sizes[:0]
	for eta := a.lo; eta <= a.hi; eta++ {
		ss = append(ss, sz{eta, ldf(&a.low[(eta-a.lo)*a.n+v])})
	}
	slices.SortStableFunc(ss, func(x, y sz) int { return cmp.Compare(x.lb, y.lb) })
	for _, z := range ss {
		eta := z.eta
		s := (eta-a.lo)*a.n + v
		l := &a.low[s]
		if a.shut[s] || ldf(l) >= ldf(&a.best[v]) {
			continue
		}
		if !w.searchSize(v, eta) {
			raiseLow(l, min(w.open/float64(eta), ldf(&a.best[v])))
			return
		}
		raiseLow(l, ldf(&a.best[v]))
	}
	a.done[v].Store(true)
}

// searchSize runs the branch and bound of the groups of eta records
// containing v; false when stopped (w.open then bounds the groups not
// examined).
func (w *anchorWorker) searchSize(v, eta int) bool {
	a := w.a
	c, rb := w.level1(v, eta)
	w.open = rb
	w.nodes++
	if rb > w.cutoff() {
		return true
	}
	if w.a.expired() {
		return false
	}
	// Order the candidates by g ascending (those that can be in a good
	// group only: g_j + the η−2 smallest other g within the cutoff).
	n := w.n
	cand, inc, g := w.cand[n:n+c], w.inc[n:n+c], w.g[n:n+c]
	r := eta - 1
	tau := w.cutoff() - rb + w.selG[r-1]
	c2 := 0
	for i := range c {
		if g[i] <= tau {
			cand[c2], inc[c2], g[c2] = cand[i], inc[i], g[i]
			c2++
		}
	}
	// The order of the candidates decides only how soon the search
	// prunes (it lists the groups as increasing index sequences, complete
	// in any order). Head: the candidates that can open a group at level
	// 1 (r·g ≤ cutoff − rcS: at the first candidate past them the loop of
	// expand(1) breaks, the r smallest g after it already exceed the
	// cutoff), sorted by g then by record as integer keys (orderBits, the
	// index in the low bits; slices.Sort). Tail: the rest, after the
	// head, in tailBuckets buckets of g (stable), nearly sorted for the
	// deeper levels. Sorting all candidates' indices with a comparison
	// function took 38 % of the CPU time of the ascent on EIA k = 10
	// (profile of 150 s). BenchmarkMinSharesAt (EIA, duals of the
	// ascent after 150 s; farm-bench, whole process): all candidates as
	// integer keys, with the size-major layouts of low and nnBySize
	// (level1 reads them record after record), took 0.76 of the time of
	// that sort (6 pairs); the head and the buckets 0.82 of that again (5
	// pairs; 2.17 against 2.16 million search nodes).
	head := (w.cutoff() + a.lambda[v]) / float64(r)
	mask := uint64(1)<<uint(bits.Len(uint(c2))) - 1
	keys := w.keys[:0]
	gmin, gmax := math.Inf(1), math.Inf(-1)
	for i := range c2 {
		if g[i] <= head {
			keys = append(keys, orderBits(g[i])&^mask|uint64(i))
		} else {
			gmin, gmax = min(gmin, g[i]), max(gmax, g[i])
		}
	}
	nh := len(keys)
	slices.Sort(keys)
	tc, ti := w.cand[:c2], w.inc[:c2] // level 0 is free
	for i, key := range keys {
		p := key & mask
		tc[i], ti[i] = cand[p], inc[p]
	}
	if nh < c2 {
		var cnt [tailBuckets + 1]int
		scale := 0.0
		if gmax > gmin {
			scale = (tailBuckets - 1) / (gmax - gmin)
		}
		bk := w.bucket[:c2]
		for i := range c2 {
			if g[i] > head {
				b := min(int((g[i]-gmin)*scale), tailBuckets-1)
				bk[i] = uint8(b)
				cnt[b+1]++
			}
		}
		cnt[0] = nh
		for b := 1; b <= tailBuckets; b++ {
			cnt[b] += cnt[b-1]
		}
		for i := range c2 {
			if g[i] > head {
				b := bk[i]
				tc[cnt[b]], ti[cnt[b]] = cand[i], inc[i]
				cnt[b]++
			}
		}
	}
	copy(cand, tc)
	copy(inc, ti)
	w.path[0] = v
	return w.expand(1, c2, -a.lambda[v])
}

// orderBits maps x to an integer of the same order: the IEEE bits with
// the sign bit set for x ≥ 0 and all bits flipped for x < 0. Clearing its
// low bits keeps the order up to ties (a relative 2^(b−52) for b bits).
func orderBits(x float64) uint64 {
	u := math.Float64bits(x)
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

// tailBuckets is the number of buckets of the tail of searchSize's order.
const tailBuckets = 64

func (w *anchorWorker) checkTime() bool {
	a := w.a
	if a.stop.Load() {
		return false
	}
	if a.stopNodes > 0 && w.nodes >= a.stopNodes {
		a.stop.Store(true)
		return false
	}
	if a.timed {
		w.tick++
		if w.tick&255 == 0 && time.Now().After(a.deadline) {
			a.stop.Store(true)
			return false
		}
	}
	return true
}

func (w *anchorWorker) level(m int) ([]int32, []float64) {
	lo, hi := m*w.n, (m+1)*w.n
	return w.cand[lo:hi], w.inc[lo:hi]
}

// expand explores the completions of the partial group path[:m] of
// reduced cost rcS (Solve's worker.expand on record indices); false if
// stopped. At m = 1 a stop sets w.open to the bound of the root's
// children not finished.
func (w *anchorWorker) expand(m, c int, rcS float64) bool {
	a := w.a
	pp := a.pp
	w.nodes++
	if !w.checkTime() {
		return false
	}
	eta := w.eta
	r := eta - m
	if c < r {
		return true
	}
	cand, inc := w.level(m)
	cand, inc = cand[:c], inc[:c]
	cut := w.cutoff()
	if r == 1 {
		w.nodes += int64(c)
		for i, k := range cand {
			if rcS+inc[i] <= cut {
				w.offer(m, k)
				cut = w.cutoff()
			}
		}
		return true
	}
	lo := m * w.n
	g := w.g[lo : lo+c]
	hq := r - 1
	nn := pp.nnBySize[hq*w.n : (hq+1)*w.n]
	small := w.small[:0]
	worst := math.Inf(1)
	for i, k := range cand {
		x := inc[i] + nn[k]*w.f2
		g[i] = x
		if x < worst {
			small = insertSmallest(small, r, x)
			if len(small) == r {
				worst = small[r-1]
			}
		}
	}
	if len(small) < r {
		return true
	}
	G1 := 0.0
	for _, x := range small[:r-1] {
		G1 += x
	}
	if rcS+G1+small[r-1] > cut {
		return true
	}
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
	D, n := pp.dist.D, w.n
	fe := w.fe
	if r == 2 {
		for i := 0; i+1 < c; i++ {
			if rcS+sufR[i] > cut {
				break
			}
			if rcS+g[i]+suf1[i] > cut {
				continue
			}
			j := cand[i]
			row := D[int(j)*n : (int(j)+1)*n]
			base := rcS + inc[i]
			w.nodes += int64(c - i)
			for t := i + 1; t < c; t++ {
				k := cand[t]
				if base+inc[t]+row[k]*fe <= cut {
					w.path[m] = int(j)
					w.offer(m+1, k)
					cut = w.cutoff()
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
		row := D[int(j)*n : (int(j)+1)*n]
		nc := 0
		for t := i + 1; t < c; t++ {
			k := cand[t]
			next[nc] = k
			nextInc[nc] = inc[t] + row[k]*fe
			nc++
		}
		w.path[m] = int(j)
		if !w.expand(m+1, nc, rcS+inc[i]) {
			if m == 1 {
				w.open = rcS + sufR[i]
			}
			return false
		}
		cut = w.cutoff()
	}
	return true
}

// offer evaluates the group path[:m] ∪ {k} exactly and offers it.
func (w *anchorWorker) offer(m int, k int32) {
	mem := w.members[:0]
	mem = append(mem, w.path[:m]...)
	mem = append(mem, int(k))
	slices.Sort(mem)
	w.a.offer(mem, w.a.pp.dist.ReducedCost(w.a.lambda, mem)/float64(len(mem)))
}
