package suppress

import (
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// TestInsiderDecide2way1300: on the fast method's outsider pattern of
// the synth preset "2way-1300" (freq:3; 188 cell insiders, many of them
// breaking cells), intervals.InsiderDecide finds what InsiderAudit
// finds: the same (insider, cell) findings with the same intervals (to
// 1e-6, relative).
func TestInsiderDecide2way1300(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1,296-cell table")
	}
	tab := presetTable(t, "2way-1300", "freq:3")
	r, err := Solve(tab, &Settings{Method: MethodFast, Insiders: InsidersOff})
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Cells {
		tab.Cells[i].Status = r.Status[i]
	}
	set := &intervals.InsiderSettings{Settings: &intervals.Settings{NoCertificates: true}, MaxInsiders: -1}
	want, err := intervals.InsiderAudit(tab, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	got, err := intervals.InsiderDecide(tab, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Findings) == 0 || len(got.Findings) != len(want.Findings) || got.OK() != want.OK() {
		t.Fatalf("%d findings (ok %v), want %d (ok %v)", len(got.Findings), got.OK(), len(want.Findings), want.OK())
	}
	same := func(x, y float64) bool {
		return x == y || math.Abs(x-y) <= 1e-6*math.Max(1, math.Abs(y))
	}
	for k, w := range want.Findings {
		g := got.Findings[k]
		if g.Insider != w.Insider || g.Cell != w.Cell || g.Disclosed != w.Disclosed || !same(g.Lower, w.Lower) || !same(g.Upper, w.Upper) {
			t.Fatalf("finding %d = %+v, want %+v", k, g, w)
		}
	}
	t.Logf("%d insiders, %d findings; InsiderDecide %d LPs, InsiderAudit %d", len(want.Insiders), len(want.Findings), got.Solves, want.Solves)
}
