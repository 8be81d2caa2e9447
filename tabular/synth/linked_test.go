package synth

import (
	"errors"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/primary"
)

// TestLinkedPresets tabulates every linked preset (the large ones skip
// under -short), links its tables and checks the System's cell count
// against the hand computation in the presets' comments, that every
// table's grand total is the number of records, that the System's
// relations hold, and that freq:3 makes between 5 % and 40 % of the
// System's cells primary.
func TestLinkedPresets(t *testing.T) {
	want := map[string]int{
		"linked-2000": 36*36 + 36*17 - 36,
		"linked-66k":  156*156 + 156*131 + 156*131 - 156 - 156 - 131 + 1,
		"linked-100k": 331*156 + 331*156 - 331,
	}
	if len(want) != len(LinkedPresets()) {
		t.Fatalf("presets %v, want a count for each", LinkedPresets())
	}
	for _, name := range LinkedPresets() {
		t.Run(name, func(t *testing.T) {
			s, err := LinkedPreset(name, 7)
			if err != nil {
				t.Fatal(err)
			}
			if s.Records > 20000 && testing.Short() {
				t.Skip("large preset under -short")
			}
			d, err := GenerateLinked(s)
			if err != nil {
				t.Fatal(err)
			}
			tabs, err := d.Tables(s.Tables)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := primary.ParseRuleSet("freq:3")
			if err != nil {
				t.Fatal(err)
			}
			for k, tab := range tabs {
				if len(tab.Dims) != len(s.Tables[k]) {
					t.Fatalf("table %d: %d dimensions, want %d", k, len(tab.Dims), len(s.Tables[k]))
				}
				if tab.Cells[0].Value != float64(s.Records) {
					t.Errorf("table %d: grand total %v, want %d records", k, tab.Cells[0].Value, s.Records)
				}
				if _, err := tabular.ApplyPrimary(tab, rs); err != nil {
					t.Fatal(err)
				}
			}
			sys, err := tabular.NewSystem(tabs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sys.Len() != want[name] {
				t.Fatalf("%d system cells, want %d", sys.Len(), want[name])
			}
			if err := sys.CheckConsistent(1e-9); err != nil {
				t.Fatal(err)
			}
			var prim, empty int
			for _, c := range sys.Cells {
				switch c.Status {
				case tabular.Primary:
					prim++
				case tabular.Empty:
					empty++
				}
			}
			share := float64(prim) / float64(sys.Len())
			t.Logf("%s: %d tables, %d cells, %d relations, %d empty, %d primary (%.1f %%)", name, len(tabs), sys.Len(), len(sys.Relations), empty, prim, 100*share)
			if share < 0.05 || share > 0.40 {
				t.Errorf("primary share %.3f outside [0.05, 0.40]", share)
			}
		})
	}
	if _, err := LinkedPreset("nope", 1); !errors.Is(err, ErrSpec) {
		t.Errorf("unknown preset: err %v, want ErrSpec", err)
	}
}

// TestTableOver checks that a table over a subset of the dimensions is
// the marginal of the full table (hand reasoning: tabulating over region
// alone counts the same records as the full table's cells with every
// other dimension at its total) and that bad names are refused.
func TestTableOver(t *testing.T) {
	s, err := LinkedPreset("linked-2000", 3)
	if err != nil {
		t.Fatal(err)
	}
	d, err := GenerateLinked(s)
	if err != nil {
		t.Fatal(err)
	}
	full, err := d.Table()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := d.TableOver("region")
	if err != nil {
		t.Fatal(err)
	}
	h := reg.Dims[0].H
	for i, c := range reg.Cells {
		j, ok := full.Lookup(h.Code(i), tabular.DefaultRoot, tabular.DefaultRoot)
		if !ok {
			t.Fatalf("full table has no cell (%s, total, total)", h.Code(i))
		}
		if c.Value != full.Cells[j].Value || c.Freq != full.Cells[j].Freq {
			t.Fatalf("region %s: %v (%d) in the marginal table, %v (%d) in the full one", h.Code(i), c.Value, c.Freq, full.Cells[j].Value, full.Cells[j].Freq)
		}
	}
	for _, bad := range [][]string{{"nope"}, {"region", "region"}, {}} {
		if _, err := d.TableOver(bad...); !errors.Is(err, ErrSpec) {
			t.Errorf("TableOver(%q): err %v, want ErrSpec", bad, err)
		}
	}
	s.Tables = [][]string{{"region", "colour"}}
	if _, err := GenerateLinked(s); !errors.Is(err, ErrSpec) {
		t.Errorf("a table over an unknown dimension: err %v, want ErrSpec", err)
	}
}
