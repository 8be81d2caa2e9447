package microagg

import (
	"math"
	"math/rand/v2"

	"github.com/sdcopt/sdcopt/model"
)

// Power iteration settings for the first principal component.
const (
	powerMaxIter = 1000  // iterations before accepting the current vector
	powerTol     = 1e-12 // convergence: ||v_{t+1} - v_t|| below this
	powerSeed    = 1     // seed of the (fixed) random start vector
)

// Projection partitions the records of z with the projection heuristic:
// the records are ordered by their score on the first principal component
// of z (ties by index), and that order is partitioned optimally into
// consecutive groups of k..2k-1 records by PartitionSequence. It is exact
// on one attribute (where it is OptimalUnivariate).
//
// The component is found by power iteration on the d x d covariance
// matrix from a fixed pseudo-random start (so the result is
// deterministic); when the iteration breaks down (zero covariance) the
// attribute of largest variance is used instead. Errors: as for MDAV.
// The cost is O(n·d² + n log n + n·k·d) time and O(n + d²) memory.
func Projection(z *model.Dataset, k int) (*model.Clustering, error) {
	if err := validate(z, k); err != nil {
		return nil, err
	}
	v := principalAxis(z)
	score := make([]float64, z.N)
	for i := range score {
		s := 0.0
		for j, x := range z.Row(i) {
			s += x * v[j]
		}
		score[i] = s
	}
	c, _, err := PartitionSequence(z, sortedOrder(score), k)
	return c, err
}

// principalAxis returns a unit vector along the first principal component
// of z, with its largest-magnitude entry positive, or the unit vector of
// the attribute of largest variance when power iteration breaks down.
func principalAxis(z *model.Dataset) []float64 {
	n, d := z.N, z.D
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, x := range z.Row(i) {
			mean[j] += x
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	// Upper triangle of the scatter matrix Σ (x-mean)(x-mean)ᵀ.
	cov := make([]float64, d*d)
	dev := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, x := range z.Row(i) {
			dev[j] = x - mean[j]
		}
		for a := 0; a < d; a++ {
			da := dev[a]
			row := cov[a*d : (a+1)*d]
			for b := a; b < d; b++ {
				row[b] += da * dev[b]
			}
		}
	}
	for a := 0; a < d; a++ {
		for b := 0; b < a; b++ {
			cov[a*d+b] = cov[b*d+a]
		}
	}

	r := rand.New(rand.NewPCG(powerSeed, powerSeed))
	v := make([]float64, d)
	for j := range v {
		v[j] = r.Float64() + 0.5 // positive start: never orthogonal to a non-negative axis
	}
	if !normalize(v) {
		panic("microagg: zero start vector")
	}
	w := make([]float64, d)
	ok := false
	for it := 0; it < powerMaxIter; it++ {
		for a := 0; a < d; a++ {
			s := 0.0
			for b, x := range cov[a*d : (a+1)*d] {
				s += x * v[b]
			}
			w[a] = s
		}
		if !normalize(w) {
			ok = false
			break
		}
		ok = true
		diff := 0.0
		for j := range v {
			e := w[j] - v[j]
			diff += e * e
		}
		v, w = w, v
		if math.Sqrt(diff) < powerTol {
			break
		}
	}
	if !ok {
		// Zero (or non-finite) covariance: use the attribute of largest
		// variance (the first one when all are equal).
		best := 0
		for j := 1; j < d; j++ {
			if cov[j*d+j] > cov[best*d+best] {
				best = j
			}
		}
		for j := range v {
			v[j] = 0
		}
		v[best] = 1
		return v
	}
	big := 0
	for j := range v {
		if math.Abs(v[j]) > math.Abs(v[big]) {
			big = j
		}
	}
	if v[big] < 0 {
		for j := range v {
			v[j] = -v[j]
		}
	}
	return v
}

// normalize scales v to unit length; it reports false when v is zero or
// not finite.
func normalize(v []float64) bool {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return false
	}
	inv := 1 / math.Sqrt(s)
	for j := range v {
		v[j] *= inv
	}
	return true
}
