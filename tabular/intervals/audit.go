package intervals

import (
	"math"

	"github.com/sdcopt/sdcopt/tabular"
)

// AuditTol is the relative slack of the audit's comparisons: an end short
// of X + U (or X − L) by less than AuditTol·max(1, |X|) passes, so that an
// LP bound of 104.99999999 meets a level reaching 105.
const AuditTol = 1e-9

// Levels gives the protection levels of cell i: the lower L_i and upper
// U_i distances the attacker's interval must reach below and above the
// cell's value (as computed by package tabular/primary). Cells that need
// none return 0, 0.
type Levels func(cell int) (lower, upper float64)

// LevelSlices returns the Levels of two slices indexed by cell.
func LevelSlices(lower, upper []float64) Levels {
	return func(i int) (float64, float64) { return lower[i], upper[i] }
}

// Finding is the evidence of one audit failure.
type Finding struct {
	Interval
	// RequiredLower and RequiredUpper are the levels L and U: the interval
	// must reach Value − L and Value + U.
	RequiredLower, RequiredUpper float64
	// ShortBelow is Lower − (Value − L) when positive: how far the lower
	// end misses; ShortAbove is (Value + U) − Upper when positive.
	ShortBelow, ShortAbove float64
}

// Report is the outcome of Audit.
type Report struct {
	// UnderProtected are the primary cells whose interval does not reach
	// both Value − L and Value + U, in cell order.
	UnderProtected []Finding
	// Disclosed are the suppressed cells (primary or secondary) whose
	// interval is a single point: the attacker recomputes them exactly.
	Disclosed []Finding
	// Primary is the number of primary cells audited.
	Primary int
}

// OK reports whether no primary cell is under-protected and no suppressed
// cell disclosed.
func (r *Report) OK() bool { return len(r.UnderProtected) == 0 && len(r.Disclosed) == 0 }

// Audit checks the intervals of r against protection levels (nil: every
// level 0, so only disclosure is reported). A primary cell with value X
// and levels L, U is under-protected when Upper < X + U or Lower > X − L
// (Hundepool et al. 2012, chapter 4: the attacker's interval must contain
// [X − L, X + U]). Ends computed under a limit are the prior bounds, so
// the audit may pass a cell that the sharp interval would fail: check
// the statuses.
func Audit(r *Result, levels Levels) *Report {
	rep := &Report{}
	for _, iv := range r.Intervals {
		var l, u float64
		if levels != nil {
			l, u = levels(iv.Cell)
		}
		f := Finding{Interval: iv, RequiredLower: l, RequiredUpper: u}
		tol := AuditTol * math.Max(1, math.Abs(iv.Value))
		if iv.Disclosed() {
			rep.Disclosed = append(rep.Disclosed, f)
		}
		if iv.Status != tabular.Primary {
			continue
		}
		rep.Primary++
		if s := iv.Lower - (iv.Value - l); s > tol {
			f.ShortBelow = s
		}
		if s := (iv.Value + u) - iv.Upper; s > tol {
			f.ShortAbove = s
		}
		if f.ShortBelow > 0 || f.ShortAbove > 0 {
			rep.UnderProtected = append(rep.UnderProtected, f)
		}
	}
	return rep
}
