package bench

import (
	"math"

	"gonum.org/v1/plot/plotter"
)

// TracePoint is one step of a search that keeps an incumbent and a lower
// bound (suppress.Progress): seconds since the start, the incumbent's cost
// (NaN before the first) and the proven lower bound.
type TracePoint struct {
	Seconds, Incumbent, Bound float64
}

// TraceFigure draws the incumbent's cost and the lower bound against time
// (seconds), as steps: each value holds until the next point. The cost
// axis is logarithmic (the first incumbent, every free cell suppressed, is
// often orders of magnitude above the optimum) when every incumbent is
// positive; a bound of 0 is then left out. name is the figure's file name,
// title its title.
func TraceFigure(name, title string, pts []TracePoint) (*Figure, error) {
	p := newPlot(title, "time (s)", "cost")
	logY := len(pts) > 0
	for _, pt := range pts {
		if !(pt.Incumbent > 0) {
			logY = false
		}
	}
	var inc, lb plotter.XYs
	for k, pt := range pts {
		if k > 0 {
			// The step: the previous value up to this time.
			prev := pts[k-1]
			inc = append(inc, plotter.XY{X: pt.Seconds, Y: prev.Incumbent})
			lb = append(lb, plotter.XY{X: pt.Seconds, Y: prev.Bound})
		}
		inc = append(inc, plotter.XY{X: pt.Seconds, Y: pt.Incumbent})
		lb = append(lb, plotter.XY{X: pt.Seconds, Y: pt.Bound})
	}
	if logY {
		setLog(&p.Y)
		for k := range lb {
			if !(lb[k].Y > 0) {
				lb[k].Y = math.NaN()
			}
		}
	}
	if err := addSeries(p,
		series{label: "incumbent (safe pattern)", xy: inc, color: figColor(0), plain: true},
		series{label: "lower bound", xy: lb, color: figColor(1), dash: dashed, plain: true},
	); err != nil {
		return nil, err
	}
	return newFigure(name, p), nil
}
