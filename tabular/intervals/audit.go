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
	// RequiredSliding is the sliding protection level S: the interval
	// must be at least S wide, wherever it lies; ShortWidth is
	// S − (Upper − Lower) when positive.
	RequiredSliding, ShortWidth float64
}

// Report is the outcome of Audit.
type Report struct {
	// UnderProtected are the primary cells whose interval does not reach
	// both Value − L and Value + U, or is narrower than the sliding level
	// S (AuditProtection), in cell order.
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
	var p Protection
	if levels != nil {
		p = func(i int) (float64, float64, float64) { l, u := levels(i); return l, u, 0 }
	}
	return AuditProtection(r, p)
}

// Protection gives the protection levels of cell i: lower L_i, upper U_i
// and sliding S_i (0, 0, 0 for none).
type Protection func(cell int) (lower, upper, sliding float64)

// CellProtection returns the Protection of cells' Lower, Upper and
// Sliding fields (a Table's, a System's or a LinearSystem's Cells).
func CellProtection(cells []tabular.Cell) Protection {
	return func(i int) (float64, float64, float64) { return cells[i].Lower, cells[i].Upper, cells[i].Sliding }
}

// AuditProtection is Audit with sliding protection levels as well: a
// primary cell with sliding level S is also under-protected when its
// interval is narrower than S, Upper − Lower < S (τ-ARGUS's sliding
// protection level: the interval may lie anywhere around the value, but
// must be S wide: the JJ format's SPL).
func AuditProtection(r *Result, levels Protection) *Report {
	rep := &Report{}
	for _, iv := range r.Intervals {
		var l, u, sl float64
		if levels != nil {
			l, u, sl = levels(iv.Cell)
		}
		f := Finding{Interval: iv, RequiredLower: l, RequiredUpper: u, RequiredSliding: sl}
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
		if s := sl - (iv.Upper - iv.Lower); s > tol {
			f.ShortWidth = s
		}
		if f.ShortBelow > 0 || f.ShortAbove > 0 || f.ShortWidth > 0 {
			rep.UnderProtected = append(rep.UnderProtected, f)
		}
	}
	return rep
}
