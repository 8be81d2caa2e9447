package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/roles"
)

// microaggSettings are the flags of `sdcopt microagg`.
type microaggSettings struct {
	roleFlags
	microdataFlags
	data   string
	cols   []string
	k      int
	method string
	gamma  float64
	out    string // protected file
	groups string // record,group file
	format string
	quiet  bool
	icsm   icsmSettings
	colgen colgenSettings
}

// icsmSettings are the flags of `sdcopt microagg --method icsm`.
type icsmSettings struct {
	maxIter   int
	timeLimit float64 // seconds
	restarts  int
	seed      uint64
	init      string
	pool      int
	sources   int
	hood      int
	check     bool
}

// icsmFlags are the flags that apply to --method icsm only.
var icsmFlags = []string{"max-iter", "time-limit", "restarts", "seed", "init", "pool", "sources", "neighbourhood", "check"}

// microaggMethods lists the accepted --method values: those of
// microagg.Run, and icsm (called through microagg.ICSM) whether or not Run
// knows it.
func microaggMethods() []string {
	m := microagg.Methods()
	if !slices.Contains(m, methodICSM) {
		m = append(m, methodICSM)
	}
	return append(m, methodColgen)
}

const methodICSM = "icsm"

func newMicroaggCmd() *cobra.Command {
	var s microaggSettings
	c := &cobra.Command{
		Use:   "microagg --data FILE|tarragona|census|eia|synthetic:NAME[:SEED] --k K --method METHOD",
		Short: "Microaggregate numerical microdata (groups of at least k records)",
		Long: "Microaggregate numerical microdata: z-score the selected attributes, partition\n" +
			"the records into groups of at least k, and replace every record by its group\n" +
			"centroid (in original units). Reports SSE, SST and IL = 100*SSE/SST on the\n" +
			"standardized data.\n\n" +
			"--data is a CSV file with a header row, a CASC benchmark data set\n" +
			"(tarragona, census, eia; read from the shared data directory, checksum verified)\n" +
			"or synthetic:NAME[:SEED] with NAME synthetic|sim1|sim2|sim3|gauss-N-D-C.\n" +
			"Methods: mdav (fixed groups of k), vmdav (variable sizes, --gamma),\n" +
			"univariate (optimal; one attribute: select it with --cols), projection (first\n" +
			"principal component order, then the optimal partition of that order),\n" +
			"icsm (local search of Mortazavi & Jalili: 1-opt, 2-opt and n-opt moves from\n" +
			"an initial clustering, --init, until no move lowers the SSE; --max-iter,\n" +
			"--time-limit, --restarts, --seed, --pool, --sources, --neighbourhood, --check),\n" +
			"colgen (column generation of Gentile, Spagnolo-Arrizabalaga & Castro: the best\n" +
			"of MDAV, V-MDAV and the rounded master LP solutions, with a proven lower bound\n" +
			"on the optimal SSE and the gap; --solver, --pricing-solver, --exact,\n" +
			"--triangle-cuts, --ce-columns, --no-close, --close-columns, --no-branch, --no-icsm,\n" +
			"--icsm-time-limit, --restarts and --seed for the ICSM start,\n" +
			"--time-limit, --max-iter).\n\n" +
			"Roles: --cols names the columns to microaggregate (the quasi-identifiers); it\n" +
			"is required with a CSV file, and the benchmark sets (tarragona, census, eia,\n" +
			"synthetic:...) microaggregate every column by default, as in the literature.\n" +
			"Every other column is an --identifier (removed), --sensitive or --insensitive\n" +
			"(published unchanged), or in no role: then it is not published, and stderr\n" +
			"says so. Before computing anything, the columns published unchanged are\n" +
			"checked: one that determines a microaggregated column, or nearly, or pins its\n" +
			"exact value for 5% of the records or more beyond chance, or whose values are\n" +
			"nearly all unique, stops the run (exit 2) with the evidence, unless\n" +
			"named with --keep-risky.\n\n" +
			"Files: --sep and --decimal read semicolon or tab files with decimal commas (the\n" +
			"protected file is written the same way). A missing value (empty, NA or ?) in a\n" +
			"microaggregated column stops the run unless --missing drop or impute-mean.\n" +
			"--out is rounded to each column's precision in the file (--digits); SSE, SST\n" +
			"and IL are those of the unrounded centroids.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("k") {
				return cli.BadInput("--k is required (the minimum group size, at least 2)")
			}
			return runMicroagg(c.OutOrStdout(), &s, c.Flags().Changed)
		},
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "data: CSV FILE, tarragona|census|eia, or synthetic:NAME[:SEED] (required)")
	f.StringSliceVar(&s.cols, "cols", nil, "columns to microaggregate (the quasi-identifiers), by name (required with a CSV file; tarragona|census|eia|synthetic: default every column a role flag does not name)")
	addRoleFlags(f, &s.roleFlags, "")
	addMicrodataFlags(f, &s.microdataFlags)
	f.IntVar(&s.k, "k", 0, "minimum group size k >= 2 (required)")
	f.StringVar(&s.method, "method", "mdav", "method: "+strings.Join(microaggMethods(), "|"))
	f.Float64Var(&s.gamma, "gamma", 0, fmt.Sprintf("V-MDAV extension parameter gamma >= 0 (vmdav only; default %g)", microagg.DefaultGamma))
	f.StringVar(&s.out, "out", "", "write the protected data set (CSV, input columns and order) to this file")
	f.StringVar(&s.groups, "groups", "", "write the groups (CSV record,group, both 1-based) to this file (private: created 0600)")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.BoolVar(&s.quiet, "quiet", false, "no progress messages on stderr")
	f.IntVar(&s.icsm.maxIter, "max-iter", 0, "icsm: cap on the improving rounds of a run; colgen: cap on the master solves (0 = no cap)")
	f.Float64Var(&s.icsm.timeLimit, "time-limit", 0, "icsm, colgen: time limit in seconds (icsm: restarts included); the best clustering so far is returned, colgen with the best bound proven so far (0 = none)")
	f.IntVar(&s.icsm.restarts, "restarts", 0, fmt.Sprintf("icsm, colgen (its ICSM start): extra runs from perturbed copies of the initial clustering (%d records reassigned each); the best is kept", microagg.DefaultPerturb))
	f.Uint64Var(&s.icsm.seed, "seed", 1, "icsm, colgen (its ICSM start): seed of the restart perturbations")
	f.StringVar(&s.icsm.init, "init", microagg.InitMDAV, "icsm: initial clustering: "+strings.Join(microagg.ICSMInits(), "|"))
	f.IntVar(&s.icsm.pool, "pool", microagg.DefaultPoolSize, "icsm: pool size p_n, the best 1-opt/2-opt moves kept per round")
	f.IntVar(&s.icsm.sources, "sources", 1, "icsm: groups, by increasing score, searched for negative cycles (-1 = all)")
	f.IntVar(&s.icsm.hood, "neighbourhood", microagg.DefaultNeighbourhood, "icsm: groups of the restricted graph of the neighbourhood sweep, which extends the n-opt step to every group as a source (-1 = off: the paper's algorithm)")
	f.BoolVar(&s.icsm.check, "check", false, "icsm: verify the incremental SSE after every move (debug, slow)")
	addColgenFlags(f, &s.colgen)
	return c
}

// checkICSMSettings validates the icsm flags; changed reports the flags
// given on the command line.
func checkICSMSettings(s *microaggSettings, changed func(string) bool) error {
	if s.method != methodICSM {
		for _, name := range icsmFlags {
			shared := name == "time-limit" || name == "max-iter"
			if s.method == methodColgen && (shared || name == "seed" || name == "restarts") {
				continue
			}
			if changed(name) && shared {
				return cli.BadInput("--%s applies to --method icsm or colgen only, not %s", name, s.method)
			}
			if changed(name) {
				return cli.BadInput("--%s applies to --method icsm only, not %s", name, s.method)
			}
		}
		return nil
	}
	t := &s.icsm
	switch {
	case t.maxIter < 0:
		return cli.BadInput("--max-iter must be >= 0 (0 = no cap), got %d", t.maxIter)
	case t.pool < 1:
		return cli.BadInput("--pool must be at least 1, got %d", t.pool)
	case !slices.Contains(microagg.ICSMInits(), t.init):
		return cli.BadInput("unknown --init %q (want one of %s)", t.init, strings.Join(microagg.ICSMInits(), ", "))
	}
	return checkICSMSearch(t.restarts, t.sources, t.hood, t.timeLimit)
}

// checkICSMSearch validates the ICSM flags that `sdcopt microagg` and
// `sdcopt bench icsm` share.
func checkICSMSearch(restarts, sources, hood int, timeLimit float64) error {
	switch {
	case restarts < 0:
		return cli.BadInput("--restarts must be >= 0, got %d", restarts)
	case sources == 0 || sources < -1:
		return cli.BadInput("--sources must be at least 1, or -1 for every group, got %d", sources)
	case hood < 2 && hood != -1:
		return cli.BadInput("--neighbourhood must be at least 2, or -1 to turn the sweep off, got %d", hood)
	}
	return checkTimeLimit(timeLimit)
}

// checkTimeLimit rejects a negative, too large or NaN --time-limit.
func checkTimeLimit(secs float64) error {
	_, err := cli.TimeLimit("--time-limit", secs)
	return err
}

// secondsDuration converts a checked --time-limit.
func secondsDuration(secs float64) time.Duration {
	return time.Duration(secs * float64(time.Second))
}

// icsmProgress reports ICSM progress as status lines of p (rate-limited
// by p).
func icsmProgress(p *cli.Progress, prefix string) func(microagg.ICSMProgress) {
	return func(r microagg.ICSMProgress) {
		p.Printf("%sicsm run %d iteration %d: IL %.4f %% (best %.4f %%), %.1fs",
			prefix, r.Run, r.Iteration, r.IL, r.BestIL, r.Elapsed.Seconds())
	}
}

// icsmError maps an ICSM error: a failed self-check is an engine
// failure, anything else bad input.
func icsmError(prefix string, err error) error {
	if errors.Is(err, microagg.ErrICSMCheck) {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("%s: %w", prefix, err)}
	}
	return cli.BadInput("%s: %v", prefix, err)
}

// microaggResult is the JSON document of `sdcopt microagg`.
type microaggResult struct {
	Data            string   `json:"data"`
	Columns         []string `json:"columns"`
	N               int      `json:"n"`
	D               int      `json:"d"`
	K               int      `json:"k"`
	Method          string   `json:"method"`
	Gamma           *float64 `json:"gamma,omitempty"`
	SSE             float64  `json:"sse"`
	SST             float64  `json:"sst"`
	IL              float64  `json:"il"`
	Groups          int      `json:"groups"`
	MinGroup        int      `json:"min_group"`
	MaxGroup        int      `json:"max_group"`
	LargeGroups     int      `json:"large_groups"`
	ConstantColumns []string `json:"constant_columns,omitempty"`
	Missing         string   `json:"missing"`          // the --missing policy applied
	MissingRecords  int      `json:"missing_records"`  // records with a missing value: dropped or imputed
	Digits          []int    `json:"digits,omitempty"` // decimals of each column in --out (omitted: full precision); SSE, SST and IL are of the unrounded values
	Seconds         float64  `json:"seconds"`
	Out             string   `json:"out,omitempty"`
	GroupsFile      string   `json:"groups_file,omitempty"`
	publishReport

	// IL1s and Risk: the disclosure risk of the protected data (package risk).
	IL1s float64      `json:"il1s"`
	Risk *numericRisk `json:"risk"`
	*icsmReport
}

// icsmReport is what `sdcopt microagg --method icsm` adds to the result.
type icsmReport struct {
	Init          string  `json:"init"`
	InitialIL     float64 `json:"initial_il"`
	Iterations    int     `json:"iterations"` // improving rounds, summed over runs
	Runs          int     `json:"runs"`
	Restarts      int     `json:"restarts"`
	Seed          *uint64 `json:"seed,omitempty"` // when restarts > 0
	BestRun       int     `json:"best_run"`
	MaxIterations int     `json:"max_iterations"` // 0 = no cap
	TimeLimit     float64 `json:"time_limit"`     // seconds, 0 = none
	Pool          int     `json:"pool"`
	Sources       int     `json:"sources"`       // -1 = every group
	Neighbourhood int     `json:"neighbourhood"` // -1 = no sweep
	Migrations    int     `json:"migrations"`
	Exchanges     int     `json:"exchanges"`
	Cycles        int     `json:"cycles"`       // negative cycles of the paper's ComplexHeuristic
	SweepCycles   int     `json:"sweep_cycles"` // negative cycles of the neighbourhood sweep
	Stopped       string  `json:"stopped"`      // converged | time_limit | iteration_limit
}

// runMicroagg runs `sdcopt microagg`; changed reports the flags given on
// the command line.
func runMicroagg(w io.Writer, s *microaggSettings, changed func(string) bool) error {
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return err
	}
	if !slices.Contains(microaggMethods(), s.method) {
		return cli.BadInput("unknown --method %q (want one of %s)", s.method, strings.Join(microaggMethods(), ", "))
	}
	if s.k < 2 {
		return cli.BadInput("--k must be at least 2, got %d", s.k)
	}
	gammaSet := changed("gamma")
	if gammaSet && s.method != "vmdav" {
		return cli.BadInput("--gamma applies to --method vmdav only, not %s", s.method)
	}
	if err := cli.FloatRange("--gamma", s.gamma, 0, math.Inf(1)); err != nil {
		return err
	}
	if err := checkICSMSettings(s, changed); err != nil {
		return err
	}
	if err := checkColgenSettings(s, changed); err != nil {
		return err
	}
	if s.data == "" {
		return cli.BadInput("--data is required (a CSV file, tarragona|census|eia, or synthetic:NAME[:SEED])")
	}
	spec, err := datasets.ParseSpec(s.data)
	if err != nil {
		return cli.BadInput("--data: %v", err)
	}
	csvOpt, err := s.microdataFlags.options()
	if err != nil {
		return err
	}
	if spec.Kind != datasets.SpecFile {
		for _, name := range []string{"sep", "decimal", "missing"} {
			if changed(name) {
				return cli.BadInput("--%s applies to a CSV file, not --data %s", name, spec)
			}
		}
	}
	if spec.Kind == datasets.SpecFile && !changed("cols") {
		return cli.BadInput("--cols is required with --data %s: name the columns to microaggregate (the quasi-identifiers); "+
			"the other columns are published unchanged only when named with --sensitive or --insensitive", s.data)
	}
	var files cli.Files
	if path, ok := spec.File(); ok {
		files.Input("--data", path)
	}
	files.Output("--out", s.out)
	files.Output("--groups", s.groups)
	if err := files.Check(); err != nil {
		return err
	}
	prog := cli.NewProgress(s.quiet)
	defer prog.Finish()
	prog.Printf("loading %s", spec)
	tab, err := spec.LoadWith(s.cols, csvOpt)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	if !changed("cols") {
		// A named data set microaggregates every column but those the
		// role flags name.
		if rest := roles.Unnamed(tab.Header, s.identifier, s.sensitive, s.insensitive); len(rest) < len(tab.Header) {
			if len(rest) == 0 {
				return cli.BadInput("%s: the role flags name every column, none is left to microaggregate", spec)
			}
			if tab, err = spec.LoadWith(rest, csvOpt); err != nil {
				return cli.BadInput("%v", err)
			}
		}
	}
	if tab.MissingRecords > 0 && !s.quiet {
		what := "dropped (not microaggregated, not published)"
		if tab.Missing == datasets.MissingImputeMean {
			what = "imputed with the column means (published with their groups' values)"
		}
		fmt.Fprintf(os.Stderr, "sdcopt: %d of %d records have a missing value in a microaggregated column (%d cells): %s, --missing %s\n",
			tab.MissingRecords, len(tab.Rows)+droppedRows(tab), tab.MissingCells, what, tab.Missing)
	}
	tab.Digits = s.microdataFlags.tableDigits(tab)
	raw := tab.Data
	if s.k > raw.N {
		return cli.BadInput("--k %d exceeds the number of records of %s (n = %d)", s.k, spec, raw.N)
	}
	a, err := assignRoles(spec.String(), tab.Header, raw.Names, "--cols", &s.roleFlags, changed, nil)
	if err != nil {
		return err
	}
	kept, err := checkLeaks(spec.String(), a, raw.N, tab.Cell, &s.roleFlags)
	if err != nil {
		return err
	}
	pubRep := newPublishReport(a, kept, s.quiet)
	z, std := model.Standardize(raw)
	var constant []string
	for j, isConst := range std.Constant {
		if isConst {
			constant = append(constant, raw.Names[j])
			fmt.Fprintf(os.Stderr, "sdcopt: warning: column %q is constant (%s in every record): z = 0, it adds nothing to SSE or SST and keeps its value\n",
				raw.Names[j], datasets.FormatValue(std.Mean[j]))
		}
	}
	prog.Printf("%s on %d x %d records, k = %d", s.method, raw.N, raw.D, s.k)
	start := time.Now()
	var cl *model.Clustering
	var icsm *microagg.ICSMResult
	var cg *colgen.Result
	switch {
	case s.method == methodColgen:
		cg, err = runColgen(z, s, prog)
		if err != nil {
			return err
		}
		cl = cg.Clustering
	case s.method == methodICSM:
		t := &s.icsm
		icsm, err = microagg.ICSM(z, s.k, microagg.ICSMOptions{
			Init: t.init, MaxIterations: t.maxIter, TimeLimit: secondsDuration(t.timeLimit),
			Restarts: t.restarts, Seed: t.seed, PoolSize: t.pool, Sources: t.sources, Neighbourhood: t.hood,
			Check: t.check, Progress: icsmProgress(prog, ""),
		})
		prog.Flush()
		if err == nil {
			cl = icsm.Clustering
		}
	case gammaSet:
		// Explicitly, so that --gamma 0 means γ = 0 (fixed groups), not
		// the default that Options{Gamma: 0} stands for.
		cl, err = microagg.VMDAV(z, s.k, s.gamma)
	default:
		cl, err = microagg.Run(s.method, z, s.k, microagg.Options{})
	}
	secs := time.Since(start).Seconds()
	if err != nil {
		if s.method == methodICSM {
			return icsmError(spec.String(), err)
		}
		return cli.BadInput("%s: %v", spec, err)
	}
	large, err := cl.CheckK(raw.N, s.k)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %s returned an invalid clustering: %w", s.method, err)}
	}
	sizes := cl.Sizes()
	res := microaggResult{
		Data: spec.String(), Columns: raw.Names, N: raw.N, D: raw.D, K: s.k, Method: s.method,
		SSE: model.SSE(z, cl), SST: model.SST(z), Groups: cl.NumGroups,
		MinGroup: slices.Min(sizes), MaxGroup: slices.Max(sizes), LargeGroups: large,
		ConstantColumns: constant, Seconds: secs, Out: s.out, GroupsFile: s.groups, publishReport: pubRep,
		Missing: tab.Missing.String(), MissingRecords: tab.MissingRecords,
	}
	if s.out != "" {
		res.Digits = tab.Digits
	}
	if res.SST > 0 {
		res.IL = 100 * res.SSE / res.SST
	}
	if icsm != nil {
		if err := icsm.Check(z, s.k); err != nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %w", err)}
		}
		res.SSE, res.SST, res.IL = icsm.SSE, icsm.SST, icsm.IL
		res.icsmReport = newICSMReport(&s.icsm, icsm)
	}
	if s.method == microagg.MethodVMDAV {
		g := microagg.DefaultGamma
		if gammaSet {
			g = s.gamma
		}
		res.Gamma = &g
	}
	pub, err := microagg.PublishRounded(raw, cl, tab.Digits, nil)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %w", err)}
	}
	res.IL1s, res.Risk = pub.Risk.IL1s, newNumericRisk(pub.Risk)
	var doc any = res
	var cgRep *colgenReport
	if cg != nil {
		if err := cg.Check(z, s.k); err != nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %w", err)}
		}
		cgRep = newColgenReport(s, cg, res.SST)
		doc = colgenMicroaggResult{microaggResult: res, colgenReport: cgRep, Attributes: res.Columns, MasterColumns: cgRep.Columns}
	}
	var outs cli.Outputs
	defer outs.Abort()
	if s.out != "" {
		if err := outs.Write(s.out, func(w io.Writer) error { return tab.WritePublished(w, pub.Data, a.Published()) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if s.groups != "" {
		// Which group each original record fell in: private (0600).
		err := outs.WritePrivate(s.groups, func(w io.Writer) error { return writeGroups(w, cl) })
		if err != nil {
			return cli.BadInput("--groups: %v", err)
		}
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	prog.Finish()
	if s.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	writeMicroaggText(w, &res)
	if cgRep != nil {
		writeColgenText(w, cgRep)
	}
	return nil
}

// droppedRows is the number of records --missing drop left out of tab.
func droppedRows(tab *datasets.Table) int {
	if tab.Missing == datasets.MissingDrop {
		return tab.MissingRecords
	}
	return 0
}

// writeGroups writes a clustering as CSV record,group (both 1-based).
func writeGroups(w io.Writer, cl *model.Clustering) error {
	if _, err := io.WriteString(w, "record,group\n"); err != nil {
		return err
	}
	for i, g := range cl.Group {
		if _, err := fmt.Fprintf(w, "%d,%d\n", i+1, g+1); err != nil {
			return err
		}
	}
	return nil
}

func writeMicroaggText(w io.Writer, r *microaggResult) {
	fmt.Fprintf(w, "data      %s: %d records x %d attributes (%s)\n", r.Data, r.N, r.D, strings.Join(r.Columns, ", "))
	method := r.Method
	if r.Gamma != nil {
		method += fmt.Sprintf(" (gamma %g)", *r.Gamma)
	}
	fmt.Fprintf(w, "method    %s, k = %d\n", method, r.K)
	fmt.Fprintf(w, "groups    %d, sizes %d..%d, %d larger than 2k-1 = %d\n", r.Groups, r.MinGroup, r.MaxGroup, r.LargeGroups, 2*r.K-1)
	fmt.Fprintf(w, "SSE       %.6g\n", r.SSE)
	fmt.Fprintf(w, "SST       %.6g\n", r.SST)
	fmt.Fprintf(w, "IL        %.4f %%\n", r.IL)
	fmt.Fprintf(w, "IL1s      %.6g\n", r.IL1s)
	writeNumericRisk(w, "      ", r.Risk)
	if c := r.icsmReport; c != nil {
		fmt.Fprintf(w, "init      %s, IL %.4f %%\n", c.Init, c.InitialIL)
		fmt.Fprintf(w, "search    %d improving rounds in %d run(s), best run %d, stopped: %s\n", c.Iterations, c.Runs, c.BestRun, c.Stopped)
		fmt.Fprintf(w, "moves     %d migrations, %d exchanges, %d cycles, %d neighbourhood cycles\n", c.Migrations, c.Exchanges, c.Cycles, c.SweepCycles)
		if c.Seed != nil {
			fmt.Fprintf(w, "seed      %d (%d restarts)\n", *c.Seed, c.Restarts)
		}
	}
	fmt.Fprintf(w, "seconds   %.3f\n", r.Seconds)
	writePublishText(w, &r.publishReport, 10)
	if len(r.ConstantColumns) > 0 {
		fmt.Fprintf(w, "constant  %s (left as is)\n", strings.Join(r.ConstantColumns, ", "))
	}
	if r.MissingRecords > 0 {
		fmt.Fprintf(w, "missing   %d records with missing values: %s\n", r.MissingRecords, map[string]string{
			datasets.MissingDrop.String(): "dropped", datasets.MissingImputeMean.String(): "imputed with the column means"}[r.Missing])
	}
	if len(r.Digits) > 0 {
		if slices.Min(r.Digits) == slices.Max(r.Digits) {
			fmt.Fprintf(w, "rounded   --out to %d decimals in every column (SSE and IL of the unrounded values)\n", r.Digits[0])
		} else {
			parts := make([]string, len(r.Digits))
			for jj, d := range r.Digits {
				parts[jj] = fmt.Sprintf("%s %d", r.Columns[jj], d)
			}
			fmt.Fprintf(w, "rounded   --out to decimals %s (SSE and IL of the unrounded values)\n", strings.Join(parts, ", "))
		}
	}
	if r.Out != "" {
		fmt.Fprintf(w, "protected %s\n", r.Out)
	}
	if r.GroupsFile != "" {
		fmt.Fprintf(w, "groups to %s\n", r.GroupsFile)
	}
}

func newICSMReport(t *icsmSettings, res *microagg.ICSMResult) *icsmReport {
	st := &res.Stats
	r := &icsmReport{
		Init: t.init, Iterations: st.Iterations, Runs: st.Runs, Restarts: t.restarts, BestRun: st.BestRun,
		MaxIterations: t.maxIter, TimeLimit: t.timeLimit, Pool: t.pool, Sources: t.sources, Neighbourhood: t.hood,
		Migrations: st.Migrations, Exchanges: st.Exchanges, Cycles: st.Cycles, SweepCycles: st.SweepCycles, Stopped: st.Stopped(),
	}
	if res.SST > 0 {
		r.InitialIL = 100 * st.InitialSSE / res.SST
	}
	if t.restarts > 0 {
		seed := t.seed
		r.Seed = &seed
	}
	return r
}
