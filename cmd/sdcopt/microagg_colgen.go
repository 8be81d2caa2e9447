package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/model"
)

const methodColgen = "colgen"

// colgenSettings are the flags of `sdcopt microagg --method colgen`.
type colgenSettings struct {
	solver        string
	pricingSolver string
	exact         string
	triangles     bool
	ceColumns     int
	noICSM        bool
	noBranch      bool
	icsmTimeLimit float64 // seconds
	noClose       bool
	closeColumns  int
	smoothing     float64
	ascent        bool
	noShareAscent bool
	noShareModel  bool
	noRegion      bool
	stabilize     string
	noSubsetRow   bool
	subsetRow     bool
}

// colgenFlags apply to --method colgen only (--time-limit and --max-iter
// are shared with icsm).
var colgenFlags = []string{"solver", "pricing-solver", "exact", "triangle-cuts", "ce-columns", "no-icsm", "icsm-time-limit", "no-branch", "no-close", "close-columns", "smoothing", "ascent", "no-share-ascent", "no-share-model", "no-region-bound", "stabilize", "no-subset-row-cuts", "subset-row-cuts"}

func addColgenFlags(f *pflag.FlagSet, s *colgenSettings) {
	f.StringVar(&s.solver, "solver", "auto", "colgen: engine of the master LP (auto|clp|highs|lpsolve|cbc); a MIP-capable engine also solves the pricing ILP unless --pricing-solver is given")
	f.StringVar(&s.pricingSolver, "pricing-solver", "", "colgen: MIP engine of the pricing ILP (14) (auto|highs|cbc|lpsolve; default: --solver if it solves MIPs, else auto)")
	f.StringVar(&s.exact, "exact", colgen.ExactCE, "colgen: exact pricing when the greedy pricing finds nothing: "+strings.Join(colgen.ExactMethods(), "|")+" (ce = complete enumeration, ep = the pricing ILP (14), table2 = the paper's Table 2 rule: enumeration up to size 5 or 6, the ILP above)")
	f.BoolVar(&s.noClose, "no-close", false, "colgen: skip the gap-closing integer program over the groups within the gap after convergence")
	f.IntVar(&s.closeColumns, "close-columns", 0, fmt.Sprintf("colgen: cap on the groups of the gap-closing integer program's first round (0 = %d; beyond it the groups below a smaller reduced cost, and each further round four times more)", colgen.DefaultCloseColumns))
	f.BoolVar(&s.triangles, "triangle-cuts", false, "colgen: add violated triangle inequalities to the pricing ILP")
	f.IntVar(&s.ceColumns, "ce-columns", 0, fmt.Sprintf("colgen: columns returned per complete enumeration (the most negative; 0 = %d; the paper: 1; bench colgen: 0 = 1)", colgen.DefaultCEColumns))
	f.BoolVar(&s.noICSM, "no-icsm", false, "colgen: leave ICSM out (by default an ICSM run from MDAV, seeded by --seed with --restarts, starts the master and ICSM polishes the master's best clustering at the end)")
	f.BoolVar(&s.noBranch, "no-branch", false, "colgen: skip the branch-and-price (Ryan-Foster branching on record pairs) that follows the gap-closing stage")
	f.Float64Var(&s.icsmTimeLimit, "icsm-time-limit", 0, "colgen: time box of the ICSM start in seconds (0 = by --time-limit: a quarter of it up to 120 s, 30 s up to 360 s, a twelfth beyond; none without one)")
	f.Float64Var(&s.smoothing, "smoothing", 0, "colgen: dual smoothing weight alpha in [0, 1) of the stability centre (Wentges): the greedy pricing runs first at alpha*centre + (1-alpha)*master duals (0 = off; 0.8 is usual)")
	f.BoolVar(&s.ascent, "ascent", false, "colgen: subgradient ascent on the per-record lower bound in the last 15% of the master loop's time when the master has no bound of its own by then (large k)")
	f.StringVar(&s.stabilize, "stabilize", colgen.StabilizeNone, "colgen: stabilization of the master LP: "+strings.Join(colgen.StabilizeMethods(), "|")+" (box = a box around the duals of the best lower bound so far, moved when the bound at the box master's duals improves; replaces the ascent with exact shares)")
	f.BoolVar(&s.noSubsetRow, "no-subset-row-cuts", false, "colgen: turn off the subset-row cuts: by default, after the master LP converged, rounds of violated subset-row cuts of three records (at most one group holds two of them) join the master, each followed by exact pricing under the cut duals; they raise the LP bound where the LP covers close records by overlapping groups (the certificate holds the cuts and their duals; branch-and-price keeps them)")
	// The flag that turned the cuts on before they became the default,
	// hidden (--subset-row-cuts=false turns them off, as
	// --no-subset-row-cuts). Not MarkDeprecated: its notice goes to
	// standard output, into the JSON.
	f.BoolVar(&s.subsetRow, "subset-row-cuts", true, "the cuts are on by default (--no-subset-row-cuts turns them off)")
	_ = f.MarkHidden("subset-row-cuts")
	f.BoolVar(&s.noShareModel, "no-share-model", false, "colgen: keep the subgradient steps in the ascent's tail instead of the share model's (a cutting-plane model of the per-record bound, one piece per record, maximized by the LP engine in a box around the best duals)")
	f.BoolVar(&s.noRegion, "no-region-bound", false, "colgen: skip the region bound after a master loop without a bound of its own (large k, limits of 300 s or more): the per-record bound at the ascent's best duals with the records of the incumbent's groups of largest deficit covered by whole groups, proven by the LP relaxation of a packing program over their groups with subset-row cuts (certified; the MIP engine on the program itself with the time left); the loop keeps its last twelfth instead")
	f.BoolVar(&s.noShareAscent, "no-share-ascent", false, "colgen: turn off the ascent on the per-record lower bound with shares proven by complete enumeration, which takes over the master loop when the master's value has not moved for 8 solves without a bound of its own (large k)")
}

// checkColgenSettings validates the colgen flags; changed reports the
// flags given on the command line.
func checkColgenSettings(s *microaggSettings, changed func(string) bool) error {
	if s.method != methodColgen {
		for _, name := range colgenFlags {
			if changed(name) {
				return cli.BadInput("--%s applies to --method colgen only, not %s", name, s.method)
			}
		}
		return nil
	}
	return s.colgen.check(s.icsm.timeLimit, s.icsm.maxIter)
}

// check validates the colgen flags (with the run's --time-limit and
// --max-iter, which `microagg` shares with icsm) and resolves the engine
// names; `microagg --method colgen` and `bench colgen` both call it.
func (c *colgenSettings) check(timeLimit float64, maxIter int) error {
	switch {
	case !slices.Contains(colgen.ExactMethods(), c.exact):
		return cli.BadInput("unknown --exact %q (want one of %s)", c.exact, strings.Join(colgen.ExactMethods(), ", "))
	case c.ceColumns < 0:
		return cli.BadInput("--ce-columns must be >= 0, got %d", c.ceColumns)
	case c.closeColumns < 0:
		return cli.BadInput("--close-columns must be >= 0, got %d", c.closeColumns)
	case c.icsmTimeLimit < 0 || math.IsNaN(c.icsmTimeLimit) || math.IsInf(c.icsmTimeLimit, 0):
		return cli.BadInput("--icsm-time-limit must be a finite number of seconds >= 0, got %g", c.icsmTimeLimit)
	case !slices.Contains(colgen.StabilizeMethods(), c.stabilize):
		return cli.BadInput("unknown --stabilize %q (want one of %s)", c.stabilize, strings.Join(colgen.StabilizeMethods(), ", "))
	case !(c.smoothing >= 0 && c.smoothing < 1):
		return cli.BadInput("--smoothing must be in [0, 1), got %g", c.smoothing)
	case c.noICSM && c.icsmTimeLimit > 0:
		return cli.BadInput("--icsm-time-limit and --no-icsm exclude each other")
	case maxIter < 0:
		return cli.BadInput("--max-iter must be >= 0 (0 = no cap), got %d", maxIter)
	}
	if err := checkTimeLimit(timeLimit); err != nil {
		return err
	}
	for _, e := range [][2]string{{"--solver", c.solver}, {"--pricing-solver", c.pricingSolver}} {
		if e[1] != "" {
			if err := cli.Solver(e[0], e[1], false); err != nil {
				return err
			}
		}
	}
	lpName, mipName, err := colgen.ResolveEngines(c.solver, c.pricingSolver)
	if err != nil {
		var given []string
		if c.solver != "" && c.solver != "auto" {
			given = append(given, "--solver "+c.solver)
		}
		if c.pricingSolver != "" && c.pricingSolver != "auto" {
			given = append(given, "--pricing-solver "+c.pricingSolver)
		}
		return cli.BadInput("%s: %v", strings.Join(given, " "), err)
	}
	c.solver, c.pricingSolver = lpName, mipName
	return nil
}

// colgenOptions builds the library options from the flags.
func colgenOptions(c *colgenSettings, timeLimit float64, maxIter int) *colgen.Options {
	return &colgen.Options{
		LPSolver: c.solver, MIPSolver: c.pricingSolver, Exact: c.exact, TriangleCuts: c.triangles,
		CEColumns: c.ceColumns, TimeLimit: secondsDuration(timeLimit), MaxIterations: maxIter,
		NoClose: c.noClose, CloseColumns: c.closeColumns, NoICSM: c.noICSM, NoBranch: c.noBranch, ICSMTimeLimit: secondsDuration(c.icsmTimeLimit),
		Smoothing: c.smoothing, Ascent: c.ascent, NoShareAscent: c.noShareAscent, NoShareModel: c.noShareModel,
		NoRegionBound: c.noRegion,
		Stabilize:     c.stabilize, NoSubsetRowCuts: c.noSubsetRow || !c.subsetRow,
	}
}

// runColgen runs the column generation with progress on stderr.
func runColgen(z *model.Dataset, s *microaggSettings, prog *cli.Progress) (*colgen.Result, error) {
	opt := colgenOptions(&s.colgen, s.icsm.timeLimit, s.icsm.maxIter)
	opt.Seed, opt.ICSMRestarts = s.icsm.seed, s.icsm.restarts
	opt.Progress = colgenProgress(prog, opt.TimeLimit)
	res, err := colgen.Run(z, s.k, opt)
	prog.Finish()
	if err != nil {
		return nil, libraryError("", err)
	}
	return res, nil
}

// colgenProgress shows a run's reports on prog: every report a status
// line (rate-limited by prog; a change of phase always shown) with the
// phase, the best valid bound, the incumbent and their gap; with a time
// limit, a bar (on a terminal) counting its seconds. It only observes: the
// library's time shares do not depend on it.
func colgenProgress(prog *cli.Progress, timeLimit time.Duration) func(colgen.Progress) {
	phase := ""
	return func(p colgen.Progress) {
		if timeLimit > 0 {
			if phase == "" {
				prog.Start("colgen (seconds of the time limit)", int(math.Ceil(timeLimit.Seconds())))
			}
			prog.Set(min(int(p.Elapsed.Seconds()), int(math.Ceil(timeLimit.Seconds()))))
		}
		if p.Phase != phase {
			prog.Describe("colgen " + colgenPhaseNames[p.Phase])
		}
		var line string
		switch p.Phase {
		case colgen.PhaseMaster, colgen.PhaseSubsetRow:
			line = fmt.Sprintf("iteration %d, %d columns, master LP %.6g, ", p.Iteration, p.Columns, p.Master)
		case colgen.PhaseBranch:
			line = fmt.Sprintf("%d nodes, %d open, ", p.Nodes, p.OpenNodes)
		}
		gap := "gap -"
		if !math.IsNaN(p.GapPercent) {
			gap = fmt.Sprintf("gap %.4g %%", p.GapPercent)
		}
		prog.Printf("colgen: %s: %sbound %.6g (%s), best SSE %.6g, %s, %.1fs",
			colgenPhaseNames[p.Phase], line, p.LowerBound, p.BoundKind, p.BestSSE, gap, p.Elapsed.Seconds())
		if p.Phase != phase {
			prog.Flush()
			phase = p.Phase
		}
	}
}

// colgenPhaseNames are the phases in the progress lines.
var colgenPhaseNames = map[string]string{
	colgen.PhaseStart: "start (MDAV, V-MDAV, ICSM)", colgen.PhaseMaster: "master", colgen.PhaseSubsetRow: "subset-row cuts", colgen.PhaseClose: "gap closing",
	colgen.PhaseBranch: "branch-and-price", colgen.PhasePolish: "ICSM polish",
}

// colgenReport is what `sdcopt microagg --method colgen` adds to the JSON.
type colgenReport struct {
	Solver        string              `json:"solver"`
	PricingSolver string              `json:"pricing_solver"`
	ExactPricing  string              `json:"exact_pricing"`
	LowerBound    float64             `json:"lower_bound"`
	BoundKind     string              `json:"bound_kind"`
	BoundSeconds  float64             `json:"bound_seconds"` // when the run reached LowerBound
	Trace         []colgen.TracePoint `json:"trace"`         // bound and incumbent SSE whenever either improved
	LPBound       float64             `json:"lp_bound"`
	Closed        bool                `json:"closed"`
	CloseColumns  int                 `json:"close_columns"`
	CloseStatus   string              `json:"close_status,omitempty"`
	PolishNote    string              `json:"polish_note,omitempty"`
	SubsetRowCuts int                 `json:"subset_row_cuts,omitempty"` // cuts in the master (unless --no-subset-row-cuts)
	LowerBoundIL  float64             `json:"lower_bound_il"`
	GapPercent    float64             `json:"gap_percent"`
	Exact         bool                `json:"exact"`
	Converged     bool                `json:"converged"`
	Integral      bool                `json:"integral"`
	Source        string              `json:"source"`
	Iterations    int                 `json:"iterations"`
	Columns       int                 `json:"-"` // in colgenMicroaggResult
	Stopped       string              `json:"stopped"`
	StoppedPhase  string              `json:"stopped_phase,omitempty"`
	Split         int                 `json:"split_groups"`
	Nodes         int                 `json:"nodes"`
	OpenNodes     int                 `json:"open_nodes"`
	TimeLimit     float64             `json:"time_limit"`
	Heuristics    map[string]float64  `json:"heuristic_sse"`
	HeuristicGaps map[string]float64  `json:"heuristic_gap_percent"`
	Seconds       map[string]float64  `json:"seconds_by_phase"`
}

// colgenMicroaggResult is the JSON document of --method colgen: the
// common fields and the colgen report (whose "iterations" is the number of
// master solves).
//
// "columns" is the number of master columns here, as the column
// generation's own vocabulary has it; the attribute names, "columns" for
// the other methods, move to "attributes".
type colgenMicroaggResult struct {
	microaggResult
	*colgenReport
	Attributes    []string `json:"attributes"`
	MasterColumns int      `json:"columns"`
}

func newColgenReport(s *microaggSettings, r *colgen.Result, sst float64) *colgenReport {
	rep := &colgenReport{
		Solver: r.LPSolver, PricingSolver: s.colgen.pricingSolver, ExactPricing: s.colgen.exact,
		LowerBound: r.LowerBound, BoundKind: r.BoundKind, BoundSeconds: r.BoundSeconds, Trace: r.Trace, StoppedPhase: r.StoppedPhase, Split: r.Split, Nodes: r.Nodes, OpenNodes: r.OpenNodes, LPBound: r.LPBound, Closed: r.Closed, CloseColumns: r.CloseColumns, CloseStatus: r.CloseStatus, PolishNote: r.PolishNote,
		GapPercent: r.GapPercent, Exact: r.Exact, Converged: r.Converged,
		Integral: r.Integral, Source: r.Source, Iterations: r.Iterations, Columns: r.Columns, Stopped: r.Stopped,
		TimeLimit: s.icsm.timeLimit, Heuristics: map[string]float64{}, HeuristicGaps: map[string]float64{},
		Seconds: map[string]float64{
			"master": r.Stats.MasterSeconds, "rounding": r.Stats.RoundingSeconds, "heuristic_pricing": r.Stats.HeuristicSeconds,
			"complete_enumeration": r.Stats.CESeconds, "exact_pricing_ilp": r.Stats.EPSeconds, "close": r.Stats.CloseSeconds,
			"icsm_start": r.Stats.ICSMSeconds, "icsm_polish": r.Stats.PolishSeconds, "branch_and_price": r.Stats.BranchSeconds,
			"record_bound": r.Stats.BoundSeconds, "subgradient_ascent": r.Stats.AscentSeconds,
			"share_model_engine": r.Stats.ModelEngineSeconds,
		},
	}
	if sst > 0 {
		rep.LowerBoundIL = 100 * r.LowerBound / sst
	}
	if r.Cuts > 0 {
		rep.SubsetRowCuts = r.Cuts
		rep.Seconds["subset_row_cuts"] = r.Stats.SubsetRowSeconds
	}
	for name, v := range map[string]float64{"mdav": r.MDAV, "vmdav": r.VMDAV, "srh": r.SRH, "msth": r.MSTH, "icsm": r.ICSM, "polish": r.Polish} {
		if !math.IsInf(v, 0) {
			rep.Heuristics[name] = v
			rep.HeuristicGaps[name] = r.Gap(v)
		}
	}
	return rep
}

func writeColgenText(w io.Writer, r *colgenReport) {
	fmt.Fprintf(w, "bound     %.6g (IL %.4f %%, %s, reached at %.1f s), gap %.4f %%, exact: %v\n", r.LowerBound, r.LowerBoundIL, r.BoundKind, r.BoundSeconds, r.GapPercent, r.Exact)
	stopped := r.Stopped
	if r.StoppedPhase != "" {
		stopped += " (" + r.StoppedPhase + ")"
	}
	fmt.Fprintf(w, "colgen    %d master solves, %d columns, stopped: %s, best from %s, master integral: %v, groups of 2k+ split: %d\n",
		r.Iterations, r.Columns, stopped, r.Source, r.Integral, r.Split)
	if r.CloseStatus != "" {
		fmt.Fprintf(w, "close     %d groups within the gap (LP bound %.6g), integer program: %s\n", r.CloseColumns, r.LPBound, r.CloseStatus)
	}
	if r.PolishNote != "" {
		fmt.Fprintf(w, "polish    %s\n", r.PolishNote)
	}
	if r.Nodes > 0 {
		fmt.Fprintf(w, "branch    %d nodes solved, %d open\n", r.Nodes, r.OpenNodes)
	}
	fmt.Fprintf(w, "engines   master %s, pricing ILP %s, exact pricing %s\n", r.Solver, r.PricingSolver, r.ExactPricing)
	var parts []string
	for _, name := range []string{"mdav", "vmdav", "icsm", "msth", "srh", "polish"} {
		if v, ok := r.Heuristics[name]; ok {
			parts = append(parts, fmt.Sprintf("%s %.6g (gap %.2f %%)", name, v, r.HeuristicGaps[name]))
		}
	}
	fmt.Fprintf(w, "heuristic %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(w, "phases    ICSM start %.3fs, master %.3fs, rounding %.3fs, pricing: greedy %.3fs, enumeration %.3fs, ILP %.3fs; close %.3fs, branch-and-price %.3fs, ICSM polish %.3fs\n",
		r.Seconds["icsm_start"], r.Seconds["master"], r.Seconds["rounding"], r.Seconds["heuristic_pricing"], r.Seconds["complete_enumeration"], r.Seconds["exact_pricing_ilp"], r.Seconds["close"], r.Seconds["branch_and_price"], r.Seconds["icsm_polish"])
}
