package primary

import (
	"errors"
	"fmt"
	"math"
)

// Errors. ErrParam and ErrSpec come back from validation and parsing (bad
// user input); ErrCell from Cell.Check.
var (
	ErrParam = errors.New("primary: bad rule parameter")
	ErrSpec  = errors.New("primary: bad rule specification")
	ErrCell  = errors.New("primary: malformed cell")
)

// Cell is what the rules need to know of one cell of a magnitude (or
// frequency) table. It is deliberately small so that any table model can
// fill it.
//
// Contributions are assumed non-negative (magnitude data: turnover,
// employment, ...). Top must be sorted non-increasingly and hold at least
// min(Freq, m) contributions, m the largest count a configured rule needs
// (n for nk(n,k), 2 for p and pq); contributions beyond len(Top) count as
// unknown but no larger than the last one given, and are never needed. A
// cell that breaks this is a programmer error: Apply and the rule functions
// panic on it, and Check reports it as an error for callers who build
// cells from data they do not control.
type Cell struct {
	Value       float64   // the cell total X
	Freq        int       // number of contributors (respondents)
	Top         []float64 // largest contributions x1 ≥ x2 ≥ … (at least as many as the rules need)
	HoldingTop  []float64 // the same, aggregated by holding (enterprise group); nil = no holding level
	HoldingFreq int       // number of holdings contributing; 0 = unknown: no holding-level frequency rule, and HoldingTop is taken to list every holding
	Requested   bool      // a respondent asked for protection
}

// top returns the i-th largest contribution (1-based), 0 when the cell has
// fewer than i contributors.
func top(xs []float64, freq, i int) float64 {
	if i > freq {
		return 0
	}
	return xs[i-1]
}

// Check reports, wrapping ErrCell, what makes c unusable by rules needing
// the m largest contributions: a negative Freq or HoldingFreq, a negative
// or unsorted contribution, or fewer than min(Freq, m) of them in Top (and
// in HoldingTop when it is given; then min(HoldingFreq, m) when HoldingFreq
// is known, else m is not checked against a count).
func (c Cell) Check(m int) error {
	if c.Freq < 0 || c.HoldingFreq < 0 {
		return fmt.Errorf("%w: negative frequency (Freq %d, HoldingFreq %d)", ErrCell, c.Freq, c.HoldingFreq)
	}
	if err := checkTop("Top", c.Top, c.Freq, m); err != nil {
		return err
	}
	if c.HoldingTop != nil {
		hf := c.HoldingFreq
		if hf == 0 {
			hf = len(c.HoldingTop)
		}
		if err := checkTop("HoldingTop", c.HoldingTop, hf, m); err != nil {
			return err
		}
	}
	return nil
}

func checkTop(name string, xs []float64, freq, m int) error {
	if need := min(freq, m); len(xs) < need {
		return fmt.Errorf("%w: %s has %d contributions, the rules need %d", ErrCell, name, len(xs), need)
	}
	for i, x := range xs {
		if x < 0 || math.IsNaN(x) {
			return fmt.Errorf("%w: %s[%d] = %g is negative or NaN", ErrCell, name, i, x)
		}
		if i > 0 && x > xs[i-1] {
			return fmt.Errorf("%w: %s is not sorted non-increasingly at %d (%g > %g)", ErrCell, name, i, x, xs[i-1])
		}
	}
	return nil
}

// Level is one rule's verdict on one cell: whether the cell is sensitive,
// and the protection levels, the distances by which the interval an
// intruder can derive for the cell must reach above (Upper) and below
// (Lower) its value X for the rule to hold at the interval's ends. For
// the concentration rules Upper is the formula of doc.go and may be ≤ 0 on
// a safe cell (how far the cell is from the threshold); Sensitive is
// exactly Upper > 0 for them.
type Level struct {
	Sensitive    bool
	Upper, Lower float64
}

// SafetyRange is the protection level of a cell that a rule without a
// formula of its own makes primary (frequency, request, zero): the larger
// of Absolute and Percent % of |X|, symmetric (τ-ARGUS's "safety range" of
// the frequency rule and its "manual safety range" for requested cells).
type SafetyRange struct {
	Percent  float64 // percent of |X|, ≥ 0
	Absolute float64 // absolute amount, ≥ 0
}

// DefaultSafety is the safety range used when Settings.Safety is nil: 10 %, τ-ARGUS's customary manual safety range (MAN(10), the
// default of the rtauargus interface).
var DefaultSafety = SafetyRange{Percent: 10}

// Of returns the protection level the range gives a cell of value x.
func (s SafetyRange) Of(x float64) float64 {
	return math.Max(s.Absolute, s.Percent/100*math.Abs(x))
}

func (s SafetyRange) validate() error {
	if !(s.Percent >= 0) || !(s.Absolute >= 0) || math.IsInf(s.Percent, 0) || math.IsInf(s.Absolute, 0) {
		return fmt.Errorf("%w: safety range %g%% / %g must be finite and ≥ 0", ErrParam, s.Percent, s.Absolute)
	}
	return nil
}

func (s SafetyRange) String() string {
	switch {
	case s.Absolute == 0:
		return fmt.Sprintf("%g%%", s.Percent)
	case s.Percent == 0:
		return fmt.Sprintf("%g", s.Absolute)
	}
	return fmt.Sprintf("max(%g%%,%g)", s.Percent, s.Absolute)
}

func symmetric(l float64) Level { return Level{Sensitive: true, Upper: l, Lower: l} }

// MinFrequency applies the minimum frequency rule with threshold n to a
// cell with freq contributors and value x: sensitive when 0 < freq < n
// (strict: a cell with exactly n contributors is safe, τ-ARGUS's
// convention; sdcTable's maxN is n−1). An empty cell is never sensitive
// here (see Settings.Zero). A sensitive cell gets the safety range s.
// Panics if n < 1 (validate with Rule.Validate first).
func MinFrequency(freq int, x float64, n int, s SafetyRange) Level {
	if n < 1 {
		panic("primary: MinFrequency with n < 1")
	}
	if freq > 0 && freq < n {
		return symmetric(s.Of(x))
	}
	return Level{}
}

// Dominance applies the (n,k) dominance rule to a cell of total x whose
// largest contributions are top (sorted non-increasingly, freq
// contributors): sensitive when x1+…+xn > k/100 · x, evaluated as
// 100·S_n > k·x so that the boundary S_n = k/100·x is exact and safe.
// Upper = 100/k · S_n − x (doc.go); Lower = Upper, capped at x (the
// symmetric convention, doc.go). Panics on n < 1, k outside (0,100], or a
// Top too short.
func Dominance(top_ []float64, freq int, x float64, n int, k float64) Level {
	if n < 1 || !(k > 0 && k <= 100) {
		panic(fmt.Sprintf("primary: Dominance with n=%d k=%g", n, k))
	}
	var s float64
	for i := 1; i <= n; i++ {
		s += top(top_, freq, i)
	}
	upper := (100*s - k*x) / k
	return concentration(100*s > k*x, upper, x)
}

// PPercent applies the p % rule: sensitive when x − x1 − x2 < p/100 · x1
// (the second largest contributor, subtracting its own value from the
// total, would estimate the largest one to within p %), evaluated as
// 100·(x − x1 − x2) < p·x1; equality is safe. Upper = p/100·x1 − (x − x1 −
// x2); Lower as in Dominance. Panics on p outside (0,100] or a Top too
// short.
func PPercent(top_ []float64, freq int, x float64, p float64) Level {
	if !(p > 0 && p <= 100) {
		panic(fmt.Sprintf("primary: PPercent with p=%g", p))
	}
	return pq(top_, freq, x, p, 100)
}

// PQ applies the pq rule (prior knowledge: the remainder x − x1 − x2 is
// known to within q % before publication): sensitive when q/100·(x − x1 −
// x2) < p/100·x1, evaluated as q·R < p·x1, the p % rule with p* = 100·p/q.
// Upper = p/q·x1 − (x − x1 − x2), the Handbook's level (doc.go); with
// q = 100 it is the p % rule. Panics unless 0 < p ≤ q ≤ 100, or on a Top
// too short.
func PQ(top_ []float64, freq int, x float64, p, q float64) Level {
	if !(p > 0 && p <= q && q <= 100) {
		panic(fmt.Sprintf("primary: PQ with p=%g q=%g", p, q))
	}
	return pq(top_, freq, x, p, q)
}

func pq(top_ []float64, freq int, x, p, q float64) Level {
	x1, x2 := top(top_, freq, 1), top(top_, freq, 2)
	rest := x - x1 - x2
	lhs, rhs := q*rest, p*x1
	return concentration(lhs < rhs, (rhs-lhs)/q, x)
}

// concentration builds the Level of a concentration rule: the lower level
// is the upper one capped at x (a non-negative cell is known to be ≥ 0).
func concentration(sensitive bool, upper, x float64) Level {
	lower := upper
	if x >= 0 && lower > x {
		lower = x
	}
	return Level{Sensitive: sensitive, Upper: upper, Lower: lower}
}
