package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"sdcopt/datasets"
	"sdcopt/internal/cli"
	"sdcopt/kanon"
	"sdcopt/model"
)

// k-anonymity by freeform generalization: `sdcopt kanon` and
// `sdcopt kanon verify`.
//
// Published file (--out): CSV with a header of the quasi-identifier names
// (in --qi order) followed by the other columns of the input (input
// order); one row per published record, in the seeded publish order. A
// numeric quasi-identifier is "[lo-hi]" (a single value when lo = hi), a
// categorical one "{a|b|c}" (the values in category order; a single value
// without braces), with a hierarchy the name of the box's node. The other
// columns hold the cells of the original that the seeded random
// assignment pairs with the box.
//
// Graph file (--graph-out): CSV "original,published,own,assigned", one
// line per edge of the k-regular graph: original is the 1-based data row
// of the input file (the header not counted; rows dropped for missing
// values never appear), published the 1-based data row of the published
// file; own is 1 on the edge of the record whose own box it is (the
// identity round), assigned is 1 on the edge of the original whose other
// attributes the published row carries. The graph file links published
// and original records and is for the data holder's audit, not for
// publication. With it `sdcopt kanon verify` checks everything: each box
// holds its k originals, all degrees are k, each published row has one
// own and one assigned edge (both one-to-one), the other attributes are
// those of the assigned original, and the GCP of the published boxes
// equals the GCP of the graph's boxes recomputed from the data (so the
// boxes are as tight as the graph allows).

// kanonDataFlags are the flags that select and read the data; `kanon` and
// `kanon verify` share them.
type kanonDataFlags struct {
	data        string
	qi          []string
	categorical []string
	hierarchy   []string
	keepMissing bool
}

func addKanonDataFlags(f interface {
	StringVar(*string, string, string, string)
	StringSliceVar(*[]string, string, []string, string)
	StringArrayVar(*[]string, string, []string, string)
	BoolVar(*bool, string, bool, string)
}, d *kanonDataFlags) {
	f.StringVar(&d.data, "data", "", "data: a CSV file with a header row, or adult (the shared UCI Adult file) (required)")
	f.StringSliceVar(&d.qi, "qi", nil, "quasi-identifier columns, by name (adult default: "+strings.Join(datasets.AdultQI(), ",")+")")
	f.StringSliceVar(&d.categorical, "categorical", nil, "categorical quasi-identifiers (the others are numeric; adult default: the categorical ones of --qi among "+strings.Join(datasets.AdultCategorical(), ",")+")")
	f.StringArrayVar(&d.hierarchy, "hierarchy", nil, "ATTR=FILE: generalization hierarchy of a categorical quasi-identifier (CSV value,ancestor,...,root per line; repeatable)")
	f.BoolVar(&d.keepMissing, "keep-missing", false, "keep records with a missing ('?' or empty) categorical quasi-identifier, '?' being a category (default: drop them)")
}

// kanonSettings are the flags of `sdcopt kanon`.
type kanonSettings struct {
	kanonDataFlags
	k         int
	method    string
	partition int
	seed      uint64
	workers   int
	out       string
	graphOut  string
	format    string
	solver    string
	timeLimit float64
}

func newKanonCmd() *cobra.Command {
	var s kanonSettings
	c := &cobra.Command{
		Use:   "kanon --data FILE|adult --k K --method METHOD",
		Short: "k-anonymity by freeform generalization (k-regular generalization graph)",
		Long: "k-anonymize the quasi-identifiers of a data set by freeform generalization\n" +
			"(Doka et al.): every record gets its own box built from k records, and the\n" +
			"graph between original and published records is k-regular, so that no record\n" +
			"can be linked with probability above 1/k. Reports the GCP (global certainty\n" +
			"penalty, in [0, 1]) of the verified result.\n\n" +
			"Methods: greedy (with backtracking), sortgreedy, hungarian (an exact assignment\n" +
			"per round), flow (min-cost k-regular b-matching of record distances), mip\n" +
			"(the GCP-optimal graph through a MIP engine, small partitions only: --solver,\n" +
			"--time-limit). --partition P sorts the records lexicographically by the\n" +
			"quasi-identifiers and solves blocks of P records in parallel.\n\n" +
			"--out writes the published file (quasi-identifiers as [lo-hi], {a|b} or the\n" +
			"hierarchy node, then the other columns of a randomly assigned original, in a\n" +
			"seeded shuffled order); --graph-out the private graph file\n" +
			"original,published,own,assigned that `sdcopt kanon verify` checks the\n" +
			"published file against.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("k") {
				return cli.BadInput("--k is required (each record must be indistinguishable among k)")
			}
			return runKanon(c.OutOrStdout(), &s, c.Flags().Changed)
		},
	}
	f := c.Flags()
	addKanonDataFlags(f, &s.kanonDataFlags)
	f.IntVar(&s.k, "k", 0, "k >= 1 (required)")
	f.StringVar(&s.method, "method", kanon.MethodSortGreedy, "method: "+strings.Join(kanon.Methods(), "|"))
	f.IntVar(&s.partition, "partition", 0, fmt.Sprintf("records per partition after the lexicographic sort (0 = one partition; default max(%d, k) for the heuristics, 0 for mip)", defaultKanonPartition))
	f.Uint64Var(&s.seed, "seed", 1, "seed of the random assignment and the publish order")
	f.IntVar(&s.workers, "workers", 0, "partitions solved in parallel (0 = all cores)")
	f.StringVar(&s.out, "out", "", "write the published file (CSV) to this file")
	f.StringVar(&s.graphOut, "graph-out", "", "write the graph (CSV original,published,own,assigned) to this file")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.StringVar(&s.solver, "solver", "", "mip: MIP engine (highs|cbc; default auto)")
	f.Float64Var(&s.timeLimit, "time-limit", 0, "mip: time limit per partition in seconds (0 = none)")
	c.AddCommand(newKanonVerifyCmd())
	return c
}

// defaultKanonPartition is the partition size of the heuristics when
// --partition is not given: Adult (30162 records) with Hungarian takes a
// few seconds on 2 cores, one partition of it would exceed kanon.MaxDense.
const defaultKanonPartition = 500

// kanonResult is the report of `sdcopt kanon`.
type kanonResult struct {
	Data        string   `json:"data"`
	QI          []string `json:"qi"`
	Categorical []string `json:"categorical"`
	N           int      `json:"n"`
	K           int      `json:"k"`
	Method      string   `json:"method"`
	GCP         float64  `json:"gcp"`
	Partitions  int      `json:"partitions"`
	Partition   int      `json:"partition"`
	Seconds     float64  `json:"seconds"`
	Dropped     int      `json:"dropped"`
	KeptMissing bool     `json:"keep_missing"`
	Verified    bool     `json:"verified"`
	Seed        uint64   `json:"seed"`
	MIPBound    *float64 `json:"mip_bound,omitempty"`
	MIPOptimal  *bool    `json:"mip_optimal,omitempty"`
	Solver      string   `json:"solver,omitempty"`
	Out         string   `json:"out,omitempty"`
	GraphOut    string   `json:"graph_out,omitempty"`
}

// kanonData is loaded data with its label.
type kanonData struct {
	*datasets.QIData
	label string
}

// loadKanonData reads --data with the quasi-identifier selection and the
// hierarchies. Every failure is bad input (exit 2).
func loadKanonData(d *kanonDataFlags, changed func(string) bool) (*kanonData, error) {
	if d.data == "" {
		return nil, cli.BadInput("--data is required (a CSV file, or adult)")
	}
	var q *datasets.QIData
	var err error
	label := d.data
	if strings.EqualFold(d.data, "adult") {
		label = "adult"
		switch {
		case !changed("qi") && !changed("categorical"):
			q, err = datasets.LoadAdult(d.keepMissing)
		default:
			qi := d.qi
			if !changed("qi") {
				qi = datasets.AdultQI()
			}
			cat := d.categorical
			if !changed("categorical") {
				cat = nil
				for _, c := range qi {
					if slices.Contains(datasets.AdultCategorical(), strings.TrimSpace(c)) {
						cat = append(cat, c)
					}
				}
			}
			var path string
			if path, err = datasets.AdultPath(); err == nil {
				q, err = datasets.LoadQI(path, qi, cat, d.keepMissing)
			}
		}
	} else {
		if len(d.qi) == 0 {
			return nil, cli.BadInput("--qi is required with --data %s (the quasi-identifier columns)", d.data)
		}
		q, err = datasets.LoadQI(d.data, d.qi, d.categorical, d.keepMissing)
	}
	if err != nil {
		return nil, cli.BadInput("%v", err)
	}
	seen := map[string]bool{}
	for _, spec := range d.hierarchy {
		name, file, ok := strings.Cut(spec, "=")
		name, file = strings.TrimSpace(name), strings.TrimSpace(file)
		if !ok || name == "" || file == "" {
			return nil, cli.BadInput("bad --hierarchy %q: want ATTR=FILE", spec)
		}
		a := slices.IndexFunc(q.Table.Attrs, func(at model.QIAttr) bool { return at.Name == name })
		switch {
		case a < 0:
			return nil, cli.BadInput("bad --hierarchy %q: %q is not a quasi-identifier (%s)", spec, name, strings.Join(qiNames(q.Table), ", "))
		case q.Table.Attrs[a].Kind != model.Categorical:
			return nil, cli.BadInput("bad --hierarchy %q: %q is numeric; hierarchies are for categorical quasi-identifiers (list it in --categorical)", spec, name)
		case seen[name]:
			return nil, cli.BadInput("bad --hierarchy %q: a second hierarchy for %q", spec, name)
		}
		seen[name] = true
		h, err := datasets.LoadHierarchy(file, &q.Table.Attrs[a])
		if err != nil {
			return nil, cli.BadInput("--hierarchy %s: %v", name, err)
		}
		q.Table.Attrs[a].Hier = h
	}
	if err := q.Table.Check(); err != nil {
		return nil, cli.BadInput("%s: %v", label, err)
	}
	return &kanonData{QIData: q, label: label}, nil
}

func qiNames(t *model.QITable) []string {
	out := make([]string, len(t.Attrs))
	for a := range t.Attrs {
		out[a] = t.Attrs[a].Name
	}
	return out
}

func categoricalNames(t *model.QITable) []string {
	out := []string{}
	for a := range t.Attrs {
		if t.Attrs[a].Kind == model.Categorical {
			out = append(out, t.Attrs[a].Name)
		}
	}
	return out
}

// runKanon runs `sdcopt kanon`.
func runKanon(w io.Writer, s *kanonSettings, changed func(string) bool) error {
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return err
	}
	if !slices.Contains(kanon.Methods(), s.method) {
		return cli.BadInput("unknown --method %q (want one of %s)", s.method, strings.Join(kanon.Methods(), ", "))
	}
	if s.k < 1 {
		return cli.BadInput("--k must be at least 1, got %d", s.k)
	}
	if !changed("partition") && s.method != kanon.MethodMIP {
		s.partition = max(defaultKanonPartition, s.k)
	}
	if s.partition < 0 {
		return cli.BadInput("--partition must be >= 0 (0 = one partition), got %d", s.partition)
	}
	if s.partition > 0 && s.partition < s.k && changed("partition") {
		return cli.BadInput("--partition %d is smaller than k = %d", s.partition, s.k)
	}
	if s.workers < 0 {
		return cli.BadInput("--workers must be >= 0, got %d", s.workers)
	}
	if s.method != kanon.MethodMIP {
		for _, name := range []string{"solver", "time-limit"} {
			if changed(name) {
				return cli.BadInput("--%s applies to --method mip only, not %s", name, s.method)
			}
		}
	}
	if err := checkTimeLimit(s.timeLimit); err != nil {
		return err
	}
	if s.out != "" && s.out == s.graphOut {
		return cli.BadInput("--out and --graph-out name the same file %s", s.out)
	}
	d, err := loadKanonData(&s.kanonDataFlags, changed)
	if err != nil {
		return err
	}
	t := d.Table
	if s.k > t.N {
		return cli.BadInput("--k %d exceeds the number of records of %s (n = %d after dropping %d with missing values)", s.k, d.label, t.N, d.Dropped)
	}
	progress(false, "%s on %d records x %d quasi-identifiers, k = %d", s.method, t.N, t.D(), s.k)
	res, err := kanon.Anonymize(t, s.k, &kanon.Options{
		Method: s.method, Partition: s.partition, Workers: s.workers, Seed: s.seed,
		MIPSolver: s.solver, TimeLimit: secondsDuration(s.timeLimit),
	})
	if err != nil {
		for _, e := range []error{kanon.ErrK, kanon.ErrMethod, kanon.ErrPartition, kanon.ErrTooLarge} {
			if errors.Is(err, e) {
				return cli.BadInput("%s: %v", d.label, err)
			}
		}
		return fmt.Errorf("%s: %w", d.label, err)
	}
	if err := checkKanonResult(t, s.k, res); err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: the result of %s failed verification: %w", s.method, err)}
	}
	if s.out != "" {
		if err := writeBuffered(s.out, func(bw *bufio.Writer) error { return writePublished(bw, d.QIData, res) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if s.graphOut != "" {
		if err := writeBuffered(s.graphOut, func(bw *bufio.Writer) error { return writeKanonGraph(bw, d.QIData, res) }); err != nil {
			if s.out != "" {
				os.Remove(s.out) // no partial set of outputs
			}
			return cli.BadInput("--graph-out: %v", err)
		}
	}
	r := kanonResult{
		Data: d.label, QI: qiNames(t), Categorical: categoricalNames(t), N: t.N, K: s.k, Method: s.method,
		GCP: res.GCP, Partitions: res.Partitions, Partition: s.partition, Seconds: res.Seconds, Dropped: d.Dropped,
		KeptMissing: s.keepMissing, Verified: true, Seed: s.seed, Out: s.out, GraphOut: s.graphOut,
	}
	if s.method == kanon.MethodMIP {
		b, o := res.MIPBound, res.MIPOptimal
		if !math.IsNaN(b) {
			r.MIPBound = &b
		}
		r.MIPOptimal = &o
		r.Solver = res.Solver
	}
	if s.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(w, "data        %s: %d records (%d dropped for missing values), %d quasi-identifiers (%s)\n",
		r.Data, r.N, r.Dropped, len(r.QI), strings.Join(r.QI, ", "))
	fmt.Fprintf(w, "method      %s, k = %d, %d partition(s)\n", r.Method, r.K, r.Partitions)
	fmt.Fprintf(w, "GCP         %.6f\n", r.GCP)
	if r.MIPOptimal != nil {
		bound := "none"
		if r.MIPBound != nil {
			bound = fmt.Sprintf("%.6f", *r.MIPBound)
		}
		fmt.Fprintf(w, "MIP         optimal %v, bound %s\n", *r.MIPOptimal, bound)
	}
	fmt.Fprintf(w, "verified    yes (k-regular, identity round, boxes contain their originals, GCP recomputed)\n")
	fmt.Fprintf(w, "seconds     %.3f\n", r.Seconds)
	return nil
}

// checkKanonResult verifies the graph (kanon.Verify with the graph's
// boxes), the assignment (a perfect matching inside the graph) and the
// publish order (a permutation).
func checkKanonResult(t *model.QITable, k int, res *kanon.Result) error {
	if err := kanon.Verify(t, t.Boxes(res.Graph), res.Graph, k, res.GCP); err != nil {
		return err
	}
	n := t.N
	if len(res.Assignment) != n || len(res.PublishOrder) != n {
		return fmt.Errorf("assignment of %d and publish order of %d for %d records", len(res.Assignment), len(res.PublishOrder), n)
	}
	used := make([]bool, n)
	for j, i := range res.Assignment {
		if i < 0 || i >= n || used[i] || !slices.Contains(res.Graph.Matched[j], int32(i)) {
			return fmt.Errorf("assignment: published record %d gets original %d, not an unused neighbour", j, i)
		}
		used[i] = true
	}
	clear(used)
	for _, j := range res.PublishOrder {
		if j < 0 || j >= n || used[j] {
			return fmt.Errorf("publish order is not a permutation")
		}
		used[j] = true
	}
	return nil
}

// publishedHeader is the header of the published file: the quasi-
// identifiers, then the other columns in input order; rest lists the
// header indices of the other columns.
func publishedHeader(q *datasets.QIData) (header []string, rest []int) {
	for _, j := range q.QICols {
		header = append(header, q.Header[j])
	}
	for j, h := range q.Header {
		if !slices.Contains(q.QICols, j) {
			header = append(header, h)
			rest = append(rest, j)
		}
	}
	return header, rest
}

// formatBoxCell formats attribute a of box b.
func formatBoxCell(at *model.QIAttr, b *model.Box, a int) (string, error) {
	switch {
	case at.Kind == model.Numeric:
		if b.Lo[a] == b.Hi[a] {
			return datasets.FormatValue(b.Lo[a]), nil
		}
		return "[" + datasets.FormatValue(b.Lo[a]) + "-" + datasets.FormatValue(b.Hi[a]) + "]", nil
	case at.Hier != nil:
		return at.Hier.Names[b.Node[a]], nil
	}
	var vals []string
	for c, v := range at.Categories {
		if b.Set[a][c/64]&(1<<(c%64)) != 0 {
			vals = append(vals, v)
		}
	}
	if len(vals) == 1 {
		if strings.HasPrefix(vals[0], "{") {
			return "", fmt.Errorf("attribute %s: value %q starts with '{' and would read back as a set", at.Name, vals[0])
		}
		return vals[0], nil
	}
	for _, v := range vals {
		if strings.Contains(v, "|") {
			return "", fmt.Errorf("attribute %s: value %q contains '|', the set separator", at.Name, v)
		}
	}
	return "{" + strings.Join(vals, "|") + "}", nil
}

// writePublished writes the published file (see the top of this file).
func writePublished(w io.Writer, q *datasets.QIData, res *kanon.Result) error {
	t := q.Table
	boxes := t.Boxes(res.Graph)
	header, rest := publishedHeader(q)
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	rec := make([]string, len(header))
	d := t.D()
	for _, j := range res.PublishOrder {
		for a := range t.Attrs {
			cell, err := formatBoxCell(&t.Attrs[a], boxes[j], a)
			if err != nil {
				return err
			}
			rec[a] = cell
		}
		orig := q.Records[q.Rows[res.Assignment[j]]]
		for x, c := range rest {
			rec[d+x] = orig[c]
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeKanonGraph writes the graph file (see the top of this file).
func writeKanonGraph(w *bufio.Writer, q *datasets.QIData, res *kanon.Result) error {
	w.WriteString("original,published,own,assigned\n")
	b01 := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for p, j := range res.PublishOrder {
		for _, i := range res.Graph.Matched[j] {
			fmt.Fprintf(w, "%d,%d,%d,%d\n", q.Rows[i]+1, p+1, b01(int(i) == j), b01(int(i) == res.Assignment[j]))
		}
	}
	return nil
}

// kanonVerifySettings are the flags of `sdcopt kanon verify`.
type kanonVerifySettings struct {
	kanonDataFlags
	published string
	graph     string
	k         int
	gcp       float64
	format    string
}

func newKanonVerifyCmd() *cobra.Command {
	var s kanonVerifySettings
	c := &cobra.Command{
		Use:   "verify --data FILE|adult --published FILE --graph FILE --k K",
		Short: "Check a published k-anonymous file against its data and graph",
		Long: "Check a published file of `sdcopt kanon` against the original data (read with\n" +
			"the same --qi, --categorical, --hierarchy and --keep-missing) and its graph file:\n" +
			"every edge's original lies inside its published box, every original and\n" +
			"published record has degree exactly k, every published row has exactly one own\n" +
			"edge (the identity round) and one assigned edge, both one-to-one, the other\n" +
			"columns are those of the assigned original, and the GCP of the published boxes\n" +
			"equals the GCP recomputed from the data and the graph (and --gcp when given).\n" +
			"Prints ok; exit 1 with the first violation when the files are not a valid\n" +
			"k-anonymous publication of the data, 2 when they cannot be read.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("k") {
				return cli.BadInput("--k is required")
			}
			return runKanonVerify(c.OutOrStdout(), &s, c.Flags().Changed)
		},
	}
	f := c.Flags()
	addKanonDataFlags(f, &s.kanonDataFlags)
	f.StringVar(&s.published, "published", "", "the published file (required)")
	f.StringVar(&s.graph, "graph", "", "the graph file original,published,own,assigned (required)")
	f.IntVar(&s.k, "k", 0, "k (required)")
	f.Float64Var(&s.gcp, "gcp", 0, "also check this reported GCP (relative tolerance 1e-9)")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	return c
}

// violation marks a failed check (exit 1).
func violation(format string, args ...any) error {
	return cli.NoSolution("not a valid %s", fmt.Sprintf(format, args...))
}

// unreadable marks an input that cannot be parsed (exit 2).
func unreadable(file string, line int, format string, args ...any) error {
	return cli.BadInput("%s:%d: %s", file, line, fmt.Sprintf(format, args...))
}

type kanonVerifyResult struct {
	OK     bool    `json:"ok"`
	N      int     `json:"n"`
	K      int     `json:"k"`
	GCP    float64 `json:"gcp"`
	Edges  int     `json:"edges"`
	Data   string  `json:"data"`
	Output string  `json:"published"`
	Graph  string  `json:"graph"`
}

func runKanonVerify(w io.Writer, s *kanonVerifySettings, changed func(string) bool) error {
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return err
	}
	if s.published == "" || s.graph == "" {
		return cli.BadInput("--published and --graph are required")
	}
	if s.k < 1 {
		return cli.BadInput("--k must be at least 1, got %d", s.k)
	}
	d, err := loadKanonData(&s.kanonDataFlags, changed)
	if err != nil {
		return err
	}
	t := d.Table
	n := t.N
	pubBoxes, pubRows, err := readPublished(s.published, d.QIData)
	if err != nil {
		return err
	}
	if len(pubBoxes) != n {
		return violation("publication: %s has %d records, the data %d (after dropping %d with missing values)", s.published, len(pubBoxes), n, d.Dropped)
	}
	edges, err := readKanonGraph(s.graph)
	if err != nil {
		return err
	}
	// Map the graph's 1-based file rows to table records.
	index := make(map[int]int, n)
	for i, r := range d.Rows {
		index[r+1] = i
	}
	own := make([]int, n) // own[p] = original whose own box row p is
	asg := make([]int, n)
	for p := range own {
		own[p], asg[p] = -1, -1
	}
	byRow := make([][]int32, n)
	for _, e := range edges {
		i, ok := index[e.orig]
		if !ok {
			return violation("graph: %s:%d: original row %d is not a record of the loaded data (out of range, or dropped for a missing value)", s.graph, e.line, e.orig)
		}
		p := e.pub - 1
		if p < 0 || p >= n {
			return violation("graph: %s:%d: published row %d outside 1..%d", s.graph, e.line, e.pub, n)
		}
		byRow[p] = append(byRow[p], int32(i))
		if e.own {
			if own[p] >= 0 {
				return violation("graph: %s:%d: published row %d has a second own edge", s.graph, e.line, e.pub)
			}
			own[p] = i
		}
		if e.assigned {
			if asg[p] >= 0 {
				return violation("graph: %s:%d: published row %d has a second assigned edge", s.graph, e.line, e.pub)
			}
			asg[p] = i
		}
	}
	ownRow := make([]int, n) // ownRow[j] = the published row of original j's own box
	for j := range ownRow {
		ownRow[j] = -1
	}
	assigned := make([]bool, n)
	for p := 0; p < n; p++ {
		switch {
		case own[p] < 0:
			return violation("graph: published row %d has no own edge (identity round)", p+1)
		case ownRow[own[p]] >= 0:
			return violation("graph: original row %d is the own record of published rows %d and %d", d.Rows[own[p]]+1, ownRow[own[p]]+1, p+1)
		case asg[p] < 0:
			return violation("graph: published row %d has no assigned edge", p+1)
		case assigned[asg[p]]:
			return violation("graph: original row %d is assigned to two published rows", d.Rows[asg[p]]+1)
		}
		ownRow[own[p]] = p
		assigned[asg[p]] = true
	}
	// Degrees and containment, reported in file rows.
	deg := make([]int, n)
	for p := 0; p < n; p++ {
		if len(byRow[p]) != s.k {
			return violation("%d-anonymous publication: published row %d has %d edges, want k = %d", s.k, p+1, len(byRow[p]), s.k)
		}
		for _, i := range byRow[p] {
			deg[i]++
			if !t.Contains(pubBoxes[p], int(i)) {
				return violation("%d-anonymous publication: published row %d does not contain its original (data row %d)", s.k, p+1, d.Rows[i]+1)
			}
		}
	}
	for i, c := range deg {
		if c != s.k {
			return violation("%d-anonymous publication: original (data row %d) has %d edges, want k = %d", s.k, d.Rows[i]+1, c, s.k)
		}
	}
	_, rest := publishedHeader(d.QIData)
	for p := 0; p < n; p++ {
		orig := d.Records[d.Rows[asg[p]]]
		for x, c := range rest {
			if got := pubRows[p][x]; got != orig[c] {
				return violation("publication: published row %d, column %q: %q, but its assigned original (data row %d) has %q",
					p+1, d.Header[c], got, d.Rows[asg[p]]+1, orig[c])
			}
		}
	}
	g := &model.GenGraph{N: n, Matched: make([][]int32, n)}
	boxes := make([]*model.Box, n)
	for j := 0; j < n; j++ {
		p := ownRow[j]
		g.Matched[j] = byRow[p]
		slices.Sort(g.Matched[j])
		boxes[j] = pubBoxes[p]
	}
	sum := 0.0
	for _, b := range boxes {
		sum += t.NCPSum(b)
	}
	gcp := sum / float64(n*t.D())
	if changed("gcp") {
		if math.Abs(s.gcp-gcp) > 1e-9*math.Max(1, math.Abs(gcp)) {
			return violation("publication: reported GCP %.15g, GCP of the published boxes %.15g", s.gcp, gcp)
		}
	}
	if err := kanon.Verify(t, boxes, g, s.k, gcp); err != nil {
		// Name published rows instead of the graph's record indices.
		return violation("%d-anonymous publication: %v (records are numbered by their own original, 0-based in the loaded data)", s.k, err)
	}
	r := kanonVerifyResult{OK: true, N: n, K: s.k, GCP: gcp, Edges: len(edges), Data: d.label, Output: s.published, Graph: s.graph}
	if s.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(w, "ok: %d published records, %d-regular graph of %d edges, GCP %.6f\n", n, s.k, len(edges), gcp)
	return nil
}

// readPublished parses the published file into boxes (in file order)
// and the other columns' cells of each row.
func readPublished(path string, q *datasets.QIData) ([]*model.Box, [][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, cli.BadInput("--published: %v", err)
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReaderSize(f, 1<<16))
	want, _ := publishedHeader(q)
	cr.FieldsPerRecord = len(want)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, unreadable(path, 1, "empty file")
	}
	if err != nil {
		return nil, nil, cli.BadInput("--published: %v", err)
	}
	if !slices.Equal(header, want) {
		return nil, nil, unreadable(path, 1, "header %q, want %q (the quasi-identifiers, then the other columns)", header, want)
	}
	t := q.Table
	d := t.D()
	var boxes []*model.Box
	var rows [][]string
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, cli.BadInput("--published: %v", err)
		}
		line, _ := cr.FieldPos(0)
		b := &model.Box{Lo: make([]float64, d), Hi: make([]float64, d), Set: make([][]uint64, d), Node: make([]int32, d)}
		for a := range t.Attrs {
			if err := parseBoxCell(&t.Attrs[a], b, a, rec[a]); err != nil {
				var v *verr
				if errors.As(err, &v) {
					return nil, nil, violation("publication: %s:%d: column %q: %v", path, line, t.Attrs[a].Name, err)
				}
				return nil, nil, unreadable(path, line, "column %q: %v", t.Attrs[a].Name, err)
			}
		}
		boxes = append(boxes, b)
		rows = append(rows, rec[d:])
	}
	return boxes, rows, nil
}

// verr is a cell that parses but cannot be a box of the data (a
// violation rather than unreadable input).
type verr struct{ msg string }

func (e *verr) Error() string { return e.msg }

// parseBoxCell parses attribute a of a published cell into b.
func parseBoxCell(at *model.QIAttr, b *model.Box, a int, cell string) error {
	switch {
	case at.Kind == model.Numeric:
		lo, hi, err := parseInterval(cell)
		if err != nil {
			return err
		}
		if lo > hi {
			return &verr{fmt.Sprintf("empty interval %q", cell)}
		}
		b.Lo[a], b.Hi[a] = lo, hi
	case at.Hier != nil:
		v := slices.Index(at.Hier.Names, cell)
		if v < 0 {
			return &verr{fmt.Sprintf("%q is no node of the hierarchy", cell)}
		}
		b.Node[a] = int32(v)
	default:
		vals := []string{cell}
		if strings.HasPrefix(cell, "{") {
			if !strings.HasSuffix(cell, "}") || len(cell) < 2 {
				return fmt.Errorf("set %q lacks its closing '}'", cell)
			}
			vals = strings.Split(cell[1:len(cell)-1], "|")
		}
		b.Set[a] = make([]uint64, (len(at.Categories)+63)/64)
		for _, v := range vals {
			c := slices.Index(at.Categories, v)
			if c < 0 {
				return &verr{fmt.Sprintf("value %q is not a category of the data", v)}
			}
			b.Set[a][c/64] |= 1 << (c % 64)
		}
	}
	return nil
}

// parseInterval reads "[lo-hi]" or a single number. The separator is the
// first '-' after a digit or '.', so negative bounds and exponents read
// correctly ("[-5--3]", "[1e-05-2]").
func parseInterval(cell string) (lo, hi float64, err error) {
	num := func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a finite number", s)
		}
		return v, nil
	}
	if !strings.HasPrefix(cell, "[") {
		v, err := num(cell)
		return v, v, err
	}
	if !strings.HasSuffix(cell, "]") || len(cell) < 2 {
		return 0, 0, fmt.Errorf("interval %q lacks its closing ']'", cell)
	}
	body := cell[1 : len(cell)-1]
	for x := 1; x < len(body); x++ {
		if body[x] == '-' && (body[x-1] >= '0' && body[x-1] <= '9' || body[x-1] == '.') {
			if lo, err = num(body[:x]); err == nil {
				hi, err = num(body[x+1:])
			}
			return lo, hi, err
		}
	}
	return 0, 0, fmt.Errorf("interval %q: want [lo-hi]", cell)
}

type kanonEdge struct {
	orig, pub, line int
	own, assigned   bool
}

// readKanonGraph reads the graph file.
func readKanonGraph(path string) ([]kanonEdge, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, cli.BadInput("--graph: %v", err)
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReaderSize(f, 1<<16))
	cr.FieldsPerRecord = 4
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, unreadable(path, 1, "empty file")
	}
	if err != nil {
		return nil, cli.BadInput("--graph: %v", err)
	}
	if want := []string{"original", "published", "own", "assigned"}; !slices.Equal(header, want) {
		return nil, unreadable(path, 1, "header %q, want %q", header, want)
	}
	var edges []kanonEdge
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, cli.BadInput("--graph: %v", err)
		}
		line, _ := cr.FieldPos(0)
		var v [4]int
		for x := range v {
			if v[x], err = strconv.Atoi(strings.TrimSpace(rec[x])); err != nil || (x >= 2 && v[x] != 0 && v[x] != 1) {
				return nil, unreadable(path, line, "field %d: %q is not %s", x+1, rec[x], map[bool]string{true: "0 or 1", false: "an integer"}[x >= 2])
			}
		}
		edges = append(edges, kanonEdge{orig: v[0], pub: v[1], line: line, own: v[2] == 1, assigned: v[3] == 1})
	}
	return edges, nil
}
