package model

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseMarginSpec checks that ParseMarginSpec never panics, that what
// it accepts names distinct known variables in increasing order, that it
// reads back its own output written with ':' and ',', and that every
// error is about a margin specification. vars is a "|"-separated list of
// variable names (made distinct, as a table's are).
func FuzzParseMarginSpec(f *testing.F) {
	for _, s := range []struct{ vars, spec string }{
		{"A|B|C|D|E|F", "B:F,A:B:C:E,A:D:E"},
		{"A|B|C|D|E|F", "BF,ABCE,ADE"},
		{"A|B|C|D|E|F", " BF , ABCE "},
		{"A|B|C|D|E|F", "BF,,A"},
		{"A|B|C|D|E|F", "BZ"},
		{"A|B|C|D|E|F", "BB"},
		{"A|B|C|D|E|F", ""},
		{"A|B|C|D|E|F", "A:"},
		{"age|sex|region", "age:sex,region"},
		{"age|sex|region", "age,sex:sex"},
		{"age|sex|region", "agesex"},
		{"Ä|B", "ÄB"},
		{"", "A"},
		{"a b|c", "a b:c"},
	} {
		f.Add(s.vars, s.spec)
	}
	f.Fuzz(func(t *testing.T, names, spec string) {
		var vars []Variable
		seen := map[string]bool{}
		for _, n := range strings.Split(names, "|") {
			if n != "" && !seen[n] {
				seen[n] = true
				vars = append(vars, Variable{Name: n, Levels: []string{"x"}})
			}
		}
		subs, err := ParseMarginSpec(vars, spec)
		if err != nil {
			if !strings.Contains(err.Error(), "margin") {
				t.Fatalf("error %q does not say it is about a margin specification", err)
			}
			return
		}
		if len(subs) == 0 {
			t.Fatalf("ParseMarginSpec(%q) accepted no margins", spec)
		}
		parts := make([]string, len(subs))
		roundTrip := true
		for i, sub := range subs {
			if len(sub) == 0 {
				t.Fatalf("margin %d of %q is empty", i, spec)
			}
			ns := make([]string, len(sub))
			for k, j := range sub {
				if j < 0 || j >= len(vars) || (k > 0 && sub[k-1] >= j) {
					t.Fatalf("margin %d of %q is %v over %d variables", i, spec, sub, len(vars))
				}
				ns[k] = vars[j].Name
				roundTrip = roundTrip && !strings.ContainsAny(ns[k], ",:") && strings.TrimSpace(ns[k]) == ns[k]
			}
			parts[i] = strings.Join(ns, ":")
		}
		if !roundTrip {
			return // a name that the syntax cannot spell
		}
		back, err := ParseMarginSpec(vars, strings.Join(parts, ","))
		if err != nil || !slices.EqualFunc(back, subs, slices.Equal) {
			t.Fatalf("ParseMarginSpec(%q) = %v; written back as %q it reads %v, %v", spec, subs, strings.Join(parts, ","), back, err)
		}
	})
}
