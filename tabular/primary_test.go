package tabular

import (
	"errors"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/tabular/primary"
)

// primaryTable is a magnitude table over a flat sector (a, b, c) with
// respondents a: 100, 10, 5; b: 40, 30; c: none (empty).
func primaryTable(t *testing.T, s *BuilderSettings) *Table {
	t.Helper()
	h, err := NewFlat("Total", []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		s = &BuilderSettings{Magnitude: true}
	}
	b := NewBuilder([]Dimension{{"sector", h}}, s)
	for i, r := range []struct {
		leaf  int
		value float64
	}{{1, 100}, {1, 10}, {1, 5}, {2, 40}, {2, 30}} {
		b.Add([]int{r.leaf}, r.value, 1, string(rune('p'+i)), "")
	}
	return b.Table()
}

func ruleSet(t *testing.T, spec string) *primary.RuleSet {
	t.Helper()
	rs, err := primary.ParseRuleSet(spec)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestApplyPrimary(t *testing.T) {
	tab := primaryTable(t, nil)
	sum, err := ApplyPrimary(tab, ruleSet(t, "freq:3,p:15"))
	if err != nil {
		t.Fatal(err)
	}
	// Hand computations (doc.go of package primary):
	//  a: X = 115, F = 3, x1 = 100, x2 = 10, R = 5 < 0.15·100 = 15: p(15)
	//     fires with U = 15 − 5 = 10, L = U (≤ X); freq(3) does not (F = 3).
	//  b: X = 70, F = 2 < 3: freq(3) with the default safety range 10 % of
	//     70 = 7; R = 0 < 0.15·40 = 6: p(15) with U = 6. Levels: the maxima, 7.
	//  c: empty, no rule. Total: X = 185, F = 5, R = 185 − 100 − 40 = 45 ≥ 15: safe.
	for _, c := range []struct {
		code         string
		status       Status
		rule         string
		upper, lower float64
	}{
		{"a", Primary, "p(15)", 10, 10},
		{"b", Primary, "freq(3)+p(15)", 7, 7},
		{"c", Empty, "", 0, 0},
		{"Total", Safe, "", 0, 0},
	} {
		i, _ := tab.Lookup(c.code)
		got := tab.Cells[i]
		if got.Status != c.status || got.Rule != c.rule || !near(got.Upper, c.upper) || !near(got.Lower, c.lower) {
			t.Errorf("cell %s: %v %q U %v L %v, want %v %q U %v L %v", c.code, got.Status, got.Rule, got.Upper, got.Lower,
				c.status, c.rule, c.upper, c.lower)
		}
	}
	if sum.Cells != 4 || sum.Primary != 2 || sum.Empty != 1 || sum.ByRule["p(15)"] != 2 || sum.ByRule["freq(3)"] != 1 || len(sum.MustPublish) != 0 {
		t.Errorf("summary %+v", sum)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestApplyPrimaryMustPublishAndZero(t *testing.T) {
	tab := primaryTable(t, nil)
	ib, _ := tab.Lookup("b")
	tab.Cells[ib].Status = MustPublish
	// safety:5 is an absolute range of 5: cell c (empty, X = 0) gets 5.
	sum, err := ApplyPrimary(tab, ruleSet(t, "freq:3,zero:protect,safety:5"))
	if err != nil {
		t.Fatal(err)
	}
	if c := tab.Cells[ib]; c.Status != MustPublish || c.Rule != "freq(3)" || !slices.Equal(sum.MustPublish, []int{ib}) {
		t.Errorf("must-publish cell b: %+v, summary %+v", c, sum)
	}
	ic, _ := tab.Lookup("c")
	if c := tab.Cells[ic]; c.Status != Primary || c.Rule != "zero" || c.Upper != 5 || c.Lower != 5 {
		t.Errorf("empty cell c under zero:protect: %+v", c)
	}
	if sum.Primary != 1 || sum.Empty != 0 {
		t.Errorf("summary %+v", sum)
	}
}

func TestApplyPrimaryErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		set  *BuilderSettings
		spec string
	}{
		{"concentration on frequency table", &BuilderSettings{}, "freq:3,p:15"},
		{"concentration on weighted table", &BuilderSettings{Magnitude: true, Weighted: true}, "nk:1:80"},
		{"more top contributions than kept", &BuilderSettings{Magnitude: true, TopN: 2}, "nk:3:80"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab := primaryTable(t, c.set)
			before := slices.Clone(tab.Cells)
			_, err := ApplyPrimary(tab, ruleSet(t, c.spec))
			if !errors.Is(err, ErrPrimary) {
				t.Fatalf("error %v, want ErrPrimary", err)
			}
			for i := range before {
				if before[i].Status != tab.Cells[i].Status || before[i].Rule != tab.Cells[i].Rule {
					t.Fatalf("cell %d changed on error", i)
				}
			}
		})
	}
	// The frequency rule alone applies to frequency and weighted tables.
	for _, set := range []*BuilderSettings{{}, {Magnitude: true, Weighted: true}} {
		tab := primaryTable(t, set)
		if sum, err := ApplyPrimary(tab, ruleSet(t, "freq:3")); err != nil || sum.Primary != 1 {
			t.Errorf("freq:3 on %+v: %+v, %v", set, sum, err)
		}
	}
}
