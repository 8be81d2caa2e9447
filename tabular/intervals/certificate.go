package intervals

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// Tolerances of Verify.
const (
	// DualTol is the largest |d_k| accepted on a variable whose bound on
	// the side d_k points to is infinite (the engines' reduced costs carry
	// round-off of about 1e-12), and the largest difference between a
	// stored reduced cost and the one recomputed from y.
	DualTol = 1e-9
	// VerifyTol is the relative slack between a claimed bound and the
	// bound its dual vector proves (the engines' optimality tolerance
	// is about 1e-7 in the objective; bounds are snapped to integers
	// within SnapTol).
	VerifyTol = 1e-6
)

// ErrCertificate is the sentinel of a bound that Verify cannot confirm.
var ErrCertificate = errors.New("intervals: certificate refused")

// Certificate proves one LP end of an interval by weak duality. For the
// attacker problem max (min) x_j subject to A x = b, l ≤ x ≤ u, any y
// (one entry per row of A, free in sign) gives d = e_j − Aᵀy and, for
// every feasible x,
//
//	x_j = yᵀb + dᵀx ≤ yᵀb + Σ_k max(d_k·l_k, d_k·u_k)   (max)
//	x_j = yᵀb + dᵀx ≥ yᵀb + Σ_k min(d_k·l_k, d_k·u_k)   (min)
//
// so the right side bounds the cell whatever y is; the optimal y (the
// engine's row duals) makes it equal to the LP optimum. Y are the row
// duals, D the duals of the bound rows l ≤ x ≤ u (the reduced costs).
type Certificate struct {
	Sense solvers.Sense
	// Rows and Y are the nonzero row duals: y[Rows[k]] = Y[k], rows of the
	// attacker problem (the relations with a suppressed cell, in relation
	// order; Result.Rows of them). The others are 0.
	Rows []int
	Y    []float64
	// Vars and D are the nonzero bound duals d = e_j − Aᵀy, by index of
	// the suppressed cell in Result.Intervals.
	Vars []int
	D    []float64
	// Value is the bound they prove, as the engine computed it.
	Value float64
}

// CertZero is the magnitude below which an engine's dual is stored as 0
// in a certificate (the engines' dual feasibility tolerance is about
// 1e-7; a dropped dual only changes the proved value, which Verify
// recomputes, by at most CertZero times a bound).
const CertZero = 1e-13

func newCertificate(r *solvers.Result, sense solvers.Sense, v float64) *Certificate {
	c := &Certificate{Sense: sense, Value: r.Objective}
	for i, y := range r.Duals {
		if math.Abs(y) > CertZero {
			c.Rows = append(c.Rows, i)
			c.Y = append(c.Y, y)
		}
	}
	for k, d := range r.ReducedCosts {
		if math.Abs(d) > CertZero {
			c.Vars = append(c.Vars, k)
			c.D = append(c.D, d)
		}
	}
	return c
}

// Verify re-checks every certificate of r against the table t (and the
// same Settings given to Compute: the prior bounds enter the check), in
// exact rational arithmetic on the stored floats, without an engine. It
// returns nil when every finite LP end that is not its prior bound has a
// certificate that proves it; otherwise an error wrapping ErrCertificate
// naming the first refused cell. An integer result (Settings.Integer) is
// checked through its IntegerEnds: each witness exactly, each outer bound
// by its LP certificate, each end between them (see IntegerEnd).
func Verify(t *tabular.Table, r *Result, s *Settings) error {
	return verify(tableSource(t), r, s)
}

// VerifySystem is Verify for a result of ComputeSystem.
func VerifySystem(sys *tabular.System, r *Result, s *Settings) error {
	return verify(systemSource(sys), r, s)
}

func verify(src source, r *Result, s *Settings) error {
	if s == nil {
		s = &Settings{}
	}
	if r.Integer != s.Integer {
		s2 := *s
		s2.Integer = r.Integer // the integer problem's bounds are rounded inward
		s = &s2
	}
	a, err := build(src, s)
	if err != nil {
		return err
	}
	if len(a.cells) != len(r.Intervals) {
		return fmt.Errorf("%w: %d intervals for %d suppressed cells", ErrCertificate, len(r.Intervals), len(a.cells))
	}
	for j := range r.Intervals {
		iv := &r.Intervals[j]
		if iv.Cell != a.cells[j] {
			return fmt.Errorf("%w: interval %d is of cell %d, not %d", ErrCertificate, j, iv.Cell, a.cells[j])
		}
		if r.Integer {
			continue
		}
		for _, e := range []struct {
			sense solvers.Sense
			claim float64
			prior float64
			cert  *Certificate
		}{{solvers.Minimize, iv.Lower, a.lo[j], iv.LowerCert}, {solvers.Maximize, iv.Upper, a.up[j], iv.UpperCert}} {
			if e.cert == nil {
				// Only the prior bound (or a weaker one) needs no proof.
				if e.sense == solvers.Minimize && e.claim <= e.prior || e.sense == solvers.Maximize && e.claim >= e.prior {
					continue
				}
				return fmt.Errorf("%w: cell %s: %v %g without a certificate", ErrCertificate, iv.Name, e.sense, e.claim)
			}
			if err := a.check(j, e.sense, e.claim, e.cert); err != nil {
				return fmt.Errorf("%w: cell %s, %v: %v", ErrCertificate, iv.Name, e.sense, err)
			}
		}
	}
	if r.Integer {
		return a.verifyInteger(r)
	}
	return nil
}

// check verifies one certificate of variable j's bound claim. It works
// on the certificate's nonzeros only: d_k is nonzero only for k = j and
// the variables of rows with y_i ≠ 0.
func (a *attacker) check(j int, sense solvers.Sense, claim float64, c *Certificate) error {
	if c.Sense != sense {
		return fmt.Errorf("certificate of a %v", c.Sense)
	}
	if len(c.Rows) != len(c.Y) || len(c.Vars) != len(c.D) {
		return fmt.Errorf("certificate has %d rows for %d duals and %d variables for %d bound duals", len(c.Rows), len(c.Y), len(c.Vars), len(c.D))
	}
	rat := func(f float64) *big.Rat {
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil
		}
		return new(big.Rat).SetFloat64(f)
	}
	// d = e_j − Aᵀy on the touched variables, and yᵀb, exactly.
	d := map[int]*big.Rat{j: big.NewRat(1, 1)}
	val := new(big.Rat)
	tmp := new(big.Rat)
	seen := make(map[int]bool, len(c.Rows))
	for k, i := range c.Rows {
		if i < 0 || i >= len(a.rows) || seen[i] {
			return fmt.Errorf("row %d out of range [0, %d) or repeated", i, len(a.rows))
		}
		seen[i] = true
		y := rat(c.Y[k])
		if y == nil {
			return fmt.Errorf("row dual %d is %g", i, c.Y[k])
		}
		if y.Sign() == 0 {
			continue
		}
		val.Add(val, tmp.Mul(y, rat(a.rhs[i])))
		for _, e := range a.rows[i] {
			dk := d[e.v]
			if dk == nil {
				dk = new(big.Rat)
				d[e.v] = dk
			}
			switch e.coef {
			case 1:
				dk.Sub(dk, y)
			case -1:
				dk.Add(dk, y)
			default:
				dk.Sub(dk, tmp.Mul(y, rat(e.coef)))
			}
		}
	}
	stored := make(map[int]float64, len(c.Vars))
	for k, v := range c.Vars {
		if v < 0 || v >= len(a.cells) {
			return fmt.Errorf("variable %d out of range [0, %d)", v, len(a.cells))
		}
		if _, ok := stored[v]; ok || math.IsNaN(c.D[k]) {
			return fmt.Errorf("bound dual of variable %d repeated or NaN", v)
		}
		stored[v] = c.D[k]
		if _, ok := d[v]; !ok && math.Abs(c.D[k]) > DualTol {
			return fmt.Errorf("bound dual %d is %g, e_j − Aᵀy gives 0", v, c.D[k])
		}
	}
	for k, dr := range d {
		dk, _ := dr.Float64()
		if math.Abs(dk-stored[k]) > DualTol*math.Max(1, math.Abs(dk)) {
			return fmt.Errorf("bound dual %d is %g, e_j − Aᵀy gives %g", k, stored[k], dk)
		}
		if dr.Sign() == 0 {
			continue
		}
		// The bound that d_k's sign selects.
		useUp := (dr.Sign() > 0) == (sense == solvers.Maximize)
		b := a.lo[k]
		if useUp {
			b = a.up[k]
		}
		if math.IsInf(b, 0) {
			if math.Abs(dk) > DualTol {
				return fmt.Errorf("bound dual %d is %g on an infinite bound: y is not dual feasible", k, dk)
			}
			continue
		}
		val.Add(val, tmp.Mul(dr, rat(b)))
	}
	proved, _ := val.Float64()
	tol := VerifyTol * math.Max(1, math.Abs(proved))
	if math.Abs(proved-c.Value) > tol {
		return fmt.Errorf("certificate claims %g, its duals prove %g", c.Value, proved)
	}
	if sense == solvers.Maximize && claim < proved-tol || sense == solvers.Minimize && claim > proved+tol {
		return fmt.Errorf("bound %g is sharper than the %g its duals prove", claim, proved)
	}
	return nil
}
