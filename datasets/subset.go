package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// The subset extraction criteria of Gentile, Spagnolo-Arrizabalaga &
// Castro, Section 6.
const (
	SubsetConsecutive = "consecutive" // (i) consecutive records
	SubsetRandom      = "random"      // (ii) random records
	SubsetNorm        = "norm"        // (iii) records ordered by L2 norm
	SubsetCentroid    = "centroid"    // (iv) records ordered by L2 distance from the overall centroid
)

// streamSubset is the second PCG word of the subset extraction.
const streamSubset = 0x5dc0_5b5e_0001

// SubsetCriteria lists the criteria Subset accepts.
func SubsetCriteria() []string {
	return []string{SubsetConsecutive, SubsetRandom, SubsetNorm, SubsetCentroid}
}

// Subset extracts size records of ds by one of the four criteria of the
// column-generation paper (Section 6), and returns them as a new data set
// together with their indices in ds (record r of the subset is record
// idx[r] of ds). The seed fixes the start:
//
//   - consecutive: a start s uniform in 0..n-size; records s, s+1, ...,
//     s+size-1 (a window of the file order).
//   - random: a simple random sample of size records without replacement
//     (the seed starts the sampler); returned in increasing record order.
//   - norm: records sorted by L2 norm ||x_i|| (ascending, ties by record
//     index); a start s uniform in 0..n-size; the sorted positions
//     s..s+size-1, in sorted order.
//   - centroid: as norm, with records sorted by L2 distance ||x_i - x̄|| from
//     the overall centroid x̄ of ds.
//
// Norms and distances are computed on ds as given. Pass the raw records
// (original units), as the paper's criteria (iii) and (iv) differ only
// there: on z-scored records the centroid is the origin and both orders
// coincide. Standardize the extracted subset afterwards to microaggregate
// it. The same ds, criterion, size and seed give the same subset.
//
// Errors: an unknown criterion, or size outside 1..n.
func Subset(ds *model.Dataset, criterion string, size int, seed uint64) (*model.Dataset, []int, error) {
	n := ds.N
	if size < 1 || size > n {
		return nil, nil, fmt.Errorf("datasets: subset size %d outside 1..%d (the number of records)", size, n)
	}
	r := rand.New(rand.NewPCG(seed, streamSubset))
	var idx []int
	switch criterion {
	case SubsetConsecutive:
		s := r.IntN(n - size + 1)
		idx = make([]int, size)
		for k := range idx {
			idx[k] = s + k
		}
	case SubsetRandom:
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		// Partial Fisher-Yates: the first size positions are the sample.
		for k := 0; k < size; k++ {
			j := k + r.IntN(n-k)
			perm[k], perm[j] = perm[j], perm[k]
		}
		idx = perm[:size:size]
		slices.Sort(idx)
	case SubsetNorm, SubsetCentroid:
		ref := make([]float64, ds.D) // the origin, or the centroid
		if criterion == SubsetCentroid {
			for i := 0; i < n; i++ {
				for j, v := range ds.Row(i) {
					ref[j] += v
				}
			}
			for j := range ref {
				ref[j] /= float64(n)
			}
		}
		key := make([]float64, n)
		order := make([]int, n)
		for i := range key {
			s := 0.0
			for j, v := range ds.Row(i) {
				e := v - ref[j]
				s += e * e
			}
			key[i] = math.Sqrt(s)
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case key[a] < key[b]:
				return -1
			case key[a] > key[b]:
				return 1
			}
			return 0
		})
		s := r.IntN(n - size + 1)
		idx = append([]int(nil), order[s:s+size]...)
	default:
		return nil, nil, fmt.Errorf("datasets: unknown subset criterion %q (want one of %s)", criterion, strings.Join(SubsetCriteria(), ", "))
	}
	x := make([]float64, 0, size*ds.D)
	for _, i := range idx {
		x = append(x, ds.Row(i)...)
	}
	sub, err := model.NewDataset(append([]string(nil), ds.Names...), size, ds.D, x)
	if err != nil {
		panic(err) // values come from a valid data set
	}
	return sub, idx, nil
}
