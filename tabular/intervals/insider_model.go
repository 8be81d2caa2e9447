package intervals

import (
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/tabular"
)

// InsiderKnowledge is one candidate insider as a suppression model needs
// it: the attacker's prior narrowed by what the insider knows, and what
// the interval of each primary cell must reach against it. It is the
// model of InsiderAudit (package documentation, section Insiders), given
// for a table in which every cell that may be suppressed is.
type InsiderKnowledge struct {
	Insider Insider
	// Prior is Settings.Prior (or the default prior) narrowed by the
	// insider's knowledge: the lower bound raised to its known
	// contribution, and a cell it makes up alone fixed at its value.
	Prior func(cell int, value float64) (lo, up float64)
	// Narrowed lists the cells, in increasing order, whose prior the
	// knowledge narrows (Prior differs from the outsider's there).
	Narrowed []int
	// Whole[i] reports that the insider makes up cell i alone: it knows
	// the cell, and no requirement applies to it.
	Whole []bool
	// Need returns what the interval of primary cell j must reach
	// against this insider (InsiderFinding's NeedLower and NeedUpper) and
	// the requirement's name; ok is false when the insider makes up j
	// alone.
	Need func(j int) (needLo, needHi float64, name string, ok bool)
}

// Insiders returns the insiders InsiderAudit would audit (with no cap)
// on t with every cell of status Safe, Secondary or Primary suppressed,
// in InsiderAudit's order of priority. Because a secondary suppression
// model may suppress any of those cells, this is the set of insiders
// that any pattern can face: for a given pattern InsiderAudit audits a
// subset of them (those named by its suppressed cells), each with the
// same knowledge and requirement. s gives the outsider's Prior (nil:
// defaults). Errors: ErrInsider (wrapped) for a magnitude table with a
// negative value. A nil t panics.
func Insiders(t *tabular.Table, s *Settings) ([]InsiderKnowledge, error) {
	if s == nil {
		s = &Settings{}
	}
	if t.Magnitude {
		for i := range t.Cells {
			if t.Cells[i].Value < 0 {
				return nil, fmt.Errorf("%w: cell (%s) has the negative value %g; insiders' contributions bound cells only on non-negative data",
					ErrInsider, t.CellName(i), t.Cells[i].Value)
			}
		}
	}
	c := *t
	c.Cells = make([]tabular.Cell, len(t.Cells))
	copy(c.Cells, t.Cells)
	for i := range c.Cells {
		if c.Cells[i].Status == tabular.Safe {
			c.Cells[i].Status = tabular.Secondary
		}
	}
	a := newInsiderAudit(&c, s)
	a.outsider = map[int]bool{}
	cands := a.candidates()
	out := make([]InsiderKnowledge, len(cands))
	for k := range cands {
		in := &cands[k]
		kn := a.knowledge(in)
		ik := InsiderKnowledge{Insider: *in, Prior: a.prior(kn), Whole: kn.whole}
		for i := range c.Cells {
			lo, up := a.baseLo(i)
			v := c.Cells[i].Value
			if (kn.whole[i] && (lo < v || up > v)) || math.Max(lo, math.Min(kn.lb[i], up)) > lo {
				ik.Narrowed = append(ik.Narrowed, i)
			}
		}
		ik.Need = func(j int) (float64, float64, string, bool) {
			if kn.whole[j] {
				return 0, 0, "", false
			}
			lo, hi, _, name := a.requirement(in, kn, j)
			return lo, hi, name, true
		}
		out[k] = ik
	}
	return out, nil
}
