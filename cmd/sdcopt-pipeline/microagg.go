package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/pipeline"
)

type microaggFlags struct {
	runnerFlags
	data, out string
	cols      []string
	k         int
	seed      uint64
	icsm      bool
	rounds    int
	intervalP float64
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
			"(exact up to rounding), and distance-based record linkage with each record's\n" +
			"nearest originals searched in its own part (an upper bound of the whole\n" +
			"data's DBRL; equal with one part).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runMicroagg(c, &s) },
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "a CSV file, a CASC data set (tarragona, census, eia) or synthetic:gauss-N-D-C[:SEED] (required)")
	f.StringSliceVar(&s.cols, "cols", nil, "numeric columns to microaggregate (default: every column; required for a CSV file)")
	f.IntVar(&s.k, "k", 0, "minimum group size (required, at least 2)")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the sample that places the coarse split points")
	f.BoolVar(&s.icsm, "icsm", false, "polish MDAV's groups of every part by ICSM local search (no restarts)")
	f.IntVar(&s.rounds, "icsm-rounds", 0, "at most this many improving ICSM rounds per part (0: until no move improves)")
	f.Float64Var(&s.intervalP, "interval-p", 0.05, "width of interval disclosure, a fraction of the protected standard deviation")
	f.StringVar(&s.out, "out", "", "write the protected data (each record replaced by its group's centroid) here")
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
	tab, err := spec.Load(s.cols)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	raw := tab.Data
	if s.k > raw.N {
		return cli.BadInput("--k %d exceeds the number of records of %s (n = %d)", s.k, spec, raw.N)
	}
	z, _ := model.Standardize(raw)
	res, err := pipeline.Microagg(context.Background(), z, pipeline.MicroaggConfig{K: s.k, Coarse: s.coarse, Seed: s.seed,
		ICSM: s.icsm, ICSMRounds: s.rounds, IntervalP: s.intervalP, Runner: run})
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
		if err := outs.Write(s.out, func(w io.Writer) error { return tab.WriteAllColumnsUnsafe(w, prot) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	method := "MDAV"
	if s.icsm {
		method = "MDAV + ICSM"
	}
	fmt.Fprintf(c.OutOrStdout(), "data %s: %d records x %d attributes, k = %d, %s, runner %s\n", spec, raw.N, raw.D, s.k, method, run.Name)
	fmt.Fprintf(c.OutOrStdout(), "coarse parts %d (at most %d records), groups %d\n", len(res.Parts), s.coarse, res.Clustering.NumGroups)
	fmt.Fprintf(c.OutOrStdout(), "SSE %.6g, SST %.6g, IL %.4f%%, IL1s %.6f\n", res.SSE, res.SST, res.IL, res.IL1s)
	fmt.Fprintf(c.OutOrStdout(), "interval disclosure (p = %g) %.4f, DBRL within parts %.4f (upper bound; %d tied), %.2f s\n",
		res.IntervalP, res.Interval, res.Linkage, res.LinkageTied, res.Seconds)
	return nil
}
