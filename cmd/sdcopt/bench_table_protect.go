package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/internal/cli"
)

func newBenchTableProtectCmd() *cobra.Command {
	o := bench.DefaultTableProtectOptions()
	var timeLimit float64
	return benchCommand("table-protect", "Secondary cell suppression on synthetic tables and linked tables, every pattern audited",
		"Generate seeded hierarchical microdata (tabular/synth presets), tabulate each\n"+
			"case's table, or the tables of a linked preset (linked-2000, linked-66k,\n"+
			"linked-100k: tables over subsets of the same variables, sharing marginals,\n"+
			"linked in one system and protected jointly), apply --rules to every table,\n"+
			"and protect it with tabular/suppress by the case's method (--cases\n"+
			"PRESET:METHOD, METHOD optimal, fast or auto). Every pattern is then audited\n"+
			"again, apart from the suppression: the attacker's LP interval of every\n"+
			"suppressed cell over the whole table or system (tabular/intervals) against\n"+
			"the primary cells' protection levels.\n\n"+
			"Reports per case: tables, cells, primary and secondary cells, the cost of the\n"+
			"secondary cells, the optimal method's proven lower bound and gap (the fast\n"+
			"method proves none), why it stopped, the suppression's time (with its own\n"+
			"audit), our audit's time, the primary cells the audit finds under-protected\n"+
			"or disclosed, the empty-cell policy and the load average at the start and end.\n"+
			"--plot draws the optimal cases' cost against time (incumbent and lower\n"+
			"bound), one figure each (suppress-trace-PRESET); --format csv|json gives the\n"+
			"traces too. --keep DIR writes each protected table or system as a JJ file,\n"+
			"which sdcopt table audit --jj audits again (e.g. with another --solver).",
		func(f *pflag.FlagSet) {
			f.StringSliceVar(&o.Cases, "cases", o.Cases, "PRESET:METHOD runs; presets 2way-1300, 3way-5000, 3way-100k, 2way-100k, linked-2000, linked-66k, linked-100k; methods optimal, fast, auto")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the microdata")
			f.StringVar(&o.Rules, "rules", o.Rules, "primary rules applied to every table (package primary), e.g. freq:3")
			f.StringVar(&o.Cost, "cost", o.Cost, "cost of a suppressed cell: value, unity, freq or log")
			f.StringVar(&o.Zero, "zero", o.Zero, "empty cells: never (always published) or allowed (may be secondary suppressions)")
			f.Float64Var(&timeLimit, "time-limit", o.TimeLimit.Seconds(), "seconds per case for the suppression (the best safe pattern found is returned; 0 = none)")
			f.StringVar(&o.Solver, "solver", "", "LP engine of the suppression's LPs and of the audit (default auto)")
			f.BoolVar(&o.Insiders, "insiders", false, "protect against insiders too (default: outsiders only, as the R tools of table-baselines; the audit column checks outsiders)")
			f.StringVar(&o.Keep, "keep", "", "write each case's protected table or system to DIR/PRESET-METHOD.jj (0600), for sdcopt table audit --jj")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.TableProtectReport, error) {
			var err error
			if o.TimeLimit, err = benchLimits(timeLimit, o.Solver); err != nil {
				return nil, err
			}
			o.Progress = prog
			return bench.TableProtect(o)
		}, nil)
}
