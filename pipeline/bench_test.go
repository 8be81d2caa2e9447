package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/bench"
)

// TestBenchMatchesICSM runs two Table 2 cases of the ICSM grid as
// pipeline elements and compares the rows with bench.ICSM (what `sdcopt
// bench icsm --tables 2 --data tarragona --k 3,10` computes).
func TestBenchMatchesICSM(t *testing.T) {
	if testing.Short() {
		t.Skip("ICSM on Tarragona")
	}
	g, err := ParseGrid(strings.NewReader(`{"bench": "icsm", "tables": [2], "data": ["tarragona"], "k": [3, 10]}`), "grid.json")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := Bench(context.Background(), g, Runner{})
	if err != nil {
		t.Fatal(err)
	}
	o := bench.DefaultICSMOptions()
	o.Tables, o.Data, o.Ks = []int{2}, []string{"tarragona"}, []int{3, 10}
	want, err := bench.ICSM(o)
	if err != nil {
		t.Fatal(err)
	}
	got := reps[0]
	if len(reps) != 1 || len(got.Table2) != 2 || len(want.Table2) != 2 || got.Rows != want.Rows || got.AtOrBelow != want.AtOrBelow {
		t.Fatalf("%d reports, rows %d / %d", len(reps), got.Rows, want.Rows)
	}
	for i, w := range want.Table2 {
		r := got.Table2[i]
		// ICSM is deterministic from MDAV: the same IL and iterations.
		if r.Data != w.Data || r.K != w.K || r.IL != w.IL || r.ILMDAV != w.ILMDAV || r.Iterations != w.Iterations || r.Status != w.Status {
			t.Errorf("row %d: pipeline %+v, bench icsm %+v", i, r, w)
		}
	}
}

func TestParseGridErrors(t *testing.T) {
	for spec, want := range map[string]string{
		`{"bench": "icsm", "k": ["x"]}`:        "grid.json:1: field k",
		"{\"bench\": \"icsm\",\n \"kk\": [3]}": "grid.json:2",
		`{"bench": "kanon"}`:                   "field bench",
		`{"bench": "icsm", "data": ["nope"]}`:  "unknown data set",
		`{"bench": "icsm", "time_limit": -1}`:  "field time_limit",
		`{"bench": "icsm", "tables": [3]}`:     "unknown table",
		`{"bench": "icsm"`:                     "grid.json:1",
	} {
		_, err := ParseGrid(strings.NewReader(spec), "grid.json")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", spec, err, want)
		}
	}
}
