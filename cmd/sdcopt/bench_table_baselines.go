package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/internal/cli"
)

func newBenchTableBaselinesCmd() *cobra.Command {
	o := bench.DefaultTableBaselinesOptions()
	var timeLimit float64
	return benchCommand("table-baselines", "Side by side: sdcTable and GaussSuppression patterns audited by sdcopt",
		"Generate seeded hierarchical microdata (tabular/synth presets), protect the\n"+
			"table with the R packages statistical offices use (sdcTable's protectTable\n"+
			"methods, GaussSuppression's GaussSuppressionFromData), each with the same\n"+
			"primary rule (--rules freq:N on the frequency table, or p:P on a magnitude\n"+
			"table of turnover) and empty cells never primary, through the R\n"+
			"script bench/baselines/tables.R (one R process per run, stopped after\n"+
			"--time-limit), then audit every published pattern with sdcopt's interval audit\n"+
			"(tabular/intervals). Reports per case and tool: cells, primary and suppressed\n"+
			"cells, the suppressed total, the tool's time, its own interval check (sdcTable's\n"+
			"attack(), GaussSuppression's ComputeIntervals()) and its time, our audit's time,\n"+
			"and the primary cells our audit finds under-protected (against the levels of\n"+
			"--rules) or exactly disclosed, with one example each. The tool sdcopt:optimal is\n"+
			"sdcopt's own optimal suppression (tabular/suppress), run in this process on the\n"+
			"same table and primary cells under the same --time-limit, with its cost, proven\n"+
			"lower bound and gap; it needs no R. Suppressed totals are given with and\n"+
			"without the primary cells.\n\n"+
			"Needs Rscript and the packages sdcTable, GaussSuppression and Rglpk (in --rlib\n"+
			"or R's default library); without them it prints \"skipped: R/sdcTable not\n"+
			"installed\", runs only sdcopt:optimal if asked for, and exits 0.",
		func(f *pflag.FlagSet) {
			f.StringSliceVar(&o.Cases, "cases", o.Cases, "synth presets: 2way-1300, 3way-5000, 3way-100k, 2way-100k")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the microdata")
			f.StringVar(&o.Rules, "rules", o.Rules, "primary rule: freq:N[,safety:...] on the frequency table (the tools get maxN = N-1; the safety range sets our audit's levels), or p:P on a magnitude table of turnover")
			f.StringSliceVar(&o.Tools, "tools", o.Tools, "runs: sdcTable:METHOD (SIMPLEHEURISTIC, GAUSS, HITAS, OPT, ...), GaussSuppression and sdcopt:optimal")
			f.Float64Var(&timeLimit, "time-limit", o.TimeLimit.Seconds(), "seconds per tool run (the R process is stopped after it, sdcopt:optimal returns its best safe pattern; 0 = none)")
			f.StringVar(&o.Rscript, "rscript", "Rscript", "the R front end")
			f.StringVar(&o.RLib, "rlib", "", "R library holding the packages (default $RLIB, else ~/R/sdcopt-baselines)")
			f.StringVar(&o.Keep, "keep", "", "keep the microdata, hierarchies, patterns (table files) and R logs in this directory")
			f.StringVar(&o.Solver, "solver", "", "engine of our audit (default auto)")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.TableBaselinesReport, error) {
			var err error
			if o.TimeLimit, err = benchLimits(timeLimit, o.Solver); err != nil {
				return nil, err
			}
			o.Progress = prog
			return bench.TableBaselines(o)
		}, nil)
}
