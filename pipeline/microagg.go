package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// MicroaggConfig configures Microagg.
type MicroaggConfig struct {
	K      int
	Coarse int // records per coarse part, at most (0 = DefaultCoarse)
	Seed   uint64
	// ICSM polishes MDAV's groups of every part by ICSM local search
	// (microagg.ICSM from MDAV, no restarts: deterministic), at most
	// ICSMRounds improving rounds per part (0 = until no move improves).
	ICSM       bool
	ICSMRounds int
	// IntervalP is the width of interval disclosure (0 =
	// risk.DefaultIntervalP).
	IntervalP float64
	// Raw and Digits make IL1s, interval disclosure and DBRL those of
	// the published file. Raw is z in original units (the data z
	// standardizes: the same records and attributes in the same order)
	// and Digits the decimals of each attribute in the published file
	// (as datasets.Table.Digits; -1: full precision). With Digits set,
	// each part's centroids are computed from Raw and rounded by
	// datasets.Rounded, as the file is written, and compared with Raw;
	// SSE, SST and IL stay those of z's unrounded centroids, as sdcopt
	// microagg reports them. With Digits nil, Raw is ignored and the
	// measures compare z with its unrounded centroids (the same measures
	// of unrounded centroids in any units: they are scale-free).
	Raw    *model.Dataset
	Digits []int
	Runner Runner
}

// MicroaggResult is the outcome of Microagg.
type MicroaggResult struct {
	Clustering *model.Clustering // global record indices; groups numbered by part, then within the part
	Parts      [][]int           // the coarse parts (record indices, ascending), by key
	SSE        float64           // Σ parts SSE_p (model.SSE), combined in the pipeline
	SST        float64           // model.SST of the whole data, from the combined moments
	IL         float64           // 100 · SSE / SST (model.IL)
	// IL1s is risk.IL1s of the protected data: Σ_j (Σ_i |x_ij − x'_ij|)
	// / (√2·s_j) / (n·d), the absolute deviations summed over the parts
	// and s_j the sample standard deviation of the whole data, from the
	// combined moments: exact up to rounding.
	IL1s float64
	// Interval is risk.IntervalDisclosure (width IntervalP): the
	// intervals need the protected data's standard deviation, combined
	// over the parts first; the records are then counted in a second
	// pipeline stage: exact up to rounding. IntervalOneOutside is
	// risk.IntervalDisclosureOneOutside (sdcMicro's dRisk before 5.6.0),
	// counted in the same stage.
	Interval           float64
	IntervalOneOutside float64
	IntervalP          float64
	// Linkage is DBRL (risk.RecordLinkage) with each protected record's
	// nearest originals searched in its own coarse part only, on the
	// whole data's standardization (risk.RecordLinkageScaled), summed
	// over the parts: an upper bound of the whole data's DBRL (a nearer
	// original in another part can only take a link away), equal to it
	// with one part. LinkageTied counts records with tied nearest
	// originals within their part.
	Linkage     float64
	LinkageTied int
	Seconds     float64
}

// microPart is the result of one coarse part, written by a worker.
type microPart struct {
	Key   int
	Index []int64 // the part's records, ascending
	Group []int32 // MDAV's group of each (local numbering)
	SSE   float64
}

// Moments are the combined statistics of a microaggregation run: the
// records, the per-attribute sums and sums of squares (for SST; for the
// standard deviations of the whole data in a record batch's moments),
// the within-group SSE, and the per-part sums of the measures that add
// over parts, on the values measured (MicroaggConfig.Digits: the
// published values in original units, or z): the original's sums and sums
// of squares (IL1s' standard deviations), the absolute deviations
// (IL1s), the protected data's sums and sums of squares (its standard
// deviation: rounded centroids need not keep the sums) and the expected
// linked records of the part-local DBRL.
type Moments struct {
	N         int
	Parts     int
	Groups    int
	Sum       []float64
	SumSq     []float64
	SSE       float64
	OrigSum   []float64
	OrigSumSq []float64
	AbsDev    []float64
	ProtSum   []float64
	ProtSumSq []float64
	Linked    float64
	Tied      int
}

func init() {
	beam.RegisterType(reflect.TypeOf((*microFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Moments)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*writeMomentsFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*intervalFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*IntervalCounts)(nil)).Elem())
	beam.RegisterFunction(mergeMoments)
	beam.RegisterFunction(recMoments)
	beam.RegisterFunction(addCounts)
}

// recMoments is the moments of a batch of original records.
func recMoments(r Rec) Moments {
	d := r.d()
	m := Moments{N: len(r.I), Sum: make([]float64, d), SumSq: make([]float64, d)}
	for x := range r.I {
		for j, v := range r.X[x*d : (x+1)*d] {
			m.Sum[j] += v
			m.SumSq[j] += v * v
		}
	}
	return m
}

// IntervalCounts are the records at risk of interval disclosure: with
// every original value inside its interval, and with at most one outside.
type IntervalCounts struct {
	Inside, OneOutside int
}

func addCounts(a, b IntervalCounts) IntervalCounts {
	return IntervalCounts{Inside: a.Inside + b.Inside, OneOutside: a.OneOutside + b.OneOutside}
}

// stats returns the means and the sample standard deviations of the
// moments' sums and sums of squares.
func (m *Moments) stats() (mean, sd []float64) {
	return momentStats(m.N, m.Sum, m.SumSq)
}

// momentStats returns the means and the sample standard deviations
// (divisor n − 1; 0 for n = 1 and for a negative rounding residue) of n
// records with per-attribute sums and sums of squares.
func momentStats(n int, sum, sumSq []float64) (mean, sd []float64) {
	nf := float64(n)
	mean, sd = make([]float64, len(sum)), make([]float64, len(sum))
	for j, s := range sum {
		mean[j] = s / nf
		if n > 1 {
			sd[j] = math.Sqrt(max(0, (sumSq[j]-s*s/nf)/(nf-1)))
		}
	}
	return mean, sd
}

// microFn microaggregates one coarse part (microSolve), writes its groups
// to Dir and emits its moments and, for interval disclosure, the pairs
// of original and protected records (Rec, X = x_1..x_d, x'_1..x'_d, the
// values measured). With Digits each staged record holds its z values
// and then its values in original units.
type microFn struct {
	Names      []string
	K          int
	ICSM       bool
	ICSMRounds int
	Digits     []int
	Dir        string
}

func (f *microFn) ProcessElement(ctx context.Context, key int, it func(*Rec) bool, orig func(*Moments) bool, emit func(Moments), pairs func(Rec)) error {
	var om Moments
	if !orig(&om) {
		return fmt.Errorf("pipeline: coarse part %d: no moments of the data", key)
	}
	w := len(f.Names)
	if f.Digits != nil {
		w *= 2
	}
	pt := partTable(make([]model.QIAttr, w), it) // only the shape is used
	out, m, pr, err := microSolve(f.Names, pt.T.X, pt.Idx, key, f.K, f.ICSM, f.ICSMRounds, &om, f.Digits)
	if err != nil {
		return err
	}
	if err := writeGob(ctx, joinPath(f.Dir, fmt.Sprintf("micro-part-%06d.gob", key)), out); err != nil {
		return fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	for _, r := range pr {
		pairs(r)
	}
	emit(m)
	return nil
}

// microSolve microaggregates coarse part key (records idx, values x) by
// MDAV (polished by ICSM when icsm) and computes its share of the
// measures with the whole data's moments om; it returns the pairs of
// original and protected records in batches. Without digits x holds the
// z values of each record (d = len(names)) and the measures compare them
// with their centroids; with digits, each record's d z values then its d
// values in original units, and the measures compare those with their
// group's centroid in original units rounded to digits[j] decimals
// (datasets.Rounded, as the published file is written). SSE is z's, of
// the unrounded centroids, either way.
func microSolve(names []string, x []float64, idx []int64, key, k int, icsm bool, rounds int, om *Moments, digits []int) (*microPart, Moments, []Rec, error) {
	d, n := len(names), len(idx)
	if n < k {
		return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d has %d records, fewer than k = %d (use larger coarse parts)", key, n, k)
	}
	zx, rx := x, []float64(nil)
	if digits != nil {
		if len(digits) != d || len(x) != 2*n*d || len(om.Sum) != 2*d {
			return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d: %d values and %d digits for %d records of %d attributes in two units", key, len(x), len(digits), n, d)
		}
		zx, rx = make([]float64, 0, n*d), make([]float64, 0, n*d)
		for i := range n {
			zx = append(zx, x[2*i*d:(2*i+1)*d]...)
			rx = append(rx, x[(2*i+1)*d:(2*i+2)*d]...)
		}
	}
	z, err := model.NewDataset(names, n, d, zx)
	if err != nil {
		return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	var cl *model.Clustering
	if icsm {
		var r *microagg.ICSMResult
		if r, err = microagg.ICSM(z, k, microagg.ICSMOptions{MaxIterations: rounds}); err == nil {
			cl = r.Clustering
		}
	} else {
		cl, err = microagg.MDAV(z, k)
	}
	if err != nil {
		return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d (%d records): %w", key, n, err)
	}
	if _, err := cl.CheckK(n, k); err != nil {
		return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	// The values measured: orig against prot.
	orig, prot := z, model.Protect(z, cl)
	mean, sd := om.stats()
	if digits != nil {
		if orig, err = model.NewDataset(names, n, d, rx); err != nil {
			return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
		}
		prot = model.Protect(orig, cl)
		for i, v := range prot.X {
			prot.X[i] = datasets.Rounded(v, digits[i%d])
		}
		mean, sd = mean[d:], sd[d:]
	}
	m := Moments{N: n, Parts: 1, Groups: cl.NumGroups, Sum: make([]float64, d), SumSq: make([]float64, d), SSE: model.SSE(z, cl),
		OrigSum: make([]float64, d), OrigSumSq: make([]float64, d), AbsDev: make([]float64, d),
		ProtSum: make([]float64, d), ProtSumSq: make([]float64, d)}
	var pairs []Rec
	for i := range n {
		if i%StageBatch == 0 {
			pairs = append(pairs, Rec{})
		}
		b := &pairs[len(pairs)-1]
		row, prow := orig.X[i*d:(i+1)*d], prot.X[i*d:(i+1)*d]
		b.I = append(b.I, idx[i])
		b.X = append(append(b.X, row...), prow...)
		for j, v := range z.X[i*d : (i+1)*d] {
			m.Sum[j] += v
			m.SumSq[j] += v * v
		}
		for j, v := range row {
			m.OrigSum[j] += v
			m.OrigSumSq[j] += v * v
			m.AbsDev[j] += math.Abs(v - prow[j])
			m.ProtSum[j] += prow[j]
			m.ProtSumSq[j] += prow[j] * prow[j]
		}
	}
	share, tied, err := risk.RecordLinkageScaled(orig, prot, mean, sd)
	if err != nil {
		return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	m.Linked, m.Tied = share*float64(n), tied
	out := &microPart{Key: key, Index: idx, Group: make([]int32, n), SSE: m.SSE}
	for i, g := range cl.Group {
		out.Group[i] = int32(g)
	}
	return out, m, pairs, nil
}

// intervalFn counts the records of a batch of pairs at risk of interval
// disclosure (as risk.IntervalDisclosure: every original value inside
// [x' − p·s'_j, x' + p·s'_j], s'_j the protected data's sample standard
// deviation from the combined moments; and as
// risk.IntervalDisclosureOneOutside: at most one outside).
type intervalFn struct {
	P    float64
	half []float64
}

func (f *intervalFn) ProcessElement(r Rec, moments func(*Moments) bool, emit func(IntervalCounts)) error {
	if f.half == nil {
		var m Moments
		if !moments(&m) {
			return fmt.Errorf("pipeline: interval disclosure: no combined moments")
		}
		f.half = intervalHalf(&m, f.P)
	}
	emit(intervalCount(r, f.half))
	return nil
}

// intervalHalf is the half-width p·s'_j of the intervals.
func intervalHalf(m *Moments, p float64) []float64 {
	_, psd := momentStats(m.N, m.ProtSum, m.ProtSumSq)
	for j := range psd {
		psd[j] *= p
	}
	return psd
}

// intervalCount counts the pairs of r with no original value outside its
// interval and with at most one.
func intervalCount(r Rec, half []float64) IntervalCounts {
	d := len(half)
	var c IntervalCounts
	for x := range r.I {
		row := r.X[x*2*d : (x+1)*2*d]
		outside := 0
		for j := range d {
			if row[j] < row[d+j]-half[j] || row[j] > row[d+j]+half[j] {
				if outside++; outside > 1 {
					break
				}
			}
		}
		if outside == 0 {
			c.Inside++
		}
		if outside <= 1 {
			c.OneOutside++
		}
	}
	return c
}

func mergeMoments(a, b Moments) Moments {
	if a.Sum == nil {
		return b
	}
	if b.Sum == nil {
		return a
	}
	m := Moments{N: a.N + b.N, Parts: a.Parts + b.Parts, Groups: a.Groups + b.Groups, SSE: a.SSE + b.SSE,
		Sum: addVec(a.Sum, b.Sum), SumSq: addVec(a.SumSq, b.SumSq),
		OrigSum: addVec(a.OrigSum, b.OrigSum), OrigSumSq: addVec(a.OrigSumSq, b.OrigSumSq), AbsDev: addVec(a.AbsDev, b.AbsDev),
		ProtSum: addVec(a.ProtSum, b.ProtSum), ProtSumSq: addVec(a.ProtSumSq, b.ProtSumSq), Linked: a.Linked + b.Linked, Tied: a.Tied + b.Tied}
	return m
}

// addVec is a + b (nil when both are nil).
func addVec(a, b []float64) []float64 {
	if a == nil {
		return slices.Clone(b)
	}
	o := slices.Clone(a)
	for j := range b {
		o[j] += b[j]
	}
	return o
}

type writeMomentsFn struct{ Dir string }

func (f *writeMomentsFn) ProcessElement(ctx context.Context, m Moments) error {
	return writeGob(ctx, joinPath(f.Dir, "micro-moments.gob"), &m)
}

type writeCountFn struct{ Dir string }

func (f *writeCountFn) ProcessElement(ctx context.Context, c IntervalCounts) error {
	return writeGob(ctx, joinPath(f.Dir, "micro-interval.gob"), &c)
}

func init() { beam.RegisterType(reflect.TypeOf((*writeCountFn)(nil)).Elem()) }

// Microagg microaggregates z (standardize it first, as sdcopt microagg
// does) with MDAV on a Beam pipeline: coarse parts of at most about
// cfg.Coarse records by Mondrian's median rule on a seeded sample
// (BuildTree, every attribute numeric with z's range), MDAV on each part in
// a ParDo (records in ascending index order: exactly microagg.MDAV on that
// part; polished by ICSM with cfg.ICSM), and the measures combined over
// the parts (Combine): SSE and the moments for SST (SST = Σ_j Σ_i x_ij² −
// (Σ_i x_ij)²/n), IL1s, interval disclosure (a second stage, with the
// protected standard deviations as a side input) and DBRL within the
// parts (see MicroaggResult for what each is exactly), of the published
// values with cfg.Digits. The clustering is assembled with global
// indices.
func Microagg(ctx context.Context, z *model.Dataset, cfg MicroaggConfig) (*MicroaggResult, error) {
	start := time.Now()
	attrs, err := checkMicroagg(z, &cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Runner.Name == RunnerSingle {
		return MicroaggLocal(z, cfg)
	}
	aj, err := attrsJSON(attrs)
	if err != nil {
		return nil, err
	}
	dir, cleanup, err := cfg.Runner.workDir(ctx)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	x, w := stagedRows(z, &cfg)
	input, err := stage(ctx, dir, x, z.N, w)
	if err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	recs := readStaged(s, input)
	orig := beam.Combine(s.Scope("data-moments"), mergeMoments, beam.ParDo(s, recMoments, recs))
	keyed := coarseSplit(s, recs, aj, z.D, z.N, cfg.Coarse, cfg.Seed)
	moments, pairs := beam.ParDo2(s.Scope("microaggregate"),
		&microFn{Names: z.Names, K: cfg.K, ICSM: cfg.ICSM, ICSMRounds: cfg.ICSMRounds, Digits: cfg.Digits, Dir: dir},
		beam.GroupByKey(s, keyed), beam.SideInput{Input: orig})
	total := beam.Combine(s, mergeMoments, moments)
	beam.ParDo0(s.Scope("moments"), &writeMomentsFn{Dir: dir}, total)
	counts := beam.ParDo(s.Scope("interval"), &intervalFn{P: cfg.IntervalP}, pairs, beam.SideInput{Input: total})
	beam.ParDo0(s.Scope("interval-count"), &writeCountFn{Dir: dir}, beam.Combine(s, addCounts, counts))
	if err := cfg.Runner.execute(ctx, p, dir); err != nil {
		return nil, err
	}
	parts, err := readGobs[microPart](ctx, dir, "micro-part-*.gob")
	if err != nil {
		return nil, fmt.Errorf("pipeline: reading the parts: %w", err)
	}
	ms, err := readGobs[Moments](ctx, dir, "micro-moments.gob")
	if err != nil || len(ms) != 1 {
		return nil, fmt.Errorf("pipeline: reading the moments: %v (%d files)", err, len(ms))
	}
	cs, err := readGobs[IntervalCounts](ctx, dir, "micro-interval.gob")
	if err != nil || len(cs) != 1 {
		return nil, fmt.Errorf("pipeline: reading the interval disclosure count: %v (%d files)", err, len(cs))
	}
	res, err := assembleMicro(z.N, parts, *ms[0], *cs[0], cfg.IntervalP)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// stagedRows returns the rows staged for z: z's own, or with cfg.Digits
// each record's z values followed by its values in original units
// (cfg.Raw), and the values per record.
func stagedRows(z *model.Dataset, cfg *MicroaggConfig) ([]float64, int) {
	if cfg.Digits == nil {
		return z.X, z.D
	}
	d := z.D
	x := make([]float64, 0, 2*len(z.X))
	for i := range z.N {
		x = append(append(x, z.X[i*d:(i+1)*d]...), cfg.Raw.X[i*d:(i+1)*d]...)
	}
	return x, 2 * d
}

// assembleMicro builds the global result of the parts (see Microagg).
func assembleMicro(n int, parts []*microPart, m Moments, atRisk IntervalCounts, p float64) (*MicroaggResult, error) {
	if m.N != n || m.Parts != len(parts) {
		return nil, fmt.Errorf("pipeline: internal error: the parts hold %d records in %d parts (%d files), want %d records", m.N, m.Parts, len(parts), n)
	}
	slices.SortFunc(parts, func(a, b *microPart) int { return a.Key - b.Key })
	res := &MicroaggResult{Clustering: &model.Clustering{Group: make([]int, n), NumGroups: m.Groups}, SSE: m.SSE}
	for i := range res.Clustering.Group {
		res.Clustering.Group[i] = -1
	}
	base := 0
	for _, pt := range parts {
		ids := make([]int, len(pt.Index))
		ng := 0
		for x, i := range pt.Index {
			if i < 0 || int(i) >= n || res.Clustering.Group[i] >= 0 {
				return nil, fmt.Errorf("pipeline: internal error: record %d in two parts or out of range", i)
			}
			ids[x] = int(i)
			res.Clustering.Group[i] = base + int(pt.Group[x])
			ng = max(ng, int(pt.Group[x])+1)
		}
		base += ng
		res.Parts = append(res.Parts, ids)
	}
	if base != m.Groups {
		return nil, fmt.Errorf("pipeline: internal error: %d groups in the parts, %d combined", base, m.Groups)
	}
	for j := range m.Sum {
		res.SST += m.SumSq[j] - m.Sum[j]*m.Sum[j]/float64(m.N)
	}
	if res.SST > 0 {
		res.IL = 100 * res.SSE / res.SST
	}
	_, sd := momentStats(m.N, m.OrigSum, m.OrigSumSq)
	for j, a := range m.AbsDev {
		if a != 0 && sd[j] > 0 {
			res.IL1s += a / (math.Sqrt2 * sd[j])
		}
	}
	res.IL1s /= float64(n * len(m.AbsDev))
	res.Interval, res.IntervalOneOutside, res.IntervalP = float64(atRisk.Inside)/float64(n), float64(atRisk.OneOutside)/float64(n), p
	res.Linkage, res.LinkageTied = m.Linked/float64(n), m.Tied
	return res, nil
}

// checkMicroagg validates the input of Microagg, fills in the defaults and
// returns the attributes of the split tree.
func checkMicroagg(z *model.Dataset, c *MicroaggConfig) ([]model.QIAttr, error) {
	cfg := *c
	if z == nil || z.N == 0 || z.D == 0 {
		return nil, errors.New("pipeline: empty data set")
	}
	if cfg.K < 2 || cfg.K > z.N {
		return nil, fmt.Errorf("pipeline: k = %d for %d records (want 2 <= k <= n)", cfg.K, z.N)
	}
	if cfg.Coarse == 0 {
		cfg.Coarse = DefaultCoarse
	}
	if cfg.IntervalP == 0 {
		cfg.IntervalP = risk.DefaultIntervalP
	}
	if math.IsNaN(cfg.IntervalP) || math.IsInf(cfg.IntervalP, 0) || cfg.IntervalP < 0 {
		return nil, fmt.Errorf("pipeline: interval width p = %v (want a finite p >= 0)", cfg.IntervalP)
	}
	if cfg.ICSMRounds < 0 {
		return nil, fmt.Errorf("pipeline: ICSM rounds %d (want >= 0)", cfg.ICSMRounds)
	}
	if cfg.Digits != nil {
		r := cfg.Raw
		if r == nil || r.N != z.N || r.D != z.D || len(r.X) != z.N*z.D || len(cfg.Digits) != z.D {
			return nil, fmt.Errorf("pipeline: %d digits for %d attributes: want one per attribute, with the data in original units of z's shape (%d x %d)", len(cfg.Digits), z.D, z.N, z.D)
		}
		for j, dg := range cfg.Digits {
			if dg < -1 || dg > 17 {
				return nil, fmt.Errorf("pipeline: attribute %q: %d digits (want -1 for full precision or 0..17)", z.Names[j], dg)
			}
		}
	}
	if cfg.Coarse < 2*cfg.K {
		return nil, fmt.Errorf("pipeline: coarse parts of %d records: want at least 2k = %d", cfg.Coarse, 2*cfg.K)
	}
	if err := cfg.Runner.Check(); err != nil {
		return nil, err
	}
	attrs := make([]model.QIAttr, z.D)
	for j := range attrs {
		at := &attrs[j]
		at.Name, at.Kind = z.Names[j], model.Numeric
		if z.N > 0 {
			at.Min, at.Max = z.X[j], z.X[j]
		}
		for i := range z.N {
			v := z.X[i*z.D+j]
			at.Min, at.Max = min(at.Min, v), max(at.Max, v)
		}
	}
	*c = cfg
	return attrs, nil
}
