package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
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
	Keys       []int // the parts' keys
	Sizes      []int // the parts' records, by Keys
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
// D > 0 keeps only the first D values of each record: its split
// attributes (microagg stages the values in original units after them).
type sampleFn struct {
	Seed uint64
	Rate float64
	D    int
}

func (f *sampleFn) ProcessElement(r Rec, emit func(int, Rec)) {
	var out Rec
	d := r.d()
	keep := d
	if f.D > 0 {
		keep = min(d, f.D)
	}
	for x, i := range r.I {
		if InSample(f.Seed, i, f.Rate) {
			out.I = append(out.I, i)
			out.X = append(out.X, r.X[x*d:x*d+keep]...)
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
// The records of each part are gathered across input batches and emitted
// in batches of StageBatch (the rest at the end of the bundle): routing
// each input batch on its own would cut it into one element per part, a
// few records each once there are hundreds of parts, and a runner's cost
// per element (memory and encoding) would then grow with records x parts.
type routeFn struct {
	tree   *Tree
	loaded bool
	parts  map[int]*Rec
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
	if f.parts == nil {
		f.parts = map[int]*Rec{}
	}
	d, c := r.d(), r.cells()
	for x, i := range r.I {
		row := r.X[x*d : (x+1)*d]
		k := f.tree.Route(row)
		p := f.parts[k]
		if p == nil {
			p = &Rec{}
			f.parts[k] = p
		}
		if r.Row != nil && p.Row == nil {
			p.Row = append([]int64{}, p.I...) // earlier records: row = index
		}
		p.I = append(p.I, i)
		p.X = append(p.X, row...)
		if p.Row != nil {
			if r.Row != nil {
				p.Row = append(p.Row, r.Row[x])
			} else {
				p.Row = append(p.Row, i)
			}
		}
		p.Rest = append(p.Rest, r.Rest[x*c:(x+1)*c]...)
		if len(p.I) >= StageBatch {
			emit(k, *p)
			delete(f.parts, k)
		}
	}
	return nil
}

// FinishBundle emits the records still gathered.
func (f *routeFn) FinishBundle(_ func(*string) bool, emit func(int, Rec)) {
	keys := make([]int, 0, len(f.parts))
	for k := range f.parts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		emit(k, *f.parts[k])
	}
	f.parts = nil
}

// cells is the number of cells per record of a batch.
func (r *Rec) cells() int {
	if len(r.I) == 0 {
		return 0
	}
	return len(r.Rest) / len(r.I)
}

// partRecs is a coarse part gathered in ascending index order: the
// table, the records' indices, data rows and unchanged cells (c each).
type partRecs struct {
	T    *model.QITable
	Idx  []int64
	Rows []int64
	Rest []string
}

// partTable gathers a coarse part's records in ascending index order.
func partTable(attrs []model.QIAttr, it func(*Rec) bool) *partRecs {
	d := len(attrs)
	type one struct {
		i, row int64
		x      []float64
		rest   []string
	}
	var recs []one
	var r Rec
	for it(&r) {
		c := r.cells()
		for x, i := range r.I {
			o := one{i: i, row: i, x: r.X[x*d : (x+1)*d], rest: r.Rest[x*c : (x+1)*c]}
			if r.Row != nil {
				o.row = r.Row[x]
			}
			recs = append(recs, o)
		}
		r = Rec{}
	}
	slices.SortFunc(recs, func(a, b one) int { return cmp.Compare(a.i, b.i) })
	p := &partRecs{T: &model.QITable{Attrs: attrs, N: len(recs), X: make([]float64, 0, len(recs)*d)},
		Idx: make([]int64, len(recs)), Rows: make([]int64, len(recs))}
	for x, r := range recs {
		p.T.X = append(p.T.X, r.x...)
		p.Idx[x], p.Rows[x] = r.i, r.row
		p.Rest = append(p.Rest, r.rest...)
	}
	return p
}

// kanonFn anonymizes one coarse part with kanon.Anonymize, checks it
// (kanon.CheckResult) and emits its statistics. Without Publish it writes
// the part's result to Dir (for the in-memory result of Kanon); with
// Publish (publishSpec as JSON) it writes the part's published rows and
// graph lines to Dir after verifying them (publishPart).
type kanonFn struct {
	Attrs     string
	K         int
	Method    string
	Partition int
	Seed      uint64
	MIPSolver string
	Dir       string
	Publish   string
}

func (f *kanonFn) ProcessElement(ctx context.Context, key int, it func(*Rec) bool, emit func(kanonSummary)) error {
	attrs, err := decodeAttrs(f.Attrs)
	if err != nil {
		return err
	}
	p := partTable(attrs, it)
	res, sum, err := kanonSolve(p.T, key, f.K, f.Method, f.Partition, f.Seed, f.MIPSolver, 1)
	if err != nil {
		return err
	}
	if f.Publish == "" {
		if err := writeGob(ctx, joinPath(f.Dir, fmt.Sprintf("kanon-part-%06d.gob", key)), partOf(key, p.Idx, res)); err != nil {
			return fmt.Errorf("pipeline: coarse part %d: %w", key, err)
		}
		emit(sum)
		return nil
	}
	var spec publishSpec
	if err := json.Unmarshal([]byte(f.Publish), &spec); err != nil {
		return fmt.Errorf("pipeline: publication spec: %w", err)
	}
	pub, graph, err := publishPart(&spec, p, res, f.K)
	if err != nil {
		return fmt.Errorf("pipeline: coarse part %d: %w", key, err)
	}
	for _, o := range []struct {
		name string
		b    []byte
	}{{shardName("pub", key), pub}, {shardName("graph", key), graph}} {
		if err := writeBytes(ctx, joinPath(f.Dir, o.name), o.b); err != nil {
			return fmt.Errorf("pipeline: coarse part %d: %w", key, err)
		}
	}
	emit(sum)
	return nil
}

// kanonSolve anonymizes coarse part key (table t) with kanon.Anonymize
// and checks the result (kanon.CheckResult).
func kanonSolve(t *model.QITable, key, k int, method string, partition int, seed uint64, solver string, workers int) (*kanon.Result, kanonSummary, error) {
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
	return res, kanonSummary{N: t.N, GCPSum: float64(t.N) * res.GCP, Parts: 1, Partitions: res.Partitions,
		Keys: []int{key}, Sizes: []int{t.N}}, nil
}

// partOf is the kanonPart of a solved part.
func partOf(key int, idx []int64, res *kanon.Result) *kanonPart {
	return &kanonPart{Key: key, Index: idx, Matched: res.Graph.Matched, GCP: res.GCP, Partitions: res.Partitions,
		Assignment: toInt32(res.Assignment), PublishOrder: toInt32(res.PublishOrder)}
}

func toInt32(v []int) []int32 {
	o := make([]int32, len(v))
	for i, x := range v {
		o[i] = int32(x)
	}
	return o
}

func mergeSummary(a, b kanonSummary) kanonSummary {
	return kanonSummary{N: a.N + b.N, GCPSum: a.GCPSum + b.GCPSum, Parts: a.Parts + b.Parts, Partitions: a.Partitions + b.Partitions,
		Keys: append(slices.Clone(a.Keys), b.Keys...), Sizes: append(slices.Clone(a.Sizes), b.Sizes...)}
}

// writeSummaryFn writes the combined statistics to Dir.
type writeSummaryFn struct{ Dir string }

func (f *writeSummaryFn) ProcessElement(ctx context.Context, s kanonSummary) error {
	return writeGob(ctx, joinPath(f.Dir, "kanon-summary.gob"), &s)
}

// coarseSplit adds the sample, the split tree and the routing to the
// pipeline: the records keyed by coarse part. The tree splits on the
// first d values of each record (0: all of them; the attributes attrs).
func coarseSplit(s beam.Scope, recs beam.PCollection, attrs string, d, n, coarse int, seed uint64) beam.PCollection {
	rate := SampleRate(min(coarse, n))
	sample := beam.ParDo(s.Scope("sample"), &sampleFn{Seed: seed, Rate: rate, D: d}, recs)
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
// Result with global indices, in memory; KanonPublish streams a
// publication instead. The publish order interleaves the parts' own
// orders at random (Interleave).
func Kanon(ctx context.Context, t *model.QITable, cfg KanonConfig) (*KanonResult, error) {
	start := time.Now()
	if err := checkKanon(t, &cfg); err != nil {
		return nil, err
	}
	if cfg.Runner.Name == RunnerSingle {
		return KanonLocal(t, cfg, 0)
	}
	dir, cleanup, err := cfg.Runner.workDir(ctx)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	input, err := stage(ctx, dir, t.X, t.N, t.D())
	if err != nil {
		return nil, err
	}
	sum, err := runKanon(ctx, cfg, t.Attrs, t.N, dir, input, "")
	if err != nil {
		return nil, err
	}
	parts, err := readGobs[kanonPart](ctx, dir, "kanon-part-*.gob")
	if err != nil {
		return nil, fmt.Errorf("pipeline: reading the parts: %w", err)
	}
	res, err := assembleKanon(t.N, cfg, parts, sum)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// runKanon runs the kanon pipeline on the staged input of n records and
// returns the combined statistics.
func runKanon(ctx context.Context, cfg KanonConfig, attrs []model.QIAttr, n int, dir, input, publish string) (kanonSummary, error) {
	aj, err := attrsJSON(attrs)
	if err != nil {
		return kanonSummary{}, err
	}
	p, s := beam.NewPipelineWithRoot()
	recs := readStaged(s, input)
	keyed := coarseSplit(s, recs, aj, 0, n, cfg.Coarse, cfg.Seed)
	stats := beam.ParDo(s.Scope("anonymize"), &kanonFn{Attrs: aj, K: cfg.K, Method: cfg.Method, Partition: cfg.Partition,
		Seed: cfg.Seed, MIPSolver: cfg.MIPSolver, Dir: dir, Publish: publish}, beam.GroupByKey(s, keyed))
	beam.ParDo0(s.Scope("summary"), &writeSummaryFn{Dir: dir}, beam.Combine(s, mergeSummary, stats))
	if err := cfg.Runner.execute(ctx, p, dir); err != nil {
		return kanonSummary{}, err
	}
	sums, err := readGobs[kanonSummary](ctx, dir, "kanon-summary.gob")
	if err != nil || len(sums) != 1 {
		return kanonSummary{}, fmt.Errorf("pipeline: reading the summary: %v (%d files)", err, len(sums))
	}
	sum := *sums[0]
	if sum.N != n || sum.Parts != len(sum.Keys) || len(sum.Keys) != len(sum.Sizes) {
		return kanonSummary{}, fmt.Errorf("pipeline: internal error: the parts hold %d records in %d parts, want %d records", sum.N, sum.Parts, n)
	}
	// Order the parts by key.
	order := make([]int, len(sum.Keys))
	for x := range order {
		order[x] = x
	}
	slices.SortFunc(order, func(a, b int) int { return sum.Keys[a] - sum.Keys[b] })
	keys, sizes := make([]int, len(order)), make([]int, len(order))
	for x, o := range order {
		keys[x], sizes[x] = sum.Keys[o], sum.Sizes[o]
	}
	sum.Keys, sum.Sizes = keys, sizes
	return sum, nil
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
	sizes := make([]int, len(parts))
	for x, pt := range parts {
		ids := make([]int, len(pt.Index))
		for x, i := range pt.Index {
			if i < 0 || int(i) >= n || seen[i] {
				return nil, fmt.Errorf("pipeline: internal error: record %d in two parts or out of range", i)
			}
			seen[i] = true
			ids[x] = int(i)
		}
		res.Parts = append(res.Parts, ids)
		sizes[x] = len(ids)
		for lj, m := range pt.Matched {
			gm := make([]int32, len(m))
			for x, li := range m {
				gm[x] = int32(ids[li])
			}
			slices.Sort(gm)
			res.Graph.Matched[ids[lj]] = gm
			res.Assignment[ids[lj]] = ids[pt.Assignment[lj]]
		}
	}
	next := make([]int, len(parts))
	Interleave(cfg.Seed, sizes, func(s int) error {
		res.PublishOrder = append(res.PublishOrder, res.Parts[s][parts[s].PublishOrder[next[s]]])
		next[s]++
		return nil
	})
	if err := res.Graph.CheckRegular(cfg.K); err != nil {
		return nil, fmt.Errorf("pipeline: internal error: %w", err)
	}
	return res, nil
}

// Interleave calls next once per record of the parts (sizes[s] records
// in part s), with the part whose next record is published: a seeded
// uniformly random interleaving, each step choosing part s with
// probability (records of s left) / (records left), so that the parts'
// own uniformly random publish orders (kanon.Result.PublishOrder) merge
// into a uniformly random order of all records, streamed: no more memory
// than one counter per part. One part is its own order. It stops at the
// first error of next.
func Interleave(seed uint64, sizes []int, next func(s int) error) error {
	f := newFenwick(sizes)
	rng := rand.New(rand.NewPCG(seed, streamPublish))
	for left := f.total; left > 0; left-- {
		s := f.find(rng.IntN(left))
		f.add(s, -1)
		if err := next(s); err != nil {
			return err
		}
	}
	return nil
}

// fenwick is a binary indexed tree of counts (Fenwick, Software:
// Practice and Experience 24(3), 1994) for the weighted draw of
// Interleave in O(log parts).
type fenwick struct {
	tree  []int
	total int
}

func newFenwick(sizes []int) *fenwick {
	f := &fenwick{tree: make([]int, len(sizes)+1)}
	for s, c := range sizes {
		f.add(s, c)
	}
	return f
}

func (f *fenwick) add(s, v int) {
	f.total += v
	for i := s + 1; i < len(f.tree); i += i & -i {
		f.tree[i] += v
	}
}

// find returns the part s with prefix(s) <= u < prefix(s+1).
func (f *fenwick) find(u int) int {
	pos := 0
	for step := 1 << bits.Len(uint(len(f.tree)-1)); step > 0; step >>= 1 {
		if nxt := pos + step; nxt < len(f.tree) && f.tree[nxt] <= u {
			pos = nxt
			u -= f.tree[nxt]
		}
	}
	return pos
}

const streamPublish = 0x7069_7065_0002

// checkKanon validates the input of Kanon and fills in the defaults.
func checkKanon(t *model.QITable, c *KanonConfig) error {
	if t == nil || t.N == 0 {
		return errors.New("pipeline: empty table")
	}
	if err := t.Check(); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	if err := checkKanonConfig(c); err != nil {
		return err
	}
	return checkKanonN(t.N, t.Attrs, *c)
}

// checkKanonConfig validates a configuration and fills in the defaults.
func checkKanonConfig(c *KanonConfig) error {
	cfg := *c
	if cfg.Method == "" {
		cfg.Method = kanon.MethodSortGreedy
	}
	if !slices.Contains(kanon.Freeform(), cfg.Method) {
		return fmt.Errorf("pipeline: method %q: the pipeline runs the freeform methods %v", cfg.Method, kanon.Freeform())
	}
	if cfg.K < 1 {
		return fmt.Errorf("%w: k = %d (want k >= 1)", kanon.ErrK, cfg.K)
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

// checkKanonN checks the number of records and the attributes against
// a configuration.
func checkKanonN(n int, attrs []model.QIAttr, cfg KanonConfig) error {
	if n == 0 {
		return errors.New("pipeline: no records")
	}
	if len(attrs) == 0 {
		return errors.New("pipeline: no quasi-identifiers")
	}
	if cfg.K > n {
		return fmt.Errorf("%w: k = %d for %d records (want 1 <= k <= n)", kanon.ErrK, cfg.K, n)
	}
	return nil
}
