package kanon

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// DefaultBudget is the time budget of automatic partitioning when none is
// given (AutoPartition): half of the minute that a default run on Adult
// must stay under, the other half being margin for the model's error and
// for a machine shared with other work.
const DefaultBudget = 30 * time.Second

// partitionLadder are the partition sizes AutoPartition considers (and n).
var partitionLadder = []int{100, 150, 250, 500, 1000, 1500, 2000, 3000, 5000, 8000, 12000, 20000}

// Memory caps of the automatic choice (records per partition): hungarian
// and flow hold an n x n float64 matrix per worker (8n² bytes, 128 MiB at
// 4096), sortgreedy two n² uint64 arrays (16n² bytes, 144 MiB at 3000).
const (
	autoMaxDense      = 4096
	autoMaxSortGreedy = 3000
)

// Cost model of AutoPartition: CPU seconds per unit of work, measured on
// Adult with median partitions on the 2-core development machine (see
// bench/README.md, "Automatic partitioning"). The base costs come from one
// worker at k = 6 on partitions of 1,000 and 2,000 records (load 5-7:
// other jobs shared the machine):
//
//	greedy      1.5e-8 s · P²(k−1) per partition   (0.09 s at P = 1,000, 0.26 s at 2,000)
//	sortgreedy  4.5e-8 s · P²(k−1)                  (0.25 s, 0.86 s)
//	hungarian   8.0e-8 s · P²(k−1) · (P/1000)^0.5   (0.31 s, 0.94 s; the exponent covers the O(P³) worst case)
//	flow        7.0e-8 s · P²(k−1) · (P/1000)^0.5   (0.32 s, 1.41 s)
//
// times (k/6)^α for larger k: rounds cost more when k approaches the
// partition size (dead ends, forbidden edges; flow's b-matching has k − 1
// units per record). α is fitted to two bench runs at k = 10, 25 and 50,
// one at load 8-12 and one at load about 2, between the two fits:
// greedy 0.15 (0.3 and below 0), sortgreedy 0.2 (0.4 and 0), hungarian
// 0.5 (0.76 and 0.37), flow 0.85 (1.1 and 0.6).
// The sparse hungarian costs
//
//	7.1e-8 s · P² (the pools, once) + 1.6e-7 s · P·M(k−1) (M = DefaultPool(k))
//
// (k = 25 and 50 on partitions of about 3,350 records with pools of 400 and
// 800: 1.1e-7 at load 2, 2.1e-7 at load 5, more at load 8-12).
const (
	costGreedy     = 1.5e-8
	costSortGreedy = 4.5e-8
	costHungarian  = 8.0e-8
	costFlow       = 7.0e-8
	costPool       = 7.1e-8
	costSparse     = 1.6e-7
)

// kFactor is the (k/6)^α growth of a round's cost with k (1 below k = 6).
func kFactor(k int, alpha float64) float64 {
	return math.Pow(max(1, float64(k)/6), alpha)
}

// PredictSeconds returns the cost model's wall-clock seconds of method on
// n records at k with partitions of p records (0 = one partition) solved
// by workers goroutines; hungarian is priced sparse above SparseMin
// (AssignAuto). Methods without a model (mip, mondrian) give NaN.
func PredictSeconds(method string, n, k, p, workers int) float64 {
	if p <= 0 || p > n {
		p = n
	}
	parts := max(1, n/p)
	P := float64(n) / float64(parts) // mean partition size
	r := float64(k - 1)
	var per float64 // CPU seconds per partition
	switch method {
	case MethodGreedy:
		per = costGreedy * P * P * r * kFactor(k, 0.15)
	case MethodSortGreedy:
		per = costSortGreedy * P * P * r * kFactor(k, 0.2)
	case MethodHungarian:
		if P > SparseMin {
			per = costPool*P*P + costSparse*P*float64(min(DefaultPool(k), int(P)-1))*r
		} else {
			per = costHungarian * P * P * r * math.Sqrt(P/1000) * kFactor(k, 0.5)
		}
	case MethodFlow:
		per = costFlow * P * P * r * math.Sqrt(P/1000) * kFactor(k, 0.85)
	default:
		return math.NaN()
	}
	return per * float64(parts) / float64(max(1, min(workers, parts)))
}

// AutoPartition chooses the partition size of a freeform heuristic for n
// records at k within a time budget (0 = DefaultBudget) with workers
// goroutines: the largest size of the ladder 100, 150, 250, 500, 1,000, 1,500,
// 2,000, 3,000, 5,000, 8,000, 12,000, 20,000, n (at least k, within the
// method's memory cap: 4,096 for hungarian solved densely and flow, 3,000
// for sortgreedy) whose PredictSeconds fits the budget, or the smallest
// allowed size when none does. Larger partitions give lower GCP (the
// records of a partition can only be matched among themselves), so the
// budget buys quality. It returns 0 when the choice is one partition of
// all n records. Errors: a method without a cost model (mip, mondrian),
// k outside 1..n, a negative budget.
func AutoPartition(method string, n, k, workers int, budget time.Duration) (int, error) {
	if !slices.Contains([]string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow}, method) {
		return 0, fmt.Errorf("%w %q: automatic partitioning is for greedy, sortgreedy, hungarian and flow", ErrMethod, method)
	}
	if k < 1 || k > n {
		return 0, fmt.Errorf("%w: k = %d for %d records (want 1 <= k <= n)", ErrK, k, n)
	}
	if budget < 0 {
		return 0, fmt.Errorf("kanon: negative time budget %v", budget)
	}
	if budget == 0 {
		budget = DefaultBudget
	}
	if workers <= 0 {
		return 0, fmt.Errorf("kanon: workers = %d (want at least 1)", workers)
	}
	limit := n
	switch method {
	case MethodSortGreedy:
		limit = autoMaxSortGreedy
	case MethodFlow:
		limit = autoMaxDense
	}
	var sizes []int
	for _, p := range append(slices.Clone(partitionLadder), n) {
		if p >= k && p <= n && p <= limit {
			sizes = append(sizes, p)
		}
	}
	if len(sizes) == 0 {
		sizes = []int{min(n, max(k, limit))}
	}
	best := sizes[0]
	for _, p := range sizes {
		if PredictSeconds(method, n, k, p, workers) <= budget.Seconds() {
			best = p
		}
	}
	if best >= n {
		return 0, nil
	}
	return best, nil
}
