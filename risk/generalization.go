package risk

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// Defaults of GeneralizationOptions.
const (
	// DefaultMaxWork is the node visits (trie nodes a box walks through)
	// above which Generalization estimates the means on a sample. The
	// walk visits about 1.4·10^7 nodes a second on one core: sortgreedy
	// on Adult (30,162 records, 8 quasi-identifiers) at k = 5 takes
	// 1.9·10^6 visits and 0.2 s in all, greedy on 3·10^5 generated
	// records 3·10^7 visits and 4.4 s (BenchmarkGeneralization); the
	// budget stops the exact count at about 7 s on two cores.
	DefaultMaxWork = 200_000_000
	// DefaultSample is the number of published records (and of
	// originals) sampled when the exact count would exceed MaxWork.
	DefaultSample = 10_000
	// pilotBoxes is the number of distinct boxes walked to estimate the
	// work of the exact count.
	pilotBoxes = 256
)

// Second PCG word of the seeded samples.
const streamSample = 0x7269_736b_01

var (
	// ErrExceeds: a published record is re-identified with a probability
	// above 1/k (fewer than k originals inside its box), or an original
	// lies in no published box: the publication is not k-anonymous.
	ErrExceeds = errors.New("risk: publication is not k-anonymous")
)

// GeneralizationOptions configure Generalization. A nil pointer means the
// zero value: exact counts up to DefaultMaxWork, seed 0.
type GeneralizationOptions struct {
	MaxWork int64  // node visits allowed for the exact count (0 = DefaultMaxWork; < 0 = always exact)
	Sample  int    // records sampled when the exact count would take more (0 = DefaultSample)
	Seed    uint64 // seed of the sample
	Workers int    // boxes walked in parallel (0 = runtime.GOMAXPROCS(0))
}

// GeneralizationReport is the re-identification risk of a publication of
// generalized quasi-identifiers (see the package documentation).
type GeneralizationReport struct {
	N         int // original records
	Published int // published records (boxes)
	K         int // the k checked
	// MaxReidentification = max_j 1/c_j over the published records, c_j
	// the originals inside box j; at most 1/K (checked). Always exact.
	MaxReidentification float64
	// MinCandidates = min_j c_j = 1/MaxReidentification.
	MinCandidates int
	// MeanReidentification = mean_j 1/c_j (over the sample when not Exact).
	MeanReidentification float64
	// LinkageMean = mean_i 1/m_i, m_i the published boxes containing
	// original i: the expected share of correct links when every
	// original is linked to one of its boxes uniformly at random.
	// LinkageMax = max_i 1/m_i. Both over the sample when not Exact.
	LinkageMean float64
	LinkageMax  float64
	// Exact: every count is exact. Otherwise the means and LinkageMax are
	// over Sample published records and Sample originals drawn with Seed.
	Exact   bool
	Sample  int
	Seed    uint64
	Work    int64 // trie nodes visited
	Seconds float64
}

// Generalization measures the re-identification risk of the published
// boxes (one per published record) of the original quasi-identifiers t,
// and checks that the largest re-identification probability is at most
// 1/k: the count c_j of originals inside each box j is exact even when
// the means are sampled (boxes then stop counting once they reach the
// smallest count found so far). Errors: ErrExceeds when a box holds fewer
// than k originals (or, in the counted records, an original lies in no
// box); ErrParam for k < 1, no records or boxes, or a box that does not
// fit t.
func Generalization(t *model.QITable, boxes []*model.Box, k int, opt *GeneralizationOptions) (*GeneralizationReport, error) {
	start := time.Now()
	o := GeneralizationOptions{}
	if opt != nil {
		o = *opt
	}
	if o.MaxWork == 0 {
		o.MaxWork = DefaultMaxWork
	}
	if o.Sample <= 0 {
		o.Sample = DefaultSample
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if t == nil || t.N == 0 || len(boxes) == 0 {
		return nil, fmt.Errorf("%w: no records or no published boxes", ErrParam)
	}
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d", ErrParam, k)
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParam, err)
	}
	ix := newBoxIndex(t)
	for j, b := range boxes {
		if err := ix.checkBox(b); err != nil {
			return nil, fmt.Errorf("%w: published record %d: %v", ErrParam, j+1, err)
		}
	}
	dbox, boxOf := ix.distinctBoxes(boxes)
	ix.order = ix.attributeOrder(dbox)
	all := make([]int, t.N)
	for i := range all {
		all[i] = i
	}
	tr := ix.newTrie(all)

	r := &GeneralizationReport{N: t.N, Published: len(boxes), K: k, Exact: true}
	mult := make([]int, len(dbox))
	for _, u := range boxOf {
		mult[u]++
	}
	exact := o.MaxWork < 0 || ix.estimate(tr, dbox) <= o.MaxWork
	var count []int // count[u] = originals in distinct box u
	if exact {
		var links []int64
		count, links, r.Work = ix.walkAll(tr, dbox, mult, nil, o.Workers, 0)
		sumR := 0.0
		for _, u := range boxOf {
			sumR += 1 / float64(count[u])
		}
		r.MeanReidentification = sumR / float64(len(boxes))
		if err := r.setLinkage(tr, links, all); err != nil {
			return nil, err
		}
	} else {
		// The exact minimum count, each box stopping at the running
		// minimum.
		var work int64
		count, _, work = ix.walkAll(tr, dbox, nil, nil, o.Workers, capRunningMin)
		r.Work += work
		r.Exact, r.Seed = false, o.Seed
		rng := rand.New(rand.NewPCG(o.Seed, streamSample))
		// Mean re-identification on sampled published records: their
		// boxes counted in full.
		sp := sample(rng, len(boxes), o.Sample)
		var sub []int
		seen := map[int]bool{}
		for _, j := range sp {
			if u := boxOf[j]; !seen[u] {
				seen[u] = true
				sub = append(sub, u)
			}
		}
		full, _, work := ix.walkAll(tr, dbox, nil, sub, o.Workers, 0)
		r.Work += work
		sumR := 0.0
		for _, j := range sp {
			sumR += 1 / float64(full[boxOf[j]])
		}
		r.MeanReidentification = sumR / float64(len(sp))
		// Linkage on sampled originals: every box walks their trie.
		so := sample(rng, t.N, o.Sample)
		st := ix.newTrie(so)
		_, links, work := ix.walkAll(st, dbox, mult, nil, o.Workers, 0)
		r.Work += work
		if err := r.setLinkage(st, links, so); err != nil {
			return nil, err
		}
		r.Sample = min(o.Sample, len(boxes), t.N)
	}
	r.MinCandidates = math.MaxInt
	for j, u := range boxOf {
		if count[u] < k && !r.Exact {
			// A count stopped at the running minimum: count it in full
			// for the message.
			count[u], _ = ix.walk(tr, dbox[u], nil, 0, 0)
		}
		if count[u] < k {
			return nil, fmt.Errorf("%w: published record %d has %d original(s) inside its box, fewer than k = %d (re-identification probability %.4g > 1/k)",
				ErrExceeds, j+1, count[u], k, 1/float64(count[u]))
		}
		r.MinCandidates = min(r.MinCandidates, count[u])
	}
	r.MaxReidentification = 1 / float64(r.MinCandidates)
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// setLinkage fills the linkage fields from the box counts of the leaves
// of tr (whose records are recs).
func (r *GeneralizationReport) setLinkage(tr *trie, links []int64, recs []int) error {
	sum, mx := 0.0, 0.0
	for p, m := range links {
		if m == 0 {
			return fmt.Errorf("%w: original record %d lies in no published box", ErrExceeds, tr.first[p]+1)
		}
		v := 1 / float64(m)
		sum += v * float64(tr.mult[p])
		mx = max(mx, v)
	}
	r.LinkageMean = sum / float64(len(recs))
	r.LinkageMax = mx
	return nil
}

// sample draws s of n indices without replacement (all of them, in
// order, when s >= n).
func sample(rng *rand.Rand, n, s int) []int {
	if s >= n {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := rng.Perm(n)[:s]
	slices.Sort(out)
	return out
}

// boxIndex maps the quasi-identifiers of t to sortable keys: a numeric
// value is its key; a categorical value with a hierarchy the rank of its
// leaf in a depth-first order of the hierarchy, so that the leaves under a
// node are a key interval; a categorical value without a hierarchy its
// code (a box holds a set of codes).
type boxIndex struct {
	t        *model.QITable
	key      []float64 // n x d, row-major
	rank     [][]int32 // hierarchy attributes: rank[a][leaf code]
	lo, hi   [][]int32 // hierarchy attributes: rank interval under each node (lo > hi: no data leaf)
	order    []int     // attributes in trie order (most selective first)
	interval []bool    // attribute is a key interval (numeric, hierarchy), else a code set
}

func newBoxIndex(t *model.QITable) *boxIndex {
	d := t.D()
	ix := &boxIndex{t: t, key: make([]float64, len(t.X)), rank: make([][]int32, d), lo: make([][]int32, d), hi: make([][]int32, d), interval: make([]bool, d)}
	for a := range t.Attrs {
		at := &t.Attrs[a]
		ix.interval[a] = at.Kind == model.Numeric || at.Hier != nil
		if at.Hier != nil {
			ix.rank[a], ix.lo[a], ix.hi[a] = leafRanks(at.Hier)
		}
	}
	for i := 0; i < t.N; i++ {
		for a, v := range t.Row(i) {
			if ix.rank[a] != nil {
				v = float64(ix.rank[a][int(v)])
			}
			if model.IsMissing(v) {
				// A missing numeric value (any value) lies only in boxes
				// of the whole range: its key is +Inf, and such boxes
				// reach +Inf (numericHi).
				v = math.Inf(1)
			}
			ix.key[i*d+a] = v
		}
	}
	return ix
}

// numericHi is the upper end of a numeric box's key interval: +Inf for a
// box spanning the attribute's whole range, which holds the records with
// a missing value (key +Inf) as model.QITable.Contains says, else hi.
func numericHi(at *model.QIAttr, lo, hi float64) float64 {
	if lo <= at.Min && hi >= at.Max {
		return math.Inf(1)
	}
	return hi
}

// leafRanks numbers the data leaves of h in depth-first order and returns
// every node's interval of ranks.
func leafRanks(h *model.Hierarchy) (rank, lo, hi []int32) {
	nn := len(h.Parent)
	children := make([][]int32, nn)
	var roots []int32
	for v, p := range h.Parent {
		if p < 0 {
			roots = append(roots, int32(v))
		} else {
			children[p] = append(children[p], int32(v))
		}
	}
	rank = make([]int32, h.NumLeaves)
	lo, hi = make([]int32, nn), make([]int32, nn)
	next := int32(0)
	var visit func(v int32)
	visit = func(v int32) {
		lo[v], hi[v] = next, next-1
		if int(v) < h.NumLeaves {
			rank[v] = next
			next++
		}
		for _, c := range children[v] {
			visit(c)
		}
		hi[v] = next - 1
	}
	for _, r := range roots {
		visit(r)
	}
	return rank, lo, hi
}

// checkBox reports a box that does not fit the table.
func (ix *boxIndex) checkBox(b *model.Box) error {
	d := ix.t.D()
	if b == nil || len(b.Lo) < d || len(b.Hi) < d || len(b.Set) < d || len(b.Node) < d {
		return errors.New("box with fewer attributes than the table")
	}
	for a := range ix.t.Attrs {
		at := &ix.t.Attrs[a]
		switch {
		case at.Kind == model.Numeric:
			if math.IsNaN(b.Lo[a]) || math.IsNaN(b.Hi[a]) {
				return fmt.Errorf("attribute %s: NaN bound", at.Name)
			}
		case at.Hier != nil:
			if b.Node[a] < 0 || int(b.Node[a]) >= len(at.Hier.Parent) {
				return fmt.Errorf("attribute %s: node %d outside the hierarchy", at.Name, b.Node[a])
			}
		default:
			if len(b.Set[a]) != (len(at.Categories)+63)/64 {
				return fmt.Errorf("attribute %s: set of %d words for %d categories", at.Name, len(b.Set[a]), len(at.Categories))
			}
		}
	}
	return nil
}

// cond is one distinct box as the walk tests it: an interval of keys per
// interval attribute, a code set per set attribute.
type cond struct {
	lo, hi []float64
	set    [][]uint64
}

// distinctBoxes returns the distinct boxes and the distinct box of every
// published record.
func (ix *boxIndex) distinctBoxes(boxes []*model.Box) ([]*cond, []int) {
	d := ix.t.D()
	seen := map[string]int{}
	var out []*cond
	boxOf := make([]int, len(boxes))
	key := make([]byte, 0, 64)
	for j, b := range boxes {
		c := &cond{lo: make([]float64, d), hi: make([]float64, d), set: make([][]uint64, d)}
		key = key[:0]
		for a := range ix.t.Attrs {
			switch {
			case ix.t.Attrs[a].Kind == model.Numeric:
				c.lo[a], c.hi[a] = b.Lo[a], numericHi(&ix.t.Attrs[a], b.Lo[a], b.Hi[a])
			case ix.rank[a] != nil:
				c.lo[a], c.hi[a] = float64(ix.lo[a][b.Node[a]]), float64(ix.hi[a][b.Node[a]])
			default:
				c.set[a] = b.Set[a]
				for _, w := range b.Set[a] {
					key = appendBits(key, w)
				}
				continue
			}
			key = appendBits(key, math.Float64bits(c.lo[a]))
			key = appendBits(key, math.Float64bits(c.hi[a]))
		}
		u, ok := seen[string(key)]
		if !ok {
			u = len(out)
			seen[string(key)] = u
			out = append(out, c)
		}
		boxOf[j] = u
	}
	return out, boxOf
}

func appendBits(b []byte, w uint64) []byte {
	for s := 0; s < 64; s += 8 {
		b = append(b, byte(w>>s))
	}
	return b
}

// attributeOrder sorts the attributes by the mean share of records a box
// admits on that attribute alone (most selective first), so that the trie
// walk prunes early.
func (ix *boxIndex) attributeOrder(boxes []*cond) []int {
	t := ix.t
	n, d := t.N, t.D()
	share := make([]float64, d)
	col := make([]float64, n)
	for a := 0; a < d; a++ {
		for i := range col {
			col[i] = ix.key[i*d+a]
		}
		if ix.interval[a] {
			slices.Sort(col)
			for _, c := range boxes {
				lo := sort.SearchFloat64s(col, c.lo[a])
				hi := sort.Search(n, func(i int) bool { return col[i] > c.hi[a] })
				share[a] += float64(max(hi-lo, 0))
			}
		} else {
			cnt := make([]float64, len(t.Attrs[a].Categories))
			for _, v := range col {
				cnt[int(v)]++
			}
			for _, c := range boxes {
				for code, m := range cnt {
					if c.set[a][code/64]&(1<<(code%64)) != 0 {
						share[a] += m
					}
				}
			}
		}
	}
	order := make([]int, d)
	for a := range order {
		order[a] = a
	}
	sort.SliceStable(order, func(x, y int) bool { return share[order[x]] < share[order[y]] })
	return order
}

// trie holds the distinct records of a set of originals: level l splits
// on attribute order[l]; the nodes of one parent are contiguous and sorted
// by key. The leaves (last level) are the distinct records.
type trie struct {
	val    [][]float64 // val[l][node]
	cs, ce [][]int32   // children range at level l+1 (inner levels)
	leaf   [][]int32   // last level: node -> distinct record
	mult   []int       // distinct record -> records
	first  []int       // distinct record -> its first record (for messages)
	rootE  int32       // level-0 nodes are [0, rootE)
}

// newTrie builds the trie of the records recs.
func (ix *boxIndex) newTrie(recs []int) *trie {
	d := ix.t.D()
	ord := ix.order
	rs := slices.Clone(recs)
	keyOf := func(i, l int) float64 { return ix.key[i*d+ord[l]] }
	slices.SortFunc(rs, func(x, y int) int {
		for l := 0; l < d; l++ {
			if a, b := keyOf(x, l), keyOf(y, l); a != b {
				if a < b {
					return -1
				}
				return 1
			}
		}
		return x - y
	})
	tr := &trie{val: make([][]float64, d), cs: make([][]int32, d), ce: make([][]int32, d), leaf: make([][]int32, d)}
	var build func(l, lo, hi int) (int32, int32)
	build = func(l, lo, hi int) (int32, int32) {
		start := int32(len(tr.val[l]))
		type run struct{ lo, hi int }
		var runs []run
		for x := lo; x < hi; {
			y := x + 1
			for y < hi && keyOf(rs[y], l) == keyOf(rs[x], l) {
				y++
			}
			runs = append(runs, run{x, y})
			tr.val[l] = append(tr.val[l], keyOf(rs[x], l))
			x = y
		}
		end := int32(len(tr.val[l]))
		if l == d-1 {
			for _, r := range runs {
				tr.leaf[l] = append(tr.leaf[l], int32(len(tr.mult)))
				tr.mult = append(tr.mult, r.hi-r.lo)
				tr.first = append(tr.first, rs[r.lo])
			}
			return start, end
		}
		tr.cs[l] = append(tr.cs[l], make([]int32, len(runs))...)
		tr.ce[l] = append(tr.ce[l], make([]int32, len(runs))...)
		for x, r := range runs {
			s, e := build(l+1, r.lo, r.hi)
			tr.cs[l][int(start)+x], tr.ce[l][int(start)+x] = s, e
		}
		return start, end
	}
	if d == 0 {
		// No quasi-identifier: one distinct record, in every box.
		tr.mult, tr.first = []int{len(rs)}, []int{0}
		if len(rs) > 0 {
			tr.first[0] = rs[0]
		}
		return tr
	}
	_, tr.rootE = build(0, 0, len(rs))
	return tr
}

// Capping of walkAll.
const capRunningMin = 1

// walk counts the records of tr inside box c, adding add to links[leaf]
// of every leaf inside when links is not nil; it stops once the count
// reaches limit (limit <= 0: no limit). It returns the count and the
// nodes visited.
func (ix *boxIndex) walk(tr *trie, c *cond, links []int64, add int64, limit int) (int, int64) {
	d := ix.t.D()
	if d == 0 {
		if links != nil {
			links[0] += add
		}
		return tr.mult[0], 1
	}
	count, work := 0, int64(0)
	var visit func(l int, s, e int32) bool
	// enter counts node s of level l, inside the box on that level's
	// attribute: a leaf's originals, or the subtree below it; true stops
	// the walk (limit reached).
	enter := func(l int, s int32) bool {
		work++
		if l == d-1 {
			p := tr.leaf[l][s]
			count += tr.mult[p]
			if links != nil {
				links[p] += add
			}
			return limit > 0 && count >= limit
		}
		return visit(l+1, tr.cs[l][s], tr.ce[l][s])
	}
	visit = func(l int, s, e int32) bool {
		a := ix.order[l]
		vals := tr.val[l]
		if ix.interval[a] {
			lo, hi := c.lo[a], c.hi[a]
			s += int32(sort.Search(int(e-s), func(x int) bool { return vals[int(s)+x] >= lo }))
			for ; s < e && vals[s] <= hi; s++ {
				if enter(l, s) {
					return true
				}
			}
			return false
		}
		set := c.set[a]
		for ; s < e; s++ {
			code := int(vals[s])
			if set[code/64]&(1<<(code%64)) != 0 && enter(l, s) {
				return true
			}
		}
		return false
	}
	visit(0, 0, tr.rootE)
	return count, work
}

// walkAll walks the distinct boxes (those listed in only, or all) over tr
// in parallel. With mult, links[p] sums the multiplicities of the boxes
// containing leaf p. With capMode = capRunningMin every box stops at the
// smallest count its worker has found so far (the minimum over all boxes
// stays exact; larger counts are truncated).
func (ix *boxIndex) walkAll(tr *trie, boxes []*cond, mult []int, only []int, workers, capMode int) (count []int, links []int64, work int64) {
	count = make([]int, len(boxes))
	list := only
	if list == nil {
		list = make([]int, len(boxes))
		for u := range list {
			list[u] = u
		}
	}
	workers = max(1, min(workers, len(list)))
	part := make([][]int64, workers)
	works := make([]int64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if mult != nil {
				part[w] = make([]int64, len(tr.mult))
			}
			limit := 0
			for x := w; x < len(list); x += workers {
				u := list[x]
				var add int64
				if mult != nil {
					add = int64(mult[u])
				}
				c, v := ix.walk(tr, boxes[u], part[w], add, limit)
				count[u] = c
				works[w] += v
				if capMode == capRunningMin && (limit == 0 || c < limit) {
					limit = c
				}
			}
		}(w)
	}
	wg.Wait()
	for w := range works {
		work += works[w]
	}
	if mult != nil {
		links = part[0]
		for _, p := range part[1:] {
			for x, v := range p {
				links[x] += v
			}
		}
	}
	return count, links, work
}

// estimate extrapolates the node visits of the exact count from a pilot
// of evenly spaced distinct boxes.
func (ix *boxIndex) estimate(tr *trie, boxes []*cond) int64 {
	var work int64
	pilot := min(pilotBoxes, len(boxes))
	step := float64(len(boxes)) / float64(pilot)
	for x := 0; x < pilot; x++ {
		_, v := ix.walk(tr, boxes[int(float64(x)*step)], nil, 0, 0)
		work += v
	}
	return int64(float64(work) * step)
}
