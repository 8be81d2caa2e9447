package audit_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/frechet"
)

// separatorHistories are the released margins of the cases of
// TestSeparatedAgreesWithTable, over the variables A-E: chains and stars
// (decomposable with the requests below) and the triangle [AB] [AC] [BC],
// whose clique ABC is not released (reducible, not decomposable, once a
// margin hangs off it at a separator).
var separatorHistories = [][]string{
	{"A:B", "B:C"},
	{"A:B", "B:C", "C:D"},
	{"A:B", "A:C", "A:D"},
	{"A:B:C", "C:D"},
	{"A:B", "A:C", "B:C"},
	{"A:B", "A:C", "B:C", "C:D"},
	{"A:B", "B:C", "A:C", "C:D", "D:E"},
	{"A:B:C", "B:C:D"},
}

// separatorRequests are the requests (most of them hang a margin off the
// history at one or two variables).
var separatorRequests = []string{"C:D", "D:E", "A:E", "B:D", "C:E", "D", "A:D:E", "B:E", "C:D:E", "A:B:E"}

// The microdata auditor split at clique separators decides as the
// full-table auditor does on the cross-classification of the same records,
// and as the policy applied to integer bounds computed by IP through a
// second engine (refDisclosed): 120 seeded cases (60 with -short) of
// histories with separators (decomposable, and reducible but not
// decomposable), 3 requests each, with 0 or 1 extra variables outside
// every margin (with none, the requests over all variables are checked
// jointly; with one, piece by piece), under three policies. Each history
// is released without the auditor (it need not be safe); the requests are
// decided one after another, each appended to the history. A third
// auditor, with 1 ms per decision and no cache, must never release what
// the reference denies (its evidence is mostly cut short). Every denied
// request is asked again in simulate mode: the simulated margin must fit
// an integer table together with every release (a table drawn over the
// full table's variables). With ProtectCollapsed, the cells of the table
// over W are protected too (none of these histories and requests
// publishes it), and the reference adds their IP bounds.
func TestSeparatedAgreesWithTable(t *testing.T) {
	eng := audit.RefEngine(t)
	cases := 120
	if testing.Short() {
		cases = 60
	}
	policies := []audit.Policy{audit.DefaultPolicy(), {Small: 2, MinWidth: 2, MinRelWidth: 0.5}, {}}
	var hurriedReleased, simulatedOnPieces, protectedOnPieces, searchedPieces, searchDecided, searchUndecided, searchDenied int
	var decisions, pieces, decomposable, reducible, viewDecomposable, viewReducible, joint, perPiece, released, denied, deniedOnPieces int
	for s := 0; s < cases; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 29))
		base := []string{"A", "B", "C", "D", "E"}
		var vars []model.Variable
		for _, n := range base {
			v := model.Variable{Name: n}
			for l := 0; l < 2+r.IntN(4)/3; l++ { // 2 levels, sometimes 3
				v.Levels = append(v.Levels, fmt.Sprint(l))
			}
			vars = append(vars, v)
		}
		if s%2 == 1 {
			vars = append(vars, model.Variable{Name: "X", Levels: []string{"0", "1"}})
		}
		counts := make([]int64, model.NumCells(model.Dims(vars)))
		for i := range counts {
			counts[i] = []int64{0, 0, 0, 0, 0, 1, 1, 2}[r.IntN(8)]
		}
		counts[r.IntN(len(counts))]++
		tab, err := model.NewTable(vars, counts)
		if err != nil {
			t.Fatal(err)
		}
		pol := policies[(s/2)%len(policies)]
		full, micro := fullAndMicro(t, tab, pol)
		md := micro.Microdata()
		simPol := pol
		simPol.AllowSimulate = true
		simulating, err := audit.NewMicrodata(md, simPol, audit.Options{}, audit.MicrodataOptions{})
		if err != nil {
			t.Fatal(err)
		}
		protected, err := audit.NewMicrodata(md, pol, audit.Options{}, audit.MicrodataOptions{ProtectCollapsed: true})
		if err != nil {
			t.Fatal(err)
		}
		// The same auditor with 1 ms per decision: the pieces' evidence is
		// mostly cut short (trivial bounds, the true table, local moves),
		// and whatever it decides must never release what the reference
		// denies.
		hurried, err := audit.NewMicrodata(md, pol, audit.Options{TimeLimit: time.Millisecond, FromScratch: true}, audit.MicrodataOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The same auditor without the local moves before the search:
		// every cell the view leaves open goes to the neighbourhood
		// search and the whole table's programs on the pieces (which the
		// moves rarely leave to them on tables this small).
		searching, err := audit.NewMicrodata(md, pol, audit.WithoutFirstMoves(audit.Options{}), audit.MicrodataOptions{})
		if err != nil {
			t.Fatal(err)
		}
		h := audit.NewHistory(tab)
		for _, spec := range separatorHistories[r.IntN(len(separatorHistories))] {
			names := strings.Split(spec, ":")
			m, _ := tab.Collapse(positions(tab, names))
			h.Releases = append(h.Releases, audit.Release{Margin: names, Counts: m.Counts})
		}
		for q := 0; q < 3; q++ {
			req := audit.Request{Margin: strings.Split(separatorRequests[r.IntN(len(separatorRequests))], ":")}
			df, err := full.Decide(h, req)
			if err != nil {
				t.Fatalf("case %d req %d %v: full table: %v", s, q, req.Margin, err)
			}
			dm, err := micro.Decide(h, req)
			if err != nil {
				t.Fatalf("case %d req %d %v: microdata: %v", s, q, req.Margin, err)
			}
			if df.Outcome != dm.Outcome || !slices.Equal(df.Counts, dm.Counts) {
				t.Fatalf("case %d req %d %v (policy %s): full table %s, microdata %s\nfull: %+v\nmicro: %+v",
					s, q, req.Margin, pol.Version(), df.Outcome, dm.Outcome, df.Operator, dm.Operator)
			}
			if len(df.Operator.Undecided) > 0 || len(dm.Operator.Undecided) > 0 {
				t.Errorf("case %d req %d: undecided cells on a small table (full %d, microdata %d)", s, q, len(df.Operator.Undecided), len(dm.Operator.Undecided))
			}
			decisions++
			if dm.Operator.Implied {
				h.Append(df)
				continue
			}
			// The IP reference on the full table.
			asked := &model.MarginSet{Vars: tab.Vars}
			for _, rel := range h.Releases {
				sub := positions(tab, rel.Margin)
				slices.Sort(sub)
				if _, ok := asked.MarginalOf(sub); !ok {
					asked.Margins = append(asked.Margins, &model.Marginal{Vars: sub, Counts: rel.Counts})
				}
			}
			view := &model.MarginSet{Vars: tab.Vars, Margins: slices.Clone(asked.Margins)}
			sub := positions(tab, req.Margin)
			slices.Sort(sub)
			truth, _ := tab.Collapse(sub)
			if _, ok := asked.MarginalOf(sub); !ok {
				asked.Margins = append(asked.Margins, truth)
			}
			ref, err := cellbounds.Compute(asked, cellbounds.Settings{Method: cellbounds.IP, Solver: eng})
			if err != nil {
				t.Fatalf("case %d req %d: reference: %v", s, q, err)
			}
			bad := refDisclosed(pol, tab.Counts, ref.Bounds.Lower, ref.Bounds.Upper)
			// With ProtectCollapsed the cells of the table over W (the
			// variables of the history and the request) are protected too
			// unless a margin publishes that table: the reference adds the
			// policy applied to their IP bounds on the collapsed table
			// (wCellsDisclosed).
			dp, err := protected.Decide(h, req)
			if err != nil {
				t.Fatalf("case %d req %d %v: protect collapsed: %v", s, q, req.Margin, err)
			}
			badW := wCellsDisclosed(t, eng, tab, asked.Margins, pol)
			if (dp.Outcome == audit.Released) != (len(bad) == 0 && len(badW) == 0) {
				t.Fatalf("case %d req %d %v (policy %s): protect collapsed %s, IP reference disclosed full cells %v, W-cells %v: %s",
					s, q, req.Margin, pol.Version(), dp.Outcome, bad, badW, dp.Operator.Explanation)
			}
			if strings.Contains(dp.Operator.Explanation, "split at the separators") {
				protectedOnPieces++
			}
			dh, err := hurried.Decide(h, req)
			if err != nil {
				t.Fatalf("case %d req %d %v: 1 ms: %v", s, q, req.Margin, err)
			}
			if dh.Outcome == audit.Released && len(bad) > 0 {
				t.Fatalf("case %d req %d %v (policy %s): released within 1 ms, IP reference disclosed cells %v: %s",
					s, q, req.Margin, pol.Version(), bad, dh.Operator.Explanation)
			}
			if dh.Outcome == audit.Released {
				hurriedReleased++
			}
			ds, err := searching.Decide(h, req)
			if err != nil {
				t.Fatalf("case %d req %d %v: without first moves: %v", s, q, req.Margin, err)
			}
			if ds.Outcome == audit.Released && len(bad) > 0 {
				t.Fatalf("case %d req %d %v (policy %s): released without first moves, IP reference disclosed cells %v: %s",
					s, q, req.Margin, pol.Version(), bad, ds.Operator.Explanation)
			}
			if ds.Outcome != audit.Released && len(bad) == 0 && len(ds.Operator.Undecided) == 0 {
				t.Fatalf("case %d req %d %v (policy %s): disclosure proven without first moves, none by the IP reference: %s",
					s, q, req.Margin, pol.Version(), ds.Operator.Explanation)
			}
			if strings.Contains(ds.Operator.Explanation, "split at the separators") && strings.Contains(ds.Operator.Method, "search") {
				searchedPieces++
				if ds.Operator.Evidence.Search > 0 {
					searchDecided++
				}
				if len(ds.Operator.Undecided) > 0 {
					searchUndecided++
				}
				if len(bad) > 0 {
					searchDenied++
				}
			}
			if (dm.Outcome == audit.Released) != (len(bad) == 0) {
				t.Fatalf("case %d req %d %v (policy %s): microdata %s, IP reference disclosed cells %v: %s",
					s, q, req.Margin, pol.Version(), dm.Outcome, bad, dm.Operator.Explanation)
			}
			if strings.Contains(dm.Operator.Explanation, "split at the separators") {
				pieces++
				if frechet.Decomposable(asked) {
					decomposable++
				} else {
					reducible++
				}
				if frechet.Decomposable(view) {
					viewDecomposable++
				} else {
					viewReducible++
				}
				if dm.Outcome != audit.Released {
					deniedOnPieces++
				}

				covered := 0
				for j := range tab.Vars {
					for _, m := range asked.Margins {
						if slices.Contains(m.Vars, j) {
							covered++
							break
						}
					}
				}
				if covered == len(tab.Vars) { // no variable outside W
					joint++
				} else {
					perPiece++
				}
			}
			if dm.Outcome == audit.Released {
				released++
			} else {
				denied++
				// In simulate mode: a simulated margin that some integer
				// table has together with every release (the check draws
				// one over the full table).
				sreq := req
				sreq.Mode, sreq.Seed = audit.ModeSimulate, uint64(q)
				ds, err := simulating.Decide(h, sreq)
				if err != nil {
					t.Fatalf("case %d req %d %v: simulate: %v", s, q, req.Margin, err)
				}
				if ds.Outcome != audit.Simulated || !ds.Simulated {
					t.Fatalf("case %d req %d %v: simulate mode gave %s: %s", s, q, req.Margin, ds.Outcome, ds.Operator.Explanation)
				}
				check := &model.MarginSet{Vars: tab.Vars, Margins: append(slices.Clone(view.Margins), &model.Marginal{Vars: sub, Counts: ds.Counts})}
				if _, err := audit.Simulate(check, 1, "", 0); err != nil {
					t.Fatalf("case %d req %d %v: the simulated margin %v fits no table with the releases: %v (%s)", s, q, req.Margin, ds.Counts, err, ds.Operator.Explanation)
				}
				if strings.Contains(ds.Operator.Explanation, "and its separators' margins") {
					simulatedOnPieces++
				}
			}
			h.Append(df)
		}
	}
	t.Logf("%d decisions, %d on pieces (view and request: %d decomposable, %d reducible only; view alone: %d decomposable, %d not; %d checked jointly, %d piece by piece; %d denied); %d released, %d denied in all",
		decisions, pieces, decomposable, reducible, viewDecomposable, viewReducible, joint, perPiece, deniedOnPieces, released, denied)
	t.Logf("within 1 ms per decision: %d released; simulate mode: %d simulated over pieces; protect collapsed: %d decided on pieces; without first moves: %d decisions searched on pieces, %d with cells the search decided, %d left undecided, %d denied by the reference",
		hurriedReleased, simulatedOnPieces, protectedOnPieces, searchedPieces, searchDecided, searchUndecided, searchDenied)
	want := 200
	if testing.Short() {
		want = 100
	}
	if searchedPieces == 0 || searchDecided == 0 {
		t.Errorf("the neighbourhood search decided no piece: %d decisions searched on pieces, %d with cells it decided", searchedPieces, searchDecided)
	}
	if pieces < want || decomposable == 0 || reducible == 0 || viewDecomposable == 0 || viewReducible == 0 || simulatedOnPieces == 0 || protectedOnPieces == 0 || joint == 0 || perPiece == 0 || released == 0 || deniedOnPieces == 0 {
		t.Errorf("the cases do not exercise the split: %d decisions on pieces (want %d), %d decomposable, %d reducible only, %d joint, %d per piece, %d released, %d denied on pieces",
			pieces, want, decomposable, reducible, joint, perPiece, released, deniedOnPieces)
	}
}
