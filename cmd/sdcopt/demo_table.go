package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
	"github.com/sdcopt/sdcopt/tabular/primary"
	"github.com/sdcopt/sdcopt/tabular/suppress"
)

// The table demo: a seeded magnitude table (turnover by municipality,
// under regions by code prefix, × sector), primary rules, and the audit
// of the primary-only suppression, which finds the primary cells
// under-protected; then secondary suppression (package suppress) and the
// audit of its pattern, which passes.
const (
	demoTableSeed    = 1
	demoTableRecords = 300
	demoTableRules   = "freq:3,p:15"
	demoTableShown   = 5
)

// demoTableMicro generates the microdata: region code (a letter, then a
// municipality digit), sector, turnover (log-normal, a few large firms).
func demoTableMicro() string {
	rng := rand.New(rand.NewPCG(demoTableSeed, 45))
	munis := []string{"N1", "N2", "N3", "S1", "S2", "W1", "W2", "W3", "W4"}
	sectors := []string{"a", "b", "c", "d"}
	var b strings.Builder
	b.WriteString("region,sector,turnover\n")
	for range demoTableRecords {
		m := munis[int(math.Floor(math.Pow(rng.Float64(), 1.6)*float64(len(munis))))]
		s := sectors[int(math.Floor(math.Pow(rng.Float64(), 2)*float64(len(sectors))))]
		v := math.Round(math.Exp(3 + 1.2*rng.NormFloat64()))
		fmt.Fprintf(&b, "%s,%s,%g\n", m, s, v)
	}
	return b.String()
}

func runTableDemo(w io.Writer) error {
	tab, err := tabular.ReadMicrodata(strings.NewReader(demoTableMicro()), "demo",
		[]tabular.DimSpec{{Column: "region", Prefix: []int{1, 2}}, {Column: "sector"}},
		&tabular.BuildSettings{Response: "turnover"})
	if err != nil {
		return fmt.Errorf("demo table: %w", err)
	}
	fmt.Fprintf(w, "\n== sdcopt demo: publishing a table (%d generated records: turnover by region (prefix hierarchy) × sector, %d cells)\n",
		demoTableRecords, len(tab.Cells))
	rs, err := primary.ParseRuleSet(demoTableRules)
	if err != nil {
		return err
	}
	sum, err := tabular.ApplyPrimary(tab, rs)
	if err != nil {
		return fmt.Errorf("demo table: %w", err)
	}
	fmt.Fprintf(w, "primary rules %s: %d primary cells, %d empty\n", rs.Spec(), sum.Primary, sum.Empty)
	r, err := intervals.Compute(tab, nil)
	if err != nil {
		return fmt.Errorf("demo table audit: %w", err)
	}
	if err := intervals.Verify(tab, r, nil); err != nil {
		return fmt.Errorf("demo table audit: %w", err)
	}
	lower, upper := make([]float64, len(tab.Cells)), make([]float64, len(tab.Cells))
	for i, c := range tab.Cells {
		lower[i], upper[i] = c.Lower, c.Upper
	}
	rep := intervals.Audit(r, intervals.LevelSlices(lower, upper))
	fmt.Fprintf(w, "audit of the primary-only suppression (%s, %d LPs, %.2f s, certificates verified): %d of %d primary cells under-protected, %d exactly disclosed\n",
		r.Engine, r.Solves, r.Seconds, len(rep.UnderProtected), rep.Primary, len(rep.Disclosed))
	for k, f := range rep.UnderProtected {
		if k == demoTableShown {
			fmt.Fprintf(w, "  ... %d more\n", len(rep.UnderProtected)-k)
			break
		}
		fmt.Fprintf(w, "  under-protected (%s): %g in [%g, %g], needs [%g, %g]\n", f.Name, f.Value, f.Lower, f.Upper,
			f.Value-f.RequiredLower, f.Value+f.RequiredUpper)
	}
	return demoTableProtect(w, tab)
}

// demoTableProtect chooses the secondary cells (cost: the values
// suppressed) and audits the pattern as the attacker would.
func demoTableProtect(w io.Writer, tab *tabular.Table) error {
	sr, err := suppress.Solve(tab, nil)
	if err != nil {
		return fmt.Errorf("demo table protect: %w", err)
	}
	sr.Apply(tab)
	sup := 0.0
	for _, c := range tab.Cells {
		if c.Status.Suppressed() {
			sup += math.Abs(c.Value)
		}
	}
	total := math.Abs(tab.Cells[0].Value) // the grand total (cell 0)
	fmt.Fprintf(w, "secondary suppression (%s LPs, %s MIPs, %.2f s, %d insider targets): %d secondary cells, cost %g (lower bound %g, %s); %.1f %% of the grand total's value suppressed in all\n",
		sr.LPEngine, orNone(sr.MIPEngine), sr.Seconds, sr.InsiderTargets, sr.Secondary, sr.Cost, sr.LowerBound, sr.Stop, 100*sup/math.Max(total, 1))
	r, err := intervals.Compute(tab, nil)
	if err != nil {
		return fmt.Errorf("demo table audit: %w", err)
	}
	if err := intervals.Verify(tab, r, nil); err != nil {
		return fmt.Errorf("demo table audit: %w", err)
	}
	rep := intervals.AuditProtection(r, intervals.CellProtection(tab.Cells))
	verdict := "pass"
	if !rep.OK() {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "audit of the protected table (%d LPs, certificates verified): %d of %d primary cells under-protected, %d exactly disclosed: %s\n",
		r.Solves, len(rep.UnderProtected), rep.Primary, len(rep.Disclosed), verdict)
	if !rep.OK() {
		return fmt.Errorf("demo table: the protected table fails the audit")
	}
	// The suppression also protects against insiders (the table has
	// contributions); the insider check says whether a contributor, who
	// knows its own part, could undo it.
	ir, err := intervals.InsiderAudit(tab, r, nil)
	if err != nil {
		return fmt.Errorf("demo table insiders: %w", err)
	}
	if ir.OK() {
		fmt.Fprintf(w, "insider check (%d insiders, %d LPs): pass\n", len(ir.Insiders), ir.Solves)
	} else {
		f := ir.Findings[0]
		fmt.Fprintf(w, "insider check (%d insiders, %d LPs): %d finding(s), e.g. insider \"%s\" narrows (%s) to [%g, %g]; `sdcopt table protect` would not publish this pattern\n",
			len(ir.Insiders), ir.Solves, len(ir.Findings), ir.Insiders[f.Insider].Reason, f.Name, f.Lower, f.Upper)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no"
	}
	return s
}
