package bench

import (
	"os"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

// TestReportsRender draws the figures of hand-built reports (no data
// needed) and renders them in every format.
func TestReportsRender(t *testing.T) {
	p1, _ := ColgenPublishedLookup("census", 30, 3, "cons")
	p2, _ := ColgenPublishedLookup("census", 40, 3, "cons")
	colgen := &ColgenReport{Method: "colgen", Data: "census", Rows: []ColgenRow{
		{N: 30, K: 3, Crit: "cons", GapPiStar: 2, GapBest: 1, GapMSTH: 3, GapSRH: 4, Published: &p1},
		{N: 40, K: 3, Crit: "cons", GapPiStar: 1.5, GapBest: 0.5, GapMSTH: 2, GapSRH: 2.5, Published: &p2},
	}}
	icsm := &ICSMReport{Method: "icsm", Restarts: 20,
		Table2: []ICSMTable2Row{{Data: "census", K: 3, Sets: 1, ILMDAV: 5.69, IL: 4.85, PublishedMDAV: 5.69, Published: 4.85},
			{Data: "census", K: 5, Sets: 1, ILMDAV: 9.09, IL: 7.52, PublishedMDAV: 9.09, Published: 7.78}},
		Table4: []ICSMTable4Row{{Data: "census", K: 3, IL: 4.75, Published: 4.75, PublishedLS: 4.85}}}
	kanon := &KanonReport{Method: "kanon", N: 100, Heuristics: []string{"greedy", "hungarian", "mondrian"}, VsK: []KanonKRow{
		{Method: "greedy", K: 2, GCP: 0.02, Linkage: 0.4}, {Method: "greedy", K: 5, GCP: 0.06, Linkage: 0.15},
		{Method: "hungarian", K: 2, GCP: 0.01, Linkage: 0.45}, {Method: "hungarian", K: 5, GCP: 0.05, Linkage: 0.17},
		{Method: "mondrian", K: 2, GCP: 0.03, Linkage: 0.5}, {Method: "mondrian", K: 5, GCP: 0.08, Linkage: 0.2}},
		Sweep: []KanonSweepRow{{Method: "greedy", K: 10, Partition: 250, GCP: 0.07, Seconds: 0.4}, {Method: "greedy", K: 10, Partition: 1000, GCP: 0.065, Seconds: 1.5},
			{Method: "hungarian", K: 10, Partition: 250, GCP: 0.06, Seconds: 0.9}, {Method: "hungarian", K: 10, Partition: 1000, GCP: 0.05, Seconds: 6},
			{Method: "mondrian", K: 10, GCP: 0.071, Seconds: 0.0001}}}
	dobra := &DobraReport{Method: "dobra", Results: []*DobraTable{{Table: "table3", Cells: []DobraCell{
		{LPLower: 0, LPUpper: 312.67, IPLower: 0, IPUpper: 312}, {LPLower: 10, LPUpper: 50, IPLower: 10, IPUpper: 50}}}}}
	tradeoff := &MicroaggTradeoffReport{Method: "microagg-tradeoff", IntervalP: 0.05, BoundTime: 5, Rows: []MicroaggTradeoffRow{
		{Data: "census", K: 3, Method: "mdav", IL: 5.69, Linkage: 0.31}, {Data: "census", K: 5, Method: "mdav", IL: 9.09, Linkage: 0.18},
		{Data: "census", K: 3, Method: "icsm", IL: 4.85, Linkage: 0.33}, {Data: "census", K: 5, Method: "icsm", IL: 7.52, Linkage: 0.2}},
		Bounds: []MicroaggTradeoffBound{{Data: "census", K: 3, LowerBoundIL: 3.4, BestIL: 4.85}, {Data: "census", K: 5, LowerBoundIL: 5, BestIL: 7.52}}}
	pub3, pub5, yes := MDAVPublished["census"][3], MDAVPublished["census"][5], true
	mdav := &MDAVReport{Method: "mdav", Rows: []MDAVRow{
		{Data: "census", K: 3, IL: 5.69, Published: &pub3, Match: &yes}, {Data: "census", K: 4, IL: 7.5},
		{Data: "census", K: 5, IL: 9.09, Published: &pub5, Match: &yes}}}
	for _, rep := range []Report{colgen, icsm, kanon, mdav, tradeoff} {
		checkRenders(t, rep)
	}
	// Every figure of the field: kanon's risk, partition and time planes,
	// Dobra's LP-vs-IP scatter, the microaggregation band and risk plane
	// (no interval-disclosure figure: that risk is 0 everywhere here).
	want := map[Figurer][]string{
		kanon:    {"kanon-gcp-adult", "kanon-risk-adult", "kanon-gcp-partition-adult", "kanon-gcp-time-adult"},
		dobra:    {"dobra-widths-table3", "dobra-lp-ip-table3"},
		tradeoff: {"microagg-il-k-census", "microagg-risk-dbrl-census"},
	}
	for rep, names := range want {
		figs, err := rep.Figures()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range figs {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, names) {
			t.Errorf("figures %q, want %q", got, names)
		}
		paths, err := SaveFigures(figs, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			checkFigureFile(t, p, b)
		}
	}
	if s := colgen.Summary(); len(s) != 2 || s[0].PublishedBest != min(p1.MSTH, p1.SRH) || s[1].PiStar != 1.5 {
		t.Errorf("summary %+v", s)
	}
}

func skipWithoutShared(t *testing.T) {
	t.Helper()
	if _, err := datasets.SharedDir(); err != nil {
		t.Skip(err)
	}
}

// TestMDAV reproduces every published IL_MDAV (Mortazavi & Jalili, Table
// 2, column IL_MDAV, in MDAVPublished) to 2 decimals.
func TestMDAV(t *testing.T) {
	skipWithoutShared(t)
	rep, err := MDAV(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 12 || rep.Differences != 0 {
		t.Errorf("%d rows, %d differences", len(rep.Rows), rep.Differences)
	}
	checkRenders(t, rep)
}

// TestDobraTable3 reproduces Table 3 of Dobra & Fienberg and draws its
// widths: one published bound is not sharp (the cell A=yes, B=no, C=yes,
// E<3 has lower bound 30, not 0; LP, IP and the shuttle agree) and one
// LP bound is fractional (312.67, printed in the paper).
func TestDobraTable3(t *testing.T) {
	skipWithoutShared(t)
	if testing.Short() {
		t.Skip("solves the table's integer programs")
	}
	rep, err := Dobra(&DobraOptions{Tables: []string{"table3"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Differences != 1 {
		t.Fatalf("%d tables, %d differences", len(rep.Results), rep.Differences)
	}
	frac := 0
	for _, c := range rep.Results[0].Cells {
		if c.Fractional {
			frac++
		}
	}
	if frac != 1 {
		t.Errorf("%d fractional LP cells, want 1", frac)
	}
	checkRenders(t, rep)
}
