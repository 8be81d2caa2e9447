package risk

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/kdtree"
)

// gonumTied is the reference for nearTree.tied: gonum's k-d tree, one
// Nearest query and one NearestSet query within the tie radius.
func gonumTied(tree *kdtree.Tree, q []float64) []int32 {
	qp := &refPoint{z: q}
	_, dmin := tree.Nearest(qp)
	keep := kdtree.NewDistKeeper(dmin + TieTol*(1+dmin))
	tree.NearestSet(keep, qp)
	var ids []int32
	for _, c := range keep.Heap {
		ids = append(ids, c.Comparable.(*refPoint).id)
	}
	slices.Sort(ids)
	return ids
}

type refPoint struct {
	z  []float64
	id int32
}

func (p *refPoint) Compare(c kdtree.Comparable, d kdtree.Dim) float64 {
	return p.z[d] - c.(*refPoint).z[d]
}
func (p *refPoint) Dims() int                            { return len(p.z) }
func (p *refPoint) Distance(c kdtree.Comparable) float64 { return sqDist(p.z, c.(*refPoint).z) }

type refPoints []*refPoint

func (p refPoints) Index(i int) kdtree.Comparable         { return p[i] }
func (p refPoints) Len() int                              { return len(p) }
func (p refPoints) Slice(start, end int) kdtree.Interface { return p[start:end] }
func (p refPoints) Pivot(d kdtree.Dim) int {
	return kdtree.Partition(refPlane{p, d}, kdtree.MedianOfMedians(refPlane{p, d}))
}

type refPlane struct {
	p refPoints
	d kdtree.Dim
}

func (l refPlane) Len() int                               { return len(l.p) }
func (l refPlane) Less(i, j int) bool                     { return l.p[i].z[l.d] < l.p[j].z[l.d] }
func (l refPlane) Swap(i, j int)                          { l.p[i], l.p[j] = l.p[j], l.p[i] }
func (l refPlane) Slice(start, end int) kdtree.SortSlicer { return refPlane{l.p[start:end], l.d} }

func gonumTree(d int, z []float64) *kdtree.Tree {
	pts := make(refPoints, len(z)/d)
	for i := range pts {
		pts[i] = &refPoint{z: z[i*d : (i+1)*d], id: int32(i)}
	}
	return kdtree.New(pts, false)
}

// nearTree finds the same nearest originals (ties included) as gonum's
// k-d tree, with and without an upper bound, on random points with many
// duplicates and on continuous ones.
func TestNearTreeMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 60; trial++ {
		n, d := 1+rng.IntN(300), 1+rng.IntN(5)
		z := make([]float64, n*d)
		for v := range z {
			if trial%2 == 0 {
				z[v] = float64(rng.IntN(4))
			} else {
				z[v] = rng.NormFloat64()
			}
		}
		ours, ref := newNearTree(d, z), gonumTree(d, z)
		for x := 0; x < 40; x++ {
			q := make([]float64, d)
			for j := range q {
				q[j] = float64(rng.IntN(5)) - 0.5*float64(rng.IntN(2))
			}
			want := gonumTied(ref, q)
			got := ours.tied(q, math.Inf(1), nil)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d query %v: nearTree %v, gonum %v", trial, q, got, want)
			}
			// An upper bound from a point (as the own original gives).
			i := rng.IntN(n)
			got = ours.tied(q, sqDist(q, z[i*d:(i+1)*d]), nil)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d query %v with a bound: nearTree %v, gonum %v", trial, q, got, want)
			}
		}
	}
}
