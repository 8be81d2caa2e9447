package model

import (
	"fmt"
	"math"
	"math/bits"
)

// Freeform generalization (k-anonymity, Doka et al.): every published
// record T_j is a box built from the quasi-identifiers of the original
// records matched to it; the bipartite "who could be whom" graph between
// originals S_i and published records T_j is k-regular.

// AttrKind says how a quasi-identifier generalizes.
type AttrKind int8

const (
	// Numeric: the box is [min, max] of the matched values; NCP is
	// (max - min) / (attribute range).
	Numeric AttrKind = iota
	// Categorical: the box is the set of matched values; NCP is 0 for one
	// value, otherwise (values covered) / (cardinality). With a Hierarchy
	// the box is the lowest common ancestor and NCP is
	// (leaves under it) / (cardinality), 0 for a leaf.
	Categorical
)

// Hierarchy is a generalization tree over the values of a categorical
// attribute. Nodes 0..NumLeaves-1 are the leaves, in the attribute's
// category order (node v is category code v); the others are inner nodes.
//
// The hierarchy may define leaves that are no category of the data
// (values the data lack). They are not nodes, but they count: Leaves[v]
// is the number of the hierarchy's leaves under v, absent ones included,
// and TotalLeaves the number under the root. The NCP of node v is
// Leaves[v] / TotalLeaves (0 for a leaf), so a value listed in the
// hierarchy but absent from the data makes every generalization that
// covers it cost more, as it would if the value occurred.
type Hierarchy struct {
	NumLeaves int      // categories of the data (leaf nodes)
	Parent    []int32  // Parent[v], -1 for the root
	Names     []string // node names (leaves: the category values)
	Leaves    []int32  // the hierarchy's leaves under each node (1 for a leaf node), absent values included
	Depth     []int32  // root 0
	// TotalLeaves is the number of leaves of the hierarchy (under the
	// root), absent values included; 0 means NumLeaves (every leaf of the
	// hierarchy is a category of the data).
	TotalLeaves int
}

// Total returns the NCP denominator: TotalLeaves, or NumLeaves when
// TotalLeaves is 0.
func (h *Hierarchy) Total() int {
	if h.TotalLeaves > 0 {
		return h.TotalLeaves
	}
	return h.NumLeaves
}

// NCP returns the NCP of node v: 0 for a node with one leaf under it,
// otherwise Leaves[v] / Total().
func (h *Hierarchy) NCP(v int32) float64 {
	if l := h.Leaves[v]; l > 1 {
		return float64(l) / float64(h.Total())
	}
	return 0
}

// LCA returns the lowest common ancestor of nodes a and b.
func (h *Hierarchy) LCA(a, b int32) int32 {
	for h.Depth[a] > h.Depth[b] {
		a = h.Parent[a]
	}
	for h.Depth[b] > h.Depth[a] {
		b = h.Parent[b]
	}
	for a != b {
		a, b = h.Parent[a], h.Parent[b]
	}
	return a
}

// QIAttr describes one quasi-identifier.
type QIAttr struct {
	Name string
	Kind AttrKind
	// Numeric: the attribute's range over the data set (NCP's denominator;
	// a constant attribute has range 0 and NCP 0). Max - Min may overflow
	// float64 (values near ±MaxFloat64): widths are then computed on
	// halved values (Scale, Span, Width).
	Min, Max float64
	// Categorical: Categories[code] is the value of code; the cardinality
	// is len(Categories).
	Categories []string
	// Hier is an optional generalization hierarchy (categorical only).
	Hier *Hierarchy
}

// Scale is the factor a numeric attribute's values are multiplied by
// before any difference is taken: 1, or 1/2 when the range Max - Min
// overflows float64 (values of opposite signs beyond ±MaxFloat64/2, such
// as ±1e308). Halving is exact (above the subnormals), so the NCPs are
// the exact ratios up to rounding, and every width and the range stay
// finite: a box spanning the whole range has NCP 1, not Inf/Inf = NaN,
// and a narrower one a positive NCP, not x/Inf = 0.
func (a *QIAttr) Scale() float64 {
	if math.IsInf(a.Max-a.Min, 0) {
		return 0.5
	}
	return 1
}

// Span is the range of a numeric attribute times Scale: Max - Min, or
// Max/2 - Min/2 when Max - Min overflows; always finite for a valid
// attribute.
func (a *QIAttr) Span() float64 {
	s := a.Scale()
	return a.Max*s - a.Min*s
}

// Width is the NCP of the interval [lo, hi] of a numeric attribute,
// (hi - lo) / (Max - Min), computed on the scaled values (Scale) so that
// it is finite for every interval inside the range; 0 for a constant
// attribute.
func (a *QIAttr) Width(lo, hi float64) float64 {
	if !(a.Max > a.Min) {
		return 0
	}
	s := a.Scale()
	return (hi*s - lo*s) / (a.Max*s - a.Min*s)
}

// Cardinality is the number of categories (categorical attributes).
func (a *QIAttr) Cardinality() int { return len(a.Categories) }

// QITable holds the quasi-identifiers of N records, row-major: record i is
// X[i*D : (i+1)*D] with D = len(Attrs); categorical values are codes
// 0..Cardinality-1 stored as float64. A numeric value NaN is missing
// (IsMissing) and means "any value": the box of a record with a missing
// value spans the attribute's whole range [Min, Max], and so does every
// box it joins; a record with a missing value lies only in boxes that
// span the whole range (whatever its true value, the box holds it).
// Min and Max are the range of the values that are not missing.
type QITable struct {
	Attrs []QIAttr
	N     int
	X     []float64
}

// IsMissing reports whether a numeric quasi-identifier value is missing
// (NaN): "any value", see QITable.
func IsMissing(v float64) bool { return v != v }

// D is the number of quasi-identifiers.
func (t *QITable) D() int { return len(t.Attrs) }

// Row returns record i.
func (t *QITable) Row(i int) []float64 { d := len(t.Attrs); return t.X[i*d : (i+1)*d] }

// Check validates codes and ranges.
func (t *QITable) Check() error {
	d := len(t.Attrs)
	if len(t.X) != t.N*d {
		return fmt.Errorf("model: QI table of %d x %d has %d values", t.N, d, len(t.X))
	}
	for a := range t.Attrs {
		at := &t.Attrs[a]
		if at.Kind == Categorical {
			if at.Hier != nil && at.Hier.NumLeaves != len(at.Categories) {
				return fmt.Errorf("model: attribute %s: hierarchy has %d leaves for %d categories", at.Name, at.Hier.NumLeaves, len(at.Categories))
			}
			if at.Hier != nil && at.Hier.TotalLeaves != 0 && at.Hier.TotalLeaves < at.Hier.NumLeaves {
				return fmt.Errorf("model: attribute %s: hierarchy has %d leaves in all but %d categories", at.Name, at.Hier.TotalLeaves, at.Hier.NumLeaves)
			}
			for i := 0; i < t.N; i++ {
				v := t.X[i*d+a]
				if v != math.Trunc(v) || v < 0 || int(v) >= len(at.Categories) {
					return fmt.Errorf("model: record %d, attribute %s: code %v outside 0..%d", i, at.Name, v, len(at.Categories)-1)
				}
			}
		} else {
			for i := 0; i < t.N; i++ {
				v := t.X[i*d+a]
				if IsMissing(v) {
					continue // any value
				}
				if math.IsInf(v, 0) || v < at.Min || v > at.Max {
					return fmt.Errorf("model: record %d, attribute %s: value %v outside [%v, %v]", i, at.Name, v, at.Min, at.Max)
				}
			}
		}
	}
	return nil
}

// Box is the generalized quasi-identifier of one published record. For
// attribute a: numeric [Lo[a], Hi[a]]; categorical without hierarchy the
// set of codes in Set[a] (a bitset); with a hierarchy the node Node[a].
type Box struct {
	Lo, Hi []float64
	Set    [][]uint64
	Node   []int32
}

// NewBox returns the box of record i alone.
func (t *QITable) NewBox(i int) *Box {
	d := len(t.Attrs)
	b := &Box{Lo: make([]float64, d), Hi: make([]float64, d), Set: make([][]uint64, d), Node: make([]int32, d)}
	r := t.Row(i)
	for a := range t.Attrs {
		at := &t.Attrs[a]
		b.Lo[a], b.Hi[a] = r[a], r[a]
		if at.Kind == Numeric && IsMissing(r[a]) {
			b.Lo[a], b.Hi[a] = at.Min, at.Max // any value: the whole range
		}
		if at.Kind == Categorical {
			c := int(r[a])
			b.Node[a] = int32(c)
			if at.Hier == nil {
				b.Set[a] = make([]uint64, (len(at.Categories)+63)/64)
				b.Set[a][c/64] |= 1 << (c % 64)
			}
		}
	}
	return b
}

// Add extends b by record i.
func (t *QITable) Add(b *Box, i int) {
	r := t.Row(i)
	for a := range t.Attrs {
		at := &t.Attrs[a]
		v := r[a]
		switch {
		case at.Kind == Numeric && IsMissing(v):
			b.Lo[a], b.Hi[a] = at.Min, at.Max // any value: the whole range
		case at.Kind == Numeric:
			b.Lo[a] = math.Min(b.Lo[a], v)
			b.Hi[a] = math.Max(b.Hi[a], v)
		case at.Hier != nil:
			b.Node[a] = at.Hier.LCA(b.Node[a], int32(v))
		default:
			c := int(v)
			b.Set[a][c/64] |= 1 << (c % 64)
		}
	}
}

// Contains reports whether record i lies inside box b.
func (t *QITable) Contains(b *Box, i int) bool {
	r := t.Row(i)
	for a := range t.Attrs {
		at := &t.Attrs[a]
		v := r[a]
		switch {
		case at.Kind == Numeric && IsMissing(v):
			if b.Lo[a] > at.Min || b.Hi[a] < at.Max {
				return false // any value: only a box of the whole range holds it
			}
		case at.Kind == Numeric:
			if v < b.Lo[a] || v > b.Hi[a] {
				return false
			}
		case at.Hier != nil:
			if at.Hier.LCA(b.Node[a], int32(v)) != b.Node[a] {
				return false
			}
		default:
			c := int(v)
			if b.Set[a][c/64]&(1<<(c%64)) == 0 {
				return false
			}
		}
	}
	return true
}

// attrNCP is the NCP of attribute a of box b.
func (t *QITable) attrNCP(b *Box, a int) float64 {
	at := &t.Attrs[a]
	switch {
	case at.Kind == Numeric:
		return at.Width(b.Lo[a], b.Hi[a])
	case at.Hier != nil:
		return at.Hier.NCP(b.Node[a])
	default:
		c := setCount(b.Set[a])
		if c <= 1 {
			return 0
		}
		return float64(c) / float64(len(at.Categories))
	}
}

// AttrNCP is the NCP of attribute a of box b (NCPSum is its sum over the
// attributes).
func (t *QITable) AttrNCP(b *Box, a int) float64 { return t.attrNCP(b, a) }

// setCount is the number of codes in a categorical box's bitset.
func setCount(set []uint64) int {
	c := 0
	for _, w := range set {
		c += bits.OnesCount64(w)
	}
	return c
}

// NCPSum is the sum over the quasi-identifiers of the box's NCP.
func (t *QITable) NCPSum(b *Box) float64 {
	s := 0.0
	for a := range t.Attrs {
		s += t.attrNCP(b, a)
	}
	return s
}

// Increase returns NCPSum(b ∪ record i) - NCPSum(b) without changing b:
// the weight w_ij of the edge (S_i, T_j) when b is T_j's current box.
func (t *QITable) Increase(b *Box, i int) float64 {
	r := t.Row(i)
	s := 0.0
	for a := range t.Attrs {
		s += t.AttrIncrease(b, a, r[a])
	}
	return s
}

// AttrIncrease is the increase of attribute a's NCP in box b if the value
// v (a category code for a categorical attribute) joins it; Increase is
// its sum over the attributes.
func (t *QITable) AttrIncrease(b *Box, a int, v float64) float64 {
	at := &t.Attrs[a]
	switch {
	case at.Kind == Numeric && IsMissing(v):
		if at.Max > at.Min {
			// Any value: the box grows to the whole range (as Width, on
			// the scaled values).
			s := at.Scale()
			return ((at.Max*s - at.Min*s) - (b.Hi[a]*s - b.Lo[a]*s)) / at.Span()
		}
	case at.Kind == Numeric:
		if at.Max > at.Min && (v < b.Lo[a] || v > b.Hi[a]) {
			// On the scaled values (Scale), as Width, so that no
			// difference overflows.
			s := at.Scale()
			lo, hi := math.Min(b.Lo[a], v)*s, math.Max(b.Hi[a], v)*s
			return ((hi - lo) - (b.Hi[a]*s - b.Lo[a]*s)) / at.Span()
		}
	case at.Hier != nil:
		n := at.Hier.LCA(b.Node[a], int32(v))
		if n != b.Node[a] {
			return at.Hier.NCP(n) - at.Hier.NCP(b.Node[a])
		}
	default:
		c := int(v)
		if b.Set[a][c/64]&(1<<(c%64)) == 0 {
			card := float64(len(at.Categories))
			if setCount(b.Set[a]) == 1 {
				return 2 / card // from one value (NCP 0) to two
			}
			return 1 / card
		}
	}
	return 0
}

// GenGraph is a generalization graph: Matched[j] lists the originals S_i
// matched to published record T_j.
type GenGraph struct {
	N       int
	Matched [][]int32
}

// Boxes builds the published boxes of the graph.
func (t *QITable) Boxes(g *GenGraph) []*Box {
	out := make([]*Box, g.N)
	for j := range out {
		out[j] = t.NewBox(j)
		for _, i := range g.Matched[j] {
			t.Add(out[j], int(i))
		}
	}
	return out
}

// GCP is the global certainty penalty of the graph: Σ_j NCPSum(box_j) /
// (N·D), in [0, 1].
func (t *QITable) GCP(g *GenGraph) float64 {
	if g.N == 0 || len(t.Attrs) == 0 {
		return 0
	}
	s := 0.0
	for _, b := range t.Boxes(g) {
		s += t.NCPSum(b)
	}
	return s / float64(g.N*len(t.Attrs))
}

// CheckAnonymous verifies that the graph is a k-anonymous generalization
// graph: it contains the identity round, and every connected component
// (on the records of the component, originals and published alike) is
// either k-regular or complete bipartite on at least k records (every
// published record of the component matched to every original of it). A
// k-regular graph (CheckRegular) passes; so does the graph of a partition
// into classes of at least k records (Mondrian). Either way every
// original is linked to at least k published records, the graph is
// regular per component, so it decomposes into perfect matchings (König)
// from which a random assignment can be drawn.
func (g *GenGraph) CheckAnonymous(k int) error {
	if len(g.Matched) != g.N {
		return fmt.Errorf("model: graph has %d published records for n = %d", len(g.Matched), g.N)
	}
	n := g.N
	deg := make([]int, n)
	seen := make([]int, n)
	parent := make([]int, n) // union-find over record indices: original i and published i share a node (identity)
	for i := range seen {
		seen[i], parent[i] = -1, i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for j, m := range g.Matched {
		if len(m) < k {
			return fmt.Errorf("model: published record %d has degree %d, want at least %d", j, len(m), k)
		}
		self := false
		for _, i := range m {
			if i < 0 || int(i) >= n {
				return fmt.Errorf("model: published record %d matched to original %d of %d", j, i, n)
			}
			if seen[i] == j {
				return fmt.Errorf("model: published record %d matched twice to original %d", j, i)
			}
			seen[i] = j
			deg[i]++
			self = self || int(i) == j
			if a, b := find(int(i)), find(j); a != b {
				parent[a] = b
			}
		}
		if !self {
			return fmt.Errorf("model: published record %d is not matched to its own original", j)
		}
	}
	compDeg := make([]int, n)  // degree of the component of root r (0 = not seen)
	compSize := make([]int, n) // records in the component of root r
	for j, m := range g.Matched {
		r := find(j)
		compSize[r]++
		if compDeg[r] == 0 {
			compDeg[r] = len(m)
		}
		if len(m) != compDeg[r] {
			return fmt.Errorf("model: published record %d has degree %d, another of its component %d", j, len(m), compDeg[r])
		}
	}
	for i, d := range deg {
		r := find(i)
		if want := compDeg[r]; d != want {
			return fmt.Errorf("model: original %d has degree %d, its component's published records %d", i, d, want)
		}
		if d != k && d != compSize[r] {
			return fmt.Errorf("model: original %d has degree %d in a component of %d records: neither k = %d nor complete", i, d, compSize[r], k)
		}
	}
	return nil
}

// CheckRegular verifies that the graph is k-regular (every original and
// every published record has exactly k distinct partners) and contains
// the identity round (S_j is matched to T_j).
func (g *GenGraph) CheckRegular(k int) error {
	if len(g.Matched) != g.N {
		return fmt.Errorf("model: graph has %d published records for n = %d", len(g.Matched), g.N)
	}
	deg := make([]int, g.N)
	seen := make([]int, g.N)
	for i := range seen {
		seen[i] = -1
	}
	for j, m := range g.Matched {
		if len(m) != k {
			return fmt.Errorf("model: published record %d has degree %d, want %d", j, len(m), k)
		}
		self := false
		for _, i := range m {
			if i < 0 || int(i) >= g.N {
				return fmt.Errorf("model: published record %d matched to original %d of %d", j, i, g.N)
			}
			if seen[i] == j {
				return fmt.Errorf("model: published record %d matched twice to original %d", j, i)
			}
			seen[i] = j
			deg[i]++
			if int(i) == j {
				self = true
			}
		}
		if !self {
			return fmt.Errorf("model: published record %d is not matched to its own original", j)
		}
	}
	for i, d := range deg {
		if d != k {
			return fmt.Errorf("model: original %d has degree %d, want %d", i, d, k)
		}
	}
	return nil
}
