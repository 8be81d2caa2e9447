package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// ColgenCriteria maps the paper's extraction criteria (Section 6) to
// datasets.Subset's names, in the paper's order.
var ColgenCriteria = []struct{ Name, Subset string }{
	{"cons", datasets.SubsetConsecutive},
	{"rand", datasets.SubsetRandom},
	{"l2n", datasets.SubsetNorm},
	{"l2d", datasets.SubsetCentroid},
}

func colgenSubset(crit string) (string, bool) {
	for _, c := range ColgenCriteria {
		if c.Name == crit {
			return c.Subset, true
		}
	}
	return "", false
}

// ColgenOptions configure Colgen; nil means DefaultColgenOptions().
type ColgenOptions struct {
	// Data is "census" (Table 3) or "tarragona" (Table 4).
	Data string
	// Ns and Ks are the subset sizes and minimum group sizes; Criteria
	// the extraction criteria (names of ColgenCriteria).
	Ns, Ks   []int
	Criteria []string
	// Instances is the number of subsets per row (seeds 1..Instances, the
	// same subsets for every k; the paper: 5).
	Instances int
	// Colgen is the template of the column generation's options for every
	// instance (TimeLimit and MaxIterations per instance); NoICSM,
	// NoBranch and NoSubsetRowCuts are always set and CEColumns 0 means 1 (the paper's
	// scheme, see colgenInstance).
	Colgen   colgen.Options
	Progress Progress
}

// DefaultColgenOptions returns Census, n = 30, 40, 50, k = 3, 4, 5, every
// criterion, 5 instances, default column generation.
func DefaultColgenOptions() *ColgenOptions {
	o := &ColgenOptions{Data: "census", Ns: []int{30, 40, 50}, Ks: []int{3, 4, 5}, Instances: 5}
	for _, c := range ColgenCriteria {
		o.Criteria = append(o.Criteria, c.Name)
	}
	return o
}

// ColgenInstance is one subset solved.
type ColgenInstance struct {
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

// ColgenRow is one (n, k, criterion) row: means over the instances.
type ColgenRow struct {
	N         int                 `json:"n"`
	K         int                 `json:"k"`
	Crit      string              `json:"criterion"`
	GapMDAV   float64             `json:"gap_mdav"`
	GapVMDAV  float64             `json:"gap_vmdav"`
	GapMSTH   float64             `json:"gap_msth"`
	GapSRH    float64             `json:"gap_srh"`
	GapPiStar float64             `json:"gap_pi_star"` // the paper's output π*, before the gap-closing stage
	GapBest   float64             `json:"gap_best"`
	Seconds   float64             `json:"seconds"`       // column generation (the paper's algorithm), mean
	CloseSecs float64             `json:"close_seconds"` // gap-closing stage, mean
	Exact     int                 `json:"exact"`
	Integral  int                 `json:"integral"`
	Converged int                 `json:"converged"`
	BoundOK   bool                `json:"bound_below_every_heuristic"`
	Published *ColgenPublishedRow `json:"published,omitempty"`
	Status    string              `json:"status"` // ok | ABOVE | BOUND! | -
	Instances []ColgenInstance    `json:"instances"`
}

// ColgenReport is the outcome of Colgen.
type ColgenReport struct {
	Method        string      `json:"method"` // "colgen"
	Data          string      `json:"data"`
	Source        string      `json:"published"`
	Solver        string      `json:"solver"`
	PricingSolver string      `json:"pricing_solver"`
	ExactPricing  string      `json:"exact_pricing"`
	TimeLimit     float64     `json:"time_limit"`
	Instances     int         `json:"instances"`
	Rows          []ColgenRow `json:"rows"`
	RowsOK        int         `json:"rows_ok"`
	RowsAbove     int         `json:"rows_above"`
	Exact         int         `json:"exact"`
	PublishedEx   int         `json:"published_ex"`
	BoundFailures int         `json:"bound_failures"`
	Seconds       float64     `json:"seconds"`
}

// colgenTableName is the paper's table of a data set.
var colgenTableName = map[string]string{"census": "Table 3 (Census)", "tarragona": "Table 4 (Tarragona)"}

func (o *ColgenOptions) check() error {
	if _, ok := colgenTableName[o.Data]; !ok {
		return settingsErr("data", "must be census or tarragona (the paper's Tables 3 and 4), got %q", o.Data)
	}
	if len(o.Ns) == 0 || len(o.Ks) == 0 || len(o.Criteria) == 0 {
		return settingsErr("n", "n, k and criteria need at least one value")
	}
	for _, k := range o.Ks {
		if k < 2 {
			return settingsErr("k", "values must be at least 2, got %d", k)
		}
	}
	for _, n := range o.Ns {
		if n < 2 {
			return settingsErr("n", "values must be at least 2, got %d", n)
		}
		for _, k := range o.Ks {
			if k > n {
				return settingsErr("k", "%d exceeds n %d", k, n)
			}
		}
	}
	for _, cr := range o.Criteria {
		if _, ok := colgenSubset(cr); !ok {
			return settingsErr("criteria", "unknown criterion %q (want cons, rand, l2n, l2d)", cr)
		}
	}
	if o.Instances < 1 {
		return settingsErr("instances", "must be at least 1, got %d", o.Instances)
	}
	return nil
}

// Colgen runs the column generation on subsets of Census (Table 3) or
// Tarragona (Table 4) beside the published rows of Gentile,
// Spagnolo-Arrizabalaga & Castro: for every n, k and extraction
// criterion, Instances subsets are drawn, z-scored and solved; gaps
// follow formula (15) against the final master LP bound, averaged over
// the instances. The published instances are not available: compare
// means.
func Colgen(opt *ColgenOptions) (*ColgenReport, error) {
	if opt == nil {
		opt = DefaultColgenOptions()
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	lpName, mipName, err := colgen.ResolveEngines(opt.Colgen.LPSolver, opt.Colgen.MIPSolver)
	if err != nil {
		return nil, err
	}
	raw, err := datasets.LoadCASC(opt.Data)
	if err != nil {
		return nil, err
	}
	for _, n := range opt.Ns {
		if n > raw.N {
			return nil, settingsErr("n", "%d exceeds the %d records of %s", n, raw.N, opt.Data)
		}
	}
	start := time.Now()
	prog := progressOf(opt.Progress)
	prog.Start("bench colgen", len(opt.Ns)*len(opt.Ks)*len(opt.Criteria)*opt.Instances)
	rep := &ColgenReport{Method: "colgen", Data: opt.Data, Source: "Gentile, Spagnolo-Arrizabalaga & Castro, " + colgenTableName[opt.Data],
		Solver: lpName, PricingSolver: mipName, ExactPricing: opt.Colgen.Exact, TimeLimit: opt.Colgen.TimeLimit.Seconds(), Instances: opt.Instances}
	if rep.ExactPricing == "" {
		rep.ExactPricing = colgen.ExactCE
	}
	for _, k := range opt.Ks {
		for _, n := range opt.Ns {
			for _, cr := range opt.Criteria {
				row := ColgenRow{N: n, K: k, Crit: cr, BoundOK: true}
				if p, ok := ColgenPublishedLookup(opt.Data, n, k, cr); ok {
					row.Published = &p
				}
				for i := 1; i <= opt.Instances; i++ {
					prog.Describe(fmt.Sprintf("n=%d k=%d %s #%d", n, k, cr, i))
					inst, err := colgenInstance(opt, raw, n, k, cr, uint64(i))
					if err != nil {
						return nil, err
					}
					row.Instances = append(row.Instances, *inst)
					prog.Add(1)
				}
				row.summarize()
				rep.Rows = append(rep.Rows, row)
			}
		}
	}
	for _, r := range rep.Rows {
		switch r.Status {
		case "ok":
			rep.RowsOK++
		case "ABOVE":
			rep.RowsAbove++
		}
		if !r.BoundOK {
			rep.BoundFailures++
		}
		rep.Exact += r.Exact
		if r.Published != nil {
			rep.PublishedEx += r.Published.Ex
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func colgenInstance(opt *ColgenOptions, raw *model.Dataset, n, k int, cr string, seed uint64) (*ColgenInstance, error) {
	crit, _ := colgenSubset(cr)
	sub, idx, err := datasets.Subset(raw, crit, n, seed)
	if err != nil {
		return nil, err
	}
	z, _ := model.Standardize(sub)
	// The paper's scheme: no ICSM start or polish (PI* is the paper's
	// output), no subset-row cuts (LB is the paper's master LP bound, the
	// one its gaps (15) use), and the gap-closing stage without
	// branch-and-price after it (BEST and EX stay comparable with the
	// published runs).
	o := opt.Colgen
	o.NoICSM, o.NoBranch, o.NoSubsetRowCuts = true, true, true
	if o.CEColumns == 0 {
		o.CEColumns = 1 // the paper's single column per enumeration
	}
	res, err := colgen.Run(z, k, &o)
	if err != nil {
		return nil, fmt.Errorf("bench colgen: n = %d, k = %d, %s, seed %d: %w", n, k, cr, seed, err)
	}
	if err := res.Check(z, k); err != nil {
		return nil, checkErr("colgen on n = %d, k = %d, %s, seed %d: %v", n, k, cr, seed, err)
	}
	inst := &ColgenInstance{
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

// meanFinite is the mean of the values that are not NaN; NaN when none.
func meanFinite(v []float64) float64 {
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

func (r *ColgenRow) summarize() {
	var g [6][]float64
	secs := 0.0
	for i := range r.Instances {
		in := &r.Instances[i]
		mdav, vmdav, best, pi := in.MDAV, in.VMDAV, in.SSE, in.PiStar
		lb := in.LPBound
		for j, v := range []float64{gap15(&mdav, lb), gap15(&vmdav, lb), gap15(in.MSTH, lb),
			gap15(in.SRH, lb), gap15(&best, lb), gap15(&pi, lb)} {
			g[j] = append(g[j], v)
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
	r.GapMDAV, r.GapVMDAV, r.GapMSTH, r.GapSRH, r.GapBest, r.GapPiStar = meanFinite(g[0]), meanFinite(g[1]), meanFinite(g[2]), meanFinite(g[3]), meanFinite(g[4]), meanFinite(g[5])
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

func fmtGap(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}

// ColgenSummary is the mean gap of the rows of one (n, k) over the
// criteria: ours and the published better heuristics.
type ColgenSummary struct {
	N, K                        int
	MSTH, SRH, PiStar, Best     float64
	PublishedMSTH, PublishedSRH float64
	PublishedBest               float64 // mean over the criteria of min(MSTH, SRH)
}

// Summary averages the rows of every (n, k) over the criteria, in row
// order.
func (r *ColgenReport) Summary() []ColgenSummary {
	type key struct{ n, k int }
	type acc struct{ msth, srh, pi, best, pm, ps, pb []float64 }
	var keys []key
	m := map[key]*acc{}
	for _, row := range r.Rows {
		kk := key{row.N, row.K}
		a, ok := m[kk]
		if !ok {
			a = &acc{}
			m[kk] = a
			keys = append(keys, kk)
		}
		a.msth = append(a.msth, row.GapMSTH)
		a.srh = append(a.srh, row.GapSRH)
		a.pi = append(a.pi, row.GapPiStar)
		a.best = append(a.best, row.GapBest)
		if p := row.Published; p != nil {
			a.pm = append(a.pm, p.MSTH)
			a.ps = append(a.ps, p.SRH)
			a.pb = append(a.pb, min(p.MSTH, p.SRH))
		}
	}
	var out []ColgenSummary
	for _, kk := range keys {
		a := m[kk]
		out = append(out, ColgenSummary{N: kk.n, K: kk.k, MSTH: meanFinite(a.msth), SRH: meanFinite(a.srh), PiStar: meanFinite(a.pi),
			Best: meanFinite(a.best), PublishedMSTH: meanFinite(a.pm), PublishedSRH: meanFinite(a.ps), PublishedBest: meanFinite(a.pb)})
	}
	return out
}

// Tables returns the rows and the per-instance results.
func (r *ColgenReport) Tables() []*Table {
	rows := &Table{Name: "rows", Columns: []string{"n", "k", "criterion", "gap_mdav", "gap_vmdav", "gap_msth", "gap_srh", "gap_pi_star", "gap_best",
		"seconds", "close_seconds", "exact", "integral", "converged", "bound_below_every_heuristic",
		"published_gap_mdav", "published_gap_vmdav", "published_gap_msth", "published_gap_srh", "published_seconds", "published_ex", "status"}}
	inst := &Table{Name: "instances", Columns: []string{"n", "k", "criterion", "seed", "sse", "sse_pi_star", "lower_bound", "lp_bound",
		"sse_mdav", "sse_vmdav", "sse_msth", "sse_srh", "exact", "integral", "converged", "stopped", "iterations", "columns", "seconds",
		"close_seconds", "close_status"}}
	for _, x := range r.Rows {
		var pm, pv, pms, psr, pt any
		var pe any
		if p := x.Published; p != nil {
			pm, pv, pms, psr, pt, pe = p.MDAV, p.VMDAV, p.MSTH, p.SRH, p.Time, p.Ex
		}
		rows.add(x.N, x.K, x.Crit, x.GapMDAV, x.GapVMDAV, x.GapMSTH, x.GapSRH, x.GapPiStar, x.GapBest, x.Seconds, x.CloseSecs,
			x.Exact, x.Integral, x.Converged, x.BoundOK, pm, pv, pms, psr, pt, pe, x.Status)
		for _, in := range x.Instances {
			inst.add(x.N, x.K, x.Crit, in.Seed, in.SSE, in.PiStar, in.LowerBound, in.LPBound, in.MDAV, in.VMDAV, in.MSTH, in.SRH,
				in.Exact, in.Integral, in.Converged, in.Stopped, in.Iterations, in.Columns, in.Seconds, in.CloseSecs, in.CloseStat)
		}
	}
	return []*Table{rows, inst}
}

// WriteText writes the rows beside the published ones, then the means
// per (n, k).
func (r *ColgenReport) WriteText(w io.Writer) error {
	table := colgenTableName[r.Data]
	fmt.Fprintf(w, "Column generation for microaggregation, %s subsets, %d instance(s) per row\n", r.Data, r.Instances)
	fmt.Fprintf(w, "gap %% = 100*(SSE_H - LB)/SSE_H (formula (15)); published: Gentile, Spagnolo-Arrizabalaga & Castro, %s\n", table)
	fmt.Fprintf(w, "engines: master %s, pricing ILP %s, exact pricing %s\n", r.Solver, r.PricingSolver, r.ExactPricing)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tK\tTYPE\tMDAV\tV-MDAV\tMSTH\tSRH\tPI*\tBEST\tTIME\tCLOSE\tEX\tINT\t|\tP.MDAV\tP.V-MDAV\tP.MSTH\tP.SRH\tP.TIME\tP.EX\tSTATUS\t")
	insts := 0
	var timeRatio []float64
	for _, x := range r.Rows {
		insts += len(x.Instances)
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%d\t%d\t|\t", x.N, x.K, x.Crit, fmtGap(x.GapMDAV), fmtGap(x.GapVMDAV),
			fmtGap(x.GapMSTH), fmtGap(x.GapSRH), fmtGap(x.GapPiStar), fmtGap(x.GapBest), x.Seconds, x.CloseSecs, x.Exact, x.Integral)
		if p := x.Published; p != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%d\t%s\t\n", fmtGap(p.MDAV), fmtGap(p.VMDAV), fmtGap(p.MSTH), fmtGap(p.SRH), p.Time, p.Ex, x.Status)
			if p.Time > 0 {
				timeRatio = append(timeRatio, x.Seconds/p.Time)
			}
		} else {
			fmt.Fprintf(tw, "-\t-\t-\t-\t-\t-\t%s\t\n", x.Status)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "rows whose PI* gap is at or below the published better of MSTH/SRH: %d of %d (ABOVE: %d)\n", r.RowsOK, r.RowsOK+r.RowsAbove, r.RowsAbove)
	fmt.Fprintln(w, "mean gap % per (n, k) over the criteria:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tK\tMSTH\tSRH\tPI*\tBEST\t|\tP.MSTH\tP.SRH\t")
	for _, s := range r.Summary() {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t|\t%s\t%s\t\n", s.N, s.K, fmtGap(s.MSTH), fmtGap(s.SRH),
			fmtGap(s.PiStar), fmtGap(s.Best), fmtGap(s.PublishedMSTH), fmtGap(s.PublishedSRH))
	}
	tw.Flush()
	fmt.Fprintf(w, "instances solved to proven optimality: %d of %d (published Ex in these rows: %d)\n", r.Exact, insts, r.PublishedEx)
	if len(timeRatio) > 0 {
		slices.Sort(timeRatio)
		fmt.Fprintf(w, "column-generation time / published time per row: median %.3f, max %.3f (the gap-closing stage, CLOSE, is extra)\n", timeRatio[len(timeRatio)/2], timeRatio[len(timeRatio)-1])
	}
	if r.BoundFailures == 0 {
		_, err := fmt.Fprintln(w, "lower bound <= SSE of every heuristic on every instance: yes")
		return err
	}
	_, err := fmt.Fprintf(w, "lower bound above a heuristic SSE in %d row(s): BOUND!\n", r.BoundFailures)
	return err
}
