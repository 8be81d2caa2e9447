package pipeline

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// MicroaggConfig configures Microagg.
type MicroaggConfig struct {
	K      int
	Coarse int // records per coarse part, at most (0 = DefaultCoarse)
	Seed   uint64
	Runner Runner
}

// MicroaggResult is the outcome of Microagg.
type MicroaggResult struct {
	Clustering *model.Clustering // global record indices; groups numbered by part, then within the part
	Parts      [][]int           // the coarse parts (record indices, ascending), by key
	SSE        float64           // Σ parts SSE_p (model.SSE), combined in the pipeline
	SST        float64           // model.SST of the whole data, from the combined moments
	IL         float64           // 100 · SSE / SST (model.IL)
	Seconds    float64
}

// microPart is the result of one coarse part, written by a worker.
type microPart struct {
	Key   int
	Index []int64 // the part's records, ascending
	Group []int32 // MDAV's group of each (local numbering)
	SSE   float64
}

// Moments are the combined statistics of a microaggregation run: the
// records, the per-attribute sums and sums of squares (for SST) and the
// within-group SSE. Measures that add over parts (disclosure-risk counts,
// such as records whose group has fewer than a given size, or linkage
// counts) belong here as further fields filled by microFn and added by
// mergeMoments.
type Moments struct {
	N      int
	Parts  int
	Groups int
	Sum    []float64
	SumSq  []float64
	SSE    float64
}

func init() {
	beam.RegisterType(reflect.TypeOf((*microFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Moments)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*writeMomentsFn)(nil)).Elem())
	beam.RegisterFunction(mergeMoments)
}

// microFn runs MDAV on one coarse part, writes its groups to Dir and
// emits its moments.
type microFn struct {
	Names []string
	K     int
	Dir   string
}

func (f *microFn) ProcessElement(ctx context.Context, key int, it func(*Rec) bool, emit func(Moments)) error {
	pt := partTable(make([]model.QIAttr, len(f.Names)), it) // only the shape is used
	out, m, err := microSolve(f.Names, pt.T.X, pt.Idx, key, f.K)
	if err != nil {
		return err
	}
	if err := writeGob(ctx, joinPath(f.Dir, fmt.Sprintf("micro-part-%06d.gob", key)), out); err != nil {
		return fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	emit(m)
	return nil
}

// microSolve runs MDAV on coarse part key (records idx, values x).
func microSolve(names []string, x []float64, idx []int64, key, k int) (*microPart, Moments, error) {
	d, n := len(names), len(idx)
	if n < k {
		return nil, Moments{}, fmt.Errorf("pipeline: coarse part %d has %d records, fewer than k = %d (use larger coarse parts)", key, n, k)
	}
	z, err := model.NewDataset(names, n, d, x)
	if err != nil {
		return nil, Moments{}, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	cl, err := microagg.MDAV(z, k)
	if err != nil {
		return nil, Moments{}, fmt.Errorf("pipeline: coarse part %d (%d records): %w", key, n, err)
	}
	if _, err := cl.CheckK(n, k); err != nil {
		return nil, Moments{}, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	m := Moments{N: n, Parts: 1, Groups: cl.NumGroups, Sum: make([]float64, d), SumSq: make([]float64, d), SSE: model.SSE(z, cl)}
	for i := range n {
		for j, v := range x[i*d : (i+1)*d] {
			m.Sum[j] += v
			m.SumSq[j] += v * v
		}
	}
	out := &microPart{Key: key, Index: idx, Group: make([]int32, n), SSE: m.SSE}
	for i, g := range cl.Group {
		out.Group[i] = int32(g)
	}
	return out, m, nil
}

func mergeMoments(a, b Moments) Moments {
	if a.Sum == nil {
		return b
	}
	if b.Sum == nil {
		return a
	}
	m := Moments{N: a.N + b.N, Parts: a.Parts + b.Parts, Groups: a.Groups + b.Groups, SSE: a.SSE + b.SSE,
		Sum: slices.Clone(a.Sum), SumSq: slices.Clone(a.SumSq)}
	for j := range m.Sum {
		m.Sum[j] += b.Sum[j]
		m.SumSq[j] += b.SumSq[j]
	}
	return m
}

type writeMomentsFn struct{ Dir string }

func (f *writeMomentsFn) ProcessElement(ctx context.Context, m Moments) error {
	return writeGob(ctx, joinPath(f.Dir, "micro-moments.gob"), &m)
}

// Microagg microaggregates z (standardize it first, as sdcopt microagg
// does) with MDAV on a Beam pipeline: coarse parts of at most about
// cfg.Coarse records by Mondrian's median rule on a seeded sample
// (BuildTree, every attribute numeric with z's range), MDAV on each part in
// a ParDo (records in ascending index order: exactly microagg.MDAV on that
// part), and the SSE and the moments for SST combined over the parts
// (SST = Σ_j Σ_i x_ij² − (Σ_i x_ij)²/n). The clustering is assembled with
// global indices.
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
	dir, cleanup, err := cfg.Runner.workDir()
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
	keyed := coarseSplit(s, recs, aj, z.N, cfg.Coarse, cfg.Seed)
	moments := beam.ParDo(s.Scope("mdav"), &microFn{Names: z.Names, K: cfg.K, Dir: dir}, beam.GroupByKey(s, keyed))
	beam.ParDo0(s.Scope("moments"), &writeMomentsFn{Dir: dir}, beam.Combine(s, mergeMoments, moments))
	if err := cfg.Runner.execute(ctx, p); err != nil {
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
	res, err := assembleMicro(z.N, parts, *ms[0])
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// assembleMicro builds the global result of the parts (see Microagg).
func assembleMicro(n int, parts []*microPart, m Moments) (*MicroaggResult, error) {
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
