package intervals

import (
	"math"
	"math/big"

	"github.com/sdcopt/sdcopt/tabular"
)

// The decision audit. Audit asks, of every suppressed cell, a yes-or-no
// question: does the attacker's interval reach X + U and X − L (a
// primary cell), and is it more than one point? Compute answers it by
// the interval's ends, one LP each. A "yes" has a shorter proof: a point
// of the attacker's polytope. With x = a the true table (a point of the
// polytope: the published cells are its own values) and an integer
// vector w over the suppressed cells with A_S w = 0, every
// x = a + δ·w with l ≤ x ≤ u is a point of the polytope too, so
//
//	Upper_j ≥ a_j + δ·w_j,   Lower_j ≤ a_j + δ·w_j,
//
// and the interval of j is more than one point when δ·w_j ≠ 0. A Move
// is such a (δ, w); Decide checks each exactly (A_S w = 0 in integer
// arithmetic for integer coefficients, else big.Rat; the bounds
// l ≤ a + δ·w ≤ u in big.Rat on the stored floats), drops the moves
// that fail, and reports the requirements no accepted move meets. When
// none is left the audit's verdict is "pass", proven: every primary cell
// reaches X + U and X − L (a level ≤ 0 is met by x = a itself) and no
// suppressed cell is disclosed (some point moves it by more than the
// tolerance SnapTol·max(1, |X|) under which Interval.Disclosed calls an
// interval one point). A "no" is never decided: a requirement without a
// move is open, and only Compute and Audit can say whether it fails.
// The hypercubes of package tabular/suppress's fast method are such
// moves (w ∈ {−1, 0, 1}, δ the level).
//
// The premise, as for Compute, is that the true table is a point of the
// polytope: Decide checks that every suppressed cell's value lies within
// its prior bounds and that every relation holds at the true values
// within ConsistTol; when one does not, nothing is decided.

// Move is a deviation d = Step·w of a table's (or System's) cells:
// w_{Cells[k]} = Mult[k], 0 elsewhere.
type Move struct {
	Cells []int
	Mult  []int
	Step  float64
}

// OpenNeed is a requirement of one cell that no accepted move meets.
type OpenNeed struct {
	Cell int
	Name string
	// Upper: a primary cell's X + U is not reached; Lower: X − L;
	// Moved: no move changes the cell.
	Upper, Lower, Moved bool
}

// Decision is the outcome of Decide.
type Decision struct {
	// Primary is the number of primary cells (Report.Primary).
	Primary int
	// Open are the cells with a requirement that no accepted move meets,
	// in cell order. Empty: the audit passes.
	Open []OpenNeed
	// Moves is the number of moves given, Refused of those that are not
	// points of the attacker's polytope (a relation of the suppressed
	// cells not balanced by w, a published cell in the move, a bound
	// exceeded, a step not positive and finite).
	Moves, Refused int
	// Premise is false when the true table is not a point of the
	// polytope (see above): then every requirement is open.
	Premise bool
}

// OK reports whether every requirement is met: the verdict of Audit on
// the exact intervals is a pass.
func (d *Decision) OK() bool { return d.Premise && len(d.Open) == 0 }

// Report returns the Report that Audit gives when d is OK (no findings,
// Primary primary cells), nil otherwise.
func (d *Decision) Report() *Report {
	if !d.OK() {
		return nil
	}
	return &Report{Primary: d.Primary}
}

// Decide is the decision audit of t's pattern (its cells' statuses)
// against levels (nil: every level 0) from moves, under the prior bounds
// of s (as Compute takes them; the other fields of s are not used). It
// solves no LP. Data-dependent failures are errors as from Compute
// (ErrInfeasible when a relation alone cannot hold).
func Decide(t *tabular.Table, levels Levels, moves []Move, s *Settings) (*Decision, error) {
	return decide(tableSource(t), levels, moves, s)
}

// DecideSystem is Decide for linked tables: the cells and relations of
// the System.
func DecideSystem(sys *tabular.System, levels Levels, moves []Move, s *Settings) (*Decision, error) {
	return decide(systemSource(sys), levels, moves, s)
}

func decide(src source, levels Levels, moves []Move, s *Settings) (*Decision, error) {
	if s == nil {
		s = &Settings{}
	}
	si := *s
	si.Integer = false // the prior bounds of the LP audit
	a, err := build(src, &si)
	if err != nil {
		return nil, err
	}
	n := len(a.cells)
	varOf := make(map[int]int, n)
	for v, c := range a.cells {
		varOf[c] = v
	}
	lower, upper := make([]float64, n), make([]float64, n)
	d := &Decision{Moves: len(moves), Premise: a.truthFeasible()}
	upOK, loOK, moved := make([]bool, n), make([]bool, n), make([]bool, n)
	for v := range n {
		if a.status[v] != tabular.Primary {
			upOK[v], loOK[v] = true, true
			continue
		}
		d.Primary++
		if levels != nil {
			lower[v], upper[v] = levels(a.cells[v])
		}
		upOK[v], loOK[v] = !(upper[v] > 0), !(lower[v] > 0)
	}
	if d.Premise {
		w := make([]int64, n)
		for _, m := range moves {
			vars, ok := a.moveVars(m, varOf, w)
			if ok {
				ok = a.balanced(vars, w) && a.withinBounds(vars, w, m.Step)
			}
			if !ok {
				d.Refused++
			} else {
				for _, v := range vars {
					if !upOK[v] && cmpStep(m.Step, w[v], upper[v]) >= 0 {
						upOK[v] = true
					}
					if !loOK[v] && cmpStep(m.Step, -w[v], lower[v]) >= 0 {
						loOK[v] = true
					}
					aw := w[v]
					if aw < 0 {
						aw = -aw
					}
					if !moved[v] && cmpStep(m.Step, aw, SnapTol*math.Max(1, math.Abs(a.values[v]))) > 0 {
						moved[v] = true
					}
				}
			}
			for _, v := range vars {
				w[v] = 0
			}
		}
	}
	for v := range n {
		if !d.Premise || !upOK[v] || !loOK[v] || !moved[v] {
			d.Open = append(d.Open, OpenNeed{Cell: a.cells[v], Name: a.names[v],
				Upper: !d.Premise || !upOK[v], Lower: !d.Premise || !loOK[v], Moved: !d.Premise || !moved[v]})
		}
	}
	return d, nil
}

// truthFeasible reports whether the true values are a point of the
// attacker's polytope: within their prior bounds, every row holding
// within ConsistTol (relative to the largest term).
func (a *attacker) truthFeasible() bool {
	for v, x := range a.values {
		if !(x >= a.lo[v] && x <= a.up[v]) {
			return false
		}
	}
	for i, row := range a.rows {
		sum, scale := 0.0, math.Abs(a.rhs[i])
		for _, t := range row {
			sum += t.coef * a.values[t.v]
			scale = math.Max(scale, math.Abs(t.coef*a.values[t.v]))
		}
		if math.Abs(sum-a.rhs[i]) > ConsistTol*math.Max(1, scale) {
			return false
		}
	}
	return true
}

// moveVars writes m's multipliers into w (by variable) and returns the
// variables it sets; ok is false when m is malformed or moves a cell
// that is not suppressed. The caller resets w at the returned variables.
func (a *attacker) moveVars(m Move, varOf map[int]int, w []int64) (vars []int, ok bool) {
	if len(m.Cells) != len(m.Mult) || !(m.Step > 0) || math.IsInf(m.Step, 0) {
		return nil, false
	}
	vars = make([]int, 0, len(m.Cells))
	for k, c := range m.Cells {
		v, in := varOf[c]
		if !in {
			return vars, false
		}
		if w[v] == 0 {
			vars = append(vars, v)
		}
		w[v] += int64(m.Mult[k])
	}
	return vars, true
}

// maxExactCoef bounds the integer coefficients and multipliers whose
// products are summed in int64: each product is below 2^40, so a row of
// fewer than 2^23 such terms cannot overflow.
const maxExactCoef = 1 << 20

// balanced reports whether A_S w = 0 on every row of the variables vars
// (the only rows where w is nonzero), exactly.
func (a *attacker) balanced(vars []int, w []int64) bool {
	done := make(map[int]bool)
	for _, v := range vars {
		for _, i := range a.varRows[v] {
			if done[i] {
				continue
			}
			done[i] = true
			var sum int64
			var rat *big.Rat
			for _, t := range a.rows[i] {
				if w[t.v] == 0 {
					continue
				}
				if rat == nil && t.coef == math.Trunc(t.coef) && math.Abs(t.coef) <= maxExactCoef && w[t.v] <= maxExactCoef && w[t.v] >= -maxExactCoef {
					sum += int64(t.coef) * w[t.v]
					continue
				}
				if rat == nil {
					rat = new(big.Rat).SetInt64(sum)
				}
				term := new(big.Rat).SetFloat64(t.coef)
				rat.Add(rat, term.Mul(term, new(big.Rat).SetInt64(w[t.v])))
			}
			if rat != nil && rat.Sign() != 0 || rat == nil && sum != 0 {
				return false
			}
		}
	}
	return true
}

// withinBounds reports whether l_v ≤ a_v + step·w_v ≤ u_v for every v
// of vars, exactly.
func (a *attacker) withinBounds(vars []int, w []int64, step float64) bool {
	for _, v := range vars {
		if !math.IsInf(a.lo[v], 0) && cmpSum(a.values[v], step, w[v], a.lo[v]) < 0 {
			return false
		}
		if !math.IsInf(a.up[v], 0) && cmpSum(-a.values[v], step, -w[v], -a.up[v]) < 0 {
			return false
		}
	}
	return true
}

// decideMargin is the relative distance beyond which a float comparison
// of Decide is taken as it is: the float results carry a rounding error
// of a few units in the last place (about 1e-16 relative); nearer, the
// comparison is made again in big.Rat.
const decideMargin = 1e-12

// cmpStep returns the sign of step·w − c, exactly (finite step; an
// infinite c compares as such, a NaN c as larger: never reached).
func cmpStep(step float64, w int64, c float64) int {
	switch {
	case math.IsNaN(c) || math.IsInf(c, 1):
		return -1
	case math.IsInf(c, -1):
		return 1
	}
	switch w {
	case 1:
		return cmpFloat(step, c) // step·1 is exact
	case -1:
		return cmpFloat(-step, c)
	}
	p := step * float64(w)
	m := decideMargin * math.Max(1, math.Max(math.Abs(p), math.Abs(c)))
	if p-c > m {
		return 1
	}
	if c-p > m {
		return -1
	}
	x := new(big.Rat).SetFloat64(step)
	x.Mul(x, new(big.Rat).SetInt64(w))
	return x.Cmp(new(big.Rat).SetFloat64(c))
}

// cmpSum returns the sign of x + step·w − c, exactly (finite step and
// c; a value x that is not finite gives −1: no bound is taken as met).
func cmpSum(x, step float64, w int64, c float64) int {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return -1
	}
	p := step * float64(w)
	f := x + p
	m := decideMargin * math.Max(1, math.Max(math.Max(math.Abs(x), math.Abs(p)), math.Max(math.Abs(f), math.Abs(c))))
	if f-c > m {
		return 1
	}
	if c-f > m {
		return -1
	}
	r := new(big.Rat).SetFloat64(step)
	r.Mul(r, new(big.Rat).SetInt64(w))
	r.Add(r, new(big.Rat).SetFloat64(x))
	return r.Cmp(new(big.Rat).SetFloat64(c))
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
