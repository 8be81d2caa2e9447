package intervals

import (
	"math"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// TestInsidersMatchAudit: Insiders gives, for the table with every cell
// that may be suppressed suppressed, the insiders InsiderAudit audits
// there (no cap), in the same order, and its Prior narrows exactly the
// cells in Narrowed; under the table's own pattern (which the singleton
// or the pair breaks) the audit's insiders are among them, and each
// finding's requirement is Need's. Tables: the
// singleton and pair tables of TestInsiderSingleton and
// TestInsiderCoalition, with a must-publish cell left out of the
// suppression.
func TestInsidersMatchAudit(t *testing.T) {
	for _, pair := range []bool{false, true} {
		tab, _ := singletonTable(t, pair)
		mp := cell(t, tab, "a2", "b3")
		tab.Cells[mp].Status = tabular.MustPublish
		know, err := Insiders(tab, nil)
		if err != nil {
			t.Fatal(err)
		}
		all := *tab
		all.Cells = slices.Clone(tab.Cells)
		for i := range all.Cells {
			if all.Cells[i].Status == tabular.Safe {
				all.Cells[i].Status = tabular.Secondary
			}
		}
		ir, err := InsiderAudit(&all, nil, &InsiderSettings{MaxInsiders: -1})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		if len(know) != len(ir.Insiders) || len(know) == 0 {
			t.Fatalf("pair %v: %d insiders, the audit %d", pair, len(know), len(ir.Insiders))
		}
		for k := range know {
			if a, b := know[k].Insider.Name(tab.CellName), ir.Insiders[k].Name(tab.CellName); a != b {
				t.Errorf("pair %v: insider %d is %s, the audit's %s", pair, k, a, b)
			}
			for i := range tab.Cells {
				v := tab.Cells[i].Value
				lo, up := know[k].Prior(i, v)
				narrowed := lo > 0 || !math.IsInf(up, 1)
				if _, in := slices.BinarySearch(know[k].Narrowed, i); in != narrowed {
					t.Errorf("pair %v: insider %d, cell %d: prior [%g, %g], in Narrowed %v", pair, k, i, lo, up, in)
				}
			}
		}
		// Under the table's own pattern the audit's insiders are among
		// them, and each finding's requirement is Need's.
		own, err := InsiderAudit(tab, nil, &InsiderSettings{MaxInsiders: -1})
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]int{}
		for k := range know {
			byName[know[k].Insider.Name(tab.CellName)] = k
		}
		for _, in := range own.Insiders {
			if _, ok := byName[in.Name(tab.CellName)]; !ok {
				t.Errorf("pair %v: the audit's insider %s is not among Insiders'", pair, in.Name(tab.CellName))
			}
		}
		for _, f := range own.Findings {
			k := byName[own.Insiders[f.Insider].Name(tab.CellName)]
			lo, hi, name, ok := know[k].Need(f.Cell)
			if !ok || math.Abs(lo-f.NeedLower) > tol || math.Abs(hi-f.NeedUpper) > tol || name != f.Requirement {
				t.Errorf("pair %v: finding %+v, Need gives [%g, %g] %q %v", pair, f, lo, hi, name, ok)
			}
		}
		if len(own.Findings) == 0 {
			t.Errorf("pair %v: no finding to compare", pair)
		}
	}
}
