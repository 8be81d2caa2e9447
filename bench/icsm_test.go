package bench

import (
	"math"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// TestBenchICSMTables checks the transcription of the published tables.
func TestBenchICSMTables(t *testing.T) {
	if len(icsmTable2) != 24 || len(icsmTable4) != 12 {
		t.Fatalf("%d Table 2 rows, %d Table 4 rows; want 24 and 12", len(icsmTable2), len(icsmTable4))
	}
	// Table 2 prints Gain = 1 - IL_ICSM/IL_MDAV in percent with one
	// decimal (Mortazavi & Jalili, Table 2, column Gain, in row order;
	// the Synthetic rows as read in the comment on icsmTable2). The EIA
	// rows are printed as 25, 53.3 and 41.7 from ILs rounded to 2 decimals,
	// hence the tolerance of 1 percentage point.
	gains := []float64{12.5, 7.9, 7.5, 14.8, 14.4, 15.7, 25, 53.3, 41.7, 2.8, 8.5, 1.6, 12.4, 1.1, 14.9,
		14.5, 11.9, 5.3, 13.1, 14.6, 14.2, 18.5, 15.3, 13.6}
	for i, p := range icsmTable2 {
		if g := 100 * (1 - p.icsm/p.mdav); math.Abs(g-gains[i]) > 1 {
			t.Errorf("%s k=%d cap %d: gain %.2f, the paper prints %.1f", p.data, p.k, p.maxIter, g, gains[i])
		}
		// IL_MDAV of the CASC rows equals the one bench mdav uses.
		if m, ok := MDAVPublished[p.data][p.k]; ok && m != p.mdav {
			t.Errorf("%s k=%d: IL_MDAV %g here, %g in bench mdav", p.data, p.k, p.mdav, m)
		}
	}
	// The best over restarts (Table 4) is never above the single run from
	// MDAV (Table 2) of the same data and k.
	for _, p4 := range icsmTable4 {
		for _, p2 := range icsmTable2 {
			if p2.data == p4.data && p2.k == p4.k && p4.icsm > p2.icsm {
				t.Errorf("%s k=%d: Table 4 IL %g above Table 2 IL %g", p4.data, p4.k, p4.icsm, p2.icsm)
			}
		}
	}
}

// TestBenchICSMRows runs the row logic on injected data and published
// values, with ICSM replaced by MDAV (IL_ICSM = IL_MDAV), so that the
// statuses are known.
func TestBenchICSMRows(t *testing.T) {
	var zs []*model.Dataset
	for seed := uint64(1); seed <= 2; seed++ {
		raw, err := datasets.Synthetic("sim2", seed)
		if err != nil {
			t.Fatal(err)
		}
		z, _ := model.Standardize(raw)
		zs = append(zs, z)
	}
	mean := 0.0
	for _, z := range zs {
		cl, err := microagg.MDAV(z, 3)
		if err != nil {
			t.Fatal(err)
		}
		mean += model.IL(z, cl) / 2
	}
	calls := 0
	solve := func(z *model.Dataset, k int, opt microagg.ICSMOptions) (*microagg.ICSMResult, error) {
		calls++
		cl, err := microagg.MDAV(z, k)
		if err != nil {
			return nil, err
		}
		sse, sst := model.SSE(z, cl), model.SST(z)
		st := microagg.ICSMStats{Runs: 1 + opt.Restarts, Iterations: 2, InitialSSE: sse, StoppedByIter: calls == 2}
		return &microagg.ICSMResult{Clustering: cl, SSE: sse, SST: sst, IL: 100 * sse / sst, Stats: st}, nil
	}
	load := func(string) ([]*model.Dataset, error) { return zs, nil }
	// Published values just above, at and below our mean IL.
	pubs := []icsmPub2{
		{"sim2", 3, 0, 14, mean + 0.004, 0, "< 1"}, // ok: within the slack
		{"sim2", 3, 0, 14, mean - 0.006, 0, "< 1"}, // ABOVE
	}
	pub4 := icsmPub4{"census", 3, mean + 1, mean + 2}
	cases := []icsmCase{{table: 2, pub2: &pubs[0]}, {table: 2, pub2: &pubs[1]}, {table: 4, pub4: &pub4}}
	o := &ICSMOptions{Restarts: 4, Seed: 9, Sources: 1, Neighbourhood: -1, solve: solve, load: load}
	doc, err := runICSMCases(o, cases)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 6 || len(doc.Table2) != 2 || len(doc.Table4) != 1 {
		t.Fatalf("%d calls, rows %d + %d", calls, len(doc.Table2), len(doc.Table4))
	}
	r := doc.Table2[0]
	if math.Abs(r.IL-mean) > 1e-9 || math.Abs(r.ILMDAV-mean) > 1e-9 || r.Sets != 2 || r.Iterations != 2 ||
		r.Status != "ok" || r.PublishedIterations != nil || r.Stopped != "iteration_limit" {
		t.Errorf("row 1: %+v (mean il %g)", r, mean)
	}
	if r := doc.Table2[1]; r.Status != "ABOVE" || math.Abs(r.Diff-0.006) > 1e-9 || r.Stopped != "converged" {
		t.Errorf("row 2: %+v", r)
	}
	if r := doc.Table4[0]; r.Status != "ok" || r.Restarts != 4 || r.Seed != 9 || r.Iterations != 4 || r.PublishedLS != mean+2 {
		t.Errorf("table 4 row: %+v", r)
	}
	if doc.Rows != 3 || doc.AtOrBelow != 2 || len(doc.Above) != 1 || doc.Above[0] != "table 2: sim2 k=3" {
		t.Errorf("summary: %d rows, %d at or below, above %v", doc.Rows, doc.AtOrBelow, doc.Above)
	}
	var buf strings.Builder
	if err := doc.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Table 2", "Table 4", "PUB-IL_LS", "ABOVE", "2 of 3 rows at or below", "above: table 2: sim2 k=3"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}
