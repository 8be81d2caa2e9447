package intervals

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sdcopt/sdcopt/solvers"
)

// SeenTol is how close (relative to max(1, |bound|)) a cell's value in a
// feasible point seen in an earlier solve must come to a proven bound for
// that end to be taken without a solve: the engines' primal feasibility
// tolerance is about 1e-9 to 1e-7, so a point reported at 4.9999999999
// stands for the bound 5.
const SeenTol = 1e-9

// compStats are the counts of one component's solve.
type compStats struct {
	solves, skipped, batches int
	local, localSolves       int
	iterations               int64
	err                      error
}

// solveComponents solves every component, on s.Workers goroutines, and
// writes the ends into res.Intervals (each component owns its cells'
// entries). The counts are summed, and the first error in component order
// returned, so neither depends on scheduling.
func (a *attacker) solveComponents(sv solvers.Solver, name string, comps []component, s *Settings, res *Result) error {
	stats := make([]compStats, len(comps))
	workers := max(1, min(s.Workers, len(comps)))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wsv := sv
		if w > 0 {
			var err error
			if wsv, err = solvers.New(name, s.Integer); err != nil {
				return err
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				k := int(next.Add(1)) - 1
				if k >= len(comps) {
					return
				}
				st := &stats[k]
				st.err = a.solveComponent(wsv, name, comps[k], s, res, st)
				if st.err != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, st := range stats {
		if st.err != nil {
			return st.err
		}
		res.Solves += st.solves
		res.Skipped += st.skipped
		res.Batches += st.batches
		res.Local += st.local
		res.LocalSolves += st.localSolves
		res.Iterations += st.iterations
	}
	return nil
}

// solveComponent computes both ends of every cell of one component in one
// engine session over the component's rows, in variable order, minimum
// then maximum; an end that a feasible point already seen proves is not
// solved (unless s.NoSkip).
func (a *attacker) solveComponent(sv solvers.Solver, name string, c component, s *Settings, res *Result, st *compStats) error {
	skip := !s.NoSkip && !s.Integer
	if skip && len(c.rows) == 0 {
		// Free cells: the box is the polytope.
		for _, j := range c.vars {
			a.setEnd(res, j, solvers.Minimize, a.lo[j], nil, s)
			a.setEnd(res, j, solvers.Maximize, a.up[j], nil, s)
			st.skipped += 2
		}
		return nil
	}
	local := make(map[int]int, len(c.vars))
	for l, j := range c.vars {
		local[j] = l
	}
	p := a.subproblem(c, local, s.Integer)
	// seenLo and seenUp are the least and largest value of each cell in
	// the feasible points seen so far.
	seenLo, seenUp := make([]float64, len(c.vars)), make([]float64, len(c.vars))
	for l := range seenLo {
		seenLo[l], seenUp[l] = math.Inf(1), math.Inf(-1)
	}
	w0 := &cellSolver{a: a, c: c, p: p, s: s, res: res, sv: sv, seenLo: seenLo, seenUp: seenUp}
	defer w0.close()
	// Parts of a large component (Settings.Workers > 1): each its own
	// session over a copy of the component model, its own cells (a
	// contiguous range) and its own copy of the seen values, merged after
	// each sense, so that the result does not depend on scheduling.
	parts := []*cellSolver{w0}
	if skip && s.Workers > 1 && len(c.vars) >= splitMin {
		n := min(s.Workers, len(c.vars)/(splitMin/2))
		for k := 1; k < n; k++ {
			wsv, err := solvers.New(name, s.Integer)
			if err != nil {
				return err
			}
			w := &cellSolver{a: a, c: c, p: p, s: s, res: res, sv: wsv,
				seenLo: make([]float64, len(c.vars)), seenUp: make([]float64, len(c.vars))}
			defer w.close()
			parts = append(parts, w)
		}
		for k, w := range parts {
			w.from, w.to = k*len(c.vars)/len(parts), (k+1)*len(c.vars)/len(parts)
		}
	} else {
		w0.to = len(c.vars)
	}
	for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
		if skip {
			if err := w0.batches(sense); err != nil {
				return err
			}
		}
		if len(parts) == 1 {
			if err := w0.cells(sense); err != nil {
				return err
			}
			continue
		}
		for _, w := range parts[1:] {
			copy(w.seenLo, w0.seenLo)
			copy(w.seenUp, w0.seenUp)
		}
		var wg sync.WaitGroup
		for _, w := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.err = w.cells(sense)
			}()
		}
		wg.Wait()
		for _, w := range parts[1:] {
			if w.err != nil {
				return w.err
			}
			for l := range w0.seenLo {
				w0.seenLo[l], w0.seenUp[l] = math.Min(w0.seenLo[l], w.seenLo[l]), math.Max(w0.seenUp[l], w.seenUp[l])
			}
		}
		if w0.err != nil {
			return w0.err
		}
	}
	for _, w := range parts {
		st.solves += w.st.solves
		st.skipped += w.st.skipped
		st.batches += w.st.batches
		st.local += w.st.local
		st.localSolves += w.st.localSolves
		st.iterations += w.st.iterations
	}
	return nil
}

// splitMin is the least number of cells of a component whose cells are
// split over Settings.Workers sessions (each part at least splitMin/2
// cells): below it, one session's warm starts cost less than a second
// session's first solve. A variable so that tests can split small
// components.
var splitMin = 1000

// cellSolver solves the ends of the cells from to to−1 (component-local
// indices) of one component in one engine session of its own.
type cellSolver struct {
	a        *attacker
	c        component
	p        *solvers.Problem
	s        *Settings
	res      *Result
	sv       solvers.Solver
	from, to int
	sess     solvers.Session
	// obj are the columns whose objective coefficient is 1 (the others
	// are 0).
	obj            []int
	seenLo, seenUp []float64
	feasible       int // of the component: 0 unknown, 1 yes, -1 no
	st             compStats
	err            error
}

func (w *cellSolver) close() {
	if w.sess != nil {
		w.sess.Close()
	}
}

// session opens the session when there is none (or the last one was
// abandoned).
func (w *cellSolver) session() (solvers.Session, error) {
	if w.sess != nil {
		return w.sess, nil
	}
	var err error
	if w.sv.Capabilities().Incremental {
		w.sess, err = w.sv.NewSession(w.p, w.s.Params)
	} else {
		w.sess, err = solvers.NewReloadSession(w.sv, w.p, w.s.Params)
	}
	w.obj = nil
	return w.sess, err
}

// solve sets the objective (1 on cols, 0 elsewhere) and sense, solves,
// and records the solution among the seen points.
func (w *cellSolver) solve(cols []int, sense solvers.Sense) (*solvers.Result, error) {
	sess, err := w.session()
	if err != nil {
		return nil, err
	}
	if !slices.Equal(w.obj, cols) {
		on := make(map[int]bool, len(cols))
		for _, l := range cols {
			on[l] = true
		}
		var cs []int
		var vs []float64
		for _, l := range w.obj {
			if !on[l] {
				cs, vs = append(cs, l), append(vs, 0)
			}
		}
		for _, l := range cols {
			cs, vs = append(cs, l), append(vs, 1)
		}
		w.obj = append(w.obj[:0], cols...)
		if err := sess.SetObjective(cs, vs); err != nil {
			return nil, err
		}
	}
	if err := sess.SetSense(sense); err != nil {
		return nil, err
	}
	r, err := sess.Solve()
	if err != nil {
		return nil, err
	}
	w.st.solves++
	w.st.iterations += r.Iterations
	if r.Abandoned { // the session is closed: the next solve opens a new one
		w.sess = nil
	}
	if r.HasSolution && len(r.X) == len(w.c.vars) {
		for k, x := range r.X {
			w.seenLo[k], w.seenUp[k] = math.Min(w.seenLo[k], x), math.Max(w.seenUp[k], x)
		}
	}
	return r, nil
}

func (w *cellSolver) seen(l int, sense solvers.Sense) float64 {
	if sense == solvers.Maximize {
		return w.seenUp[l]
	}
	return w.seenLo[l]
}

// batches runs the batch rounds of one sense (see batchMin) over the
// whole component.
func (w *cellSolver) batches(sense solvers.Sense) error {
	a, c := w.a, w.c
	for {
		// Targets: unproven cells, no two in one row, pushed together by
		// one LP (min or max of their sum).
		used := map[int]bool{}
		var targets []int
		for l, j := range c.vars {
			if a.provenFast(j, sense, w.seen(l, sense)) {
				continue
			}
			free := true
			for _, i := range a.varRows[j] {
				if used[i] {
					free = false
					break
				}
			}
			if !free {
				continue
			}
			for _, i := range a.varRows[j] {
				used[i] = true
			}
			targets = append(targets, l)
		}
		if len(targets) < batchMin {
			return nil
		}
		r, err := w.solve(targets, sense)
		if err != nil {
			return err
		}
		w.st.batches++
		if r.Status != solvers.Optimal {
			return nil
		}
		proved := 0
		for _, l := range targets {
			if a.provenFast(c.vars[l], sense, w.seen(l, sense)) {
				proved++
			}
		}
		if proved < batchMin {
			return nil
		}
	}
}

// cells computes the end on the side of sense of the cells from to to−1:
// proven by a seen point, by a local relaxation, or solved.
func (w *cellSolver) cells(sense solvers.Sense) error {
	a, c, s, res := w.a, w.c, w.s, w.res
	skip := !s.NoSkip && !s.Integer
	for l := w.from; l < w.to; l++ {
		j := c.vars[l]
		iv := &res.Intervals[j]
		if skip {
			if v, cert, ok := a.provenBySeen(j, sense, w.seen(l, sense), s); ok {
				a.setEnd(res, j, sense, v, cert, s)
				w.st.skipped++
				continue
			}
			if !s.NoLocal && len(c.rows) >= localMinRows {
				v, cert, ok, err := a.provenLocally(w.sv, j, sense, w.seen(l, sense), len(c.rows), s, &w.st)
				if err != nil {
					return err
				}
				if ok {
					a.setEnd(res, j, sense, v, cert, s)
					w.st.local++
					continue
				}
			}
		}
		r, err := w.solve([]int{l}, sense)
		if err != nil {
			return err
		}
		if r.Status == solvers.InfeasibleOrUnbounded {
			// Engines (HiGHS's MIP presolve) say this of an unbounded
			// end; the zero objective decides, once.
			if w.feasible == 0 {
				fr, err := w.sv.Solve(w.p, s.Params)
				if err != nil {
					return err
				}
				w.st.solves++
				w.feasible = -1
				if fr.HasSolution {
					w.feasible = 1
				}
			}
			if w.feasible > 0 {
				r = &solvers.Result{Solver: r.Solver, Status: solvers.Unbounded, Seconds: r.Seconds}
			}
		}
		v, err := a.bound(r, j, sense, s.Integer)
		v += 0 // no −0 from rounding
		if err != nil {
			if errors.Is(err, ErrInfeasible) {
				return fmt.Errorf("%w (engine %s: %v; %d relations with suppressed cells, none violated alone)", ErrInfeasible, w.sv.Name(), r.Status, len(a.rows))
			}
			return fmt.Errorf("%w: cell %s, %v (engine %s): %v", ErrNotSolved, iv.Name, sense, w.sv.Name(), err)
		}
		var cert *Certificate
		if !s.Integer && !s.NoCertificates && r.Status == solvers.Optimal && r.HasDuals {
			cert = newCertificate(r, sense, v)
			for k, i := range cert.Rows {
				cert.Rows[k] = c.rows[i]
			}
			if a.fix != nil {
				cert.Rows, cert.Y = a.fix.lift(a, cert.Rows, cert.Y)
			}
			for k, x := range cert.Vars {
				cert.Vars[k] = c.vars[x]
			}
		}
		var ie *IntegerEnd
		if s.Integer && !s.NoCertificates && !math.IsInf(v, 0) {
			ie = a.integerEnd(r, j) // the one component is the whole problem
		}
		if sense == solvers.Minimize {
			iv.Lower, iv.LowerStatus, iv.LowerCert, iv.LowerInt = v, r.Status, cert, ie
		} else {
			iv.Upper, iv.UpperStatus, iv.UpperCert, iv.UpperInt = v, r.Status, cert, ie
		}
	}
	return nil
}

// subproblem returns the attacker problem of one component with a zero
// objective: column l is variable c.vars[l], row i is row c.rows[i].
func (a *attacker) subproblem(c component, local map[int]int, integer bool) *solvers.Problem {
	b := solvers.NewRowBuilder(solvers.Minimize)
	t := solvers.Continuous
	if integer {
		t = solvers.Integer
	}
	for _, j := range c.vars {
		b.AddVar(0, a.lo[j], a.up[j], t, "")
	}
	var cols []int
	var vals []float64
	for _, i := range c.rows {
		cols, vals = cols[:0], vals[:0]
		rhs := a.rhs[i]
		if a.fix != nil {
			rhs = a.fix.residual[i]
		}
		for _, e := range a.rows[i] {
			if l, ok := local[e.v]; ok {
				cols = append(cols, l)
				vals = append(vals, e.coef)
			}
		}
		b.AddConstraint(rhs, rhs, cols, vals, "")
	}
	return b.Problem()
}

// setEnd records an end proven without a solve: an infinite end is
// Unbounded, a finite one Optimal with its certificate (nil asks for the
// prior bound's: y = 0).
func (a *attacker) setEnd(res *Result, j int, sense solvers.Sense, v float64, cert *Certificate, s *Settings) {
	iv := &res.Intervals[j]
	st := solvers.Optimal
	if math.IsInf(v, 0) {
		st, cert = solvers.Unbounded, nil
	} else if cert == nil {
		cert = &Certificate{Sense: sense, Vars: []int{j}, D: []float64{1}, Value: v}
	}
	if s.Integer || s.NoCertificates {
		cert = nil
	}
	if sense == solvers.Minimize {
		iv.Lower, iv.LowerStatus, iv.LowerCert = v, st, cert
	} else {
		iv.Upper, iv.UpperStatus, iv.UpperCert = v, st, cert
	}
}

// batchMin: before the cells' own solves of one sense, Compute solves
// min (max) Σ x_k over targets, unproven cells no two of which share a
// relation, so that one LP may bring many of them to their bounds at
// once; rounds go on while there are at least batchMin targets and a
// round proves at least batchMin of them (more than a cell's own solve).
const batchMin = 2

// reaches reports whether seen reaches the bound b on the side of sense
// (within SeenTol).
func reaches(seen, b float64, sense solvers.Sense) bool {
	if math.IsInf(seen, 0) || math.IsInf(b, 0) {
		return false
	}
	t := SeenTol * math.Max(1, math.Abs(b))
	if sense == solvers.Maximize {
		return seen >= b-t
	}
	return seen <= b+t
}

// tightRows computes, for every undetermined variable and each sense, the
// tightest one-row bound and its row (-1 when every row's is infinite).
func (a *attacker) tightRows() {
	n := len(a.cells)
	for k := range 2 {
		a.tight[k] = make([]float64, n)
		a.tightRow[k] = make([]int, n)
	}
	for j := 0; j < n; j++ {
		if a.fix != nil && a.fix.is[j] {
			continue
		}
		for k, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
			best, row := math.Inf(1), -1
			if sense == solvers.Minimize {
				best = math.Inf(-1)
			}
			for _, i := range a.varRows[j] {
				v, ok := a.oneRowValue(j, i, sense)
				if ok && (sense == solvers.Maximize && v < best || sense == solvers.Minimize && v > best) {
					best, row = v, i
				}
			}
			a.tight[k][j], a.tightRow[k][j] = best, row
		}
	}
}

func senseIndex(sense solvers.Sense) int {
	if sense == solvers.Maximize {
		return 1
	}
	return 0
}

// provenFast reports whether seen proves variable j's end (as
// provenBySeen does, without building the certificate).
func (a *attacker) provenFast(j int, sense solvers.Sense, seen float64) bool {
	prior := a.lo[j]
	if sense == solvers.Maximize {
		prior = a.up[j]
	}
	return reaches(seen, prior, sense) || reaches(seen, a.tight[senseIndex(sense)][j], sense)
}

// provenBySeen reports whether seen, the extreme value of variable j in
// the feasible points seen so far on the side of sense, reaches a bound
// that a cheap dual vector proves: the prior bound (y = 0, d = e_j) or the
// tightest bound of one relation r containing j (y = e_r / A_rj, so
// d_j = 0 and the other undetermined cells of the row enter with their
// prior bounds; for a part with a published total and default priors,
// x_j ≤ b_r). When it does, the end is that bound, sharp because a
// feasible point attains it, and the certificate is the dual vector (nil
// for the prior bound). Seen values never pass a valid bound, so reaching
// any row's bound is reaching the tightest.
func (a *attacker) provenBySeen(j int, sense solvers.Sense, seen float64, s *Settings) (float64, *Certificate, bool) {
	prior := a.lo[j]
	if sense == solvers.Maximize {
		prior = a.up[j]
	}
	if reaches(seen, prior, sense) {
		return prior, nil, true
	}
	k := senseIndex(sense)
	if i := a.tightRow[k][j]; i >= 0 && reaches(seen, a.tight[k][j], sense) {
		cert, ok := a.oneRow(j, i, sense)
		if !ok {
			return 0, nil, false
		}
		v := snap(cert.Value)
		if s.Integer || s.NoCertificates {
			cert = nil
		}
		return v, cert, true
	}
	return 0, nil, false
}

// oneRowValue is the value of oneRow's bound, without the certificate.
func (a *attacker) oneRowValue(j, i int, sense solvers.Sense) (float64, bool) {
	row := a.rows[i]
	cj := coefOf(row, j)
	if cj == 0 {
		return 0, false
	}
	y := 1 / cj
	rhs := a.rhs[i]
	if a.fix != nil {
		rhs = a.fix.residual[i]
	}
	v := y * rhs
	maxi := sense == solvers.Maximize
	for _, e := range row {
		if e.v == j || a.fix != nil && a.fix.is[e.v] {
			continue
		}
		d := -y * e.coef
		b := a.lo[e.v]
		if (d > 0) == maxi {
			b = a.up[e.v]
		}
		if math.IsInf(b, 0) {
			return 0, false
		}
		v += d * b
	}
	return v, true
}

// oneRow returns the certificate of variable j's bound (on the side of
// sense) from row i alone: y_i = 1/A_ij, d = e_j − y_i·A_i. It fails when
// the bound is infinite (a cell of the row would need an infinite prior
// bound).
func (a *attacker) oneRow(j, i int, sense solvers.Sense) (*Certificate, bool) {
	row := a.rows[i]
	cj := coefOf(row, j)
	if cj == 0 {
		return nil, false
	}
	y := 1 / cj
	rhs := a.rhs[i]
	if a.fix != nil {
		rhs = a.fix.residual[i]
	}
	c := &Certificate{Sense: sense, Rows: []int{i}, Y: []float64{y}, Value: y * rhs}
	maxi := sense == solvers.Maximize
	for _, e := range row {
		if e.v == j || a.fix != nil && a.fix.is[e.v] {
			continue
		}
		d := -y * e.coef
		useUp := (d > 0) == maxi
		b := a.lo[e.v]
		if useUp {
			b = a.up[e.v]
		}
		if math.IsInf(b, 0) {
			return nil, false
		}
		c.Vars = append(c.Vars, e.v)
		c.D = append(c.D, d)
		c.Value += d * b
	}
	if a.fix != nil {
		c.Rows, c.Y = a.fix.lift(a, c.Rows, c.Y)
	}
	return c, true
}

// setFixed records both ends of a cell that presolve determined, with its
// proof y (Aᵀy = e_j, so d = 0) as the certificate of each.
func (a *attacker) setFixed(res *Result, j int, s *Settings) {
	iv := &res.Intervals[j]
	v := a.fix.value[j]
	iv.Lower, iv.Upper = v, v
	iv.LowerStatus, iv.UpperStatus = solvers.Optimal, solvers.Optimal
	if s.Integer || s.NoCertificates {
		return
	}
	p := a.fix.proof[j]
	for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
		c := &Certificate{Sense: sense, Rows: slices.Clone(p.idx), Y: slices.Clone(p.val), Value: v}
		if sense == solvers.Minimize {
			iv.LowerCert = c
		} else {
			iv.UpperCert = c
		}
	}
}

// problem returns the whole attacker problem with a zero objective
// (every cell, every row, the published right-hand sides).
func (a *attacker) problem(integer bool) *solvers.Problem {
	b := solvers.NewRowBuilder(solvers.Minimize)
	t := solvers.Continuous
	if integer {
		t = solvers.Integer
	}
	for j := range a.cells {
		b.AddVar(0, a.lo[j], a.up[j], t, "")
	}
	var cols []int
	var vals []float64
	for i, row := range a.rows {
		cols, vals = cols[:0], vals[:0]
		for _, e := range row {
			cols = append(cols, e.v)
			vals = append(vals, e.coef)
		}
		b.AddConstraint(a.rhs[i], a.rhs[i], cols, vals, "")
	}
	return b.Problem()
}
