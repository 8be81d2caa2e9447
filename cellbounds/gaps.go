package cellbounds

import (
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// Gaps compare, bound by bound, what integer tables are known to attain
// with what is proven (the certified method's evidence, Certificates):
// the sharp integer bound of a cell lies between its attained value and
// its proven value. For cell c with proven bounds [L_c, U_c] and known
// integer tables (the witnesses, and a table known to have the margins
// such as the confidential table itself) taking the values [a_c, b_c],
//
//	gap_c = (a_c - L_c) + (U_c - b_c),
//
// zero exactly when both bounds are sharp (attained and proven). With no
// table known, no value is attained and gap_c = U_c - L_c (the width of
// the proven interval: every table's value is open).
type Gaps struct {
	// AttainedLower and AttainedUpper are a_c and b_c per cell; Attained
	// says whether any table is known (else both are meaningless).
	AttainedLower, AttainedUpper []int64
	Attained                     bool
	// Gap is gap_c per cell.
	Gap []int64
	// MedianGap is the median of Gap over the cells, TotalGap its sum,
	// MaxGap its largest value.
	MedianGap float64
	TotalGap  int64
	MaxGap    int64
	// SharpBounds counts the bounds (two per cell) whose attained value
	// equals the proven one; Bounds is 2 x cells.
	SharpBounds, Bounds int
	// Moved counts the bounds whose attained value local moves from the
	// known table widened (Widen); MovesStopped that the deadline ended
	// them.
	Moved        int
	MovesStopped bool
	// Searched counts the widenings of attained values by the slab
	// search (Search; a value widened twice counts twice), SearchTables the tables of its chains (each checked
	// against every margin), SearchRounds its upward rounds;
	// SearchStopped says that the deadline ended it.
	Searched, SearchTables, SearchRounds int
	SearchStopped                        bool

	lower, upper []int64 // proven values
}

// CertifiedGaps computes the gaps of certs, with truth (nil: none) an
// integer table known to have the margins (not checked here: the caller
// knows it, e.g. the table the margins were computed from).
func CertifiedGaps(certs *Certificates, truth []int64) *Gaps {
	n := len(certs.Cells)
	g := &Gaps{AttainedLower: make([]int64, n), AttainedUpper: make([]int64, n), Gap: make([]int64, n), Bounds: 2 * n}
	tables := certs.Witnesses
	if truth != nil {
		tables = append(slices.Clip(tables), truth)
	}
	g.Attained = len(tables) > 0
	for c := range certs.Cells {
		lo, hi := certs.Cells[c].Lower.Value, certs.Cells[c].Upper.Value
		g.lower, g.upper = append(g.lower, lo), append(g.upper, hi)
		if !g.Attained {
			g.Gap[c] = hi - lo
			continue
		}
		a, b := tables[0][c], tables[0][c]
		for _, w := range tables[1:] {
			a, b = min(a, w[c]), max(b, w[c])
		}
		g.AttainedLower[c], g.AttainedUpper[c] = a, b
	}
	g.sum()
	return g
}

// sum recomputes the gaps and their summaries from the attained values.
func (g *Gaps) sum() {
	n := len(g.Gap)
	g.SharpBounds, g.TotalGap, g.MaxGap, g.MedianGap = 0, 0, 0, 0
	for c := range n {
		lo, hi := g.lower[c], g.upper[c]
		if !g.Attained {
			g.Gap[c] = hi - lo
			continue
		}
		a, b := g.AttainedLower[c], g.AttainedUpper[c]
		g.Gap[c] = (a - lo) + (hi - b)
		if a == lo {
			g.SharpBounds++
		}
		if b == hi {
			g.SharpBounds++
		}
	}
	s := slices.Clone(g.Gap)
	slices.Sort(s)
	for _, x := range s {
		g.TotalGap += x
	}
	if n > 0 {
		g.MaxGap = s[n-1]
		if n%2 == 1 {
			g.MedianGap = float64(s[n/2])
		} else {
			g.MedianGap = float64(s[n/2-1]+s[n/2]) / 2
		}
	}
}

// Widen narrows the gaps by local moves (MoveSets, MoveCell) from t, an
// integer table with the margins (variable sets margins): every cell
// whose attained interval stops short of a proven bound is moved toward
// it; the value reached is attained by the table moved to. The search
// stops at deadline (zero: none), leaving the rest as it was.
func (g *Gaps) Widen(t *model.Table, margins [][]int, deadline time.Time) {
	if len(t.Counts) != len(g.Gap) {
		return
	}
	sets := MoveSets(model.Dims(t.Vars), margins)
	if len(sets) == 0 {
		return
	}
	if !g.Attained {
		copy(g.AttainedLower, t.Counts)
		copy(g.AttainedUpper, t.Counts)
		g.Attained = true
	}
	for c := range g.Gap {
		if !deadline.IsZero() && time.Now().After(deadline) {
			g.MovesStopped = true
			break
		}
		if g.AttainedLower[c] > g.lower[c] {
			if v, _ := MoveCell(t, sets, c, -1, g.lower[c], uint64(c)); v < g.AttainedLower[c] {
				g.AttainedLower[c] = v
				g.Moved++
			}
		}
		if g.AttainedUpper[c] < g.upper[c] {
			if v, _ := MoveCell(t, sets, c, +1, g.upper[c], uint64(c)); v > g.AttainedUpper[c] {
				g.AttainedUpper[c] = v
				g.Moved++
			}
		}
	}
	g.sum()
}
