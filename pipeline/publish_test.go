package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
)

func TestRecCodingRoundTrip(t *testing.T) {
	r := Rec{
		I:    []int64{7, 3, 1 << 40, 0},
		X:    []float64{0, math.Copysign(0, -1), -1, 90, 1.5, -3.25e-300, 1 << 53, -(1 << 52), math.MaxFloat64, 1e300, 42, 0.1},
		Row:  []int64{9, 4, 1<<40 + 2, 1},
		Rest: []string{"a;b", "", "x\ny", "é,\"q\""},
	}
	got, err := decodeRec(encodeRec(r))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.I, r.I) || !slices.Equal(got.Row, r.Row) || !slices.Equal(got.Rest, r.Rest) || len(got.X) != len(r.X) {
		t.Fatalf("got %+v, want %+v", got, r)
	}
	for x := range r.X {
		if math.Float64bits(got.X[x]) != math.Float64bits(r.X[x]) {
			t.Fatalf("value %d: %v, want %v (bits differ)", x, got.X[x], r.X[x])
		}
	}
	noRow := Rec{I: []int64{1, 2}, X: []float64{3, 4}}
	if got, err := decodeRec(encodeRec(noRow)); err != nil || got.Row != nil || !slices.Equal(got.X, noRow.X) {
		t.Fatalf("%+v %v", got, err)
	}
	// Truncated or corrupted batches are errors, never panics.
	b := encodeRec(r)
	for cut := range len(b) {
		if _, err := decodeRec(b[:cut]); err == nil {
			t.Fatalf("a batch cut at %d of %d bytes decoded", cut, len(b))
		}
	}
	if _, err := decodeRec([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}); err == nil {
		t.Fatal("a huge count decoded")
	}
}

// TestInterleaveUniform: the three interleavings of parts of 2 and 1
// records come with about equal frequency over seeds, and each part's
// records come out in their own order.
func TestInterleaveUniform(t *testing.T) {
	count := map[string]int{}
	const runs = 3000
	for seed := range uint64(runs) {
		var s strings.Builder
		Interleave(seed, []int{2, 1}, func(p int) error { fmt.Fprint(&s, p); return nil })
		count[s.String()]++
	}
	if len(count) != 3 {
		t.Fatalf("interleavings %v", count)
	}
	for k, c := range count {
		// Binomial(3000, 1/3): sd 25.8; 5 sd.
		if math.Abs(float64(c)-runs/3) > 130 {
			t.Errorf("interleaving %s: %d of %d", k, c, runs)
		}
	}
}

// withRest returns q with an extra column "id" (published unchanged) and
// an extra data row, dropped, before record 5, so that data rows and
// record indices differ.
func withRest(q *datasets.QIData) *datasets.QIData {
	o := &datasets.QIData{Table: q.Table, Header: append(slices.Clone(q.Header), "id"), QICols: q.QICols, Dropped: 1}
	for i, rec := range q.Records {
		if i == 5 {
			o.Records = append(o.Records, append(make([]string, len(q.Header)), "dropped"))
		}
		o.Records = append(o.Records, append(slices.Clone(rec), fmt.Sprintf("id,%d", i)))
	}
	for i := range q.Rows {
		r := i
		if i >= 5 {
			r++
		}
		o.Rows = append(o.Rows, r)
	}
	return o
}

func publish(t *testing.T, src Source, cfg KanonConfig) (*Publication, []byte, []byte) {
	t.Helper()
	var pub, graph bytes.Buffer
	p, err := KanonPublish(context.Background(), src, cfg, &pub, &graph)
	if err != nil {
		t.Fatal(err)
	}
	return p, pub.Bytes(), graph.Bytes()
}

// TestKanonPublishIsSingleProcess: the streamed publication on prism is
// byte for byte the single-process one (KanonLocal's result written by
// kanon.WritePublished and kanon.WriteGraph), with a column published
// unchanged and a dropped data row, and passes the verification of
// `sdcopt kanon verify` as a whole.
func TestKanonPublishIsSingleProcess(t *testing.T) {
	q := withRest(QIDataOf(datasets.SyntheticQI(2400, 7)))
	src := QISource(q, []int{len(q.Header) - 1})
	cfg := KanonConfig{K: 4, Method: kanon.MethodGreedy, Partition: 150, Coarse: 800, Seed: 11}
	p, pub, graph := publish(t, src, cfg)
	if p.Parts < 3 || p.N != 2400 || p.Edges != 2400*4 {
		t.Fatalf("%+v", p)
	}
	loc := cfg
	loc.Runner.Name = RunnerSingle
	lp, lpub, lgraph := publish(t, src, loc)
	if !bytes.Equal(pub, lpub) || !bytes.Equal(graph, lgraph) {
		t.Fatal("the pipeline's files differ from the single-process ones")
	}
	if math.Abs(lp.GCP-p.GCP) > 1e-12 {
		t.Fatalf("GCP %v, single process %v", p.GCP, lp.GCP)
	}
	res, err := KanonLocal(q.Table, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := kanon.WritePublished(&want, q, res.Result, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pub, want.Bytes()) {
		t.Fatal("published file differs from KanonLocal's")
	}
	pp, err := kanon.ReadPublished(bytes.NewReader(pub), "pub", q)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := kanon.ReadGraph(bytes.NewReader(graph), "graph")
	if err != nil {
		t.Fatal(err)
	}
	gcp := p.GCP
	if _, err := kanon.VerifyPublication(q, pp, edges, cfg.K, &gcp, "pub", "graph"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pub), "\"id,17\"") {
		t.Fatal("the unchanged column is not published")
	}
}

// TestSyntheticSourceIsTable: the generated source is the table of
// datasets.SyntheticQI, so its publication is the in-memory one.
func TestSyntheticSourceIsTable(t *testing.T) {
	const n, seed = 1500, 3
	cfg := KanonConfig{K: 3, Partition: 200, Coarse: 600, Seed: 2}
	_, pub, graph := publish(t, SyntheticSource(n, seed), cfg)
	q := QIDataOf(datasets.SyntheticQI(n, seed))
	_, qpub, qgraph := publish(t, QISource(q, nil), cfg)
	if !bytes.Equal(pub, qpub) || !bytes.Equal(graph, qgraph) {
		t.Fatal("synthetic source and table give different publications")
	}
	var rows int
	src := SyntheticSource(n, seed)
	attrs, nr, err := src.Scan(func(i int64, x []float64, row int64, rest []string) error {
		if !slices.Equal(x, q.Table.Row(int(i))) || row != i {
			return fmt.Errorf("record %d differs", i)
		}
		rows++
		return nil
	})
	if err != nil || rows != n || nr != n || attrs[0].Min != q.Table.Attrs[0].Min || attrs[0].Max != q.Table.Attrs[0].Max {
		t.Fatalf("%v: %d records, %d rows; attrs %+v", err, rows, nr, attrs[0])
	}
}
