package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// k-anonymity by freeform generalization: `sdcopt kanon` and
// `sdcopt kanon verify`. The publication format (published file and
// graph file) and its verification are kanon's (kanon/publication.go).

// kanonDataFlags are the flags that select and read the data; `kanon` and
// `kanon verify` share them.
type kanonDataFlags struct {
	dialectFlags
	data        string
	qi          []string
	categorical []string
	hierarchy   []string
	keepMissing bool
	maxDropped  float64
}

// adultMaxDropped is the default --max-dropped of --data adult: its
// standard preprocessing (the literature's 30,162 records) drops the
// 2,399 of 32,561 rows (7.4 %) with a missing value.
const adultMaxDropped = 0.08

func addKanonDataFlags(f interface {
	StringVar(*string, string, string, string)
	StringSliceVar(*[]string, string, []string, string)
	StringArrayVar(*[]string, string, []string, string)
	BoolVar(*bool, string, bool, string)
	Float64Var(*float64, string, float64, string)
}, d *kanonDataFlags) {
	f.StringVar(&d.data, "data", "", "data: a CSV file with a header row, or adult (the shared UCI Adult file) (required)")
	f.StringSliceVar(&d.qi, "qi", nil, "quasi-identifier columns, by name (adult default: "+strings.Join(datasets.AdultQI(), ",")+")")
	f.StringSliceVar(&d.categorical, "categorical", nil, "categorical quasi-identifiers (the others are numeric; adult default: the categorical ones of --qi among "+strings.Join(datasets.AdultCategorical(), ",")+")")
	f.StringArrayVar(&d.hierarchy, "hierarchy", nil, "ATTR=FILE: generalization hierarchy of a categorical quasi-identifier (value,ancestor,...,root per line, separated by ',' or ';' as in ARX's files; repeatable)")
	f.BoolVar(&d.keepMissing, "keep-missing", false, "keep records with a missing (empty, NA or ?) quasi-identifier value: a categorical one is the category '?', a numeric one any value (its box spans the column's whole range, as does every box it joins) (default: drop them, said on stderr)")
	f.Float64Var(&d.maxDropped, "max-dropped", datasets.DefaultMaxDropped, fmt.Sprintf("kanon: largest share of the records that may be dropped for a missing quasi-identifier value; more stops the run (exit 2) naming the columns (--data adult: %g, its standard preprocessing drops 7.4 %%); kanon verify accepts and ignores it", adultMaxDropped))
	addDialectFlags(f, &d.dialectFlags)
}

// kanonSettings are the flags of `sdcopt kanon`.
type kanonSettings struct {
	kanonDataFlags
	roleFlags
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
	quiet     bool
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
			"--time-limit), and mondrian, the baseline: strict multidimensional\n" +
			"partitioning (LeFevre et al. 2006) into classes of at least k records, each\n" +
			"record published with its class's box.\n\n" +
			"Partitioning: the heuristics split the records by Mondrian's median rule into\n" +
			"partitions solved in parallel. By default the partition size is chosen from a\n" +
			"cost model so that the run takes about --time-limit seconds (default 30);\n" +
			"larger partitions give lower GCP. --partition P overrides it (0 = one\n" +
			"partition). hungarian solves partitions of more than 2000 records on a sparse\n" +
			"candidate graph (each record's lightest edges). A --time-limit you give is a\n" +
			"deadline, also with --partition: greedy, sortgreedy and hungarian check it\n" +
			"inside a partition, and a partition stopped there or not started by then is\n" +
			"finished by a quick fallback (median splits into parts of k to 2k-1 records,\n" +
			"each box spanning k consecutive records of its part), still verified\n" +
			"k-anonymous; the report lists those partitions (fallback, fallback_partitions).\n\n" +
			"Roles: every column is a quasi-identifier (--qi, generalized), an\n" +
			"--identifier (removed), --sensitive or --insensitive (published unchanged),\n" +
			"or in no role: then it is not published, and stderr says so. Before computing\n" +
			"anything, the columns published unchanged are checked: one that determines a\n" +
			"quasi-identifier, or nearly (it reveals the exact value inside the generalized\n" +
			"box), or pins its exact value for 5% of the records or more beyond chance (the\n" +
			"rare values, say), or whose values are nearly all unique, stops the run\n" +
			"(exit 2) with the evidence, unless named with --keep-risky. For --data adult\n" +
			"the default roles are the 8 quasi-identifiers and income sensitive; the other\n" +
			"columns are not published (education would reveal education-num, fnlwgt is\n" +
			"nearly unique).\n\n" +
			"--out writes the published file (the published columns in input order:\n" +
			"quasi-identifiers as [lo-hi], {a|b} or the hierarchy node, the sensitive and\n" +
			"insensitive columns of a randomly assigned original, in a seeded shuffled\n" +
			"order); --graph-out the private graph file original,published,own,assigned\n" +
			"that `sdcopt kanon verify` checks the published file against.\n\n" +
			"Records with a missing quasi-identifier value (empty, NA or ?) are dropped, and\n" +
			"stderr says how many (--keep-missing keeps them: a categorical value as the\n" +
			"category ?, a numeric one as any value, whose box spans the whole range); a\n" +
			"run that would drop more than --max-dropped of the records (default 0.05,\n" +
			"adult 0.08) stops (exit 2), naming the columns. --sep and --decimal read\n" +
			"semicolon or tab files with decimal commas; hierarchy files may be ARX's\n" +
			"(semicolons, repeated levels such as Male;Male;*).",
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
	addRoleFlags(f, &s.roleFlags, " (adult default: "+strings.Join(datasets.AdultSensitive(), ",")+")")
	f.IntVar(&s.k, "k", 0, "k >= 1 (required)")
	f.StringVar(&s.method, "method", kanon.MethodSortGreedy, "method: "+strings.Join(kanon.Methods(), "|"))
	f.IntVar(&s.partition, "partition", 0, "records per partition (0 = one partition; default: chosen from --time-limit for the heuristics, 0 for mip)")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the random assignment and the publish order")
	f.IntVar(&s.workers, "workers", 0, "partitions solved in parallel (0 = all cores)")
	f.StringVar(&s.out, "out", "", "write the published file (CSV) to this file")
	f.StringVar(&s.graphOut, "graph-out", "", "write the private graph (CSV original,published,own,assigned) to this file (created 0600)")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.StringVar(&s.solver, "solver", "", "mip: MIP engine (highs|cbc; default auto)")
	f.Float64Var(&s.timeLimit, "time-limit", 0, fmt.Sprintf("heuristics: time budget in seconds that chooses the partition size and is a deadline, kept inside partitions too (greedy, sortgreedy, hungarian: a partition running at the deadline is stopped there and, like those not started, finished by a quick fallback graph, reported; flow checks it between partitions only; default: %g s to size the partitions, no deadline, so the result never depends on the machine's speed); mip: time limit of the whole run (0 = none)", kanon.DefaultBudget.Seconds()))
	f.BoolVar(&s.quiet, "quiet", false, "no progress messages on stderr")
	c.AddCommand(newKanonVerifyCmd())
	return c
}

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
	Partition   int      `json:"partition"`             // records per partition used (0 = one partition)
	PartAuto    bool     `json:"partition_auto"`        // chosen by the cost model (no --partition)
	TimeBudget  *float64 `json:"time_budget,omitempty"` // seconds: the budget of the automatic choice
	Classes     *int     `json:"classes,omitempty"`     // mondrian: equivalence classes
	Fallbacks   int      `json:"fallbacks"`             // partitions finished by a fallback at the deadline
	// FallbackRecords counts the records of those partitions and
	// FallbackParts lists them (which partition, its records, whether
	// the deadline interrupted it or it started after, the method).
	FallbackRecords int             `json:"fallback_records"`
	FallbackParts   []kanonFallback `json:"fallback_partitions"`
	Seconds         float64         `json:"seconds"`
	Dropped         int             `json:"dropped"`
	KeptMissing     bool            `json:"keep_missing"`
	Verified        bool            `json:"verified"`
	Seed            uint64          `json:"seed"`
	MIPBound        *float64        `json:"mip_bound,omitempty"`
	MIPOptimal      *bool           `json:"mip_optimal,omitempty"`
	Solver          string          `json:"solver,omitempty"`
	Out             string          `json:"out,omitempty"`
	GraphOut        string          `json:"graph_out,omitempty"`
	publishReport

	// Risk is the disclosure risk of the published boxes (package risk).
	Risk *generalizationRisk `json:"risk"`
}

// kanonFallback is one partition finished by a fallback at the deadline
// (kanon.Fallback).
type kanonFallback struct {
	Partition   int    `json:"partition"` // 1-based, in the order of the split
	Records     int    `json:"records"`
	Interrupted bool   `json:"interrupted"` // started before the deadline and stopped at it
	Method      string `json:"method"`
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
	if err := cli.FloatRange("--max-dropped", d.maxDropped, 0, 1); err != nil {
		return nil, err
	}
	var q *datasets.QIData
	opt, err := d.dialectFlags.options()
	if err != nil {
		return nil, err
	}
	label := d.data
	if strings.EqualFold(d.data, "adult") {
		label = "adult"
		for _, name := range []string{"sep", "decimal"} {
			if changed(name) {
				return nil, cli.BadInput("--%s applies to a CSV file, not --data adult", name)
			}
		}
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
		q, err = datasets.LoadQIWith(d.data, d.qi, d.categorical, d.keepMissing, opt)
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

// kanonInputs lists the input files of the data flags as flag, path
// pairs for checkFiles.
func kanonInputs(d *kanonDataFlags) []string {
	var in []string
	if strings.EqualFold(d.data, "adult") {
		if path, err := datasets.AdultPath(); err == nil {
			in = append(in, "--data", path)
		}
	} else {
		in = append(in, "--data", d.data)
	}
	for _, spec := range d.hierarchy {
		if _, file, ok := strings.Cut(spec, "="); ok {
			in = append(in, "--hierarchy", strings.TrimSpace(file))
		}
	}
	return in
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
	if s.method == kanon.MethodMondrian {
		for _, name := range []string{"partition", "solver", "time-limit"} {
			if changed(name) {
				return cli.BadInput("--%s does not apply to --method mondrian (it partitions the data itself)", name)
			}
		}
	}
	auto := !changed("partition") && s.method != kanon.MethodMIP && s.method != kanon.MethodMondrian
	if s.partition < 0 {
		return cli.BadInput("--partition must be >= 0 (0 = one partition), got %d", s.partition)
	}
	if s.partition > 0 && s.partition < s.k && changed("partition") {
		return cli.BadInput("--partition %d is smaller than k = %d", s.partition, s.k)
	}
	if s.workers < 0 {
		return cli.BadInput("--workers must be >= 0, got %d", s.workers)
	}
	if s.method != kanon.MethodMIP && changed("solver") {
		return cli.BadInput("--solver applies to --method mip only, not %s", s.method)
	}
	if err := checkTimeLimit(s.timeLimit); err != nil {
		return err
	}
	if s.solver != "" {
		if err := cli.Solver("--solver", s.solver, false); err != nil {
			return err
		}
	}
	if err := checkFiles(kanonInputs(&s.kanonDataFlags), []string{"--out", s.out, "--graph-out", s.graphOut}); err != nil {
		return err
	}
	d, err := loadKanonData(&s.kanonDataFlags, changed)
	if err != nil {
		return err
	}
	maxDropped := s.maxDropped
	if d.label == "adult" && !changed("max-dropped") {
		maxDropped = adultMaxDropped
	}
	if err := d.CheckDropped(maxDropped); err != nil {
		return cli.BadInput("%v; keep those records with --keep-missing (a missing categorical value is the category ?, a numeric one any value, generalized to the whole range) or allow more with --max-dropped", err)
	}
	t := d.Table
	if d.Dropped > 0 && !s.quiet {
		fmt.Fprintf(os.Stderr, "sdcopt: %d of %d records (%.1f %%) dropped for a missing quasi-identifier value (empty, NA or ?): not anonymized, not published; --keep-missing keeps them (a missing categorical value as the category ?, a numeric one as any value: the whole range)\n",
			d.Dropped, len(d.Records), 100*float64(d.Dropped)/float64(len(d.Records)))
	}
	if s.k > t.N {
		return cli.BadInput("--k %d exceeds the number of records of %s (n = %d after dropping %d with missing values)", s.k, d.label, t.N, d.Dropped)
	}
	var defSensitive []string
	if d.label == "adult" {
		defSensitive = datasets.AdultSensitive()
	}
	a, err := assignRoles(d.label, d.Header, qiNames(t), "--qi", &s.roleFlags, changed, defSensitive)
	if err != nil {
		return err
	}
	kept, err := checkLeaks(d.label, a, t.N, func(i, j int) string { return d.Records[d.Rows[i]][j] }, &s.roleFlags)
	if err != nil {
		return err
	}
	pubRep := newPublishReport(a, kept, s.quiet)
	prog := cli.NewProgress(s.quiet)
	defer prog.Finish()
	prog.Printf("%s on %d records x %d quasi-identifiers, k = %d", s.method, t.N, t.D(), s.k)
	part := s.partition
	if changed("partition") && part == 0 {
		part = kanon.OnePartition // --partition 0: one partition
	}
	opt := &kanon.Options{Method: s.method, Partition: part, Workers: s.workers, Seed: s.seed, MIPSolver: s.solver}
	if prog != nil {
		current := ""
		opt.Progress = func(phase string, done, total int) {
			if phase != current {
				current = phase
				prog.Start("kanon "+s.method+": "+phase, total)
			}
			prog.Set(done)
		}
	}
	if s.method == kanon.MethodMIP {
		opt.TimeLimit = secondsDuration(s.timeLimit)
	} else {
		opt.Budget = secondsDuration(s.timeLimit)
	}
	res, err := kanon.Anonymize(t, s.k, opt)
	if err != nil {
		return libraryError(d.label, err)
	}
	prog.Finish()
	switch {
	case res.Fallbacks > 0 && s.method == kanon.MethodMIP:
		fmt.Fprintf(os.Stderr, "sdcopt: warning: the MIP engine had not stopped at --time-limit in %d of %d partition(s); those were solved by the hungarian heuristic (no MIP bound)\n",
			res.Fallbacks, res.Partitions)
	case res.Fallbacks > 0:
		fmt.Fprintf(os.Stderr, "sdcopt: warning: --time-limit ran out with %d of %d partition(s) (%d of %d records) unfinished or not started; %s finished them: %s\n",
			res.Fallbacks, res.Partitions, res.FallbackRecords, t.N, fallbackHow, fallbackList(res.FallbackParts))
	}
	if err := kanon.CheckResult(t, s.k, res); err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: the result of %s failed verification: %w", s.method, err)}
	}
	var outs cli.Outputs
	defer outs.Abort()
	if s.out != "" {
		if err := outs.Write(s.out, func(w io.Writer) error { return kanon.WritePublished(w, d.QIData, res, a.Published()) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if s.graphOut != "" {
		// The graph says which published record each original became:
		// private (0600).
		if err := outs.WritePrivate(s.graphOut, func(w io.Writer) error { return kanon.WriteGraph(w, d.QIData, res) }); err != nil {
			return cli.BadInput("--graph-out: %v", err)
		}
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	prog.Finish()
	r := kanonResult{
		Data: d.label, QI: qiNames(t), Categorical: categoricalNames(t), N: t.N, K: s.k, Method: s.method,
		GCP: res.GCP, Partitions: res.Partitions, Partition: res.Partition, PartAuto: auto, Seconds: res.Seconds, Dropped: d.Dropped,
		Fallbacks: res.Fallbacks, FallbackRecords: res.FallbackRecords, FallbackParts: []kanonFallback{}, KeptMissing: s.keepMissing, Verified: true, Seed: s.seed, Out: s.out, GraphOut: s.graphOut, publishReport: pubRep,
		Risk: newGeneralizationRisk(res.Risk),
	}
	for _, f := range res.FallbackParts {
		r.FallbackParts = append(r.FallbackParts, kanonFallback{Partition: f.Partition + 1, Records: f.Records, Interrupted: f.Interrupted, Method: f.Method})
	}
	if auto {
		b := kanon.DefaultBudget.Seconds()
		if s.timeLimit > 0 {
			b = s.timeLimit
		}
		r.TimeBudget = &b
	}
	if s.method == kanon.MethodMondrian {
		c := res.Classes
		r.Classes = &c
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
	switch {
	case r.Classes != nil:
		fmt.Fprintf(w, "method      %s, k = %d, %d classes\n", r.Method, r.K, *r.Classes)
	case r.TimeBudget != nil:
		fmt.Fprintf(w, "method      %s, k = %d, %d partition(s) of %s (automatic, budget %g s)\n", r.Method, r.K, r.Partitions, partitionLabel(r.Partition), *r.TimeBudget)
	default:
		fmt.Fprintf(w, "method      %s, k = %d, %d partition(s) of %s\n", r.Method, r.K, r.Partitions, partitionLabel(r.Partition))
	}
	if r.Fallbacks > 0 {
		fmt.Fprintf(w, "fallback    %d of %d partition(s), %d of %d records, finished by %s at the deadline: %s\n",
			r.Fallbacks, r.Partitions, r.FallbackRecords, r.N, r.FallbackParts[0].Method, fallbackList(res.FallbackParts))
	}
	fmt.Fprintf(w, "GCP         %.6f\n", r.GCP)
	if r.MIPOptimal != nil {
		bound := "none"
		if r.MIPBound != nil {
			bound = fmt.Sprintf("%.6f", *r.MIPBound)
		}
		fmt.Fprintf(w, "MIP         optimal %v, bound %s\n", *r.MIPOptimal, bound)
	}
	graph := "k-regular"
	if r.Classes != nil {
		graph = "complete classes of at least k records"
	}
	fmt.Fprintf(w, "verified    yes (%s, identity round, boxes contain their originals, GCP recomputed)\n", graph)
	fmt.Fprintf(w, "risk        %s\n", generalizationRiskSummary(r.Risk, r.K))
	writePublishText(w, &r.publishReport, 12)
	fmt.Fprintf(w, "seconds     %.3f\n", r.Seconds)
	return nil
}

// fallbackHow says what the quick fallback of the heuristics does.
const fallbackHow = "the quick fallback (" + kanon.FallbackQuick + ": median splits into parts of k to 2k-1 records, each box spanning k consecutive records of its part)"

// fallbackList names the partitions a fallback finished: "partition 2
// (15081 records, interrupted), partition 3 (15081 records, not started)".
func fallbackList(fs []kanon.Fallback) string {
	var b strings.Builder
	for x, f := range fs {
		if x > 0 {
			b.WriteString(", ")
		}
		how := "not started"
		if f.Interrupted {
			how = "interrupted"
		}
		fmt.Fprintf(&b, "partition %d (%d records, %s)", f.Partition+1, f.Records, how)
	}
	return b.String()
}

// partitionLabel names a partition size (0 = all records).
func partitionLabel(p int) string {
	if p == 0 {
		return "all records"
	}
	return fmt.Sprintf("%d records", p)
}

// kanonVerifySettings are the flags of `sdcopt kanon verify`.
type kanonVerifySettings struct {
	kanonDataFlags
	published string
	graph     string
	k         int
	gcp       float64
	format    string
	out       string
}

func newKanonVerifyCmd() *cobra.Command {
	var s kanonVerifySettings
	c := &cobra.Command{
		Use:   "verify --data FILE|adult --published FILE --graph FILE --k K",
		Short: "Check a published k-anonymous file against its data and graph",
		Long: "Check a published file of `sdcopt kanon` against the original data (read with\n" +
			"the same --qi, --categorical, --hierarchy and --keep-missing) and its graph file\n" +
			"(the published file's header names the columns it carries):\n" +
			"every edge's original lies inside its published box, every original and\n" +
			"published record has degree exactly k, every published row has exactly one own\n" +
			"edge (the identity round) and one assigned edge, both one-to-one, the other\n" +
			"columns are those of the assigned original, and the GCP of the published boxes\n" +
			"equals the GCP recomputed from the data and the graph (and --gcp when given).\n" +
			"Prints ok and the disclosure risk of the published boxes (as `sdcopt kanon`\n" +
			"reports it); exit 1 with the first violation when the files are not a valid\n" +
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
	f.StringVar(&s.out, "out", "", "write the report to this file (atomically) instead of stdout")
	return c
}

type kanonVerifyResult struct {
	Method  string   `json:"method"`
	OK      bool     `json:"ok"`
	N       int      `json:"n"`
	K       int      `json:"k"`
	GCP     float64  `json:"gcp"`
	Edges   int      `json:"edges"`
	Data    string   `json:"data"`
	Output  string   `json:"published"`
	Graph   string   `json:"graph"`
	Seconds float64  `json:"seconds"`
	Columns []string `json:"published_columns"` // the columns the published file carries

	// Risk is the disclosure risk of the published boxes (package risk).
	Risk *generalizationRisk `json:"risk"`
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
	if changed("gcp") {
		if err := cli.FloatRange("--gcp", s.gcp, 0, 1); err != nil {
			return err
		}
	}
	in := append(kanonInputs(&s.kanonDataFlags), "--published", s.published, "--graph", s.graph)
	if err := checkFiles(in, []string{"--out", s.out}); err != nil {
		return err
	}
	start := time.Now()
	d, err := loadKanonData(&s.kanonDataFlags, changed)
	if err != nil {
		return err
	}
	pub, err := readKanonFile("--published", s.published, func(r io.Reader) (*kanon.Published, error) {
		return kanon.ReadPublished(r, s.published, d.QIData)
	})
	if err != nil {
		return err
	}
	edges, err := readKanonFile("--graph", s.graph, func(r io.Reader) ([]kanon.Edge, error) {
		return kanon.ReadGraph(r, s.graph)
	})
	if err != nil {
		return err
	}
	var gcp *float64
	if changed("gcp") {
		gcp = &s.gcp
	}
	v, err := kanon.VerifyPublication(d.QIData, pub, edges, s.k, gcp, s.published, s.graph)
	if err != nil {
		return kanonFileError(err)
	}
	rr, err := risk.Generalization(d.Table, pub.Boxes, s.k, nil)
	if err != nil {
		return cli.NoSolution("%s: %v", s.published, err)
	}
	r := kanonVerifyResult{Method: "verify", OK: true, N: v.N, K: v.K, GCP: v.GCP, Edges: v.Edges, Data: d.label, Output: s.published, Graph: s.graph,
		Seconds: time.Since(start).Seconds(), Columns: pub.Layout.Header(d.QIData),
		Risk: newGeneralizationRisk(rr)}
	return emit(w, s.out, func(w io.Writer) error {
		if s.format == "json" {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(r)
		}
		_, err := fmt.Fprintf(w, "ok: %d published records, %d-anonymous graph of %d edges, GCP %.6f\nrisk: %s\n", r.N, r.K, r.Edges, r.GCP,
			generalizationRiskSummary(r.Risk, r.K))
		return err
	})
}

// readKanonFile opens path (named by flag) and parses it with read.
func readKanonFile[T any](flag, path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, cli.BadInput("%s: %v", flag, err)
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, kanonFileError(err)
	}
	return v, nil
}

// kanonFileError maps publication errors: a valid-looking file that is not
// a k-anonymous publication of the data exits 1, anything unreadable 2.
func kanonFileError(err error) error {
	if errors.Is(err, kanon.ErrInvalid) {
		return cli.NoSolution("%v", err)
	}
	return cli.BadInput("%v", err)
}
