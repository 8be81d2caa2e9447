package audit_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// Issue 44, item 5: a simulated answer may depend only on what is public.
// Property: two confidential tables that agree on every released margin
// (and differ elsewhere: in their totals when nothing is released, in
// their unreleased margins otherwise) give the identical public answer to
// the same request in simulate mode with the same seed, through the
// auditor of a full table and the auditor of microdata (the tables'
// records). The policy is so strict that no true margin is ever released,
// so every answer that is not a denial is simulated. With nothing
// released the total itself is confidential: the request is denied, not
// answered from a table with the true total (the tester's simulated full
// margin of autoworkers summed to 1,841, its true total).
func TestSimulatedAnswerDependsOnlyOnReleases(t *testing.T) {
	strict := audit.Policy{Small: 1_000_000, MinWidth: 1_000_000, AllowSimulate: true}
	cases := 40
	if testing.Short() {
		cases = 16
	}
	var simulated, emptyDenied, differentTotals, differentMargins int
	for s := 0; s < cases; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 44))
		t1 := randomTable(r)
		h := audit.NewHistory(t1)
		released := &model.MarginSet{Vars: t1.Vars}
		for range s % 3 { // 0, 1 or 2 true releases
			names := randomMargin(r, t1)
			sub := positions(t1, names)
			if _, ok := released.MarginalOf(sub); ok {
				continue
			}
			m, _ := t1.Collapse(sub)
			released.Margins = append(released.Margins, m)
			var names2 []string
			for _, j := range sub {
				names2 = append(names2, t1.Vars[j].Name)
			}
			h.Releases = append(h.Releases, audit.Release{Margin: names2, Counts: m.Counts})
		}
		// A second confidential table with the same released margins.
		var t2 *model.Table
		if len(released.Margins) == 0 {
			counts := slices.Clone(t1.Counts)
			for range 1 + r.IntN(4) {
				counts[r.IntN(len(counts))] += int64(1 + r.IntN(3))
			}
			var err error
			if t2, err = model.NewTable(t1.Vars, counts); err != nil {
				t.Fatal(err)
			}
			differentTotals++
		} else {
			for seed := uint64(0); seed < 20; seed++ {
				c, err := audit.Simulate(released, 1000+seed, "", 0)
				if err != nil {
					t.Fatalf("case %d: a second table: %v", s, err)
				}
				if !slices.Equal(c.Counts, t1.Counts) {
					t2 = c
					break
				}
			}
			if t2 == nil {
				continue // the releases determine the table
			}
			differentMargins++
		}
		auditors := func(tab *model.Table) []*audit.Auditor {
			full, err := audit.New(tab, strict, audit.Options{})
			if err != nil {
				t.Fatal(err)
			}
			micro, err := audit.NewMicrodata(datasets.MicrodataFromTable(tab, "case"), strict, audit.Options{}, audit.MicrodataOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return []*audit.Auditor{full, micro}
		}
		a1, a2 := auditors(t1), auditors(t2)
		for q := 0; q < 3; q++ {
			req := audit.Request{Margin: randomMargin(r, t1), Mode: audit.ModeSimulate, Seed: uint64(10*s + q)}
			for k, kind := range []string{"full table", "microdata"} {
				d1, err := a1[k].Decide(h, req)
				if err != nil {
					t.Fatalf("case %d req %v (%s): %v", s, req.Margin, kind, err)
				}
				d2, err := a2[k].Decide(h, req)
				if err != nil {
					t.Fatalf("case %d req %v (%s), second table: %v", s, req.Margin, kind, err)
				}
				p1, p2 := d1.Public(), d2.Public()
				if p1.Outcome != p2.Outcome || !slices.Equal(p1.Counts, p2.Counts) {
					t.Fatalf("case %d, %d releases, req %v (%s): two tables with the same releases (totals %d and %d) answer %s %v and %s %v: %s",
						s, len(h.Releases), req.Margin, kind, t1.Total(), t2.Total(), p1.Outcome, p1.Counts, p2.Outcome, p2.Counts, d1.Operator.Explanation)
				}
				switch {
				case d1.Operator.Implied:
				case len(h.Releases) == 0:
					if d1.Outcome != audit.Denied || !strings.Contains(d1.Operator.Explanation, "nothing has been released") {
						t.Fatalf("case %d req %v (%s): nothing released, answer %s: %s", s, req.Margin, kind, d1.Outcome, d1.Operator.Explanation)
					}
					emptyDenied++
				case d1.Outcome == audit.Simulated:
					simulated++
				default:
					t.Fatalf("case %d req %v (%s): %s under a policy that releases nothing: %s", s, req.Margin, kind, d1.Outcome, d1.Operator.Explanation)
				}
			}
		}
	}
	t.Logf("%d simulated answers, %d denied with nothing released; %d pairs with other totals, %d with other unreleased margins",
		simulated, emptyDenied, differentTotals, differentMargins)
	if simulated == 0 || emptyDenied == 0 || differentTotals == 0 || differentMargins == 0 {
		t.Errorf("the cases do not exercise the property: %d simulated, %d denied with nothing released, %d/%d pairs",
			simulated, emptyDenied, differentTotals, differentMargins)
	}
}
