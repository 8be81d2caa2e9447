package bench

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/plotter"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// ScalingOptions configure Scaling; nil means DefaultScalingOptions().
// An empty list skips that method.
type ScalingOptions struct {
	// MDAVNs and ICSMNs are the numbers of records of the seeded
	// Gaussian data sets (D attributes, Clusters clusters) that MDAV and
	// ICSM (ICSMMaxIterations improving rounds) microaggregate at k = 3.
	MDAVNs, ICSMNs    []int
	D, Clusters       int
	ICSMMaxIterations int
	// SortGreedyNs are the numbers of SyntheticQI records SortGreedy
	// k-anonymizes at k = KanonScaleK in partitions of Partition.
	SortGreedyNs []int
	Partition    int
	Seed         uint64
	Progress     Progress
}

// DefaultScalingOptions returns MDAV on 2,000-32,000 records and ICSM (20
// rounds) on 1,000-8,000 records of 10 attributes in 10 clusters, and
// SortGreedy on 10,000-300,000 records in partitions of 500; seed 1.
func DefaultScalingOptions() *ScalingOptions {
	return &ScalingOptions{
		MDAVNs: []int{2000, 4000, 8000, 16000, 32000}, ICSMNs: []int{1000, 2000, 4000, 8000},
		D: 10, Clusters: 10, ICSMMaxIterations: 20,
		SortGreedyNs: []int{10_000, 30_000, 100_000, 300_000}, Partition: 500, Seed: 1,
	}
}

// scalingK is the k of the microaggregation runs.
const scalingK = 3

// ScalingRow is one timed run.
type ScalingRow struct {
	Method  string  `json:"method"`
	N       int     `json:"n"`
	K       int     `json:"k"`
	Quality float64 `json:"quality"` // IL (%) for microaggregation, GCP for k-anonymity
	Measure string  `json:"measure"` // "il" or "gcp"
	Seconds float64 `json:"seconds"`
}

// ScalingFit is the least-squares line log(seconds) = a + b·log(n): b is
// the empirical exponent of the running time.
type ScalingFit struct {
	Method    string  `json:"method"`
	Exponent  float64 `json:"exponent"`
	Intercept float64 `json:"intercept"`
	R2        float64 `json:"r2"`
}

// ScalingReport is the outcome of Scaling.
type ScalingReport struct {
	Method  string       `json:"method"` // "scaling"
	Rows    []ScalingRow `json:"rows"`
	Fits    []ScalingFit `json:"fits"`
	Seed    uint64       `json:"seed"`
	Seconds float64      `json:"seconds"`
}

// Scaling times MDAV, ICSM and SortGreedy against the number of records
// and fits the exponent of each on a log-log scale (gonum/stat).
func Scaling(opt *ScalingOptions) (*ScalingReport, error) {
	if opt == nil {
		opt = DefaultScalingOptions()
	}
	if opt.D < 1 || opt.Clusters < 1 || opt.ICSMMaxIterations < 0 || opt.Partition < KanonScaleK {
		return nil, settingsErr("scaling", "d, clusters >= 1, ICSM rounds >= 0 and a partition >= %d needed", KanonScaleK)
	}
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &ScalingReport{Method: "scaling", Seed: opt.Seed}
	gauss := func(n int) (*model.Dataset, error) {
		raw, err := datasets.Synthetic(fmt.Sprintf("gauss-%d-%d-%d", n, opt.D, opt.Clusters), opt.Seed)
		if err != nil {
			return nil, err
		}
		z, _ := model.Standardize(raw)
		return z, nil
	}
	for _, n := range opt.MDAVNs {
		prog.Printf("scaling: mdav, n = %d", n)
		z, err := gauss(n)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		cl, err := microagg.MDAV(z, scalingK)
		secs := time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("bench scaling: mdav, n = %d: %w", n, err)
		}
		rep.Rows = append(rep.Rows, ScalingRow{Method: "mdav", N: n, K: scalingK, Quality: model.IL(z, cl), Measure: "il", Seconds: secs})
	}
	for _, n := range opt.ICSMNs {
		prog.Printf("scaling: icsm, n = %d", n)
		z, err := gauss(n)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		res, err := microagg.ICSM(z, scalingK, microagg.ICSMOptions{MaxIterations: opt.ICSMMaxIterations})
		secs := time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("bench scaling: icsm, n = %d: %w", n, err)
		}
		if err := res.Check(z, scalingK); err != nil {
			return nil, checkErr("icsm, n = %d: %v", n, err)
		}
		rep.Rows = append(rep.Rows, ScalingRow{Method: "icsm", N: n, K: scalingK, Quality: res.IL, Measure: "il", Seconds: secs})
	}
	for _, n := range opt.SortGreedyNs {
		prog.Printf("scaling: sortgreedy, n = %d", n)
		t, err := datasets.NewSyntheticQI(n, opt.Seed)
		if err != nil {
			return nil, err
		}
		res, err := kanon.Anonymize(t, KanonScaleK, &kanon.Options{Method: kanon.MethodSortGreedy, Partition: opt.Partition, Seed: opt.Seed, SkipRisk: true}) // time only
		if err != nil {
			return nil, fmt.Errorf("bench scaling: sortgreedy, n = %d: %w", n, err)
		}
		if err := kanon.CheckResult(t, KanonScaleK, res); err != nil {
			return nil, checkErr("sortgreedy, n = %d: %v", n, err)
		}
		rep.Rows = append(rep.Rows, ScalingRow{Method: kanon.MethodSortGreedy, N: n, K: KanonScaleK, Quality: res.GCP, Measure: "gcp", Seconds: res.Seconds})
	}
	for _, m := range []string{"mdav", "icsm", kanon.MethodSortGreedy} {
		if f, ok := fitScaling(rep.Rows, m); ok {
			rep.Fits = append(rep.Fits, f)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// fitScaling fits log(seconds) = a + b·log(n) over the rows of a method
// (at least two sizes).
func fitScaling(rows []ScalingRow, method string) (ScalingFit, bool) {
	var x, y []float64
	for _, r := range rows {
		if r.Method == method && r.Seconds > 0 {
			x = append(x, math.Log(float64(r.N)))
			y = append(y, math.Log(r.Seconds))
		}
	}
	if len(x) < 2 {
		return ScalingFit{}, false
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	return ScalingFit{Method: method, Exponent: b, Intercept: a, R2: stat.RSquared(x, y, nil, a, b)}, true
}

// Tables returns the runs and the fits.
func (r *ScalingReport) Tables() []*Table {
	rows := &Table{Name: "runs", Columns: []string{"method", "n", "k", "quality", "measure", "seconds"}}
	for _, x := range r.Rows {
		rows.add(x.Method, x.N, x.K, x.Quality, x.Measure, x.Seconds)
	}
	fits := &Table{Name: "fits", Columns: []string{"method", "exponent", "intercept", "r2"}}
	for _, f := range r.Fits {
		fits.add(f.Method, f.Exponent, f.Intercept, f.R2)
	}
	return []*Table{rows, fits}
}

// WriteText writes the runs and the fitted exponents.
func (r *ScalingReport) WriteText(w io.Writer) error {
	fmt.Fprintln(w, "Time vs number of records (seeded synthetic data; one run each)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tN\tK\tQUALITY\tSECONDS")
	for _, x := range r.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s %.4f\t%.3f\n", x.Method, x.N, x.K, x.Measure, x.Quality, x.Seconds)
	}
	tw.Flush()
	for _, f := range r.Fits {
		fmt.Fprintf(w, "%s: seconds ~ n^%.2f (R² %.3f)\n", f.Method, f.Exponent, f.R2)
	}
	return nil
}

// Figures draws the times on log-log axes with the fitted lines.
func (r *ScalingReport) Figures() ([]*Figure, error) {
	p := newPlot("Time vs number of records", "n (records)", "seconds")
	setLog(&p.X)
	setLog(&p.Y)
	for i, f := range r.Fits {
		var xy, fit plotter.XYs
		for _, x := range r.Rows {
			if x.Method == f.Method {
				xy = append(xy, plotter.XY{X: float64(x.N), Y: x.Seconds})
				fit = append(fit, plotter.XY{X: float64(x.N), Y: math.Exp(f.Intercept + f.Exponent*math.Log(float64(x.N)))})
			}
		}
		c := figColor(i)
		err := addSeries(p,
			series{label: f.Method, xy: xy, color: c, shape: figShape(i), noLine: true},
			series{label: fmt.Sprintf("fit: n^%.2f", f.Exponent), xy: fit, color: c, dash: dashed, plain: true},
		)
		if err != nil {
			return nil, err
		}
	}
	return []*Figure{newFigure("scaling-time", p)}, nil
}
