package model

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Dataset is numerical microdata: N records of D attributes, stored
// row-major in X (record i is X[i*D : (i+1)*D]).
type Dataset struct {
	Names []string // attribute names, len D
	N, D  int
	X     []float64
}

// NewDataset checks the shape and values (no NaN or Inf) and returns the
// data set. x is used, not copied.
func NewDataset(names []string, n, d int, x []float64) (*Dataset, error) {
	if n < 0 || d < 0 || len(x) != n*d {
		return nil, fmt.Errorf("model: data set of %d x %d needs %d values, got %d", n, d, n*d, len(x))
	}
	if names != nil && len(names) != d {
		return nil, fmt.Errorf("model: %d attribute names for %d attributes", len(names), d)
	}
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("model: record %d, attribute %d: value %v", k/d, k%d, v)
		}
	}
	if names == nil {
		names = make([]string, d)
		for j := range names {
			names[j] = fmt.Sprintf("v%d", j+1)
		}
	}
	return &Dataset{Names: names, N: n, D: d, X: x}, nil
}

// Row returns record i (a view into X).
func (ds *Dataset) Row(i int) []float64 { return ds.X[i*ds.D : (i+1)*ds.D] }

// Clone returns a deep copy.
func (ds *Dataset) Clone() *Dataset {
	return &Dataset{Names: append([]string(nil), ds.Names...), N: ds.N, D: ds.D, X: append([]float64(nil), ds.X...)}
}

// Clustering assigns every record to a group: Group[i] is the group of
// record i, numbered 0..NumGroups-1.
type Clustering struct {
	Group     []int
	NumGroups int
}

// NewClustering builds a clustering of n records from its groups (lists of
// record indices). It fails unless every record is in exactly one group.
func NewClustering(n int, groups [][]int) (*Clustering, error) {
	c := &Clustering{Group: make([]int, n), NumGroups: len(groups)}
	for i := range c.Group {
		c.Group[i] = -1
	}
	for g, members := range groups {
		if len(members) == 0 {
			return nil, fmt.Errorf("model: group %d is empty", g)
		}
		for _, i := range members {
			if i < 0 || i >= n {
				return nil, fmt.Errorf("model: group %d names record %d of %d", g, i, n)
			}
			if c.Group[i] >= 0 {
				return nil, fmt.Errorf("model: record %d is in groups %d and %d", i, c.Group[i], g)
			}
			c.Group[i] = g
		}
	}
	for i, g := range c.Group {
		if g < 0 {
			return nil, fmt.Errorf("model: record %d is in no group", i)
		}
	}
	return c, nil
}

// FromLabels builds a clustering from arbitrary non-negative labels,
// renumbering groups 0..q-1 in order of first appearance.
func FromLabels(labels []int) (*Clustering, error) {
	c := &Clustering{Group: make([]int, len(labels))}
	renum := map[int]int{}
	for i, l := range labels {
		if l < 0 {
			return nil, fmt.Errorf("model: record %d has negative label %d", i, l)
		}
		g, ok := renum[l]
		if !ok {
			g = len(renum)
			renum[l] = g
		}
		c.Group[i] = g
	}
	c.NumGroups = len(renum)
	return c, nil
}

// Groups returns the members of every group, in increasing record order.
func (c *Clustering) Groups() [][]int {
	gs := make([][]int, c.NumGroups)
	for i, g := range c.Group {
		gs[g] = append(gs[g], i)
	}
	return gs
}

// Sizes returns the size of every group.
func (c *Clustering) Sizes() []int {
	s := make([]int, c.NumGroups)
	for _, g := range c.Group {
		s[g]++
	}
	return s
}

// ErrGroupTooSmall is wrapped by CheckK when a group has fewer than k records.
var ErrGroupTooSmall = errors.New("group smaller than k")

// CheckK verifies that the clustering covers n records with valid group
// numbers and that every group has at least k records. It returns the
// number of groups larger than 2k-1 (allowed, but never optimal).
func (c *Clustering) CheckK(n, k int) (large int, err error) {
	if len(c.Group) != n {
		return 0, fmt.Errorf("model: clustering of %d records, data set has %d", len(c.Group), n)
	}
	for i, g := range c.Group {
		if g < 0 || g >= c.NumGroups {
			return 0, fmt.Errorf("model: record %d has group %d outside [0, %d)", i, g, c.NumGroups)
		}
	}
	for g, s := range c.Sizes() {
		if s < k {
			return 0, fmt.Errorf("model: group %d has %d records: %w (k = %d)", g, s, ErrGroupTooSmall, k)
		}
		if s > 2*k-1 {
			large++
		}
	}
	return large, nil
}

// Centroids returns the NumGroups x D matrix of group means (row-major).
// The group sums are formed with gonum's floats.Add: the same additions as
// a loop over the attributes, so the same numbers, and as fast within the
// noise of BenchmarkCentroids (groups of 3 records of 10 attributes). The
// division by the group size stays a loop: floats.Scale by the reciprocal
// would round differently.
func Centroids(ds *Dataset, c *Clustering) []float64 {
	d := ds.D
	cent := make([]float64, c.NumGroups*d)
	cnt := make([]float64, c.NumGroups)
	for i, g := range c.Group {
		floats.Add(cent[g*d:(g+1)*d], ds.Row(i))
		cnt[g]++
	}
	for g := 0; g < c.NumGroups; g++ {
		for j := 0; j < d; j++ {
			cent[g*d+j] /= cnt[g]
		}
	}
	return cent
}

// SSE is the within-group sum of squared Euclidean distances to the group
// centroids. The squared distances are a loop: gonum's floats has no
// squared distance (floats.Distance with L = 2 takes the square root of a
// rescaled sum), and floats.SubTo with floats.Dot adds in another order and
// was 1.1-1.3x slower on 10 attributes (BenchmarkCentroids).
func SSE(ds *Dataset, c *Clustering) float64 {
	cent := Centroids(ds, c)
	d := ds.D
	s := 0.0
	for i, g := range c.Group {
		row := ds.Row(i)
		cg := cent[g*d : (g+1)*d]
		for j, v := range row {
			e := v - cg[j]
			s += e * e
		}
	}
	return s
}

// SST is the total sum of squared Euclidean distances to the overall mean.
// It accumulates over the row-major records instead of calling gonum's
// stat.PopMeanVariance per attribute, because copying the strided columns
// out first made that 1.3x slower at 10^3 records, 1.6x at 10^5 and 5x at
// 10^6 (10 attributes; BenchmarkColumnMoments, BenchmarkStandardize/SST).
// Standardize has an output buffer to transpose into, and does use stat.
func SST(ds *Dataset) float64 {
	d := ds.D
	mean := make([]float64, d)
	for i := 0; i < ds.N; i++ {
		for j, v := range ds.Row(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(ds.N)
	}
	s := 0.0
	for i := 0; i < ds.N; i++ {
		for j, v := range ds.Row(i) {
			e := v - mean[j]
			s += e * e
		}
	}
	return s
}

// IL is the information loss 100 · SSE / SST, in percent.
func IL(ds *Dataset, c *Clustering) float64 {
	sst := SST(ds)
	if sst == 0 {
		return 0
	}
	return 100 * SSE(ds, c) / sst
}
