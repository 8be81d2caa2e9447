package suppress

import (
	"math"

	"github.com/sdcopt/sdcopt/solvers"
)

// master is the master problem: min Σ c_j y_j over the cuts so far, its
// LP relaxation kept in one session to which cuts are added as rows.
type master struct {
	m    *model
	lp   solvers.Session
	cuts []cut
	rows int // cuts already in the LP session
	// inMIP says which cuts the master MIP has: every cut of at most
	// mipCutVars variables and every cut found at a MIP solution.
	inMIP []bool
}

// mipCutVars is the size, in variables, above which a cut of the LP phase
// is kept out of the master MIP. Leaving cuts out keeps the MIP a
// relaxation (its bound stays valid), and dense cuts barely bind: on the
// synth preset "3way-5000" (freq:3) the 6,925 cuts of three LP rounds
// hold 3.4 million coefficients and HiGHS had not finished presolving
// the MIP after 150 s, while the 1,355 cuts of at most 40 variables
// alone gave the MIP optimum 2,777 (above the LP bound 2,754.5 of all
// of them) in 1.9 s.
const mipCutVars = 40

func newMaster(m *model, sv solvers.Solver, prm *solvers.Params) (*master, error) {
	b := solvers.NewRowBuilder(solvers.Minimize)
	for _, c := range m.cost {
		b.AddVar(c, 0, 1, solvers.Continuous, "")
	}
	sess, err := openSession(sv, b.Problem(), prm)
	if err != nil {
		return nil, err
	}
	return &master{m: m, lp: sess}, nil
}

func (ms *master) close() { ms.lp.Close() }

// add appends cuts (to the LP at its next solve), to the MIP when they
// have at most mipCutVars variables or mip is set.
func (ms *master) add(mip bool, cs ...cut) {
	for _, c := range cs {
		ms.cuts = append(ms.cuts, c)
		ms.inMIP = append(ms.inMIP, mip || len(c.vars) <= mipCutVars)
	}
}

// flush adds the pending cuts to the LP session.
func (ms *master) flush() error {
	if ms.rows == len(ms.cuts) {
		return nil
	}
	var lo, up []float64
	start := []int{0}
	var cols []int
	var vals []float64
	for _, c := range ms.cuts[ms.rows:] {
		lo, up = append(lo, 1), append(up, math.Inf(1))
		cols, vals = append(cols, c.vars...), append(vals, c.coef...)
		start = append(start, len(cols))
	}
	if err := ms.lp.AddRows(lo, up, start, cols, vals); err != nil {
		return err
	}
	ms.rows = len(ms.cuts)
	return nil
}

// solveLP solves the LP relaxation with every cut.
func (ms *master) solveLP() (*solvers.Result, error) {
	if err := ms.flush(); err != nil {
		return nil, err
	}
	return ms.lp.Solve()
}

// problem returns the master MIP (binary y) with every cut.
func (ms *master) problem() *solvers.Problem {
	b := solvers.NewRowBuilder(solvers.Minimize)
	for _, c := range ms.m.cost {
		b.AddVar(c, 0, 1, solvers.Binary, "")
	}
	for k, c := range ms.cuts {
		if ms.inMIP[k] {
			b.AddConstraint(1, math.Inf(1), c.vars, c.coef, "")
		}
	}
	return b.Problem()
}
