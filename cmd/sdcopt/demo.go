package main

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"slices"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers/mps"
)

//go:embed demodata/*.mps
var demoModels embed.FS

func newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run the main job on embedded and generated data: engines, microaggregation, column generation, cell bounds, k-anonymity",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runDemo(c.OutOrStdout())
		},
	}
}

func runDemo(w io.Writer) error {
	fmt.Fprintln(w, "== sdcopt demo: engines")
	if err := printSolvers(w, "text"); err != nil {
		return err
	}
	entries, err := demoModels.ReadDir("demodata")
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		data, err := demoModels.ReadFile("demodata/" + e.Name())
		if err != nil {
			return err
		}
		p, err := mps.Read(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("embedded model %s: %w", e.Name(), err)
		}
		fmt.Fprintf(w, "\n== sdcopt demo: %s through every engine\n", e.Name())
		ef := engineFlags{solver: "all"}
		ss, err := ef.engines(p, true)
		if err != nil {
			return err
		}
		var runs []solveRun
		for _, s := range ss {
			r, err := s.Solve(p, nil)
			if err != nil {
				return err
			}
			runs = append(runs, solveRun{s.Name(), s.Version(), r})
		}
		if err := writeSolveText(w, e.Name(), p, runs, true); err != nil {
			return err
		}
		if err := solveExit(runs); err != nil {
			return err
		}
	}
	if err := runMicroaggDemo(w); err != nil {
		return err
	}
	if err := runColgenDemo(w); err != nil {
		return err
	}
	if err := runBoundsDemo(w); err != nil {
		return err
	}
	if err := runCertifiedDemo(w); err != nil {
		return err
	}
	if err := runTableDemo(w); err != nil {
		return err
	}
	if err := runAuditDemo(w); err != nil {
		return err
	}
	if err := runServeDemo(w); err != nil {
		return err
	}
	return runKanonDemo(w)
}

// Demo microaggregation data: the Synthetic set of Mortazavi & Jalili
// (Section 5.1), generated, so the demo needs no files.
const (
	demoMicroaggData = "synthetic"
	demoMicroaggSeed = 1
	demoMicroaggK    = 3
	demoICSMRounds   = 20
)

// runMicroaggDemo runs every microaggregation method on generated data.
func runMicroaggDemo(w io.Writer) error {
	raw, err := datasets.Synthetic(demoMicroaggData, demoMicroaggSeed)
	if err != nil {
		return err
	}
	z, _ := model.Standardize(raw)
	fmt.Fprintf(w, "\n== sdcopt demo: microaggregation of synthetic:%s:%d (%d records x %d attributes), k = %d\n",
		demoMicroaggData, demoMicroaggSeed, raw.N, raw.D, demoMicroaggK)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tGROUPS\tSIZES\tIL (%)\tSECONDS\tIL1s\tRISK")
	for _, m := range microagg.Methods() {
		data, orig, label := z, raw, m
		if m == microagg.MethodUnivariate {
			// The optimal univariate method takes one attribute.
			if data, _, err = datasets.SelectColumns(z, z.Names[:1]); err != nil {
				return err
			}
			if orig, _, err = datasets.SelectColumns(raw, raw.Names[:1]); err != nil {
				return err
			}
			label = m + " (" + z.Names[0] + " only)"
		}
		opt := microagg.Options{}
		if m == microagg.MethodICSM {
			// The paper's short setting for this data set (Table 2,
			// Synthetic, MAX_ITERATIONS = 20).
			opt.ICSM.MaxIterations = demoICSMRounds
			label = fmt.Sprintf("%s (%d rounds)", m, demoICSMRounds)
		}
		start := time.Now()
		cl, err := microagg.Run(m, data, demoMicroaggK, opt)
		secs := time.Since(start).Seconds()
		if err != nil {
			return fmt.Errorf("demo %s: %w", m, err)
		}
		if _, err := cl.CheckK(z.N, demoMicroaggK); err != nil {
			return fmt.Errorf("demo %s: %w", m, err)
		}
		sizes := cl.Sizes()
		pub, err := microagg.Publish(orig, cl, nil)
		if err != nil {
			return fmt.Errorf("demo %s: %w", m, err)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d..%d\t%.4f\t%.3f\t%.4f\t%s\n", label, cl.NumGroups, slices.Min(sizes), slices.Max(sizes), model.IL(data, cl), secs,
			pub.Risk.IL1s, numericRiskSummary(newNumericRisk(pub.Risk)))
	}
	return tw.Flush()
}
