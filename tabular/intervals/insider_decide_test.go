package intervals

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// sameEnd reports whether two interval ends agree (to tol, or both the
// same infinity).
func sameEnd(x, y float64) bool {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return x == y
	}
	return math.Abs(x-y) <= tol*math.Max(1, math.Abs(x))
}

// compareInsiderReports fails t unless got (InsiderDecide) has want's
// (InsiderAudit's) insiders, findings and largest contributors'
// estimates.
func compareInsiderReports(t *testing.T, name string, want, got *InsiderReport) {
	t.Helper()
	if len(got.Insiders) != len(want.Insiders) || got.Candidates != want.Candidates {
		t.Fatalf("%s: %d of %d insiders, want %d of %d", name, len(got.Insiders), got.Candidates, len(want.Insiders), want.Candidates)
	}
	for k := range want.Insiders {
		if got.Insiders[k].Kind != want.Insiders[k].Kind || got.Insiders[k].Cell != want.Insiders[k].Cell ||
			fmt.Sprint(got.Insiders[k].IDs) != fmt.Sprint(want.Insiders[k].IDs) || got.Insiders[k].Reused != want.Insiders[k].Reused {
			t.Fatalf("%s: insider %d = %+v, want %+v", name, k, got.Insiders[k], want.Insiders[k])
		}
	}
	if len(got.Findings) != len(want.Findings) {
		t.Fatalf("%s: %d findings %+v, want %d %+v", name, len(got.Findings), got.Findings, len(want.Findings), want.Findings)
	}
	for k, w := range want.Findings {
		g := got.Findings[k]
		if g.Insider != w.Insider || g.Cell != w.Cell || g.Requirement != w.Requirement || g.Disclosed != w.Disclosed ||
			!sameEnd(g.Lower, w.Lower) || !sameEnd(g.Upper, w.Upper) || !sameEnd(g.Own, w.Own) ||
			!sameEnd(g.NeedLower, w.NeedLower) || !sameEnd(g.NeedUpper, w.NeedUpper) ||
			!sameEnd(g.ShortBelow, w.ShortBelow) || !sameEnd(g.ShortAbove, w.ShortAbove) {
			t.Fatalf("%s: finding %d = %+v, want %+v", name, k, g, w)
		}
	}
	if len(got.Largest) != len(want.Largest) {
		t.Fatalf("%s: %d largest estimates, want %d", name, len(got.Largest), len(want.Largest))
	}
	for k, w := range want.Largest {
		g := got.Largest[k]
		if g.Cell != w.Cell || g.ID != w.ID || g.Within != w.Within || g.FromInsider != w.FromInsider || g.Outsider != w.Outsider ||
			!sameEnd(g.Lower, w.Lower) || !sameEnd(g.Upper, w.Upper) {
			t.Fatalf("%s: largest %d = %+v, want %+v", name, k, g, w)
		}
	}
	if got.OK() != want.OK() {
		t.Fatalf("%s: OK %v, want %v", name, got.OK(), want.OK())
	}
}

// decideTables returns the seeded tables of TestInsiderDecideEqualsAudit:
// frequency tables (leaf counts 0..3, so cells of frequency 1 and 2 are
// common) over flat and two-level hierarchies with random primary and
// secondary cells (levels 1; the largest, 13 × 6 cells with 40
// suppressed, has components large enough for witnesses to matter), and magnitude tables from random
// microdata with respondents and holdings (Top lists, p(10) primaries).
func decideTables(t *testing.T, n int) []*tabular.Table {
	rng := rand.New(rand.NewPCG(46, 3))
	var out []*tabular.Table
	for k := 0; k < n; k++ {
		var tab *tabular.Table
		switch k % 4 {
		case 0:
			tab = newTable([]*tabular.Hierarchy{flat(t, "a", 3), flat(t, "b", 4)}, func() float64 { return float64(rng.IntN(4)) })
			suppress(tab, rng, 8, 3)
		case 1:
			tab = newTable([]*tabular.Hierarchy{twoLevel(t, "a", 2, 2), flat(t, "b", 3)}, func() float64 { return float64(rng.IntN(4)) })
			suppress(tab, rng, 12, 4)
		case 2:
			tab = magnitudeTable(t, rng)
		case 3:
			tab = newTable([]*tabular.Hierarchy{twoLevel(t, "a", 3, 3), flat(t, "b", 5)}, func() float64 { return float64(rng.IntN(4)) })
			suppress(tab, rng, 40, 12)
		}
		for i := range tab.Cells {
			c := &tab.Cells[i]
			if c.Status == tabular.Primary && !tab.Magnitude {
				c.Upper, c.Lower = 1, 1
			}
		}
		out = append(out, tab)
	}
	return out
}

// magnitudeTable tabulates random microdata over a1..a3 × b1..b3: 1 to 3
// respondents per leaf with values 1..20, grouped into holdings of one
// or two respondents; 2 primary cells (rule p(10), levels 15 % of the
// value) and 4 secondary ones.
func magnitudeTable(t *testing.T, rng *rand.Rand) *tabular.Table {
	ha, hb := flat(t, "a", 3), flat(t, "b", 3)
	b := tabular.NewBuilder([]tabular.Dimension{{Name: "a", H: ha}, {Name: "b", H: hb}},
		&tabular.BuilderSettings{Magnitude: true, Respondents: true, Holdings: true, TopN: 10})
	id := 0
	for i := 1; i <= 3; i++ {
		for j := 1; j <= 3; j++ {
			ka, _ := ha.Index(fmt.Sprintf("a%d", i))
			kb, _ := hb.Index(fmt.Sprintf("b%d", j))
			for r := 0; r < 1+rng.IntN(3); r++ {
				id++
				b.Add([]int{ka, kb}, float64(1+rng.IntN(20)), 1, fmt.Sprintf("r%d", id), fmt.Sprintf("h%d", (id+1)/2))
			}
		}
	}
	tab := b.Table()
	perm := rng.Perm(len(tab.Cells))
	for k, i := range perm[:6] {
		c := &tab.Cells[i]
		if k < 2 {
			c.Status, c.Rule = tabular.Primary, "p(10)"
			c.Upper, c.Lower = 0.15*c.Value, 0.15*c.Value
		} else {
			c.Status = tabular.Secondary
		}
	}
	return tab
}

// TestInsiderDecideEqualsAudit: on seeded tables, InsiderDecide reports
// what InsiderAudit (no cap) reports: the same insiders, findings (with
// their intervals) and largest contributors' estimates; both passing
// and failing tables occur.
func TestInsiderDecideEqualsAudit(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 24
	}
	pass, fail, decided, magFail, largest := 0, 0, 0, 0, 0
	for k, tab := range decideTables(t, n) {
		r, err := Compute(tab, nil)
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		s := &InsiderSettings{MaxInsiders: -1}
		want, err := InsiderAudit(tab, r, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := InsiderDecide(tab, r, s)
		if err != nil {
			t.Fatal(err)
		}
		compareInsiderReports(t, fmt.Sprintf("table %d", k), want, got)
		if !want.OK() && tab.Magnitude {
			magFail++
		}
		largest += len(want.Largest)
		if want.OK() {
			pass++
		} else {
			fail++
		}
		decided += got.Decided
	}
	if pass < 3 || fail < 3 {
		t.Fatalf("%d passing and %d failing tables: too few of one kind", pass, fail)
	}
	if magFail == 0 || largest == 0 {
		t.Fatalf("%d failing magnitude tables, %d largest estimates: the magnitude case is not exercised", magFail, largest)
	}
	t.Logf("%d tables pass, %d fail (%d magnitude); %d largest estimates; %d (insider, cell) pairs decided by witnesses", pass, fail, magFail, largest, decided)
}
