package microagg

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// PartitionSequence returns the partition of the records, taken in the
// given order, into consecutive groups of k..2k-1 records with the least
// SSE, and that SSE. On one attribute with order sorting the values this
// is the optimal univariate microaggregation of Hansen & Mukherjee (2003);
// on any data and order (a projection, a tour) it is the best partition
// that respects the order.
//
// It is a shortest path over the positions 0..n of the sequence, with an
// edge i -> j for every segment of m = j-i records, k <= m <= 2k-1,
// weighted by the segment's SSE. For every end j the segments ending at j
// are grown backwards one record at a time, updating their mean and sum
// of squared deviations (Welford's update), so the cost is O(n·k·d) time
// and O(n) memory. (gonum's stat.MeanVariance has no such running update:
// recomputing each of the 2k-1 segments from scratch would cost
// O(n·k²·d).) Ties go to the shorter last segment.
//
// order must be a permutation of 0..n-1 (it panics otherwise). Errors:
// as for MDAV (empty data, no attributes, non-finite values, k < 2 or
// k > n).
func PartitionSequence(z *model.Dataset, order []int, k int) (*model.Clustering, float64, error) {
	if err := validate(z, k); err != nil {
		return nil, 0, err
	}
	n, d := z.N, z.D
	if len(order) != n {
		panic(fmt.Sprintf("microagg: PartitionSequence: order has %d entries for %d records", len(order), n))
	}
	seen := make([]bool, n)
	for _, i := range order {
		if i < 0 || i >= n || seen[i] {
			panic(fmt.Sprintf("microagg: PartitionSequence: order is not a permutation of 0..%d (entry %d)", n-1, i))
		}
		seen[i] = true
	}

	cost := make([]float64, n+1) // cost[j]: least SSE of the first j records
	last := make([]int32, n+1)   // last[j]: size of the last segment of that partition
	mean := make([]float64, d)
	maxM := 2*k - 1
	for j := 1; j <= n; j++ {
		cost[j] = math.Inf(1)
		for t := range mean {
			mean[t] = 0
		}
		sse := 0.0
		for m := 1; m <= maxM && m <= j; m++ {
			// Add record order[j-m] to the segment [j-m, j).
			x := z.Row(order[j-m])
			inv := 1 / float64(m)
			for t, v := range x {
				delta := v - mean[t]
				mean[t] += delta * inv
				sse += delta * (v - mean[t])
			}
			if m >= k {
				if c := cost[j-m] + sse; c < cost[j] {
					cost[j], last[j] = c, int32(m)
				}
			}
		}
	}
	// Every n >= k is a sum of sizes in k..2k-1, so cost[n] is finite.
	group := make([]int, n)
	var sizes []int
	for j := n; j > 0; j -= int(last[j]) {
		sizes = append(sizes, int(last[j]))
	}
	ng := len(sizes)
	pos := 0
	for g := 0; g < ng; g++ {
		m := sizes[ng-1-g]
		for _, i := range order[pos : pos+m] {
			group[i] = g
		}
		pos += m
	}
	return &model.Clustering{Group: group, NumGroups: ng}, cost[n], nil
}

// OptimalUnivariate returns an optimal k-partition of a one-attribute
// data set (Hansen & Mukherjee 2003): the records sorted by value (ties
// by index), then PartitionSequence. Errors: as for PartitionSequence,
// and ErrNotUnivariate when z has more than one attribute (select one
// column, or use Projection for multivariate data).
func OptimalUnivariate(z *model.Dataset, k int) (*model.Clustering, error) {
	if err := validate(z, k); err != nil {
		return nil, err
	}
	if z.D != 1 {
		return nil, fmt.Errorf("%w: the data set has %d; select one column or use the projection method", ErrNotUnivariate, z.D)
	}
	order := sortedOrder(z.X)
	c, _, err := PartitionSequence(z, order, k)
	return c, err
}

// sortedOrder returns the indices of key in increasing key order, ties by
// index.
func sortedOrder(key []float64) []int {
	type item struct {
		v float64
		i int32
	}
	items := make([]item, len(key))
	for i, v := range key {
		items[i] = item{v, int32(i)}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := cmp.Compare(a.v, b.v); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	order := make([]int, len(key))
	for p, it := range items {
		order[p] = int(it.i)
	}
	return order
}
