package microagg

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// icsmMove is a 1-opt or 2-opt move of SimpleHeuristic (Algorithm 3):
// an exchange of records x and y (y >= 0), or the migration of x to the
// group of version vt (y < 0). vx and vt are the versions of the two
// groups when the move was evaluated; the move is current while both
// versions are.
type icsmMove struct {
	gain   float64
	x, y   int32
	vx, vt uint64
}

func (a icsmMove) less(b icsmMove) int {
	if c := cmp.Compare(a.gain, b.gain); c != 0 {
		return c
	}
	if c := cmp.Compare(a.x, b.x); c != 0 {
		return c
	}
	if c := cmp.Compare(a.y, b.y); c != 0 {
		return c
	}
	return cmp.Compare(a.vt, b.vt)
}

// simpleCache keeps, between SimpleHeuristic calls, the best improving
// move of every pair of groups evaluated so far. A pair's weights depend
// only on the two groups, so a pair whose groups kept their versions
// needs no new evaluation: only pairs with a group changed since the last
// scan (version > mark) are evaluated again.
type simpleCache struct {
	mark    uint64
	moves   []icsmMove
	noCache bool // evaluate every pair every time (for tests and measurements)

	evaluated int64 // pairs evaluated, cumulative
}

// icsmTol is the least SSE decrease a move must bring to be applied.
const icsmTol = 1e-10

// simpleHeuristic is Algorithm 3: find the negative 2-cycles of H
// (exchanges R1+R1 and migrations R2+R3), keep the pool best ones (one
// per pair of groups: two moves on the same pair can never both be
// applied), and apply them greedily in order of gain when they touch
// groups not touched yet. It returns the numbers of exchanges and
// migrations applied and the SSE change, or ok = false when stop fired
// during the scan (nothing is applied then).
func (s *icsmState) simpleHeuristic(cache *simpleCache, pool int, stop func() bool) (exch, migr int, delta float64, ok bool) {
	ng := s.numGroups()
	mark := cache.mark
	if cache.noCache {
		mark = 0
	}
	var dirty []int
	for p := range ng {
		if s.ver[p] > mark {
			dirty = append(dirty, p)
		}
	}
	isDirty := make([]bool, ng)
	for _, p := range dirty {
		isDirty[p] = true
	}
	// Cached moves between two clean groups are still exact.
	var moves []icsmMove
	if !cache.noCache {
		for _, mv := range cache.moves {
			px, okx := s.verSlot[mv.vx]
			pt, okt := s.verSlot[mv.vt]
			if okx && okt && !isDirty[px] && !isDirty[pt] {
				moves = append(moves, mv)
			}
		}
	}
	// Evaluate every pair with a dirty group, dirty groups spread over the
	// workers.
	workers := max(1, min(s.workers, len(dirty)))
	found := make([][]icsmMove, workers)
	var next atomic.Int64
	var stopped atomic.Bool
	var evaluated atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newPairScratch(2*s.k - 1)
			var local []icsmMove
			var count int64
			for {
				j := int(next.Add(1) - 1)
				if j >= len(dirty) || stopped.Load() {
					break
				}
				if j%64 == 0 && stop() {
					stopped.Store(true)
					break
				}
				p := dirty[j]
				for q := range ng {
					if q == p || (isDirty[q] && q < p) {
						continue
					}
					count++
					if mv, ok := s.bestPairMove(p, q, sc); ok {
						local = append(local, mv)
					}
				}
			}
			found[w] = local
			evaluated.Add(count)
		}()
	}
	wg.Wait()
	cache.evaluated += evaluated.Load()
	if stopped.Load() {
		return 0, 0, 0, false
	}
	for _, f := range found {
		moves = append(moves, f...)
	}
	slices.SortFunc(moves, icsmMove.less)
	cache.moves = moves
	cache.mark = s.nextVer

	// Apply the pool greedily.
	if len(moves) > pool {
		moves = moves[:pool]
	}
	used := make([]bool, ng)
	var apply []icsmMove
	for _, mv := range moves {
		px, pt := s.verSlot[mv.vx], s.verSlot[mv.vt]
		if used[px] || used[pt] {
			continue
		}
		used[px], used[pt] = true, true
		apply = append(apply, mv)
	}
	for _, mv := range apply {
		px, pt := s.verSlot[mv.vx], s.verSlot[mv.vt]
		if mv.y >= 0 {
			delta += s.reassign([]int32{mv.x, mv.y}, []int32{pt, px})
			exch++
		} else {
			delta += s.reassign([]int32{mv.x}, []int32{pt})
			migr++
		}
	}
	return exch, migr, delta, true
}

// pairScratch holds the distance terms of one pair of groups.
type pairScratch struct{ ap, aq []float64 }

func newPairScratch(m int) *pairScratch {
	return &pairScratch{ap: make([]float64, 0, m), aq: make([]float64, 0, m)}
}

// bestPairMove returns the best improving exchange or migration between
// groups p and q, if any improves by more than icsmTol.
func (s *icsmState) bestPairMove(p, q int, sc *pairScratch) (icsmMove, bool) {
	mp, mq := s.members[p], s.members[q]
	cp, cq := s.centroid(p), s.centroid(q)
	// Quick rejection: every move between p and q changes p or q by a
	// record of the other group, whose squared distance to the receiving
	// centroid is at least (||cp-cq|| - radius)². See pairMayImprove.
	if !s.pairMayImprove(p, q) {
		return icsmMove{}, false
	}
	aq := sc.aq[:0]
	for _, x := range mp {
		aq = append(aq, sqDist(s.row(x), cq))
	}
	ap := sc.ap[:0]
	for _, y := range mq {
		ap = append(ap, sqDist(s.row(y), cp))
	}
	sc.aq, sc.ap = aq, ap
	best := icsmMove{gain: -icsmTol}
	found := false
	// Migrations.
	for i, x := range mp {
		if g := s.r2(q, aq[i]) + s.r3(p, x); g < best.gain {
			best, found = icsmMove{gain: g, x: x, y: -1, vx: s.ver[p], vt: s.ver[q]}, true
		}
	}
	for j, y := range mq {
		if g := s.r2(p, ap[j]) + s.r3(q, y); g < best.gain {
			best, found = icsmMove{gain: g, x: y, y: -1, vx: s.ver[q], vt: s.ver[p]}, true
		}
	}
	// Exchanges: R1(x, G_q, y) + R1(y, G_p, x).
	inv := 1/float64(len(mp)) + 1/float64(len(mq))
	for i, x := range mp {
		xr := s.row(x)
		base := aq[i] - s.b[x]
		for j, y := range mq {
			g := base + ap[j] - s.b[y] - sqDist(xr, s.row(y))*inv
			if g < best.gain {
				best, found = icsmMove{gain: g, x: x, y: y, vx: s.ver[p], vt: s.ver[q]}, true
			}
		}
	}
	return best, found
}

// pairMayImprove is a cheap necessary condition for an improving move
// between groups p and q. With L = ||cp - cq|| and radii rp, rq, every
// record x of p has a(x,q) >= (L - rp)²₊ and every y of q has
// a(y,p) >= (L - rq)²₊, while b(x) <= rp², b(y) <= rq² and
// ||x - y|| <= L + rp + rq. An exchange gains at least
// (L-rp)²₊ + (L-rq)²₊ - rp² - rq² - (L+rp+rq)²·(1/mp + 1/mq), a migration
// of x to q at least mq/(mq+1)·(L-rp)²₊ - mp/(mp-1)·rp² (and the mirror).
// When all these bounds are >= 0 no move improves.
func (s *icsmState) pairMayImprove(p, q int) bool {
	L := math.Sqrt(sqDist(s.centroid(p), s.centroid(q)))
	rp, rq := s.rad[p], s.rad[q]
	mp, mq := float64(s.size(p)), float64(s.size(q))
	lp, lq := math.Max(0, L-rp), math.Max(0, L-rq)
	far := L + rp + rq
	if lp*lp+lq*lq-rp*rp-rq*rq-far*far*(1/mp+1/mq) < 0 {
		return true
	}
	if mq/(mq+1)*lp*lp-mp/(mp-1)*rp*rp < 0 {
		return true
	}
	if mp/(mp+1)*lq*lq-mq/(mq-1)*rq*rq < 0 {
		return true
	}
	return false
}
