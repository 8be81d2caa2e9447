package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one figure of a report, drawn with gonum.org/v1/plot.
type Figure struct {
	// Name is the file name without extension ("colgen-gap-census").
	Name string
	Plot *plot.Plot
}

// Figure size.
const (
	figureWidth  = 16 * vg.Centimeter
	figureHeight = 10 * vg.Centimeter
)

// FigureFormats are the file formats SaveFigures writes.
var FigureFormats = []string{"svg", "png"}

// Write draws the figure in format ("svg" or "png") to w.
func (f *Figure) Write(w io.Writer, format string) error {
	wt, err := f.Plot.WriterTo(figureWidth, figureHeight, format)
	if err != nil {
		return fmt.Errorf("bench: figure %s: %w", f.Name, err)
	}
	_, err = wt.WriteTo(w)
	return err
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

// newPlot returns a plot with a title, axis labels and the legend at the
// top left.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(7)
	p.Add(plotter.NewGrid())
	return p
}

// roomForLegend raises the top of a linear y axis so that the legend
// (entries lines at the top left) does not cover the data.
func roomForLegend(p *plot.Plot, entries int) {
	lo, hi := p.Y.Min, p.Y.Max
	if hi <= lo {
		return
	}
	// Each legend line takes about 4 % of the plot's height.
	frac := min(0.04*float64(entries)+0.04, 0.7)
	p.Y.Max = lo + (hi-lo)/(1-frac)
}

// series is one line of a figure.
type series struct {
	label string
	xy    plotter.XYs
	color color.Color
	dash  []vg.Length
	shape draw.GlyphDrawer
	plain bool // a line without point markers
}

var (
	dashed = []vg.Length{vg.Points(6), vg.Points(3)}
	dotted = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
)

// addSeries draws lines with point markers; points with a NaN coordinate
// are left out.
func addSeries(p *plot.Plot, ss ...series) error {
	for _, s := range ss {
		xy := slices.DeleteFunc(slices.Clone(s.xy), func(v plotter.XY) bool { return math.IsNaN(v.X) || math.IsNaN(v.Y) })
		if len(xy) == 0 {
			continue
		}
		if s.plain {
			line, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			line.Color, line.Dashes = s.color, s.dash
			p.Add(line)
			p.Legend.Add(s.label, line)
			continue
		}
		line, points, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		line.Color, points.Color = s.color, s.color
		line.Dashes = s.dash
		if s.shape != nil {
			points.Shape = s.shape
		}
		p.Add(line, points)
		p.Legend.Add(s.label, line, points)
	}
	return nil
}

// Figures draws the mean gap of π* (the paper's output), of the returned
// clustering and of the published better of MSTH and SRH against n, one
// colour per k (Gentile, Spagnolo-Arrizabalaga & Castro, Tables 3/4).
func (r *ColgenReport) Figures() ([]*Figure, error) {
	p := newPlot(fmt.Sprintf("Column generation, %s subsets: mean gap vs n", r.Data), "n (records)", "gap (%), formula (15)")
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
		c := plotutil.Color(i)
		err := addSeries(p,
			series{label: fmt.Sprintf("k=%d ours, pi* (paper's algorithm)", k), xy: pi, color: c, shape: draw.CircleGlyph{}},
			series{label: fmt.Sprintf("k=%d ours, after gap closing", k), xy: best, color: c, dash: dotted, shape: draw.BoxGlyph{}},
			series{label: fmt.Sprintf("k=%d published, min(MSTH, SRH)", k), xy: pub, color: c, dash: dashed, shape: draw.TriangleGlyph{}},
		)
		if err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	roomForLegend(p, 3*len(ks))
	return []*Figure{{Name: "colgen-gap-" + r.Data, Plot: p}}, nil
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
			series{label: name + ", ours", xy: ours, color: plotutil.Color(i), shape: draw.CircleGlyph{}},
			series{label: name + ", published", xy: pub, color: plotutil.Color(i), dash: dashed, shape: draw.TriangleGlyph{}},
		)
		if err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	roomForLegend(p, 2*len(names))
	return []*Figure{{Name: "mdav-il", Plot: p}}, nil
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
		err := addSeries(p,
			series{label: "MDAV, ours", xy: mdav, color: plotutil.Color(0), shape: draw.CircleGlyph{}},
			series{label: "MDAV, published", xy: pubMDAV, color: plotutil.Color(0), dash: dashed, shape: draw.TriangleGlyph{}},
			series{label: "ICSM from MDAV (Table 2), ours", xy: t2, color: plotutil.Color(1), shape: draw.CircleGlyph{}},
			series{label: "ICSM from MDAV (Table 2), published", xy: pub2, color: plotutil.Color(1), dash: dashed, shape: draw.TriangleGlyph{}},
			series{label: fmt.Sprintf("ICSM, best of %d runs (Table 4), ours", 1+r.Restarts), xy: t4, color: plotutil.Color(2), shape: draw.CircleGlyph{}},
			series{label: "ICSM, best of 1600 runs (Table 4), published", xy: pub4, color: plotutil.Color(2), dash: dashed, shape: draw.TriangleGlyph{}},
			series{label: "LS (Table 4), published", xy: ls, color: plotutil.Color(3), dash: dotted, shape: draw.CrossGlyph{}},
		)
		if err != nil {
			return nil, err
		}
		p.Y.Min = 0
		roomForLegend(p, 7)
		figs = append(figs, &Figure{Name: "icsm-il-" + name, Plot: p})
	}
	return figs, nil
}

// Figures draws the GCP against k per method on Adult (table 1), and the
// mean optimality gap of each heuristic on the MIP samples when there
// are any.
func (r *KanonReport) Figures() ([]*Figure, error) {
	var figs []*Figure
	if len(r.VsK) > 0 {
		p := newPlot(fmt.Sprintf("Freeform k-anonymity on Adult (%d records): GCP vs k", r.N), "k", "GCP")
		for i, m := range r.Heuristics {
			var xy plotter.XYs
			for _, x := range r.VsK {
				if x.Method == m {
					xy = append(xy, plotter.XY{X: float64(x.K), Y: x.GCP})
				}
			}
			if err := addSeries(p, series{label: m, xy: xy, color: plotutil.Color(i), shape: plotutil.Shape(i)}); err != nil {
				return nil, err
			}
		}
		p.Y.Min = 0
		roomForLegend(p, len(r.Heuristics))
		figs = append(figs, &Figure{Name: "kanon-gcp-adult", Plot: p})
	}
	return figs, nil
}

// Figures draws the LP and IP bound widths of every cell of every table,
// cells sorted by IP width (Dobra & Fienberg: the LP bound is an upper
// bound on the integer one and may be fractional).
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
		p := newPlot(fmt.Sprintf("%s: bound width per cell", tb.Table), "cell (sorted by IP width)", "upper - lower")
		for i, s := range []struct {
			label string
			xy    plotter.XYs
			shape draw.GlyphDrawer
		}{{"LP bounds", lp, draw.CircleGlyph{}}, {"integer (IP) bounds", ipw, draw.CrossGlyph{}}} {
			sc, err := plotter.NewScatter(s.xy)
			if err != nil {
				return nil, err
			}
			sc.Color = plotutil.Color(i)
			sc.Shape = s.shape
			p.Add(sc)
			p.Legend.Add(s.label, sc)
		}
		p.Y.Min = 0
		roomForLegend(p, 2)
		figs = append(figs, &Figure{Name: "dobra-widths-" + tb.Table, Plot: p})
	}
	return figs, nil
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
			series{label: "incumbent (IL of the best clustering)", xy: inc, color: plotutil.Color(0), plain: true},
			series{label: fmt.Sprintf("lower bound (final: %s, %.1f s)", x.BoundKind, x.BoundSeconds), xy: lb, color: plotutil.Color(1), plain: true},
		)
		if err != nil {
			return nil, err
		}
		if x.Published != nil {
			pub := plotter.XYs{{X: 0, Y: *x.Published}, {X: end, Y: *x.Published}}
			if err := addSeries(p, series{label: "published ICSM IL (best of 1600 runs)", xy: pub, color: plotutil.Color(2), dash: dashed, plain: true}); err != nil {
				return nil, err
			}
		}
		p.Y.Min = 0
		roomForLegend(p, 3)
		figs = append(figs, &Figure{Name: fmt.Sprintf("microagg-full-%s-k%d", x.Data, x.K), Plot: p})
	}
	return figs, nil
}
