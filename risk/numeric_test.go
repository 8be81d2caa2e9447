package risk

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

const tol = 1e-12

func dataset(t *testing.T, d int, x ...float64) *model.Dataset {
	t.Helper()
	ds, err := model.NewDataset(nil, len(x)/d, d, x)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// protect replaces every record by its group's mean (microaggregation).
func protect(t *testing.T, ds *model.Dataset, groups ...[]int) *model.Dataset {
	t.Helper()
	c, err := model.NewClustering(ds.N, groups)
	if err != nil {
		t.Fatal(err)
	}
	return model.Protect(ds, c)
}

// The hand-computed example: x = 0, 1, 3, 4, 10, 12 in groups {0,1,3}
// and {4,10,12}, so x' = 4/3 (three times) and 26/3 (three times).
//
// DBRL (standardizing rescales a single attribute, so the nearest original
// is the nearest in x): from 4/3 the distances to 0, 1, 3, 4 are 4/3, 1/3,
// 5/3, 8/3: the nearest is 1, record 2's own. From 26/3 the distances to
// 4, 10, 12 are 14/3, 4/3, 10/3: the nearest is 10, record 5's own. Two
// of six records are linked: 1/3, no ties.
//
// Interval disclosure: x' has mean 5 and deviations ±11/3, so its sample
// variance is 6·(121/9)/5 = 242/15 and s' = 4.0166...; with p = 0.1 the
// half width is 0.40166: only record 2 (|1 - 4/3| = 1/3) is inside: 1/6.
// With p = 1 (half width 4.0166) every record but record 4 (|4 - 26/3| =
// 14/3) is inside: 5/6. With the default p = 0.05 (0.2008) none: 0.
//
// IL1s: x has mean 5 and squared deviations 25, 16, 4, 1, 25, 49 (sum
// 120), sample sd sqrt(24); the absolute deviations |x - x'| are 4/3, 1/3,
// 5/3, 14/3, 4/3, 10/3 (sum 38/3), so IL1s = (38/3) / (sqrt(2)·sqrt(24)) / 6
// = 19 / (36·sqrt(3)) = 0.30470...
func TestNumericHand(t *testing.T) {
	orig := dataset(t, 1, 0, 1, 3, 4, 10, 12)
	prot := protect(t, orig, []int{0, 1, 2}, []int{3, 4, 5})
	share, tied, err := RecordLinkage(orig, prot)
	if err != nil || math.Abs(share-1.0/3) > tol || tied != 0 {
		t.Errorf("RecordLinkage = %v, %d, %v; want 1/3, 0", share, tied, err)
	}
	for _, c := range []struct{ p, want float64 }{{0.1, 1.0 / 6}, {1, 5.0 / 6}, {DefaultIntervalP, 0}} {
		if got, err := IntervalDisclosure(orig, prot, c.p); err != nil || math.Abs(got-c.want) > tol {
			t.Errorf("IntervalDisclosure(p = %g) = %v, %v; want %v", c.p, got, err, c.want)
		}
	}
	want := 19 / (36 * math.Sqrt(3))
	if got, err := IL1s(orig, prot); err != nil || math.Abs(got-want) > tol {
		t.Errorf("IL1s = %v, %v; want %v", got, err, want)
	}
	r, err := Numeric(orig, prot, &NumericOptions{IntervalP: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Linkage-1.0/3) > tol || math.Abs(r.Interval-1.0/6) > tol || math.Abs(r.IL1s-want) > tol || r.IntervalP != 0.1 || len(r.Constant) != 0 {
		t.Errorf("Numeric = %+v", r)
	}
}

// A constant attribute (7 in every record) beside the example above
// changes no nearest original and no interval (its protected value equals
// the original, the interval is that point), and halves IL1s (its terms
// are 0 and the mean is over 2·6 terms).
func TestNumericConstantColumn(t *testing.T) {
	orig := dataset(t, 2, 0, 7, 1, 7, 3, 7, 4, 7, 10, 7, 12, 7)
	prot := protect(t, orig, []int{0, 1, 2}, []int{3, 4, 5})
	r, err := Numeric(orig, prot, &NumericOptions{IntervalP: 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Linkage-1.0/3) > tol || math.Abs(r.Interval-5.0/6) > tol || math.Abs(r.IL1s-19/(72*math.Sqrt(3))) > tol {
		t.Errorf("Numeric = %+v, want linkage 1/3, interval 5/6, IL1s %v", r, 19/(72*math.Sqrt(3)))
	}
	if len(r.Constant) != 1 || r.Constant[0] != "v2" {
		t.Errorf("Constant = %q, want [v2]", r.Constant)
	}
	// A constant attribute changed by the protection: IL1s is undefined.
	prot.X[1] = 8
	if _, err := IL1s(orig, prot); !errors.Is(err, ErrConstant) {
		t.Errorf("IL1s with a changed constant attribute: %v, want ErrConstant", err)
	}
	// Every attribute constant: all originals tie for every record.
	c := dataset(t, 1, 5, 5, 5, 5)
	if share, tied, err := RecordLinkage(c, c); err != nil || math.Abs(share-0.25) > tol || tied != 4 {
		t.Errorf("RecordLinkage of a constant attribute = %v, %d, %v; want 1/4, 4", share, tied, err)
	}
	// A protected attribute that is constant although the original is not
	// (one group): the interval is the point x', only equal originals are
	// inside. x = 1, 2, 3, x' = 2: record 2.
	o := dataset(t, 1, 1, 2, 3)
	p := protect(t, o, []int{0, 1, 2})
	if got, err := IntervalDisclosure(o, p, DefaultIntervalP); err != nil || math.Abs(got-1.0/3) > tol {
		t.Errorf("IntervalDisclosure with a constant protected attribute = %v, %v; want 1/3", got, err)
	}
}

// Ties. x = 0, 0, 6, 10, 11, 12 in groups {0,0,6} -> 2 and {10,11,12} ->
// 11: from 2 the two zeros tie (distance 2, the 6 is at 4), so records 1
// and 2 count 1/2 each and record 3 nothing; from 11 the nearest is 11,
// record 5's own. Share (1/2 + 1/2 + 1)/6 = 1/3; the three records of the
// first group have a tie.
//
// x = 0, 2, 10, 13 in pairs {0,2} -> 1 and {10,13} -> 11.5: every
// centroid is equally far from both members (a tie in exact arithmetic
// that rounding may split without TieTol): share 4·(1/2)/4 = 1/2, four
// ties.
func TestRecordLinkageTies(t *testing.T) {
	orig := dataset(t, 1, 0, 0, 6, 10, 11, 12)
	prot := protect(t, orig, []int{0, 1, 2}, []int{3, 4, 5})
	if share, tied, err := RecordLinkage(orig, prot); err != nil || math.Abs(share-1.0/3) > tol || tied != 3 {
		t.Errorf("RecordLinkage with duplicates = %v, %d, %v; want 1/3, 3", share, tied, err)
	}
	orig = dataset(t, 1, 0, 2, 10, 13)
	prot = protect(t, orig, []int{0, 1}, []int{2, 3})
	if share, tied, err := RecordLinkage(orig, prot); err != nil || math.Abs(share-0.5) > tol || tied != 4 {
		t.Errorf("RecordLinkage of pairs = %v, %d, %v; want 1/2, 4", share, tied, err)
	}
}

func TestNumericErrors(t *testing.T) {
	a := dataset(t, 1, 1, 2, 3)
	b := dataset(t, 1, 1, 2)
	if _, err := Numeric(a, b, nil); !errors.Is(err, ErrShape) {
		t.Errorf("different sizes: %v, want ErrShape", err)
	}
	one := dataset(t, 1, 1)
	if _, err := Numeric(one, one, nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("one record: %v, want ErrTooFew", err)
	}
	if _, err := IntervalDisclosure(a, a, -1); !errors.Is(err, ErrParam) {
		t.Errorf("p = -1: %v, want ErrParam", err)
	}
	if _, err := IntervalDisclosure(a, a, math.NaN()); !errors.Is(err, ErrParam) {
		t.Errorf("p = NaN: %v, want ErrParam", err)
	}
	c := dataset(t, 2, 1, 2, 3, 4, 5, 6)
	c.Names[1] = "other"
	d := dataset(t, 2, 1, 2, 3, 4, 5, 6)
	if _, err := Numeric(c, d, nil); !errors.Is(err, ErrShape) {
		t.Errorf("different names: %v, want ErrShape", err)
	}
}

// bruteLinkage is DBRL by comparing every protected record with every
// original, standardizing with a population mean and sd computed here.
func bruteLinkage(orig, prot *model.Dataset) (float64, int) {
	n, d := orig.N, orig.D
	mean, sd := make([]float64, d), make([]float64, d)
	for j := 0; j < d; j++ {
		for i := 0; i < n; i++ {
			mean[j] += orig.X[i*d+j]
		}
		mean[j] /= float64(n)
		for i := 0; i < n; i++ {
			e := orig.X[i*d+j] - mean[j]
			sd[j] += e * e
		}
		sd[j] = math.Sqrt(sd[j] / float64(n))
	}
	dist := func(i, q int) float64 {
		s := 0.0
		for j := 0; j < d; j++ {
			if sd[j] == 0 {
				continue
			}
			e := (orig.X[i*d+j]-mean[j])/sd[j] - (prot.X[q*d+j]-mean[j])/sd[j]
			s += e * e
		}
		return s
	}
	share, tied := 0.0, 0
	for q := 0; q < n; q++ {
		dmin := math.Inf(1)
		for i := 0; i < n; i++ {
			dmin = math.Min(dmin, dist(i, q))
		}
		var near []int
		for i := 0; i < n; i++ {
			if dist(i, q) <= dmin+TieTol*(1+dmin) {
				near = append(near, i)
			}
		}
		if len(near) > 1 {
			tied++
		}
		for _, i := range near {
			if i == q {
				share += 1 / float64(len(near))
			}
		}
	}
	return share / float64(n), tied
}

// bruteInterval and bruteIL1s recompute the two measures from their
// definitions, with sample standard deviations computed here.
func sampleSD(ds *model.Dataset, j int) float64 {
	n, d := ds.N, ds.D
	m := 0.0
	for i := 0; i < n; i++ {
		m += ds.X[i*d+j]
	}
	m /= float64(n)
	s := 0.0
	for i := 0; i < n; i++ {
		e := ds.X[i*d+j] - m
		s += e * e
	}
	return math.Sqrt(s / float64(n-1))
}

func bruteInterval(orig, prot *model.Dataset, p float64) float64 {
	at := 0
	for i := 0; i < orig.N; i++ {
		in := true
		for j := 0; j < orig.D; j++ {
			s := sampleSD(prot, j)
			x, y := orig.X[i*orig.D+j], prot.X[i*orig.D+j]
			in = in && x >= y-p*s && x <= y+p*s
		}
		if in {
			at++
		}
	}
	return float64(at) / float64(orig.N)
}

func bruteIL1s(orig, prot *model.Dataset) float64 {
	s := 0.0
	for j := 0; j < orig.D; j++ {
		sd := sampleSD(orig, j)
		for i := 0; i < orig.N; i++ {
			if e := math.Abs(orig.X[i*orig.D+j] - prot.X[i*orig.D+j]); e > 0 {
				s += e / (math.Sqrt2 * sd)
			}
		}
	}
	return s / float64(orig.N*orig.D)
}

// Random small data sets with small integer values (duplicates and ties
// are frequent) and random groups of 2..4 records: every measure equals
// its brute-force recomputation.
func TestNumericBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n, d := 4+rng.IntN(40), 1+rng.IntN(4)
		x := make([]float64, n*d)
		for v := range x {
			x[v] = float64(rng.IntN(6))
		}
		if trial%10 == 0 { // a constant attribute
			for i := 0; i < n; i++ {
				x[i*d] = 3
			}
		}
		orig := dataset(t, d, x...)
		perm := rng.Perm(n)
		var groups [][]int
		for s := 0; s < n; {
			size := 2 + rng.IntN(3)
			if n-s-size < 2 {
				size = n - s
			}
			groups = append(groups, perm[s:s+size])
			s += size
		}
		prot := protect(t, orig, groups...)
		r, err := Numeric(orig, prot, &NumericOptions{IntervalP: 0.5, Workers: 1 + trial%3})
		if err != nil {
			t.Fatal(err)
		}
		share, tied := bruteLinkage(orig, prot)
		if math.Abs(r.Linkage-share) > 1e-9 || r.LinkageTied != tied {
			t.Fatalf("trial %d: linkage %v (%d tied), brute force %v (%d tied)", trial, r.Linkage, r.LinkageTied, share, tied)
		}
		if want := bruteInterval(orig, prot, 0.5); math.Abs(r.Interval-want) > 1e-12 {
			t.Fatalf("trial %d: interval %v, brute force %v", trial, r.Interval, want)
		}
		if want := bruteIL1s(orig, prot); math.Abs(r.IL1s-want) > 1e-9*(1+want) {
			t.Fatalf("trial %d: IL1s %v, brute force %v", trial, r.IL1s, want)
		}
	}
}

// TestIntervalDisclosureOneOutside: sdcMicro up to 5.5.1 counted a record
// as disclosed when at most one attribute lies outside its interval
// (R/dRisk.R of cran/sdcMicro 5.5.1: rowSums(x < mi | x > ma) %in% 0:1);
// from 5.6.0 (sdcTools/sdcMicro commit c2022f6, "wrong calculation in
// numrisk fixed") on, only when none does (== 0), which IntervalDisclosure
// computes. Both are reported (issue 44, item 14: a user of the older
// release knows the first number). Hand example: both protected
// attributes are 0, 0, 2, 2 (sample sd sqrt(4/3)), and p = sqrt(3)/4 makes
// the half width p·sd = 1/2. The originals lie
//
//	record 0: (0.2, 0.3)  offsets 0.2, 0.3: both inside
//	record 1: (0.9, 0.1)  offsets 0.9, 0.1: a outside
//	record 2: (2.6, 1.2)  offsets 0.6, 0.8: both outside
//	record 3: (2.1, 1.4)  offsets 0.1, 0.6: b outside
//
// so every attribute inside: 1 of 4; at most one outside: 3 of 4. With
// one attribute, at most one outside holds for every record: 1.
func TestIntervalDisclosureOneOutside(t *testing.T) {
	orig := dataset(t, 2, 0.2, 0.3, 0.9, 0.1, 2.6, 1.2, 2.1, 1.4)
	prot := dataset(t, 2, 0, 0, 0, 0, 2, 2, 2, 2)
	p := math.Sqrt(3) / 4
	if got, err := IntervalDisclosure(orig, prot, p); err != nil || math.Abs(got-0.25) > tol {
		t.Errorf("IntervalDisclosure = %v, %v; want 1/4", got, err)
	}
	if got, err := IntervalDisclosureOneOutside(orig, prot, p); err != nil || math.Abs(got-0.75) > tol {
		t.Errorf("IntervalDisclosureOneOutside = %v, %v; want 3/4", got, err)
	}
	r, err := Numeric(orig, prot, &NumericOptions{IntervalP: p})
	if err != nil || math.Abs(r.Interval-0.25) > tol || math.Abs(r.IntervalOneOutside-0.75) > tol {
		t.Errorf("Numeric: %+v, %v; want Interval 1/4, IntervalOneOutside 3/4", r, err)
	}
	one := dataset(t, 1, 0, 5, 9)
	if got, err := IntervalDisclosureOneOutside(one, dataset(t, 1, 1, 1, 12), DefaultIntervalP); err != nil || got != 1 {
		t.Errorf("one attribute: %v, %v; want 1", got, err)
	}
	if _, err := IntervalDisclosureOneOutside(orig, prot, -1); !errors.Is(err, ErrParam) {
		t.Errorf("p = -1: %v", err)
	}
}
