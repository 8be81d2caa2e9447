package primary

import (
	"fmt"
	"math"
)

// Kind is the kind of a configurable sensitivity rule.
type Kind int

const (
	KindUnknown   Kind = iota // the zero value: an unset rule, rejected by Validate
	KindFrequency             // minimum frequency: freq(n)
	KindDominance             // (n,k) dominance: nk(n,k)
	KindPPercent              // p % rule: p(p)
	KindPQ                    // pq rule: pq(p,q)
)

var kindNames = [...]string{"unknown", "freq", "nk", "p", "pq"}

// String names the kind as in rule names and specifications.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Rule is one configured sensitivity rule. Only the fields of its Kind are
// read.
type Rule struct {
	Kind Kind
	N    int     // freq: the threshold n (≥ 1); nk: the number n of largest contributors (≥ 1)
	K    float64 // nk: the dominance percentage k, in (0,100]
	P    float64 // p, pq: the percentage p, in (0,100]
	Q    float64 // pq: the prior-knowledge percentage q, in [p,100]
}

// FreqRule, NKRule, PRule and PQRule build rules (not validated: see
// Validate).
func FreqRule(n int) Rule          { return Rule{Kind: KindFrequency, N: n} }
func NKRule(n int, k float64) Rule { return Rule{Kind: KindDominance, N: n, K: k} }
func PRule(p float64) Rule         { return Rule{Kind: KindPPercent, P: p} }
func PQRule(p, q float64) Rule     { return Rule{Kind: KindPQ, P: p, Q: q} }
func (r Rule) String() string      { return r.Name() }
func finite(x float64) bool        { return !math.IsNaN(x) && !math.IsInf(x, 0) }
func inPercent(x float64) bool     { return finite(x) && x > 0 && x <= 100 }

// needs is how many largest contributions the rule reads.
func (r Rule) needs() int {
	switch r.Kind {
	case KindDominance:
		return r.N
	case KindPPercent, KindPQ:
		return 2
	}
	return 0
}

// Name is the rule's name in results: "freq(3)", "nk(1,85)", "p(15)",
// "pq(15,50)".
func (r Rule) Name() string {
	switch r.Kind {
	case KindFrequency:
		return fmt.Sprintf("freq(%d)", r.N)
	case KindDominance:
		return fmt.Sprintf("nk(%d,%g)", r.N, r.K)
	case KindPPercent:
		return fmt.Sprintf("p(%g)", r.P)
	case KindPQ:
		return fmt.Sprintf("pq(%g,%g)", r.P, r.Q)
	}
	return r.Kind.String()
}

// Validate reports, wrapping ErrParam, a parameter out of range: n < 1,
// k or p outside (0,100], q outside [p,100], or an unknown kind.
func (r Rule) Validate() error {
	switch r.Kind {
	case KindFrequency:
		if r.N < 1 {
			return fmt.Errorf("%w: freq: n = %d, must be ≥ 1", ErrParam, r.N)
		}
	case KindDominance:
		if r.N < 1 {
			return fmt.Errorf("%w: nk: n = %d, must be ≥ 1", ErrParam, r.N)
		}
		if !inPercent(r.K) {
			return fmt.Errorf("%w: nk: k = %g, must be in (0,100]", ErrParam, r.K)
		}
	case KindPPercent:
		if !inPercent(r.P) {
			return fmt.Errorf("%w: p: p = %g, must be in (0,100]", ErrParam, r.P)
		}
	case KindPQ:
		if !inPercent(r.P) {
			return fmt.Errorf("%w: pq: p = %g, must be in (0,100]", ErrParam, r.P)
		}
		if !finite(r.Q) || r.Q < r.P || r.Q > 100 {
			return fmt.Errorf("%w: pq: q = %g, must be in [p,100] = [%g,100]", ErrParam, r.Q, r.P)
		}
	default:
		return fmt.Errorf("%w: unknown rule kind %v", ErrParam, r.Kind)
	}
	return nil
}

// apply evaluates the rule on one level of a cell (individual or holding).
func (r Rule) apply(top []float64, freq int, x float64, s SafetyRange) Level {
	switch r.Kind {
	case KindFrequency:
		return MinFrequency(freq, x, r.N, s)
	case KindDominance:
		return Dominance(top, freq, x, r.N, r.K)
	case KindPPercent:
		return PPercent(top, freq, x, r.P)
	case KindPQ:
		return PQ(top, freq, x, r.P, r.Q)
	}
	panic("primary: apply of an unvalidated rule")
}

// ZeroPolicy says what happens to empty cells (Freq = 0).
type ZeroPolicy int

const (
	ZeroSafe    ZeroPolicy = iota // the default: an empty cell is never primary (unless Requested)
	ZeroProtect                   // an empty cell is primary by rule "zero", with the safety range
)

// String names the policy as in specifications ("safe", "protect").
func (z ZeroPolicy) String() string {
	switch z {
	case ZeroSafe:
		return "safe"
	case ZeroProtect:
		return "protect"
	}
	return fmt.Sprintf("ZeroPolicy(%d)", int(z))
}

// Settings configures a RuleSet; nil means every default.
type Settings struct {
	// Zero is the policy for empty cells. Default ZeroSafe.
	Zero ZeroPolicy
	// Safety is the protection level of cells made primary by the
	// frequency rule, a request or the zero policy. Nil means
	// DefaultSafety (10 %). For empty cells only Absolute matters (X = 0).
	// The Handbook recommends 0 when only a minimum frequency rule is used
	// (exact disclosure is all it prevents): &SafetyRange{} gives that.
	Safety *SafetyRange
	// NoHolding turns the holding level off even when cells carry
	// HoldingTop. Default false: the rules are applied at both levels.
	NoHolding bool
}

// RuleSet is a validated set of rules with their settings. Build it with
// NewRuleSet; it is immutable and safe for concurrent use.
type RuleSet struct {
	rules    []Rule
	settings Settings
	safety   SafetyRange // *settings.Safety, or DefaultSafety
	needs    int
}

// NewRuleSet validates rules and settings, returning the first error
// (wrapping ErrParam) naming the bad rule. An empty rule list is allowed:
// then only requests and the zero policy make cells primary.
func NewRuleSet(rules []Rule, s *Settings) (*RuleSet, error) {
	rs := &RuleSet{rules: append([]Rule(nil), rules...)}
	if s != nil {
		rs.settings = *s
	}
	rs.safety = DefaultSafety
	if rs.settings.Safety != nil {
		rs.safety = *rs.settings.Safety
	}
	rs.settings.Safety = &rs.safety
	if err := rs.safety.validate(); err != nil {
		return nil, err
	}
	if z := rs.settings.Zero; z != ZeroSafe && z != ZeroProtect {
		return nil, fmt.Errorf("%w: unknown zero policy %v", ErrParam, z)
	}
	for i, r := range rules {
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("rule %d (%s): %w", i+1, r.Name(), err)
		}
		rs.needs = max(rs.needs, r.needs())
	}
	return rs, nil
}

// Rules returns a copy of the set's rules.
func (rs *RuleSet) Rules() []Rule { return append([]Rule(nil), rs.rules...) }

// Settings returns the set's settings, defaults filled in (Safety is never
// nil and points to a copy).
func (rs *RuleSet) Settings() Settings {
	st := rs.settings
	sr := rs.safety
	st.Safety = &sr
	return st
}

// Needs is how many largest contributions the rules need (Cell.Check's m).
func (rs *RuleSet) Needs() int { return rs.needs }

// Result is a rule set's verdict on one cell.
type Result struct {
	Primary bool
	// Rules names the rules that fired, in the set's order, the
	// holding-level ones prefixed "holding:", then "request", then "zero".
	Rules []string
	// Upper and Lower are the most demanding protection levels over the
	// rules that fired (the maxima); both 0 when the cell is not primary.
	Upper, Lower float64
}

// Apply evaluates every rule on c, at the individual level and, when c has
// HoldingTop (and NoHolding is unset), at the holding level, and adds the
// request and the zero policy. The cell is primary when any of them fires.
// An empty cell (Freq 0) is primary only by request or by ZeroProtect.
// Panics on a malformed cell (see Cell; Check reports the same as an
// error).
func (rs *RuleSet) Apply(c Cell) Result {
	var res Result
	fire := func(name string, l Level) {
		if !res.Primary {
			res.Upper, res.Lower = l.Upper, l.Lower
		} else {
			res.Upper, res.Lower = math.Max(res.Upper, l.Upper), math.Max(res.Lower, l.Lower)
		}
		res.Primary = true
		res.Rules = append(res.Rules, name)
	}
	s := rs.safety
	if err := c.Check(rs.needs); err != nil {
		panic(err.Error())
	}
	if c.Freq > 0 {
		for _, r := range rs.rules {
			if l := r.apply(c.Top, c.Freq, c.Value, s); l.Sensitive {
				fire(r.Name(), l)
			}
		}
		if c.HoldingTop != nil && !rs.settings.NoHolding {
			hf := c.HoldingFreq
			for _, r := range rs.rules {
				if r.Kind == KindFrequency && hf == 0 {
					continue // number of holdings unknown
				}
				f := hf
				if f == 0 {
					f = len(c.HoldingTop)
				}
				if l := r.apply(c.HoldingTop, f, c.Value, s); l.Sensitive {
					fire("holding:"+r.Name(), l)
				}
			}
		}
	}
	if c.Requested {
		fire("request", symmetric(s.Of(c.Value)))
	}
	if c.Freq == 0 && rs.settings.Zero == ZeroProtect {
		fire("zero", symmetric(s.Of(c.Value)))
	}
	return res
}
