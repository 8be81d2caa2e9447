package kanon

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// Mondrian is strict multidimensional partitioning (LeFevre, DeWitt and
// Ramakrishnan, "Mondrian Multidimensional K-Anonymity", ICDE 2006,
// Section 4): the records are split recursively, each time on one
// quasi-identifier, into parts of at least k records, until no allowable
// split is left; every part (equivalence class) publishes the box of its
// records for each of them. It is the standard baseline of freeform
// generalization: a class of m >= k records is the complete bipartite
// graph K_{m,m} between its originals and its published records, so its
// generalization graph is not k-regular but regular per class with
// degree >= k (model.GenGraph.CheckAnonymous), and the GCP is computed by
// the same formula (model.QITable.GCP).
//
// Split rule. A part is split on the attribute of widest normalized range
// among the attributes that allow a split (numeric: (max − min)/range of
// the data; categorical: the NCP of the part's box on it), trying the
// attributes in decreasing width (ties: attribute order):
//
//   - numeric and flat categorical attributes are split at the median:
//     with the part's values sorted (a missing numeric value after every
//     value), m = the value at position ⌊(size−1)/2⌋,
//     left = {x ≤ m}, right = {x > m}; when a side would have fewer than
//     k records (many values equal to m), left = {x < m}, right = {x ≥ m}
//     is tried. Categorical values are ordered by their code, that is
//     alphabetically (the order of model.QIAttr.Categories, as
//     datasets.LoadQI sorts them); the order only decides which values go
//     together, the NCP of a set does not depend on it.
//   - a categorical attribute with a hierarchy is split by hierarchy
//     level: the part's records are grouped by the child of the part's
//     node (the lowest common ancestor of its values) that their value
//     lies under; the split is allowed when there are at least two
//     groups and every group has at least k records.
//
// A split is allowed only when every resulting part has at least k
// records, so every class has k records or more (strict partitioning; a
// class may exceed 2k−1 records when equal values prevent a split).
// O(n log² n · d) time.
func Mondrian(t *model.QITable, k int) ([][]int, error) {
	if t == nil {
		return nil, fmt.Errorf("kanon: nil table")
	}
	if k < 1 || k > t.N {
		return nil, fmt.Errorf("%w: k = %d for %d records (want 1 <= k <= n)", ErrK, k, t.N)
	}
	all := make([]int, t.N)
	for i := range all {
		all[i] = i
	}
	var classes [][]int
	stack := [][]int{all}
	vals := make([]float64, 0, t.N)
	for len(stack) > 0 {
		part := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(part) < 2*k {
			classes = append(classes, part)
			continue
		}
		box, order := SplitOrder(t, part)
		var parts [][]int
		for _, a := range order {
			at := &t.Attrs[a]
			if at.Kind == model.Categorical && at.Hier != nil {
				parts = splitHierarchy(t, part, a, box.Node[a], k)
			} else {
				parts = splitMedian(t, part, a, k, vals)
			}
			if parts != nil {
				break
			}
		}
		if parts == nil {
			classes = append(classes, part)
			continue
		}
		stack = append(stack, parts...)
	}
	for _, c := range classes {
		slices.Sort(c)
	}
	slices.SortFunc(classes, func(x, y []int) int { return x[0] - y[0] })
	return classes, nil
}

// SplitOrder returns the box of the records part and the attributes that
// Mondrian's median rule tries to cut it on: those of positive normalized
// width in the box (a numeric attribute's range over its range in the data,
// a categorical one's NCP), widest first, ties in attribute order.
func SplitOrder(t *model.QITable, part []int) (*model.Box, []int) {
	box := t.NewBox(part[0])
	for _, i := range part[1:] {
		t.Add(box, i)
	}
	type cand struct {
		a     int
		width float64
	}
	var cands []cand
	for a := range t.D() {
		at := &t.Attrs[a]
		w := 0.0
		switch {
		case at.Kind == model.Numeric:
			w = at.Width(box.Lo[a], box.Hi[a])
		default:
			w = t.AttrNCP(box, a)
		}
		if w > 0 { // false for NaN too
			cands = append(cands, cand{a, w})
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		switch {
		case x.width > y.width:
			return -1
		case x.width < y.width:
			return 1
		}
		return 0
	})
	order := make([]int, len(cands))
	for i, c := range cands {
		order[i] = c.a
	}
	return box, order
}

// splitMedian splits part at the median of attribute a (see Mondrian), or
// returns nil when neither cut leaves k records on both sides. vals is
// scratch space.
func splitMedian(t *model.QITable, part []int, a, k int, vals []float64) [][]int {
	d := t.D()
	vals = vals[:0]
	for _, i := range part {
		vals = append(vals, orderKey(t.X[i*d+a])) // a missing value after every value
	}
	slices.Sort(vals)
	m := vals[(len(vals)-1)/2]
	le, _ := slices.BinarySearch(vals, m) // values < m
	leq := le                             // values <= m
	for leq < len(vals) && vals[leq] == m {
		leq++
	}
	var cut func(v float64) bool
	switch {
	case leq >= k && len(vals)-leq >= k:
		cut = func(v float64) bool { return v <= m }
	case le >= k && len(vals)-le >= k:
		cut = func(v float64) bool { return v < m }
	default:
		return nil
	}
	var left, right []int
	for _, i := range part {
		if cut(orderKey(t.X[i*d+a])) {
			left = append(left, i)
		} else {
			right = append(right, i)
		}
	}
	return [][]int{left, right}
}

// splitHierarchy splits part by the children of node (the lowest common
// ancestor of the part's values on attribute a), or returns nil when that
// gives one group or a group of fewer than k records.
func splitHierarchy(t *model.QITable, part []int, a int, node int32, k int) [][]int {
	h := t.Attrs[a].Hier
	d := t.D()
	groups := map[int32][]int{}
	var order []int32
	for _, i := range part {
		v := int32(t.X[i*d+a])
		for h.Parent[v] != node {
			v = h.Parent[v]
		}
		if _, ok := groups[v]; !ok {
			order = append(order, v)
		}
		groups[v] = append(groups[v], i)
	}
	if len(order) < 2 {
		return nil
	}
	parts := make([][]int, 0, len(order))
	for _, v := range order {
		if len(groups[v]) < k {
			return nil
		}
		parts = append(parts, groups[v])
	}
	return parts
}

// mondrianResult builds the Result of Mondrian's classes: every published
// record j is matched to every original of its class (the box of j is the
// class's box), the assignment is a seeded uniformly random permutation
// within each class, the publish order a seeded shuffle.
func mondrianResult(t *model.QITable, classes [][]int, seed uint64) *Result {
	g := &model.GenGraph{N: t.N, Matched: make([][]int32, t.N)}
	rng := rand.New(rand.NewPCG(seed, streamExtract))
	assign := make([]int, t.N)
	for _, c := range classes {
		m := make([]int32, len(c))
		for x, i := range c {
			m[x] = int32(i)
		}
		for _, j := range c {
			g.Matched[j] = m // shared, read-only
		}
		p := rng.Perm(len(c))
		for x, j := range c {
			assign[j] = c[p[x]]
		}
	}
	// GCP = Σ_classes |class| · NCPSum(class box) / (n·d), which is
	// model.QITable.GCP of the graph without building a box per record.
	sum := 0.0
	for _, c := range classes {
		b := t.NewBox(c[0])
		for _, i := range c[1:] {
			t.Add(b, i)
		}
		sum += float64(len(c)) * t.NCPSum(b)
	}
	gcp := 0.0
	if d := t.D(); d > 0 {
		gcp = sum / float64(t.N*d)
	}
	return &Result{Graph: g, GCP: gcp, Partitions: 1, Classes: len(classes), Assignment: assign}
}
