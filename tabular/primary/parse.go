package primary

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a rule specification as given on a command line: items
// separated by commas, each a keyword and its parameters separated by
// colons:
//
//	freq:N        minimum frequency, threshold N
//	p:P           p % rule
//	nk:N:K        (N,K) dominance
//	pq:P:Q        pq rule
//	zero:protect  empty cells are primary (zero:safe, the default, not)
//	safety:10%    safety range as a percentage of the cell value
//	safety:5      safety range as an absolute amount (both may be given: the larger applies;
//	              one alone sets the other to 0; neither: DefaultSafety, 10 %)
//	holding:off   ignore holding-level contributions (holding:on, the default, uses them)
//
// Percentages may carry a trailing "%" ("p:15%"). Rules may repeat (two nk
// rules with different n, as τ-ARGUS allows); the settings may not. Spaces
// around items and parameters are ignored. An error wraps ErrSpec, names
// the item (1-based position and text) and, for a parameter out of range,
// wraps ErrParam as well. The result is validated: NewRuleSet(rules, s)
// succeeds on it. ParseRuleSet does both.
func Parse(spec string) ([]Rule, *Settings, error) {
	var rules []Rule
	s := &Settings{}
	seen := map[string]bool{}
	items := strings.Split(spec, ",")
	for i, raw := range items {
		item := strings.TrimSpace(raw)
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: item %d %q: %s", ErrSpec, i+1, item, fmt.Sprintf(format, a...))
		}
		if item == "" {
			if len(items) == 1 {
				return nil, nil, fmt.Errorf("%w: empty specification", ErrSpec)
			}
			return nil, nil, bad("empty item")
		}
		f := strings.Split(item, ":")
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		key, args := strings.ToLower(f[0]), f[1:]
		want := map[string]int{"freq": 1, "p": 1, "nk": 2, "pq": 2, "zero": 1, "safety": 1, "holding": 1}
		nargs, ok := want[key]
		if !ok {
			return nil, nil, bad("unknown keyword %q (want freq, p, nk, pq, zero, safety or holding)", f[0])
		}
		if len(args) != nargs {
			return nil, nil, bad("%s takes %d parameter(s), got %d", key, nargs, len(args))
		}
		var r Rule
		switch key {
		case "freq", "nk":
			n, err := strconv.Atoi(args[0])
			if err != nil {
				return nil, nil, bad("n = %q is not an integer", args[0])
			}
			r = FreqRule(n)
			if key == "nk" {
				k, err := percent(args[1])
				if err != nil {
					return nil, nil, bad("k = %q is not a number", args[1])
				}
				r = NKRule(n, k)
			}
		case "p", "pq":
			p, err := percent(args[0])
			if err != nil {
				return nil, nil, bad("p = %q is not a number", args[0])
			}
			r = PRule(p)
			if key == "pq" {
				q, err := percent(args[1])
				if err != nil {
					return nil, nil, bad("q = %q is not a number", args[1])
				}
				r = PQRule(p, q)
			}
		case "zero", "holding":
			if seen[key] {
				return nil, nil, bad("%s given twice", key)
			}
			seen[key] = true
			v := strings.ToLower(args[0])
			switch {
			case key == "zero" && v == "protect":
				s.Zero = ZeroProtect
			case key == "zero" && v == "safe":
				s.Zero = ZeroSafe
			case key == "holding" && v == "on":
				s.NoHolding = false
			case key == "holding" && v == "off":
				s.NoHolding = true
			case key == "zero":
				return nil, nil, bad("want zero:protect or zero:safe")
			default:
				return nil, nil, bad("want holding:on or holding:off")
			}
			continue
		case "safety":
			a := args[0]
			isPct := strings.HasSuffix(a, "%")
			which := "safety (absolute)"
			if isPct {
				which = "safety (percent)"
			}
			if seen[which] {
				return nil, nil, bad("%s given twice", which)
			}
			seen[which] = true
			v, err := percent(a)
			if err != nil {
				return nil, nil, bad("%q is not a number", a)
			}
			if s.Safety == nil {
				s.Safety = &SafetyRange{}
			}
			if isPct {
				s.Safety.Percent = v
			} else {
				s.Safety.Absolute = v
			}
			if err := s.Safety.validate(); err != nil {
				return nil, nil, fmt.Errorf("%w: item %d %q: %w", ErrSpec, i+1, item, err)
			}
			continue
		}
		if err := r.Validate(); err != nil {
			return nil, nil, fmt.Errorf("%w: item %d %q: %w", ErrSpec, i+1, item, err)
		}
		rules = append(rules, r)
	}
	return rules, s, nil
}

// percent parses a number with an optional trailing "%".
func percent(a string) (float64, error) {
	return strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(a, "%")), 64)
}

// ParseRuleSet is Parse followed by NewRuleSet.
func ParseRuleSet(spec string) (*RuleSet, error) {
	rules, s, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	return NewRuleSet(rules, s)
}

// Spec writes the rule set back as a specification that Parse reads to an
// equal set (defaults written out).
func (rs *RuleSet) Spec() string {
	var items []string
	for _, r := range rs.rules {
		switch r.Kind {
		case KindFrequency:
			items = append(items, fmt.Sprintf("freq:%d", r.N))
		case KindDominance:
			items = append(items, fmt.Sprintf("nk:%d:%g", r.N, r.K))
		case KindPPercent:
			items = append(items, fmt.Sprintf("p:%g", r.P))
		case KindPQ:
			items = append(items, fmt.Sprintf("pq:%g:%g", r.P, r.Q))
		}
	}
	st := rs.settings
	items = append(items, "zero:"+st.Zero.String())
	if rs.safety.Percent != 0 || rs.safety.Absolute == 0 {
		items = append(items, fmt.Sprintf("safety:%g%%", rs.safety.Percent))
	}
	if rs.safety.Absolute != 0 {
		items = append(items, fmt.Sprintf("safety:%g", rs.safety.Absolute))
	}
	if st.NoHolding {
		items = append(items, "holding:off")
	}
	return strings.Join(items, ",")
}
