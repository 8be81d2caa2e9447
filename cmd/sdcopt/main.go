// Command sdcopt solves the optimization problems of statistical
// disclosure control: cell bounds for contingency tables, microaggregation
// and k-anonymity by freeform generalization, with the LP/MIP engines
// behind one interface.
//
// Exit status: 0 success, 1 the problem has no solution (infeasible,
// inconsistent input, a time limit without a result), 2 bad usage or bad
// input, 3 engine failure, 130 / 143 stopped by SIGINT / SIGTERM. Results go to stdout (or --out), diagnostics
// and progress to stderr.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/internal/cli"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// version is the sdcopt release; overridden with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "sdcopt",
		Short:         "Optimization for statistical disclosure control",
		Long:          "sdcopt solves the optimization problems of statistical disclosure control\nwith LP/MIP engines (HiGHS, lp_solve, CLP/CBC) behind one interface.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return cli.BadInput("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(newSolversCmd(), newVersionCmd(), newSolveCmd(), newDemoCmd(), newMicroaggCmd(), newBenchCmd(), newBoundsCmd(), newKanonCmd(), newAuditCmd(), newServeCmd(), newTableCmd())
	root.SetHelpCommand(newHelpCmd())
	decimalFlags(root)
	return root
}

// newHelpCmd is `sdcopt help [COMMAND ...]`: the help of a command, or
// bad usage (exit 2) naming the commands when there is no such command
// (cobra's own help printed the usage and exited 0).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || cmd == nil {
				var names []string
				parent := root
				if cmd != nil && cmd != root {
					parent = cmd
				}
				for _, s := range parent.Commands() {
					if s.IsAvailableCommand() {
						names = append(names, s.Name())
					}
				}
				return cli.BadInput("unknown help topic %q (commands of %s: %s)", strings.Join(args, " "), parent.CommandPath(), strings.Join(names, ", "))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

func main() {
	cli.HandleSignals()
	os.Exit(execute())
}

// execute runs the command line and returns the exit code.
func execute() int {
	err := newRoot().Execute()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdcopt:", err)
	}
	return cli.Code(err)
}

// noArgs rejects positional arguments with exit code 2.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return cli.BadInput("%s takes no arguments, got %q", c.CommandPath(), args)
	}
	return nil
}
