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
// integer tables taking the values [a_c, b_c],
//
//	gap_c = (a_c - L_c) + (U_c - b_c),
//
// zero exactly when both bounds are sharp (BoundCertificate.Sharp:
// attained and proven). With no table known, no value is attained and
// gap_c = U_c - L_c (the width of the proven interval: every table's value
// is open).
//
// The known tables are the certificates' witnesses, and only those: every
// table that widens an attained value (a table known to have the margins
// such as the confidential table itself, and the tables that Widen and
// Search reach from it) is added to the certificates as a witness, so that
// every attained value is checkable (Verify) and the gap report, the run's
// note (Run.RecountCertified) and bounds verify count the same sharp
// bounds. Certificates of a run given the confidential table therefore
// hold that table and tables a few moves from it: they are as confidential
// as the table. At most GapWitnessValues witness counts are added; the
// tables found beyond that widen nothing.
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
	// SharpBounds counts the sharp bounds (Certificates.SharpBounds); Bounds
	// is 2 x cells.
	SharpBounds, Bounds int
	// Moved counts the attained values that local moves from the known
	// table widened (Widen); MovesStopped that the deadline ended them.
	Moved        int
	MovesStopped bool
	// Searched counts the widenings of attained values by the slab
	// search (Search; a value widened twice counts twice), SearchTables the tables of its chains (each checked
	// against every margin), SearchRounds its upward rounds;
	// SearchStopped says that the deadline ended it.
	Searched, SearchTables, SearchRounds int
	SearchStopped                        bool
	// Unrecorded counts the tables that would have widened an attained
	// value but were not added as witnesses: GapWitnessValues reached.
	Unrecorded int

	certs        *Certificates
	lower, upper []int64 // proven values
}

// GapWitnessValues caps the counts of the witness tables that the gap
// report adds to the certificates (CertifiedGaps, Widen, Search): 2^24
// counts, 128 MiB, e.g. 16384 tables of 2^10 cells.
const GapWitnessValues = 1 << 24

// CertifiedGaps computes the gaps of certs, with truth (nil: none) an
// integer table known to have the margins (not checked here: the caller
// knows it, e.g. the table the margins were computed from). Witnesses
// attaining a bound that names none become its witness, and truth is
// added to certs as a witness when it widens an attained value.
func CertifiedGaps(certs *Certificates, truth []int64) *Gaps {
	n := len(certs.Cells)
	g := &Gaps{AttainedLower: make([]int64, n), AttainedUpper: make([]int64, n), Gap: make([]int64, n), Bounds: 2 * n, certs: certs}
	certs.linkWitnesses()
	g.Attained = len(certs.Witnesses) > 0
	for c := range certs.Cells {
		lo, hi := certs.Cells[c].Lower.Value, certs.Cells[c].Upper.Value
		g.lower, g.upper = append(g.lower, lo), append(g.upper, hi)
		if !g.Attained {
			continue
		}
		a, b := certs.Witnesses[0][c], certs.Witnesses[0][c]
		for _, w := range certs.Witnesses[1:] {
			a, b = min(a, w[c]), max(b, w[c])
		}
		g.AttainedLower[c], g.AttainedUpper[c] = a, b
	}
	if truth != nil && len(truth) == n {
		g.record(truth)
	}
	g.sum()
	return g
}

// record adds w, an integer table with the margins, to the certificates as
// a witness when it widens an attained value, and widens them; it returns
// the number of attained values widened (0: not recorded).
func (g *Gaps) record(w []int64) int {
	widened := 0
	for c, v := range w {
		if !g.Attained || v < g.AttainedLower[c] {
			widened++
		}
		if g.Attained && v > g.AttainedUpper[c] {
			widened++
		}
	}
	if widened == 0 {
		return 0
	}
	held := 0
	for _, x := range g.certs.Witnesses {
		held += len(x)
	}
	if held+len(w) > GapWitnessValues {
		g.Unrecorded++
		return 0
	}
	g.certs.AddWitness(slices.Clone(w))
	if !g.Attained {
		copy(g.AttainedLower, w)
		copy(g.AttainedUpper, w)
		g.Attained = true
		return widened
	}
	for c, v := range w {
		g.AttainedLower[c], g.AttainedUpper[c] = min(g.AttainedLower[c], v), max(g.AttainedUpper[c], v)
	}
	return widened
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
	}
	g.SharpBounds, _ = g.certs.SharpBounds()
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
// it; the table moved to becomes a witness (record). The search stops at
// deadline (zero: none), leaving the rest as it was.
func (g *Gaps) Widen(t *model.Table, margins [][]int, deadline time.Time) {
	if len(t.Counts) != len(g.Gap) {
		return
	}
	sets := MoveSets(model.Dims(t.Vars), margins)
	if len(sets) == 0 {
		return
	}
	g.record(t.Counts) // the table itself, if CertifiedGaps did not have it
	moved := func(delta map[int]int64) {
		w := slices.Clone(t.Counts)
		for j, d := range delta {
			w[j] += d
		}
		g.Moved += g.record(w)
	}
	for c := range g.Gap {
		if !deadline.IsZero() && time.Now().After(deadline) {
			g.MovesStopped = true
			break
		}
		if g.AttainedLower[c] > g.lower[c] {
			if v, delta := MoveCell(t, sets, c, -1, g.lower[c], uint64(c)); v < g.AttainedLower[c] {
				moved(delta)
			}
		}
		if g.AttainedUpper[c] < g.upper[c] {
			if v, delta := MoveCell(t, sets, c, +1, g.upper[c], uint64(c)); v > g.AttainedUpper[c] {
				moved(delta)
			}
		}
	}
	g.sum()
}
