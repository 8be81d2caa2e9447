package bench

import (
	"bytes"
	"encoding/xml"
	"image"
	_ "image/png"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// The figure size in pixels (PNG) and points (SVG): 10 x 5.6 inches at
// figureDPI = 128 dots per inch, 72 points per inch.
const (
	wantPNGWidth  = 1280 // 10 · 128
	wantPNGHeight = 717  // 5.6 · 128 = 716.8, rounded up by vgimg
	wantSVGWidth  = "720pt"
	wantSVGHeight = "403.2pt"
)

// checkFigureFile decodes a written figure and checks its size: a PNG of
// wantPNGWidth x wantPNGHeight pixels or an SVG of wantSVGWidth x
// wantSVGHeight.
func checkFigureFile(t *testing.T, path string, b []byte) {
	t.Helper()
	switch {
	case strings.HasSuffix(path, ".png"):
		cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil || format != "png" {
			t.Errorf("%s: not a PNG: %v (%s)", path, err, format)
			return
		}
		if cfg.Width != wantPNGWidth || cfg.Height != wantPNGHeight {
			t.Errorf("%s: %d x %d pixels, want %d x %d", path, cfg.Width, cfg.Height, wantPNGWidth, wantPNGHeight)
		}
	case strings.HasSuffix(path, ".svg"):
		var doc struct {
			XMLName xml.Name
			Width   string `xml:"width,attr"`
			Height  string `xml:"height,attr"`
		}
		if err := xml.Unmarshal(b, &doc); err != nil || doc.XMLName.Local != "svg" {
			t.Errorf("%s: not an SVG: %v", path, err)
			return
		}
		if doc.Width != wantSVGWidth || doc.Height != wantSVGHeight {
			t.Errorf("%s: %s x %s, want %s x %s", path, doc.Width, doc.Height, wantSVGWidth, wantSVGHeight)
		}
	default:
		t.Errorf("%s: unknown figure format", path)
	}
}

func TestPlainNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {10, "10"}, {100, "100"}, {1000, "1000"}, {5000, "5000"}, {10000, "10k"},
		{250000, "250k"}, {1e6, "1M"}, {1.5e6, "1.5M"}, {0.05, "0.05"}, {0.001, "0.001"},
		{0.1 + 0.2, "0.3"}, {-2.5, "-2.5"}, {12.5, "12.5"},
	} {
		if got := plainNumber(c.v); got != c.want {
			t.Errorf("plainNumber(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestPlainTicks: log axes are labelled at the powers of ten as plain
// numbers (never 1e+03), with the 2s and 5s when fewer than three powers
// of ten fall in the range; linear axes get plain labels at 1-2-5 steps.
func TestPlainTicks(t *testing.T) {
	labels := func(lo, hi float64, log bool) []string {
		var out []string
		for _, tk := range (plainTicks{log: log}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
			if eps := 1e-9 * (hi - lo); tk.Value < lo-eps || tk.Value > hi+eps {
				t.Errorf("[%g, %g]: tick %g outside", lo, hi, tk.Value)
			}
		}
		return out
	}
	for _, c := range []struct {
		lo, hi float64
		log    bool
		want   []string
	}{
		{1, 5000, true, []string{"1", "10", "100", "1000"}},
		{0.01, 200, true, []string{"0.01", "0.1", "1", "10", "100"}},
		{250, 8000, true, []string{"500", "1000", "2000", "5000"}},
		{2, 50, true, []string{"2", "5", "10", "20", "50"}},
		{0.4, 40, true, []string{"0.5", "1", "2", "5", "10", "20"}},
		{5000, 2e6, true, []string{"10k", "100k", "1M"}},
		{0, 3000, false, []string{"0", "1000", "2000", "3000"}},
		{0.9, 7.1, false, []string{"2", "4", "6"}},
		{-0.1, 2.5, false, []string{"0", "0.5", "1", "1.5", "2", "2.5"}},
		{-0.35, 0.35, false, []string{"-0.2", "0", "0.2"}},
		{28, 104, false, []string{"40", "60", "80", "100"}},
	} {
		got := labels(c.lo, c.hi, c.log)
		if !slices.Equal(got, c.want) {
			t.Errorf("[%g, %g] log=%v: labels %q, want %q", c.lo, c.hi, c.log, got, c.want)
		}
	}
}

// TestAxesFollowData: an IL axis spans its data plus axisMargin, not 0
// (a difference of 0.1 at IL 30 must be visible), and a log axis is
// widened by a factor.
func TestAxesFollowData(t *testing.T) {
	p := newPlot("t", "k", "IL (%)")
	if err := addSeries(p, series{label: "a", xy: plotter.XYs{{X: 3, Y: 30.2}, {X: 10, Y: 30.4}}, color: figColor(0)}); err != nil {
		t.Fatal(err)
	}
	setLog(&p.X)
	newFigure("t", p)
	if math.Abs(p.Y.Min-(30.2-axisMargin*0.2)) > 1e-9 || math.Abs(p.Y.Max-(30.4+axisMargin*0.2)) > 1e-9 {
		t.Errorf("y axis [%g, %g], want the data [30.2, 30.4] widened by %g of its span", p.Y.Min, p.Y.Max, axisMargin)
	}
	if f := math.Pow(10.0/3, axisMargin); math.Abs(p.X.Min-3/f) > 1e-9 || math.Abs(p.X.Max-10*f) > 1e-9 {
		t.Errorf("log x axis [%g, %g], want [%g, %g]", p.X.Min, p.X.Max, 3/f, 10*f)
	}
	// Non-negative data are not widened below 0.
	q := newPlot("t", "x", "y")
	addSeries(q, series{xy: plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, color: figColor(0)})
	newFigure("t", q)
	if q.Y.Min != 0 || q.X.Min != 0 {
		t.Errorf("axes start at %g, %g, want 0", q.X.Min, q.Y.Min)
	}
}
