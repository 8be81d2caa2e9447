package model

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Standardization is the per-attribute z-score transform of a data set,
// kept so that results computed on the standardized records can be written
// back in original units:
//
//	z_ij = (x_ij - Mean[j]) / SD[j]
//
// with SD the population standard deviation (divide by n). Choosing the
// sample standard deviation instead would rescale every attribute by the
// same factor sqrt(n/(n-1)), which changes neither any distance ordering
// nor the ratio SSE/SST, so IL does not depend on the choice.
//
// Constant attributes: when every record has the same value in attribute j
// (SD would be 0), Constant[j] is true, SD[j] is 0, Mean[j] is that value,
// and z_ij = 0 for every record. Such an attribute adds nothing to SSE or
// SST (it carries no information to lose), so it does not change any
// partition or IL; its protected value is the value itself.
type Standardization struct {
	Mean, SD []float64
	Constant []bool
}

// Standardize returns the z-scored copy of ds and the transform. ds is not
// modified. A data set without records has every attribute constant.
//
// The means and standard deviations are gonum's stat.PopMeanVariance of
// each attribute (the corrected two-pass algorithm, which subtracts the
// rounding error of the mean from the sum of squares). An attribute whose
// largest |x| lies outside [2^-400, 2^400] is first scaled by a power of
// two into (-1, 1), so that any finite values are standardized, from
// 1e-300 to 1e300 (unscaled, the squares of values beyond about 1e154
// overflow and those below 1e-154 vanish). Scaling by a power of two is
// exact: the z-scores are the numbers the unscaled formula gives wherever
// it does not overflow or underflow. The attributes are first copied,
// transposed, into the buffer that then receives the z-scores row by
// row, so that stat reads contiguous columns without extra memory: as fast
// as the earlier accumulation over the rows within the noise of
// BenchmarkStandardize (10^3 to 10^6 records of 10 attributes), the scan
// for the largest |x| included.
func Standardize(ds *Dataset) (*Dataset, *Standardization) {
	n, d := ds.N, ds.D
	s := &Standardization{Mean: make([]float64, d), SD: make([]float64, d), Constant: make([]bool, d)}
	z := &Dataset{Names: append([]string(nil), ds.Names...), N: n, D: d, X: make([]float64, len(ds.X))}
	if n == 0 {
		for j := range s.Constant {
			s.Constant[j] = true
		}
		return z, s
	}
	// z.X holds the columns of ds (column j at z.X[j*n : (j+1)*n]) until
	// the z-scores overwrite it below.
	for i := 0; i < n; i++ {
		for j, v := range ds.Row(i) {
			z.X[j*n+i] = v
		}
	}
	// The mean and standard deviation of each column scaled by mul[j], a
	// power of two.
	shift, scale, mul := make([]float64, d), make([]float64, d), make([]float64, d)
	for j := 0; j < d; j++ {
		col := z.X[j*n : (j+1)*n]
		s.Constant[j] = true
		for _, v := range col[1:] {
			if v != col[0] {
				s.Constant[j] = false
				break
			}
		}
		if s.Constant[j] {
			// The exact value, free of the rounding of the sum.
			s.Mean[j], s.SD[j] = col[0], 0
			continue
		}
		// Scale the column by 2^-e, with 2^e just above max |x|, so that
		// every value lies in (-1, 1): squares and sums of squares then
		// neither overflow (1e155 squared is beyond float64) nor
		// underflow (1e-200 squared is 0).
		e := scaleExponent(col)
		if e >= -noScale && e <= noScale {
			// No overflow or underflow unscaled (see noScale): the pass
			// is skipped, the scaled result would be the same numbers.
			e = 0
		}
		mul[j] = math.Ldexp(1, -e)
		if e != 0 {
			for i := range col {
				col[i] *= mul[j]
			}
		}
		mean, variance := stat.PopMeanVariance(col, nil)
		sd := math.Sqrt(variance)
		s.Mean[j], s.SD[j], shift[j], scale[j] = math.Ldexp(mean, e), math.Ldexp(sd, e), mean, sd
	}
	for i := 0; i < n; i++ {
		src, dst := ds.Row(i), z.Row(i)
		for j, v := range src {
			if s.Constant[j] {
				dst[j] = 0
			} else {
				dst[j] = (v*mul[j] - shift[j]) / scale[j]
			}
		}
	}
	return z, s
}

// noScale bounds the exponent of max |x| within which Standardize does
// not scale: the squares of values below 2^400, summed over up to 2^63
// records, stay below 2^863, and a non-constant column's deviations are
// at least an ulp of its largest value, about 2^-452 at 2^-400, whose
// squares are normal floats.
const noScale = 400

// scaleExponent returns e with max |x| < 2^e over col, limited to
// [-1020, 1024] so that 2^-e is a normal float64 (a column of subnormals,
// below 2^-1022, is scaled up by 2^1020, which is exact and enough: its
// squares are then above 2^-200). A column of zeros gives -1020 too.
func scaleExponent(col []float64) int {
	m := 0.0
	for _, v := range col {
		m = max(m, math.Abs(v))
	}
	_, e := math.Frexp(m)
	return max(e, -1020)
}

// Unstandardize maps standardized records back to original units,
// x_ij = Mean[j] + SD[j]·z_ij (Mean[j] for a constant attribute). It
// panics if z has a different number of attributes than the transform.
func (s *Standardization) Unstandardize(z *Dataset) *Dataset {
	if z.D != len(s.Mean) {
		panic("model: Unstandardize: attribute count differs from the transform")
	}
	x := &Dataset{Names: append([]string(nil), z.Names...), N: z.N, D: z.D, X: make([]float64, len(z.X))}
	for i := 0; i < z.N; i++ {
		src, dst := z.Row(i), x.Row(i)
		for j, v := range src {
			dst[j] = s.Mean[j] + s.SD[j]*v
		}
	}
	return x
}

// Protect returns the protected data set: every record replaced by the
// centroid of its group, computed on raw (original units). Because the
// z-score transform is affine per attribute, this equals the
// unstandardized centroid of the standardized records. It panics if c does
// not cover raw's records or names a group outside [0, c.NumGroups).
func Protect(raw *Dataset, c *Clustering) *Dataset {
	if len(c.Group) != raw.N {
		panic("model: Protect: clustering and data set differ in size")
	}
	cent := Centroids(raw, c)
	d := raw.D
	for j := 0; j < d; j++ {
		for g := 0; g < c.NumGroups; g++ {
			if math.IsInf(cent[g*d+j], 0) || math.IsNaN(cent[g*d+j]) {
				scaledCentroids(raw, c, j, cent)
				break
			}
		}
	}
	out := &Dataset{Names: append([]string(nil), raw.Names...), N: raw.N, D: d, X: make([]float64, len(raw.X))}
	for i, g := range c.Group {
		copy(out.Row(i), cent[g*d:(g+1)*d])
	}
	return out
}

// scaledCentroids recomputes attribute j of the group means cent with the
// values scaled by a power of two into (-1, 1), for an attribute whose
// sums overflow (values near the float64 limit): a mean of finite values
// is finite.
func scaledCentroids(raw *Dataset, c *Clustering, j int, cent []float64) {
	d := raw.D
	m := 0.0
	for i := 0; i < raw.N; i++ {
		m = max(m, math.Abs(raw.X[i*d+j]))
	}
	_, e := math.Frexp(m)
	sum := make([]float64, c.NumGroups)
	cnt := make([]float64, c.NumGroups)
	for i, g := range c.Group {
		sum[g] += math.Ldexp(raw.X[i*d+j], -e)
		cnt[g]++
	}
	for g := range sum {
		cent[g*d+j] = math.Ldexp(sum[g]/cnt[g], e)
	}
}
