package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// The column-generation demo: a random subset of the demo's synthetic
// data, small enough for a proven optimum in about a second.
const (
	demoColgenN    = 60
	demoColgenSeed = 1
	demoColgenK    = 3
)

// runColgenDemo runs the column generation with the default engines and
// prints every heuristic's SSE against the proven bound.
func runColgenDemo(w io.Writer) error {
	raw, err := datasets.Synthetic(demoMicroaggData, demoMicroaggSeed)
	if err != nil {
		return err
	}
	sub, _, err := datasets.Subset(raw, datasets.SubsetRandom, demoColgenN, demoColgenSeed)
	if err != nil {
		return err
	}
	z, _ := model.Standardize(sub)
	fmt.Fprintf(w, "\n== sdcopt demo: column generation (Gentile, Spagnolo-Arrizabalaga & Castro) on %d random records of synthetic:%s:%d, k = %d\n",
		demoColgenN, demoMicroaggData, demoMicroaggSeed, demoColgenK)
	// The paper's scheme (no ICSM start): "pi*" below is its output.
	r, err := colgen.Run(z, demoColgenK, &colgen.Options{NoICSM: true, CEColumns: 1})
	if err != nil {
		return fmt.Errorf("demo colgen: %w", err)
	}
	if err := r.Check(z, demoColgenK); err != nil {
		return fmt.Errorf("demo colgen: %w", err)
	}
	sst := model.SST(z)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CLUSTERING\tSSE\tIL (%)\tGAP TO LP BOUND (%)")
	row := func(name string, sse float64) {
		if math.IsInf(sse, 0) {
			fmt.Fprintf(tw, "%s\t-\t-\t-\n", name)
			return
		}
		fmt.Fprintf(tw, "%s\t%.6g\t%.4f\t%.2f\n", name, sse, 100*sse/sst, colgen.GapPercent(sse, r.LPBound))
	}
	row("mdav", r.MDAV)
	row("vmdav", r.VMDAV)
	row("srh (best rounding)", r.SRH)
	row("msth (best rounding)", r.MSTH)
	row("pi* (the paper's output)", r.HeuristicSSE)
	row("returned (after the gap-closing stage)", r.SSE)
	tw.Flush()
	fmt.Fprintf(w, "LP bound %.6g after %d master solves (%d columns, master %s); proven lower bound %.6g; gap %.4f %%; optimal: %v; %.2fs\n",
		r.LPBound, r.Iterations, r.Columns, r.LPSolver, r.LowerBound, r.GapPercent, r.Exact, r.Seconds)
	pub, err := microagg.Publish(sub, r.Clustering, nil)
	if err != nil {
		return fmt.Errorf("demo colgen: %w", err)
	}
	fmt.Fprintf(w, "risk of the returned clustering: IL1s %.4f, %s\n", pub.Risk.IL1s, numericRiskSummary(newNumericRisk(pub.Risk)))
	return nil
}
