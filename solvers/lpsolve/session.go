//go:build cgo && lpsolve

package lpsolve

import (
	"errors"
	"runtime"

	"github.com/sdcopt/sdcopt/solvers"
)

// session keeps one lp_solve model alive between solves. lp_solve keeps its
// last basis inside the model, so a re-solve after a change starts from it
// (see warm in Solve for what is done after structural changes).
type session struct {
	md      *model
	cleanup runtime.Cleanup
	closed  bool
	broken  error // set when the engine failed; the model has been freed
	// basis saved after the last optimal LP solve, in lp_solve's layout
	// (see lprec.basis), and the model shape it belongs to.
	basis        []int32
	basisRows    int
	basisCols    int
	structChange bool
}

func newSession(md *model) *session {
	s := &session{md: md}
	// Safety net: free the C model if the session is dropped without Close.
	s.cleanup = freeOnCleanup(s, md.lp)
	return s
}

func (s *session) check(op string) error {
	if s.closed {
		return &solvers.Error{Engine: engineName, Op: op, Err: solvers.ErrClosed}
	}
	if s.broken != nil {
		return s.broken
	}
	return nil
}

// fail discards the engine instance after an engine error.
func (s *session) fail(err error) error {
	var e *solvers.Error
	if errors.As(err, &e) && errors.Is(err, solvers.ErrEngine) {
		s.cleanup.Stop()
		s.md.free()
		s.broken = err
	}
	return err
}

func (s *session) Solve() (*solvers.Result, error) {
	if err := s.check("solve"); err != nil {
		return nil, err
	}
	s.warm()
	res, err := s.md.solve()
	if err != nil {
		return nil, s.fail(err)
	}
	s.saveBasis(res)
	return res, nil
}

func (s *session) AddCols(obj, lo, up []float64, types []solvers.VarType, start, rows []int, vals []float64) error {
	if err := s.check("add columns"); err != nil {
		return err
	}
	if err := solvers.CheckCols(s.md.numRows(), obj, lo, up, types, start, rows, vals); err != nil {
		return solvers.WithEngine(engineName, err)
	}
	if len(obj) == 0 {
		return nil
	}
	s.structChange = true
	return s.fail(s.md.addCols(obj, lo, up, types, start, rows, vals))
}

func (s *session) AddRows(lo, up []float64, start, cols []int, vals []float64) error {
	if err := s.check("add rows"); err != nil {
		return err
	}
	if err := solvers.CheckRows(s.md.numCols(), lo, up, start, cols, vals); err != nil {
		return solvers.WithEngine(engineName, err)
	}
	if len(lo) == 0 {
		return nil
	}
	s.structChange = true
	return s.fail(s.md.addRows(lo, up, start, cols, vals))
}

func (s *session) SetObjective(cols []int, obj []float64) error {
	if err := s.check("set objective"); err != nil {
		return err
	}
	if len(cols) != len(obj) {
		panic("lpsolve: SetObjective: len(cols) != len(obj)")
	}
	n := s.md.numCols()
	for _, j := range cols {
		if j < 0 || j >= n {
			return solvers.Errorf(engineName, "set objective", solvers.ErrInvalidProblem, "column %d out of range [0, %d)", j, n)
		}
	}
	for k, j := range cols {
		if !s.md.lp.setObj(j+1, obj[k]) {
			return s.fail(solvers.Errorf(engineName, "set objective", solvers.ErrEngine, "set_obj(%d) failed", j))
		}
	}
	return nil
}

func (s *session) SetSense(sense solvers.Sense) error {
	if err := s.check("set sense"); err != nil {
		return err
	}
	s.md.setSense(sense)
	return nil
}

func (s *session) SetColBounds(j int, lo, up float64) error {
	if err := s.check("set column bounds"); err != nil {
		return err
	}
	n := s.md.numCols()
	if j < 0 || j >= n {
		return solvers.Errorf(engineName, "set column bounds", solvers.ErrInvalidProblem, "column %d out of range [0, %d)", j, n)
	}
	if lo != lo || up != up || lo > solvers.Inf || up < -solvers.Inf || (lo > 0 && isInf(lo)) || (up < 0 && isInf(up)) {
		return solvers.Errorf(engineName, "set column bounds", solvers.ErrInvalidProblem, "column %d: bounds [%v, %v]", j, lo, up)
	}
	s.md.colLo[j], s.md.colUp[j] = lo, up
	return s.fail(s.md.applyColBounds(j))
}

func (s *session) SetRowBounds(i int, lo, up float64) error {
	if err := s.check("set row bounds"); err != nil {
		return err
	}
	m := s.md.numRows()
	if i < 0 || i >= m {
		return solvers.Errorf(engineName, "set row bounds", solvers.ErrInvalidProblem, "row %d out of range [0, %d)", i, m)
	}
	if lo != lo || up != up || (lo > 0 && isInf(lo)) || (up < 0 && isInf(up)) {
		return solvers.Errorf(engineName, "set row bounds", solvers.ErrInvalidProblem, "row %d: bounds [%v, %v]", i, lo, up)
	}
	s.md.rowLo[i], s.md.rowUp[i] = lo, up
	return s.fail(s.md.applyRowBounds(i))
}

func isInf(v float64) bool { return v > 1.7976931348623157e308 || v < -1.7976931348623157e308 }

func (s *session) NumCols() int { return s.md.numCols() }
func (s *session) NumRows() int { return s.md.numRows() }

func (s *session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.broken == nil {
		s.cleanup.Stop()
		s.md.free()
	}
	return nil
}

// saveBasis remembers the final basis of an optimal LP solve.
func (s *session) saveBasis(res *solvers.Result) {
	s.structChange = false
	s.basis = s.basis[:0]
	if res.Status != solvers.Optimal || s.md.nInt > 0 || s.md.numCols() == 0 {
		return
	}
	m, n := s.md.numRows(), s.md.numCols()
	if cap(s.basis) < 1+m+n {
		s.basis = make([]int32, 1+m+n)
	}
	s.basis = s.basis[:1+m+n]
	if !s.md.lp.basis(s.basis) {
		s.basis = s.basis[:0]
		return
	}
	s.basisRows, s.basisCols = m, n
}

// warm re-installs the basis of the last optimal LP solve after columns or
// rows were added: old columns and rows keep their status, new columns are
// nonbasic at their lower bound and the slacks of new rows are basic.
func (s *session) warm() {
	if !s.structChange || len(s.basis) == 0 || s.md.nInt > 0 {
		return
	}
	m0, n0 := s.basisRows, s.basisCols
	m, n := s.md.numRows(), s.md.numCols()
	if m < m0 || n < n0 {
		return
	}
	dm := int32(m - m0)
	remap := func(v int32) int32 {
		a := v
		if a < 0 {
			a = -a
		}
		if int(a) > m0 {
			a += dm // a column: shifted by the new rows
		}
		if v < 0 {
			return -a
		}
		return a
	}
	b := make([]int32, 1+m+n)
	k := 1
	for p := 1; p <= m0; p++ {
		b[k] = remap(s.basis[p])
		k++
	}
	for i := m0 + 1; i <= m; i++ {
		b[k] = int32(i) // new slack, basic
		k++
	}
	for p := m0 + 1; p <= m0+n0; p++ {
		b[k] = remap(s.basis[p])
		k++
	}
	for j := n0 + 1; j <= n; j++ {
		b[k] = -int32(m + j) // new column at its lower bound
		k++
	}
	if !s.md.lp.setBasis(b) {
		s.md.lp.defaultBasis()
	}
}
