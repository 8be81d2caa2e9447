package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// runAuditDemo replays a short request sequence through the release
// auditor: the paper's releases [BF], [ABCE], [ADE] of the autoworkers
// table (from the shared datasets; the embedded 2x2x2x2 table when they
// are absent), an implied margin, the whole table (denied), and the whole
// table again in simulate mode.
func runAuditDemo(w io.Writer) error {
	var tab *model.Table
	specs := []string{"BF", "ABCE", "ADE", "AB", "ABCDEF", "ABCDEF"}
	name := "autoworkers table (Dobra & Fienberg)"
	if dir, err := datasets.SharedDir(); err == nil {
		if tab, err = datasets.LoadTableCSV(filepath.Join(dir, "autoworkers.csv"), nil); err != nil {
			return err
		}
	} else {
		tab = demoBoundsTable()
		specs = []string{"AB", "CD", "A", "ABC", "ABCD", "ABCD"}
		name = "embedded 2x2x2x2 table (shared datasets not found)"
	}
	fmt.Fprintf(w, "\n== sdcopt demo: release auditor, a request sequence on the %s\n", name)
	// Simulation is off by default; the demo's operator turns it on.
	pol := audit.DefaultPolicy()
	pol.AllowSimulate = true
	a, err := audit.New(tab, pol, audit.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "policy %s\n", a.Policy().Version())
	h := audit.NewHistory(tab)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tREQUEST\tMODE\tPUBLIC ANSWER\tOPERATOR'S RECORD")
	for i, spec := range specs {
		margin, err := a.ParseMargin(spec)
		if err != nil {
			return err
		}
		mode := audit.ModeRelease
		if i == len(specs)-1 {
			mode = audit.ModeSimulate
		}
		d, err := a.Decide(h, audit.Request{Margin: margin, Mode: mode, Seed: 1})
		if err != nil {
			return err
		}
		h.Append(d)
		pub := d.Public()
		answer := pub.Outcome
		if pub.Counts != nil {
			answer += fmt.Sprintf(" (%d cells)", len(pub.Counts))
		}
		fmt.Fprintf(tw, "%d\t[%s]\t%s\t%s\t%s\n", i+1, strings.Join(d.Margin, ":"), mode, answer, d.Operator.Explanation)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "history: %d releases (%d simulated)\n", len(h.Releases), countSimulated(h))
	return nil
}

func countSimulated(h *audit.History) int {
	n := 0
	for _, r := range h.Releases {
		if r.Simulated {
			n++
		}
	}
	return n
}
