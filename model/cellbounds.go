package model

import "fmt"

// CellBounds are lower and upper bounds for every cell of the full table
// over MarginSet.Vars, row-major like Table.Counts. LP bounds may be
// fractional; integer methods (IP, shuttle with correction, Fréchet) give
// whole numbers. Method names, per cell, the method that produced the
// bound (for "auto" and "reducible", which combine methods); it may be nil
// when one method produced every bound.
type CellBounds struct {
	Lower, Upper []float64
	Method       []string
}

// NewCellBounds returns bounds for n cells initialised to [0, 1e300], 1e300
// standing for "no upper bound yet" (finite, so that it survives sums and
// JSON).
func NewCellBounds(n int) *CellBounds {
	b := &CellBounds{Lower: make([]float64, n), Upper: make([]float64, n)}
	for i := range b.Upper {
		b.Upper[i] = 1e300
	}
	return b
}

// Sharper reports whether a is at least as tight as b in every cell, and
// strictly tighter somewhere, within tol.
func (a *CellBounds) Sharper(b *CellBounds, tol float64) bool {
	strict := false
	for i := range a.Lower {
		if a.Lower[i] < b.Lower[i]-tol || a.Upper[i] > b.Upper[i]+tol {
			return false
		}
		if a.Lower[i] > b.Lower[i]+tol || a.Upper[i] < b.Upper[i]-tol {
			strict = true
		}
	}
	return strict
}

// Diff returns the first cell where a and b differ by more than tol, or -1.
func (a *CellBounds) Diff(b *CellBounds, tol float64) int {
	for i := range a.Lower {
		if abs(a.Lower[i]-b.Lower[i]) > tol || abs(a.Upper[i]-b.Upper[i]) > tol {
			return i
		}
	}
	return -1
}

// Check verifies lower <= upper (within tol) in every cell.
func (a *CellBounds) Check(tol float64) error {
	for i := range a.Lower {
		if a.Lower[i] > a.Upper[i]+tol {
			return fmt.Errorf("model: cell %d has lower bound %g above upper bound %g", i, a.Lower[i], a.Upper[i])
		}
	}
	return nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
