package pipeline

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
)

// Sample-based median splits. A pipeline cannot sort all records on one
// worker, so the coarse partitioning follows Mondrian's median rule
// (LeFevre, DeWitt and Ramakrishnan, ICDE 2006, Section 4; as in
// kanon.Mondrian) on a seeded Bernoulli sample of the records: each
// record is kept with probability Rate (a hash of the seed and its index,
// so the sample does not depend on the order or the sharding of the
// input), and the split points found on the sample route every record to
// a coarse part. A sample part is split while it has at least 2·MinSample
// points, so that a coarse part holds about MinSample/Rate to
// 2·MinSample/Rate records; each coarse part is then partitioned exactly
// as the single-machine path does (kanon.MedianPartitions inside
// kanon.Anonymize, microagg on the part).

// SamplePoints is the number of sample points the split tree wants per
// coarse part (MinSample is half of it): with the Bernoulli sample the
// relative error of a part's size is about 1/sqrt(MinSample), 7% here.
const SamplePoints = 400

// Node is a node of the split tree: an inner node sends a record to Left
// when its value on Attr is <= Cut (< Cut when Strict), else to Right; a
// leaf (Leaf >= 0) is coarse part number Leaf.
type Node struct {
	Attr        int
	Cut         float64
	Strict      bool
	Left, Right int
	Leaf        int
}

// Tree is a split tree; Nodes[0] is the root.
type Tree struct {
	Nodes []Node
}

// Parts returns the number of coarse parts (leaves).
func (tr *Tree) Parts() int {
	n := 0
	for _, nd := range tr.Nodes {
		if nd.Leaf >= 0 {
			n++
		}
	}
	return n
}

// Route returns the coarse part of a record with values x.
func (tr *Tree) Route(x []float64) int {
	v := 0
	for {
		nd := &tr.Nodes[v]
		if nd.Leaf >= 0 {
			return nd.Leaf
		}
		if x[nd.Attr] < nd.Cut || (!nd.Strict && x[nd.Attr] == nd.Cut) {
			v = nd.Left
		} else {
			v = nd.Right
		}
	}
}

// SampleRate is the Bernoulli rate that gives about SamplePoints sample
// points per coarse part of coarse records (1 when coarse <= SamplePoints).
func SampleRate(coarse int) float64 {
	if coarse <= SamplePoints {
		return 1
	}
	return float64(SamplePoints) / float64(coarse)
}

// InSample reports whether record index i is in the seeded Bernoulli
// sample of rate r: a PCG draw seeded by (seed, i) is below r.
func InSample(seed uint64, i int64, r float64) bool {
	if r >= 1 {
		return true
	}
	return rand.New(rand.NewPCG(seed^streamSample, uint64(i))).Float64() < r
}

const streamSample = 0x7069_7065_0001

// BuildTree builds the split tree of the sample rows (each a record's
// quasi-identifier values, attributes attrs) by Mondrian's rule with
// minimum part size minSample: a part of at least 2·minSample points is
// split on the attribute of widest normalized range (numeric:
// (max − min)/range, categorical: the NCP of the part's box, as in
// kanon.Mondrian; ties by attribute order) at the median (value at
// position ⌊(size−1)/2⌋ of the sorted values; x <= m left, or x < m when
// that leaves too few points on a side); categorical attributes are cut
// by code order (hierarchies included: the coarse parts only group
// records, the per-part anonymization uses the hierarchy). Leaves are
// numbered in depth-first order (left first). An empty sample or
// minSample < 1 gives one part.
func BuildTree(attrs []model.QIAttr, sample [][]float64, minSample int) (*Tree, error) {
	d := len(attrs)
	for x, r := range sample {
		if len(r) != d {
			return nil, fmt.Errorf("pipeline: sample row %d has %d values for %d attributes", x, len(r), d)
		}
	}
	tr := &Tree{}
	t := &model.QITable{Attrs: attrs, N: len(sample), X: make([]float64, 0, len(sample)*d)}
	// Sort the sample so that the tree does not depend on the order in
	// which the pipeline delivered it.
	sample = slices.Clone(sample)
	slices.SortFunc(sample, func(a, b []float64) int { return slices.Compare(a, b) })
	for _, r := range sample {
		t.X = append(t.X, r...)
	}
	all := make([]int, len(sample))
	for i := range all {
		all[i] = i
	}
	leaves := 0
	var build func(part []int) int
	build = func(part []int) int {
		v := len(tr.Nodes)
		tr.Nodes = append(tr.Nodes, Node{Leaf: -1})
		if minSample >= 1 && len(part) >= 2*minSample {
			if a, cut, strict, ok := medianSplit(t, part, minSample); ok {
				var left, right []int
				for _, i := range part {
					x := t.X[i*d+a]
					if x < cut || (!strict && x == cut) {
						left = append(left, i)
					} else {
						right = append(right, i)
					}
				}
				l := build(left)
				r := build(right)
				tr.Nodes[v] = Node{Attr: a, Cut: cut, Strict: strict, Left: l, Right: r, Leaf: -1}
				return v
			}
		}
		tr.Nodes[v].Leaf = leaves
		leaves++
		return v
	}
	build(all)
	return tr, nil
}

// medianSplit finds the split of part (see BuildTree).
func medianSplit(t *model.QITable, part []int, minSize int) (a int, cut float64, strict, ok bool) {
	d := t.D()
	_, order := kanon.SplitOrder(t, part)
	vals := make([]float64, len(part))
	for _, ca := range order {
		for x, i := range part {
			vals[x] = t.X[i*d+ca]
		}
		slices.Sort(vals)
		m := vals[(len(vals)-1)/2]
		le, _ := slices.BinarySearch(vals, m)
		leq := le
		for leq < len(vals) && vals[leq] == m {
			leq++
		}
		switch {
		case leq >= minSize && len(vals)-leq >= minSize:
			return ca, m, false, true
		case le >= minSize && len(vals)-le >= minSize:
			return ca, m, true, true
		}
	}
	return 0, 0, false, false
}
