package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/internal/cli"
)

// newBenchTableAuditCmd is `sdcopt bench table-audit`: the interval audit
// (sdcopt table audit) timed against the number of cells.
func newBenchTableAuditCmd() *cobra.Command {
	o := bench.DefaultTableAuditOptions()
	var sizes, ways string
	return benchCommand("table-audit", "Interval audit: time vs table size, with the fitted exponent",
		"Time the interval audit (LP intervals of every suppressed cell, with their\n"+
			"certificates, as sdcopt table audit computes them) of seeded synthetic\n"+
			"hierarchical frequency tables of about --sizes cells (2-way and 3-way, each\n"+
			"variable total -> groups -> leaves), and fit seconds ~ cells^b by least squares\n"+
			"on log-log axes. Primary cells: 1 or 2 contributors (freq(3)); extra cells are\n"+
			"suppressed until --suppressed of the cells are, either uniformly (random) or in\n"+
			"a few subtrees of the first variable (concentrated). Every certificate is\n"+
			"re-checked after the timing. One run per point: the exponents are indicative\n"+
			"on a shared machine. --plot draws the times and fits on log-log axes.",
		func(f *pflag.FlagSet) {
			f.StringVar(&sizes, "sizes", joinInts(o.Sizes), "target numbers of cells (comma list)")
			f.StringVar(&ways, "ways", joinInts(o.Ways), "numbers of dimensions, 2 and/or 3 (comma list)")
			f.StringSliceVar(&o.Patterns, "patterns", o.Patterns, "suppression patterns: random, concentrated")
			f.Float64Var(&o.Suppressed, "suppressed", o.Suppressed, "share of the cells suppressed, in (0, 1)")
			f.StringVar(&o.Solver, "solver", o.Solver, "LP engine (default auto)")
			f.IntVar(&o.Workers, "workers", o.Workers, "goroutines solving independent components")
			f.BoolVar(&o.NoLocal, "no-local", o.NoLocal, "leave out the local relaxations (intervals.Settings.NoLocal)")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the microdata and of the extra suppressed cells")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.TableAuditReport, error) {
			var err error
			if o.Sizes, err = parseIntList("sizes", sizes); err != nil {
				return nil, err
			}
			if o.Ways, err = parseIntList("ways", ways); err != nil {
				return nil, err
			}
			o.Progress = prog
			return bench.TableAudit(o)
		}, nil)
}
