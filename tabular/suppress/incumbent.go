package suppress

import (
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// The first incumbent from the fast method.
//
// Checking the pattern that suppresses every free cell (firstIncumbent)
// solves every attacker LP over the largest polytope, which on tables of
// thousands of cells takes longer than the rest of a short search. The
// fast method (fast.go) finds a safe pattern in well under a second
// there and, when its cubes and repairs decide the audit
// (Result.Decided), carries the proof: a move per target, each a point
// of the attacker's polytope checked exactly by intervals.Decide. Solve
// then starts from that pattern, cleaned by the moves, and skips the
// all-suppressed check; a safe pattern also proves that no outsider
// target is infeasible. When the fast method fails or its audit does
// not pass, the all-suppressed check runs as before (it is what names a
// primary cell that cannot be protected). Either way the pattern goes
// through offerSafe, which checks the insider targets.
//
// The cleanup by moves publishes, in decreasing order of cost (then
// increasing variable order), each suppressed free cell whose removal
// leaves every target proven: publishing a cell drops the moves that
// move it, and it is kept published when every outsider target still has
// a remaining move that reaches its level, the way the target says. A
// cell no remaining move changes is then published too (no move is
// dropped). The moves are the fast method's and their negations (the
// attacker's polytope is symmetric about the true table in the
// deviations, up to the bounds, which are checked). No LP is solved; the
// cleaned pattern is accepted only when intervals.Decide proves it safe
// with the remaining moves, else the fast pattern is kept as it is.

// fastFunc runs the fast method on the input of the search (SolveFast or
// SolveSystemFast).
type fastFunc func(*Settings) (*Result, error)

// moveTol is the relative slack of the float checks of a move against a
// level or a bound in the cleanup by moves; intervals.Decide then checks
// the cleaned pattern exactly.
const moveTol = 1e-9

// fastIncumbent returns the fast method's pattern, cleaned by its moves,
// or nil when the fast method does not give a pattern it proved safe (by
// intervals.Decide or by its full audit). Errors of the fast method are
// not returned: the caller then checks the all-suppressed pattern, which
// reports what is wrong.
func (se *search) fastIncumbent(fast fastFunc, decide decideFunc) *pattern {
	if fast == nil {
		return nil
	}
	fs := *se.s
	// Outsiders only: the insider targets are checked by offerSafe.
	fs.Method, fs.Insiders, fs.Progress, fs.ExactAudit, fs.NoAudit = MethodFast, InsidersOff, nil, false, false
	r, err := fast(&fs)
	if err != nil || r == nil || r.Audit == nil || !r.Audit.OK() {
		return nil
	}
	m := se.m
	sup := make([]bool, len(m.col))
	for i, st := range r.Status {
		if st != tabular.Secondary {
			continue
		}
		c := m.colOf[i]
		if c < 0 || m.vr[c] < 0 {
			return nil // not a free cell of the model: the models differ
		}
		sup[m.vr[c]] = true
	}
	se.res.FastIncumbentCost = m.patternCost(sup)
	if r.Decided && decide != nil {
		if cl, live := m.cleanByMoves(sup, r.moves); cl != nil {
			d, err := decide(se.statusOf(cl), se.levelsOf, live)
			if err == nil && d.OK() {
				sup = cl
			}
		}
	}
	se.res.FastIncumbent = true
	pt := &pattern{sup: sup, cost: m.patternCost(sup)}
	if lpCleanFast {
		// The witnesses of every target, then the LP cleanup; an
		// engine failure or the deadline keeps the pattern as it is.
		if w, err := se.heur.repair(slices.Clone(sup), nil, se.deadline); err == nil && w != nil {
			if err := se.heur.cleanup(w, se.deadline); err == nil && w.cost < pt.cost {
				pt = w
			}
		}
	}
	return pt
}

// lpCleanFast makes fastIncumbent also clean the pattern with the
// heuristic's witness LPs (heuristic.cleanup) after the cleanup by
// moves. Off: on "3way-5000" under a 60 s limit the witness LPs of the
// repair did not finish before the deadline (BenchmarkIncumbent3way5000,
// case lpclean-60s), so the pattern was not improved and the LP phase
// lost its first minute; kept for that measurement.
var lpCleanFast = false

// statusOf returns the statuses of the source's cells under the pattern
// sup (input Secondary cells not in it become Safe).
func (se *search) statusOf(sup []bool) []tabular.Status {
	m := se.m
	st := make([]tabular.Status, m.src.n)
	for i := range st {
		st[i] = m.src.status(i)
		if st[i] == tabular.Secondary {
			st[i] = tabular.Safe
		}
	}
	for v, on := range sup {
		if on {
			st[m.cell[m.col[v]]] = tabular.Secondary
		}
	}
	return st
}

// levelsOf gives the audit's protection levels of cell i.
func (se *search) levelsOf(i int) (float64, float64) {
	src := se.m.src
	if src.status(i) != tabular.Primary {
		return 0, 0
	}
	lo, up, _ := src.levels(i)
	return lo, up
}

// colMove is a move in the model's columns: deviation d[k] of column
// cols[k].
type colMove struct {
	cols []int
	d    []float64
	mv   intervals.Move
}

// colMoves converts moves (and their negations) to the model's columns,
// dropping those that move a cell the model publishes for sure or exceed
// its movement bounds LB, UB.
func (m *model) colMoves(moves []intervals.Move) []colMove {
	var out []colMove
	for _, mv := range moves {
		for _, sign := range []int{1, -1} {
			cm := colMove{mv: intervals.Move{Step: mv.Step, Cells: mv.Cells}}
			ok := len(mv.Cells) == len(mv.Mult) && mv.Step > 0 && !math.IsInf(mv.Step, 0)
			for k := 0; ok && k < len(mv.Cells); k++ {
				i := mv.Cells[k]
				if i < 0 || i >= len(m.colOf) || m.colOf[i] < 0 {
					ok = false
					break
				}
				c := m.colOf[i]
				d := mv.Step * float64(sign*mv.Mult[k])
				if (d > 0 && d > m.ub[c]*(1+moveTol)) || (d < 0 && -d > m.lb[c]*(1+moveTol)) {
					ok = false
					break
				}
				cm.cols, cm.d = append(cm.cols, c), append(cm.d, d)
				cm.mv.Mult = append(cm.mv.Mult, sign*mv.Mult[k])
			}
			if ok {
				out = append(out, cm)
			}
		}
	}
	return out
}

// cleanByMoves returns the pattern sup cleaned by the moves (see the
// comment at the top of this file) with the moves that remain, or nil
// when some outsider target has no move that proves it (nothing is then
// published).
func (m *model) cleanByMoves(sup []bool, moves []intervals.Move) ([]bool, []intervals.Move) {
	cms := m.colMoves(moves)
	suppressed := func(c int) bool { return m.vr[c] < 0 || sup[m.vr[c]] }
	targetsOf := map[int][]int{} // outsider targets by column
	for ti, t := range m.targets {
		if t.ov == nil {
			targetsOf[t.col] = append(targetsOf[t.col], ti)
		}
	}
	proves := make([][]int, len(cms)) // targets each move reaches
	byCol := make([][]int, len(m.cell))
	live := make([]bool, len(cms))
	count := make([]int, len(m.targets)) // live moves reaching each target
	use := make([]int, len(m.cell))      // live moves changing each column
	for k, cm := range cms {
		if !slices.ContainsFunc(cm.cols, func(c int) bool { return !suppressed(c) }) {
			live[k] = true
		}
		for j, c := range cm.cols {
			byCol[c] = append(byCol[c], k)
			for _, ti := range targetsOf[c] {
				t := m.targets[ti]
				d := cm.d[j]
				if !t.up {
					d = -d
				}
				if d >= t.level*(1-moveTol) {
					proves[k] = append(proves[k], ti)
				}
			}
		}
		if live[k] {
			for _, c := range cm.cols {
				use[c]++
			}
			for _, ti := range proves[k] {
				count[ti]++
			}
		}
	}
	for ti, t := range m.targets {
		if t.ov == nil && count[ti] == 0 {
			return nil, nil
		}
	}
	out := slices.Clone(sup)
	var order []int
	for v, on := range out {
		if on {
			order = append(order, v)
		}
	}
	m.byCostDesc(order)
	lost := make([]int, len(m.targets))
	for _, v := range order {
		c := m.col[v]
		var touched []int
		ok := true
		for _, k := range byCol[c] {
			if !live[k] {
				continue
			}
			for _, ti := range proves[k] {
				lost[ti]++
				touched = append(touched, ti)
				if lost[ti] >= count[ti] {
					ok = false
				}
			}
		}
		for _, ti := range touched {
			lost[ti] = 0
		}
		if !ok {
			continue
		}
		out[v] = false
		for _, k := range byCol[c] {
			if !live[k] {
				continue
			}
			live[k] = false
			for _, ti := range proves[k] {
				count[ti]--
			}
			for _, c2 := range cms[k].cols {
				use[c2]--
			}
		}
	}
	// A cell no remaining move changes: publishing it drops no move.
	for v, on := range out {
		if on && use[m.col[v]] == 0 {
			out[v] = false
		}
	}
	var kept []intervals.Move
	for k, cm := range cms {
		if live[k] {
			kept = append(kept, cm.mv)
		}
	}
	return out, kept
}
