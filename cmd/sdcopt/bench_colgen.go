package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/model"
)

// colgenBenchCriteria maps the paper's extraction criteria (Section 6) to
// datasets.Subset's names.
var colgenBenchCriteria = map[string]string{
	"cons": datasets.SubsetConsecutive,
	"rand": datasets.SubsetRandom,
	"l2n":  datasets.SubsetNorm,
	"l2d":  datasets.SubsetCentroid,
}

var colgenBenchCriteriaOrder = []string{"cons", "rand", "l2n", "l2d"}

type colgenBenchSettings struct {
	data      string
	ns, ks    []int
	criteria  []string
	instances int
	timeLimit float64
	maxIter   int
	cg        colgenSettings
	format    string
	quiet     bool
}

// colgenBenchInstance is one subset solved.
type colgenBenchInstance struct {
	Seed       uint64   `json:"seed"`
	Records    []int    `json:"records"` // 0-based rows of the data set
	SSE        float64  `json:"sse"`
	PiStar     float64  `json:"sse_pi_star"` // best SSE when the column generation ended (before the gap-closing stage)
	LowerBound float64  `json:"lower_bound"`
	LPBound    float64  `json:"lp_bound"`
	Closed     bool     `json:"closed"`
	CloseCols  int      `json:"close_columns"`
	CloseSecs  float64  `json:"close_seconds"`
	CloseStat  string   `json:"close_status,omitempty"`
	MDAV       float64  `json:"sse_mdav"`
	VMDAV      float64  `json:"sse_vmdav"`
	MSTH       *float64 `json:"sse_msth"` // null when the master was integral from the start
	SRH        *float64 `json:"sse_srh"`
	Exact      bool     `json:"exact"`
	Integral   bool     `json:"integral"`
	Converged  bool     `json:"converged"`
	Stopped    string   `json:"stopped"`
	Iterations int      `json:"iterations"`
	Columns    int      `json:"columns"`
	Seconds    float64  `json:"seconds"`
	MasterSecs float64  `json:"master_seconds"`
	PriceSecs  float64  `json:"pricing_seconds"`
	BoundOK    bool     `json:"bound_below_every_heuristic"`
}

// colgenBenchRow is one (n, k, criterion) row: averages over instances.
type colgenBenchRow struct {
	N         int                   `json:"n"`
	K         int                   `json:"k"`
	Crit      string                `json:"criterion"`
	GapMDAV   float64               `json:"gap_mdav"`
	GapVMDAV  float64               `json:"gap_vmdav"`
	GapMSTH   float64               `json:"gap_msth"`
	GapSRH    float64               `json:"gap_srh"`
	GapPiStar float64               `json:"gap_pi_star"` // the paper's output π*, before the gap-closing stage
	GapBest   float64               `json:"gap_best"`
	Seconds   float64               `json:"seconds"`       // column generation (the paper's algorithm), mean
	CloseSecs float64               `json:"close_seconds"` // gap-closing stage, mean
	Exact     int                   `json:"exact"`
	Integral  int                   `json:"integral"`
	Converged int                   `json:"converged"`
	BoundOK   bool                  `json:"bound_below_every_heuristic"`
	Published *colgenPublishedRow   `json:"published,omitempty"`
	Status    string                `json:"status"`
	Instances []colgenBenchInstance `json:"instances"`
}

func newBenchColgenCmd() *cobra.Command {
	var s colgenBenchSettings
	c := &cobra.Command{
		Use:   "colgen",
		Short: "Column generation gaps on CASC subsets beside Gentile, Spagnolo-Arrizabalaga & Castro Tables 3/4",
		Long: "Column generation for microaggregation on subsets of Census (Table 3) or\n" +
			"Tarragona (Table 4) beside the published rows of Gentile,\n" +
			"Spagnolo-Arrizabalaga & Castro. For every n, k and extraction criterion\n" +
			"(cons: consecutive, rand: random, l2n: by L2 norm, l2d: by L2 distance from\n" +
			"the centroid) --instances subsets are drawn (seeds 1..instances, the same\n" +
			"subsets for every k), z-scored and solved. Gaps follow formula (15),\n" +
			"100*(SSE_H - LB)/SSE_H, against the final master LP bound LB, averaged over\n" +
			"the instances, for MDAV, V-MDAV, MSTH (RoundingMSTHeuristic), SRH\n" +
			"(SimpleRoundingHeuristic), PI* (the paper's output: the best of those when the\n" +
			"column generation ends) and BEST (the returned clustering, after the\n" +
			"gap-closing stage). TIME is the\n" +
			"column generation (the paper's algorithm, comparable with P.TIME), CLOSE the\n" +
			"gap-closing stage after it (seconds, means). EX counts the instances solved\n" +
			"to proven optimality (gap closed), INT those whose final master solution is\n" +
			"integral (the paper's Ex). The published instances are\n" +
			"not available: compare averages. STATUS is ok when our PI* is at most the\n" +
			"published better of MSTH and SRH (+0.005), else ABOVE; a summary per (n, k)\n" +
			"follows the table.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := s.check(c.Flags().Changed); err != nil {
				return err
			}
			start := time.Now()
			rows, err := benchColgen(&s)
			if err != nil {
				return err
			}
			return writeBenchColgen(c.OutOrStdout(), &s, rows, time.Since(start).Seconds())
		},
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "census", "data set: census (Table 3) or tarragona (Table 4)")
	f.IntSliceVar(&s.ns, "n", []int{30, 40, 50}, "subset sizes (the paper: 30,40,50,100,200)")
	f.IntSliceVar(&s.ks, "k", []int{3, 4, 5}, "minimum group sizes")
	f.StringSliceVar(&s.criteria, "criteria", colgenBenchCriteriaOrder, "extraction criteria: cons,rand,l2n,l2d")
	f.IntVar(&s.instances, "instances", 5, "subsets per row (the paper: 5)")
	f.Float64Var(&s.timeLimit, "time-limit", 0, "time limit per instance in seconds (0 = none); a stopped run reports its Lagrangian bound")
	f.IntVar(&s.maxIter, "max-iter", 0, "cap on the master solves per instance (0 = none)")
	addColgenFlags(f, &s.cg)
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.BoolVar(&s.quiet, "quiet", false, "no progress bar on stderr")
	return c
}

func (s *colgenBenchSettings) check(changed func(string) bool) error {
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return err
	}
	if s.data != "census" && s.data != "tarragona" {
		return cli.BadInput("--data must be census or tarragona (the paper's Tables 3 and 4), got %q", s.data)
	}
	if len(s.ns) == 0 || len(s.ks) == 0 || len(s.criteria) == 0 {
		return cli.BadInput("--n, --k and --criteria need at least one value")
	}
	for _, k := range s.ks {
		if k < 2 {
			return cli.BadInput("--k values must be at least 2, got %d", k)
		}
	}
	for _, n := range s.ns {
		if n < 2 {
			return cli.BadInput("--n values must be at least 2, got %d", n)
		}
		for _, k := range s.ks {
			if k > n {
				return cli.BadInput("--k %d exceeds --n %d", k, n)
			}
		}
	}
	for _, cr := range s.criteria {
		if _, ok := colgenBenchCriteria[cr]; !ok {
			return cli.BadInput("unknown criterion %q in --criteria (want cons, rand, l2n, l2d)", cr)
		}
	}
	if s.instances < 1 {
		return cli.BadInput("--instances must be at least 1, got %d", s.instances)
	}
	return s.cg.check(s.timeLimit, s.maxIter)
}

func benchColgen(s *colgenBenchSettings) ([]colgenBenchRow, error) {
	raw, err := datasets.LoadCASC(s.data)
	if err != nil {
		return nil, cli.BadInput("%v", err)
	}
	for _, n := range s.ns {
		if n > raw.N {
			return nil, cli.BadInput("--n %d exceeds the %d records of %s", n, raw.N, s.data)
		}
	}
	prog := cli.NewProgress(s.quiet)
	defer prog.Finish()
	prog.Start("bench colgen", len(s.ns)*len(s.ks)*len(s.criteria)*s.instances)
	var rows []colgenBenchRow
	for _, k := range s.ks {
		for _, n := range s.ns {
			for _, cr := range s.criteria {
				row := colgenBenchRow{N: n, K: k, Crit: cr, BoundOK: true}
				if p, ok := colgenPublishedLookup(s.data, n, k, cr); ok {
					row.Published = &p
				}
				for i := 1; i <= s.instances; i++ {
					prog.Describe(fmt.Sprintf("n=%d k=%d %s #%d", n, k, cr, i))
					inst, err := colgenBenchOne(s, raw, n, k, cr, uint64(i))
					if err != nil {
						return nil, err
					}
					row.Instances = append(row.Instances, *inst)
					prog.Add(1)
				}
				row.summarize()
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

func colgenBenchOne(s *colgenBenchSettings, raw *model.Dataset, n, k int, cr string, seed uint64) (*colgenBenchInstance, error) {
	sub, idx, err := datasets.Subset(raw, colgenBenchCriteria[cr], n, seed)
	if err != nil {
		return nil, cli.BadInput("%v", err)
	}
	z, _ := model.Standardize(sub)
	res, err := colgen.Run(z, k, colgenOptions(&s.cg, s.timeLimit, s.maxIter))
	if err != nil {
		return nil, fmt.Errorf("n = %d, k = %d, %s, seed %d: %w", n, k, cr, seed, err)
	}
	if err := checkColgenResult(z, res); err != nil {
		return nil, &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: n = %d, k = %d, %s, seed %d: %w", n, k, cr, seed, err)}
	}
	inst := &colgenBenchInstance{
		Seed: seed, Records: idx, SSE: res.SSE, PiStar: res.HeuristicSSE, LowerBound: res.LowerBound, LPBound: res.LPBound,
		Closed: res.Closed, CloseCols: res.CloseColumns, CloseSecs: res.Stats.CloseSeconds, CloseStat: res.CloseStatus, MDAV: res.MDAV, VMDAV: res.VMDAV,
		Exact: res.Exact, Integral: res.Integral, Converged: res.Converged, Stopped: res.Stopped,
		Iterations: res.Iterations, Columns: res.Columns, Seconds: res.Seconds,
		MasterSecs: res.Stats.MasterSeconds, PriceSecs: res.Stats.PricingSeconds(),
	}
	inst.BoundOK = res.LowerBound <= res.SSE*(1+1e-9)+1e-12 && res.LowerBound <= res.MDAV*(1+1e-9) && res.LowerBound <= res.VMDAV*(1+1e-9)
	if !math.IsInf(res.MSTH, 0) {
		v := res.MSTH
		inst.MSTH = &v
		inst.BoundOK = inst.BoundOK && res.LowerBound <= v*(1+1e-9)
	}
	if !math.IsInf(res.SRH, 0) {
		v := res.SRH
		inst.SRH = &v
		inst.BoundOK = inst.BoundOK && res.LowerBound <= v*(1+1e-9)
	}
	return inst, nil
}

// gap15 is formula (15) in percent; NaN when sse is missing.
func gap15(sse *float64, lb float64) float64 {
	if sse == nil {
		return math.NaN()
	}
	return colgen.GapPercent(*sse, lb)
}

func (r *colgenBenchRow) summarize() {
	var g [6][]float64
	secs := 0.0
	for i := range r.Instances {
		in := &r.Instances[i]
		mdav, vmdav, best, pi := in.MDAV, in.VMDAV, in.SSE, in.PiStar
		lb := in.LPBound
		for j, v := range []float64{gap15(&mdav, lb), gap15(&vmdav, lb), gap15(in.MSTH, lb),
			gap15(in.SRH, lb), gap15(&best, lb), gap15(&pi, lb)} {
			if !math.IsNaN(v) {
				g[j] = append(g[j], v)
			}
		}
		secs += in.Seconds - in.CloseSecs
		r.CloseSecs += in.CloseSecs / float64(len(r.Instances))
		if in.Exact {
			r.Exact++
		}
		if in.Integral {
			r.Integral++
		}
		if in.Converged {
			r.Converged++
		}
		r.BoundOK = r.BoundOK && in.BoundOK
	}
	avg := func(v []float64) float64 {
		if len(v) == 0 {
			return math.NaN()
		}
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	r.GapMDAV, r.GapVMDAV, r.GapMSTH, r.GapSRH, r.GapBest, r.GapPiStar = avg(g[0]), avg(g[1]), avg(g[2]), avg(g[3]), avg(g[4]), avg(g[5])
	r.Seconds = secs / float64(len(r.Instances))
	r.Status = "-"
	if p := r.Published; p != nil {
		if r.GapPiStar <= min(p.MSTH, p.SRH)+0.005 {
			r.Status = "ok"
		} else {
			r.Status = "ABOVE"
		}
	}
	if !r.BoundOK {
		r.Status = "BOUND!"
	}
}

// minNaN is the smaller of a and b ignoring NaN.
func minNaN(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return min(a, b)
}

func fmtGap(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}

func writeBenchColgen(w io.Writer, s *colgenBenchSettings, rows []colgenBenchRow, secs float64) error {
	table := map[string]string{"census": "Table 3 (Census)", "tarragona": "Table 4 (Tarragona)"}[s.data]
	ok, above, exact, pubExact, insts, boundBad := 0, 0, 0, 0, 0, 0
	var timeRatio []float64
	for _, r := range rows {
		switch r.Status {
		case "ok":
			ok++
		case "ABOVE":
			above++
		}
		if !r.BoundOK {
			boundBad++
		}
		exact += r.Exact
		insts += len(r.Instances)
		if r.Published != nil {
			pubExact += r.Published.Ex
			if r.Published.Time > 0 {
				timeRatio = append(timeRatio, r.Seconds/r.Published.Time)
			}
		}
	}
	if s.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"method":         "colgen",
			"data":           s.data,
			"published":      "Gentile, Spagnolo-Arrizabalaga & Castro, " + table,
			"solver":         s.cg.solver,
			"pricing_solver": s.cg.pricingSolver,
			"exact_pricing":  s.cg.exact,
			"time_limit":     s.timeLimit,
			"instances":      s.instances,
			"rows":           rows,
			"rows_ok":        ok,
			"rows_above":     above,
			"exact":          exact,
			"published_ex":   pubExact,
			"bound_failures": boundBad,
			"seconds":        secs,
		})
	}
	fmt.Fprintf(w, "Column generation for microaggregation, %s subsets, %d instance(s) per row\n", s.data, s.instances)
	fmt.Fprintf(w, "gap %% = 100*(SSE_H - LB)/SSE_H (formula (15)); published: Gentile, Spagnolo-Arrizabalaga & Castro, %s\n", table)
	fmt.Fprintf(w, "engines: master %s, pricing ILP %s, exact pricing %s\n", s.cg.solver, s.cg.pricingSolver, s.cg.exact)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tK\tTYPE\tMDAV\tV-MDAV\tMSTH\tSRH\tPI*\tBEST\tTIME\tCLOSE\tEX\tINT\t|\tP.MDAV\tP.V-MDAV\tP.MSTH\tP.SRH\tP.TIME\tP.EX\tSTATUS\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%d\t%d\t|\t", r.N, r.K, r.Crit, fmtGap(r.GapMDAV), fmtGap(r.GapVMDAV),
			fmtGap(r.GapMSTH), fmtGap(r.GapSRH), fmtGap(r.GapPiStar), fmtGap(r.GapBest), r.Seconds, r.CloseSecs, r.Exact, r.Integral)
		if p := r.Published; p != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%d\t%s\t\n", fmtGap(p.MDAV), fmtGap(p.VMDAV), fmtGap(p.MSTH), fmtGap(p.SRH), p.Time, p.Ex, r.Status)
		} else {
			fmt.Fprintf(tw, "-\t-\t-\t-\t-\t-\t%s\t\n", r.Status)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "rows whose PI* gap is at or below the published better of MSTH/SRH: %d of %d (ABOVE: %d)\n", ok, ok+above, above)
	writeColgenSummary(w, rows)
	fmt.Fprintf(w, "instances solved to proven optimality: %d of %d (published Ex in these rows: %d)\n", exact, insts, pubExact)
	if len(timeRatio) > 0 {
		slices.Sort(timeRatio)
		fmt.Fprintf(w, "column-generation time / published time per row: median %.3f, max %.3f (the gap-closing stage, CLOSE, is extra)\n", timeRatio[len(timeRatio)/2], timeRatio[len(timeRatio)-1])
	}
	if boundBad == 0 {
		fmt.Fprintln(w, "lower bound <= SSE of every heuristic on every instance: yes")
	} else {
		fmt.Fprintf(w, "lower bound above a heuristic SSE in %d row(s): BOUND!\n", boundBad)
	}
	return nil
}

// writeColgenSummary averages the rows of every (n, k) over the criteria:
// ours (MSTH, SRH, PI*, BEST) beside the published MSTH and SRH.
func writeColgenSummary(w io.Writer, rows []colgenBenchRow) {
	type key struct{ n, k int }
	type acc struct {
		msth, srh, pi, best, pm, ps []float64
	}
	var keys []key
	m := map[key]*acc{}
	for _, r := range rows {
		kk := key{r.N, r.K}
		a, ok := m[kk]
		if !ok {
			a = &acc{}
			m[kk] = a
			keys = append(keys, kk)
		}
		a.msth = append(a.msth, r.GapMSTH)
		a.srh = append(a.srh, r.GapSRH)
		a.pi = append(a.pi, r.GapPiStar)
		a.best = append(a.best, r.GapBest)
		if p := r.Published; p != nil {
			a.pm = append(a.pm, p.MSTH)
			a.ps = append(a.ps, p.SRH)
		}
	}
	mean := func(v []float64) float64 {
		s, c := 0.0, 0
		for _, x := range v {
			if !math.IsNaN(x) {
				s += x
				c++
			}
		}
		if c == 0 {
			return math.NaN()
		}
		return s / float64(c)
	}
	fmt.Fprintln(w, "mean gap % per (n, k) over the criteria:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tK\tMSTH\tSRH\tPI*\tBEST\t|\tP.MSTH\tP.SRH\t")
	for _, kk := range keys {
		a := m[kk]
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t|\t%s\t%s\t\n", kk.n, kk.k, fmtGap(mean(a.msth)), fmtGap(mean(a.srh)),
			fmtGap(mean(a.pi)), fmtGap(mean(a.best)), fmtGap(mean(a.pm)), fmtGap(mean(a.ps)))
	}
	tw.Flush()
}
