package tabular

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sdcopt/sdcopt/tabular/primary"
)

// ErrPrimary is the sentinel of a rule set that cannot be applied to a
// table: a concentration rule on a frequency or weighted table, or rules
// needing more top contributions than the table keeps.
var ErrPrimary = errors.New("tabular: cannot apply the primary rules")

// Summary is what ApplyPrimary did.
type Summary struct {
	Cells   int // cells of the table
	Empty   int // cells with Status Empty after the run
	Primary int // cells with Status Primary after the run
	// ByRule counts, for every rule name that fired (as primary.Result
	// names it: "freq(3)", "p(15)", "holding:p(15)", "zero"), the cells
	// it fired on; a cell on which two rules fire counts under both.
	ByRule map[string]int
	// MustPublish lists the cells (indices) with Status MustPublish on
	// which a rule fired: they stay MustPublish, and are sensitive.
	MustPublish []int
}

// ApplyPrimary applies the rule set rs to every cell of t and marks the
// sensitive ones: Status Primary, Rule the names of the rules that fired
// joined by "+" ("freq(3)+p(15)"), Upper and Lower the protection levels
// (primary.Result's, the maxima over the rules that fired). A cell on
// which no rule fires keeps its status, rule and levels (a Primary cell
// read from a file stays Primary: a manual primary). A MustPublish cell
// on which a rule fires stays MustPublish (its Rule and levels are set)
// and is listed in Summary.MustPublish. A Secondary cell on which a rule
// fires becomes Primary.
//
// The rules see, per cell, primary.Cell{Value, Freq, Top, HoldingTop,
// Requested}: X = Cell.Value, F = Cell.Freq (respondents), the values of
// Top (the largest contributions by respondent, checked to be
// non-increasing and non-negative) and of TopHolding when the table has
// it (the holding level of package primary, with the number of holdings
// unknown: no holding-level frequency rule), and Requested when one of
// the RequestTop largest contributions of Top is Requested (the
// microdata's request column, BuildSettings.Request): then the cell is
// primary by rule "request" with the rule set's safety range. Empty cells (Freq 0) are primary only
// under primary.ZeroProtect, by rule "zero" (Status Empty becomes
// Primary).
//
// Frequency tables (t.Magnitude false) carry no contributions: only the
// frequency rule, requests and the zero policy apply, and a concentration
// rule (nk, p, pq) is an error wrapping ErrPrimary.
//
// Weights: a weighted magnitude table with a concentration rule is an
// error wrapping ErrPrimary. The builders keep the top contributions
// unweighted and ranked by unweighted value while Value is the weighted
// total, so comparing them would mix units; and the ranking of the
// weighted contributions w_i·x_i, which the rules would need to judge the
// published (weighted) figure, is not kept. Rather than pick silently, we
// refuse. The frequency rule applies to a weighted table as to any
// other, on the unweighted number of respondents Freq (the coalition an
// intruder belongs to is made of respondents, not of weights).
//
// Errors wrap ErrPrimary: the cases above, and a cell whose Top or
// TopHolding is malformed or shorter than the rules need (rs.Needs(); the
// message names the cell). On error t is unchanged. A nil t or rs panics.
func ApplyPrimary(t *Table, rs *primary.RuleSet) (Summary, error) {
	concentration := ""
	for _, r := range rs.Rules() {
		if r.Kind != primary.KindFrequency {
			concentration = r.Name()
			break
		}
	}
	if concentration != "" && !t.Magnitude {
		return Summary{}, fmt.Errorf("%w: rule %s needs the contributions of a magnitude table; this is a frequency table (only freq, zero and safety apply)", ErrPrimary, concentration)
	}
	if concentration != "" && t.Weighted {
		return Summary{}, fmt.Errorf("%w: rule %s on a weighted table: the table keeps unweighted top contributions and a weighted total (apply concentration rules to an unweighted table, or use freq only)", ErrPrimary, concentration)
	}
	zero := rs.Settings().Zero == primary.ZeroProtect
	cells := make([]primary.Cell, len(t.Cells))
	for i := range t.Cells {
		c := &t.Cells[i]
		pc := primary.Cell{Value: c.Value, Freq: c.Freq, Top: values(c.Top), Requested: requested(c.Top)}
		if c.TopHolding != nil {
			pc.HoldingTop = values(c.TopHolding)
		}
		if err := pc.Check(rs.Needs()); err != nil {
			return Summary{}, fmt.Errorf("%w: cell (%s): %v (rebuild the table keeping at least %d top contributions)", ErrPrimary, t.CellName(i), err, rs.Needs())
		}
		cells[i] = pc
	}
	sum := Summary{Cells: len(t.Cells), ByRule: map[string]int{}}
	for i := range t.Cells {
		c := &t.Cells[i]
		if c.Freq == 0 && !zero {
			continue
		}
		res := rs.Apply(cells[i])
		if !res.Primary {
			continue
		}
		for _, name := range res.Rules {
			sum.ByRule[name]++
		}
		c.Rule = strings.Join(res.Rules, "+")
		c.Upper, c.Lower = res.Upper, res.Lower
		if c.Status == MustPublish {
			sum.MustPublish = append(sum.MustPublish, i)
			continue
		}
		c.Status = Primary
	}
	for i := range t.Cells {
		switch t.Cells[i].Status {
		case Primary:
			sum.Primary++
		case Empty:
			sum.Empty++
		}
	}
	return sum, nil
}

// RequestTop is how many of a cell's largest contributions (by
// respondent) are looked at for requests: a cell is primary by rule
// "request" when one of them asked for protection (τ-ARGUS's request rule
// looks at the two largest contributors).
const RequestTop = 2

// requested reports whether one of the RequestTop largest contributions
// asked for protection.
func requested(top []Contribution) bool {
	for _, c := range top[:min(len(top), RequestTop)] {
		if c.Requested {
			return true
		}
	}
	return false
}

// values returns the values of contributions, nil for none.
func values(cs []Contribution) []float64 {
	if len(cs) == 0 {
		return nil
	}
	v := make([]float64, len(cs))
	for i, c := range cs {
		v[i] = c.Value
	}
	return v
}
