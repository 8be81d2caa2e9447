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
	solves, skipped int
	iterations      int64
	err             error
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
				st.err = a.solveComponent(wsv, comps[k], s, res, st)
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
		res.Iterations += st.iterations
	}
	return nil
}

// solveComponent computes both ends of every cell of one component in one
// engine session over the component's rows, in variable order, minimum
// then maximum; an end that a feasible point already seen proves is not
// solved (unless s.NoSkip).
func (a *attacker) solveComponent(sv solvers.Solver, c component, s *Settings, res *Result, st *compStats) error {
	skip := !s.NoSkip
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
	openSession := func() (solvers.Session, error) {
		if sv.Capabilities().Incremental {
			return sv.NewSession(p, s.Params)
		}
		return solvers.NewReloadSession(sv, p, s.Params)
	}
	sess, err := openSession()
	if err != nil {
		return err
	}
	defer func() { sess.Close() }()
	// seenLo and seenUp are the least and largest value of each cell in
	// the feasible points the engine returned.
	seenLo, seenUp := make([]float64, len(c.vars)), make([]float64, len(c.vars))
	for l := range seenLo {
		seenLo[l], seenUp[l] = math.Inf(1), math.Inf(-1)
	}
	prev := -1
	feasible := 0 // of the component: 0 unknown, 1 yes, -1 no
	for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
		for l, j := range c.vars {
			iv := &res.Intervals[j]
			if skip {
				seen := seenLo[l]
				if sense == solvers.Maximize {
					seen = seenUp[l]
				}
				if v, cert, ok := a.provenBySeen(j, sense, seen, s); ok {
					a.setEnd(res, j, sense, v, cert, s)
					st.skipped++
					continue
				}
			}
			if prev != l {
				cols, obj := []int{l}, []float64{1}
				if prev >= 0 {
					cols, obj = []int{prev, l}, []float64{0, 1}
				}
				if err := sess.SetObjective(cols, obj); err != nil {
					return err
				}
				prev = l
			}
			if err := sess.SetSense(sense); err != nil {
				return err
			}
			r, err := sess.Solve()
			if err != nil {
				return err
			}
			st.solves++
			st.iterations += r.Iterations
			if r.Abandoned { // the session is closed: open a new one
				if sess, err = openSession(); err != nil {
					return err
				}
				prev = -1
			}
			if r.HasSolution && len(r.X) == len(c.vars) {
				for k, x := range r.X {
					seenLo[k], seenUp[k] = math.Min(seenLo[k], x), math.Max(seenUp[k], x)
				}
			}
			if r.Status == solvers.InfeasibleOrUnbounded {
				// Engines (HiGHS's MIP presolve) say this of an unbounded
				// end; the zero objective decides, once.
				if feasible == 0 {
					fr, err := sv.Solve(p, s.Params)
					if err != nil {
						return err
					}
					st.solves++
					feasible = -1
					if fr.HasSolution {
						feasible = 1
					}
				}
				if feasible > 0 {
					r = &solvers.Result{Solver: r.Solver, Status: solvers.Unbounded, Seconds: r.Seconds}
				}
			}
			v, err := a.bound(r, j, sense, s.Integer)
			v += 0 // no −0 from rounding
			if err != nil {
				if errors.Is(err, ErrInfeasible) {
					return fmt.Errorf("%w (engine %s: %v; %d relations with suppressed cells, none violated alone)", ErrInfeasible, sv.Name(), r.Status, len(a.rows))
				}
				return fmt.Errorf("%w: cell %s, %v (engine %s): %v", ErrNotSolved, iv.Name, sense, sv.Name(), err)
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
			if sense == solvers.Minimize {
				iv.Lower, iv.LowerStatus, iv.LowerCert = v, r.Status, cert
			} else {
				iv.Upper, iv.UpperStatus, iv.UpperCert = v, r.Status, cert
			}
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

// provenBySeen reports whether seen, the extreme value of variable j in
// the feasible points seen so far on the side of sense, reaches a bound
// that a cheap dual vector proves: the prior bound (y = 0, d = e_j) or the
// bound of one relation r containing j (y = e_r / A_rj, so d_j = 0 and
// the other cells of the row enter with their prior bounds; for a part
// with a published total and default priors, x_j ≤ b_r). When it does,
// the end is that bound, sharp because a feasible point attains it, and
// the certificate is the dual vector (nil for the prior bound).
func (a *attacker) provenBySeen(j int, sense solvers.Sense, seen float64, s *Settings) (float64, *Certificate, bool) {
	if math.IsInf(seen, 0) {
		return 0, nil, false
	}
	maxi := sense == solvers.Maximize
	reaches := func(b float64) bool {
		t := SeenTol * math.Max(1, math.Abs(b))
		if maxi {
			return seen >= b-t
		}
		return seen <= b+t
	}
	prior := a.lo[j]
	if maxi {
		prior = a.up[j]
	}
	if !math.IsInf(prior, 0) && reaches(prior) {
		return prior, nil, true
	}
	for _, i := range a.varRows[j] {
		cert, ok := a.oneRow(j, i, sense)
		if ok && reaches(cert.Value) {
			v := snap(cert.Value)
			if s.Integer || s.NoCertificates {
				cert = nil
			}
			return v, cert, true
		}
	}
	return 0, nil, false
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
