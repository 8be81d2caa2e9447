package intervals

import (
	"fmt"
	"math"
	"math/big"

	"github.com/sdcopt/sdcopt/solvers"
)

// Witness is an integer table: the values of the suppressed cells (the
// published ones keep theirs) that satisfy every relation and the prior
// bounds. Vars (indices in Result.Intervals) and X are its nonzero
// entries; the other suppressed cells are 0.
type Witness struct {
	Vars []int
	X    []float64
}

// IntegerEnd certifies one end of an integer interval from both sides:
//
//   - Witness is an integer table whose value of the cell is Reached: the
//     attacker cannot exclude Reached, so the end is at least as far out
//     (Verify re-checks it exactly: integrality, every relation, the
//     bounds);
//   - Outer is the LP bound of the same end rounded inward (floor of the
//     LP maximum, ceiling of the LP minimum), proved by the LP dual
//     certificate OuterCert: no integer table goes beyond it.
//
// The end lies between them. Certified reports that they meet (Reached =
// end = Outer): the end is proved. Otherwise the end is the engine's
// claim within [Reached, Outer] (the LP relaxation is not integral
// there, or the MIP stopped at a limit), recorded as such.
type IntegerEnd struct {
	Witness   *Witness     // nil when the engine returned no integer table
	Reached   float64      // the cell's value in Witness (NaN without one)
	Outer     float64      // ±Inf when the LP end is unbounded
	OuterCert *Certificate // nil for an infinite Outer, or a prior bound after a limit
	Certified bool
}

// Gap is |Outer − Reached|: how far the end is from being proved (0 when
// Certified, +Inf without a witness or with an infinite Outer).
func (e *IntegerEnd) Gap() float64 {
	if math.IsNaN(e.Reached) {
		return math.Inf(1)
	}
	return math.Abs(e.Outer - e.Reached)
}

// integerEnd returns the witness part of variable j's end from a MIP
// solve (nil without a usable solution: the engine's point, rounded to
// integers, must pass the exact check).
func (a *attacker) integerEnd(r *solvers.Result, j int) *IntegerEnd {
	ie := &IntegerEnd{Reached: math.NaN(), Outer: math.NaN()}
	if !r.HasSolution || len(r.X) != len(a.cells) {
		return ie
	}
	w := &Witness{}
	for k, x := range r.X {
		if x = math.Round(x); x != 0 {
			w.Vars = append(w.Vars, k)
			w.X = append(w.X, x+0)
		}
	}
	if a.checkWitness(w) != nil {
		return ie
	}
	ie.Witness, ie.Reached = w, witnessValue(w, j)
	return ie
}

func witnessValue(w *Witness, j int) float64 {
	for k, v := range w.Vars {
		if v == j {
			return w.X[k]
		}
	}
	return 0
}

// checkWitness verifies w exactly (big.Rat on the stored floats): every
// entry an integer within the variable's bounds, every row of A x = b met
// with no slack.
func (a *attacker) checkWitness(w *Witness) error {
	if len(w.Vars) != len(w.X) {
		return fmt.Errorf("witness has %d variables for %d values", len(w.Vars), len(w.X))
	}
	x := make(map[int]float64, len(w.Vars))
	for k, v := range w.Vars {
		if v < 0 || v >= len(a.cells) {
			return fmt.Errorf("witness variable %d out of range [0, %d)", v, len(a.cells))
		}
		if _, ok := x[v]; ok {
			return fmt.Errorf("witness variable %d repeated", v)
		}
		x[v] = w.X[k]
	}
	for v := range a.cells {
		xv := x[v]
		if math.IsNaN(xv) || math.IsInf(xv, 0) || xv != math.Trunc(xv) {
			return fmt.Errorf("witness value %g of cell %s is not an integer", xv, a.names[v])
		}
		if xv < a.lo[v] || xv > a.up[v] {
			return fmt.Errorf("witness value %g of cell %s outside its bounds [%g, %g]", xv, a.names[v], a.lo[v], a.up[v])
		}
	}
	sum, tmp := new(big.Rat), new(big.Rat)
	for i, row := range a.rows {
		// Integer terms whose magnitudes sum below 2^53 add exactly in
		// float64; other rows are summed in big.Rat.
		fs, abs, exact := 0.0, math.Abs(a.rhs[i]), a.rhs[i] == math.Trunc(a.rhs[i])
		for _, e := range row {
			t := e.coef * x[e.v]
			fs += t
			abs += math.Abs(t)
			exact = exact && e.coef == math.Trunc(e.coef)
		}
		if exact && abs < 1<<53 {
			if fs != a.rhs[i] {
				return fmt.Errorf("witness breaks relation %d: its suppressed cells sum to %g, not %g", a.rel[i], fs, a.rhs[i])
			}
			continue
		}
		sum.SetInt64(0)
		for _, e := range row {
			if xv := x[e.v]; xv != 0 {
				sum.Add(sum, tmp.Mul(new(big.Rat).SetFloat64(e.coef), new(big.Rat).SetFloat64(xv)))
			}
		}
		if sum.Cmp(tmp.SetFloat64(a.rhs[i])) != 0 {
			f, _ := sum.Float64()
			return fmt.Errorf("witness breaks relation %d: its suppressed cells sum to %g, not %g", a.rel[i], f, a.rhs[i])
		}
	}
	return nil
}

// lpEngine returns the LP engine of the outer bounds: the named engine
// when it gives LP duals, else the preferred LP engine.
func lpEngine(name string) (solvers.Solver, error) {
	if sv, err := solvers.New(name, false); err == nil && sv.Capabilities().Duals {
		return sv, nil
	}
	return solvers.New("auto", false)
}

// outerBounds solves the LP relaxation of every end of an integer result,
// records its rounded bound and certificate in the ends' IntegerEnd,
// tightens an end the LP bound proves sharper (after a MIP limit), and
// decides Certified.
func (a *attacker) outerBounds(res *Result, s *Settings) error {
	sv, err := lpEngine(s.Solver)
	if err != nil {
		return err
	}
	p := a.problem(false)
	open := func() (solvers.Session, error) {
		if sv.Capabilities().Incremental {
			return sv.NewSession(p, s.Params)
		}
		return solvers.NewReloadSession(sv, p, s.Params)
	}
	sess, err := open()
	if err != nil {
		return err
	}
	defer func() { sess.Close() }()
	prev := -1
	for j := range a.cells {
		iv := &res.Intervals[j]
		cols, obj := []int{j}, []float64{1}
		if prev >= 0 {
			cols, obj = []int{prev, j}, []float64{0, 1}
		}
		if err := sess.SetObjective(cols, obj); err != nil {
			return err
		}
		prev = j
		for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
			max := sense == solvers.Maximize
			ie, end := iv.LowerInt, &iv.Lower
			if max {
				ie, end = iv.UpperInt, &iv.Upper
			}
			if ie == nil {
				continue
			}
			if err := sess.SetSense(sense); err != nil {
				return err
			}
			r, err := sess.Solve()
			if err != nil {
				return err
			}
			res.Solves++
			if r.Abandoned {
				sess.Close()
				if sess, err = open(); err != nil {
					return err
				}
				prev = -1
			}
			switch {
			case r.Status == solvers.Optimal && r.HasDuals:
				ie.OuterCert = newCertificate(r, sense, r.Objective)
				ie.Outer = roundInward(r.Objective, max)
			case r.Status == solvers.Unbounded || r.Status == solvers.InfeasibleOrUnbounded:
				ie.Outer = math.Inf(-1)
				if max {
					ie.Outer = math.Inf(1)
				}
			case r.Status == solvers.Infeasible:
				return fmt.Errorf("%w (engine %s: the LP relaxation is infeasible)", ErrInfeasible, sv.Name())
			default: // a limit, or no duals: the prior bound
				ie.Outer = a.lo[j]
				if max {
					ie.Outer = a.up[j]
				}
			}
			if max && *end > ie.Outer || !max && *end < ie.Outer {
				*end = ie.Outer
			}
			ie.Certified = ie.Witness != nil && ie.Reached == *end && ie.Outer == *end
		}
	}
	return nil
}

// roundInward rounds an LP bound of an integer variable inward: floor of
// a maximum, ceiling of a minimum, with slack IntTol for the engine's
// round-off.
func roundInward(v float64, max bool) float64 {
	if max {
		return math.Floor(v+IntTol) + 0
	}
	return math.Ceil(v-IntTol) + 0
}

// verifyInteger re-checks the IntegerEnd of every end of an integer
// result: the witness exactly, the LP certificate of the outer bound, the
// claimed end between them, and Certified only where they meet.
func (a *attacker) verifyInteger(r *Result) error {
	for j := range r.Intervals {
		iv := &r.Intervals[j]
		for _, e := range []struct {
			sense solvers.Sense
			claim float64
			prior float64
			ie    *IntegerEnd
		}{{solvers.Minimize, iv.Lower, a.lo[j], iv.LowerInt}, {solvers.Maximize, iv.Upper, a.up[j], iv.UpperInt}} {
			max := e.sense == solvers.Maximize
			// beyond reports that x is further out than y.
			beyond := func(x, y float64) bool { return max && x > y || !max && x < y }
			if e.ie == nil {
				if beyond(e.claim, e.prior) || e.claim == e.prior {
					continue
				}
				return fmt.Errorf("%w: cell %s: integer %v %g without a certificate", ErrCertificate, iv.Name, e.sense, e.claim)
			}
			ie := e.ie
			fail := func(format string, args ...any) error {
				return fmt.Errorf("%w: cell %s, integer %v: %s", ErrCertificate, iv.Name, e.sense, fmt.Sprintf(format, args...))
			}
			if ie.Witness != nil {
				if err := a.checkWitness(ie.Witness); err != nil {
					return fail("%v", err)
				}
				if got := witnessValue(ie.Witness, j); got != ie.Reached {
					return fail("witness has %g, the file says %g", got, ie.Reached)
				}
				if beyond(ie.Reached, e.claim) {
					return fail("end %g, but an integer table reaches %g", e.claim, ie.Reached)
				}
			} else if !math.IsNaN(ie.Reached) {
				return fail("reached %g without a witness", ie.Reached)
			}
			if ie.OuterCert != nil {
				if err := a.check(j, e.sense, ie.OuterCert.Value, ie.OuterCert); err != nil {
					return fail("outer bound: %v", err)
				}
				if beyond(roundInward(ie.OuterCert.Value, max), ie.Outer) {
					return fail("outer bound %g is sharper than the %g its LP certificate proves", ie.Outer, roundInward(ie.OuterCert.Value, max))
				}
			} else if !beyond(ie.Outer, e.prior) && ie.Outer != e.prior {
				return fail("outer bound %g without a certificate", ie.Outer)
			}
			if beyond(e.claim, ie.Outer) {
				return fail("end %g is beyond the outer bound %g", e.claim, ie.Outer)
			}
			if ie.Certified && !(ie.Witness != nil && ie.Reached == e.claim && ie.Outer == e.claim) {
				return fail("claimed certified, but the witness reaches %g and the outer bound is %g", ie.Reached, ie.Outer)
			}
		}
	}
	return nil
}
