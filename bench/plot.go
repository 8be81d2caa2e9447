package bench

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/sdcopt/sdcopt/kanon"
)

// Figure is one figure of a report, drawn with gonum.org/v1/plot in the
// house style of figstyle.go.
type Figure struct {
	// Name is the file name without extension ("colgen-gap-census").
	Name string
	Plot *plot.Plot
}

// FigureFormats are the file formats SaveFigures writes.
var FigureFormats = []string{"svg", "png"}

// Write draws the figure in format ("svg" or "png") to w: the plot on the
// left, its legend (if any) in a column on the right, outside the data.
func (f *Figure) Write(w io.Writer, format string) error {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(figureWidth, figureHeight), vgimg.UseDPI(figureDPI))}
	case "svg":
		c = vgsvg.New(figureWidth, figureHeight)
	default:
		return fmt.Errorf("bench: figure %s: unknown format %q", f.Name, format)
	}
	drawFigure(f.Plot, draw.New(c))
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("bench: figure %s: %w", f.Name, err)
	}
	return nil
}

// SaveFigures writes every figure as NAME.svg and NAME.png in dir
// (created when missing), each through a temporary file and a rename, and
// returns the paths written.
func SaveFigures(figs []*Figure, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range figs {
		for _, ext := range FigureFormats {
			path := filepath.Join(dir, f.Name+"."+ext)
			if err := saveFigure(f, path, ext); err != nil {
				return paths, err
			}
			paths = append(paths, path)
		}
	}
	return paths, nil
}

func saveFigure(f *Figure, path, format string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	err = f.Write(tmp, format)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Figures draws the mean gap of π* (the paper's output), of the returned
// clustering and of the published better of MSTH and SRH against n, one
// colour per k (Gentile, Spagnolo-Arrizabalaga & Castro, Tables 3/4).
func (r *ColgenReport) Figures() ([]*Figure, error) {
	p := newPlot(fmt.Sprintf("Column generation on %s subsets: mean gap vs n", r.Data), "n (records)", "gap (%), formula (15)")
	byK := map[int][]ColgenSummary{}
	var ks []int
	for _, s := range r.Summary() {
		if _, ok := byK[s.K]; !ok {
			ks = append(ks, s.K)
		}
		byK[s.K] = append(byK[s.K], s)
	}
	for i, k := range ks {
		var pi, best, pub plotter.XYs
		for _, s := range byK[k] {
			pi = append(pi, plotter.XY{X: float64(s.N), Y: s.PiStar})
			best = append(best, plotter.XY{X: float64(s.N), Y: s.Best})
			pub = append(pub, plotter.XY{X: float64(s.N), Y: s.PublishedBest})
		}
		c := figColor(i)
		err := addSeries(p,
			series{label: fmt.Sprintf("k=%d published min(MSTH, SRH)", k), xy: pub, color: c, dash: dashed, shape: draw.TriangleGlyph{}},
			series{label: fmt.Sprintf("k=%d ours, π* (paper's algorithm)", k), xy: pi, color: c, shape: draw.CircleGlyph{}},
			series{label: fmt.Sprintf("k=%d ours, after gap closing", k), xy: best, color: c, dash: dotted, shape: draw.BoxGlyph{}},
		)
		if err != nil {
			return nil, err
		}
	}
	return []*Figure{newFigure("colgen-gap-"+r.Data, p)}, nil
}

// Figures draws the IL of MDAV against k, one line per data set, ours
// beside the published IL_MDAV of Mortazavi & Jalili, Table 2 (k = 4 is
// not published: the dashed line skips it).
func (r *MDAVReport) Figures() ([]*Figure, error) {
	var names []string
	for _, x := range r.Rows {
		if !slices.Contains(names, x.Data) {
			names = append(names, x.Data)
		}
	}
	p := newPlot("MDAV: information loss vs k", "k", "IL (%)")
	setLog(&p.Y) // EIA's IL is a tenth of Census's and a hundredth of Tarragona's
	for i, name := range names {
		var ours, pub plotter.XYs
		for _, x := range r.Rows {
			if x.Data != name {
				continue
			}
			k := float64(x.K)
			ours = append(ours, plotter.XY{X: k, Y: x.IL})
			if x.Published != nil {
				pub = append(pub, plotter.XY{X: k, Y: *x.Published})
			}
		}
		err := addSeries(p,
			series{label: name + ", published", xy: pub, color: figColor(i), dash: dashed, shape: draw.RingGlyph{}, radius: 6},
			series{label: name + ", ours", xy: ours, color: figColor(i), shape: draw.CircleGlyph{}},
		)
		if err != nil {
			return nil, err
		}
	}
	return []*Figure{newFigure("mdav-il", p)}, nil
}

// Figures draws, per CASC data set, the IL against k: MDAV, one ICSM run
// (Table 2) and the best over restarts (Table 4), ours beside the
// published values of Mortazavi & Jalili.
func (r *ICSMReport) Figures() ([]*Figure, error) {
	var figs []*Figure
	var names []string
	for _, x := range r.Table2 {
		if !slices.Contains(names, x.Data) && x.MaxIterations == 0 && x.Sets == 1 {
			names = append(names, x.Data)
		}
	}
	for _, x := range r.Table4 {
		if !slices.Contains(names, x.Data) {
			names = append(names, x.Data)
		}
	}
	for _, name := range names {
		var mdav, pubMDAV, t2, pub2, t4, pub4, ls plotter.XYs
		for _, x := range r.Table2 {
			if x.Data != name || x.MaxIterations != 0 {
				continue
			}
			k := float64(x.K)
			mdav = append(mdav, plotter.XY{X: k, Y: x.ILMDAV})
			pubMDAV = append(pubMDAV, plotter.XY{X: k, Y: x.PublishedMDAV})
			t2 = append(t2, plotter.XY{X: k, Y: x.IL})
			pub2 = append(pub2, plotter.XY{X: k, Y: x.Published})
		}
		for _, x := range r.Table4 {
			if x.Data != name {
				continue
			}
			k := float64(x.K)
			t4 = append(t4, plotter.XY{X: k, Y: x.IL})
			pub4 = append(pub4, plotter.XY{X: k, Y: x.Published})
			ls = append(ls, plotter.XY{X: k, Y: x.PublishedLS})
		}
		p := newPlot(fmt.Sprintf("ICSM on %s: information loss vs k", name), "k", "IL (%)")
		// Published values first (open markers, dashed), ours on top.
		err := addSeries(p,
			series{label: "MDAV, published", xy: pubMDAV, color: figColor(0), dash: dashed, shape: draw.RingGlyph{}, radius: 6},
			series{label: "ICSM from MDAV (T2), published", xy: pub2, color: figColor(1), dash: dashed, shape: draw.RingGlyph{}, radius: 6},
			series{label: "ICSM, best of 1600 runs (T4), published", xy: pub4, color: figColor(2), dash: dashed, shape: draw.RingGlyph{}, radius: 6},
			series{label: "LS (T4), published", xy: ls, color: figColor(3), dash: dotted, shape: draw.CrossGlyph{}, radius: 6},
			series{label: "MDAV, ours", xy: mdav, color: figColor(0), shape: draw.CircleGlyph{}},
			series{label: "ICSM from MDAV (T2), ours", xy: t2, color: figColor(1), shape: draw.CircleGlyph{}},
			series{label: fmt.Sprintf("ICSM, best of %d runs (T4), ours", 1+r.Restarts), xy: t4, color: figColor(2), shape: draw.CircleGlyph{}},
		)
		if err != nil {
			return nil, err
		}
		figs = append(figs, newFigure("icsm-il-"+name, p))
	}
	return figs, nil
}

// Figures draws the LP and IP bound widths of every cell of every table,
// cells sorted by IP width, and every cell's LP bounds against its IP
// bounds with the diagonal (Dobra & Fienberg: the LP bounds enclose the
// integer ones and may be fractional).
func (r *DobraReport) Figures() ([]*Figure, error) {
	var figs []*Figure
	for _, tb := range r.Results {
		cells := slices.Clone(tb.Cells)
		sort.SliceStable(cells, func(i, j int) bool {
			return cells[i].IPUpper-cells[i].IPLower < cells[j].IPUpper-cells[j].IPLower
		})
		var lp, ipw plotter.XYs
		for i, c := range cells {
			lp = append(lp, plotter.XY{X: float64(i + 1), Y: c.LPUpper - c.LPLower})
			ipw = append(ipw, plotter.XY{X: float64(i + 1), Y: c.IPUpper - c.IPLower})
		}
		p := newPlot(fmt.Sprintf("%s: bound width per cell", tb.Table), "cell (sorted by IP width)", "upper − lower")
		// LP as large open rings under small filled IP dots: where they
		// agree the dot sits inside the ring, where LP is wider the ring
		// stands above the dot.
		err := addSeries(p,
			series{label: "LP bounds", xy: lp, color: figColor(1), shape: draw.RingGlyph{}, radius: 7, noLine: true},
			series{label: "integer (IP) bounds", xy: ipw, color: figColor(0), shape: draw.CircleGlyph{}, radius: 3.5, noLine: true},
		)
		if err != nil {
			return nil, err
		}
		figs = append(figs, newFigure("dobra-widths-"+tb.Table, p))

		var up, lo plotter.XYs
		hi := 0.0
		for _, c := range tb.Cells {
			up = append(up, plotter.XY{X: c.IPUpper, Y: c.LPUpper})
			lo = append(lo, plotter.XY{X: c.IPLower, Y: c.LPLower})
			hi = max(hi, c.IPUpper, c.LPUpper)
		}
		q := newPlot(fmt.Sprintf("%s: LP vs integer bounds per cell", tb.Table), "integer (IP) bound", "LP bound")
		if err := addDiagonal(q, "LP = IP", 0, hi); err != nil {
			return nil, err
		}
		err = addSeries(q,
			series{label: fmt.Sprintf("upper bounds (LP ≥ IP), %d cells", len(up)), xy: up, color: figColor(1), shape: draw.PyramidGlyph{}, radius: 5, noLine: true},
			series{label: fmt.Sprintf("lower bounds (LP ≤ IP), %d cells", len(lo)), xy: lo, color: figColor(0), shape: draw.BoxGlyph{}, radius: 4, noLine: true},
		)
		if err != nil {
			return nil, err
		}
		figs = append(figs, newFigure("dobra-lp-ip-"+tb.Table, q))
	}
	return figs, nil
}

// Figures draws, on Adult: GCP against k per method (table 1), the
// risk-utility plane of the same runs (GCP against the linkage attack's
// success, see KanonKRow), and with table 4 GCP against the partition
// size and against the time.
func (r *KanonReport) Figures() ([]*Figure, error) {
	var figs []*Figure
	shapeOf := func(m string) (int, draw.GlyphDrawer) {
		i := slices.Index(r.Heuristics, m)
		return i, figShape(i)
	}
	if len(r.VsK) > 0 {
		p := newPlot(fmt.Sprintf("Freeform k-anonymity on Adult (%d records): GCP vs k", r.N), "k", "GCP")
		setLog(&p.X)
		q := newPlot("Adult: information loss vs disclosure risk (points: k)", "linkage attack success, mean over records (%)", "GCP")
		setLog(&q.X)
		for _, m := range r.Heuristics {
			var xy, risk plotter.XYs
			for _, x := range r.VsK {
				if x.Method == m {
					xy = append(xy, plotter.XY{X: float64(x.K), Y: x.GCP})
					if x.Linkage > 0 {
						risk = append(risk, plotter.XY{X: 100 * x.Linkage, Y: x.GCP})
					}
				}
			}
			i, sh := shapeOf(m)
			if err := addSeries(p, series{label: m, xy: xy, color: figColor(i), shape: sh}); err != nil {
				return nil, err
			}
			if err := addSeries(q, series{label: m, xy: risk, color: figColor(i), shape: sh}); err != nil {
				return nil, err
			}
			if i == 0 { // the first method's points say their k
				var ks []string
				for _, x := range r.VsK {
					if x.Method == m && x.Linkage > 0 {
						ks = append(ks, fmt.Sprintf("k=%d", x.K))
					}
				}
				if err := addPointLabels(q, risk, ks); err != nil {
					return nil, err
				}
			}
		}
		figs = append(figs, newFigure("kanon-gcp-adult", p))
		if hasRisk(r.VsK) {
			figs = append(figs, newFigure("kanon-risk-adult", q))
		}
	}
	if len(r.Sweep) > 0 {
		k := r.Sweep[0].K
		p := newPlot(fmt.Sprintf("Adult, k = %d: GCP vs partition size", k), "records per partition", "GCP")
		setLog(&p.X)
		q := newPlot(fmt.Sprintf("Adult, k = %d: GCP vs time (points: records per partition)", k), "seconds", "GCP")
		setLog(&q.X)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range r.Sweep {
			if x.Method != kanon.MethodMondrian {
				lo, hi = min(lo, float64(x.Partition)), max(hi, float64(x.Partition))
			}
		}
		for _, m := range r.Heuristics {
			var byPart, byTime plotter.XYs
			for _, x := range r.Sweep {
				if x.Method == m {
					byPart = append(byPart, plotter.XY{X: float64(x.Partition), Y: x.GCP})
					byTime = append(byTime, plotter.XY{X: max(x.Seconds, minSeconds), Y: x.GCP})
				}
			}
			if len(byTime) == 0 {
				continue
			}
			i, sh := shapeOf(m)
			if m == kanon.MethodMondrian {
				// No partitions: a horizontal reference line.
				byPart = plotter.XYs{{X: lo, Y: byTime[0].Y}, {X: hi, Y: byTime[0].Y}}
				if err := addSeries(p, series{label: m + " (no partitions)", xy: byPart, color: figColor(i), dash: dashed, plain: true}); err != nil {
					return nil, err
				}
			} else if err := addSeries(p, series{label: m, xy: byPart, color: figColor(i), shape: sh}); err != nil {
				return nil, err
			}
			if err := addSeries(q, series{label: m, xy: byTime, color: figColor(i), shape: sh}); err != nil {
				return nil, err
			}
			if m == kanon.MethodHungarian { // one method's points say their partition size
				var sizes []string
				for _, x := range r.Sweep {
					if x.Method == m {
						sizes = append(sizes, fmt.Sprint(x.Partition))
					}
				}
				if err := addPointLabels(q, byTime, sizes); err != nil {
					return nil, err
				}
			}
		}
		figs = append(figs, newFigure("kanon-gcp-partition-adult", p), newFigure("kanon-gcp-time-adult", q))
	}
	return figs, nil
}

// minSeconds is the smallest time drawn on a log time axis (runs faster
// than a millisecond are drawn at 1 ms).
const minSeconds = 1e-3

// hasRisk reports whether the rows carry a measured risk.
func hasRisk(rows []KanonKRow) bool {
	return slices.ContainsFunc(rows, func(x KanonKRow) bool { return x.Linkage > 0 })
}

// Figures draws, per case, the best lower bound and the incumbent over
// time as IL (colgen.Result.Trace): both are step functions, held from
// one improvement to the next and to the end of the run.
func (r *MicroaggFullReport) Figures() ([]*Figure, error) {
	var figs []*Figure
	for _, x := range r.Rows {
		if len(x.Trace) == 0 {
			continue
		}
		var lb, inc plotter.XYs
		for i, p := range x.Trace {
			if i > 0 {
				prev := x.Trace[i-1]
				lb = append(lb, plotter.XY{X: p.Seconds, Y: prev.LowerBoundIL})
				inc = append(inc, plotter.XY{X: p.Seconds, Y: prev.IL})
			}
			lb = append(lb, plotter.XY{X: p.Seconds, Y: p.LowerBoundIL})
			inc = append(inc, plotter.XY{X: p.Seconds, Y: p.IL})
		}
		last := x.Trace[len(x.Trace)-1]
		end := max(x.Seconds, last.Seconds)
		lb = append(lb, plotter.XY{X: end, Y: last.LowerBoundIL})
		inc = append(inc, plotter.XY{X: end, Y: last.IL})
		p := newPlot(fmt.Sprintf("Column generation on %s, k = %d: bound and incumbent over time", x.Data, x.K), "time (s)", "IL (%)")
		err := addSeries(p,
			series{label: "incumbent (IL of the best clustering)", xy: inc, color: figColor(0), plain: true},
			series{label: fmt.Sprintf("lower bound (final: %s, %.1f s)", x.BoundKind, x.BoundSeconds), xy: lb, color: figColor(1), plain: true},
		)
		if err != nil {
			return nil, err
		}
		if x.Published != nil {
			pub := plotter.XYs{{X: 0, Y: *x.Published}, {X: end, Y: *x.Published}}
			if err := addSeries(p, series{label: "published ICSM IL (best of 1600 runs)", xy: pub, color: figColor(2), dash: dashed, plain: true}); err != nil {
				return nil, err
			}
		}
		figs = append(figs, newFigure(fmt.Sprintf("microagg-full-%s-k%d", x.Data, x.K), p))
	}
	return figs, nil
}
