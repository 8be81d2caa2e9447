package audit

import (
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
)

// Evidence counts the cells a decision checked by what decided each:
//
//   - Sharp: the bounds are proven sharp (every cell decided by them);
//   - Proven: the proven interval is too narrow (disclosed, whatever
//     integer tables exist): by dual vectors, the trivial bounds, or the
//     optimum of the whole table's integer program (search.go);
//   - Witness: integer tables known from the bounds' computation (the
//     certified method's witnesses, the confidential table itself when it
//     has every margin of the view) attain a wide enough interval (safe);
//   - Search: tables found by integer programs over the cell's
//     neighbourhood in the confidential table, over chained slabs through
//     the cell (chain.go) or over the whole table (search.go) attain a
//     wide enough interval (safe);
//   - Moves: tables reached from the confidential table by local moves in
//     the kernel of the margin system (see moveInterval) attain a wide
//     enough interval (safe);
//   - Undecided: neither (denied).
type Evidence struct {
	Sharp     int `json:"sharp"`
	Proven    int `json:"proven"`
	Witness   int `json:"witness"`
	Search    int `json:"search"`
	Moves     int `json:"moves"`
	Undecided int `json:"undecided"`
}

// Add adds the counts of o to e (the evidence of several decisions, or of
// a decision's pieces).
func (e *Evidence) Add(o Evidence) {
	e.Sharp += o.Sharp
	e.Proven += o.Proven
	e.Witness += o.Witness
	e.Search += o.Search
	e.Moves += o.Moves
	e.Undecided += o.Undecided
}

// classify applies the policy to one cell's risk (its intervals filled in
// from iv) and records the evidence. pad: the checked cell is a full cell
// inside the collapsed cell risk.Cell, free in [0, U] (see microdata.go),
// so only the collapsed cell's upper end matters.
func (a *Auditor) classify(iv *intervals, risk CellRisk, pad bool, op *OperatorReport) {
	if op.Evidence == nil {
		op.Evidence = &Evidence{}
	}
	ev := op.Evidence
	known := risk.AttainedUpper >= risk.AttainedLower
	if pad {
		risk.Lower = 0
		if known {
			risk.AttainedLower = 0
		}
	}
	switch {
	case risk.Upper-risk.Lower < risk.Required:
		op.Disclosed = append(op.Disclosed, risk)
		if iv.sharp {
			ev.Sharp++
		} else {
			ev.Proven++
		}
		return
	case known && risk.AttainedUpper-risk.AttainedLower >= risk.Required:
		switch {
		case iv.sharp:
			ev.Sharp++
		case iv.bySearch[risk.Cell]:
			ev.Search++
		case iv.byMoves[risk.Cell]:
			ev.Moves++
		default:
			ev.Witness++
		}
		return
	}
	// Not decided by the bounds' evidence: move the cell down and up
	// from the confidential table (until the decision's deadline).
	if iv.truth && a.table != nil && (op.deadline.IsZero() || time.Now().Before(op.deadline)) {
		// Search only as far as the decision needs: down to truth - req
		// (not below the proven lower bound), then up to down + req.
		c := risk.Cell
		iv.movesOnce.Do(func() { iv.moveSets = uncoveredSets(model.Dims(a.table.Vars), iv.margins) })
		down := a.table.Counts[c]
		if !pad {
			down = moveInterval(a.table, iv.moveSets, c, -1, max(risk.Lower, down-risk.Required), uint64(c))
		} else {
			down = 0
		}
		up := moveInterval(a.table, iv.moveSets, c, +1, min(risk.Upper, down+risk.Required), uint64(c))
		if !known {
			risk.AttainedLower, risk.AttainedUpper = down, up
			if pad {
				risk.AttainedLower = 0
			}
		} else {
			risk.AttainedUpper = max(risk.AttainedUpper, up)
			if !pad {
				risk.AttainedLower = min(risk.AttainedLower, down)
			}
		}
		if risk.AttainedUpper-risk.AttainedLower >= risk.Required {
			ev.Moves++
			return
		}
	}
	ev.Undecided++
	op.Undecided = append(op.Undecided, risk)
}

// Local moves: cellbounds.MoveSets and cellbounds.MoveCell (moves in the
// kernel of the margin system that keep every count non-negative).

// moveInterval moves cell c of a copy of t (cellbounds.MoveCell) and
// returns the value reached.
func moveInterval(t *model.Table, sets [][]int, c int, dir int64, goal int64, seed uint64) int64 {
	v, _ := cellbounds.MoveCell(t, sets, c, dir, goal, seed)
	return v
}

// moveTable is moveInterval returning also the table reached.
func moveTable(t *model.Table, sets [][]int, c int, dir int64, goal int64, seed uint64) (int64, []int64) {
	v, delta := cellbounds.MoveCell(t, sets, c, dir, goal, seed)
	tab := slices.Clone(t.Counts)
	for idx, x := range delta {
		tab[idx] += x
	}
	return v, tab
}

// uncoveredSets is cellbounds.MoveSets.
func uncoveredSets(dims []int, margins [][]int) [][]int { return cellbounds.MoveSets(dims, margins) }
