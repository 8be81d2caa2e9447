package pipeline

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
)

// sub returns the records idx (ascending) of t as a table sharing t's
// attributes, as a worker builds a coarse part.
func sub(t *model.QITable, idx []int) *model.QITable {
	s := &model.QITable{Attrs: t.Attrs, N: len(idx)}
	for _, i := range idx {
		s.X = append(s.X, t.Row(i)...)
	}
	return s
}

// singleMachineParts is the single-machine path on given coarse parts:
// kanon.Anonymize on each with the part's seed, in global indices.
func singleMachineParts(t *testing.T, q *model.QITable, parts [][]int, k int, method string, partition int, seed uint64) (*model.GenGraph, []int, float64) {
	t.Helper()
	g := &model.GenGraph{N: q.N, Matched: make([][]int32, q.N)}
	asg := make([]int, q.N)
	gcpSum := 0.0
	for key, ids := range parts {
		p := partition
		if p >= len(ids) {
			p = 0
		}
		res, err := kanon.Anonymize(sub(q, ids), k, &kanon.Options{Method: method, Partition: p, Seed: PartSeed(seed, key), Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for lj, m := range res.Graph.Matched {
			gm := make([]int32, len(m))
			for x, li := range m {
				gm[x] = int32(ids[li])
			}
			slices.Sort(gm)
			g.Matched[ids[lj]] = gm
			asg[ids[lj]] = ids[res.Assignment[lj]]
		}
		gcpSum += float64(len(ids)) * res.GCP
	}
	return g, asg, gcpSum / float64(q.N)
}

// verify writes the published and graph files of res and verifies them
// as `sdcopt kanon verify` does.
func verify(t *testing.T, qd *datasets.QIData, res *kanon.Result, k int) {
	t.Helper()
	var pub, graph bytes.Buffer
	if err := kanon.WritePublished(&pub, qd, res, nil); err != nil {
		t.Fatal(err)
	}
	if err := kanon.WriteGraph(&graph, qd, res); err != nil {
		t.Fatal(err)
	}
	pp, err := kanon.ReadPublished(&pub, "published.csv", qd)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := kanon.ReadGraph(&graph, "graph.csv")
	if err != nil {
		t.Fatal(err)
	}
	gcp := res.GCP
	v, err := kanon.VerifyPublication(qd, pp, edges, k, &gcp, "published.csv", "graph.csv")
	if err != nil {
		t.Fatalf("verification: %v", err)
	}
	if v.N != qd.Table.N || v.Edges != qd.Table.N*k {
		t.Fatalf("verified %d records, %d edges; want %d, %d", v.N, v.Edges, qd.Table.N, qd.Table.N*k)
	}
}

// TestKanonPartsMatchSingleMachine runs the pipeline on prism with several
// coarse parts and compares each part with kanon.Anonymize on the same
// records and seed.
func TestKanonPartsMatchSingleMachine(t *testing.T) {
	q := datasets.SyntheticQI(2400, 7)
	const k, partition, seed = 4, 150, 11
	res, err := Kanon(context.Background(), q, KanonConfig{K: k, Method: kanon.MethodGreedy, Partition: partition, Coarse: 800, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) < 3 {
		t.Fatalf("%d coarse parts of 2400 records at coarse size 800, want at least 3", len(res.Parts))
	}
	var all []int
	for key, p := range res.Parts {
		if len(p) < k || len(p) > 2*800 {
			t.Errorf("coarse part %d has %d records", key, len(p))
		}
		all = append(all, p...)
	}
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("the coarse parts do not cover the records exactly once (at %d: %d)", i, v)
		}
	}
	g, asg, gcp := singleMachineParts(t, q, res.Parts, k, kanon.MethodGreedy, partition, seed)
	for j := range g.Matched {
		if !slices.Equal(g.Matched[j], res.Graph.Matched[j]) {
			t.Fatalf("published record %d: pipeline edges %v, single machine %v", j, res.Graph.Matched[j], g.Matched[j])
		}
	}
	if !slices.Equal(asg, res.Assignment) {
		t.Fatal("assignments differ from the single-machine path")
	}
	if math.Abs(gcp-res.GCP) > 1e-12 || math.Abs(q.GCP(res.Graph)-res.GCP) > 1e-9 {
		t.Fatalf("GCP %v, single machine %v, recomputed %v", res.GCP, gcp, q.GCP(res.Graph))
	}
	verify(t, QIDataOf(q), res.Result, k)
}

// TestKanonOnePartIsSingleMachine: with one coarse part the pipeline is
// the single-machine command: same graph, assignment, publish order, GCP.
func TestKanonOnePartIsSingleMachine(t *testing.T) {
	q := datasets.SyntheticQI(900, 3)
	const k, partition, seed = 5, 200, 2
	for _, m := range []string{kanon.MethodSortGreedy, kanon.MethodHungarian} {
		res, err := Kanon(context.Background(), q, KanonConfig{K: k, Method: m, Partition: partition, Coarse: 1000, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		want, err := kanon.Anonymize(q, k, &kanon.Options{Method: m, Partition: partition, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Parts) != 1 || res.Partitions != want.Partitions {
			t.Fatalf("%s: %d parts, %d partitions; want 1, %d", m, len(res.Parts), res.Partitions, want.Partitions)
		}
		for j := range want.Graph.Matched {
			if !slices.Equal(want.Graph.Matched[j], res.Graph.Matched[j]) {
				t.Fatalf("%s: published record %d differs", m, j)
			}
		}
		if !slices.Equal(want.Assignment, res.Assignment) || !slices.Equal(want.PublishOrder, res.PublishOrder) {
			t.Fatalf("%s: assignment or publish order differs", m)
		}
		if math.Abs(want.GCP-res.GCP) > 1e-12 {
			t.Fatalf("%s: GCP %v, single machine %v", m, res.GCP, want.GCP)
		}
		qd := QIDataOf(q)
		var a, b bytes.Buffer
		if err := kanon.WritePublished(&a, qd, want, nil); err != nil {
			t.Fatal(err)
		}
		if err := kanon.WritePublished(&b, qd, res.Result, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%s: published files differ", m)
		}
	}
}

func TestKanonBadInput(t *testing.T) {
	q := datasets.SyntheticQI(50, 1)
	for _, cfg := range []KanonConfig{
		{K: 0}, {K: 3, Method: kanon.MethodMondrian}, {K: 3, Partition: 2}, {K: 3, Coarse: 4},
		{K: 3, Runner: Runner{Name: RunnerPortable}}, {K: 3, Runner: Runner{Name: RunnerPortable, Endpoint: "host:x"}},
		{K: 3, Runner: Runner{Name: "flink"}}, {K: 3, Runner: Runner{Endpoint: "localhost:8099"}},
	} {
		if _, err := Kanon(context.Background(), q, cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

func TestTreeRoute(t *testing.T) {
	q := datasets.SyntheticQI(4000, 5)
	var rows [][]float64
	for i := range q.N {
		rows = append(rows, q.Row(i))
	}
	tr, err := BuildTree(q.Attrs, rows, 250)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, tr.Parts())
	for _, r := range rows {
		counts[tr.Route(r)]++
	}
	// On its own sample every leaf has minSample to 2·minSample−1 points
	// unless equal values prevent a split.
	for l, c := range counts {
		if c < 250 {
			t.Errorf("leaf %d has %d points, want at least 250", l, c)
		}
	}
	if len(counts) < 4 {
		t.Errorf("%d leaves of 4000 points at 250, want at least 4", len(counts))
	}
}

// TestKanonLocalIsPipeline: the single-process path on the same coarse
// parts gives the pipeline's result.
func TestKanonLocalIsPipeline(t *testing.T) {
	q := datasets.SyntheticQI(1500, 9)
	cfg := KanonConfig{K: 3, Method: kanon.MethodSortGreedy, Partition: 120, Coarse: 500, Seed: 5}
	res, err := Kanon(context.Background(), q, cfg)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := KanonLocal(q, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := CoarseParts(q.Attrs, q.X, q.N, cfg.Coarse, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != len(res.Parts) || len(loc.Parts) != len(res.Parts) {
		t.Fatalf("%d / %d / %d coarse parts", len(parts), len(loc.Parts), len(res.Parts))
	}
	for x := range parts {
		if !slices.Equal(parts[x], res.Parts[x]) || !slices.Equal(loc.Parts[x], res.Parts[x]) {
			t.Fatalf("coarse part %d differs", x)
		}
	}
	for j := range loc.Graph.Matched {
		if !slices.Equal(loc.Graph.Matched[j], res.Graph.Matched[j]) {
			t.Fatalf("published record %d differs", j)
		}
	}
	if !slices.Equal(loc.Assignment, res.Assignment) || !slices.Equal(loc.PublishOrder, res.PublishOrder) || math.Abs(loc.GCP-res.GCP) > 1e-12 {
		t.Fatal("assignment, publish order or GCP differs")
	}
}
