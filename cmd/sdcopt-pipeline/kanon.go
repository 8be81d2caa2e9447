package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/pipeline"
	"github.com/sdcopt/sdcopt/roles"
)

type kanonFlags struct {
	runnerFlags
	roleFlags
	data, out, graphOut string
	qi, categorical     []string
	keepMissing         bool
	synthetic           int
	k, partition        int
	method              string
	seed                uint64
	solver              string
	format              string
}

// kanonResult is the result of `sdcopt-pipeline kanon` (--format json and
// csv), with the field names of `sdcopt kanon`'s where they mean the same.
type kanonResult struct {
	Data        string      `json:"data"`
	QI          []string    `json:"qi"`
	N           int         `json:"n"`
	K           int         `json:"k"`
	Method      string      `json:"method"`
	Runner      string      `json:"runner"`
	Coarse      int         `json:"coarse"`    // records per coarse part, at most
	Parts       int         `json:"parts"`     // coarse parts
	Partition   int         `json:"partition"` // records per partition inside a part (0: the part is one partition)
	Partitions  int         `json:"partitions"`
	Seed        uint64      `json:"seed"`
	GCP         float64     `json:"gcp"`
	Verified    bool        `json:"verified"`
	GraphEdges  int         `json:"graph_edges"`
	Dropped     int         `json:"dropped"` // data rows dropped for a missing quasi-identifier value
	KeptMissing bool        `json:"keep_missing"`
	Published   []string    `json:"published_columns,omitempty"`
	DroppedCols []string    `json:"dropped_columns,omitempty"` // identifiers and columns in no role
	KeptRisky   []keptRisky `json:"kept_risky,omitempty"`
	Seconds     float64     `json:"seconds"`
	Out         string      `json:"out,omitempty"`
	GraphOut    string      `json:"graph_out,omitempty"`
}

func newKanonCmd() *cobra.Command {
	var s kanonFlags
	c := &cobra.Command{
		Use:   "kanon (--data FILE|adult | --synthetic N) --k K",
		Short: "k-anonymity by freeform generalization on a Beam pipeline",
		Long: "k-anonymize the quasi-identifiers by freeform generalization (as sdcopt kanon)\n" +
			"on a Beam pipeline: coarse parts of at most --coarse records by Mondrian's\n" +
			"median rule on a seeded sample, then, in a worker per part, the partitions of\n" +
			"--partition records and the method, exactly as sdcopt kanon runs them on\n" +
			"that part. The published file and the graph file are those of sdcopt kanon\n" +
			"and pass sdcopt kanon verify: each part's files are verified by its worker,\n" +
			"and the merge checks how the parts join, before the files are renamed into\n" +
			"place. The records stream through the pipeline: --synthetic records are\n" +
			"generated as they are staged, and no process holds more than a coarse part.\n\n" +
			"Roles, as in sdcopt kanon: the quasi-identifiers (--qi) are generalized,\n" +
			"--identifier columns removed, --sensitive and --insensitive columns published\n" +
			"unchanged once the leak check passes (a column that determines a\n" +
			"quasi-identifier or is nearly unique stops the run, exit 2, unless named\n" +
			"with --keep-risky), columns in no role are not published. For --data adult\n" +
			"income is sensitive by default.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runKanon(c, &s) },
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "a CSV file with a header row, or adult (the shared UCI Adult file)")
	f.StringSliceVar(&s.qi, "qi", nil, "quasi-identifier columns (adult default: "+strings.Join(datasets.AdultQI(), ",")+")")
	f.StringSliceVar(&s.categorical, "categorical", nil, "categorical quasi-identifiers (adult default: "+strings.Join(datasets.AdultCategorical(), ",")+")")
	f.BoolVar(&s.keepMissing, "keep-missing", false, "keep records with a missing categorical quasi-identifier as the category '?'")
	f.IntVar(&s.synthetic, "synthetic", 0, "instead of --data: N synthetic records with Adult's 8 quasi-identifiers (seeded by --seed)")
	f.IntVar(&s.k, "k", 0, "the k of k-anonymity (required)")
	f.StringVar(&s.method, "method", kanon.MethodSortGreedy, "freeform method: "+strings.Join(kanon.Freeform(), ", "))
	f.IntVar(&s.partition, "partition", 1000, "records per partition inside a coarse part (0: the coarse part is one partition)")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the sample, the assignments and the publish order")
	f.StringVar(&s.solver, "solver", "", "MIP engine of --method mip (default: the best available; a cgo engine must be installed on every worker)")
	f.StringVar(&s.out, "out", "", "write the published file here")
	f.StringVar(&s.graphOut, "graph-out", "", "write the generalization graph here")
	f.StringVar(&s.format, "format", "text", "result format: text, json or csv")
	addRoleFlags(f, &s.roleFlags, " (adult default: "+strings.Join(datasets.AdultSensitive(), ",")+")")
	addRunnerFlags(c, &s.runnerFlags)
	return c
}

func runKanon(c *cobra.Command, s *kanonFlags) error {
	run, err := s.get()
	if err != nil {
		return err
	}
	if s.k < 1 {
		return cli.BadInput("--k is required (at least 1)")
	}
	if err := checkResultFormat(s.format); err != nil {
		return err
	}
	if !slices.Contains(kanon.Freeform(), s.method) {
		return cli.BadInput("--method %q: want one of %s", s.method, strings.Join(kanon.Freeform(), ", "))
	}
	if s.partition < 0 || (s.partition > 0 && s.partition < s.k) {
		return cli.BadInput("--partition %d: want 0 or at least k = %d", s.partition, s.k)
	}
	if s.coarse < 2*s.k {
		return cli.BadInput("--coarse %d: want at least 2k = %d", s.coarse, 2*s.k)
	}
	var files cli.Files
	dataPath := s.data
	if strings.EqualFold(s.data, "adult") {
		// The shared file: an output must not replace it either (when
		// the shared directory is missing, loading says so).
		if p, err := datasets.AdultPath(); err == nil {
			dataPath = p
		}
	}
	files.Input("--data", dataPath)
	files.Output("--out", s.out)
	files.Output("--graph-out", s.graphOut)
	if err := files.Check(); err != nil {
		return cli.BadInput("%v", err)
	}
	var q *datasets.QIData
	var src pipeline.Source
	var asg *roles.Assignment
	var kept []roles.Finding // leak findings published anyway (--keep-risky)
	label := s.data
	switch {
	case s.synthetic > 0 && s.data != "":
		return cli.BadInput("--data and --synthetic exclude each other")
	case s.synthetic > 0:
		// Generated record by record as the pipeline reads them: never
		// held in memory.
		src, label = pipeline.SyntheticSource(s.synthetic, s.seed), fmt.Sprintf("synthetic:%d", s.synthetic)
		if s.k > s.synthetic {
			return cli.BadInput("--k %d: the data has %d records", s.k, s.synthetic)
		}
	case s.data == "":
		return cli.BadInput("--data or --synthetic is required")
	case strings.EqualFold(s.data, "adult") && len(s.qi) == 0:
		q, err = datasets.LoadAdult(s.keepMissing)
	default:
		qi, cat := s.qi, s.categorical
		path := s.data
		if strings.EqualFold(s.data, "adult") {
			if path, err = datasets.AdultPath(); err != nil {
				return cli.BadInput("%v", err)
			}
			if len(cat) == 0 {
				for _, x := range qi {
					if slices.Contains(datasets.AdultCategorical(), x) {
						cat = append(cat, x)
					}
				}
			}
		} else if len(qi) == 0 {
			return cli.BadInput("--qi is required with --data %s", s.data)
		}
		q, err = datasets.LoadQI(path, qi, cat, s.keepMissing)
	}
	if err != nil {
		return cli.BadInput("%v", err)
	}
	if q != nil {
		if s.k > q.Table.N {
			return cli.BadInput("--k %d: the data has %d records", s.k, q.Table.N)
		}
		var defSensitive []string
		if strings.EqualFold(s.data, "adult") {
			defSensitive = datasets.AdultSensitive()
		}
		a, k, err := publishRoles(label, qiRoleData(q), &s.roleFlags, c.Flags().Changed("sensitive"), defSensitive)
		if err != nil {
			return err
		}
		src, asg, kept = pipeline.QISource(q, a.Exact()), a, k
	} else if s.roleFlags.given() {
		return cli.BadInput("--synthetic has only quasi-identifiers: no column for --identifier, --sensitive, --insensitive or --keep-risky")
	}
	// The published and graph files stream from the pipeline into
	// temporary files, renamed into place only after the whole
	// publication has been verified (part by part in the workers, and the
	// joins of the parts in the merge: pipeline.KanonPublish).
	cfg := pipeline.KanonConfig{K: s.k, Method: s.method, Partition: s.partition, Coarse: s.coarse, Seed: s.seed, MIPSolver: s.solver, Runner: run}
	var res *pipeline.Publication
	var runErr error
	publish := func(pub, graph io.Writer) error {
		res, runErr = pipeline.KanonPublish(context.Background(), src, cfg, pub, graph)
		return runErr
	}
	var outs cli.Outputs
	defer outs.Abort()
	err = withOutput(outs.Write, s.out, func(pub io.Writer) error {
		// The graph links each published record to its original: private.
		return withOutput(outs.WritePrivate, s.graphOut, func(graph io.Writer) error { return publish(pub, graph) })
	})
	switch {
	case runErr != nil && (errors.Is(runErr, kanon.ErrK) || errors.Is(runErr, kanon.ErrPartition)):
		return cli.BadInput("%v", runErr)
	case runErr != nil:
		return &cli.ExitError{Code: cli.ExitEngine, Err: runErr}
	case err != nil:
		return cli.BadInput("%v", err)
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	r := &kanonResult{Data: label, N: res.N, K: s.k, Method: s.method, Runner: run.Name, Coarse: s.coarse, Parts: res.Parts,
		Partition: s.partition, Partitions: res.Partitions, Seed: s.seed, GCP: res.GCP, Verified: true, GraphEdges: res.Edges,
		KeptMissing: s.keepMissing, Seconds: res.Seconds, Out: s.out, GraphOut: s.graphOut}
	for _, j := range src.QICols {
		r.QI = append(r.QI, src.Header[j])
	}
	if q != nil {
		r.Dropped = q.Dropped
	}
	if asg != nil {
		r.Published = asg.Names(asg.Published())
		r.DroppedCols = asg.Names(slices.Concat(asg.Columns(roles.Identifier), asg.Columns(roles.Unclassified)))
		r.KeptRisky = keptRiskyOf(kept)
	}
	return writeResult(c.OutOrStdout(), s.format, r, func(w io.Writer) {
		fmt.Fprintf(w, "data %s: %d records, k = %d, method %s, runner %s\n", r.Data, r.N, r.K, r.Method, r.Runner)
		fmt.Fprintf(w, "coarse parts %d (at most %d records), partitions %d (%d records)\n", r.Parts, r.Coarse, r.Partitions, r.Partition)
		if asg != nil {
			writeRoles(w, asg)
		}
		for _, f := range r.KeptRisky {
			fmt.Fprintf(w, "kept risky %s\n", f.Evidence)
		}
		fmt.Fprintf(w, "GCP %.6f, verified (%d graph edges), %.2f s\n", r.GCP, r.GraphEdges, r.Seconds)
	})
}

// withOutput runs write through put (an Outputs' Write or WritePrivate:
// a temporary file of path, renamed by Commit), or on io.Discard when path
// is empty.
func withOutput(put func(string, func(io.Writer) error) error, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(io.Discard)
	}
	return put(path, write)
}
