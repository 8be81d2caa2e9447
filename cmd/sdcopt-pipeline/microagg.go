package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/pipeline"
	"github.com/sdcopt/sdcopt/roles"
)

type microaggFlags struct {
	runnerFlags
	roleFlags
	data, out       string
	cols            []string
	k               int
	seed            uint64
	icsm            bool
	rounds          int
	intervalP       float64
	missing, digits string
	format          string
}

// Values of --digits besides a number of decimals (as sdcopt microagg).
const (
	digitsSource = "source"
	digitsFull   = "full"
)

// microaggResult is the result of `sdcopt-pipeline microagg` (--format
// json and csv), with the field names of `sdcopt microagg`'s where they
// mean the same.
type microaggResult struct {
	Data               string      `json:"data"`
	Columns            []string    `json:"columns"`
	N                  int         `json:"n"`
	D                  int         `json:"d"`
	K                  int         `json:"k"`
	Method             string      `json:"method"`      // mdav, or icsm (MDAV's groups polished by ICSM)
	ICSMRounds         int         `json:"icsm_rounds"` // --icsm-rounds (0: until no move improves)
	Runner             string      `json:"runner"`
	Coarse             int         `json:"coarse"` // records per coarse part, at most
	Parts              int         `json:"parts"`  // coarse parts
	Seed               uint64      `json:"seed"`
	Groups             int         `json:"groups"`
	SSE                float64     `json:"sse"`
	SST                float64     `json:"sst"`
	IL                 float64     `json:"il"`
	IL1s               float64     `json:"il1s"`
	IntervalDisclosure float64     `json:"interval_disclosure"`             // sdcMicro's dRisk since 5.6.0: every value inside its interval
	IntervalOneOutside float64     `json:"interval_disclosure_one_outside"` // sdcMicro's dRisk up to 5.5.1: at most one value outside
	IntervalP          float64     `json:"interval_p"`
	RecordLinkage      float64     `json:"record_linkage_upper_bound"` // DBRL searched within each part: an upper bound
	RecordLinkageTied  int         `json:"record_linkage_tied"`
	Missing            string      `json:"missing"`           // the --missing policy applied
	MissingRecords     int         `json:"missing_records"`   // records with a missing value: dropped or imputed
	Digits             []int       `json:"digits,omitempty"`  // decimals of each column in --out (omitted: full precision); SSE, SST and IL are of the unrounded centroids, IL1s, interval disclosure and DBRL of the rounded ones
	Published          []string    `json:"published_columns"` // in file order: the microaggregated (quasi-identifier), sensitive and insensitive columns
	DroppedCols        []string    `json:"dropped_columns"`   // identifiers and columns in no role
	KeptRisky          []keptRisky `json:"kept_risky,omitempty"`
	Seconds            float64     `json:"seconds"`
	Out                string      `json:"out,omitempty"`

	roles *roles.Assignment // for the text report
}

// keptRisky is a leak finding published anyway (--keep-risky), as in
// sdcopt microagg's and sdcopt kanon's JSON results.
type keptRisky struct {
	Column   string  `json:"column"`
	Kind     string  `json:"kind"`
	QI       string  `json:"qi,omitempty"`
	Share    float64 `json:"share"`
	Evidence string  `json:"evidence"`
}

// keptRiskyOf reports the findings kept by --keep-risky.
func keptRiskyOf(kept []roles.Finding) []keptRisky {
	var out []keptRisky
	for _, f := range kept {
		out = append(out, keptRisky{Column: f.Column, Kind: f.Kind.String(), QI: f.QI, Share: f.Share, Evidence: f.String()})
	}
	return out
}

func newMicroaggCmd() *cobra.Command {
	var s microaggFlags
	c := &cobra.Command{
		Use:   "microagg --data SPEC --k K",
		Short: "MDAV microaggregation on a Beam pipeline",
		Long: "Microaggregate the standardized columns with MDAV (as sdcopt microagg --method\n" +
			"mdav) on a Beam pipeline: coarse parts of at most --coarse records by\n" +
			"Mondrian's median rule on a seeded sample, MDAV on each part in a worker\n" +
			"(polished by ICSM with --icsm), and the measures combined over the parts:\n" +
			"the information loss IL = 100 SSE/SST and IL1s, and interval disclosure\n" +
			"(exact up to rounding; every value inside, and at most one outside as\n" +
			"sdcMicro before 5.6.0), and distance-based record linkage with each record's\n" +
			"nearest originals searched in its own part (an upper bound of the whole\n" +
			"data's DBRL; equal with one part). As sdcopt microagg: SSE, SST and IL are\n" +
			"those of the unrounded centroids; IL1s, interval disclosure and DBRL are\n" +
			"those of the values published, the centroids rounded to --digits.\n\n" +
			"Roles, as in sdcopt microagg: --cols names the columns to microaggregate (the\n" +
			"quasi-identifiers); it is required with a CSV file, and the benchmark sets\n" +
			"(tarragona, census, eia, synthetic:...) microaggregate every column a role\n" +
			"flag does not name by default. Every other column is an --identifier\n" +
			"(removed), --sensitive or --insensitive (published unchanged), or in no role:\n" +
			"then it is not published. Before the pipeline runs, the columns published\n" +
			"unchanged are checked: one that determines a microaggregated column, or\n" +
			"nearly, or pins its exact value for 5% of the records or more beyond chance,\n" +
			"or whose values are nearly all unique, stops the run (exit 2) with the\n" +
			"evidence, unless named with --keep-risky. The report lists the published\n" +
			"and the dropped columns.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runMicroagg(c, &s) },
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "a CSV file, a CASC data set (tarragona, census, eia) or synthetic:gauss-N-D-C[:SEED] (required)")
	f.StringSliceVar(&s.cols, "cols", nil, "columns to microaggregate (the quasi-identifiers), by name (required with a CSV file; tarragona|census|eia|synthetic: default every column a role flag does not name)")
	addRoleFlags(f, &s.roleFlags, "")
	f.IntVar(&s.k, "k", 0, "minimum group size (required, at least 2)")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the sample that places the coarse split points")
	f.BoolVar(&s.icsm, "icsm", false, "polish MDAV's groups of every part by ICSM local search (no restarts)")
	f.IntVar(&s.rounds, "icsm-rounds", 0, "at most this many improving ICSM rounds per part (0: until no move improves)")
	f.Float64Var(&s.intervalP, "interval-p", 0.05, "width of interval disclosure, a fraction of the protected standard deviation")
	f.StringVar(&s.out, "out", "", "write the published data here: the microaggregated columns (each record's values replaced by its group's centroid) and the sensitive and insensitive columns, in the input's column order")
	f.StringVar(&s.missing, "missing", datasets.MissingError.String(),
		"a missing value (empty, NA or ?) in a microaggregated column: error (stop, naming the cell) | drop (leave the record out, unpublished) | impute-mean (use the column's mean; the record is published with its group's values)")
	f.StringVar(&s.digits, "digits", digitsSource,
		"decimals of the microaggregated values in --out: source (each column as many as its file has at most: integers stay integers) | full (full precision) | N (0..17)")
	f.StringVar(&s.format, "format", "text", "result format: text, json or csv")
	addRunnerFlags(c, &s.runnerFlags)
	return c
}

func runMicroagg(c *cobra.Command, s *microaggFlags) error {
	run, err := s.get()
	if err != nil {
		return err
	}
	if s.data == "" {
		return cli.BadInput("--data is required")
	}
	if s.k < 2 {
		return cli.BadInput("--k is required (at least 2)")
	}
	if s.rounds < 0 || (s.rounds > 0 && !s.icsm) {
		return cli.BadInput("--icsm-rounds %d: want 0, or a positive count with --icsm", s.rounds)
	}
	if !(s.intervalP > 0) || s.intervalP > 1e6 {
		return cli.BadInput("--interval-p %v: want a positive width", s.intervalP)
	}
	if s.coarse < 2*s.k {
		return cli.BadInput("--coarse %d: want at least 2k = %d", s.coarse, 2*s.k)
	}
	if err := checkResultFormat(s.format); err != nil {
		return err
	}
	missing, err := datasets.ParseMissing(s.missing)
	if err != nil {
		return cli.BadInput("--missing: %v", err)
	}
	ndigits, err := fixedDigits(s.digits)
	if err != nil {
		return err
	}
	spec, err := datasets.ParseSpec(s.data)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	if spec.Kind == datasets.SpecFile && len(s.cols) == 0 {
		return cli.BadInput("--cols is required with a CSV file")
	}
	var files cli.Files
	if path, ok := spec.File(); ok {
		files.Input("--data", path)
	}
	files.Output("--out", s.out)
	if err := files.Check(); err != nil {
		return cli.BadInput("%v", err)
	}
	csvOpt := &datasets.CSVOptions{Missing: missing}
	tab, err := spec.LoadWith(s.cols, csvOpt)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	if len(s.cols) == 0 {
		// A named data set microaggregates every column but those the
		// role flags name (as sdcopt microagg).
		if rest := roles.Unnamed(tab.Header, s.identifier, s.sensitive, s.insensitive); len(rest) < len(tab.Header) {
			if len(rest) == 0 {
				return cli.BadInput("%s: the role flags name every column, none is left to microaggregate (--cols)", spec)
			}
			if tab, err = spec.LoadWith(rest, csvOpt); err != nil {
				return cli.BadInput("%v", err)
			}
		}
	}
	raw := tab.Data
	if tab.MissingRecords > 0 {
		what := "left out (unpublished)"
		if tab.Missing == datasets.MissingImputeMean {
			what = "imputed with the column means"
		}
		fmt.Fprintf(os.Stderr, "sdcopt-pipeline: %d records have a missing value in a microaggregated column (%d cells): %s, --missing %s\n",
			tab.MissingRecords, tab.MissingCells, what, tab.Missing)
	}
	if s.k > raw.N {
		return cli.BadInput("--k %d exceeds the number of records of %s (n = %d)", s.k, spec, raw.N)
	}
	// The roles and the leak check, before anything is computed: only the
	// microaggregated, sensitive and insensitive columns are published.
	asg, kept, err := publishRoles(spec.String(),
		roleData{header: tab.Header, qi: raw.Names, qiFlag: "--cols", n: raw.N, cell: tab.Cell},
		&s.roleFlags, c.Flags().Changed("sensitive"), nil)
	if err != nil {
		return err
	}
	// The measures are those of the published values: the centroids
	// rounded as --out is written.
	tab.Digits = tableDigits(ndigits, tab)
	z, _ := model.Standardize(raw)
	res, err := pipeline.Microagg(context.Background(), z, pipeline.MicroaggConfig{K: s.k, Coarse: s.coarse, Seed: s.seed,
		ICSM: s.icsm, ICSMRounds: s.rounds, IntervalP: s.intervalP, Raw: raw, Digits: tab.Digits, Runner: run})
	if err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: err}
	}
	if _, err := res.Clustering.CheckK(raw.N, s.k); err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %w", err)}
	}
	var outs cli.Outputs
	defer outs.Abort()
	if s.out != "" {
		prot := model.Protect(raw, res.Clustering)
		write := func(w io.Writer) error { return tab.WriteProtected(w, prot, asg) }
		if len(kept) > 0 {
			// WriteProtected refuses the columns the leak check flags:
			// those named by --keep-risky are published as asked.
			write = func(w io.Writer) error { return tab.WritePublished(w, prot, asg.Published()) }
		}
		if err := outs.Write(s.out, write); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	r := &microaggResult{Data: spec.String(), Columns: raw.Names, N: raw.N, D: raw.D, K: s.k, Method: "mdav", ICSMRounds: s.rounds,
		Runner: run.Name, Coarse: s.coarse, Parts: len(res.Parts), Seed: s.seed, Groups: res.Clustering.NumGroups,
		SSE: res.SSE, SST: res.SST, IL: res.IL, IL1s: res.IL1s, IntervalDisclosure: res.Interval, IntervalOneOutside: res.IntervalOneOutside, IntervalP: res.IntervalP,
		RecordLinkage: res.Linkage, RecordLinkageTied: res.LinkageTied, Missing: tab.Missing.String(), MissingRecords: tab.MissingRecords,
		Published: asg.Names(asg.Published()), DroppedCols: asg.Names(asg.Dropped()), Seconds: res.Seconds, Out: s.out, roles: asg}
	r.KeptRisky = keptRiskyOf(kept)
	if s.icsm {
		r.Method = "icsm"
	}
	if s.out != "" && ndigits != -1 {
		r.Digits = tab.Digits
	}
	return writeResult(c.OutOrStdout(), s.format, r, func(w io.Writer) { writeMicroaggText(w, r) })
}

func writeMicroaggText(w io.Writer, r *microaggResult) {
	method := "MDAV"
	if r.Method == "icsm" {
		method = "MDAV + ICSM"
	}
	fmt.Fprintf(w, "data %s: %d records x %d attributes, k = %d, %s, runner %s\n", r.Data, r.N, r.D, r.K, method, r.Runner)
	fmt.Fprintf(w, "coarse parts %d (at most %d records), groups %d\n", r.Parts, r.Coarse, r.Groups)
	writeRoles(w, r.roles)
	for _, f := range r.KeptRisky {
		fmt.Fprintf(w, "kept risky %s\n", f.Evidence)
	}
	fmt.Fprintf(w, "SSE %.6g, SST %.6g, IL %.4f%%, IL1s %.6f\n", r.SSE, r.SST, r.IL, r.IL1s)
	fmt.Fprintf(w, "interval disclosure (p = %g) %.4f (%.4f with one attribute outside allowed, as sdcMicro before 5.6.0), DBRL within parts %.4f (upper bound; %d tied), %.2f s\n",
		r.IntervalP, r.IntervalDisclosure, r.IntervalOneOutside, r.RecordLinkage, r.RecordLinkageTied, r.Seconds)
	if r.MissingRecords > 0 {
		fmt.Fprintf(w, "missing %d records with missing values: %s\n", r.MissingRecords, map[string]string{
			datasets.MissingDrop.String(): "dropped", datasets.MissingImputeMean.String(): "imputed with the column means"}[r.Missing])
	}
	if len(r.Digits) > 0 {
		if slices.Min(r.Digits) == slices.Max(r.Digits) {
			fmt.Fprintf(w, "rounded --out to %d decimals in every column (SSE and IL of the unrounded values; IL1s, interval disclosure and DBRL of the rounded ones, as published)\n", r.Digits[0])
		} else {
			parts := make([]string, len(r.Digits))
			for jj, d := range r.Digits {
				parts[jj] = fmt.Sprintf("%s %d", r.Columns[jj], d)
			}
			fmt.Fprintf(w, "rounded --out to decimals %s (SSE and IL of the unrounded values; IL1s, interval disclosure and DBRL of the rounded ones, as published)\n", strings.Join(parts, ", "))
		}
	}
}

// fixedDigits reads --digits: N for N decimals, -1 for full precision,
// -2 for source.
func fixedDigits(digits string) (int, error) {
	switch digits {
	case digitsSource:
		return -2, nil
	case digitsFull:
		return -1, nil
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || n > 17 {
		return 0, cli.BadInput("--digits %q: want source, full or a number of decimals 0..17", digits)
	}
	return n, nil
}

// tableDigits returns the Table.Digits of --digits n (fixedDigits) for
// tab, the same for WriteProtected and WritePublished: -1 (full
// precision) for every column with full, the file's Decimals with source
// (nil on generated data, which has no source precision: full
// precision).
func tableDigits(n int, tab *datasets.Table) []int {
	if n == -2 {
		return tab.Decimals
	}
	d := make([]int, len(tab.Cols))
	for i := range d {
		d[i] = n
	}
	return d
}
