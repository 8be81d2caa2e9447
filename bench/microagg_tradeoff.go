package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// MicroaggTradeoffOptions configure MicroaggTradeoff; nil means
// DefaultMicroaggTradeoffOptions().
type MicroaggTradeoffOptions struct {
	// Data are CASC data sets, Ks the minimum group sizes, Methods the
	// microaggregation methods (microagg.Methods; icsm starts from MDAV).
	Data    []string
	Ks      []int
	Methods []string
	// BoundTime is the time limit of the column generation (colgen.Run,
	// without ICSM, gap closing or branching) that proves a lower bound on
	// the optimal SSE of every case; 0 skips it. Its clustering joins the
	// rows as method "colgen".
	BoundTime time.Duration
	// IntervalP is the width of the interval disclosure
	// (risk.IntervalDisclosure; 0 = risk.DefaultIntervalP).
	IntervalP float64
	Seed      uint64
	Progress  Progress
}

// DefaultMicroaggTradeoffOptions returns Census, Tarragona and EIA at k =
// 2, 3, 4, 5, 7, 10, 15 with mdav, vmdav, projection and icsm, no bound,
// seed 1.
func DefaultMicroaggTradeoffOptions() *MicroaggTradeoffOptions {
	return &MicroaggTradeoffOptions{Data: []string{"census", "tarragona", "eia"}, Ks: []int{2, 3, 4, 5, 7, 10, 15},
		Methods: []string{microagg.MethodMDAV, microagg.MethodVMDAV, microagg.MethodProjection, microagg.MethodICSM}, Seed: 1}
}

// MethodColgen names the rows of the bound's column generation.
const MethodColgen = "colgen"

// MicroaggTradeoffRow is one method at one k on one data set: its
// information loss and the disclosure risk of its protected data
// (risk.Numeric: the records replaced by their group's centroid).
type MicroaggTradeoffRow struct {
	Data   string  `json:"data"`
	N      int     `json:"n"`
	D      int     `json:"d"`
	K      int     `json:"k"`
	Method string  `json:"method"`
	IL     float64 `json:"il"` // 100·SSE/SST on the z-scored data
	// Linkage is the distance-based record linkage risk (DBRL), Interval
	// the interval disclosure risk, both shares in [0, 1]; IL1s the mean
	// standardized absolute deviation (see package risk).
	Linkage  float64 `json:"linkage"`
	Interval float64 `json:"interval"`
	IL1s     float64 `json:"il1s"`
	Seconds  float64 `json:"seconds"` // the method's time, risk excluded
}

// MicroaggTradeoffBound is the lower bound of one case.
type MicroaggTradeoffBound struct {
	Data         string  `json:"data"`
	K            int     `json:"k"`
	LowerBoundIL float64 `json:"lower_bound_il"` // 100·bound/SST
	BoundKind    string  `json:"bound_kind"`
	BestIL       float64 `json:"best_il"` // the lowest IL of the rows of this case
	Seconds      float64 `json:"seconds"`
	Stopped      string  `json:"stopped"`
}

// MicroaggTradeoffReport is the outcome of MicroaggTradeoff.
type MicroaggTradeoffReport struct {
	Method    string                  `json:"method"` // "microagg-tradeoff"
	IntervalP float64                 `json:"interval_p"`
	BoundTime float64                 `json:"bound_time"`
	Seed      uint64                  `json:"seed"`
	Rows      []MicroaggTradeoffRow   `json:"rows"`
	Bounds    []MicroaggTradeoffBound `json:"bounds"`
	Seconds   float64                 `json:"seconds"`
}

func (o *MicroaggTradeoffOptions) check() error {
	if len(o.Data) == 0 || len(o.Ks) == 0 || len(o.Methods) == 0 {
		return settingsErr("data", "data, k and methods need at least one value")
	}
	for _, name := range o.Data {
		if !datasets.IsCASC(name) {
			return settingsErr("data", "unknown data set %q (want one of %s)", name, strings.Join(datasets.CASCNames(), ", "))
		}
	}
	for _, k := range o.Ks {
		if k < 2 {
			return settingsErr("k", "values must be at least 2, got %d", k)
		}
	}
	for _, m := range o.Methods {
		if !slices.Contains(microagg.Methods(), m) {
			return settingsErr("methods", "unknown method %q (want some of %s)", m, strings.Join(microagg.Methods(), ", "))
		}
	}
	if o.BoundTime < 0 {
		return settingsErr("bound-time", "negative time %v", o.BoundTime)
	}
	if o.IntervalP < 0 || math.IsNaN(o.IntervalP) || math.IsInf(o.IntervalP, 0) {
		return settingsErr("interval-p", "must be a finite non-negative width, got %g", o.IntervalP)
	}
	return nil
}

// MicroaggTradeoff runs every method at every k on the CASC data sets and
// measures, for each protected data set (records replaced by their
// group's centroid, model.Protect), the information loss IL =
// 100·SSE/SST and the disclosure risk of package risk (DBRL, interval
// disclosure, IL1s); with BoundTime, the column generation proves a
// lower bound on the optimal IL of every case. Every clustering is
// checked (groups of at least k, SSE recomputed) and every bound against
// the rows' SSE; a failure is ErrCheck.
func MicroaggTradeoff(opt *MicroaggTradeoffOptions) (*MicroaggTradeoffReport, error) {
	if opt == nil {
		opt = DefaultMicroaggTradeoffOptions()
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	ip := opt.IntervalP
	if ip == 0 {
		ip = risk.DefaultIntervalP
	}
	prog := progressOf(opt.Progress)
	start := time.Now()
	steps := len(opt.Methods)
	if opt.BoundTime > 0 {
		steps++
	}
	prog.Start("bench microagg-tradeoff", len(opt.Data)*len(opt.Ks)*steps)
	rep := &MicroaggTradeoffReport{Method: "microagg-tradeoff", IntervalP: ip, BoundTime: opt.BoundTime.Seconds(), Seed: opt.Seed}
	for _, name := range opt.Data {
		raw, err := datasets.LoadCASC(name)
		if err != nil {
			return nil, err
		}
		z, _ := model.Standardize(raw)
		sst := model.SST(z)
		for _, k := range opt.Ks {
			if k > z.N {
				return nil, settingsErr("k", "%d exceeds the %d records of %s", k, z.N, name)
			}
			best := math.Inf(1)
			measure := func(method string, cl *model.Clustering, secs float64) error {
				if _, err := cl.CheckK(z.N, k); err != nil {
					return checkErr("%s, k = %d, %s: %v", name, k, method, err)
				}
				sse := model.SSE(z, cl)
				nr, err := risk.Numeric(raw, model.Protect(raw, cl), &risk.NumericOptions{IntervalP: ip})
				if err != nil {
					return fmt.Errorf("bench microagg-tradeoff: %s, k = %d, %s: %w", name, k, method, err)
				}
				rep.Rows = append(rep.Rows, MicroaggTradeoffRow{Data: name, N: z.N, D: z.D, K: k, Method: method, IL: il(sse, sst),
					Linkage: nr.Linkage, Interval: nr.Interval, IL1s: nr.IL1s, Seconds: secs})
				best = min(best, sse)
				return nil
			}
			for _, m := range opt.Methods {
				prog.Describe(fmt.Sprintf("%s k=%d %s", name, k, m))
				t0 := time.Now()
				cl, err := microagg.Run(m, z, k, microagg.Options{})
				if err != nil {
					return nil, fmt.Errorf("bench microagg-tradeoff: %s, k = %d, %s: %w", name, k, m, err)
				}
				if err := measure(m, cl, time.Since(t0).Seconds()); err != nil {
					return nil, err
				}
				prog.Add(1)
			}
			if opt.BoundTime <= 0 {
				continue
			}
			prog.Describe(fmt.Sprintf("%s k=%d bound", name, k))
			res, err := colgen.Run(z, k, &colgen.Options{NoICSM: true, NoClose: true, NoBranch: true, TimeLimit: opt.BoundTime, Seed: opt.Seed})
			if err != nil {
				return nil, fmt.Errorf("bench microagg-tradeoff: %s, k = %d, bound: %w", name, k, err)
			}
			if err := measure(MethodColgen, res.Clustering, res.Seconds); err != nil {
				return nil, err
			}
			if res.LowerBound > best*(1+1e-9)+1e-12 {
				return nil, checkErr("%s, k = %d: lower bound %.12g above the SSE %.12g of a method", name, k, res.LowerBound, best)
			}
			rep.Bounds = append(rep.Bounds, MicroaggTradeoffBound{Data: name, K: k, LowerBoundIL: il(res.LowerBound, sst), BoundKind: res.BoundKind,
				BestIL: il(best, sst), Seconds: res.Seconds, Stopped: res.Stopped})
			prog.Add(1)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// Tables returns the rows and the bounds.
func (r *MicroaggTradeoffReport) Tables() []*Table {
	rows := &Table{Name: "rows", Columns: []string{"data", "n", "d", "k", "method", "il", "linkage", "interval", "il1s", "seconds"}}
	for _, x := range r.Rows {
		rows.add(x.Data, x.N, x.D, x.K, x.Method, x.IL, x.Linkage, x.Interval, x.IL1s, x.Seconds)
	}
	b := &Table{Name: "bounds", Columns: []string{"data", "k", "lower_bound_il", "bound_kind", "best_il", "seconds", "stopped"}}
	for _, x := range r.Bounds {
		b.add(x.Data, x.K, x.LowerBoundIL, x.BoundKind, x.BestIL, x.Seconds, x.Stopped)
	}
	return []*Table{rows, b}
}

// WriteText writes one table per data set: IL, DBRL and interval
// disclosure per method and k, then the bounds.
func (r *MicroaggTradeoffReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Microaggregation: information loss and disclosure risk vs k (IL = 100*SSE/SST %%; DBRL and interval disclosure (p = %g; sdcMicro's dRisk since 5.6.0) in %% of records)\n", r.IntervalP)
	var names []string
	for _, x := range r.Rows {
		if !slices.Contains(names, x.Data) {
			names = append(names, x.Data)
		}
	}
	for _, name := range names {
		fmt.Fprintf(w, "\n%s\n", name)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "K\tMETHOD\tIL\tDBRL\tINTERVAL\tIL1S\tSECONDS\t")
		for _, x := range r.Rows {
			if x.Data == name {
				fmt.Fprintf(tw, "%d\t%s\t%.4f\t%.2f\t%.2f\t%.4f\t%.3f\t\n", x.K, x.Method, x.IL, 100*x.Linkage, 100*x.Interval, x.IL1s, x.Seconds)
			}
		}
		tw.Flush()
	}
	if len(r.Bounds) > 0 {
		fmt.Fprintf(w, "\nlower bounds on the optimal IL (column generation, %g s per case)\n", r.BoundTime)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "DATA\tK\tBOUND IL\tBEST IL\tGAP %\tBOUND\tSTOPPED\t")
		for _, x := range r.Bounds {
			fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.2f\t%s\t%s\t\n", x.Data, x.K, x.LowerBoundIL, x.BestIL, colgen.GapPercent(x.BestIL, x.LowerBoundIL), x.BoundKind, x.Stopped)
		}
		tw.Flush()
	}
	_, err := fmt.Fprintln(w, "\nevery clustering checked (groups of at least k, SSE recomputed); every bound at or below every method's SSE")
	return err
}

// Figures draws per data set: IL against k per method with the band
// between the proven lower bound (the largest proven at any k' ≤ k) and
// the best IL found (where the bound was run: the optimum lies inside
// it), and the risk-utility planes, IL
// against the DBRL risk and against the interval disclosure risk, one
// line per method through its k values (the lowest risk at the largest
// k).
func (r *MicroaggTradeoffReport) Figures() ([]*Figure, error) {
	var names, methods []string
	for _, x := range r.Rows {
		if !slices.Contains(names, x.Data) {
			names = append(names, x.Data)
		}
		if !slices.Contains(methods, x.Method) {
			methods = append(methods, x.Method)
		}
	}
	var figs []*Figure
	for _, name := range names {
		p := newPlot(fmt.Sprintf("Microaggregation of %s: information loss vs k", name), "k", "IL (%)")
		// A clustering with groups of at least k has groups of at least
		// k' ≤ k, so the optimal IL grows with k and a bound proven at k'
		// holds at every larger k: the band's lower edge is the running
		// maximum of the bounds in k.
		var bs []MicroaggTradeoffBound
		for _, b := range r.Bounds {
			if b.Data == name {
				bs = append(bs, b)
			}
		}
		slices.SortFunc(bs, func(a, b MicroaggTradeoffBound) int { return a.K - b.K })
		var bandLo, bandHi plotter.XYs
		run := math.Inf(-1)
		for _, b := range bs {
			run = max(run, b.LowerBoundIL)
			bandLo = append(bandLo, plotter.XY{X: float64(b.K), Y: run})
			bandHi = append(bandHi, plotter.XY{X: float64(b.K), Y: b.BestIL})
		}
		if len(bandLo) > 0 {
			if err := addBand(p, "the optimum lies in here", bandLo, bandHi, figGrey); err != nil {
				return nil, err
			}
			lbl := fmt.Sprintf("lower bound (colgen, %g s per k)", r.BoundTime)
			if err := addSeries(p, series{label: lbl, xy: bandLo, color: figGrey, dash: dotted, shape: draw.PlusGlyph{}, radius: 6}); err != nil {
				return nil, err
			}
		}
		planes := []struct {
			file, axis string
			risk       func(MicroaggTradeoffRow) float64
			plot       *plot.Plot
		}{
			{"microagg-risk-dbrl-", "distance-based record linkage (% of records linked correctly)", func(x MicroaggTradeoffRow) float64 { return 100 * x.Linkage }, nil},
			{"microagg-risk-interval-", fmt.Sprintf("interval disclosure, p = %g (%% of records)", r.IntervalP), func(x MicroaggTradeoffRow) float64 { return 100 * x.Interval }, nil},
		}
		for i := range planes {
			planes[i].plot = newPlot(fmt.Sprintf("%s: information loss vs disclosure risk (points: k)", name), planes[i].axis, "IL (%)")
		}
		// IL spanning more than a factor of 10 (EIA: 0.2 % for ICSM at k
		// = 2, 24 % for the projection at k = 10) goes on a log axis.
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range r.Rows {
			if x.Data == name {
				lo, hi = min(lo, x.IL), max(hi, x.IL)
			}
		}
		if lo > 0 && hi > 10*lo {
			setLog(&p.Y)
			for _, pl := range planes {
				setLog(&pl.plot.Y)
			}
		}
		for i, m := range methods {
			var byK plotter.XYs
			byRisk := make([]plotter.XYs, len(planes))
			for _, x := range r.Rows {
				if x.Data != name || x.Method != m {
					continue
				}
				byK = append(byK, plotter.XY{X: float64(x.K), Y: x.IL})
				for j, pl := range planes {
					byRisk[j] = append(byRisk[j], plotter.XY{X: pl.risk(x), Y: x.IL})
				}
			}
			s := series{label: m, color: figColor(i), shape: figShape(i)}
			s.xy = byK
			if err := addSeries(p, s); err != nil {
				return nil, err
			}
			for j, pl := range planes {
				s.xy = byRisk[j]
				if err := addSeries(pl.plot, s); err != nil {
					return nil, err
				}
				if i == 0 { // the first method's points say their k
					var ks []string
					for _, v := range byK {
						ks = append(ks, fmt.Sprintf("k=%g", v.X))
					}
					if err := addPointLabels(pl.plot, s.xy, ks); err != nil {
						return nil, err
					}
				}
			}
		}
		figs = append(figs, newFigure("microagg-il-k-"+name, p))
		for _, pl := range planes {
			// A risk that is 0 for every method and k (interval disclosure
			// with many attributes) draws nothing worth a figure.
			if slices.ContainsFunc(r.Rows, func(x MicroaggTradeoffRow) bool { return x.Data == name && pl.risk(x) > 0 }) {
				figs = append(figs, newFigure(pl.file+name, pl.plot))
			}
		}
	}
	return figs, nil
}
