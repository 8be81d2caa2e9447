package primary

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func mustSet(t *testing.T, spec string) *RuleSet {
	t.Helper()
	rs, err := ParseRuleSet(spec)
	if err != nil {
		t.Fatalf("ParseRuleSet(%q): %v", spec, err)
	}
	return rs
}

func checkResult(t *testing.T, name string, got Result, rules []string, upper, lower float64) {
	t.Helper()
	if got.Primary != (len(rules) > 0) || !slices.Equal(got.Rules, rules) || !near(got.Upper, upper) || !near(got.Lower, lower) {
		t.Errorf("%s = %+v, want rules %q upper %g lower %g", name, got, rules, upper, lower)
	}
}

func TestRuleSetApply(t *testing.T) {
	rs := mustSet(t, "freq:3,p:15,nk:1:85")
	// Single contributor X = 40, hand computation: freq(3) fires with the
	// default 10 % safety range (4); p(15): upper 0.15·40 = 6; nk(1,85):
	// upper 100/85·40 − 40 = 600/85 ≈ 7.06, the most demanding.
	checkResult(t, "single", rs.Apply(Cell{Value: 40, Freq: 1, Top: []float64{40}}),
		[]string{"freq(3)", "p(15)", "nk(1,85)"}, 600.0/85, 600.0/85)
	// The running example 50, 30, 10, 10 (rules_test.go) is safe under all
	// three: 4 ≥ 3 contributors, p(15) upper −12.5, nk(1,85) upper −41.2.
	checkResult(t, "cell100", rs.Apply(cell100), nil, 0, 0)
	// A request makes it primary with the safety range: 10 % of 100.
	c := cell100
	c.Requested = true
	checkResult(t, "requested", rs.Apply(c), []string{"request"}, 10, 10)
	// Empty cells: not primary by default, even requested they are only
	// "request" (with 10 % of 0 = 0).
	checkResult(t, "empty", rs.Apply(Cell{}), nil, 0, 0)
	checkResult(t, "empty requested", rs.Apply(Cell{Requested: true}), []string{"request"}, 0, 0)
	// A cell with contributors and total 0 is not a zero cell: freq(3)
	// fires on its 2 contributors, p and nk do not (R = 0 = 0.15·0).
	checkResult(t, "zero total", rs.Apply(Cell{Freq: 2, Top: []float64{0, 0}}), []string{"freq(3)"}, 0, 0)
}

func TestZeroPolicy(t *testing.T) {
	// zero:protect with an absolute safety range of 5: an empty cell is
	// primary by "zero" with levels max(5, 10 % of 0) = 5.
	rs := mustSet(t, "freq:3,zero:protect,safety:10%,safety:5")
	checkResult(t, "empty", rs.Apply(Cell{}), []string{"zero"}, 5, 5)
	checkResult(t, "empty requested", rs.Apply(Cell{Requested: true}), []string{"request", "zero"}, 5, 5)
	// Not empty: the zero policy does not apply; freq(3) on 2 contributors
	// of X = 200 gets max(5, 20) = 20.
	checkResult(t, "two", rs.Apply(Cell{Value: 200, Freq: 2, Top: []float64{150, 50}}), []string{"freq(3)"}, 20, 20)
	rs = mustSet(t, "freq:3,zero:safe")
	checkResult(t, "empty safe", rs.Apply(Cell{}), nil, 0, 0)
}

func TestHolding(t *testing.T) {
	// Hand computation: X = 100 from 30, 25, 20, 15, 10; the first two
	// belong to one holding, so the holdings contribute 55, 20, 15, 10.
	// nk(1,50): individual 30 ≤ 50, safe; holding 55 > 50, sensitive with
	// upper 100/50·55 − 100 = 10.
	c := Cell{Value: 100, Freq: 5, Top: []float64{30, 25, 20, 15, 10},
		HoldingTop: []float64{55, 20, 15, 10}, HoldingFreq: 4}
	rs := mustSet(t, "nk:1:50")
	checkResult(t, "holding", rs.Apply(c), []string{"holding:nk(1,50)"}, 10, 10)
	rs = mustSet(t, "nk:1:50,holding:off")
	checkResult(t, "holding off", rs.Apply(c), nil, 0, 0)
	// freq(5) at the holding level: 5 contributors pass, 4 holdings do
	// not: "holding:freq(5)" with 10 % of 100.
	rs = mustSet(t, "freq:5")
	checkResult(t, "holding freq", rs.Apply(c), []string{"holding:freq(5)"}, 10, 10)
	// Number of holdings unknown: no holding-level frequency rule.
	c.HoldingFreq = 0
	checkResult(t, "holding freq unknown", rs.Apply(c), nil, 0, 0)
}

// TestHoldingMonotone checks on seeded random cells the claim of doc.go:
// merging contributors into holdings never makes a rule's upper level
// smaller, so a cell primary at the individual level is primary at the
// holding level.
func TestHoldingMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 2))
	rules := []Rule{PRule(15), NKRule(1, 85), NKRule(2, 90), PQRule(20, 60)}
	for it := 0; it < 2000; it++ {
		f := 1 + rng.IntN(8)
		xs := make([]float64, f)
		hold := map[int]float64{}
		var x float64
		for i := range xs {
			xs[i] = float64(1 + rng.IntN(500))
			x += xs[i]
			hold[rng.IntN(f)] += xs[i]
		}
		var hs []float64
		for _, v := range hold {
			hs = append(hs, v)
		}
		desc := func(a, b float64) int { return cmpf(b, a) }
		slices.SortFunc(xs, desc)
		slices.SortFunc(hs, desc)
		for _, r := range rules {
			ind := r.apply(xs, f, x, DefaultSafety)
			hol := r.apply(hs, len(hs), x, DefaultSafety)
			if hol.Upper < ind.Upper-1e-9*x || (ind.Sensitive && !hol.Sensitive) {
				t.Fatalf("%s: individual %v → %+v, holdings %v → %+v", r.Name(), xs, ind, hs, hol)
			}
		}
	}
}

func TestApplyPanicsOnMalformedCell(t *testing.T) {
	rs := mustSet(t, "p:15")
	for _, c := range []Cell{
		{Value: 5, Freq: 2, Top: []float64{2, 3}}, // not sorted
		{Value: 5, Freq: 3, Top: []float64{3}},    // fewer than the 2 p needs
		{Value: 5, Freq: -1},                      // negative frequency
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Apply(%+v) did not panic", c)
				}
			}()
			rs.Apply(c)
		}()
	}
}

func TestValidate(t *testing.T) {
	for _, r := range []Rule{
		FreqRule(0), NKRule(0, 85), NKRule(1, 0), NKRule(1, 101), NKRule(1, math.NaN()),
		PRule(0), PRule(-5), PRule(100.5), PRule(math.Inf(1)),
		PQRule(50, 15), PQRule(15, 101), PQRule(0, 50), {},
	} {
		if err := r.Validate(); !errors.Is(err, ErrParam) {
			t.Errorf("%s: Validate = %v, want ErrParam", r.Name(), err)
		}
		if _, err := NewRuleSet([]Rule{PRule(15), r}, nil); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "rule 2") {
			t.Errorf("NewRuleSet with %s: %v, want ErrParam naming rule 2", r.Name(), err)
		}
	}
	for _, r := range []Rule{FreqRule(1), NKRule(1, 100), PRule(100), PQRule(15, 15), PQRule(15, 100)} {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: Validate = %v", r.Name(), err)
		}
	}
	if _, err := NewRuleSet(nil, &Settings{Safety: &SafetyRange{Percent: -1}}); !errors.Is(err, ErrParam) {
		t.Errorf("negative safety: %v", err)
	}
	if _, err := NewRuleSet(nil, &Settings{Zero: 7}); !errors.Is(err, ErrParam) {
		t.Errorf("zero policy 7: %v", err)
	}
}

func TestParse(t *testing.T) {
	rules, s, err := Parse(" freq:3 , p:15%,nk:1:85,pq:15:50,zero:protect,safety:12.5%,safety:5,holding:off")
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{FreqRule(3), PRule(15), NKRule(1, 85), PQRule(15, 50)}
	if !slices.Equal(rules, want) {
		t.Errorf("rules %v, want %v", rules, want)
	}
	if s.Zero != ZeroProtect || !s.NoHolding || s.Safety == nil || *s.Safety != (SafetyRange{Percent: 12.5, Absolute: 5}) {
		t.Errorf("settings %+v", *s)
	}
	// safety:0% is an explicit zero range (the Handbook's recommendation
	// for a minimum frequency rule alone), not the default.
	if got := mustSet(t, "freq:3,safety:0%").Apply(Cell{Value: 200, Freq: 2, Top: []float64{150, 50}}); !got.Primary || got.Upper != 0 {
		t.Errorf("safety:0%%: %+v", got)
	}
	// Spec writes a set back so that Parse reads the same set.
	for _, spec := range []string{"freq:3,p:15,nk:1:85,pq:15:50,zero:protect,safety:10%",
		"nk:2:90,nk:1:75,safety:5,holding:off", "p:20"} {
		rs := mustSet(t, spec)
		back := mustSet(t, rs.Spec())
		a, b := rs.Settings(), back.Settings()
		if !slices.Equal(rs.Rules(), back.Rules()) || a.Zero != b.Zero || a.NoHolding != b.NoHolding || *a.Safety != *b.Safety {
			t.Errorf("%q → %q does not read back", spec, rs.Spec())
		}
	}
	if got := mustSet(t, "p:20").Spec(); got != "p:20,zero:safe,safety:10%" {
		t.Errorf("Spec with defaults = %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		spec, item string // item: the text the message must quote
		param      bool   // the error also wraps ErrParam
	}{
		{"freq:0", `item 1 "freq:0"`, true},
		{"freq:3,p:abc", `item 2 "p:abc"`, false},
		{"freq:3.5", `item 1 "freq:3.5"`, false},
		{"nk:1", `item 1 "nk:1"`, false},
		{"nk:1:85:2", `item 1 "nk:1:85:2"`, false},
		{"p:15,pq:50:15", `item 2 "pq:50:15"`, true},
		{"p:150", `item 1 "p:150"`, true},
		{"zero:maybe", `item 1 "zero:maybe"`, false},
		{"zero:safe,zero:protect", `item 2 "zero:protect"`, false},
		{"holding:yes", `item 1 "holding:yes"`, false},
		{"foo:3", `item 1 "foo:3"`, false},
		{"freq:3,,p:15", `item 2 ""`, false},
		{"safety:-5%", `item 1 "safety:-5%"`, true},
		{"safety:5,safety:6", `item 2 "safety:6"`, false},
		{"", "empty specification", false},
	} {
		_, _, err := Parse(tc.spec)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.item) || errors.Is(err, ErrParam) != tc.param {
			t.Errorf("Parse(%q) = %v, want ErrSpec naming %s (ErrParam %v)", tc.spec, err, tc.item, tc.param)
		}
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		r    Rule
		name string
	}{
		{FreqRule(3), "freq(3)"}, {PRule(15), "p(15)"}, {NKRule(1, 85), "nk(1,85)"},
		{PQRule(15, 50), "pq(15,50)"}, {PRule(12.5), "p(12.5)"},
	} {
		if got := tc.r.Name(); got != tc.name {
			t.Errorf("Name = %q, want %q", got, tc.name)
		}
	}
	if KindPQ.String() != "pq" || Kind(9).String() != "Kind(9)" || ZeroProtect.String() != "protect" {
		t.Error("String")
	}
}

func ExampleRuleSet_Apply() {
	rs, err := ParseRuleSet("freq:3,p:15,nk:1:85")
	if err != nil {
		panic(err)
	}
	// One firm of 40 in a cell of 46 with two contributors: the second
	// (6) learns the first exactly.
	res := rs.Apply(Cell{Value: 46, Freq: 2, Top: []float64{40, 6}})
	fmt.Println(res.Primary, res.Rules)
	fmt.Printf("upper %.2f lower %.2f\n", res.Upper, res.Lower)
	// Output:
	// true [freq(3) p(15) nk(1,85)]
	// upper 6.00 lower 6.00
}
