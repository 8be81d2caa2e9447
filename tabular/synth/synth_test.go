package synth

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/primary"
)

func TestCells(t *testing.T) {
	// Hand computation: {5, 6} has 1 + 5 + 30 = 36 codes; {4, 3} has 17.
	for _, tc := range []struct {
		dims []Dim
		want int
	}{
		{[]Dim{{Name: "a", Branching: []int{5, 6}}, {Name: "b", Branching: []int{5, 6}}}, 1296},
		{[]Dim{{Name: "a", Branching: []int{4, 3}}, {Name: "b", Branching: []int{4, 3}}, {Name: "c", Branching: []int{4, 3}}}, 4913},
		{[]Dim{{Name: "a", Branching: []int{7}}}, 8},
	} {
		if got := Cells(tc.dims); got != tc.want {
			t.Errorf("Cells(%v) = %d, want %d", tc.dims, got, tc.want)
		}
	}
}

// TestPresets builds every preset's table (the large ones skip under
// -short) and checks its size against Cells, its additivity, the same
// bytes for the same seed, and that freq:3 makes between 5 % and 40 % of
// the cells primary (the presets' stated purpose).
func TestPresets(t *testing.T) {
	for _, name := range Presets() {
		t.Run(name, func(t *testing.T) {
			s, err := Preset(name, 7)
			if err != nil {
				t.Fatal(err)
			}
			if s.Records > 20000 && testing.Short() {
				t.Skip("large preset under -short")
			}
			d, err := Generate(s)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := d.Table()
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Cells) != Cells(s.Dims) {
				t.Fatalf("%d cells, Cells says %d", len(tab.Cells), Cells(s.Dims))
			}
			if err := tab.CheckConsistent(1e-9); err != nil {
				t.Fatal(err)
			}
			if tab.Cells[0].Value != float64(s.Records) {
				t.Errorf("grand total %v, want %d records", tab.Cells[0].Value, s.Records)
			}
			rs, err := primary.ParseRuleSet("freq:3")
			if err != nil {
				t.Fatal(err)
			}
			sum, err := tabular.ApplyPrimary(tab, rs)
			if err != nil {
				t.Fatal(err)
			}
			share := float64(sum.Primary) / float64(sum.Cells)
			t.Logf("%s: %d cells, %d empty, %d primary (%.1f %%)", name, sum.Cells, sum.Empty, sum.Primary, 100*share)
			if share < 0.05 || share > 0.40 {
				t.Errorf("primary share %.3f outside [0.05, 0.40]", share)
			}
		})
	}
	if _, err := Preset("nope", 1); !errors.Is(err, ErrSpec) {
		t.Errorf("unknown preset: err %v, want ErrSpec", err)
	}
}

func TestSeedReproducible(t *testing.T) {
	s := Spec{Dims: []Dim{{Name: "region", Branching: []int{3, 4}}, {Name: "nace", Prefix: "n", Branching: []int{5}}},
		Records: 500, Skew: 1, Response: true, Holdings: 20, Weights: true, Seed: 3}
	var a, b, c bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		d, err := Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.WriteCSV(buf); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("same spec and seed gave different microdata")
	}
	s.Seed = 4
	d, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	d.WriteCSV(&c)
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatal("seeds 3 and 4 gave the same microdata")
	}
}

// TestMagnitudeTable tabulates a magnitude spec and checks the columns the
// builder reads: the grand total is the sum of the turnover column, every
// cell's largest contribution is at most its value, holdings are kept.
func TestMagnitudeTable(t *testing.T) {
	s := Spec{Dims: []Dim{{Name: "region", Branching: []int{3, 2}}, {Name: "size", Branching: []int{4}}},
		Records: 300, Skew: 0.5, Response: true, Holdings: 10, Weights: false, Seed: 11}
	d, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := d.Table()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range d.Header {
		col[h] = i
	}
	total := 0.0
	for _, r := range d.Rows {
		v, err := strconv.ParseFloat(r[col["turnover"]], 64)
		if err != nil || v < 1 {
			t.Fatalf("turnover %q", r[col["turnover"]])
		}
		total += v
	}
	if tab.Cells[0].Value != total {
		t.Errorf("grand total %v, want %v", tab.Cells[0].Value, total)
	}
	for i, c := range tab.Cells {
		if len(c.Top) > 0 && c.Top[0].Value > c.Value+1e-9 {
			t.Errorf("cell %s: top %v > value %v", tab.CellName(i), c.Top[0].Value, c.Value)
		}
	}
	if tab.Cells[0].TopHolding == nil {
		t.Error("no holding contributions kept")
	}
}

func TestWriteFilesReadBack(t *testing.T) {
	s := Spec{Dims: []Dim{{Name: "region", Branching: []int{2, 3, 2}}, {Name: "sex", Branching: []int{2}}}, Records: 50, Seed: 1}
	d, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, hrc, err := d.WriteFiles(dir, "micro")
	if err != nil {
		t.Fatal(err)
	}
	var dims []tabular.DimSpec
	for i, p := range hrc {
		h, err := tabular.LoadHRC(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !h.Equal(d.Hierarchies[i]) {
			t.Errorf("%s read back differs", p)
		}
		dims = append(dims, tabular.DimSpec{Column: s.Dims[i].Name, H: h})
	}
	tab, err := tabular.LoadMicrodata(data, dims, nil)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := d.Table()
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Cells {
		if tab.Cells[i].Value != mem.Cells[i].Value {
			t.Fatalf("cell %s: file %v, memory %v", tab.CellName(i), tab.Cells[i].Value, mem.Cells[i].Value)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := os.Stat(data); err != nil {
		t.Error(err)
	}
}

func TestBadSpec(t *testing.T) {
	for name, s := range map[string]Spec{
		"no dims":      {Records: 1},
		"no records":   {Dims: []Dim{{Name: "a", Branching: []int{2}}}},
		"zero branch":  {Dims: []Dim{{Name: "a", Branching: []int{2, 0}}}, Records: 1},
		"no branching": {Dims: []Dim{{Name: "a"}}, Records: 1},
		"twice":        {Dims: []Dim{{Name: "a", Branching: []int{2}}, {Name: "a", Branching: []int{2}}}, Records: 1},
		"reserved":     {Dims: []Dim{{Name: "turnover", Branching: []int{2}}}, Records: 1, Response: true},
		"neg skew":     {Dims: []Dim{{Name: "a", Branching: []int{2}}}, Records: 1, Skew: -1},
	} {
		if _, err := Generate(s); !errors.Is(err, ErrSpec) {
			t.Errorf("%s: err %v, want ErrSpec", name, err)
		}
	}
}
