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

// randomMarginOf draws a margin over 1-3 of the variables among names.
func randomMarginOf(r *rand.Rand, names []string) []string {
	k := 1 + r.IntN(min(3, len(names)))
	p := r.Perm(len(names))[:k]
	out := make([]string, k)
	for i, j := range p {
		out[i] = names[j]
	}
	return out
}

// The microdata auditor (the table over the history's and the request's
// variables, collapsed from the records) decides every request as the
// full-table auditor does on the cross-classification of the same
// records: 200 seeded sequences of 4 requests on small tables whose
// requests leave one or more variables out (or not), half of them after a
// release made without the auditor, under three policies.
func TestMicrodataAgreesWithTable(t *testing.T) {
	seqs := 200
	if testing.Short() {
		seqs = 40
	}
	policies := []audit.Policy{audit.DefaultPolicy(), {Small: 2, MinWidth: 2, MinRelWidth: 0.5}, {Small: 0, MinWidth: 0}}
	var released, denied, split, joint int
	for s := 0; s < seqs; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 25))
		k := 4 + r.IntN(2)
		vars := make([]model.Variable, k)
		for i := range vars {
			vars[i].Name = string(rune('A' + i))
			for l := 0; l < 2+r.IntN(2); l++ {
				vars[i].Levels = append(vars[i].Levels, fmt.Sprint(l))
			}
		}
		counts := make([]int64, model.NumCells(model.Dims(vars)))
		for i := range counts {
			counts[i] = []int64{0, 0, 1, 1, 2, 4}[r.IntN(6)]
		}
		counts[r.IntN(len(counts))]++ // never an empty table
		tab, err := model.NewTable(vars, counts)
		if err != nil {
			t.Fatal(err)
		}
		pol := policies[s%len(policies)]
		full, micro := fullAndMicro(t, tab, pol)
		// Requests over the first k-2 or k-1 variables (the others are
		// extra variables of the full table), or over all of them.
		var names []string
		for _, v := range vars[:[]int{k - 2, k - 1, k}[r.IntN(3)]] {
			names = append(names, v.Name)
		}
		h := audit.NewHistory(tab)
		if r.IntN(2) == 0 {
			// A release made without the auditor (the history need not be
			// safe): the decisions must still agree.
			sub := positions(tab, randomMarginOf(r, names))
			slices.Sort(sub)
			m, _ := tab.Collapse(sub)
			var mn []string
			for _, j := range sub {
				mn = append(mn, vars[j].Name)
			}
			h.Releases = append(h.Releases, audit.Release{Margin: mn, Counts: m.Counts})
		}
		for q := 0; q < 4; q++ {
			req := audit.Request{Margin: randomMarginOf(r, names)}
			df, err := full.Decide(h, req)
			if err != nil {
				t.Fatalf("seq %d req %d %v: full table: %v", s, q, req.Margin, err)
			}
			dm, err := micro.Decide(h, req)
			if err != nil {
				t.Fatalf("seq %d req %d %v: microdata: %v", s, q, req.Margin, err)
			}
			if df.Outcome != dm.Outcome || !slices.Equal(df.Counts, dm.Counts) || !slices.Equal(df.Margin, dm.Margin) {
				t.Fatalf("seq %d req %d %v (policy %s): full table %s %v, microdata %s %v\nfull: %+v\nmicro: %+v",
					s, q, req.Margin, pol.Version(), df.Outcome, df.Counts, dm.Outcome, dm.Counts, df.Operator, dm.Operator)
			}
			if len(df.Operator.Undecided) > 0 || len(dm.Operator.Undecided) > 0 {
				t.Errorf("seq %d req %d: undecided cells on a small table (full %d, microdata %d)", s, q, len(df.Operator.Undecided), len(dm.Operator.Undecided))
			}
			if df.Outcome == audit.Released {
				released++
			} else {
				denied++
			}
			if strings.Contains(dm.Operator.Explanation, "split at the separators") {
				split++
			}
			if strings.Contains(dm.Operator.Explanation, "the pieces joined") {
				joint++
			}
			h.Append(df)
		}
	}
	t.Logf("%d released, %d denied; %d decided on pieces, %d denied by their joint check", released, denied, split, joint)
	if released == 0 || denied == 0 || split == 0 {
		t.Errorf("the sequences do not exercise both outcomes: %d released, %d denied", released, denied)
	}
}

// lpIPTable is a 2x2x2x2 table of five ones whose six 2-way margins fix
// each of the five at exactly 1 in every integer table, while the LP
// relaxation lets each of them reach 0 (checked by the test: LP bounds
// [0, 1], IP bounds [1, 1]; found by enumerating the 0/1 tables with five
// ones). Cells in row-major order, A slowest: 0000, 0111, 1001, 1010, 1100.
var lpIPTable = []int64{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0}

// fullAndMicro returns the full-table auditor of tab and the microdata
// auditor of its records (one per counted unit), both under pol.
func fullAndMicro(t *testing.T, tab *model.Table, pol audit.Policy) (full, micro *audit.Auditor) {
	t.Helper()
	full, err := audit.New(tab, pol, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	micro, err = audit.NewMicrodata(datasets.MicrodataFromTable(tab, "case"), pol, audit.Options{}, audit.MicrodataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return full, micro
}

// lpIPModelTable is lpIPTable over four binary variables A-D.
func lpIPModelTable(t *testing.T) *model.Table {
	t.Helper()
	base := make([]model.Variable, 4)
	for i := range base {
		base[i] = model.Variable{Name: string(rune('A' + i)), Levels: []string{"0", "1"}}
	}
	tab, err := model.NewTable(base, lpIPTable)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// The five cells of lpIPTable are disclosed by its six 2-way margins, and
// the auditor denies the sixth margin after the five others whatever the
// number of extra variables of the microdata (0 to 3, 2-3 levels each,
// spread at random over the records): under the default policy the full
// cells inside the determined cells have the bounds [0, 1], narrower than
// min_width = 3; under the exact rule alone (small = min_width = 0) the
// full cells inside are not determined once an extra variable splits
// them ([0, 1]: both the full-table and the microdata auditor release),
// and ProtectCollapsed, which applies the policy to the collapsed cells,
// denies at every padding.
func TestMicrodataLPvsIP(t *testing.T) {
	tab := lpIPModelTable(t)
	base := tab.Vars
	var subs [][]int
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			subs = append(subs, []int{i, j})
		}
	}
	ms, err := tab.Released(subs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Compare: []string{cellbounds.LP, cellbounds.IP}})
	if err != nil {
		t.Fatal(err)
	}
	lp, ip := res.Compare[cellbounds.LP].Bounds, res.Compare[cellbounds.IP].Bounds
	for c, n := range lpIPTable {
		if n == 1 && (lp.Lower[c] > 1e-6 || ip.Lower[c] < 1-1e-6 || ip.Upper[c] > 1+1e-6) {
			t.Fatalf("cell %d: LP [%g, %g], IP [%g, %g], want LP [0, 1] and IP [1, 1]", c, lp.Lower[c], lp.Upper[c], ip.Lower[c], ip.Upper[c])
		}
	}
	exact := audit.Policy{}
	for pad := 0; pad <= 3; pad++ {
		r := rand.New(rand.NewPCG(uint64(pad), 4))
		vars := slices.Clone(base)
		for e := 0; e < pad; e++ {
			v := model.Variable{Name: fmt.Sprintf("X%d", e)}
			for l := 0; l < 2+r.IntN(2); l++ {
				v.Levels = append(v.Levels, fmt.Sprint(l))
			}
			vars = append(vars, v)
		}
		// Spread every unit of the base table over the extra variables.
		dims := model.Dims(vars)
		counts := make([]int64, model.NumCells(dims))
		lv := make([]int, len(vars))
		for c, n := range lpIPTable {
			for range n {
				model.CellLevels(model.Dims(base), c, lv[:4])
				for e := 4; e < len(vars); e++ {
					lv[e] = r.IntN(dims[e])
				}
				counts[model.CellIndex(dims, lv)]++
			}
		}
		full, err := model.NewTable(vars, counts)
		if err != nil {
			t.Fatal(err)
		}
		md := datasets.MicrodataFromTable(full, "padded")
		h := audit.NewHistory(full)
		for _, s := range subs[:5] {
			m, _ := full.Collapse(s)
			h.Releases = append(h.Releases, audit.Release{Margin: []string{vars[s[0]].Name, vars[s[1]].Name}, Counts: m.Counts})
		}
		req := audit.Request{Margin: []string{"C", "D"}}
		for _, tc := range []struct {
			pol     audit.Policy
			protect bool
			want    string
		}{
			{audit.DefaultPolicy(), false, audit.Denied},
			{exact, true, audit.Denied},
			{exact, false, map[bool]string{true: audit.Denied, false: audit.Released}[pad == 0]},
		} {
			a, err := audit.NewMicrodata(md, tc.pol, audit.Options{}, audit.MicrodataOptions{ProtectCollapsed: tc.protect})
			if err != nil {
				t.Fatal(err)
			}
			d, err := a.Decide(h, req)
			if err != nil {
				t.Fatal(err)
			}
			if d.Outcome != tc.want || (tc.want == audit.Denied && len(d.Operator.Disclosed) == 0) {
				t.Errorf("padding %d, policy %s, protect collapsed %v: %s (disclosed %d, undecided %d), want %s: %s",
					pad, tc.pol.Version(), tc.protect, d.Outcome, len(d.Operator.Disclosed), len(d.Operator.Undecided), tc.want, d.Operator.Explanation)
			}
			if tc.protect {
				continue
			}
			// The full-table auditor agrees.
			fa, err := audit.New(full, tc.pol, audit.Options{})
			if err != nil {
				t.Fatal(err)
			}
			df, err := fa.Decide(h, req)
			if err != nil {
				t.Fatal(err)
			}
			if df.Outcome != d.Outcome {
				t.Errorf("padding %d, policy %s: full table %s, microdata %s", pad, tc.pol.Version(), df.Outcome, d.Outcome)
			}
		}
	}
}

// A request whose collapsed table exceeds MaxCells is denied as
// undecided, never released.
func TestMicrodataTooLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	tab := randomTable(r)
	md := datasets.MicrodataFromTable(tab, "t")
	a, err := audit.NewMicrodata(md, audit.DefaultPolicy(), audit.Options{}, audit.MicrodataOptions{MaxCells: 2})
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Decide(a.NewHistory(), audit.Request{Margin: []string{"A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Outcome != audit.Denied || len(d.Operator.Undecided) != 1 || !strings.Contains(d.Operator.Explanation, "undecided") {
		t.Errorf("got %s: %+v", d.Outcome, d.Operator)
	}
	if _, err := a.Decide(a.NewHistory(), audit.Request{Margin: []string{"Z"}}); err == nil {
		t.Error("an unknown variable was accepted")
	}
}
