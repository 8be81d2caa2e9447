package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/pipeline"
)

type benchFlags struct {
	runnerFlags
	spec, format, out string
}

func newBenchCmd() *cobra.Command {
	var s benchFlags
	c := &cobra.Command{
		Use:   "bench --spec FILE",
		Short: "a benchmark grid, one pipeline element per case",
		Long: "Run the cases of a grid spec file (JSON) as one Beam pipeline element each and\n" +
			"merge them into the report of sdcopt bench icsm, kanon (its table of GCP vs k)\n" +
			"or mdav (one report per seed):\n\n" +
			"  {\"bench\": \"icsm\", \"tables\": [2], \"data\": [\"tarragona\", \"census\"],\n" +
			"   \"k\": [3, 5, 10], \"seeds\": [1], \"restarts\": 20, \"time_limit\": 0}\n" +
			"  {\"bench\": \"kanon\", \"k\": [2, 5, 10], \"methods\": [\"sortgreedy\", \"mondrian\"],\n" +
			"   \"partition\": 1000, \"seeds\": [1]}\n" +
			"  {\"bench\": \"mdav\", \"data\": [\"tarragona\", \"census\"], \"k\": [3, 5]}\n\n" +
			"icsm: tables, data and k select the cases as the flags of sdcopt bench icsm\n" +
			"(empty: all); seeds seed Table 4's restarts; time_limit is seconds per ICSM\n" +
			"call. kanon: one case per k and method on Adult; partition is records per\n" +
			"partition (0: chosen automatically for budget seconds, which depends on the\n" +
			"machine). mdav: MDAV on the CASC data sets at each k.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runBench(c, &s) },
	}
	f := c.Flags()
	f.StringVar(&s.spec, "spec", "", "the grid spec file (required)")
	f.StringVar(&s.format, "format", "text", "report format: text, json or csv")
	f.StringVar(&s.out, "out", "", "write the report to this file (atomically) instead of stdout")
	addRunnerFlags(c, &s.runnerFlags)
	c.Flags().MarkHidden("coarse")
	return c
}

func runBench(c *cobra.Command, s *benchFlags) error {
	run, err := s.get()
	if err != nil {
		return err
	}
	if err := cli.CheckFormat(s.format, "text", "json", "csv"); err != nil {
		return err
	}
	if s.spec == "" {
		return cli.BadInput("--spec is required")
	}
	var files cli.Files
	files.Input("--spec", s.spec)
	files.Output("--out", s.out)
	if err := files.Check(); err != nil {
		return cli.BadInput("%v", err)
	}
	f, err := os.Open(s.spec)
	if err != nil {
		return cli.BadInput("--spec: %v", err)
	}
	g, err := pipeline.ParseGrid(f, s.spec)
	f.Close()
	if err != nil {
		return cli.BadInput("%v", err)
	}
	// Bench checks the cases' data before the pipeline starts: a k above
	// the records of a data set is bad input (GridError), not a failed
	// worker.
	reps, err := pipeline.Bench(context.Background(), g, run)
	var gerr *pipeline.GridError
	switch {
	case errors.As(err, &gerr):
		return cli.BadInput("%v", err)
	case err != nil:
		return &cli.ExitError{Code: cli.ExitEngine, Err: err}
	}
	var buf bytes.Buffer
	for x, rep := range reps {
		switch s.format {
		case "json":
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			err = enc.Encode(rep)
		case "csv":
			err = bench.WriteCSV(&buf, rep)
		default:
			if len(reps) > 1 {
				fmt.Fprintf(&buf, "seed %d\n", g.Seeds[x])
			}
			err = rep.WriteText(&buf)
		}
		if err != nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: err}
		}
	}
	if s.out == "" {
		_, err := c.OutOrStdout().Write(buf.Bytes())
		return err
	}
	var outs cli.Outputs
	defer outs.Abort()
	if err := outs.Write(s.out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return cli.BadInput("--out: %v", err)
	}
	return outs.Commit()
}
