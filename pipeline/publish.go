package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
)

// A streamed publication. KanonPublish never holds the records: a Source
// stages them one at a time, each worker anonymizes its coarse part,
// writes the part's published rows and graph lines (the files of
// kanon.WritePublished and kanon.WriteGraph for the part alone) and
// verifies them with kanon.VerifyPublication against the part's records,
// and the driver merges the parts' files into the published file and the
// graph file by Interleave, renumbering the published rows, reading one
// row of one part at a time.
//
// The verification stays complete. kanon.VerifyPublication's checks are
// about the rows of a connected component of the graph, and every edge
// stays inside its coarse part: each part's files pass it whole (every
// row has k edges, one own and one assigned edge, one-to-one; every
// original has degree k and lies in every box it is linked to; every
// component is k-regular; the unchanged cells are the assigned
// original's; the part's GCP is the GCP of its boxes, recomputed). The
// merge then checks what joins the parts: every part yields exactly its
// verified rows and graph lines in their order (consecutive published
// rows, each with at least k edges), every data row is the own original
// of exactly one published row of the whole file (a bit per data row),
// and the published rows are numbered 1..n in the order written. The
// whole graph is then the disjoint union of verified graphs under a
// one-to-one renumbering, so it passes the same checks, and the GCP, an
// average over rows with global NCP denominators, is Σ n_p·GCP_p / n.

// Source is the input of KanonPublish, read once, in order, without
// being held. Header and QICols describe the input's columns (as
// datasets.QIData), Rest the header indices of the columns published
// unchanged (ascending; nil: the quasi-identifiers only). Scan calls add
// once per kept record, in order: index i = 0, 1, ...; x its
// quasi-identifier values, coded as the returned attributes code them;
// row its 0-based data row in the input; rest its cells of the columns
// Rest. Scan returns the attributes (whose numeric ranges are known only
// after the pass) and the number of data rows of the input (rows
// dropped for missing values included).
type Source struct {
	Header []string
	QICols []int
	Rest   []int
	Scan   func(add func(i int64, x []float64, row int64, rest []string) error) (attrs []model.QIAttr, rows int, err error)
}

// SyntheticSource is datasets.NewSyntheticQI(n, seed) as a Source,
// generated record by record (datasets.SyntheticQIRows): the columns are
// the 8 quasi-identifiers.
func SyntheticSource(n int, seed uint64) Source {
	names := []string{}
	attrs, _ := datasets.SyntheticQIRows(0, seed, func([]float64) error { return nil })
	cols := make([]int, len(attrs))
	for a := range attrs {
		names = append(names, attrs[a].Name)
		cols[a] = a
	}
	return Source{Header: names, QICols: cols, Scan: func(add func(int64, []float64, int64, []string) error) ([]model.QIAttr, int, error) {
		i := int64(0)
		attrs, err := datasets.SyntheticQIRows(n, seed, func(row []float64) error {
			err := add(i, row, i, nil)
			i++
			return err
		})
		return attrs, n, err
	}}
}

// QISource is data loaded in memory (datasets.LoadQI) as a Source that
// publishes the columns rest unchanged (header indices; nil: none).
func QISource(q *datasets.QIData, rest []int) Source {
	rest = slices.Clone(rest)
	slices.Sort(rest)
	return Source{Header: q.Header, QICols: q.QICols, Rest: rest, Scan: func(add func(int64, []float64, int64, []string) error) ([]model.QIAttr, int, error) {
		cells := make([]string, len(rest))
		for i, row := range q.Rows {
			for x, c := range rest {
				cells[x] = q.Records[row][c]
			}
			if err := add(int64(i), q.Table.Row(i), int64(row), cells); err != nil {
				return nil, 0, err
			}
		}
		return q.Table.Attrs, len(q.Records), nil
	}}
}

// Publication is what KanonPublish wrote and verified.
type Publication struct {
	N, K       int     // records and the k verified
	GCP        float64 // Σ n_p·GCP_p / n over the verified parts
	Parts      int     // coarse parts
	Partitions int
	Edges      int // lines of the graph file
	Seconds    float64
}

// publishSpec tells the workers the columns of the published file.
type publishSpec struct {
	Header []string
	QICols []int
	Rest   []int
}

// cols is the publication's column list for kanon.NewLayout.
func (s *publishSpec) cols() []int {
	if len(s.Rest) == 0 {
		return nil
	}
	return append(slices.Clone(s.QICols), s.Rest...)
}

func shardName(kind string, key int) string { return fmt.Sprintf("%s-%06d.csv", kind, key) }

// KanonPublish k-anonymizes the records of src as Kanon does (the same
// coarse parts, methods and seeds) and writes the published file to pub
// and the graph file to graph (the files of kanon.WritePublished and
// kanon.WriteGraph, which `sdcopt kanon verify` reads), streaming: the
// records are staged as they are scanned and neither this process nor a
// worker holds more than a coarse part (see the comment above Source for
// the verification, which is complete). On the single runner the records
// are gathered in memory and KanonLocal's result is written: the same
// files. A failure leaves pub and graph partly written: write them to
// temporary files (cli.Outputs).
func KanonPublish(ctx context.Context, src Source, cfg KanonConfig, pub, graph io.Writer) (*Publication, error) {
	start := time.Now()
	if err := checkKanonConfig(&cfg); err != nil {
		return nil, err
	}
	spec := publishSpec{Header: src.Header, QICols: src.QICols, Rest: src.Rest}
	if cfg.Runner.Name == RunnerSingle {
		return kanonPublishLocal(src, cfg, &spec, pub, graph, start)
	}
	dir, cleanup, err := cfg.Runner.workDir(ctx)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	st, err := newStager(ctx, dir)
	if err != nil {
		return nil, err
	}
	attrs, rows, err := src.Scan(st.add)
	if err != nil {
		st.abort()
		return nil, err
	}
	input, err := st.close()
	if err != nil {
		return nil, err
	}
	n := st.n
	if err := checkKanonN(n, attrs, cfg); err != nil {
		return nil, err
	}
	sj, err := json.Marshal(&spec)
	if err != nil {
		return nil, err
	}
	sum, err := runKanon(ctx, cfg, attrs, n, dir, input, string(sj))
	if err != nil {
		return nil, err
	}
	q := &datasets.QIData{Header: spec.Header, QICols: spec.QICols}
	l, err := kanon.NewLayout(q, spec.cols())
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	edges, err := mergePublication(ctx, dir, sum, cfg, l.Header(q), rows, pub, graph)
	if err != nil {
		return nil, err
	}
	return &Publication{N: n, K: cfg.K, GCP: sum.GCPSum / float64(n), Parts: sum.Parts, Partitions: sum.Partitions,
		Edges: edges, Seconds: time.Since(start).Seconds()}, nil
}

// kanonPublishLocal is KanonPublish on the single runner.
func kanonPublishLocal(src Source, cfg KanonConfig, spec *publishSpec, pub, graph io.Writer, start time.Time) (*Publication, error) {
	q := &datasets.QIData{Header: spec.Header, QICols: spec.QICols}
	var x []float64
	type kept struct {
		row  int64
		rest []string
	}
	var recs []kept
	attrs, rows, err := src.Scan(func(i int64, v []float64, row int64, rest []string) error {
		x = append(x, v...)
		recs = append(recs, kept{row, slices.Clone(rest)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	q.Table = &model.QITable{Attrs: attrs, N: len(recs), X: x}
	q.Records = make([][]string, rows)
	for i, r := range recs {
		q.Rows = append(q.Rows, int(r.row))
		rec := make([]string, len(spec.Header))
		for x, c := range spec.Rest {
			rec[c] = r.rest[x]
		}
		if r.row < 0 || int(r.row) >= rows {
			return nil, fmt.Errorf("pipeline: record %d: data row %d outside 0..%d", i, r.row, rows-1)
		}
		q.Records[r.row] = rec
	}
	res, err := KanonLocal(q.Table, cfg, 0)
	if err != nil {
		return nil, err
	}
	if err := kanon.WritePublished(pub, q, res.Result, spec.cols()); err != nil {
		return nil, err
	}
	if err := kanon.WriteGraph(graph, q, res.Result); err != nil {
		return nil, err
	}
	edges := 0
	for _, m := range res.Graph.Matched {
		edges += len(m)
	}
	return &Publication{N: q.Table.N, K: cfg.K, GCP: res.GCP, Parts: len(res.Parts), Partitions: res.Partitions,
		Edges: edges, Seconds: time.Since(start).Seconds()}, nil
}

// publishPart writes the published rows (without the header) and the
// graph lines (original = data row in the input, published = row of the
// part's file) of a solved coarse part, after verifying the part's files
// with kanon.VerifyPublication.
func publishPart(spec *publishSpec, p *partRecs, res *kanon.Result, k int) ([]byte, []byte, error) {
	n, c := p.T.N, len(spec.Rest)
	q := &datasets.QIData{Table: p.T, Header: spec.Header, QICols: spec.QICols, Rows: make([]int, n), Records: make([][]string, n)}
	for i := range n {
		q.Rows[i] = i
		rec := make([]string, len(spec.Header))
		for x, j := range spec.Rest {
			rec[j] = p.Rest[i*c+x]
		}
		q.Records[i] = rec
	}
	var pub, graph bytes.Buffer
	if err := kanon.WritePublished(&pub, q, res, spec.cols()); err != nil {
		return nil, nil, err
	}
	if err := kanon.WriteGraph(&graph, q, res); err != nil {
		return nil, nil, err
	}
	pp, err := kanon.ReadPublished(bytes.NewReader(pub.Bytes()), "published part", q)
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: %w", err)
	}
	edges, err := kanon.ReadGraph(bytes.NewReader(graph.Bytes()), "graph part")
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: %w", err)
	}
	gcp := res.GCP
	if _, err := kanon.VerifyPublication(q, pp, edges, k, &gcp, "published part", "graph part"); err != nil {
		return nil, nil, fmt.Errorf("internal error: the part's publication failed verification: %w", err)
	}
	// Drop the header row, as csv.Writer wrote it.
	var hb bytes.Buffer
	hw := csv.NewWriter(&hb)
	hw.Write(pp.Layout.Header(q))
	hw.Flush()
	body, ok := bytes.CutPrefix(pub.Bytes(), hb.Bytes())
	if !ok {
		return nil, nil, errors.New("internal error: the part's published file does not start with its header")
	}
	g := make([]byte, 0, len(edges)*24)
	for _, e := range edges {
		g = strconv.AppendInt(g, p.Rows[e.Original-1]+1, 10)
		g = append(g, ',')
		g = strconv.AppendInt(g, int64(e.Published), 10)
		g = append(g, ',', b01(e.Own), ',', b01(e.Assigned), '\n')
	}
	return body, g, nil
}

func b01(v bool) byte {
	if v {
		return '1'
	}
	return '0'
}

// shardReader reads one part's files in the merge.
type shardReader struct {
	key    int
	pr     *csv.Reader
	gr     *bufio.Reader
	closes []io.Closer
	row    int // published rows read
	// the next graph line, read ahead
	has             bool
	orig, pub       int
	own, asg, atEOF bool
}

// peek reads the next graph line ahead (atEOF at the end).
func (s *shardReader) peek() error {
	if s.has || s.atEOF {
		return nil
	}
	line, err := s.gr.ReadSlice('\n')
	if err == io.EOF && len(line) == 0 {
		s.atEOF = true
		return nil
	}
	if err != nil {
		return err
	}
	f := bytes.Split(bytes.TrimSuffix(line, []byte{'\n'}), []byte{','})
	if len(f) != 4 || len(f[2]) != 1 || len(f[3]) != 1 {
		return fmt.Errorf("graph line %q", line)
	}
	if s.orig, err = strconv.Atoi(string(f[0])); err != nil {
		return err
	}
	if s.pub, err = strconv.Atoi(string(f[1])); err != nil {
		return err
	}
	s.own, s.asg, s.has = f[2][0] == '1', f[3][0] == '1', true
	return nil
}

// mergePublication merges the parts' files into pub and graph (see the
// comment above Source) and returns the number of graph lines.
func mergePublication(ctx context.Context, dir string, sum kanonSummary, cfg KanonConfig, header []string, rows int, pub, graph io.Writer) (int, error) {
	shards := make([]*shardReader, len(sum.Keys))
	defer func() {
		for _, s := range shards {
			if s != nil {
				for _, c := range s.closes {
					c.Close()
				}
			}
		}
	}()
	for x, key := range sum.Keys {
		s := &shardReader{key: key}
		shards[x] = s
		for _, kind := range []string{"pub", "graph"} {
			path := joinPath(dir, shardName(kind, key))
			fs, err := filesystem.New(ctx, path)
			if err != nil {
				return 0, fmt.Errorf("pipeline: %w", err)
			}
			s.closes = append(s.closes, fs)
			r, err := fs.OpenRead(ctx, path)
			if err != nil {
				return 0, fmt.Errorf("pipeline: coarse part %d: %w", key, err)
			}
			s.closes = append(s.closes, r)
			if kind == "pub" {
				s.pr = csv.NewReader(bufio.NewReaderSize(r, 1<<16))
				s.pr.FieldsPerRecord = len(header)
				s.pr.ReuseRecord = true
			} else {
				s.gr = bufio.NewReaderSize(r, 1<<16)
			}
		}
	}
	cw := csv.NewWriter(pub)
	if err := cw.Write(header); err != nil {
		return 0, err
	}
	if _, err := io.WriteString(graph, "original,published,own,assigned\n"); err != nil {
		return 0, err
	}
	own := make([]uint64, (rows+63)/64)
	p, edges, owns := 0, 0, 0
	var line []byte
	bad := func(s *shardReader, format string, args ...any) error {
		return fmt.Errorf("pipeline: internal error: coarse part %d, its published row %d: %s", s.key, s.row, fmt.Sprintf(format, args...))
	}
	err := Interleave(cfg.Seed, sum.Sizes, func(x int) error {
		s := shards[x]
		rec, err := s.pr.Read()
		if err != nil {
			return bad(s, "reading the published rows: %v", err)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
		s.row++
		p++
		deg := 0
		for {
			if err := s.peek(); err != nil {
				return bad(s, "reading the graph: %v", err)
			}
			if !s.has || s.pub != s.row {
				break
			}
			s.has = false
			if s.orig < 1 || s.orig > rows {
				return bad(s, "original %d outside the %d data rows", s.orig, rows)
			}
			if s.own {
				o := s.orig - 1
				if own[o/64]&(1<<(o%64)) != 0 {
					return bad(s, "data row %d is the own original of two published rows", s.orig)
				}
				own[o/64] |= 1 << (o % 64)
				owns++
			}
			line = strconv.AppendInt(line[:0], int64(s.orig), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(p), 10)
			line = append(line, ',', b01(s.own), ',', b01(s.asg), '\n')
			if _, err := graph.Write(line); err != nil {
				return err
			}
			deg++
			edges++
		}
		if deg < cfg.K {
			return bad(s, "%d edges, want at least k = %d", deg, cfg.K)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return 0, err
	}
	for _, s := range shards {
		if _, err := s.pr.Read(); err != io.EOF {
			return 0, bad(s, "published rows beyond the part's %d records (%v)", s.row, err)
		}
		if err := s.peek(); err != nil || !s.atEOF {
			return 0, bad(s, "graph lines beyond the part's rows (%v)", err)
		}
	}
	if owns != sum.N {
		return 0, fmt.Errorf("pipeline: internal error: %d own edges for %d published rows", owns, sum.N)
	}
	return edges, nil
}

// writeBytes writes b to path on a Beam filesystem.
func writeBytes(ctx context.Context, path string, b []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
