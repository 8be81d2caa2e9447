// Command sdcopt-pipeline runs sdcopt's protection methods as Apache Beam
// pipelines, in this process (Beam's prism runner, the default) or on a
// cluster through a portable job endpoint (a Flink or Spark job server).
// It is a separate command so that the sdcopt binary stays without Beam's
// dependencies (see README.md, "Running past one machine").
//
// Exit status: 0 success, 2 bad usage or bad input, 3 a failed pipeline,
// 130 / 143 stopped by SIGINT / SIGTERM.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/pipeline"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

func main() {
	// A worker started by a cluster's SDK harness runs this binary with
	// Beam's own flags (--worker, --id, --control_endpoint, ...).
	if slices.ContainsFunc(os.Args[1:], func(a string) bool { return a == "--worker" || strings.HasPrefix(a, "--worker=") }) {
		flag.Parse()
		beam.Init()
		return
	}
	cli.Program = "sdcopt-pipeline"
	cli.HandleSignals()
	os.Exit(execute())
}

// execute runs the command line of os.Args and returns the exit status.
func execute() int {
	err := newRoot().Execute()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdcopt-pipeline:", err)
	}
	return cli.Code(err)
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "sdcopt-pipeline",
		Short: "sdcopt's protection methods as Apache Beam pipelines",
		Long: "sdcopt-pipeline runs k-anonymization and microaggregation as Apache Beam\n" +
			"pipelines: in this process on Beam's prism runner (the default), or on a\n" +
			"Flink or Spark cluster through its portable job endpoint (--runner portable\n" +
			"--endpoint host:port). The records are split into coarse parts by\n" +
			"Mondrian's median rule on a seeded sample, and each part is protected by\n" +
			"the single-machine method in a worker.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return cli.BadInput("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(newKanonCmd(), newMicroaggCmd(), newBenchCmd())
	return root
}

// runnerFlags are the flags every pipeline takes.
type runnerFlags struct {
	runner, endpoint, environment, workDir string
	coarse                                 int
	verbose                                bool
}

func addRunnerFlags(c *cobra.Command, r *runnerFlags) {
	f := c.Flags()
	f.StringVar(&r.runner, "runner", pipeline.RunnerPrism, "prism (Beam in this process), portable (a Flink or Spark job server at --endpoint), or single (no Beam: the same coarse parts one after the other in this process)")
	f.StringVar(&r.endpoint, "endpoint", "", "host:port of the job service (--runner portable)")
	f.StringVar(&r.environment, "environment", "", "worker environment of the portable runner: docker (Beam's default: the Go SDK container), process or loopback (workers in this process)")
	f.StringVar(&r.workDir, "work-dir", "", "existing directory in which the run makes its own work directory (sdcopt-pipeline-*, mode 0700) for the staged input and the parts' results, removed after the run and on a failure or an interrupt; nothing else in it is written; on a cluster, storage every worker reaches (default: $TMPDIR)")
	f.IntVar(&r.coarse, "coarse", pipeline.DefaultCoarse, "records per coarse part, at most (a part holds about half to all of it)")
	f.BoolVar(&r.verbose, "verbose", false, "show Beam's log on stderr")
}

// get validates the runner flags.
func (r *runnerFlags) get() (pipeline.Runner, error) {
	// The run's work directory holds the staged records: an interrupt
	// removes it too (cli.MkdirTemp).
	run := pipeline.Runner{Name: r.runner, Endpoint: r.endpoint, Environment: r.environment, WorkDir: r.workDir, TempDir: cli.MkdirTemp}
	if r.verbose {
		run.LogLevel = "info"
	}
	if err := run.Check(); err != nil {
		return run, cli.BadInput("%v", err)
	}
	if r.coarse < 1 {
		return run, cli.BadInput("--coarse %d: want at least 1", r.coarse)
	}
	return run, nil
}

// noArgs rejects positional arguments with exit code 2.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return cli.BadInput("%s takes no arguments, got %q", c.CommandPath(), args)
	}
	return nil
}
