package solvertest

import (
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/solvers"
)

// Tolerances of the certificate checks. Engines work with feasibility
// tolerances around 1e-7 on scaled models; the checks allow 1e-6 relative
// to the magnitude of the quantities compared.
const (
	PrimalTol = 1e-6 // row and column bound violation, relative
	DualTol   = 1e-6 // reduced-cost and dual-sign violation, relative
	ObjTol    = 1e-6 // objective agreement, relative
	IntTol    = 1e-6 // distance of an integer column from an integer
)

func scale(vs ...float64) float64 {
	s := 1.0
	for _, v := range vs {
		if a := math.Abs(v); !math.IsInf(a, 0) && a > s {
			s = a
		}
	}
	return s
}

// CheckPrimal verifies that r.X is a feasible point of p (bounds, rows,
// integrality) and that r.Objective is its objective value.
func CheckPrimal(p *solvers.Problem, r *solvers.Result) error {
	if !r.HasSolution {
		return fmt.Errorf("no primal solution (status %v)", r.Status)
	}
	n, m := p.NumCols(), p.NumRows()
	if len(r.X) != n {
		return fmt.Errorf("len(X) = %d, want %d", len(r.X), n)
	}
	for j := 0; j < n; j++ {
		lo, up := p.Bounds(j)
		x := r.X[j]
		if math.IsNaN(x) {
			return fmt.Errorf("x[%d] is NaN", j)
		}
		if x < lo-PrimalTol*scale(lo) || x > up+PrimalTol*scale(up) {
			return fmt.Errorf("x[%d] = %g outside [%g, %g]", j, x, lo, up)
		}
		if p.Type(j) != solvers.Continuous && math.Abs(x-math.Round(x)) > IntTol*scale(x) {
			return fmt.Errorf("integer column %d has value %g", j, x)
		}
	}
	ax := p.RowActivity(r.X)
	for i := 0; i < m; i++ {
		lo, up := p.RowLower[i], p.RowUpper[i]
		if ax[i] < lo-PrimalTol*scale(lo, ax[i]) || ax[i] > up+PrimalTol*scale(up, ax[i]) {
			return fmt.Errorf("row %d activity %g outside [%g, %g]", i, ax[i], lo, up)
		}
		if r.RowActivity != nil && math.Abs(r.RowActivity[i]-ax[i]) > PrimalTol*scale(ax[i]) {
			return fmt.Errorf("reported row %d activity %g, recomputed %g", i, r.RowActivity[i], ax[i])
		}
	}
	if obj := p.ObjectiveValue(r.X); math.Abs(obj-r.Objective) > ObjTol*scale(obj) {
		return fmt.Errorf("reported objective %.12g, c'x + offset = %.12g", r.Objective, obj)
	}
	return nil
}

// CheckKKT certifies that r is an optimal primal-dual pair of the LP p:
// primal feasibility, d = c - Aᵀy, dual sign conditions with complementary
// slackness (package solvers' convention), and equal primal and dual
// objectives.
func CheckKKT(p *solvers.Problem, r *solvers.Result) error {
	if err := CheckPrimal(p, r); err != nil {
		return err
	}
	if !r.HasDuals {
		return fmt.Errorf("no dual solution")
	}
	n, m := p.NumCols(), p.NumRows()
	if len(r.Duals) != m || len(r.ReducedCosts) != n {
		return fmt.Errorf("len(Duals) = %d, len(ReducedCosts) = %d, want %d, %d", len(r.Duals), len(r.ReducedCosts), m, n)
	}
	// sgn = +1 for minimization: a positive multiplier belongs to a lower
	// bound, a negative one to an upper bound. Maximization reverses it.
	sgn := 1.0
	if p.Sense == solvers.Maximize {
		sgn = -1
	}
	ax := p.RowActivity(r.X)
	yScale := scale(r.Duals...)
	dScale := scale(append(append([]float64(nil), r.ReducedCosts...), p.Obj...)...)
	dual := p.Offset
	for j := 0; j < n; j++ {
		rows, vals := p.Column(j)
		aty := 0.0
		for k, i := range rows {
			aty += vals[k] * r.Duals[i]
		}
		want := p.Obj[j] - aty
		if math.Abs(r.ReducedCosts[j]-want) > DualTol*scale(dScale, yScale) {
			return fmt.Errorf("column %d: reduced cost %g, but c - Aᵀy = %g", j, r.ReducedCosts[j], want)
		}
		d := sgn * r.ReducedCosts[j]
		lo, up := p.Bounds(j)
		x := r.X[j]
		tol := DualTol * dScale
		switch {
		case d > tol:
			if math.IsInf(lo, -1) || math.Abs(x-lo) > PrimalTol*scale(lo, x) {
				return fmt.Errorf("column %d: reduced cost %g needs x at lower bound %g, x = %g", j, r.ReducedCosts[j], lo, x)
			}
			dual += r.ReducedCosts[j] * lo
		case d < -tol:
			if math.IsInf(up, 1) || math.Abs(x-up) > PrimalTol*scale(up, x) {
				return fmt.Errorf("column %d: reduced cost %g needs x at upper bound %g, x = %g", j, r.ReducedCosts[j], up, x)
			}
			dual += r.ReducedCosts[j] * up
		default:
			dual += r.ReducedCosts[j] * x
		}
	}
	for i := 0; i < m; i++ {
		y := sgn * r.Duals[i]
		lo, up := p.RowLower[i], p.RowUpper[i]
		tol := DualTol * scale(yScale, dScale)
		switch {
		case y > tol:
			if math.IsInf(lo, -1) || math.Abs(ax[i]-lo) > PrimalTol*scale(lo, ax[i]) {
				return fmt.Errorf("row %d: dual %g needs activity at lower bound %g, activity = %g", i, r.Duals[i], lo, ax[i])
			}
			dual += r.Duals[i] * lo
		case y < -tol:
			if math.IsInf(up, 1) || math.Abs(ax[i]-up) > PrimalTol*scale(up, ax[i]) {
				return fmt.Errorf("row %d: dual %g needs activity at upper bound %g, activity = %g", i, r.Duals[i], up, ax[i])
			}
			dual += r.Duals[i] * up
		default:
			dual += r.Duals[i] * ax[i]
		}
	}
	primal := p.ObjectiveValue(r.X)
	if math.Abs(primal-dual) > ObjTol*scale(primal, dual) {
		return fmt.Errorf("duality gap: primal %.12g, dual %.12g", primal, dual)
	}
	return nil
}
