package risk

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/sdcopt/sdcopt/model"
)

// DefaultIntervalP is the default width p of the intervals of interval
// disclosure, as a fraction of the protected attribute's standard
// deviation: sdcMicro's dRisk default k = 0.05 (R/dRisk.R, dRiskWORK,
// every release).
const DefaultIntervalP = 0.05

// TieTol is the tolerance of a tie in record linkage: an original whose
// squared standardized distance d to a protected record satisfies
// d <= dmin + TieTol·(1 + dmin), dmin the smallest, is as near as the
// nearest. Exact equality would split mathematical ties by rounding: the
// centroid of two records is equally far from both, but the two computed
// distances can differ in the last bits.
const TieTol = 1e-9

// Errors of the measures (wrapped; the message names the attribute or
// record).
var (
	// ErrShape: the original and protected data differ in records,
	// attributes or attribute names.
	ErrShape = errors.New("risk: original and protected data differ in shape")
	// ErrTooFew: too few records for the measure (a standard deviation
	// needs two).
	ErrTooFew = errors.New("risk: too few records")
	// ErrConstant: IL1s divides by the original's standard deviation, so
	// it is undefined where a constant original attribute was changed.
	ErrConstant = errors.New("risk: constant attribute changed by the protection")
	// ErrParam: a bad parameter (negative or non-finite interval width,
	// bad k).
	ErrParam = errors.New("risk: bad parameter")
)

// NumericOptions configure Numeric. A nil *NumericOptions means the zero
// value.
type NumericOptions struct {
	// IntervalP is the interval width p of IntervalDisclosure, a fraction
	// of the protected attribute's standard deviation (0 = DefaultIntervalP).
	IntervalP float64
	// Workers run the record linkage in parallel (0 = runtime.GOMAXPROCS(0)).
	Workers int
}

// NumericReport is the disclosure risk (and IL1s) of a protected numerical
// data set. The fields are the measures of the package documentation.
type NumericReport struct {
	N, D       int
	Attributes []string
	// Constant lists the attributes constant in the original (standard
	// deviation 0): they play no part in the record linkage distances
	// and count 0 in IL1s (they must be unchanged, see IL1s).
	Constant []string
	// Linkage is the DBRL risk (RecordLinkage): the expected share of
	// protected records linked to their own original, in [0, 1].
	Linkage float64
	// LinkageTied counts the protected records with more than one nearest
	// original (ties within TieTol).
	LinkageTied int
	// Interval is the interval disclosure risk (IntervalDisclosure) with
	// width IntervalP: the share of records whose original values all lie
	// inside the intervals around the protected values, in [0, 1];
	// sdcMicro's dRisk from release 5.6.0 on.
	Interval float64
	// IntervalOneOutside is the share of records with at most one
	// original value outside its interval (IntervalDisclosureOneOutside):
	// sdcMicro's dRisk up to release 5.5.1. At least Interval.
	IntervalOneOutside float64
	IntervalP          float64
	// IL1s is the mean standardized absolute deviation (IL1s); sdcMicro's
	// dUtility(method = "IL1s") returns the sum, N·D·IL1s.
	IL1s    float64
	Seconds float64
}

// Numeric measures the disclosure risk of prot, the protected version of
// orig (the same records in the same order, the same attributes): record
// linkage, interval disclosure and IL1s. Errors wrap ErrShape, ErrTooFew
// (fewer than 2 records), ErrConstant or ErrParam.
func Numeric(orig, prot *model.Dataset, opt *NumericOptions) (*NumericReport, error) {
	start := time.Now()
	o := NumericOptions{}
	if opt != nil {
		o = *opt
	}
	if o.IntervalP == 0 {
		o.IntervalP = DefaultIntervalP
	}
	if err := checkPair(orig, prot, 2); err != nil {
		return nil, err
	}
	r := &NumericReport{N: orig.N, D: orig.D, Attributes: slices.Clone(orig.Names), IntervalP: o.IntervalP}
	_, std := model.Standardize(orig)
	for j, c := range std.Constant {
		if c {
			r.Constant = append(r.Constant, orig.Names[j])
		}
	}
	var err error
	if r.IL1s, err = IL1s(orig, prot); err != nil {
		return nil, err
	}
	if r.Interval, r.IntervalOneOutside, err = intervalDisclosure(orig, prot, o.IntervalP); err != nil {
		return nil, err
	}
	if r.Linkage, r.LinkageTied, err = recordLinkage(orig, prot, o.Workers); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// checkPair checks that orig and prot have the same shape and at least
// minN records.
func checkPair(orig, prot *model.Dataset, minN int) error {
	switch {
	case orig == nil || prot == nil:
		return fmt.Errorf("%w: nil data set", ErrShape)
	case orig.N != prot.N || orig.D != prot.D:
		return fmt.Errorf("%w: original %d x %d, protected %d x %d", ErrShape, orig.N, orig.D, prot.N, prot.D)
	case len(orig.X) != orig.N*orig.D || len(prot.X) != prot.N*prot.D:
		return fmt.Errorf("%w: %d and %d values for %d x %d", ErrShape, len(orig.X), len(prot.X), orig.N, orig.D)
	case orig.Names != nil && prot.Names != nil && !slices.Equal(orig.Names, prot.Names):
		return fmt.Errorf("%w: attributes %q and %q", ErrShape, orig.Names, prot.Names)
	case orig.N < minN:
		return fmt.Errorf("%w: %d record(s), the measure needs at least %d", ErrTooFew, orig.N, minN)
	}
	return nil
}

// column returns attribute j of ds as a slice.
func column(ds *model.Dataset, j int) []float64 {
	col := make([]float64, ds.N)
	for i := range col {
		col[i] = ds.X[i*ds.D+j]
	}
	return col
}

// attrName names attribute j of ds in messages.
func attrName(ds *model.Dataset, j int) string {
	if ds.Names != nil {
		return fmt.Sprintf("%q", ds.Names[j])
	}
	return fmt.Sprintf("%d", j+1)
}

// IL1s is the information loss measure of Yancey, Winkler & Creecy
// ("Disclosure risk assessment in perturbative microdata protection",
// LNCS 2316, 2002), as sdcMicro's dUtility computes it (R/dUtility.R):
//
//	IL1s = 1/(n·d) · Σ_i Σ_j |x_ij - x'_ij| / (sqrt(2)·s_j)
//
// with s_j the sample standard deviation (divisor n-1) of attribute j in
// the original. sdcMicro's current method "IL1s" returns the double sum
// without the 1/(n·d) (its former "IL1old" is this mean).
//
// A constant original attribute (s_j = 0) contributes 0 for every record
// whose protected value equals the original (as microaggregation leaves
// it; sdcMicro drops the 0/0 terms from the sum and keeps n·d as the
// divisor); a changed value makes IL1s undefined and the call fails with
// ErrConstant. Needs at least 2 records (ErrTooFew).
func IL1s(orig, prot *model.Dataset) (float64, error) {
	if err := checkPair(orig, prot, 2); err != nil {
		return 0, err
	}
	orig, prot = rescaled(orig, prot)
	n, d := orig.N, orig.D
	if d == 0 {
		return 0, nil
	}
	sum := 0.0
	for j := 0; j < d; j++ {
		s := stat.StdDev(column(orig, j), nil)
		for i := 0; i < n; i++ {
			e := math.Abs(orig.X[i*d+j] - prot.X[i*d+j])
			switch {
			case e == 0:
			case s == 0:
				return 0, fmt.Errorf("%w: attribute %s is constant in the original but record %d was changed: IL1s divides by its standard deviation 0", ErrConstant, attrName(orig, j), i+1)
			default:
				sum += e / (math.Sqrt2 * s)
			}
		}
	}
	return sum / float64(n*d), nil
}

// IntervalDisclosure is sdcMicro's dRisk as released since 5.6.0 (R/dRisk.R,
// function dRiskWORK, "rowSums(x < mi | x > ma) == 0"; Templ, Statistical
// Disclosure Control for Microdata, Springer 2017): around every protected
// value the interval
//
//	[x'_ij - p·s'_j, x'_ij + p·s'_j]
//
// is built, s'_j the sample standard deviation (divisor n-1) of attribute
// j in the PROTECTED data, and record i is at risk when every original
// value x_ij lies inside its interval (bounds included). The result is the
// share of records at risk. p is a fraction of the standard deviation,
// DefaultIntervalP = 0.05 as in sdcMicro. sdcMicro up to 5.5.1 counted a
// record at risk when at most one value lay outside: see
// IntervalDisclosureOneOutside.
//
// A protected attribute that is constant (s'_j = 0) has the single point
// x'_ij as interval: an original is inside only if it equals the protected
// value, as in sdcMicro. Needs at least 2 records (ErrTooFew); p must be
// finite and non-negative (ErrParam).
func IntervalDisclosure(orig, prot *model.Dataset, p float64) (float64, error) {
	all, _, err := intervalDisclosure(orig, prot, p)
	return all, err
}

// IntervalDisclosureOneOutside is sdcMicro's dRisk up to release 5.5.1
// (R/dRisk.R of cran/sdcMicro 5.5.1, "rowSums(x < mi | x > ma) %in%
// 0:1"): the intervals of IntervalDisclosure, with record i at risk when
// at most one of its original values lies outside its interval. It is at
// least IntervalDisclosure, and 1 for a single attribute. Same errors.
func IntervalDisclosureOneOutside(orig, prot *model.Dataset, p float64) (float64, error) {
	_, one, err := intervalDisclosure(orig, prot, p)
	return one, err
}

// intervalDisclosure returns the shares of records with no original value
// outside its interval and with at most one.
func intervalDisclosure(orig, prot *model.Dataset, p float64) (all, oneOutside float64, err error) {
	if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
		return 0, 0, fmt.Errorf("%w: interval width p = %v (want a finite p >= 0)", ErrParam, p)
	}
	if err := checkPair(orig, prot, 2); err != nil {
		return 0, 0, err
	}
	orig, prot = rescaled(orig, prot)
	n, d := orig.N, orig.D
	half := make([]float64, d)
	for j := range half {
		half[j] = p * stat.StdDev(column(prot, j), nil)
	}
	inside, oneOut := 0, 0
	for i := 0; i < n; i++ {
		x, xp := orig.Row(i), prot.Row(i)
		outside := 0
		for j := range x {
			if x[j] < xp[j]-half[j] || x[j] > xp[j]+half[j] {
				outside++
				if outside > 1 {
					break
				}
			}
		}
		if outside == 0 {
			inside++
		}
		if outside <= 1 {
			oneOut++
		}
	}
	return float64(inside) / float64(n), float64(oneOut) / float64(n), nil
}

// RecordLinkage is distance-based record linkage, DBRL (Domingo-Ferrer &
// Torra 2001, see the package documentation): every protected record is
// linked to its nearest original in Euclidean distance on the attributes
// standardized by the original's mean and standard deviation,
// z_j = (x_j - mean_j) / sd_j for originals and protected records alike.
// The result is the expected share of protected records linked to their
// own original: a record whose nearest originals tie (TieTol) counts
// 1/(number tied) when its own is among them, 0 otherwise. tied counts the
// records with a tie.
//
// Attributes constant in the original (sd 0) are left out of the
// distance: they add the same term to the distance from a protected record
// to every original, so they change no nearest original. When every
// attribute is constant all n originals tie for every record: the share
// is 1/n.
//
// The nearest originals come from a k-d tree with bounding boxes
// (nearTree), one query per distinct protected record (microaggregation
// publishes one centroid per group, so about n/k queries), its search
// bounded from the start by the distance to the own original. Needs at
// least 1 record.
func RecordLinkage(orig, prot *model.Dataset) (share float64, tied int, err error) {
	return recordLinkage(orig, prot, 0)
}

func recordLinkage(orig, prot *model.Dataset, workers int) (float64, int, error) {
	if err := checkPair(orig, prot, 1); err != nil {
		return 0, 0, err
	}
	orig, prot = rescaled(orig, prot)
	_, std := model.Standardize(orig)
	return linkage(orig, prot, std.Mean, std.SD, workers)
}

// RecordLinkageScaled is RecordLinkage with the standardization given:
// the distance is Euclidean on (x_j − mean[j]) / sd[j], attributes with
// sd[j] = 0 left out. It is DBRL of a subset of the records (a coarse part
// of a pipeline) standardized as the whole data is (RecordLinkage uses
// orig's own mean and standard deviation). The share counts only the
// originals of orig as candidates.
func RecordLinkageScaled(orig, prot *model.Dataset, mean, sd []float64) (share float64, tied int, err error) {
	if err := checkPair(orig, prot, 1); err != nil {
		return 0, 0, err
	}
	if len(mean) != orig.D || len(sd) != orig.D {
		return 0, 0, fmt.Errorf("%w: %d means and %d standard deviations for %d attributes", ErrShape, len(mean), len(sd), orig.D)
	}
	for j, v := range sd {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || math.IsNaN(mean[j]) || math.IsInf(mean[j], 0) {
			return 0, 0, fmt.Errorf("%w: attribute %s: mean %v, standard deviation %v", ErrParam, attrName(orig, j), mean[j], v)
		}
	}
	return linkage(orig, prot, mean, sd, 0)
}

// linkage is the record linkage of RecordLinkage on the standardization
// mean, sd (sd 0: attribute left out).
func linkage(orig, prot *model.Dataset, mean, sd []float64, workers int) (float64, int, error) {
	n := orig.N
	std := struct{ Mean, SD []float64 }{mean, sd}
	var active []int
	for j, v := range sd {
		if v != 0 {
			active = append(active, j)
		}
	}
	if len(active) == 0 {
		tied := 0
		if n > 1 {
			tied = n
		}
		return 1 / float64(n), tied, nil
	}
	dz := len(active)
	standardize := func(ds *model.Dataset, i int, z []float64) {
		row := ds.Row(i)
		for x, j := range active {
			z[x] = (row[j] - std.Mean[j]) / std.SD[j]
		}
	}
	buf := make([]float64, n*dz)
	for i := 0; i < n; i++ {
		standardize(orig, i, buf[i*dz:(i+1)*dz])
	}
	tree := newNearTree(dz, buf)

	// Distinct protected records (on the active attributes), each with
	// the records that carry it.
	type query struct {
		z       []float64
		members []int32
	}
	var queries []*query
	index := map[string]*query{}
	key := make([]byte, 8*dz)
	for i := 0; i < n; i++ {
		row := prot.Row(i)
		for x, j := range active {
			b := math.Float64bits(row[j])
			for s := 0; s < 8; s++ {
				key[8*x+s] = byte(b >> (8 * s))
			}
		}
		q := index[string(key)]
		if q == nil {
			q = &query{z: make([]float64, dz)}
			standardize(prot, i, q.z)
			index[string(key)] = q
			queries = append(queries, q)
		}
		q.members = append(q.members, int32(i))
	}

	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(queries))
	credit := make([]float64, workers)
	ties := make([]int, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var ids []int32
			for qi := w; qi < len(queries); qi += workers {
				q := queries[qi]
				// The nearest own original bounds the nearest distance.
				ub := math.Inf(1)
				for _, i := range q.members {
					ub = math.Min(ub, sqDist(q.z, buf[int(i)*dz:(int(i)+1)*dz]))
				}
				ids = tree.tied(q.z, ub, ids[:0])
				slices.Sort(ids)
				if len(ids) > 1 {
					ties[w] += len(q.members)
				}
				for _, i := range q.members {
					if _, ok := slices.BinarySearch(ids, i); ok {
						credit[w] += 1 / float64(len(ids))
					}
				}
			}
		}(w)
	}
	wg.Wait()
	total, tied := 0.0, 0
	for w := range credit {
		total += credit[w]
		tied += ties[w]
	}
	return total / float64(n), tied, nil
}

// sqDist is the squared Euclidean distance of a and b.
func sqDist(a, b []float64) float64 {
	s := 0.0
	for j, v := range a {
		e := v - b[j]
		s += e * e
	}
	return s
}

// rescaled returns orig and prot with every attribute whose largest
// magnitude (over both) lies outside [2^-400, 2^400] multiplied by the
// power of two that brings it into [1/2, 1): an exact change of units
// that every measure of this file is invariant to, so that squares and
// standard deviations neither overflow (1e200) nor vanish (1e-200).
// Ordinary data are returned as they are, unchanged bit for bit.
func rescaled(orig, prot *model.Dataset) (*model.Dataset, *model.Dataset) {
	d := orig.D
	var mul []float64
	for j := 0; j < d; j++ {
		m := 0.0
		for i := 0; i < orig.N; i++ {
			m = max(m, math.Abs(orig.X[i*d+j]), math.Abs(prot.X[i*d+j]))
		}
		if m == 0 {
			continue
		}
		_, e := math.Frexp(m)
		if e >= -400 && e <= 400 {
			continue
		}
		if mul == nil {
			mul = make([]float64, d)
			for k := range mul {
				mul[k] = 1
			}
		}
		mul[j] = math.Ldexp(1, -max(e, -1020))
	}
	if mul == nil {
		return orig, prot
	}
	scale := func(ds *model.Dataset) *model.Dataset {
		x := make([]float64, len(ds.X))
		for i := range x {
			x[i] = ds.X[i] * mul[i%d]
		}
		return &model.Dataset{Names: ds.Names, N: ds.N, D: ds.D, X: x}
	}
	return scale(orig), scale(prot)
}
