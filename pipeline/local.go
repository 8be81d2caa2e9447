package pipeline

import (
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// The single-process path on the same coarse parts: the sample, the split
// tree and the routing of the pipeline computed in this process, then
// the parts solved one after the other by the same functions, each with
// all the workers of kanon.Anonymize. It is the reference the pipeline is
// compared with (tests, bench/README.md), and a way to run without Beam.

// CoarseParts returns the coarse parts of the n records of row-major x (d
// values each, attributes attrs) that the pipeline computes with the same
// coarse size and seed: record indices, ascending, by key (parts that
// receive no record are left out, as the pipeline has no element for
// them).
func CoarseParts(attrs []model.QIAttr, x []float64, n, coarse int, seed uint64) ([][]int, error) {
	_, parts, err := keyedParts(attrs, x, n, coarse, seed)
	return parts, err
}

// keyedParts keys the non-empty parts as the pipeline does (by leaf).
func keyedParts(attrs []model.QIAttr, x []float64, n, coarse int, seed uint64) ([]int, [][]int, error) {
	d := len(attrs)
	rate := SampleRate(min(coarse, n))
	minSample := max(1, int(math.Round(rate*float64(coarse)/2)))
	var sample [][]float64
	for i := range n {
		if InSample(seed, int64(i), rate) {
			sample = append(sample, x[i*d:(i+1)*d])
		}
	}
	tr := &Tree{Nodes: []Node{{Leaf: 0}}}
	if len(sample) > 0 {
		var err error
		if tr, err = BuildTree(attrs, sample, minSample); err != nil {
			return nil, nil, err
		}
	}
	parts := make([][]int, tr.Parts())
	for i := range n {
		k := tr.Route(x[i*d : (i+1)*d])
		parts[k] = append(parts[k], i)
	}
	var keys []int
	var out [][]int
	for k, p := range parts {
		if len(p) > 0 {
			keys = append(keys, k)
			out = append(out, p)
		}
	}
	return keys, out, nil
}

func subRows(x []float64, d int, ids []int) ([]float64, []int64) {
	sx := make([]float64, 0, len(ids)*d)
	idx := make([]int64, len(ids))
	for j, i := range ids {
		sx = append(sx, x[i*d:(i+1)*d]...)
		idx[j] = int64(i)
	}
	return sx, idx
}

// KanonLocal is Kanon without Beam: the same coarse parts, solved one
// after the other in this process with workers goroutines each (0 =
// GOMAXPROCS); the result is Kanon's (the graph, the assignment, the
// publish order and the GCP up to rounding).
func KanonLocal(t *model.QITable, cfg KanonConfig, workers int) (*KanonResult, error) {
	start := time.Now()
	if err := checkKanon(t, &cfg); err != nil {
		return nil, err
	}
	keys, ids, err := keyedParts(t.Attrs, t.X, t.N, cfg.Coarse, cfg.Seed)
	if err != nil {
		return nil, err
	}
	var parts []*kanonPart
	var sum kanonSummary
	for x, key := range keys {
		sx, idx := subRows(t.X, t.D(), ids[x])
		sub := &model.QITable{Attrs: t.Attrs, N: len(idx), X: sx}
		r, s, err := kanonSolve(sub, key, cfg.K, cfg.Method, cfg.Partition, cfg.Seed, cfg.MIPSolver, workers)
		if err != nil {
			return nil, err
		}
		parts = append(parts, partOf(key, idx, r))
		sum = mergeSummary(sum, s)
	}
	res, err := assembleKanon(t.N, cfg, parts, sum)
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// MicroaggLocal is Microagg without Beam: the same coarse parts, MDAV on
// each one after the other in this process; the result is Microagg's (SSE
// and SST up to rounding).
func MicroaggLocal(z *model.Dataset, cfg MicroaggConfig) (*MicroaggResult, error) {
	start := time.Now()
	attrs, err := checkMicroagg(z, &cfg)
	if err != nil {
		return nil, err
	}
	keys, ids, err := keyedParts(attrs, z.X, z.N, cfg.Coarse, cfg.Seed)
	if err != nil {
		return nil, err
	}
	xs, w := stagedRows(z, &cfg)
	var om Moments
	for i := 0; i < z.N; i += StageBatch {
		hi := min(z.N, i+StageBatch)
		om = mergeMoments(om, recMoments(Rec{I: make([]int64, hi-i), X: xs[i*w : hi*w]}))
	}
	var parts []*microPart
	var sum Moments
	var pairs []Rec
	for x, key := range keys {
		sx, idx := subRows(xs, w, ids[x])
		pt, m, pr, err := microSolve(z.Names, sx, idx, key, cfg.K, cfg.ICSM, cfg.ICSMRounds, &om, cfg.Digits)
		if err != nil {
			return nil, err
		}
		parts = append(parts, pt)
		sum = mergeMoments(sum, m)
		pairs = append(pairs, pr...)
	}
	half := intervalHalf(&sum, cfg.IntervalP)
	var atRisk IntervalCounts
	for _, r := range pairs {
		atRisk = addCounts(atRisk, intervalCount(r, half))
	}
	res, err := assembleMicro(z.N, parts, sum, atRisk, cfg.IntervalP)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
