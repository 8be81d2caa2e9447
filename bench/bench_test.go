package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWriteCSV: the union of the tables' columns, a "table" column in
// front, empty cells where a table lacks a column.
func TestWriteCSV(t *testing.T) {
	nan := math.NaN()
	v := 2.5
	rep := &ScalingReport{
		Rows: []ScalingRow{{Method: "mdav", N: 100, K: 3, Quality: 1.25, Measure: "il", Seconds: 0.5}},
		Fits: []ScalingFit{{Method: "mdav", Exponent: 2, Intercept: nan, R2: v}},
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rep); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"table", "method", "n", "k", "quality", "measure", "seconds", "exponent", "intercept", "r2"},
		{"runs", "mdav", "100", "3", "1.25", "il", "0.5", "", "", ""},
		{"fits", "mdav", "", "", "", "", "", "2", "", "2.5"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %q", rows)
	}
	for i := range want {
		if strings.Join(rows[i], ",") != strings.Join(want[i], ",") {
			t.Errorf("row %d: %q, want %q", i, rows[i], want[i])
		}
	}
}

// TestFitScaling: the fit recovers the exponent of exact power laws.
func TestFitScaling(t *testing.T) {
	var rows []ScalingRow
	for _, n := range []int{1000, 2000, 4000, 8000} {
		rows = append(rows, ScalingRow{Method: "a", N: n, Seconds: 3e-7 * math.Pow(float64(n), 1.5)})
	}
	f, ok := fitScaling(rows, "a")
	if !ok || math.Abs(f.Exponent-1.5) > 1e-9 || math.Abs(f.Intercept-math.Log(3e-7)) > 1e-9 || math.Abs(f.R2-1) > 1e-12 {
		t.Errorf("fit %+v, want exponent 1.5, intercept log(3e-7), R² 1", f)
	}
	if _, ok := fitScaling(rows[:1], "a"); ok {
		t.Error("a fit from one point")
	}
}

// TestScalingSmall runs every method on tiny sizes, renders every format
// and draws the figure.
func TestScalingSmall(t *testing.T) {
	opt := &ScalingOptions{MDAVNs: []int{60, 120}, ICSMNs: []int{60, 120}, D: 3, Clusters: 3, ICSMMaxIterations: 5,
		SortGreedyNs: []int{200, 400}, Partition: 100, Seed: 3}
	rep, err := Scaling(opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 6 || len(rep.Fits) != 3 {
		t.Fatalf("%d rows, %d fits", len(rep.Rows), len(rep.Fits))
	}
	for _, r := range rep.Rows {
		if !(r.Seconds > 0) || !(r.Quality >= 0) {
			t.Errorf("row %+v", r)
		}
	}
	// Same seed, same data: the qualities repeat exactly.
	again, err := Scaling(opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rep.Rows {
		if rep.Rows[i].Quality != again.Rows[i].Quality {
			t.Errorf("row %d: quality %v, then %v", i, rep.Rows[i].Quality, again.Rows[i].Quality)
		}
	}
	checkRenders(t, rep)
	if _, err := Scaling(&ScalingOptions{D: 0}); !errors.Is(err, ErrSettings) {
		t.Errorf("d = 0: %v, want ErrSettings", err)
	}
}

// checkRenders renders a report as text, CSV and JSON (snake_case keys,
// method, seconds) and draws its figures as SVG and PNG.
func checkRenders(t *testing.T, rep Report) {
	t.Helper()
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil || buf.Len() == 0 {
		t.Errorf("text: %v (%d bytes)", err, buf.Len())
	}
	buf.Reset()
	if err := WriteCSV(&buf, rep); err != nil {
		t.Errorf("csv: %v", err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"method", "seconds"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	f, ok := rep.(Figurer)
	if !ok {
		return
	}
	figs, err := f.Figures()
	if err != nil || len(figs) == 0 {
		t.Fatalf("figures: %v (%d)", err, len(figs))
	}
	dir := t.TempDir()
	paths, err := SaveFigures(figs, filepath.Join(dir, "figs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2*len(figs) {
		t.Errorf("%d files for %d figures", len(paths), len(figs))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			continue
		}
		checkFigureFile(t, p, b)
	}
}

// TestSettingsErrors: bad options name the option as the flag does.
func TestSettingsErrors(t *testing.T) {
	cases := []struct {
		run   func() error
		field string
	}{
		{func() error {
			_, err := ICSM(&ICSMOptions{Tables: []int{3}, Sources: 1, Neighbourhood: -1})
			return err
		}, "tables"},
		{func() error { _, err := ICSM(&ICSMOptions{Sources: 0, Neighbourhood: -1}); return err }, "sources"},
		{func() error { o := DefaultColgenOptions(); o.Criteria = []string{"x"}; _, err := Colgen(o); return err }, "criteria"},
		{func() error { o := DefaultColgenOptions(); o.Data = "eia"; _, err := Colgen(o); return err }, "data"},
		{func() error {
			o := DefaultKanonOptions()
			o.Methods = []string{"magic"}
			_, err := Kanon(o)
			return err
		}, "methods"},
		{func() error {
			o := DefaultKanonOptions()
			o.MIPNs, o.MIPKs = []int{4}, []int{5}
			_, err := Kanon(o)
			return err
		}, "mip-k"},
		{func() error { _, err := Dobra(&DobraOptions{Tables: []string{"table9"}}); return err }, "tables"},
		{func() error {
			o := DefaultKanonOptions()
			o.SweepPartitions = []int{5}
			_, err := Kanon(o)
			return err
		}, "sweep-partition"},
		{func() error {
			o := DefaultMicroaggTradeoffOptions()
			o.Methods = []string{"magic"}
			_, err := MicroaggTradeoff(o)
			return err
		}, "methods"},
		{func() error {
			o := DefaultMicroaggTradeoffOptions()
			o.Ks = []int{1}
			_, err := MicroaggTradeoff(o)
			return err
		}, "k"},
		{func() error {
			o := DefaultMicroaggTradeoffOptions()
			o.Data = []string{"adult"}
			_, err := MicroaggTradeoff(o)
			return err
		}, "data"},
	}
	for _, c := range cases {
		err := c.run()
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != c.field || !errors.Is(err, ErrSettings) {
			t.Errorf("error %v, want a SettingsError of %q", err, c.field)
		}
	}
}

// TestAuditSparseCase: "DIMS:WAY@MEAN" is a seeded table with Poisson
// counts of that mean, run incrementally only; bad means are refused.
func TestAuditSparseCase(t *testing.T) {
	c, err := parseAuditCase("3^4:2@0.5")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.tab.Counts) != 81 || !c.incrementalOnly || c.way != 2 {
		t.Fatalf("3^4:2@0.5: %d cells, incremental only %v, way %d", len(c.tab.Counts), c.incrementalOnly, c.way)
	}
	// The mean of 81 Poisson(0.5) counts lies well within [0.2, 0.9]
	// (standard deviation of the mean: sqrt(0.5/81) = 0.08).
	if m := float64(c.tab.Total()) / 81; m < 0.2 || m > 0.9 {
		t.Errorf("mean count %.2f, want about 0.5", m)
	}
	again, _ := parseAuditCase("3^4:2@0.5")
	if !slices.Equal(again.tab.Counts, c.tab.Counts) {
		t.Error("not seeded")
	}
	for _, bad := range []string{"3^4:2@0", "3^4:2@x", "3^4:2@-1", "3^4:4@1"} {
		if _, err := parseAuditCase(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	rep, err := Audit(&AuditOptions{Cases: []string{"3^4:2@0.5"}, Requests: 4, Sequences: 1, TimeLimit: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Decisions != 4 || rep.Rows[0].Mode != "incremental" {
		t.Errorf("rows %+v", rep.Rows)
	}
}
