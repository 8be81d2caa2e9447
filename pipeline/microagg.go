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
	Runner    Runner
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
	// pipeline stage: exact up to rounding.
	Interval  float64
	IntervalP float64
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
// records, the per-attribute sums and sums of squares (for SST and the
// standard deviations), the within-group SSE, and the per-part sums of
// the measures that add over parts: the absolute deviations (IL1s), the
// protected data's sums of squares (its standard deviation: the sums are
// the original's, as centroids keep them) and the expected linked
// records of the part-local DBRL.
type Moments struct {
	N         int
	Parts     int
	Groups    int
	Sum       []float64
	SumSq     []float64
	SSE       float64
	AbsDev    []float64
	ProtSumSq []float64
	Linked    float64
	Tied      int
}

func init() {
	beam.RegisterType(reflect.TypeOf((*microFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Moments)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*writeMomentsFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*intervalFn)(nil)).Elem())
	beam.RegisterFunction(mergeMoments)
	beam.RegisterFunction(recMoments)
	beam.RegisterFunction(addInts)
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

func addInts(a, b int) int { return a + b }

// stats returns the means and the sample standard deviations (divisor
// n − 1; 0 for n = 1 and for a negative rounding residue) of the
// moments' attributes, and the protected data's standard deviations.
func (m *Moments) stats() (mean, sd, protSD []float64) {
	n := float64(m.N)
	mean, sd, protSD = make([]float64, len(m.Sum)), make([]float64, len(m.Sum)), make([]float64, len(m.Sum))
	for j, s := range m.Sum {
		mean[j] = s / n
		if m.N > 1 {
			sd[j] = math.Sqrt(max(0, (m.SumSq[j]-s*s/n)/(n-1)))
			if m.ProtSumSq != nil {
				protSD[j] = math.Sqrt(max(0, (m.ProtSumSq[j]-s*s/n)/(n-1)))
			}
		}
	}
	return mean, sd, protSD
}

// microFn microaggregates one coarse part (microSolve), writes its groups
// to Dir and emits its moments and, for interval disclosure, the pairs
// of original and protected records (Rec, X = x_1..x_d, x'_1..x'_d).
type microFn struct {
	Names      []string
	K          int
	ICSM       bool
	ICSMRounds int
	Dir        string
}

func (f *microFn) ProcessElement(ctx context.Context, key int, it func(*Rec) bool, orig func(*Moments) bool, emit func(Moments), pairs func(Rec)) error {
	var om Moments
	if !orig(&om) {
		return fmt.Errorf("pipeline: coarse part %d: no moments of the data", key)
	}
	pt := partTable(make([]model.QIAttr, len(f.Names)), it) // only the shape is used
	out, m, pr, err := microSolve(f.Names, pt.T.X, pt.Idx, key, f.K, f.ICSM, f.ICSMRounds, &om)
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
// original and protected records in batches.
func microSolve(names []string, x []float64, idx []int64, key, k int, icsm bool, rounds int, om *Moments) (*microPart, Moments, []Rec, error) {
	d, n := len(names), len(idx)
	if n < k {
		return nil, Moments{}, nil, fmt.Errorf("pipeline: coarse part %d has %d records, fewer than k = %d (use larger coarse parts)", key, n, k)
	}
	z, err := model.NewDataset(names, n, d, x)
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
	prot := model.Protect(z, cl)
	m := Moments{N: n, Parts: 1, Groups: cl.NumGroups, Sum: make([]float64, d), SumSq: make([]float64, d), SSE: model.SSE(z, cl),
		AbsDev: make([]float64, d), ProtSumSq: make([]float64, d)}
	var pairs []Rec
	for i := range n {
		if i%StageBatch == 0 {
			pairs = append(pairs, Rec{})
		}
		b := &pairs[len(pairs)-1]
		row, prow := x[i*d:(i+1)*d], prot.X[i*d:(i+1)*d]
		b.I = append(b.I, idx[i])
		b.X = append(append(b.X, row...), prow...)
		for j, v := range row {
			m.Sum[j] += v
			m.SumSq[j] += v * v
			m.AbsDev[j] += math.Abs(v - prow[j])
			m.ProtSumSq[j] += prow[j] * prow[j]
		}
	}
	mean, sd, _ := om.stats()
	share, tied, err := risk.RecordLinkageScaled(z, prot, mean, sd)
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
// deviation from the combined moments).
type intervalFn struct {
	P    float64
	half []float64
}

func (f *intervalFn) ProcessElement(r Rec, moments func(*Moments) bool, emit func(int)) error {
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
	_, _, psd := m.stats()
	for j := range psd {
		psd[j] *= p
	}
	return psd
}

// intervalCount counts the pairs of r inside their intervals.
func intervalCount(r Rec, half []float64) int {
	d := len(half)
	c := 0
	for x := range r.I {
		row := r.X[x*2*d : (x+1)*2*d]
		at := true
		for j := range d {
			if row[j] < row[d+j]-half[j] || row[j] > row[d+j]+half[j] {
				at = false
				break
			}
		}
		if at {
			c++
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
		Sum: addVec(a.Sum, b.Sum), SumSq: addVec(a.SumSq, b.SumSq), AbsDev: addVec(a.AbsDev, b.AbsDev),
		ProtSumSq: addVec(a.ProtSumSq, b.ProtSumSq), Linked: a.Linked + b.Linked, Tied: a.Tied + b.Tied}
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

func (f *writeCountFn) ProcessElement(ctx context.Context, c int) error {
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
// parts (see MicroaggResult for what each is exactly). The clustering is
// assembled with global indices.
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
	input, err := stage(ctx, dir, z.X, z.N, z.D)
	if err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	recs := readStaged(s, input)
	orig := beam.Combine(s.Scope("data-moments"), mergeMoments, beam.ParDo(s, recMoments, recs))
	keyed := coarseSplit(s, recs, aj, z.N, cfg.Coarse, cfg.Seed)
	moments, pairs := beam.ParDo2(s.Scope("microaggregate"), &microFn{Names: z.Names, K: cfg.K, ICSM: cfg.ICSM, ICSMRounds: cfg.ICSMRounds, Dir: dir},
		beam.GroupByKey(s, keyed), beam.SideInput{Input: orig})
	total := beam.Combine(s, mergeMoments, moments)
	beam.ParDo0(s.Scope("moments"), &writeMomentsFn{Dir: dir}, total)
	counts := beam.ParDo(s.Scope("interval"), &intervalFn{P: cfg.IntervalP}, pairs, beam.SideInput{Input: total})
	beam.ParDo0(s.Scope("interval-count"), &writeCountFn{Dir: dir}, beam.Combine(s, addInts, counts))
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
	cs, err := readGobs[int](ctx, dir, "micro-interval.gob")
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

// assembleMicro builds the global result of the parts (see Microagg).
func assembleMicro(n int, parts []*microPart, m Moments, atRisk int, p float64) (*MicroaggResult, error) {
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
	_, sd, _ := m.stats()
	for j, a := range m.AbsDev {
		if a != 0 && sd[j] > 0 {
			res.IL1s += a / (math.Sqrt2 * sd[j])
		}
	}
	res.IL1s /= float64(n * len(m.AbsDev))
	res.Interval, res.IntervalP = float64(atRisk)/float64(n), p
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
