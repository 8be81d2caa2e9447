package main

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"sdcopt/solvers/mps"
)

//go:embed demodata/*.mps
var demoModels embed.FS

func newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run the main job on embedded data with every available engine",
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
	return nil
}
