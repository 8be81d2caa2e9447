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
	got := reps[0].(*bench.ICSMReport)
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
		`{"bench": "nope"}`:                    "field bench",
		`{"bench": "kanon", "tables": [2]}`:    "field tables",
		`{"bench": "mdav", "seeds": [2]}`:      "field seeds",
		`{"bench": "mdav", "data": ["adult"]}`: "unknown data set",
		`{"bench": "kanon", "methods": ["x"]}`: "unknown method",
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

// TestBenchKanonMatches runs a kanon grid on prism and compares it with
// bench.Kanon's table of GCP vs k (what `sdcopt bench kanon --k 5
// --methods sortgreedy,mondrian --partition 1000 --mip-n ” --scale-n ”`
// computes).
func TestBenchKanonMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("k-anonymity on Adult")
	}
	g, err := ParseGrid(strings.NewReader(`{"bench": "kanon", "k": [5], "methods": ["sortgreedy", "mondrian"], "partition": 1000}`), "grid.json")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := Bench(context.Background(), g, Runner{})
	if err != nil {
		t.Fatal(err)
	}
	o := bench.DefaultKanonOptions()
	o.Ks, o.Methods, o.Partition, o.MIPNs, o.ScaleNs = []int{5}, []string{"sortgreedy", "mondrian"}, 1000, nil, nil
	want, err := bench.Kanon(o)
	if err != nil {
		t.Fatal(err)
	}
	got := reps[0].(*bench.KanonReport)
	if len(reps) != 1 || len(got.VsK) != 2 || len(want.VsK) != 2 || got.N != want.N {
		t.Fatalf("%d reports; rows %d / %d", len(reps), len(got.VsK), len(want.VsK))
	}
	for i, w := range want.VsK {
		r := got.VsK[i]
		if r.Method != w.Method || r.K != w.K || r.GCP != w.GCP || r.Partitions != w.Partitions || !r.Verified ||
			w.VsMondrian == nil || r.VsMondrian == nil || *r.VsMondrian != *w.VsMondrian {
			t.Errorf("row %d: pipeline %+v, bench kanon %+v", i, r, w)
		}
	}
}

// TestBenchMDAVMatches: an MDAV grid gives bench.MDAV's rows.
func TestBenchMDAVMatches(t *testing.T) {
	g, err := ParseGrid(strings.NewReader(`{"bench": "mdav", "data": ["tarragona"], "k": [3, 5]}`), "grid.json")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := Bench(context.Background(), g, Runner{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := bench.MDAV(&bench.MDAVOptions{Data: []string{"tarragona"}, Ks: []int{3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	got := reps[0].(*bench.MDAVReport)
	if len(reps) != 1 || len(got.Rows) != 2 || len(want.Rows) != 2 || got.Differences != want.Differences || got.Differences != 0 {
		t.Fatalf("%d reports; %+v, want %+v", len(reps), got.Rows, want.Rows)
	}
	for i, w := range want.Rows {
		if r := got.Rows[i]; r.Data != w.Data || r.K != w.K || r.IL != w.IL || r.Groups != w.Groups || *r.Match != true {
			t.Errorf("row %d: pipeline %+v, bench mdav %+v", i, r, w)
		}
	}
}
