package bench

import (
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The house style of every figure: size, fonts, colours, markers, axes
// and legend placement live here and nowhere else.

// Figure size and resolution: 10 x 5.6 inches, PNG at 128 dots per inch
// (1280 x 717 pixels: vgimg rounds 716.8 up), SVG in points.
const (
	figureWidth  = 10 * vg.Inch
	figureHeight = 5.6 * vg.Inch
	figureDPI    = 128
)

// Font sizes and strokes, in points.
const (
	titleFontSize  = 16
	labelFontSize  = 14
	tickFontSize   = 12
	legendFontSize = 12
	lineWidth      = vg.Length(2)
	glyphRadius    = vg.Length(4)
	// legendGap separates the data area from the legend column and the
	// legend from the right edge (vg.Length is in points).
	legendGap = vg.Length(12)
	// axisMargin is the share of the data range added on each side of a
	// linear axis (a factor (hi/lo)^axisMargin on a log axis), so that
	// no marker sits on the frame; axes are never forced to start at 0.
	axisMargin = 0.05
)

// figPalette is the Okabe-Ito palette (Okabe & Ito, "Color Universal
// Design", 2008): distinguishable under the common colour-vision
// deficiencies and in greyscale print. Yellow is left out (unreadable on
// white).
var figPalette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// figGrey draws reference lines (diagonals, bounds' edges) and the grid.
var figGrey = color.Gray{Y: 0x80}

// figColor is the i-th colour of the palette (cycling).
func figColor(i int) color.Color { return figPalette[i%len(figPalette)] }

// figShape is the i-th marker: filled shapes first, open ones after.
func figShape(i int) draw.GlyphDrawer {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
		draw.RingGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	return shapes[i%len(shapes)]
}

// Dash patterns: ours solid, published dashed, references dotted.
var (
	dashed = []vg.Length{vg.Points(7), vg.Points(4)}
	dotted = []vg.Length{vg.Points(2), vg.Points(3)}
)

// newPlot returns a plot in the house style: title, axis labels, plain
// number ticks on both axes and a light grid. Its legend is drawn outside
// the data area by Figure.Write.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = titleFontSize
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = labelFontSize
		a.Tick.Label.Font.Size = tickFontSize
		a.Tick.Marker = plainTicks{}
		a.LineStyle.Width = vg.Points(1)
		a.Tick.LineStyle.Width = vg.Points(1)
		a.Padding = vg.Points(4)
	}
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.TextStyle.Font.Size = legendFontSize
	p.Legend.ThumbnailWidth = vg.Points(28)
	p.Legend.Padding = vg.Points(3)
	p.Legend.Top, p.Legend.Left = true, true
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{Y: 0xdd}, color.Gray{Y: 0xdd}
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.75), vg.Points(0.75)
	p.Add(g)
	return p
}

// setLog puts an axis on a log scale with plain number labels (1, 10,
// 100, 1000, 10k, ...).
func setLog(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = plainTicks{log: true}
}

// newFigure finishes a plot (the data range of both axes widened by
// axisMargin, so that axes follow the data and no marker sits on the
// frame) and names it.
func newFigure(name string, p *plot.Plot) *Figure {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		widen(a)
	}
	return &Figure{Name: name, Plot: p}
}

// widen adds axisMargin to an axis's data range (multiplicatively on a
// log axis); a linear range of non-negative data is not widened below 0.
func widen(a *plot.Axis) {
	lo, hi := a.Min, a.Max
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
		return
	}
	if _, log := a.Scale.(plot.LogScale); log {
		if lo <= 0 {
			return
		}
		f := math.Pow(hi/lo, axisMargin)
		if hi == lo {
			f = 1.5
		}
		a.Min, a.Max = lo/f, hi*f
		return
	}
	pad := axisMargin * (hi - lo)
	if pad == 0 { // one value: a tenth of it either side (0.5 around 0)
		pad = 0.1 * math.Abs(hi)
		if pad == 0 {
			pad = 0.5
		}
	}
	a.Min, a.Max = lo-pad, hi+pad
	if lo >= 0 && a.Min < 0 {
		a.Min = 0
	}
}

// drawFigure draws p on c with its title across the whole width and its
// legend in a column to the right of the data area.
func drawFigure(p *plot.Plot, c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	title := p.Title.Text
	if title != "" {
		sty := p.Title.TextStyle
		descent := sty.FontExtents().Descent
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y + descent}, title)
		c.Max.Y -= sty.Rectangle(title).Size().Y + p.Title.Padding
	}
	leg := p.Legend
	width := leg.Rectangle(c).Size().X
	saved := p.Title.Text
	p.Title.Text = ""
	p.Legend = plot.NewLegend() // empty: drawn outside below
	defer func() { p.Title.Text, p.Legend = saved, leg }()
	if width == 0 {
		p.Draw(c)
		return
	}
	width += 2 * legendGap // a gap on either side of the legend
	p.Draw(draw.Crop(c, 0, -width, 0, 0))
	leg.Top, leg.Left = true, true
	leg.Draw(draw.Crop(c, c.Size().X-width+legendGap, -legendGap, 0, 0))
}

// plainTicks places ticks at steps of 1, 2 or 5 times a power of ten
// (linear: about five labelled ticks, minor ticks between) or at the
// powers of ten (log), and labels them as plain numbers (plainNumber),
// never "1e+03". On a log axis holding fewer than three powers of ten the
// 2s and 5s are labelled too.
type plainTicks struct{ log bool }

func (t plainTicks) Ticks(lo, hi float64) []plot.Tick {
	if !t.log {
		return linearTicks(lo, hi)
	}
	var ticks []plot.Tick
	majors := 0
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := base * float64(m)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			ticks = append(ticks, plot.Tick{Value: v})
			if m == 1 {
				majors++
			}
		}
	}
	for i := range ticks {
		m := mantissa(ticks[i].Value)
		if m == 1 || (majors < 3 && (m == 2 || m == 5)) {
			ticks[i].Label = plainNumber(ticks[i].Value)
		}
	}
	return ticks
}

// linearTicks are labelled ticks every step in [lo, hi], step the
// largest of 1, 2, 5 times a power of ten giving at least 3 steps, and
// unlabelled ones every step/5 (step/4 for a step of 2·10^e).
func linearTicks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: plainNumber(lo)}}
	}
	span := hi - lo
	e := math.Pow(10, math.Floor(math.Log10(span/6)))
	step, minors := e, 5
	for _, m := range []struct {
		mult   float64
		minors int
	}{{2, 4}, {5, 5}, {10, 5}} {
		if span/(m.mult*e) >= 3 {
			step, minors = m.mult*e, m.minors
		}
	}
	var ticks []plot.Tick
	minor := step / float64(minors)
	for i := math.Ceil(lo/minor - 1e-9); i*minor <= hi+1e-9*span; i++ {
		v := i * minor
		tk := plot.Tick{Value: v}
		if r := math.Mod(math.Abs(i), float64(minors)); r == 0 {
			tk.Label = plainNumber(v)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// mantissa is the leading digit of v > 0 (2 for 200, 5 for 0.05).
func mantissa(v float64) int {
	return int(math.Round(v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))))
}

// plainNumber writes a tick value as a reader writes it: 0.05, 2, 1000;
// from 10,000 on with k or M (10k, 250k, 1.5M). Rounding noise of the
// tick arithmetic (0.30000000000000004) is dropped (10 significant
// digits).
func plainNumber(v float64) string {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 10, 64), 64)
	if v == 0 {
		return "0" // also -0
	}
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// series is one line of a figure.
type series struct {
	label string
	xy    plotter.XYs
	color color.Color
	dash  []vg.Length
	shape draw.GlyphDrawer
	plain bool // a line without point markers
	// noLine draws the markers only (a scatter).
	noLine bool
	// radius overrides glyphRadius.
	radius vg.Length
}

// addSeries draws lines with point markers in the house style, in the
// order given (later series on top); points with a NaN coordinate are
// left out.
func addSeries(p *plot.Plot, ss ...series) error {
	for _, s := range ss {
		xy := slices.DeleteFunc(slices.Clone(s.xy), func(v plotter.XY) bool { return math.IsNaN(v.X) || math.IsNaN(v.Y) })
		if len(xy) == 0 {
			continue
		}
		var thumbs []plot.Thumbnailer
		if !s.noLine {
			line, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			line.Color, line.Dashes, line.Width = s.color, s.dash, lineWidth
			p.Add(line)
			thumbs = append(thumbs, line)
		}
		if !s.plain {
			points, err := plotter.NewScatter(xy)
			if err != nil {
				return err
			}
			points.Color, points.Radius = s.color, glyphRadius
			if s.radius > 0 {
				points.Radius = s.radius
			}
			if s.shape != nil {
				points.Shape = s.shape
			}
			p.Add(points)
			thumbs = append(thumbs, points)
		}
		if s.label != "" {
			p.Legend.Add(s.label, thumbs...)
		}
	}
	return nil
}

// addBand shades the region between lo and hi (the same x values, in
// order) in a light tint of c; the band's legend entry is label.
func addBand(p *plot.Plot, label string, lo, hi plotter.XYs, c color.Color) error {
	if len(lo) == 0 || len(lo) != len(hi) {
		return nil
	}
	var poly plotter.XYs
	poly = append(poly, lo...)
	for i := len(hi) - 1; i >= 0; i-- {
		poly = append(poly, hi[i])
	}
	pg, err := plotter.NewPolygon(poly)
	if err != nil {
		return err
	}
	r, g, b, _ := c.RGBA()
	pg.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x40}
	pg.LineStyle.Width = 0
	p.Add(pg)
	if label != "" {
		p.Legend.Add(label, pg)
	}
	return nil
}

// addDiagonal draws y = x over [lo, hi] as a grey dotted line.
func addDiagonal(p *plot.Plot, label string, lo, hi float64) error {
	return addSeries(p, series{label: label, xy: plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}, color: figGrey, dash: dotted, plain: true})
}

// addPointLabels writes text beside points (in the tick font, up and to
// the right of the marker).
func addPointLabels(p *plot.Plot, xy plotter.XYs, text []string) error {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: text})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = tickFontSize
	}
	l.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(4)}
	p.Add(l)
	return nil
}
