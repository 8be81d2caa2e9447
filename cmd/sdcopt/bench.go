package main

import (
	"time"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/risk"
)

// `sdcopt bench X`: flags become bench options, the library runs the
// reproduction, the command renders the typed report (text, JSON, CSV)
// and draws its figures.

// newBenchCmd is the parent of the paper-table reproductions; each one is
// a subcommand.
func newBenchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "Reproduce the published tables on the benchmark data",
		Long: "Reproduce the published tables on the benchmark data of ../shared/datasets\n" +
			"(or $SDCOPT_DATA_DIR), printing our values beside the published ones.\n" +
			"Every bench takes --format text|json|csv, --out FILE and --quiet; those that\n" +
			"draw figures (mdav, dobra, icsm, colgen, microagg-full, microagg-tradeoff,\n" +
			"kanon, scaling, table-audit, table-protect) take --plot DIR (SVG and PNG).",
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				var names []string
				for _, s := range c.Commands() {
					names = append(names, s.Name())
				}
				return cli.BadInput("unknown bench %q (want one of %s)", args[0], strings.Join(names, ", "))
			}
			return c.Help()
		},
	}
	c.AddCommand(newBenchMDAVCmd(), newBenchDobraCmd(), newBenchICSMCmd(), newBenchColgenCmd(), newBenchMicroaggFullCmd(), newBenchMicroaggTradeoffCmd(), newBenchCheckCertificatesCmd(), newBenchKanonCmd(),
		newBenchScalingCmd(), newBenchBoundsCmd(), newBenchAuditCmd(), newBenchServeCmd(), newBenchTableAuditCmd(),
		newBenchTableBaselinesCmd(), newBenchTableProtectCmd())
	return c
}

// benchOutput are the output flags every bench shares.
type benchOutput struct {
	format, out, plot string
	quiet             bool
}

// register adds the output flags; --plot only when the bench draws
// figures.
func (o *benchOutput) register(f *pflag.FlagSet, figures bool) {
	f.StringVar(&o.format, "format", "text", "output format: text|json|csv")
	f.StringVar(&o.out, "out", "", "write the result to this file (atomically) instead of stdout")
	if figures {
		f.StringVar(&o.plot, "plot", "", "draw the figures into this directory (NAME.svg and NAME.png; created if missing)")
	}
	f.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
}

// check validates the output flags before anything runs; inputs are
// flag, path pairs of the bench's input files.
func (o *benchOutput) check(inputs ...string) error {
	if err := cli.CheckFormat(o.format, bench.Formats...); err != nil {
		return err
	}
	outs := []string{"--out", o.out}
	if o.plot != "" {
		// An existing directory must take new files; otherwise the
		// directory is created beside its parent, like a file.
		if st, err := os.Stat(o.plot); err == nil && st.IsDir() {
			outs = append(outs, "--plot", filepath.Join(o.plot, "figure.svg"))
		} else {
			outs = append(outs, "--plot", o.plot)
		}
	}
	return checkFiles(inputs, outs)
}

// emit renders the report and draws its figures; the result file and
// the figure files are written together or not at all.
func (o *benchOutput) emit(w io.Writer, rep bench.Report) error {
	render := func(w io.Writer) error {
		switch o.format {
		case "json":
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(rep)
		case "csv":
			return bench.WriteCSV(w, rep)
		}
		return rep.WriteText(w)
	}
	var outs cli.Outputs
	defer outs.Abort()
	if o.out != "" {
		if err := outs.Write(o.out, render); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	nfig := 0
	if f, ok := rep.(bench.Figurer); ok && o.plot != "" {
		figs, err := f.Figures()
		if err != nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("figures: %w", err)}
		}
		if err := outs.Mkdir(o.plot); err != nil {
			return cli.BadInput("--plot: %v", err)
		}
		for _, fig := range figs {
			for _, ext := range bench.FigureFormats {
				path := filepath.Join(o.plot, fig.Name+"."+ext)
				if err := outs.Write(path, func(w io.Writer) error { return fig.Write(w, ext) }); err != nil {
					return cli.BadInput("--plot: %v", err)
				}
				nfig++
			}
		}
	}
	if o.out == "" {
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			return err
		}
		if err := outs.Commit(); err != nil {
			return cli.BadInput("%v", err)
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	if nfig > 0 && !o.quiet {
		fmt.Fprintf(os.Stderr, "sdcopt: %d figure files in %s\n", nfig, o.plot)
	}
	return nil
}

// benchError maps a runner's error: a bad setting names its flag.
func benchError(err error) error {
	var se *bench.SettingsError
	switch {
	case errors.As(err, &se):
		return cli.BadInput("--%s: %s", se.Field, se.Msg)
	case errors.Is(err, bench.ErrCheck):
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %w", err)}
	}
	return libraryError("", err)
}

// benchCommand builds a bench subcommand: register adds its own flags,
// run checks them, runs the bench and returns its report. --plot is a
// flag of the benches whose report type R draws figures (bench.Figurer)
// only: elsewhere it would be accepted and draw nothing.
func benchCommand[R bench.Report](use, short, long string, register func(*pflag.FlagSet), run func(c *cobra.Command, prog *cli.Progress) (R, error), inputs func() []string) *cobra.Command {
	var o benchOutput
	c := &cobra.Command{
		Use: use, Short: short, Long: long, Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var in []string
			if inputs != nil {
				in = inputs()
			}
			if err := o.check(in...); err != nil {
				return err
			}
			prog := cli.NewProgress(o.quiet)
			rep, err := run(c, prog)
			prog.Finish()
			if err != nil {
				return benchError(err)
			}
			if err := o.emit(c.OutOrStdout(), rep); err != nil {
				return err
			}
			// A report that checks something (check-certificates) is
			// written whole, then its verdict sets the exit code (1).
			if v, ok := any(rep).(interface{ Verdict() error }); ok {
				if err := v.Verdict(); err != nil {
					return cli.NoSolution("%v", err)
				}
			}
			return nil
		},
	}
	register(c.Flags())
	var zero R
	_, figures := any(zero).(bench.Figurer)
	o.register(c.Flags(), figures)
	return c
}

func newBenchMDAVCmd() *cobra.Command {
	return benchCommand("mdav", "MDAV information loss on Tarragona, Census and EIA beside the published values",
		"MDAV information loss IL = 100*SSE/SST (percent, z-scored data) on the CASC\n"+
			"data sets Tarragona, Census and EIA at k = 3, 4, 5, 10, beside IL_MDAV of\n"+
			"Mortazavi & Jalili, \"A Novel Local Search Method for Microaggregation\",\n"+
			"Table 2 (k = 3, 5, 10; k = 4 is not published: \"-\"). MATCH compares the\n"+
			"two values rounded to 2 decimals; SECONDS is our MDAV time per case.\n"+
			"--plot draws IL vs k per data set, ours beside the published values.",
		func(*pflag.FlagSet) {},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.MDAVReport, error) {
			return bench.MDAV(&bench.MDAVOptions{Progress: prog})
		}, nil)
}

func newBenchDobraCmd() *cobra.Command {
	var data string
	var tables []string
	return benchCommand("dobra", "Dobra & Fienberg's Tables 2-5 (cell bounds on the autoworkers table) beside ours",
		"Reproduce Tables 2, 3, 4 and 5 of Dobra & Fienberg, \"Bounds for cell entries\n"+
			"in contingency tables induced by fixed marginal totals\", from autoworkers.csv:\n"+
			"for every cell our sharp bounds (method auto), the LP bounds, the integer\n"+
			"(IP) and shuttle bounds, and the published bounds, in the paper's layout.\n"+
			"Flags: ! our sharp bound differs from the published one; F the LP bound is\n"+
			"fractional. Below each table every difference is explained: where IP and\n"+
			"the shuttle agree with each other and not with the paper, the paper is\n"+
			"reported as in error; the code is not bent to the published number.\n"+
			"--plot draws the LP and IP bound widths of every cell.",
		func(f *pflag.FlagSet) {
			f.StringVar(&data, "data", "", "autoworkers CSV (default: autoworkers.csv in the shared data directory)")
			f.StringSliceVar(&tables, "tables", nil, "only these tables, e.g. table3,table4 (default all)")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.DobraReport, error) {
			return bench.Dobra(&bench.DobraOptions{Data: data, Tables: tables, Progress: prog})
		},
		func() []string { return []string{"--data", data} })
}

func newBenchICSMCmd() *cobra.Command {
	o := bench.DefaultICSMOptions()
	var timeLimit float64
	return benchCommand("icsm", "ICSM local search on the benchmark and simulated data beside the published values",
		"ICSM local search (1-opt, 2-opt and n-opt moves from MDAV) beside\n"+
			"Mortazavi & Jalili, \"A Novel Local Search Method for Microaggregation\".\n\n"+
			"Table 2: one run from MDAV without an iteration cap on Tarragona, Census and\n"+
			"EIA at k = 3, 5, 10; Sim-1, Sim-2, Sim-3 at k = 3, 5, 10, averaged over 25\n"+
			"generated data sets (seeds 1..25; our generators follow the paper's\n"+
			"description, not its data); Synthetic (seed 1) at k = 3, 5, 10 with 20 and\n"+
			"400 iterations. Table 4: the best IL over --restarts perturbed restarts on\n"+
			"Tarragona, Census and EIA at k = 3, 4, 5, 10 (the paper used 1600), beside\n"+
			"the published IL of ICSM and of LS.\n\n"+
			"IL = 100*SSE/SST (percent, z-scored data). DIFF is ours minus published;\n"+
			"STATUS is ok when ours <= published + 0.005 (the paper prints 2 decimals),\n"+
			"else ABOVE. SECONDS is our ICSM time including MDAV (mean per data set for\n"+
			"the Sim rows). The full reproduction takes a long time (Synthetic: 10,000\n"+
			"records, EIA: 4,092); restrict it with --tables, --data and --k. --plot draws\n"+
			"IL vs k per CASC data set.",
		func(f *pflag.FlagSet) {
			f.IntSliceVar(&o.Tables, "tables", []int{2, 4}, "tables to reproduce: 2 (ICSM from MDAV), 4 (best over restarts)")
			f.StringSliceVar(&o.Data, "data", nil, "data sets to run (default all): "+strings.Join(bench.ICSMData, ","))
			f.IntSliceVar(&o.Ks, "k", nil, "k values to run (default all of the tables: 3,4,5,10)")
			f.IntVar(&o.Restarts, "restarts", o.Restarts, "Table 4: perturbed restarts per case (the paper used 1600)")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "Table 4: seed of the restart perturbations")
			f.Float64Var(&timeLimit, "time-limit", 0, "time limit in seconds per ICSM call (per data set for the Sim rows, restarts included; 0 = none)")
			f.IntVar(&o.Sources, "sources", o.Sources, "groups, by increasing score, searched for negative cycles (-1 = all)")
			f.IntVar(&o.Neighbourhood, "neighbourhood", microagg.DefaultNeighbourhood, "groups of the restricted graph of the neighbourhood sweep (-1 = off: the paper's algorithm)")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.ICSMReport, error) {
			d, err := cli.TimeLimit("--time-limit", timeLimit)
			if err != nil {
				return nil, err
			}
			o.TimeLimit, o.Progress = d, prog
			return bench.ICSM(o)
		}, nil)
}

func newBenchColgenCmd() *cobra.Command {
	o := bench.DefaultColgenOptions()
	var cs colgenSettings
	var timeLimit float64
	var maxIter int
	return benchCommand("colgen", "Column generation gaps on CASC subsets beside Gentile, Spagnolo-Arrizabalaga & Castro Tables 3/4",
		"Column generation for microaggregation on subsets of Census (Table 3) or\n"+
			"Tarragona (Table 4) beside the published rows of Gentile,\n"+
			"Spagnolo-Arrizabalaga & Castro. For every n, k and extraction criterion\n"+
			"(cons: consecutive, rand: random, l2n: by L2 norm, l2d: by L2 distance from\n"+
			"the centroid) --instances subsets are drawn (seeds 1..instances, the same\n"+
			"subsets for every k), z-scored and solved. Gaps follow formula (15),\n"+
			"100*(SSE_H - LB)/SSE_H, against the final master LP bound LB, averaged over\n"+
			"the instances, for MDAV, V-MDAV, MSTH (RoundingMSTHeuristic), SRH\n"+
			"(SimpleRoundingHeuristic), PI* (the paper's output: the best of those when the\n"+
			"column generation ends) and BEST (the returned clustering, after the\n"+
			"gap-closing stage). TIME is the column generation (the paper's algorithm,\n"+
			"comparable with P.TIME), CLOSE the gap-closing stage after it (seconds,\n"+
			"means). EX counts the instances solved to proven optimality (gap closed), INT\n"+
			"those whose final master solution is integral (the paper's Ex). The published\n"+
			"instances are not available: compare averages. STATUS is ok when our PI* is at\n"+
			"most the published better of MSTH and SRH (+0.005), else ABOVE; a summary per\n"+
			"(n, k) follows the table. --plot draws the mean gaps vs n per k.",
		func(f *pflag.FlagSet) {
			f.StringVar(&o.Data, "data", o.Data, "data set: census (Table 3) or tarragona (Table 4)")
			f.IntSliceVar(&o.Ns, "n", o.Ns, "subset sizes (the paper: 30,40,50,100,200)")
			f.IntSliceVar(&o.Ks, "k", o.Ks, "minimum group sizes")
			f.StringSliceVar(&o.Criteria, "criteria", o.Criteria, "extraction criteria: cons,rand,l2n,l2d")
			f.IntVar(&o.Instances, "instances", o.Instances, "subsets per row (the paper: 5)")
			f.Float64Var(&timeLimit, "time-limit", 0, "time limit per instance in seconds (0 = none); a stopped run reports its Lagrangian bound")
			f.IntVar(&maxIter, "max-iter", 0, "cap on the master solves per instance (0 = none)")
			addColgenFlags(f, &cs)
		},
		func(c *cobra.Command, prog *cli.Progress) (*bench.ColgenReport, error) {
			if err := cs.check(timeLimit, maxIter); err != nil {
				return nil, err
			}
			o.Colgen, o.Progress = *colgenOptions(&cs, timeLimit, maxIter), prog
			return bench.Colgen(o)
		}, nil)
}

func newBenchMicroaggFullCmd() *cobra.Command {
	o := bench.DefaultMicroaggFullOptions()
	var cs colgenSettings
	var certFile string
	timeLimit := o.TimeLimit.Seconds()
	var maxIter int
	return benchCommand("microagg-full", "Column generation on the full Census, Tarragona and EIA beside the best published IL",
		"Microaggregation of the full CASC data sets (Census, Tarragona, EIA) at\n"+
			"k = 3, 4, 5, 10 by `microagg --method colgen` (ICSM start, column generation,\n"+
			"gap-closing stage, ICSM polish), each case under --time-limit (default 600 s,\n"+
			"ten minutes per case). Columns: our IL, the lower bound as IL, the gap\n"+
			"100*(SSE-bound)/SSE, the kind of bound (nearest_neighbour, subgradient,\n"+
			"exact_shares, lagrangian, master_lp, subset_row_lp, integer_program,\n"+
			"branch_and_price) and the time the run reached it (BOUND AT), EXACT when the\n"+
			"gap is closed, where the\n"+
			"clustering came from, the IL of our ICSM start and of MDAV, the time and the\n"+
			"phase a limit stopped, beside the best published IL (Mortazavi & Jalili\n"+
			"Table 4, ICSM best of 1,600 restarts; Table 2, MDAV). STATUS is ok when our\n"+
			"IL <= published + 0.005. --groups DIR writes DATA-kK.csv (record,group) per\n"+
			"case, so anyone can recompute the IL. --plot DIR draws the bound and the\n"+
			"incumbent over time per case (the JSON output carries the trace). The full\n"+
			"run takes 12 x --time-limit.",
		func(f *pflag.FlagSet) {
			f.StringSliceVar(&o.Data, "data", o.Data, "data sets: census,tarragona,eia")
			f.IntSliceVar(&o.Ks, "k", o.Ks, "k values")
			f.Float64Var(&timeLimit, "time-limit", timeLimit, "time limit per case in seconds")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the ICSM start's restarts")
			f.IntVar(&o.Colgen.ICSMRestarts, "restarts", 0, "perturbed restarts of the ICSM start")
			f.StringVar(&o.GroupsDir, "groups", "", "write DATA-kK.csv (record,group, 1-based) per case into this existing directory")
			f.StringVar(&certFile, "certificates", "", "write the lower-bound certificates (duals, per-size bounds and how they were proven) of every case as JSON to this file (sdcopt bench check-certificates --in FILE recomputes them)")
			f.IntVar(&maxIter, "max-iter", 0, "cap on the master solves per case (0 = none)")
			addColgenFlags(f, &cs)
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.MicroaggFullReport, error) {
			if timeLimit <= 0 {
				return nil, cli.BadInput("--time-limit must be positive (a case may not finish), got %g", timeLimit)
			}
			if err := cs.check(timeLimit, maxIter); err != nil {
				return nil, err
			}
			if o.Colgen.ICSMRestarts < 0 {
				return nil, cli.BadInput("--restarts must be >= 0, got %d", o.Colgen.ICSMRestarts)
			}
			restarts := o.Colgen.ICSMRestarts
			o.Colgen = *colgenOptions(&cs, timeLimit, maxIter)
			o.Colgen.ICSMRestarts = restarts
			d, err := cli.TimeLimit("--time-limit", timeLimit)
			if err != nil {
				return nil, err
			}
			o.TimeLimit, o.Progress = d, prog
			rep, err := bench.MicroaggFull(o)
			if err != nil || certFile == "" {
				return rep, err
			}
			if err := cli.WriteFileAtomic(certFile, rep.WriteCertificates); err != nil {
				return nil, cli.BadInput("--certificates: %v", err)
			}
			return rep, nil
		}, nil)
}

func newBenchCheckCertificatesCmd() *cobra.Command {
	var file string
	return benchCommand("check-certificates", "Recompute the lower bounds of a certificates file from the data, without an LP engine",
		"Reads the file that sdcopt bench microagg-full --certificates FILE wrote and\n"+
			"recomputes every case's lower bound from the CASC data alone: the\n"+
			"nearest-neighbour and per-record bounds by their closed forms, the\n"+
			"per-record bound with exact shares by recomputing every record's smallest\n"+
			"share (a branch and bound per record), and the\n"+
			"Lagrangian bound sum(duals) + the size term from per-size reduced-cost\n"+
			"bounds, each re-proven by the root bound or by complete enumeration (no LP\n"+
			"or MIP engine), and the bound with subset-row cuts sum(duals) + sum(cut\n"+
			"duals) + the size term, whose per-size bounds are re-proven by complete\n"+
			"enumeration with the cut terms. OK when the recomputed bound is at least\n"+
			"the stated one. Exit code 1 when a certificate does not prove its bound\n"+
			"(the report, written first, says which and why).",
		func(f *pflag.FlagSet) {
			f.StringVar(&file, "in", "", "certificates file (required)")
		},
		func(_ *cobra.Command, _ *cli.Progress) (*bench.CertificateReport, error) {
			if file == "" {
				return nil, cli.BadInput("--in is required")
			}
			fh, err := os.Open(file)
			if err != nil {
				return nil, cli.BadInput("--in: %v", err)
			}
			defer fh.Close()
			return bench.CheckCertificates(fh, file)
		}, nil)
}

func newBenchMicroaggTradeoffCmd() *cobra.Command {
	o := bench.DefaultMicroaggTradeoffOptions()
	var boundTime float64
	return benchCommand("microagg-tradeoff", "Information loss, disclosure risk and lower bounds of microaggregation vs k on Census, Tarragona and EIA",
		"Every method (--methods) at every k (--k) on the CASC data sets (--data): the\n"+
			"information loss IL = 100*SSE/SST (percent, z-scored data) and the disclosure\n"+
			"risk of the protected file (every record replaced by its group's centroid):\n"+
			"distance-based record linkage (DBRL: the share of protected records whose\n"+
			"nearest original is their own) and interval disclosure (the share of records\n"+
			"whose original values all lie within p standard deviations of the protected\n"+
			"ones: sdcMicro's dRisk since 5.6.0), with IL1s, as `sdcopt microagg` reports\n"+
			"them. With --bound-time S the column generation (no ICSM start, no gap\n"+
			"closing, no branching) proves a lower bound on the optimal IL of every case\n"+
			"within S seconds; its clustering joins the rows as colgen. --plot draws IL vs k with the band between the bound and the\n"+
			"best IL found, and IL vs each risk (risk-utility plots).",
		func(f *pflag.FlagSet) {
			f.StringSliceVar(&o.Data, "data", o.Data, "data sets: census,tarragona,eia")
			f.IntSliceVar(&o.Ks, "k", o.Ks, "k values")
			f.StringSliceVar(&o.Methods, "methods", o.Methods, "methods: "+strings.Join(microagg.Methods(), ","))
			f.Float64Var(&boundTime, "bound-time", 0, "time limit in seconds of the lower-bound column generation per case (0 = no bound)")
			f.Float64Var(&o.IntervalP, "interval-p", risk.DefaultIntervalP, "interval disclosure: width as a fraction of the protected attribute's standard deviation")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the column generation")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.MicroaggTradeoffReport, error) {
			d, err := cli.TimeLimit("--bound-time", boundTime)
			if err != nil {
				return nil, err
			}
			o.BoundTime, o.Progress = d, prog
			return bench.MicroaggTradeoff(o)
		}, nil)
}

func newBenchKanonCmd() *cobra.Command {
	o := bench.DefaultKanonOptions()
	var ks, mipN, mipK, scaleN, sweep string
	var timeLimit, budget float64
	return benchCommand("kanon", "k-anonymity by freeform generalization on Adult: GCP and time vs k, MIP optimality gaps, scaling",
		"Three tables on UCI Adult (../shared/datasets/adult.csv, rows with '?' dropped)\n"+
			"with the 8 quasi-identifiers age, education-num (numeric), sex, marital-status,\n"+
			"race, workclass, native-country, occupation (categorical), after Doka et al.:\n\n"+
			"1. GCP and time vs k for every method (--methods, --k, --partition, --budget),\n"+
			"   with Mondrian (strict multidimensional partitioning) as the baseline and the\n"+
			"   ratio of the best freeform GCP to Mondrian's; partition sizes are chosen\n"+
			"   automatically within --budget seconds per run unless --partition is given;\n"+
			"2. the exact MIP against the heuristics on seeded samples of --mip-n records of\n"+
			"   Adult (--mip-k, --samples, --solver, --time-limit): the optimality gap\n"+
			"   (GCP - optimum) / optimum of each heuristic (the NCP ranges and cardinalities\n"+
			"   are those of the whole of Adult);\n"+
			"3. time vs n for SortGreedy on SyntheticQI (seeded records with Adult's\n"+
			"   cardinalities and skew; --scale-n, --scale-partition, k = 10).\n\n"+
			"Every result is verified (k-regular, or Mondrian's complete classes of at\n"+
			"least k records; identity round, containment, GCP).\n"+
			"4. with --sweep-partition: GCP and time vs the records per partition at\n"+
			"   k = --sweep-k for every method (Mondrian, which has none, once).\n\n"+
			"Table 1 also gives the disclosure risk of every publication: the largest and\n"+
			"the mean re-identification probability over the published records and the\n"+
			"mean success of the linkage attack on the boxes (see `sdcopt kanon`).\n"+
			"An empty list (--k '', --mip-n '', --scale-n '') skips a table. --plot draws\n"+
			"GCP vs k per method, GCP vs the linkage risk, and with table 4 GCP vs the\n"+
			"partition size and vs the time.",
		func(f *pflag.FlagSet) {
			f.StringVar(&ks, "k", "2,5,10,25,50", "k values of table 1: A..B or a comma list")
			f.StringSliceVar(&o.Methods, "methods", o.Methods, "methods of tables 1 and 2 (mip is always the reference of table 2, never run on the whole of Adult)")
			f.IntVar(&o.Partition, "partition", o.Partition, fmt.Sprintf("table 1: records per partition (0 = automatic within --budget; the dense methods accept at most %d)", kanon.MaxDense))
			f.Float64Var(&budget, "budget", kanon.DefaultBudget.Seconds(), "tables 1 and 3: time budget in seconds per run of the automatic partitioning")
			f.StringVar(&mipN, "mip-n", "8,10,12", "table 2: sample sizes (comma list)")
			f.StringVar(&mipK, "mip-k", "2,3", "table 2: k values (comma list)")
			f.IntVar(&o.Samples, "samples", o.Samples, "table 2: seeded samples per size")
			f.StringVar(&o.MIPSolver, "solver", "", "table 2: MIP engine (highs|cbc; default auto)")
			f.Float64Var(&timeLimit, "time-limit", o.TimeLimit.Seconds(), "table 2: MIP time limit per sample in seconds (0 = none)")
			f.StringVar(&scaleN, "scale-n", "10000,100000,500000", "table 3: numbers of synthetic records (comma list)")
			f.IntVar(&o.ScalePartition, "scale-partition", o.ScalePartition, "table 3: records per partition (0 = automatic within --budget)")
			f.StringVar(&sweep, "sweep-partition", "", "table 4: records per partition (comma list, e.g. 250,500,1000,2000,4000; empty: no table 4)")
			f.IntVar(&o.SweepK, "sweep-k", bench.KanonSweepK, "table 4: k")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the samples, the synthetic data and the assignments")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.KanonReport, error) {
			var err error
			if o.SweepPartitions, err = parseIntList("sweep-partition", sweep); err != nil {
				return nil, err
			}
			if o.Ks, err = parseIntList("k", ks); err != nil {
				return nil, err
			}
			if o.MIPNs, err = parseIntList("mip-n", mipN); err != nil {
				return nil, err
			}
			if o.MIPKs, err = parseIntList("mip-k", mipK); err != nil {
				return nil, err
			}
			if o.ScaleNs, err = parseIntList("scale-n", scaleN); err != nil {
				return nil, err
			}
			if o.TimeLimit, err = cli.TimeLimit("--time-limit", timeLimit); err != nil {
				return nil, err
			}
			if o.Budget, err = cli.TimeLimit("--budget", budget); err != nil {
				return nil, err
			}
			if o.MIPSolver != "" {
				if err := cli.Solver("--solver", o.MIPSolver, false); err != nil {
					return nil, err
				}
			}
			o.Progress = prog
			return bench.Kanon(o)
		}, nil)
}

func newBenchScalingCmd() *cobra.Command {
	o := bench.DefaultScalingOptions()
	var mdav, icsm, sg string
	return benchCommand("scaling", "Time vs number of records for MDAV, ICSM and SortGreedy, with the fitted exponents",
		"Time MDAV and ICSM (k = 3, --icsm-rounds improving rounds) on seeded Gaussian\n"+
			"data (--d attributes, --clusters clusters) and SortGreedy (k = 5, partitions of\n"+
			"--partition) on SyntheticQI records, for each number of records, and fit\n"+
			"seconds ~ n^b by least squares on log-log axes. One run per point: the\n"+
			"exponents are indicative on a shared machine. An empty list skips a method.\n"+
			"--plot draws the times and fits on log-log axes.",
		func(f *pflag.FlagSet) {
			f.StringVar(&mdav, "mdav-n", joinInts(o.MDAVNs), "MDAV: numbers of records (comma list)")
			f.StringVar(&icsm, "icsm-n", joinInts(o.ICSMNs), "ICSM: numbers of records (comma list)")
			f.StringVar(&sg, "sortgreedy-n", joinInts(o.SortGreedyNs), "SortGreedy: numbers of records (comma list)")
			f.IntVar(&o.D, "d", o.D, "attributes of the Gaussian data")
			f.IntVar(&o.Clusters, "clusters", o.Clusters, "clusters of the Gaussian data")
			f.IntVar(&o.ICSMMaxIterations, "icsm-rounds", o.ICSMMaxIterations, "ICSM: improving rounds (0 = until convergence)")
			f.IntVar(&o.Partition, "partition", o.Partition, "SortGreedy: records per partition")
			f.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the data")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.ScalingReport, error) {
			var err error
			if o.MDAVNs, err = parseIntList("mdav-n", mdav); err != nil {
				return nil, err
			}
			if o.ICSMNs, err = parseIntList("icsm-n", icsm); err != nil {
				return nil, err
			}
			if o.SortGreedyNs, err = parseIntList("sortgreedy-n", sg); err != nil {
				return nil, err
			}
			o.Progress = prog
			return bench.Scaling(o)
		}, nil)
}

func newBenchBoundsCmd() *cobra.Command {
	o := bench.DefaultBoundsOptions()
	var cases string
	var timeLimit float64
	return benchCommand("bounds", "Cell bounds at scale: time, memory and certificates per method on generated tables",
		"Run cell-bound methods on seeded tables (counts 0..9) with all k-way margins\n"+
			"released, and on the autoworkers margin sets: time, peak memory (resident\n"+
			"set, engines included), cells with sharp bounds, and for the certified method\n"+
			"how every bound is proven (dual vector, trivially, integer program), how many\n"+
			"are attained by witness tables, the LP re-solves (wall and engine time per\n"+
			"solve) and the time relative to --method lp on the same table in the same run.\n"+
			"Cases: 2^10:3 (ten binary variables, all 3-way margins), 5^5:2, 3x4x5:2,\n"+
			"autoworkers:ABCE/AB,AC,AE,BC,BE,CE (variables/margins; no variables = all six).",
		func(f *pflag.FlagSet) {
			f.StringVar(&cases, "cases", strings.Join(bench.DefaultBoundsCases, ";"), "tables separated by ';': DIMS:WAY or autoworkers:VARS/MARGINS")
			f.StringSliceVar(&o.Methods, "methods", o.Methods, "cell-bound methods to run (lp is the reference of the ratios)")
			f.Float64Var(&timeLimit, "time-limit", o.TimeLimit.Seconds(), "time limit per run in seconds (0 = none)")
			f.StringVar(&o.Solver, "solver", "", "engine (auto|clp|highs|lpsolve|cbc; default auto)")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.BoundsReport, error) {
			var err error
			if o.TimeLimit, err = benchLimits(timeLimit, o.Solver); err != nil {
				return nil, err
			}
			o.Cases = nil
			for _, s := range strings.Split(cases, ";") {
				c, err := bench.ParseBoundsCase(s)
				if err != nil {
					return nil, err
				}
				o.Cases = append(o.Cases, c)
			}
			o.Progress = prog
			return bench.Bounds(o)
		}, nil)
}

// parseIntList reads "A..B" (inclusive) or "a,b,c"; "" is the empty list.
func parseIntList(flag, s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []int
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if err1 != nil || err2 != nil || lo > hi {
			return nil, cli.BadInput("--%s %q: want A..B with integers A <= B, or a comma list", flag, s)
		}
		for v := lo; v <= hi; v++ {
			out = append(out, v)
		}
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, cli.BadInput("--%s %q: %q is not an integer", flag, s, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func newBenchAuditCmd() *cobra.Command {
	o := bench.DefaultAuditOptions()
	var timeLimit float64
	var policy string
	return benchCommand("audit", "Release auditor: decision latency, incremental vs from scratch",
		"Replay seeded request sequences through the release auditor (sdcopt audit)\n"+
			"on the autoworkers table and on generated tables, once incrementally (implied\n"+
			"margins answered from earlier releases, public views cached, the shuttle\n"+
			"warm-started from the history's bounds) and once from scratch, and report the\n"+
			"latency of a decision (median, p95, max), the outcomes, and whether both runs\n"+
			"decided alike. Cases: autoworkers:WAY (margins of 1..WAY variables) or\n"+
			"DIMS:WAY as in bench bounds (2^10:2: ten binary variables, 1-2-way requests);\n"+
			"DIMS:WAY@MEAN, a sparse table with Poisson counts of mean MEAN (4^5:3@0.5;\n"+
			"incremental run only);\n"+
			"microdata audited without building the full table (incremental run only, with\n"+
			"the share of decisions left undecided and the cells by evidence): adult:WAY (the\n"+
			"Adult training file over its 9 categorical variables) and synthetic20:WAY\n"+
			"(100,000 seeded records of 20 variables with 2-6 levels).",
		func(f *pflag.FlagSet) {
			f.StringSliceVar(&o.Cases, "cases", o.Cases, "tables: autoworkers:WAY, DIMS:WAY, DIMS:WAY@MEAN, adult:WAY or synthetic20:WAY")
			f.IntVar(&o.Requests, "requests", o.Requests, "requests per sequence")
			f.IntVar(&o.Sequences, "sequences", o.Sequences, "sequences per case (seeds 1..N)")
			f.StringVar(&policy, "policy", "", "policy parameters (see sdcopt audit)")
			f.Float64Var(&timeLimit, "time-limit", o.TimeLimit.Seconds(), "time limit of each decision in seconds (everything it computes)")
			f.StringVar(&o.Solver, "solver", "", "engine (default auto)")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.AuditReport, error) {
			var err error
			if o.TimeLimit, err = cli.TimeLimit("--time-limit", timeLimit); err != nil {
				return nil, err
			}
			p, err := audit.ParsePolicy(policy)
			if err != nil {
				return nil, cli.BadInput("--policy: %v", err)
			}
			o.Policy = &p
			if o.Solver != "" {
				if err := cli.Solver("--solver", o.Solver, false); err != nil {
					return nil, err
				}
			}
			o.Progress = prog
			return bench.Audit(o)
		}, nil)
}

func newBenchServeCmd() *cobra.Command {
	o := bench.DefaultServeOptions()
	return benchCommand("serve", "Query service: request latency over HTTP and a bounded load test on loopback",
		"Start the query service in-process on 127.0.0.1 with a temporary SQLite database\n"+
			"holding copies of the autoworkers table, and measure with the Go client:\n"+
			"sequential requests that need new bounds, requests implied by an earlier\n"+
			"release, retries of stored decisions (p50/p95/p99/max), then a load test of\n"+
			"--requests requests from --clients concurrent clients.",
		func(f *pflag.FlagSet) {
			f.IntVar(&o.Rounds, "rounds", o.Rounds, "table copies of the latency phases")
			f.IntVar(&o.Clients, "clients", o.Clients, "concurrent clients of the load test")
			f.IntVar(&o.LoadRequests, "requests", o.LoadRequests, "requests of the load test")
		},
		func(_ *cobra.Command, prog *cli.Progress) (*bench.ServeReport, error) {
			o.Progress = prog
			return bench.Serve(o)
		}, nil)
}

// benchLimits checks the --time-limit and --solver flags shared by the
// bench commands: the time limit as a duration, and the LP engine, when
// given, known here.
func benchLimits(timeLimit float64, solver string) (time.Duration, error) {
	d, err := cli.TimeLimit("--time-limit", timeLimit)
	if err != nil {
		return 0, err
	}
	if solver != "" {
		if err := cli.Solver("--solver", solver, false); err != nil {
			return 0, err
		}
	}
	return d, nil
}
