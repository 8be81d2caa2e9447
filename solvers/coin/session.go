//go:build cgo && coin

package coin

import (
	"math"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// clpSession keeps one CLP model alive across re-solves. It mirrors the rim
// vectors (objective and bounds) in Go so that single-entry changes cost
// O(1); the changed vectors are pushed to CLP (Clp_chg*) once, right before
// the next Solve.
//
// Re-optimization rule: the first Solve runs CLP's initial driver (presolve
// per Params.Raw). Later Solves start from the previous basis:
//   - only columns added and/or objective or sense changed: the old basis
//     stays primal feasible, so primal simplex (Clp_primal);
//   - only rows added and/or bounds changed: the old basis stays dual
//     feasible, so dual simplex (Clp_dual);
//   - both kinds of change: primal simplex;
//   - nothing changed: primal simplex (returns at once).
//
// If a warm re-solve stops on errors (CLP status 4) the session re-solves
// from scratch with the initial driver.
type clpSession struct {
	engine string
	m      *clpModel
	prm    *solvers.Params
	opts   clpOptions
	warn   []string

	sense  solvers.Sense
	offset float64
	obj    []float64
	colLo  []float64
	colUp  []float64
	rowLo  []float64
	rowUp  []float64

	solved                       bool
	objDirty, colDirty, rowDirty bool // vectors to push to CLP
	primalWarm, dualWarm         bool // kinds of change since the last solve
	closed                       bool
}

func newClpSession(engine string, p *solvers.Problem, prm *solvers.Params) (*clpSession, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(engine, err)
	}
	prm = prm.OrDefault()
	if err := p.Validate(); err != nil {
		return nil, solvers.WithEngine(engine, err)
	}
	if p.IsMIP() {
		return nil, solvers.Errorf(engine, "new session", solvers.ErrUnsupported, "CLP is an LP engine and the problem has integer columns")
	}
	opts, warn, err := parseClpOptions(engine, prm.Raw)
	if err != nil {
		return nil, err
	}
	s := &clpSession{engine: engine, prm: prm, opts: opts, sense: p.Sense, offset: p.Offset,
		obj:   append([]float64(nil), p.Obj...),
		colLo: append([]float64(nil), p.ColLower...),
		colUp: append([]float64(nil), p.ColUpper...),
		rowLo: append([]float64(nil), p.RowLower...),
		rowUp: append([]float64(nil), p.RowUpper...),
	}
	s.m = newClpModel()
	s.m.load(p.NumCols(), p.NumRows(), p.ColStart, p.RowIndex, p.Value, p.ColLower, p.ColUpper, p.Obj, p.RowLower, p.RowUpper)
	s.m.setDirection(direction(p.Sense))
	s.warn = append(warn, opts.configure(s.m, prm)...)
	return s, nil
}

func (s *clpSession) check(op string) error {
	if s.closed {
		return &solvers.Error{Engine: s.engine, Op: op, Err: solvers.ErrClosed}
	}
	return nil
}

func (s *clpSession) NumCols() int { return len(s.obj) }
func (s *clpSession) NumRows() int { return len(s.rowLo) }

func (s *clpSession) Close() error {
	if !s.closed {
		s.closed = true
		s.m.free()
	}
	return nil
}

func (s *clpSession) Solve() (*solvers.Result, error) {
	if err := s.check("solve"); err != nil {
		return nil, err
	}
	if len(s.obj) == 0 {
		p := &solvers.Problem{Sense: s.sense, Offset: s.offset, RowLower: s.rowLo, RowUpper: s.rowUp}
		r := solveEmpty(s.engine, p)
		r.Warnings = append(r.Warnings, s.warn...)
		return r, nil
	}
	s.flushIfNeeded()

	armTimeLimit(s.m, s.prm)
	t0 := time.Now()
	m, solved, dualOnly := s.m, s.solved, s.dualWarm && !s.primalWarm
	call := func() {
		switch {
		case !solved:
			m.initialSolve(s.opts.method, s.opts.presolve)
		case dualOnly:
			m.dual()
		default:
			m.primal()
		}
		if solved && m.status() == 4 {
			armTimeLimit(m, s.prm)
			m.initialSolve(s.opts.method, s.opts.presolve)
		}
	}
	if !runStoppable(hardStop(s.prm), call, m.free) {
		// Abandoned (see stop.go): the model belongs to the call now.
		s.closed = true
		r := abandonedResult(s.engine, "the session is closed", s.prm, time.Since(t0))
		r.Warnings = append(append([]string(nil), s.warn...), r.Warnings...)
		return r, nil
	}
	secs := time.Since(t0).Seconds()
	s.solved = true
	s.primalWarm, s.dualWarm = false, false
	r := readClp(s.engine, s.m, s.offset, s.prm, &s.opts)
	r.Seconds = secs
	r.Warnings = append(append([]string(nil), s.warn...), r.Warnings...)
	return r, nil
}

func (s *clpSession) AddCols(obj, lo, up []float64, types []solvers.VarType, start, rows []int, vals []float64) error {
	if err := s.check("add columns"); err != nil {
		return err
	}
	if err := solvers.CheckCols(s.NumRows(), obj, lo, up, types, start, rows, vals); err != nil {
		return solvers.WithEngine(s.engine, err)
	}
	for _, t := range types {
		if t != solvers.Continuous {
			return solvers.Errorf(s.engine, "add columns", solvers.ErrUnsupported, "CLP is an LP engine: integer column")
		}
	}
	if len(obj) == 0 {
		return nil
	}
	s.flushIfNeeded()
	s.m.addColumns(lo, up, obj, start, rows, vals)
	s.obj = append(s.obj, obj...)
	s.colLo = append(s.colLo, lo...)
	s.colUp = append(s.colUp, up...)
	s.primalWarm = true
	return nil
}

func (s *clpSession) AddRows(lo, up []float64, start, cols []int, vals []float64) error {
	if err := s.check("add rows"); err != nil {
		return err
	}
	if err := solvers.CheckRows(s.NumCols(), lo, up, start, cols, vals); err != nil {
		return solvers.WithEngine(s.engine, err)
	}
	if len(lo) == 0 {
		return nil
	}
	s.flushIfNeeded()
	s.m.addRows(lo, up, start, cols, vals)
	s.rowLo = append(s.rowLo, lo...)
	s.rowUp = append(s.rowUp, up...)
	s.dualWarm = true
	return nil
}

// flushIfNeeded pushes pending rim changes before CLP resizes its arrays, so
// that the pushed vectors always match CLP's dimensions.
func (s *clpSession) flushIfNeeded() {
	if s.objDirty {
		s.m.chgObj(s.obj)
	}
	if s.colDirty {
		s.m.chgColBounds(s.colLo, s.colUp)
	}
	if s.rowDirty {
		s.m.chgRowBounds(s.rowLo, s.rowUp)
	}
	s.objDirty, s.colDirty, s.rowDirty = false, false, false
}

func (s *clpSession) SetObjective(cols []int, obj []float64) error {
	if err := s.check("set objective"); err != nil {
		return err
	}
	if len(cols) != len(obj) {
		panic("coin: SetObjective: len(cols) != len(obj)")
	}
	for k, j := range cols {
		if j < 0 || j >= s.NumCols() {
			return solvers.Errorf(s.engine, "set objective", solvers.ErrInvalidProblem, "column %d out of range [0, %d)", j, s.NumCols())
		}
		if math.IsNaN(obj[k]) || math.IsInf(obj[k], 0) {
			return solvers.Errorf(s.engine, "set objective", solvers.ErrInvalidProblem, "column %d: objective coefficient %v", j, obj[k])
		}
	}
	for k, j := range cols {
		s.obj[j] = obj[k]
	}
	if len(cols) > 0 {
		s.objDirty, s.primalWarm = true, true
	}
	return nil
}

func (s *clpSession) SetSense(sense solvers.Sense) error {
	if err := s.check("set sense"); err != nil {
		return err
	}
	if sense != s.sense {
		s.sense = sense
		s.m.setDirection(direction(sense))
		s.primalWarm = true
	}
	return nil
}

func badBounds(lo, up float64) bool {
	return math.IsNaN(lo) || math.IsNaN(up) || math.IsInf(lo, 1) || math.IsInf(up, -1)
}

func (s *clpSession) SetColBounds(j int, lo, up float64) error {
	if err := s.check("set column bounds"); err != nil {
		return err
	}
	if j < 0 || j >= s.NumCols() {
		return solvers.Errorf(s.engine, "set column bounds", solvers.ErrInvalidProblem, "column %d out of range [0, %d)", j, s.NumCols())
	}
	if badBounds(lo, up) {
		return solvers.Errorf(s.engine, "set column bounds", solvers.ErrInvalidProblem, "column %d: bounds [%v, %v]", j, lo, up)
	}
	s.colLo[j], s.colUp[j] = lo, up
	s.colDirty, s.dualWarm = true, true
	return nil
}

func (s *clpSession) SetRowBounds(i int, lo, up float64) error {
	if err := s.check("set row bounds"); err != nil {
		return err
	}
	if i < 0 || i >= s.NumRows() {
		return solvers.Errorf(s.engine, "set row bounds", solvers.ErrInvalidProblem, "row %d out of range [0, %d)", i, s.NumRows())
	}
	if badBounds(lo, up) {
		return solvers.Errorf(s.engine, "set row bounds", solvers.ErrInvalidProblem, "row %d: bounds [%v, %v]", i, lo, up)
	}
	s.rowLo[i], s.rowUp[i] = lo, up
	s.rowDirty, s.dualWarm = true, true
	return nil
}
