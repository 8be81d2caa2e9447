package audit_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// wCellsDisclosed is the reference of ProtectCollapsed: the cells of the
// table over W (the variables of the margins in asked, positions in tab)
// whose IP bounds given asked violate the policy, none when a true margin
// of asked is the table over W itself (its cells are published).
func wCellsDisclosed(t *testing.T, eng string, tab *model.Table, asked []*model.Marginal, pol audit.Policy) []int {
	t.Helper()
	var wsub []int
	for j := range tab.Vars {
		for _, m := range asked {
			if slices.Contains(m.Vars, j) {
				wsub = append(wsub, j)
				break
			}
		}
	}
	for _, m := range asked {
		if len(m.Vars) == len(wsub) {
			return nil
		}
	}
	mW, _ := tab.Collapse(wsub)
	var varsW []model.Variable
	for _, j := range wsub {
		varsW = append(varsW, tab.Vars[j])
	}
	askedW := &model.MarginSet{Vars: varsW}
	for _, m := range asked {
		mw := &model.Marginal{Counts: m.Counts}
		for _, j := range m.Vars {
			mw.Vars = append(mw.Vars, slices.Index(wsub, j))
		}
		askedW.Margins = append(askedW.Margins, mw)
	}
	ref, err := cellbounds.Compute(askedW, cellbounds.Settings{Method: cellbounds.IP, Solver: eng})
	if err != nil {
		t.Fatalf("reference over W: %v", err)
	}
	return refDisclosed(pol, mW.Counts, ref.Bounds.Lower, ref.Bounds.Upper)
}

// Issue 44, item 15: --protect-collapsed denied every first request (205
// of 205 in the tester's random run): the table over W of a first request
// is the requested margin itself, whose cells it fixes exactly. A
// collapsed cell is protected when the releases pin it without publishing
// it: the cells of a table over W that a true release (or the request)
// publishes are public by design, and the full cells inside them keep the
// full cells' rule. So on 150 seeded microdata tables (3 or 4 variables
// of 2-3 levels, three policies), every first request is decided with
// ProtectCollapsed exactly as without it (and some are released, 186 of
// 450); three more requests after a released first one (each
// released one appended) are released with ProtectCollapsed exactly when
// the full cells keep their widths (the auditor without it) and the cells
// of the table over W keep theirs by integer bounds computed through a
// second engine (wCellsDisclosed).
func TestProtectCollapsedReleasesFirstRequests(t *testing.T) {
	eng := audit.RefEngine(t)
	cases := 150 // a second in all
	policies := []audit.Policy{{}, audit.DefaultPolicy(), {Small: 2, MinWidth: 2, MinRelWidth: 0.5}}
	var first, firstReleased, second, secondReleased, deniedForW int
	for s := 0; s < cases; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 4415))
		tab := randomTable(r)
		for i := range tab.Counts {
			tab.Counts[i] = []int64{0, 0, 0, 0, 1, 1, 2, 4}[r.IntN(8)]
		}
		pol := policies[s%len(policies)]
		md := datasets.MicrodataFromTable(tab, "case")
		plain, err := audit.NewMicrodata(md, pol, audit.Options{}, audit.MicrodataOptions{})
		if err != nil {
			t.Fatal(err)
		}
		protected, err := audit.NewMicrodata(md, pol, audit.Options{}, audit.MicrodataOptions{ProtectCollapsed: true})
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 3; q++ {
			h := plain.NewHistory()
			req := audit.Request{Margin: randomMargin(r, tab)}
			if q == 2 {
				req.Margin = nil // the whole table: no variable outside W
				for _, v := range tab.Vars {
					req.Margin = append(req.Margin, v.Name)
				}
			}
			dp, err := protected.Decide(h, req)
			if err != nil {
				t.Fatal(err)
			}
			du, err := plain.Decide(h, req)
			if err != nil {
				t.Fatal(err)
			}
			first++
			if dp.Outcome != du.Outcome || !slices.Equal(dp.Counts, du.Counts) {
				t.Fatalf("case %d (policy %s), first request %v: protect collapsed %s, without %s: %s",
					s, pol.Version(), req.Margin, dp.Outcome, du.Outcome, dp.Operator.Explanation)
			}
			if dp.Outcome != audit.Released {
				continue
			}
			firstReleased++
			h.Append(dp)
			for range 3 {
				req2 := audit.Request{Margin: randomMargin(r, tab)}
				dp, err = protected.Decide(h, req2)
				if err != nil {
					t.Fatal(err)
				}
				du, err = plain.Decide(h, req2)
				if err != nil {
					t.Fatal(err)
				}
				if dp.Operator.Implied {
					continue
				}
				second++
				var asked []*model.Marginal
				for _, m := range append([]audit.Release{{Margin: req2.Margin}}, h.Releases...) {
					sub := positions(tab, m.Margin)
					truth, _ := tab.Collapse(sub)
					asked = append(asked, truth)
				}
				badW := wCellsDisclosed(t, eng, tab, asked, pol)
				want := du.Outcome == audit.Released && len(badW) == 0
				if (dp.Outcome == audit.Released) != want {
					t.Fatalf("case %d (policy %s), %v after %d releases: protect collapsed %s, without %s, W-cells the reference disclosed %v: %s",
						s, pol.Version(), req2.Margin, len(h.Releases), dp.Outcome, du.Outcome, badW, dp.Operator.Explanation)
				}
				if dp.Outcome == audit.Released {
					secondReleased++
					h.Append(dp)
				} else if du.Outcome == audit.Released {
					deniedForW++
				}
			}
		}
	}
	t.Logf("first requests: %d, %d released with protect collapsed; later requests: %d, %d released, %d denied for the cells over W alone",
		first, firstReleased, second, secondReleased, deniedForW)
	if firstReleased == 0 || firstReleased == first || secondReleased == 0 || deniedForW == 0 {
		t.Errorf("the cases do not exercise the rule: %d of %d first requests released, %d of %d later requests, %d denied for the cells over W alone",
			firstReleased, first, secondReleased, second, deniedForW)
	}
}

// Issue 44, item 15: a combination of releases that pins a collapsed cell
// is denied with ProtectCollapsed, and for that reason. Records over A, B,
// C (binary) and D (binary, outside every margin): (0,0,0,0) and
// (0,1,1,1). Under the exact rule alone, [AB] and then [AC] are released
// (each publishes its own cells; given both, every cell of the table over
// ABC still ranges over [0, 1]); [BC] would pin the cells (0,0,0) and
// (0,1,1) of the table over ABC at exactly 1 (2x2x2 with the three 2-way
// margins: the table is determined), while the full cells inside them
// stay free in [0, 1] (D splits them). Without ProtectCollapsed [BC] is
// released; with it, denied, the disclosed cells being exactly those two
// collapsed cells. Asked first, the table over ABC itself is released
// with ProtectCollapsed: its cells are published, not pinned.
func TestProtectCollapsedDeniesPinnedCombination(t *testing.T) {
	bin := []string{"0", "1"}
	vars := []model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}, {Name: "D", Levels: bin}}
	counts := make([]int64, 16)
	counts[model.CellIndex(model.Dims(vars), []int{0, 0, 0, 0})] = 1
	counts[model.CellIndex(model.Dims(vars), []int{0, 1, 1, 1})] = 1
	tab, err := model.NewTable(vars, counts)
	if err != nil {
		t.Fatal(err)
	}
	md := datasets.MicrodataFromTable(tab, "pinned")
	exact := audit.Policy{}
	for _, protect := range []bool{false, true} {
		a, err := audit.NewMicrodata(md, exact, audit.Options{}, audit.MicrodataOptions{ProtectCollapsed: protect})
		if err != nil {
			t.Fatal(err)
		}
		h := a.NewHistory()
		for _, m := range [][]string{{"A", "B"}, {"A", "C"}} {
			d, err := a.Decide(h, audit.Request{Margin: m})
			if err != nil {
				t.Fatal(err)
			}
			if d.Outcome != audit.Released {
				t.Fatalf("protect collapsed %v: %v denied: %s", protect, m, d.Operator.Explanation)
			}
			h.Append(d)
		}
		d, err := a.Decide(h, audit.Request{Margin: []string{"B", "C"}})
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: audit.Released, true: audit.Denied}[protect]
		if d.Outcome != want {
			t.Fatalf("protect collapsed %v: [BC] after [AB] [AC]: %s, want %s: %s", protect, d.Outcome, want, d.Operator.Explanation)
		}
		if protect {
			var got []string
			for _, c := range d.Operator.Disclosed {
				if !strings.Contains(c.Label, "collapsed cell") || c.Count != 1 || c.Lower != 1 || c.Upper != 1 {
					t.Errorf("disclosed %+v, want a collapsed cell fixed at 1", c)
				}
				got = append(got, strings.Fields(c.Label)[0])
			}
			slices.Sort(got)
			if fmt.Sprint(got) != "[A=0,B=0,C=0 A=0,B=1,C=1]" {
				t.Errorf("disclosed %v, want the collapsed cells A=0,B=0,C=0 and A=0,B=1,C=1: %s", got, d.Operator.Explanation)
			}
		}
		// The table over ABC asked first: published, not pinned.
		d, err = a.Decide(a.NewHistory(), audit.Request{Margin: []string{"A", "B", "C"}})
		if err != nil {
			t.Fatal(err)
		}
		if d.Outcome != audit.Released {
			t.Errorf("protect collapsed %v: [ABC] first: %s: %s", protect, d.Outcome, d.Operator.Explanation)
		}
	}
}
