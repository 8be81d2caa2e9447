package solvers

// ReloadSession is a Session that keeps its own copy of the Problem and
// solves it from scratch on every Solve. It is the reference behaviour that
// engine sessions are checked against in the conformance suite, and a
// fallback for engines without incremental support.
type ReloadSession struct {
	solver Solver
	p      *Problem
	prm    *Params
	closed bool
}

// NewReloadSession returns a session over a private copy of p. It fails
// like Solve on invalid parameters or an invalid problem.
func NewReloadSession(s Solver, p *Problem, prm *Params) (*ReloadSession, error) {
	if err := prm.Validate(); err != nil {
		return nil, WithEngine(s.Name(), err)
	}
	if err := p.Validate(); err != nil {
		return nil, WithEngine(s.Name(), err)
	}
	return &ReloadSession{solver: s, p: p.Clone(), prm: prm}, nil
}

// Problem returns the session's current model (do not modify).
func (r *ReloadSession) Problem() *Problem { return r.p }

func (r *ReloadSession) check(op string) error {
	if r.closed {
		return &Error{Engine: r.solver.Name(), Op: op, Err: ErrClosed}
	}
	return nil
}

func (r *ReloadSession) Solve() (*Result, error) {
	if err := r.check("solve"); err != nil {
		return nil, err
	}
	return r.solver.Solve(r.p, r.prm)
}

func (r *ReloadSession) AddCols(obj, lo, up []float64, types []VarType, start, rows []int, vals []float64) error {
	if err := r.check("add columns"); err != nil {
		return err
	}
	if err := CheckCols(r.p.NumRows(), obj, lo, up, types, start, rows, vals); err != nil {
		return WithEngine(r.solver.Name(), err)
	}
	for k := range obj {
		t := Continuous
		if types != nil {
			t = types[k]
		}
		r.p.AddCol(obj[k], lo[k], up[k], t, rows[start[k]:start[k+1]], vals[start[k]:start[k+1]], "")
	}
	return nil
}

func (r *ReloadSession) AddRows(lo, up []float64, start, cols []int, vals []float64) error {
	if err := r.check("add rows"); err != nil {
		return err
	}
	if err := CheckRows(r.p.NumCols(), lo, up, start, cols, vals); err != nil {
		return WithEngine(r.solver.Name(), err)
	}
	// Rebuild the CSC matrix with the new rows appended.
	m0 := r.p.NumRows()
	n := r.p.NumCols()
	add := make([][]entry, n)
	for k := range lo {
		r.p.AddRow(lo[k], up[k], "")
		for t := start[k]; t < start[k+1]; t++ {
			add[cols[t]] = append(add[cols[t]], entry{m0 + k, cols[t], vals[t]})
		}
	}
	var ri []int
	var va []float64
	cs := make([]int, n+1)
	for j := 0; j < n; j++ {
		rr, vv := r.p.Column(j)
		ri = append(ri, rr...)
		va = append(va, vv...)
		for _, e := range add[j] {
			ri = append(ri, e.row)
			va = append(va, e.val)
		}
		cs[j+1] = len(ri)
	}
	if n > 0 {
		r.p.ColStart, r.p.RowIndex, r.p.Value = cs, ri, va
	}
	return nil
}

func (r *ReloadSession) SetObjective(cols []int, obj []float64) error {
	if err := r.check("set objective"); err != nil {
		return err
	}
	if len(cols) != len(obj) {
		panic("solvers: SetObjective: len(cols) != len(obj)")
	}
	for k, j := range cols {
		if j < 0 || j >= r.p.NumCols() {
			return Errorf(r.solver.Name(), "set objective", ErrInvalidProblem, "column %d out of range [0, %d)", j, r.p.NumCols())
		}
		r.p.Obj[j] = obj[k]
	}
	return nil
}

func (r *ReloadSession) SetSense(s Sense) error {
	if err := r.check("set sense"); err != nil {
		return err
	}
	r.p.Sense = s
	return nil
}

func (r *ReloadSession) SetColBounds(j int, lo, up float64) error {
	if err := r.check("set column bounds"); err != nil {
		return err
	}
	if j < 0 || j >= r.p.NumCols() {
		return Errorf(r.solver.Name(), "set column bounds", ErrInvalidProblem, "column %d out of range [0, %d)", j, r.p.NumCols())
	}
	r.p.ColLower[j], r.p.ColUpper[j] = lo, up
	return nil
}

func (r *ReloadSession) SetRowBounds(i int, lo, up float64) error {
	if err := r.check("set row bounds"); err != nil {
		return err
	}
	if i < 0 || i >= r.p.NumRows() {
		return Errorf(r.solver.Name(), "set row bounds", ErrInvalidProblem, "row %d out of range [0, %d)", i, r.p.NumRows())
	}
	r.p.RowLower[i], r.p.RowUpper[i] = lo, up
	return nil
}

func (r *ReloadSession) NumCols() int { return r.p.NumCols() }
func (r *ReloadSession) NumRows() int { return r.p.NumRows() }
func (r *ReloadSession) Close() error { r.closed = true; return nil }

// CheckCols validates the arguments of Session.AddCols against a model with
// m rows. Backends call it before touching the engine.
func CheckCols(m int, obj, lo, up []float64, types []VarType, start, rows []int, vals []float64) error {
	n := len(obj)
	if len(lo) != n || len(up) != n || (types != nil && len(types) != n) || len(start) != n+1 || len(rows) != len(vals) {
		return &Error{Op: "add columns", Err: errorsf(ErrInvalidProblem, "inconsistent argument lengths")}
	}
	if start[0] != 0 || start[n] != len(rows) {
		return &Error{Op: "add columns", Err: errorsf(ErrInvalidProblem, "start must run from 0 to len(rows)")}
	}
	tmp := Problem{Obj: obj, ColLower: lo, ColUpper: up, ColType: types, ColStart: start, RowIndex: rows, Value: vals,
		RowLower: make([]float64, m), RowUpper: make([]float64, m)}
	if n == 0 {
		tmp.ColStart = nil
	}
	if err := tmp.Validate(); err != nil {
		e := err.(*Error)
		e.Op = "add columns"
		return e
	}
	return nil
}

// CheckRows validates the arguments of Session.AddRows against a model with
// n columns.
func CheckRows(n int, lo, up []float64, start, cols []int, vals []float64) error {
	m := len(lo)
	if len(up) != m || len(start) != m+1 || len(cols) != len(vals) || start[0] != 0 || start[m] != len(cols) {
		return &Error{Op: "add rows", Err: errorsf(ErrInvalidProblem, "inconsistent argument lengths")}
	}
	for i := 0; i < m; i++ {
		if lo[i] != lo[i] || up[i] != up[i] || lo[i] > Inf || up[i] < -Inf || isPosInf(lo[i]) || isNegInf(up[i]) {
			return &Error{Op: "add rows", Err: errorsf(ErrInvalidProblem, "row %d: bounds [%v, %v]", i, lo[i], up[i])}
		}
		if start[i] > start[i+1] {
			return &Error{Op: "add rows", Err: errorsf(ErrInvalidProblem, "start decreases at row %d", i)}
		}
	}
	for k, j := range cols {
		if j < 0 || j >= n {
			return &Error{Op: "add rows", Err: errorsf(ErrInvalidProblem, "column index %d out of range [0, %d)", j, n)}
		}
		if v := vals[k]; v != v || isPosInf(v) || isNegInf(v) {
			return &Error{Op: "add rows", Err: errorsf(ErrInvalidProblem, "coefficient %v", v)}
		}
	}
	return nil
}
