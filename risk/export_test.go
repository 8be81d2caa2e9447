package risk

import "math"

// NearestGonum and NearestTree answer the nearest-original queries of
// record linkage (one per point of queries, d coordinates each) over the
// points z on gonum's k-d tree and on nearTree, for BenchmarkNearest.
func NearestGonum(d int, z, queries []float64) {
	tree := gonumTree(d, z)
	for q := 0; q < len(queries); q += d {
		gonumTied(tree, queries[q:q+d])
	}
}

func NearestTree(d int, z, queries []float64) {
	tree := newNearTree(d, z)
	var ids []int32
	for q := 0; q < len(queries); q += d {
		ids = tree.tied(queries[q:q+d], math.Inf(1), ids[:0])
	}
}
