package kanon

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// errDeadline is returned (wrapped) by the rounds when their deadline
// passes inside a partition; Anonymize then finishes the partition with
// the quick fallback (quickGraph).
var errDeadline = errors.New("deadline passed inside the partition")

// rounds is the state of the k-round framework on one partition (local
// indices 0..n-1): after r rounds matched[j] holds the r originals matched
// to published record j and boxes[j] is their box.
type rounds struct {
	t        *model.QITable
	n        int
	order    []int // lexicographic order of the records
	rank     []int // rank[i] = position of record i in order
	boxes    []*model.Box
	matched  [][]int32
	partners [][]int32 // partners[i] = the T_j matched to S_i so far
	wt       *weigher  // nil: weights by t.Increase
	keys     []uint64  // SortGreedy's edge keys and radix scratch, reused between rounds
	buf      []uint64
	// Sparse hungarian: the candidate graph, a row mark and the CSR
	// buffers reused between rounds, and the rounds that needed the
	// greedy repair.
	cand    [][]int32
	candL   int
	pool    [][]int32 // nil: candidates from full rows
	rowBuf  []float64
	colD    [][]float64
	colI    [][]int32
	mark    []int32
	spCols  []int32
	spCost  []float64
	repairs int
	// deadline, when not zero, is checked inside the rounds (every few
	// originals, columns or rows and before every assignment search):
	// past it a round returns errDeadline.
	deadline time.Time
}

// expired reports whether st's deadline has passed (never without one).
func (st *rounds) expired() bool {
	return !st.deadline.IsZero() && time.Now().After(st.deadline)
}

// stopFunc returns expired as a stop function for native/hungarian, nil
// without a deadline.
func (st *rounds) stopFunc() func() bool {
	if st.deadline.IsZero() {
		return nil
	}
	return st.expired
}

// roundFunc computes the next round: a perfect matching on unused edges,
// assign[i] = the published record original i is matched to.
type roundFunc func(st *rounds) ([]int32, error)

func newRounds(t *model.QITable, k int) *rounds {
	st := &rounds{t: t, n: t.N, order: LexOrder(t), rank: make([]int, t.N), boxes: make([]*model.Box, t.N), matched: make([][]int32, t.N)}
	for r, i := range st.order {
		st.rank[i] = r
	}
	for j := range st.boxes {
		st.boxes[j] = t.NewBox(j)
		st.matched[j] = make([]int32, 1, k)
		st.matched[j][0] = int32(j) // round 1: the identity
	}
	st.partners = make([][]int32, t.N)
	for i := range st.partners {
		st.partners[i] = make([]int32, 1, k)
		st.partners[i][0] = int32(i)
	}
	st.wt = newWeigher(t)
	if st.wt != nil {
		st.wt.refresh(st.boxes)
	}
	return st
}

// unused reports whether the edge (S_i, T_j) is not in the graph yet.
func (st *rounds) unused(i, j int) bool {
	for _, x := range st.matched[j] {
		if int(x) == i {
			return false
		}
	}
	return true
}

// w is the weight of edge (S_i, T_j) given the current boxes.
func (st *rounds) w(i, j int) float64 {
	if st.wt != nil {
		return st.wt.w(i, j)
	}
	return st.t.Increase(st.boxes[j], i)
}

// column sets col[i] = w(i, j) for every i.
func (st *rounds) column(j int, col []float64) {
	if st.wt != nil {
		st.wt.column(j, col)
		return
	}
	for i := range st.n {
		col[i] = st.t.Increase(st.boxes[j], i)
	}
}

// row sets row[j] = w(i, j) for every j, and +Inf where (S_i, T_j) is
// already in the graph.
func (st *rounds) row(i int, row []float64) {
	if st.wt != nil {
		st.wt.row(i, row)
	} else {
		for j := range st.n {
			row[j] = st.t.Increase(st.boxes[j], i)
		}
	}
	for _, j := range st.partners[i] {
		row[j] = math.Inf(1)
	}
}

// weights returns the dense weight matrix W[i*n+j] = w(i, j), +Inf for
// edges already in the graph; errDeadline when the deadline passes.
func (st *rounds) weights() ([]float64, error) {
	n := st.n
	W := make([]float64, n*n)
	col := make([]float64, n)
	for j := range n {
		if j&15 == 0 && st.expired() {
			return nil, errDeadline
		}
		st.column(j, col)
		for i, w := range col {
			W[i*n+j] = w
		}
		for _, i := range st.matched[j] {
			W[int(i)*n+j] = math.Inf(1)
		}
	}
	return W, nil
}

// apply adds the round's matching to the graph and the boxes, after
// checking that it is a perfect matching on unused edges.
func (st *rounds) apply(assign []int32) error {
	if len(assign) != st.n {
		return fmt.Errorf("round matching has %d entries for %d records", len(assign), st.n)
	}
	seen := make([]bool, st.n)
	for i, j := range assign {
		if j < 0 || int(j) >= st.n || seen[j] {
			return fmt.Errorf("round matching is not a permutation (original %d -> %d)", i, j)
		}
		seen[j] = true
		if !st.unused(i, int(j)) {
			return fmt.Errorf("round matching reuses edge (%d, %d)", i, j)
		}
	}
	for i, j := range assign {
		st.matched[j] = append(st.matched[j], int32(i))
		st.partners[i] = append(st.partners[i], j)
		st.t.Add(st.boxes[j], i)
	}
	if st.wt != nil {
		st.wt.refresh(st.boxes)
	}
	return nil
}

// maxWeigherTable bounds the per-record increment tables of weigher
// (float64 entries); beyond it the weights come from t.Increase.
const maxWeigherTable = 1 << 25

// weigher computes the edge weights w(i, j) = t.Increase(box_j, i) with
// the same floating-point operations in the same order (so the values are
// identical), faster: the box bounds of numeric attributes are kept in
// flat attribute-major arrays and, for every published record j and
// categorical attribute, the increase for every category code is
// tabulated once per round (O(n · Σ cardinalities)). The layouts are
// attribute-major (index ·n + j) so that a row (fixed i, all j) reads
// contiguous memory; a column (fixed j, all i) gathers T_j's tables first.
type weigher struct {
	t    *model.QITable
	n, d int
	kind []uint8   // per attribute: kindSkip, kindNum, kindCat
	span []float64 // numeric: the range, model.QIAttr.Span
	// scale is model.QIAttr.Scale per attribute: 1 but for a numeric
	// range that overflows float64; the numeric values and bounds below
	// are multiplied by it, as model.QITable.AttrIncrease does.
	scale  []float64
	off    []int     // categorical: offset of the attribute's codes in a record's table
	stride int       // Σ cardinalities
	code   []int32   // code[i*d+a]: categorical code of record i
	codeT  []int32   // codeT[a*n+i] = code[i*d+a]
	xT     []float64 // xT[a*n+i] = t.X[i*d+a]
	lo, hi []float64 // numeric box bounds of T_j, [a*n+j]
	tab    []float64 // tab[(off[a]+c)*n+j]: increase of T_j on attribute a if code c joins
	loc    []float64 // scratch: the tables of one T_j
}

const (
	kindSkip uint8 = iota // numeric attribute of range 0
	kindNum
	kindCat
)

func newWeigher(t *model.QITable) *weigher {
	d := t.D()
	wt := &weigher{t: t, n: t.N, d: d, kind: make([]uint8, d), span: make([]float64, d), scale: make([]float64, d), off: make([]int, d)}
	for a := range t.Attrs {
		at := &t.Attrs[a]
		wt.scale[a] = at.Scale()
		switch {
		case at.Kind == model.Numeric && at.Max > at.Min:
			wt.kind[a], wt.span[a] = kindNum, at.Span()
		case at.Kind == model.Categorical:
			wt.kind[a], wt.off[a] = kindCat, wt.stride
			wt.stride += len(at.Categories)
		}
	}
	if wt.n*wt.stride > maxWeigherTable {
		return nil
	}
	n := wt.n
	wt.code = make([]int32, n*d)
	wt.codeT, wt.xT = make([]int32, n*d), make([]float64, n*d)
	for x, v := range t.X {
		i, a := x/d, x%d
		wt.xT[a*n+i] = v * wt.scale[a]
		if wt.kind[a] == kindCat {
			wt.code[x] = int32(v)
			wt.codeT[a*n+i] = int32(v)
		}
	}
	wt.lo, wt.hi = make([]float64, n*d), make([]float64, n*d)
	wt.tab = make([]float64, n*wt.stride)
	wt.loc = make([]float64, wt.stride)
	return wt
}

// refresh recomputes the tables from the boxes.
func (wt *weigher) refresh(boxes []*model.Box) {
	n := wt.n
	for j, b := range boxes {
		for a, k := range wt.kind {
			if k == kindNum {
				wt.lo[a*n+j], wt.hi[a*n+j] = b.Lo[a]*wt.scale[a], b.Hi[a]*wt.scale[a]
			}
			if k != kindCat {
				continue
			}
			// The increase for every code c, as model.QITable.Increase
			// computes it for a record with that code.
			tab := wt.tab[wt.off[a]*n+j:]
			for c := range wt.t.Attrs[a].Categories {
				tab[c*n] = wt.t.AttrIncrease(b, a, float64(c))
			}
		}
	}
}

// column sets out[i] = w(i, j) for every i: the same additions in the
// same (attribute) order per entry, so the values equal w(i, j) exactly.
func (wt *weigher) column(j int, out []float64) {
	n := wt.n
	out = out[:n]
	clear(out)
	loc := wt.loc
	for x := range loc {
		loc[x] = wt.tab[x*n+j]
	}
	for a, k := range wt.kind {
		switch k {
		case kindNum:
			lo, hi, span := wt.lo[a*n+j], wt.hi[a*n+j], wt.span[a]
			width := hi - lo
			for i, v := range wt.xT[a*n : (a+1)*n] {
				if v < lo {
					out[i] += ((hi - v) - width) / span
				} else if v > hi {
					out[i] += ((v - lo) - width) / span
				} else if v != v {
					out[i] += (span - width) / span // missing: the whole range
				}
			}
		case kindCat:
			tab := loc[wt.off[a] : wt.off[a]+len(wt.t.Attrs[a].Categories)]
			for i, c := range wt.codeT[a*n : (a+1)*n] {
				out[i] += tab[c]
			}
		}
	}
}

// row sets out[j] = w(i, j) for every j (exactly, as column).
func (wt *weigher) row(i int, out []float64) {
	n, d := wt.n, wt.d
	out = out[:n]
	clear(out)
	x := wt.t.X[i*d : (i+1)*d]
	for a, k := range wt.kind {
		switch k {
		case kindNum:
			v, span := x[a]*wt.scale[a], wt.span[a]
			lo, hi := wt.lo[a*n:(a+1)*n], wt.hi[a*n:(a+1)*n]
			if v != v { // missing: the whole range
				for j := range out {
					out[j] += (span - (hi[j] - lo[j])) / span
				}
				continue
			}
			for j := range out {
				if v < lo[j] {
					out[j] += ((hi[j] - v) - (hi[j] - lo[j])) / span
				} else if v > hi[j] {
					out[j] += ((v - lo[j]) - (hi[j] - lo[j])) / span
				}
			}
		case kindCat:
			c := int(wt.code[i*d+a])
			tab := wt.tab[(wt.off[a]+c)*n : (wt.off[a]+c+1)*n]
			for j, inc := range tab {
				out[j] += inc
			}
		}
	}
}

// w returns t.Increase(box_j, i).
func (wt *weigher) w(i, j int) float64 {
	n, d := wt.n, wt.d
	x := wt.t.X[i*d : (i+1)*d]
	code := wt.code[i*d : (i+1)*d]
	s := 0.0
	for a, k := range wt.kind {
		switch k {
		case kindNum:
			lo, hi := wt.lo[a*n+j], wt.hi[a*n+j]
			if v := x[a] * wt.scale[a]; v < lo {
				s += ((hi - v) - (hi - lo)) / wt.span[a]
			} else if v > hi {
				s += ((v - lo) - (hi - lo)) / wt.span[a]
			} else if v != v {
				s += (wt.span[a] - (hi - lo)) / wt.span[a] // missing: the whole range
			}
		case kindCat:
			if inc := wt.tab[(wt.off[a]+int(code[a]))*n+j]; inc != 0 {
				s += inc
			}
		}
	}
	return s
}

// runRounds runs the identity round and k-1 rounds of next; it returns
// matched[j] in local indices.
func runRounds(t *model.QITable, k int, next roundFunc) ([][]int32, error) {
	return newRounds(t, k).run(k, next)
}

// run runs rounds 2..k of next on st; errDeadline (wrapped) when st's
// deadline passes before they are done.
func (st *rounds) run(k int, next roundFunc) ([][]int32, error) {
	for r := 2; r <= k; r++ {
		if st.expired() {
			return nil, fmt.Errorf("round %d: %w", r, errDeadline)
		}
		a, err := next(st)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		if err := st.apply(a); err != nil {
			return nil, fmt.Errorf("round %d: internal error: %w", r, err)
		}
	}
	return st.matched, nil
}

// partial is a partial matching of one round.
type partial struct {
	assign []int32 // assign[i] = T of S_i, -1 if unmatched
	owner  []int32 // owner[j] = S of T_j, -1 if free
	freeT  []int32 // the free T's (unordered)
	posT   []int32 // posT[j] = position of T_j in freeT, -1 if matched
}

func newPartial(n int) *partial {
	p := &partial{assign: make([]int32, n), owner: make([]int32, n), freeT: make([]int32, n), posT: make([]int32, n)}
	for x := range n {
		p.assign[x], p.owner[x], p.freeT[x], p.posT[x] = -1, -1, int32(x), int32(x)
	}
	return p
}

// match matches the unmatched S_i to the free T_j.
func (p *partial) match(i, j int) {
	p.assign[i], p.owner[j] = int32(j), int32(i)
	x := p.posT[j]
	last := p.freeT[len(p.freeT)-1]
	p.freeT[x], p.posT[last] = last, x
	p.freeT = p.freeT[:len(p.freeT)-1]
	p.posT[j] = -1
}

// unmatchT frees T_j (and its S).
func (p *partial) unmatchT(j int) {
	i := p.owner[j]
	p.assign[i], p.owner[j] = -1, -1
	p.posT[j] = int32(len(p.freeT))
	p.freeT = append(p.freeT, int32(j))
}

// resolve matches the unmatched S_i (a dead end: every free T_j is
// already adjacent to S_i) by the backtracking of Doka et al., Section 5:
// an S_y matched to T_j in this round such that (S_i, T_j) is unused gives
// T_j to S_i and takes a free T_m with (S_y, T_m) unused. Among all such
// swaps the one of least weight change w(i,j) + w(y,m) - w(y,j) is taken
// (ties: S_y nearest to S_i in the lexicographic order, then lowest j, m).
// If no swap exists (possible only for tiny n or k near n/2) the round is
// completed by a shortest augmenting path in the graph of unused edges
// (breadth-first, Kuhn's method), which always exists: that graph is
// (n-r)-regular bipartite after r rounds, so it has a perfect matching.
func (st *rounds) resolve(p *partial, i int, w func(i, j int) float64) error {
	if len(p.freeT) == 0 {
		return fmt.Errorf("internal error: no free T for original %d", i)
	}
	bestY, bestJ, bestM := -1, -1, -1
	bestD, bestDist := math.Inf(1), 0
	for j := range st.n {
		y := int(p.owner[j])
		if y < 0 || !st.unused(i, j) {
			continue
		}
		var wij, wyj float64
		have := false
		for _, m32 := range p.freeT {
			m := int(m32)
			if !st.unused(y, m) {
				continue
			}
			if !have {
				wij, wyj, have = w(i, j), w(y, j), true
			}
			d := wij + w(y, m) - wyj
			dist := st.rank[y] - st.rank[i]
			if dist < 0 {
				dist = -dist
			}
			if bestY < 0 || d < bestD || (d == bestD && (dist < bestDist || (dist == bestDist && (j < bestJ || (j == bestJ && m < bestM))))) {
				bestY, bestJ, bestM, bestD, bestDist = y, j, m, d, dist
			}
		}
	}
	if bestY >= 0 {
		p.unmatchT(bestJ)
		p.match(i, bestJ)
		p.match(bestY, bestM)
		return nil
	}
	return st.augment(p, i)
}

// augment matches S_i by a shortest augmenting path over unused edges.
func (st *rounds) augment(p *partial, i int) error {
	n := st.n
	prevT := make([]int32, n) // prevT[j] = the S from which T_j was reached
	for x := range prevT {
		prevT[x] = -1
	}
	queue := []int32{int32(i)}
	for q := 0; q < len(queue); q++ {
		s := int(queue[q])
		for j := range n {
			if prevT[j] >= 0 || int(p.assign[s]) == j || !st.unused(s, j) {
				continue
			}
			prevT[j] = int32(s)
			if p.owner[j] < 0 {
				// Flip the path ending at the free T_j.
				for j >= 0 {
					s := int(prevT[j])
					nextJ := int(p.assign[s])
					if p.posT[j] >= 0 {
						p.match(s, j)
					} else {
						p.owner[j], p.assign[s] = int32(s), int32(j)
					}
					if s == i {
						break
					}
					j = nextJ
				}
				return nil
			}
			queue = append(queue, p.owner[j])
		}
	}
	return fmt.Errorf("internal error: no augmenting path for original %d", i)
}
