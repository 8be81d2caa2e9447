package suppress

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// InsiderPolicy says whether the pattern is protected against insiders
// (package intervals, InsiderAudit): contributors who know their own
// contributions, and coalitions of the two contributors of a cell.
type InsiderPolicy int

const (
	// InsidersAuto protects against insiders when the table carries
	// frequencies or contributions (some cell with Freq > 0 or a Top
	// list), the condition under which `sdcopt table audit` audits them;
	// otherwise, and for a System, it does not.
	InsidersAuto InsiderPolicy = iota
	// InsidersOn always protects against insiders (a System is refused
	// with ErrUnsupported: InsiderAudit audits one table).
	InsidersOn
	// InsidersOff protects against outsiders only.
	InsidersOff
)

// insidersFor resolves the policy for table t: whether insiders are
// modelled.
func (s *Settings) insidersFor(t *tabular.Table) bool {
	if s == nil || s.Insiders == InsidersAuto {
		for i := range t.Cells {
			if t.Cells[i].Freq > 0 || len(t.Cells[i].Top) > 0 {
				return true
			}
		}
		return false
	}
	return s.Insiders == InsidersOn
}

// insiderKnowledge returns the candidate insiders of t for the model, or
// nil when the policy leaves them out. InsidersAuto on a magnitude table
// with a negative value (no insider model, intervals.ErrInsider) gives
// nil; InsidersOn gives the error.
func insiderKnowledge(t *tabular.Table, s *Settings) ([]intervals.InsiderKnowledge, bool, error) {
	if !s.insidersFor(t) {
		return nil, false, nil
	}
	var prior func(int, float64) (float64, float64)
	if s != nil {
		prior = s.Prior
	}
	know, err := intervals.Insiders(t, &intervals.Settings{Prior: prior})
	if errors.Is(err, intervals.ErrInsider) && (s == nil || s.Insiders == InsidersAuto) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return know, true, nil
}

// override is an insider's movement bounds on the columns where they
// differ from the model's: LB^k, UB^k (cols increasing).
type override struct {
	insider int // index in the insider list
	cols    []int
	lb, ub  []float64
}

// insiderPool holds every insider target of the model, those added to
// model.targets and those not (yet) needed.
type insiderPool struct {
	know    []intervals.InsiderKnowledge
	targets []target
	added   []bool
	// impossible: targets no pattern reaches (missed with every free
	// cell suppressed); they are left out of the model, and the final
	// InsiderAudit reports them.
	impossible      []bool
	nImpossible     int
	firstImpossible string
	nOut            int // the outsider targets: model.targets[:nOut]
	// outLevel: the outsider target of (column, direction), −1 for none.
	outTarget map[[2]int]int
	nAdded    int
	lps       int // insider attacker LPs of the checks
	// Witnesses kept from earlier checks: a d stays feasible while every
	// column it moves is suppressed. outD: per outsider target, d and
	// its moved columns; inD: per insider target, its moved columns.
	outD map[int]witnessVec
	inD  [][]int
	wlps int // witness LPs of the checks
}

// witnessVec is a witness d and the columns it moves.
type witnessVec struct {
	d     []float64
	moved []int
}

// valid reports whether every column in moved is suppressed under y.
func valid(moved []int, y []float64) bool {
	for _, c := range moved {
		if y[c] != 1 {
			return false
		}
	}
	return true
}

func dirKey(col int, up bool) [2]int {
	if up {
		return [2]int{col, 1}
	}
	return [2]int{col, 0}
}

// newInsiderPool writes the targets of every insider: for each primary
// cell p it does not make up alone, an upper target of level
// needHi − a_p and a lower one of level a_p − needLo (the interval must
// reach needLo and needHi; intervals.InsiderKnowledge.Need), over its
// movement bounds LB^k_i = a_i − max(l_i, min(lb_i, u_i)) (at most LB_i),
// UB^k_i = UB_i, both 0 on a cell it makes up alone. A target implied by
// the outsider's (same bounds, level not above) is left out.
func newInsiderPool(m *model, know []intervals.InsiderKnowledge, minLevel float64) *insiderPool {
	pl := &insiderPool{know: know, nOut: len(m.targets), outTarget: map[[2]int]int{}}
	for ti, t := range m.targets {
		pl.outTarget[dirKey(t.col, t.up)] = ti
	}
	for k := range know {
		kn := &know[k]
		ov := &override{insider: k}
		for _, i := range kn.Narrowed {
			c := m.colOf[i]
			if c < 0 {
				continue
			}
			a := m.src.value(i)
			lo, up := kn.Prior(i, a)
			lb, ub := m.lb[c], m.ub[c]
			if kn.Whole[i] {
				lb, ub = 0, 0
			} else {
				lb = math.Max(math.Min(lb, a-lo), 0)
				ub = math.Max(math.Min(ub, up-a), 0)
			}
			if lb == m.lb[c] && ub == m.ub[c] {
				continue
			}
			ov.cols, ov.lb, ov.ub = append(ov.cols, c), append(ov.lb, lb), append(ov.ub, ub)
		}
		o := ov
		for c, v := range m.vr {
			if v >= 0 {
				continue
			}
			i := m.cell[c]
			needLo, needHi, _, ok := kn.Need(i)
			if !ok {
				continue
			}
			a := m.src.value(i)
			tiny := levelTol * math.Max(1, math.Abs(a))
			t := target{cell: i, col: c, ov: o}
			lbp, ubp := m.bounds(t, c)
			up, down := needHi-a, a-needLo
			if up <= tiny && down <= tiny {
				// Only "not disclosed" is required: the smallest level,
				// as for the outsider.
				ml := minLevel * math.Max(1, math.Abs(a))
				if ubp > 0 {
					up = math.Min(ml, ubp)
				} else {
					down = math.Min(ml, lbp)
				}
			}
			for _, dir := range []bool{true, false} {
				level := down
				if dir {
					level = up
				}
				if level <= tiny {
					continue
				}
				t.up, t.level = dir, level
				if len(o.cols) == 0 {
					if ot, ok := pl.outTarget[dirKey(c, dir)]; ok && level <= m.targets[ot].level*(1+levelTol) {
						continue
					}
				}
				pl.targets = append(pl.targets, t)
			}
		}
	}
	pl.added = make([]bool, len(pl.targets))
	pl.impossible = make([]bool, len(pl.targets))
	pl.outD = map[int]witnessVec{}
	pl.inD = make([][]int, len(pl.targets))
	return pl
}

// insiderGuard checks patterns against the insider targets not yet in
// the model and adds the violated ones.
type insiderGuard struct {
	m    *model
	att  *attacker
	heur *heuristic
	ms   *master // nil: no cuts are kept (the fast method)
	pool *insiderPool
}

// check checks the pattern sup (per master variable) against every
// insider target not in the model. Targets whose level the outsider's
// least-movement witness d already reaches within the insider's bounds
// are reached; the others get an attacker LP. Violated targets join
// model.targets (every later separation, repair and cleanup sees them)
// and their capacity cuts go to the master. It returns how many were
// added. With all (sup suppresses every free cell, the largest polytope
// of every insider) a violated target is one no pattern reaches: it is
// marked impossible and left out instead.
func (g *insiderGuard) check(sup []bool, all bool) (int, error) {
	m, pl := g.m, g.pool
	y := m.colY(sup)
	if err := g.heur.setY(y); err != nil {
		return 0, err
	}
	yv := make([]float64, len(sup))
	for v, on := range sup {
		if on {
			yv[v] = 1
		}
	}
	tried := map[int]bool{} // outsider targets whose witness LP ran in this check
	witness := func(ti int) ([]float64, error) {
		if w, ok := pl.outD[ti]; ok && valid(w.moved, y) {
			return w.d, nil
		}
		if tried[ti] {
			return nil, nil
		}
		tried[ti] = true
		d, err := g.heur.witnessD(m.targets[ti])
		pl.wlps++
		if d != nil {
			pl.outD[ti] = witnessVec{d: d, moved: movedCols(d, m.targets[ti].level)}
		}
		return d, err
	}
	attY := false
	added := 0
	for j, t := range pl.targets {
		if pl.added[j] || pl.impossible[j] {
			continue
		}
		ot, hasOut := pl.outTarget[dirKey(t.col, t.up)]
		lower := hasOut && t.level <= m.targets[ot].level*(1+levelTol)
		if lower {
			// Without a suppressed column of its own, the insider's
			// polytope is the outsider's: reached.
			own := false
			for _, c := range t.ov.cols {
				if y[c] == 1 {
					own = true
					break
				}
			}
			if !own {
				continue
			}
			d, err := witness(ot)
			if err != nil {
				return 0, err
			}
			if d != nil && within(t.ov, d, flowTol*math.Max(1, t.level)) {
				continue
			}
			if d != nil {
				ok, err := g.combined(t, d, witness)
				if err != nil {
					return 0, err
				}
				if ok {
					continue
				}
			}
		}
		if pl.inD[j] != nil && valid(pl.inD[j], y) {
			continue
		}
		if !all {
			// The insider's own witness LP (least movement within its
			// bounds): feasible exactly when the target is reached, and
			// its d is kept for later checks. The attacker LP (for the
			// cut) runs only when it is not.
			d, err := g.heur.witnessD(t)
			if err != nil {
				return 0, err
			}
			pl.wlps++
			if d != nil {
				pl.inD[j] = movedCols(d, t.level)
				continue
			}
		}
		if !attY {
			if err := g.att.setY(y); err != nil {
				return 0, err
			}
			attY = true
		}
		o, err := g.att.solve(t)
		if err != nil {
			return 0, err
		}
		pl.lps++
		if o.reached {
			continue
		}
		if all {
			pl.impossible[j] = true
			if pl.nImpossible == 0 {
				dir := "up"
				if !t.up {
					dir = "down"
				}
				pl.firstImpossible = fmt.Sprintf("primary cell (%s) cannot move %s by %g against the %s even with every other cell suppressed (reaches %g)",
					m.src.name(t.cell), dir, t.level, g.insiderName(t), o.z)
			}
			pl.nImpossible++
			continue
		}
		pl.added[j] = true
		pl.nAdded++
		m.targets = append(m.targets, t)
		added++
		if g.ms == nil {
			continue
		}
		c, ok, infeasible := g.att.cutOf(t, o.res)
		if infeasible {
			return 0, fmt.Errorf("%w: primary cell (%s) cannot reach its level %g against the %s", ErrInfeasible, m.src.name(t.cell), t.level, g.insiderName(t))
		}
		if ok && c.lhs(yv) < 1-1e-6 {
			g.ms.add(true, c)
		}
	}
	return added, nil
}

// insiderName names the insider of target t.
func (g *insiderGuard) insiderName(t target) string {
	if t.ov == nil {
		return "an insider"
	}
	return "insider " + g.pool.know[t.ov.insider].Insider.Name(g.m.src.name)
}

// movedCols returns the columns d moves (beyond flowTol relative to
// the level), never nil.
func movedCols(d []float64, level float64) []int {
	out := []int{}
	for c, x := range d {
		if math.Abs(x) > flowTol*math.Max(1, level) {
			out = append(out, c)
		}
	}
	return out
}

// within reports whether d stays within the insider's bounds on its own
// columns (to tol).
func within(ov *override, d []float64, tol float64) bool {
	if ov == nil {
		return true
	}
	for k, c := range ov.cols {
		if d[c] < -ov.lb[k]-tol || d[c] > ov.ub[k]+tol {
			return false
		}
	}
	return true
}

// witnessD returns the least-movement d of target t under the witness
// LP's pattern, per column, or nil when the LP gives none.
func (h *heuristic) witnessD(t target) ([]float64, error) {
	flow, r, err := h.flowSolve(h.wit, t, 1)
	if err != nil {
		return nil, err
	}
	if r != nil && r.Abandoned {
		return nil, h.openWit()
	}
	if flow == nil {
		return nil, nil
	}
	nc := len(h.m.cell)
	d := make([]float64, nc)
	for c := range d {
		d[c] = r.X[c] - r.X[nc+c]
	}
	return d, nil
}

// offerSafe makes pt the incumbent when it is cheaper and safe against
// the insiders too: while the check adds insider targets, pt is
// repaired (protection LPs with the insiders' bounds) and cleaned up
// again. At the deadline (zero: none) an unfinished repair is dropped.
func (se *search) offerSafe(pt *pattern, deadline time.Time) error {
	for se.guard != nil && pt != nil {
		n, err := se.guard.check(pt.sup, false)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		if pt, err = se.heur.repair(slices.Clone(pt.sup), nil, deadline); err != nil || pt == nil {
			return err
		}
		if err := se.heur.cleanup(pt, deadline); err != nil {
			return err
		}
	}
	if pt != nil {
		se.offer(pt)
	}
	return nil
}

// insiderAudit runs intervals.InsiderDecide (InsiderAudit's report,
// decided per insider and primary cell), with no cap on the insiders, on
// t under the pattern of res: the final check against insiders.
func insiderAudit(t *tabular.Table, s *Settings, res *Result) error {
	c := *t
	c.Cells = slices.Clone(t.Cells)
	for i := range c.Cells {
		c.Cells[i].Status = res.Status[i]
	}
	rep, err := intervals.InsiderDecide(&c, nil, &intervals.InsiderSettings{Settings: auditSettings(s), MaxInsiders: -1})
	if err != nil {
		return fmt.Errorf("suppress: insider audit of the pattern: %w", err)
	}
	res.Insiders = rep
	if !rep.OK() {
		if res.InsiderImpossible > 0 {
			return fmt.Errorf("%w: %d insider finding(s); %d insider target(s) no pattern reaches, the first: %s",
				ErrUnsafe, len(rep.Findings), res.InsiderImpossible, res.impossibleNote)
		}
		return fmt.Errorf("%w: %d insider finding(s)", ErrUnsafe, len(rep.Findings))
	}
	return nil
}

// protectInsidersFast repairs the fast method's pattern (res, safe
// against outsiders) against the insiders: every insider target the
// pattern misses is added, and the protection LP (with the insider's
// bounds) suppresses more cells, until the check passes. The outsider
// audit of res is then redone.
func protectInsidersFast(t *tabular.Table, s *Settings, res *Result, know []intervals.InsiderKnowledge) error {
	if s == nil {
		s = &Settings{}
	}
	src := tableSource(t)
	m, err := buildModel(src, s)
	if err != nil {
		return err
	}
	pool := newInsiderPool(m, know, s.minLevel())
	if len(pool.targets) == 0 {
		return nil
	}
	lpSv, err := solvers.New(s.LPSolver, false)
	if err != nil {
		return err
	}
	lpPrm := &solvers.Params{FeasTol: s.Params.OrDefault().FeasTol}
	att, err := newAttacker(m, lpSv, lpPrm)
	if err != nil {
		return err
	}
	defer att.close()
	psv, err := s.protectionSolver()
	if err != nil {
		return err
	}
	heur, err := newHeuristic(m, att, lpSv, psv, lpPrm)
	if err != nil {
		return err
	}
	defer heur.close()
	g := &insiderGuard{m: m, att: att, heur: heur, pool: pool}
	all := make([]bool, len(m.col))
	for v := range all {
		all[v] = true
	}
	if _, err := g.check(all, true); err != nil {
		return err
	}
	res.InsiderImpossible, res.impossibleNote = pool.nImpossible, pool.firstImpossible
	sup := make([]bool, len(m.col))
	for v, c := range m.col {
		sup[v] = res.Status[m.cell[c]] == tabular.Secondary
	}
	changed := false
	for {
		n, err := g.check(sup, false)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		pt, err := heur.repair(sup, nil, time.Time{})
		if err != nil {
			return err
		}
		sup, changed = pt.sup, true
	}
	res.InsiderTargets, res.InsiderLPs = pool.nAdded, pool.lps
	res.AttackerLPs += att.solves
	res.HeuristicLPs += heur.solves
	if !changed {
		return nil
	}
	res.Secondary, res.Cost = 0, 0
	for v, c := range m.col {
		i := m.cell[c]
		if sup[v] {
			res.Status[i] = tabular.Secondary
			res.Secondary++
			res.Cost += src.cost(i)
		} else if res.Status[i] == tabular.Secondary {
			res.Status[i] = tabular.Safe
		}
	}
	ir, err := tableAudit(t, s)(res.Status)
	if err != nil {
		return fmt.Errorf("suppress: auditing the pattern: %w", err)
	}
	res.Audit = intervals.Audit(ir, func(i int) (float64, float64) {
		if src.status(i) != tabular.Primary {
			return 0, 0
		}
		lo, up, _ := src.levels(i)
		return lo, up
	})
	if !res.Audit.OK() {
		return fmt.Errorf("%w: %d primary cells under-protected, %d suppressed cells disclosed", ErrUnsafe, len(res.Audit.UnderProtected), len(res.Audit.Disclosed))
	}
	return nil
}

// combined reports whether the outsider's witness d of target t,
// corrected on the first column where it leaves the insider's bounds by
// the outsider's witness of that column moving the other way (a sum of
// two solutions of A d = 0 is one), then scaled to fit every bound,
// still reaches t's level: then the insider's polytope reaches it too.
// witness gives the outsider witness of an outsider target (nil: none).
func (g *insiderGuard) combined(t target, d []float64, witness func(int) ([]float64, error)) (bool, error) {
	m, pl := g.m, g.pool
	tol := flowTol * math.Max(1, t.level)
	c := -1
	for k, col := range t.ov.cols {
		if d[col] < -t.ov.lb[k]-tol || d[col] > t.ov.ub[k]+tol {
			c = col
			break
		}
	}
	if c < 0 {
		return false, nil
	}
	ot, ok := pl.outTarget[dirKey(c, d[c] < 0)]
	if !ok {
		return false, nil
	}
	d2, err := witness(ot)
	if err != nil || d2 == nil || d2[c]*d[c] >= 0 {
		return false, err
	}
	f := -d[c] / d2[c]
	// D = d + f·d2, with D_c = 0; the largest μ with μ·D within bounds.
	mu := math.Inf(1)
	for col := range d {
		x := d[col] + f*d2[col]
		if math.Abs(x) <= tol {
			continue
		}
		lb, ub := m.bounds(t, col)
		if x > 0 {
			mu = math.Min(mu, ub/x)
		} else {
			mu = math.Min(mu, lb/-x)
		}
	}
	x := d[t.col] + f*d2[t.col]
	if !t.up {
		x = -x
	}
	return x > 0 && mu*x >= t.level-tol, nil
}
