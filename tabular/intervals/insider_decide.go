package intervals

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// The decision version of the insider audit. InsiderAudit computes, for
// every insider whose knowledge narrows a suppressed cell's prior, every
// suppressed cell's interval (one Compute). Its verdict only needs, per
// primary cell j and insider k, whether j's interval under k's prior
// reaches NeedLower and NeedUpper and is more than one point. InsiderDecide
// answers that question cell by cell:
//
//   - the attacker problem splits into independent components (the
//     suppressed cells joined by shared relations); a primary cell in a
//     component where k narrows no cell keeps its plain interval, which
//     the plain result r already holds;
//   - in a component k touches, a witness decides "yes": a feasible point
//     x of the plain (or an earlier insider's) attacker problem that
//     lies within k's bounds on the cells k narrows (the other bounds
//     and every relation are the plain ones) is a point of k's polytope,
//     so k's max of x_j is at least x_j (min at most). The witnesses are
//     the optimal points of the attacker LPs solved so far for (j, sense);
//   - only an open end is solved: one LP, max or min x_j over the
//     component under k's prior. A cell that fails gets its other end
//     solved too, so that a finding carries its whole interval.
//
// A witness is accepted with a margin of half the audit's tolerance
// (AuditTol) on the need and twice SnapTol on the width, and its bounds
// are checked to decideFeasTol: the verdicts equal InsiderAudit's except
// for an end within the engines' round-off of a need's tolerance.

// decideFeasTol is the slack (relative to max(1, |bound|)) with which a
// witness point must respect an insider's narrowed bounds: the engines'
// primal feasibility tolerance (about 1e-9).
const decideFeasTol = 1e-9

// maxWitnesses caps the witness points kept per (cell, sense); the most
// recent ones are kept.
const maxWitnesses = 8

// InsiderDecide is InsiderAudit (same arguments, same report) computed by
// the decision procedure above instead of one Compute per insider: the
// Findings and Largest estimates are InsiderAudit's, each Insider's
// Solves counts the LPs solved under its prior, Solves adds those of the
// plain problem (a cell's first witness, at most two per primary cell),
// and Decided counts the (insider, cell) pairs decided by witnesses
// alone. Integer intervals (Settings.Integer)
// are delegated to InsiderAudit. Errors are InsiderAudit's.
func InsiderDecide(t *tabular.Table, r *Result, s *InsiderSettings) (*InsiderReport, error) {
	if s == nil {
		s = &InsiderSettings{}
	}
	if s.Settings != nil && s.Settings.Integer {
		return InsiderAudit(t, r, s)
	}
	base, r, a, rep, cands, err := startInsiders(t, r, s)
	if err != nil {
		return nil, err
	}
	d, err := newDecider(t, base, r)
	if err != nil {
		return nil, err
	}
	defer d.close()
	// largest[id][cell]: the interval of cell as its largest contributor
	// id knows it.
	largest := map[string]map[int]Interval{}
	for k := range cands {
		in := &cands[k]
		kn := a.knowledge(in)
		changes := a.changes(kn)
		in.Reused = !changes
		var lo, up map[int]float64 // the insider's bounds where they differ, by variable
		touched := map[int]bool{}  // components with a narrowed variable
		if changes {
			lo, up = map[int]float64{}, map[int]float64{}
			pr := a.prior(kn)
			for v, c := range d.a.cells {
				l, u := pr(c, d.a.values[v])
				if l != d.a.lo[v] || u != d.a.up[v] {
					lo[v], up[v] = l, u
					touched[d.comp[v]] = true
				}
			}
		}
		d.setInsider(lo, up)
		isLargest := func(cell int) bool {
			c := &t.Cells[cell]
			return a.identities() && in.Kind == Respondent && !in.Holding && len(c.Top) > 0 && c.Freq >= 2 && c.Top[0].ID == in.IDs[0]
		}
		before := d.solves
		for v := range r.Intervals {
			iv := &r.Intervals[v]
			if iv.Status != tabular.Primary {
				continue
			}
			audited := !kn.whole[iv.Cell] && !a.outsider[iv.Cell]
			lg := isLargest(iv.Cell)
			if !audited && !lg {
				continue
			}
			res := *iv
			exact := !touched[d.comp[v]]
			if !exact && !lg {
				needLo, needHi, _, _ := a.requirement(in, kn, iv.Cell)
				solved := d.solves
				ok, err := d.reaches(v, needLo, needHi)
				if err != nil {
					return nil, fmt.Errorf("insider %s: %w", in.Name(t.CellName), err)
				}
				if ok {
					if d.solves == solved {
						rep.Decided++
					}
					continue
				}
			}
			if !exact {
				if res.Lower, res.Upper, err = d.ends(v); err != nil {
					return nil, fmt.Errorf("insider %s: %w", in.Name(t.CellName), err)
				}
			}
			if lg {
				if largest[in.IDs[0]] == nil {
					largest[in.IDs[0]] = map[int]Interval{}
				}
				largest[in.IDs[0]][iv.Cell] = res
			}
			if !audited {
				continue
			}
			f := a.check(in, kn, &res)
			if f.ShortBelow > 0 || f.ShortAbove > 0 || f.Disclosed {
				f.Insider = k
				rep.Findings = append(rep.Findings, f)
			}
		}
		in.Solves = d.solves - before
		rep.Solves += in.Solves
	}
	rep.Insiders = cands
	rep.Solves += d.plain
	if a.identities() {
		rep.Largest = a.largestOf(r, func(id string, cell int) (*Interval, bool) {
			iv, ok := largest[id][cell]
			return &iv, ok
		})
	}
	return rep, nil
}

// insiderNonNegative returns ErrInsider (wrapped) for a magnitude table
// with a negative value.
func insiderNonNegative(t *tabular.Table) error {
	if t.Magnitude {
		for i := range t.Cells {
			if t.Cells[i].Value < 0 {
				return fmt.Errorf("%w: cell (%s) has the negative value %g; insiders' contributions bound cells only on non-negative data",
					ErrInsider, t.CellName(i), t.Cells[i].Value)
			}
		}
	}
	return nil
}

// decider answers, for one insider at a time, whether a primary cell's
// interval reaches its need, from witnesses and single-cell LPs.
type decider struct {
	a     *attacker
	comps []component
	comp  []int // component of each variable
	local []int // index of each variable in its component
	name  string
	s     *Settings
	sv    solvers.Solver
	sess  []solvers.Session // per component, opened when first needed
	// applied[c]: the variables of component c whose session bounds are
	// the insider's (restored by setInsider).
	applied map[int][]int
	// narrowed[c]: the variables of component c with the insider's bounds.
	narrowed map[int][]int
	lo, up   map[int]float64 // the current insider's bounds where they differ
	// wit[sense][v]: witness points of variable v.
	wit [2]map[int][]witnessPoint
	// solves: LPs under an insider's prior; plain: LPs of the plain
	// problem (the first witness of a cell and sense).
	solves, plain int
}

func newDecider(t *tabular.Table, s *Settings, r *Result) (*decider, error) {
	si := *s
	si.Integer = false
	a, err := build(tableSource(t), &si)
	if err != nil {
		return nil, err
	}
	if len(a.cells) != len(r.Intervals) {
		return nil, fmt.Errorf("intervals: the plain result has %d intervals for %d suppressed cells", len(r.Intervals), len(a.cells))
	}
	for v, c := range a.cells {
		if r.Intervals[v].Cell != c {
			return nil, fmt.Errorf("intervals: the plain result is not of this table (interval %d is of cell %d, not %d)", v, r.Intervals[v].Cell, c)
		}
	}
	d := &decider{a: a, comps: a.components(false), comp: make([]int, len(a.cells)), local: make([]int, len(a.cells)),
		s: &si, applied: map[int][]int{}, narrowed: map[int][]int{}}
	d.wit[0], d.wit[1] = map[int][]witnessPoint{}, map[int][]witnessPoint{}
	for k, c := range d.comps {
		for l, v := range c.vars {
			d.comp[v], d.local[v] = k, l
		}
	}
	d.sess = make([]solvers.Session, len(d.comps))
	d.name = s.Solver
	if d.name == "" {
		d.name = "auto"
	}
	return d, nil
}

func (d *decider) close() {
	for _, s := range d.sess {
		if s != nil {
			s.Close()
		}
	}
}

// setInsider restores the plain bounds of the sessions and makes lo, up
// the current insider's bounds (applied to a session when it solves).
func (d *decider) setInsider(lo, up map[int]float64) {
	for c, vars := range d.applied {
		if d.sess[c] == nil {
			continue
		}
		for _, v := range vars {
			if err := d.sess[c].SetColBounds(d.local[v], d.a.lo[v], d.a.up[v]); err != nil {
				d.sess[c].Close()
				d.sess[c] = nil
				break
			}
		}
	}
	clear(d.applied)
	d.lo, d.up = lo, up
	clear(d.narrowed)
	for v := range lo {
		d.narrowed[d.comp[v]] = append(d.narrowed[d.comp[v]], v)
	}
}

// bounds returns the current insider's bounds of variable v.
func (d *decider) bounds(v int) (float64, float64) {
	if l, ok := d.lo[v]; ok {
		return l, d.up[v]
	}
	return d.a.lo[v], d.a.up[v]
}

// session returns component c's session with the current insider's
// bounds.
func (d *decider) session(c int) (solvers.Session, error) {
	if d.sess[c] == nil {
		if d.sv == nil {
			var err error
			if d.sv, err = solvers.New(d.name, false); err != nil {
				return nil, err
			}
		}
		comp := d.comps[c]
		local := make(map[int]int, len(comp.vars))
		for l, v := range comp.vars {
			local[v] = l
		}
		p := d.a.subproblem(comp, local, false)
		var err error
		if d.sv.Capabilities().Incremental {
			d.sess[c], err = d.sv.NewSession(p, d.s.Params)
		} else {
			d.sess[c], err = solvers.NewReloadSession(d.sv, p, d.s.Params)
		}
		if err != nil {
			d.sess[c] = nil
			return nil, err
		}
		delete(d.applied, c)
	}
	if _, ok := d.applied[c]; !ok {
		vars := d.narrowed[c]
		for _, v := range vars {
			if err := d.sess[c].SetColBounds(d.local[v], d.lo[v], d.up[v]); err != nil {
				return nil, err
			}
		}
		d.applied[c] = vars
	}
	return d.sess[c], nil
}

// solve returns the current insider's min or max of variable v and keeps
// the optimal point as a witness.
func (d *decider) solve(v int, sense solvers.Sense) (float64, error) {
	c := d.comp[v]
	if len(d.comps[c].rows) == 0 {
		lo, up := d.bounds(v)
		if sense == solvers.Maximize {
			return up, nil
		}
		return lo, nil
	}
	sess, err := d.session(c)
	if err != nil {
		return 0, err
	}
	l := d.local[v]
	if err := sess.SetObjective([]int{l}, []float64{1}); err != nil {
		return 0, err
	}
	if err := sess.SetSense(sense); err != nil {
		return 0, err
	}
	r, err := sess.Solve()
	if err != nil {
		return 0, err
	}
	d.solves++
	if r.Abandoned {
		sess.Close()
		d.sess[c] = nil
	} else if err := sess.SetObjective([]int{l}, []float64{0}); err != nil {
		return 0, err
	}
	if r.Status == solvers.InfeasibleOrUnbounded && d.sess[c] != nil {
		// Engines say this of an unbounded end; the zero objective (set
		// back above) decides, as in Compute.
		fr, err := sess.Solve()
		if err != nil {
			return 0, err
		}
		d.solves++
		if fr.HasSolution {
			r = &solvers.Result{Solver: r.Solver, Status: solvers.Unbounded}
		}
	}
	if r.HasSolution && len(r.X) == len(d.comps[c].vars) {
		w := d.wit[senseIndex(sense)]
		w[v] = append(w[v], d.point(c, r.X))
		if len(w[v]) > maxWitnesses {
			w[v] = w[v][1:]
		}
	}
	b, err := d.a.bound(r, v, sense, false)
	if err != nil {
		return 0, err
	}
	if r.Status.Limit() {
		// A limit without a proven bound: the insider's prior bound, as
		// Compute under its prior.
		lo, up := d.bounds(v)
		if sense == solvers.Maximize {
			return up, nil
		}
		return lo, nil
	}
	return b, nil
}

// witness returns the largest (Maximize) or least value of variable v
// among its witnesses within the current insider's bounds; ok is false
// when none is.
func (d *decider) witness(v int, sense solvers.Sense) (float64, bool) {
	best, ok := 0.0, false
	narrowed := d.narrowed[d.comp[v]]
	for _, x := range d.wit[senseIndex(sense)][v] {
		in := true
		for _, u := range narrowed {
			lo, up := d.lo[u], d.up[u]
			xu := x.at(d, u)
			if xu < lo-decideFeasTol*math.Max(1, math.Abs(lo)) || xu > up+decideFeasTol*math.Max(1, math.Abs(up)) {
				in = false
				break
			}
		}
		val := x.at(d, v)
		if !in {
			var okc bool
			if val, okc = d.corrected(v, sense, x); !okc {
				continue
			}
		}
		if !ok || (sense == solvers.Maximize && val > best) || (sense == solvers.Minimize && val < best) {
			best, ok = val, true
		}
	}
	return best, ok
}

// end returns a witness value of v for sense reaching need (within half
// the audit's tolerance tol), solving the plain LP first when v has no
// witness yet; ok is false when none reaches it.
func (d *decider) end(v int, sense solvers.Sense, need, tol float64) (float64, bool, error) {
	if err := d.plainWitness(v, sense); err != nil {
		return 0, false, err
	}
	x, ok := d.witness(v, sense)
	if !ok {
		return 0, false, nil
	}
	if sense == solvers.Maximize {
		return x, x >= need-tol/2, nil
	}
	return x, x <= need+tol/2, nil
}

// reaches reports whether v's interval under the current insider
// reaches needLo and needHi and is more than one point, from witnesses
// and, for an end no witness reaches, that end's LP; false leaves it
// open (an end falls short, or the interval may be one point).
func (d *decider) reaches(v int, needLo, needHi float64) (bool, error) {
	if len(d.comps[d.comp[v]].rows) == 0 {
		return false, nil // no LP to save: ends solves nothing
	}
	x := d.a.values[v]
	tol := AuditTol * math.Max(1, math.Abs(x))
	snapW := SnapTol * math.Max(1, math.Abs(x))
	hi, okHi, err := d.end(v, solvers.Maximize, needHi, tol)
	if err != nil {
		return false, err
	}
	lo, okLo, err := d.end(v, solvers.Minimize, needLo, tol)
	if err != nil {
		return false, err
	}
	if okHi && okLo {
		return hi-lo > 2*snapW, nil
	}
	// One LP per open end; a witness end stands inside the interval, so
	// a width beyond twice SnapTol with it proves "more than one point".
	exactHi, exactLo := false, false
	if !okHi {
		if hi, err = d.solve(v, solvers.Maximize); err != nil {
			return false, err
		}
		if needHi-hi > tol {
			return false, nil
		}
		exactHi = true
	}
	if !okLo {
		if lo, err = d.solve(v, solvers.Minimize); err != nil {
			return false, err
		}
		if lo-needLo > tol {
			return false, nil
		}
		exactLo = true
	}
	if exactHi && exactLo {
		return hi-lo > snapW, nil
	}
	return hi-lo > 2*snapW, nil
}

// ends returns v's interval under the current insider.
func (d *decider) ends(v int) (lo, up float64, err error) {
	if lo, err = d.solve(v, solvers.Minimize); err != nil {
		return 0, 0, err
	}
	up, err = d.solve(v, solvers.Maximize)
	return lo, up, err
}

// witnessPoint is a feasible point of a component, stored as the
// variables (increasing) where it differs from the true values.
type witnessPoint struct {
	vars []int32
	x    []float64
}

// point returns the witness of component c's solution x (local order).
func (d *decider) point(c int, x []float64) witnessPoint {
	var w witnessPoint
	for l, v := range d.comps[c].vars {
		if x[l] != d.a.values[v] {
			w.vars, w.x = append(w.vars, int32(v)), append(w.x, x[l])
		}
	}
	return w
}

// at returns the point's value of variable v.
func (w witnessPoint) at(d *decider, v int) float64 {
	if k, ok := slices.BinarySearch(w.vars, int32(v)); ok {
		return w.x[k]
	}
	return d.a.values[v]
}

// plainWitness solves the plain problem's optimum of (v, sense), its
// first witness, when v has none yet.
func (d *decider) plainWitness(v int, sense solvers.Sense) error {
	if len(d.wit[senseIndex(sense)][v]) > 0 || len(d.comps[d.comp[v]].rows) == 0 {
		return nil
	}
	saveLo, saveUp := d.lo, d.up
	d.setInsider(nil, nil)
	_, err := d.solve(v, sense)
	d.solves-- // counted apart: shared by every insider
	d.plain++
	d.setInsider(saveLo, saveUp)
	return err
}

// corrected returns the value of v at a point of the current insider's
// polytope built from witness x of (v, sense) that leaves the insider's
// bounds: its move D = x − a is corrected on the first narrowed variable
// u it moves out of bounds by a witness y of u moving the other way
// (D + f·(y − a) with u unmoved; a sum of solutions of A d = 0 is one),
// then scaled by the largest μ ≥ 0 keeping a + μ·D within every bound.
// ok is false when that point does not move v in sense's direction.
func (d *decider) corrected(v int, sense solvers.Sense, x witnessPoint) (float64, bool) {
	u := -1
	for _, w := range d.narrowed[d.comp[v]] {
		lo, up := d.lo[w], d.up[w]
		xw := x.at(d, w)
		if xw < lo-decideFeasTol*math.Max(1, math.Abs(lo)) || xw > up+decideFeasTol*math.Max(1, math.Abs(up)) {
			u = w
			break
		}
	}
	if u < 0 {
		return 0, false
	}
	du := x.at(d, u) - d.a.values[u]
	fix := solvers.Maximize
	if du > 0 {
		fix = solvers.Minimize
	}
	if err := d.plainWitness(u, fix); err != nil {
		return 0, false
	}
	for _, y := range d.wit[senseIndex(fix)][u] {
		yu := y.at(d, u) - d.a.values[u]
		if yu*du >= 0 {
			continue
		}
		f := -du / yu
		D := map[int32]float64{}
		for k, w := range x.vars {
			D[w] += x.x[k] - d.a.values[w]
		}
		for k, w := range y.vars {
			D[w] += f * (y.x[k] - d.a.values[w])
		}
		mu := math.Inf(1)
		for w, dw := range D {
			a := d.a.values[w]
			if math.Abs(dw) <= decideFeasTol*math.Max(1, math.Abs(a)) {
				continue
			}
			lo, up := d.bounds(int(w))
			if dw > 0 {
				mu = math.Min(mu, (up-a)/dw)
			} else {
				mu = math.Min(mu, (lo-a)/dw)
			}
		}
		dv := D[int32(v)]
		if sense == solvers.Minimize {
			dv = -dv
		}
		if !(mu > 0) || !(dv > decideFeasTol*math.Max(1, math.Abs(d.a.values[v]))) {
			continue
		}
		if math.IsInf(mu, 1) {
			if sense == solvers.Maximize {
				return math.Inf(1), true
			}
			return math.Inf(-1), true
		}
		return d.a.values[v] + mu*D[int32(v)], true
	}
	return 0, false
}
