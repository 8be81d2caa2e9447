package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
)

// KanonConfig configures Kanon.
type KanonConfig struct {
	K         int
	Method    string // a freeform method of kanon.Freeform ("" = sortgreedy)
	Partition int    // records per partition inside a coarse part (kanon.Options.Partition; 0 = the coarse part is one partition)
	Coarse    int    // records per coarse part, at most (about half to all of it); 0 = DefaultCoarse
	Seed      uint64
	MIPSolver string // engine of the exact MIP (method mip; "" = auto); the workers need it linked
	Runner    Runner
}

// DefaultCoarse is the default size of a coarse part: large enough that
// the median partitions inside it are those of the whole data in the
// upper levels, small enough for one worker's memory with any method.
const DefaultCoarse = 50000

// PartSeed is the seed of coarse part key: seed for part 0, seed mixed
// with the key otherwise, so that a run with one coarse part is the
// single-machine run with seed.
func PartSeed(seed uint64, key int) uint64 {
	return seed ^ uint64(key)*0x9e37_79b9_7f4a_7c15
}

// KanonResult is the outcome of Kanon.
type KanonResult struct {
	*kanon.Result         // global record indices; Seconds = the whole run
	Parts         [][]int // the coarse parts (record indices, ascending), by key
}

// kanonPart is the result of one coarse part, written by a worker.
type kanonPart struct {
	Key          int
	Index        []int64   // the part's records (global indices, ascending = local order)
	Matched      [][]int32 // local graph
	Assignment   []int32   // local
	PublishOrder []int32   // local
	GCP          float64
	Partitions   int
}

// kanonSummary is the Combine of the parts' statistics.
type kanonSummary struct {
	N          int
	GCPSum     float64 // Σ parts n_p · GCP_p
	Parts      int
	Partitions int
}

func init() {
	beam.RegisterType(reflect.TypeOf((*sampleFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*treeFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*routeFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*kanonFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*kanonSummary)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*writeSummaryFn)(nil)).Elem())
	beam.RegisterFunction(mergeSummary)
}

// sampleFn keeps the seeded Bernoulli sample (InSample), keyed by 0.
type sampleFn struct {
	Seed uint64
	Rate float64
}

func (f *sampleFn) ProcessElement(r Rec, emit func(int, Rec)) {
	var out Rec
	d := r.d()
	for x, i := range r.I {
		if InSample(f.Seed, i, f.Rate) {
			out.I = append(out.I, i)
			out.X = append(out.X, r.X[x*d:(x+1)*d]...)
		}
	}
	if len(out.I) > 0 {
		emit(0, out)
	}
}

// d is the number of values per record of a batch.
func (r *Rec) d() int {
	if len(r.I) == 0 {
		return 0
	}
	return len(r.X) / len(r.I)
}

// treeFn builds the split tree of the sample.
type treeFn struct {
	Attrs     string
	MinSample int
}

func (f *treeFn) ProcessElement(_ int, it func(*Rec) bool, emit func(string)) error {
	attrs, err := decodeAttrs(f.Attrs)
	if err != nil {
		return err
	}
	var rows [][]float64
	var r Rec
	for it(&r) {
		d := r.d()
		for x := range r.I {
			rows = append(rows, r.X[x*d:(x+1)*d])
		}
		r = Rec{}
	}
	tr, err := BuildTree(attrs, rows, f.MinSample)
	if err != nil {
		return err
	}
	b, err := json.Marshal(tr)
	if err != nil {
		return err
	}
	emit(string(b))
	return nil
}

// routeFn keys every record by its coarse part; without a tree (empty
// sample) every record goes to part 0. The tree is read from the side
// input once per DoFn instance (it is the same for every record: one
// global window); reading it per record costs a runner round trip each.
type routeFn struct {
	tree   *Tree
	loaded bool
}

func (f *routeFn) ProcessElement(r Rec, trees func(*string) bool, emit func(int, Rec)) error {
	if !f.loaded {
		var s string
		if trees(&s) {
			var tr Tree
			if err := json.Unmarshal([]byte(s), &tr); err != nil {
				return fmt.Errorf("pipeline: split tree: %w", err)
			}
			f.tree = &tr
		}
		f.loaded = true
	}
	if f.tree == nil {
		emit(0, r)
		return nil
	}
	d := r.d()
	parts := map[int]*Rec{}
	var keys []int
	for x, i := range r.I {
		row := r.X[x*d : (x+1)*d]
		k := f.tree.Route(row)
		p := parts[k]
		if p == nil {
			p = &Rec{}
			parts[k] = p
			keys = append(keys, k)
		}
		p.I = append(p.I, i)
		p.X = append(p.X, row...)
	}
	for _, k := range keys {
		emit(k, *parts[k])
	}
	return nil
}

// partTable gathers a coarse part's records in ascending index order.
func partTable(attrs []model.QIAttr, it func(*Rec) bool) (*model.QITable, []int64) {
	d := len(attrs)
	type one struct {
		i   int64
		row []float64
	}
	var recs []one
	var r Rec
	for it(&r) {
		for x, i := range r.I {
			recs = append(recs, one{i, r.X[x*d : (x+1)*d]})
		}
		r = Rec{}
	}
	slices.SortFunc(recs, func(a, b one) int { return cmp.Compare(a.i, b.i) })
	t := &model.QITable{Attrs: attrs, N: len(recs), X: make([]float64, 0, len(recs)*d)}
	idx := make([]int64, len(recs))
	for x, r := range recs {
		t.X = append(t.X, r.row...)
		idx[x] = r.i
	}
	return t, idx
}

// kanonFn anonymizes one coarse part with kanon.Anonymize, checks it
// (kanon.CheckResult), writes it to Dir and emits its statistics.
type kanonFn struct {
	Attrs     string
	K         int
	Method    string
	Partition int
	Seed      uint64
	MIPSolver string
	Dir       string
}

func (f *kanonFn) ProcessElement(ctx context.Context, key int, it func(*Rec) bool, emit func(kanonSummary)) error {
	attrs, err := decodeAttrs(f.Attrs)
	if err != nil {
		return err
	}
	t, idx := partTable(attrs, it)
	out, sum, err := kanonSolve(t, idx, key, f.K, f.Method, f.Partition, f.Seed, f.MIPSolver, 1)
	if err != nil {
		return err
	}
	if err := writeGob(ctx, joinPath(f.Dir, fmt.Sprintf("kanon-part-%06d.gob", key)), out); err != nil {
		return fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	emit(sum)
	return nil
}

// kanonSolve anonymizes coarse part key (records idx, table t) with
// kanon.Anonymize and checks the result (kanon.CheckResult).
func kanonSolve(t *model.QITable, idx []int64, key, k int, method string, partition int, seed uint64, solver string, workers int) (*kanonPart, kanonSummary, error) {
	if t.N < k {
		return nil, kanonSummary{}, fmt.Errorf("pipeline: coarse part %d has %d records, fewer than k = %d (use larger coarse parts)", key, t.N, k)
	}
	part := min(partition, t.N)
	if part == t.N {
		part = 0
	}
	res, err := kanon.Anonymize(t, k, &kanon.Options{Method: method, Partition: part, Seed: PartSeed(seed, key), Workers: workers, MIPSolver: solver})
	if err != nil {
		return nil, kanonSummary{}, fmt.Errorf("pipeline: coarse part %d (%d records): %w", key, t.N, err)
	}
	if err := kanon.CheckResult(t, k, res); err != nil {
		return nil, kanonSummary{}, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	out := &kanonPart{Key: key, Index: idx, Matched: res.Graph.Matched, GCP: res.GCP, Partitions: res.Partitions,
		Assignment: toInt32(res.Assignment), PublishOrder: toInt32(res.PublishOrder)}
	return out, kanonSummary{N: t.N, GCPSum: float64(t.N) * res.GCP, Parts: 1, Partitions: res.Partitions}, nil
}

func toInt32(v []int) []int32 {
	o := make([]int32, len(v))
	for i, x := range v {
		o[i] = int32(x)
	}
	return o
}

func mergeSummary(a, b kanonSummary) kanonSummary {
	return kanonSummary{N: a.N + b.N, GCPSum: a.GCPSum + b.GCPSum, Parts: a.Parts + b.Parts, Partitions: a.Partitions + b.Partitions}
}

// writeSummaryFn writes the combined statistics to Dir.
type writeSummaryFn struct{ Dir string }

func (f *writeSummaryFn) ProcessElement(ctx context.Context, s kanonSummary) error {
	return writeGob(ctx, joinPath(f.Dir, "kanon-summary.gob"), &s)
}

// coarseSplit adds the sample, the split tree and the routing to the
// pipeline: the records keyed by coarse part.
func coarseSplit(s beam.Scope, recs beam.PCollection, attrs string, n, coarse int, seed uint64) beam.PCollection {
	rate := SampleRate(min(coarse, n))
	sample := beam.ParDo(s.Scope("sample"), &sampleFn{Seed: seed, Rate: rate}, recs)
	minSample := int(math.Round(rate * float64(coarse) / 2))
	tree := beam.ParDo(s.Scope("split-tree"), &treeFn{Attrs: attrs, MinSample: max(1, minSample)}, beam.GroupByKey(s, sample))
	return beam.ParDo(s.Scope("route"), &routeFn{}, recs, beam.SideInput{Input: tree})
}

// Kanon k-anonymizes t by freeform generalization on a Beam pipeline:
// the records are split into coarse parts of at most about cfg.Coarse
// records by Mondrian's median rule on a seeded sample (BuildTree), and
// each coarse part is anonymized by kanon.Anonymize (method, partition
// size, seed PartSeed(cfg.Seed, key)) in a ParDo, exactly as the
// single-machine path does on that part; the GCP is combined from the
// parts (Σ n_p·GCP_p / n: the parts share the attributes, so the NCP
// denominators are global). The parts' results are assembled into one
// Result with global indices; the publish order lists the parts by key,
// each in its own order, then shuffled with the seed when there is more
// than one part (one part: the part's order, as kanon.Anonymize gives).
func Kanon(ctx context.Context, t *model.QITable, cfg KanonConfig) (*KanonResult, error) {
	start := time.Now()
	if err := checkKanon(t, &cfg); err != nil {
		return nil, err
	}
	if cfg.Runner.Name == RunnerSingle {
		return KanonLocal(t, cfg, 0)
	}
	attrs, err := attrsJSON(t.Attrs)
	if err != nil {
		return nil, err
	}
	dir, cleanup, err := cfg.Runner.workDir()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	input, err := stage(ctx, dir, t.X, t.N, t.D())
	if err != nil {
		return nil, err
	}

	p, s := beam.NewPipelineWithRoot()
	recs := readStaged(s, input)
	keyed := coarseSplit(s, recs, attrs, t.N, cfg.Coarse, cfg.Seed)
	stats := beam.ParDo(s.Scope("anonymize"), &kanonFn{Attrs: attrs, K: cfg.K, Method: cfg.Method, Partition: cfg.Partition, Seed: cfg.Seed, MIPSolver: cfg.MIPSolver, Dir: dir},
		beam.GroupByKey(s, keyed))
	beam.ParDo0(s.Scope("summary"), &writeSummaryFn{Dir: dir}, beam.Combine(s, mergeSummary, stats))
	if err := cfg.Runner.execute(ctx, p); err != nil {
		return nil, err
	}

	parts, err := readGobs[kanonPart](ctx, dir, "kanon-part-*.gob")
	if err != nil {
		return nil, fmt.Errorf("pipeline: reading the parts: %w", err)
	}
	sums, err := readGobs[kanonSummary](ctx, dir, "kanon-summary.gob")
	if err != nil || len(sums) != 1 {
		return nil, fmt.Errorf("pipeline: reading the summary: %v (%d files)", err, len(sums))
	}
	res, err := assembleKanon(t.N, cfg, parts, *sums[0])
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// assembleKanon builds the global result of the parts (see Kanon).
func assembleKanon(n int, cfg KanonConfig, parts []*kanonPart, sum kanonSummary) (*KanonResult, error) {
	if sum.N != n || sum.Parts != len(parts) {
		return nil, fmt.Errorf("pipeline: internal error: the parts hold %d records in %d parts (%d files), want %d records", sum.N, sum.Parts, len(parts), n)
	}
	slices.SortFunc(parts, func(a, b *kanonPart) int { return a.Key - b.Key })
	res := &KanonResult{Result: &kanon.Result{
		Graph:      &model.GenGraph{N: n, Matched: make([][]int32, n)},
		GCP:        sum.GCPSum / float64(n),
		Partitions: sum.Partitions,
		Partition:  cfg.Partition,
		Assignment: make([]int, n),
		MIPBound:   math.NaN(),
	}}
	seen := make([]bool, n)
	for _, pt := range parts {
		ids := make([]int, len(pt.Index))
		for x, i := range pt.Index {
			if i < 0 || int(i) >= n || seen[i] {
				return nil, fmt.Errorf("pipeline: internal error: record %d in two parts or out of range", i)
			}
			seen[i] = true
			ids[x] = int(i)
		}
		res.Parts = append(res.Parts, ids)
		for lj, m := range pt.Matched {
			gm := make([]int32, len(m))
			for x, li := range m {
				gm[x] = int32(ids[li])
			}
			slices.Sort(gm)
			res.Graph.Matched[ids[lj]] = gm
			res.Assignment[ids[lj]] = ids[pt.Assignment[lj]]
		}
		for _, lj := range pt.PublishOrder {
			res.PublishOrder = append(res.PublishOrder, ids[lj])
		}
	}
	if len(parts) > 1 {
		rng := rand.New(rand.NewPCG(cfg.Seed, streamPublish))
		rng.Shuffle(len(res.PublishOrder), func(i, j int) {
			res.PublishOrder[i], res.PublishOrder[j] = res.PublishOrder[j], res.PublishOrder[i]
		})
	}
	if err := res.Graph.CheckRegular(cfg.K); err != nil {
		return nil, fmt.Errorf("pipeline: internal error: %w", err)
	}
	return res, nil
}

const streamPublish = 0x7069_7065_0002

// checkKanon validates the input of Kanon and fills in the defaults.
func checkKanon(t *model.QITable, c *KanonConfig) error {
	cfg := *c
	if t == nil || t.N == 0 {
		return errors.New("pipeline: empty table")
	}
	if err := t.Check(); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	if cfg.Method == "" {
		cfg.Method = kanon.MethodSortGreedy
	}
	if !slices.Contains(kanon.Freeform(), cfg.Method) {
		return fmt.Errorf("pipeline: method %q: the pipeline runs the freeform methods %v", cfg.Method, kanon.Freeform())
	}
	if cfg.K < 1 || cfg.K > t.N {
		return fmt.Errorf("%w: k = %d for %d records (want 1 <= k <= n)", kanon.ErrK, cfg.K, t.N)
	}
	if cfg.Partition < 0 || (cfg.Partition > 0 && cfg.Partition < cfg.K) {
		return fmt.Errorf("%w: %d (want 0 or at least k = %d)", kanon.ErrPartition, cfg.Partition, cfg.K)
	}
	if cfg.Coarse == 0 {
		cfg.Coarse = DefaultCoarse
	}
	if cfg.Coarse < 2*cfg.K {
		return fmt.Errorf("pipeline: coarse parts of %d records: want at least 2k = %d", cfg.Coarse, 2*cfg.K)
	}
	if err := cfg.Runner.Check(); err != nil {
		return err
	}
	*c = cfg
	return nil
}
