package intervals

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
)

// ErrLinearSystem is the sentinel of a LinearSystem that is not a valid
// attacker problem: a relation with a cell out of range, with as many
// coefficients as cells not, or with a non-finite coefficient or
// right-hand side, or a cell with a non-finite value.
var ErrLinearSystem = errors.New("intervals: invalid linear system")

// ComputeLinear is Compute for a cell suppression problem without its
// table structure: the cells and the general linear relations
// Σ_k c_k·x_k = rhs of a LinearSystem (a JJ file as tabular.ReadJJ reads
// it, or Table.Linear). The suppressed cells are those of status Primary
// or Secondary (JJ letters u, and x or m). The attacker's prior bounds of
// a suppressed cell are its PriorLower and PriorUpper (a JJ file's lb and
// ub; PriorUpper 0 is +Inf, a PriorLower ≤ −tabular.JJInfinity is −Inf)
// unless Settings.Prior is set. Terms of one cell repeated in a relation
// are summed. Errors are those of Compute, and ErrLinearSystem (wrapped,
// naming the relation or cell).
func ComputeLinear(ls *tabular.LinearSystem, s *Settings) (*Result, error) {
	src, err := linearSource(ls)
	if err != nil {
		return nil, err
	}
	return compute(src, s)
}

// VerifyLinear is Verify for a result of ComputeLinear.
func VerifyLinear(ls *tabular.LinearSystem, r *Result, s *Settings) error {
	src, err := linearSource(ls)
	if err != nil {
		return err
	}
	return verify(src, r, s)
}

func linearSource(ls *tabular.LinearSystem) (source, error) {
	n := len(ls.Cells)
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	nonNeg := true
	for i, c := range ls.Cells {
		if !finite(c.Value) {
			return source{}, fmt.Errorf("%w: cell %d has value %g", ErrLinearSystem, i, c.Value)
		}
		if c.Value < 0 {
			nonNeg = false
		}
	}
	for k, r := range ls.Relations {
		if len(r.Cells) != len(r.Coefs) {
			return source{}, fmt.Errorf("%w: relation %d has %d cells and %d coefficients", ErrLinearSystem, k, len(r.Cells), len(r.Coefs))
		}
		if !finite(r.RHS) {
			return source{}, fmt.Errorf("%w: relation %d has right-hand side %g", ErrLinearSystem, k, r.RHS)
		}
		for q, c := range r.Cells {
			if c < 0 || c >= n {
				return source{}, fmt.Errorf("%w: relation %d names cell %d, out of range [0, %d)", ErrLinearSystem, k, c, n)
			}
			if !finite(r.Coefs[q]) {
				return source{}, fmt.Errorf("%w: relation %d has coefficient %g on cell %d", ErrLinearSystem, k, r.Coefs[q], c)
			}
		}
	}
	return source{
		n:      n,
		value:  func(i int) float64 { return ls.Cells[i].Value },
		status: func(i int) tabular.Status { return ls.Cells[i].Status },
		name:   func(i int) string { return fmt.Sprintf("cell %d", i) },
		linear: ls.Relations,
		nonNeg: nonNeg,
		prior: func(i int) (float64, float64, bool) {
			lo, up := ls.Cells[i].PriorBounds()
			if lo <= -tabular.JJInfinity {
				lo = math.Inf(-1)
			}
			if up >= tabular.JJInfinity {
				up = math.Inf(1)
			}
			return lo, up, true
		},
	}, nil
}

// cellPrior returns a table cell's prior bounds when it sets them
// (PriorLower or PriorUpper nonzero).
func cellPrior(c *tabular.Cell) (lo, up float64, ok bool) {
	if c.PriorLower == 0 && c.PriorUpper == 0 {
		return 0, 0, false
	}
	lo, up = c.PriorBounds()
	return lo, up, true
}

// numRelations is the number of relations of the source.
func (src *source) numRelations() int {
	if src.linear != nil {
		return len(src.linear)
	}
	return len(src.rels)
}

// relationName describes relation k in errors.
func (src *source) relationName(k int) string {
	if src.linear != nil {
		r := src.linear[k]
		var b strings.Builder
		for q, c := range r.Cells {
			if q == 4 {
				fmt.Fprintf(&b, " + … (%d terms)", len(r.Cells))
				break
			}
			if q > 0 {
				b.WriteString(" + ")
			}
			fmt.Fprintf(&b, "%g·x%d", r.Coefs[q], c)
		}
		fmt.Fprintf(&b, " = %g", r.RHS)
		return b.String()
	}
	r := src.rels[k]
	return fmt.Sprintf("%q = sum of its %d parts", src.name(r.Total), len(r.Parts))
}

// mergeTerms sums the terms of one variable and drops zero coefficients
// (a general relation may name a cell twice; a row must not).
func mergeTerms(row []term) []term {
	slices.SortStableFunc(row, func(a, b term) int { return a.v - b.v })
	out := row[:0]
	for _, t := range row {
		if n := len(out); n > 0 && out[n-1].v == t.v {
			out[n-1].coef += t.coef
			continue
		}
		out = append(out, t)
	}
	return slices.DeleteFunc(out, func(t term) bool { return t.coef == 0 })
}
