package solvertest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcopt/sdcopt/solvers"
)

// twin applies every change to an engine session and to a ReloadSession of
// the same engine (a cold solve of the accumulated model), and compares
// the two after every re-solve.
type twin struct {
	s   solvers.Solver
	ses solvers.Session
	ref *solvers.ReloadSession
}

func (w *twin) do(what string, f func(solvers.Session) error) error {
	if err := f(w.ses); err != nil {
		return fmt.Errorf("%s: session: %w", what, err)
	}
	if err := f(w.ref); err != nil {
		return fmt.Errorf("%s: reference: %w", what, err)
	}
	return w.compare(what)
}

func (w *twin) compare(what string) error {
	if w.ses.NumCols() != w.ref.NumCols() || w.ses.NumRows() != w.ref.NumRows() {
		return fmt.Errorf("%s: session has %d x %d, reference %d x %d", what,
			w.ses.NumRows(), w.ses.NumCols(), w.ref.NumRows(), w.ref.NumCols())
	}
	got, err := w.ses.Solve()
	if err != nil {
		return fmt.Errorf("%s: session solve: %w", what, err)
	}
	want, err := w.ref.Solve()
	if err != nil {
		return fmt.Errorf("%s: cold solve: %w", what, err)
	}
	if err := CheckResult(w.ref.Problem(), got); err != nil {
		return fmt.Errorf("%s: session result: %w", what, err)
	}
	if got.Status != want.Status {
		return fmt.Errorf("%s: session status %v, cold solve %v", what, got.Status, want.Status)
	}
	if want.Status != solvers.Optimal {
		return nil
	}
	if math.Abs(got.Objective-want.Objective) > ObjTol*scale(want.Objective) {
		return fmt.Errorf("%s: session objective %.12g, cold solve %.12g", what, got.Objective, want.Objective)
	}
	if err := certify(w.s, w.ref.Problem(), got); err != nil {
		return fmt.Errorf("%s: session result: %w", what, err)
	}
	return nil
}

// addRandomCols appends count set-partitioning columns over m rows.
func addRandomCols(rng *rand.Rand, m, count, maxSize int, t solvers.VarType) func(solvers.Session) error {
	obj := make([]float64, count)
	lo := make([]float64, count)
	up := make([]float64, count)
	types := make([]solvers.VarType, count)
	start := []int{0}
	var rows []int
	var vals []float64
	for k := 0; k < count; k++ {
		r := SetPartitioningColumn(rng, m, m, maxSize)
		obj[k] = SetPartitioningCost(rng, len(r))
		lo[k], up[k], types[k] = 0, 1, t
		rows = append(rows, r...)
		for range r {
			vals = append(vals, 1)
		}
		start = append(start, len(rows))
	}
	return func(s solvers.Session) error { return s.AddCols(obj, lo, up, types, start, rows, vals) }
}

func sessionScenario(s solvers.Solver, m int, t solvers.VarType, batches, perBatch int) error {
	rng := rand.New(rand.NewPCG(7, uint64(m)))
	p := SetPartitioning(rng, m, m, 2, t != solvers.Continuous)
	ses, err := s.NewSession(p, nil)
	if err != nil {
		return fmt.Errorf("NewSession: %w", err)
	}
	defer ses.Close()
	ref, err := solvers.NewReloadSession(s, p, nil)
	if err != nil {
		return err
	}
	w := &twin{s: s, ses: ses, ref: ref}
	if err := w.compare("initial solve"); err != nil {
		return err
	}
	for b := 0; b < batches; b++ {
		if err := w.do(fmt.Sprintf("add columns, batch %d", b), addRandomCols(rng, m, perBatch, 4, t)); err != nil {
			return err
		}
	}
	n := w.ref.NumCols()
	cols := []int{m, m + 1, n - 1}
	obj := []float64{1, 2, 3}
	if err := w.do("change objective", func(x solvers.Session) error { return x.SetObjective(cols, obj) }); err != nil {
		return err
	}
	if err := w.do("fix a column at 0", func(x solvers.Session) error { return x.SetColBounds(n-1, 0, 0) }); err != nil {
		return err
	}
	if err := w.do("relax a row", func(x solvers.Session) error { return x.SetRowBounds(0, 0, 1) }); err != nil {
		return err
	}
	// A new row: the first five generated columns together at most 1.
	if err := w.do("add a row", func(x solvers.Session) error {
		return x.AddRows([]float64{math.Inf(-1)}, []float64{1}, []int{0, 5}, []int{m, m + 1, m + 2, m + 3, m + 4}, []float64{1, 1, 1, 1, 1})
	}); err != nil {
		return err
	}
	if err := w.do("maximize", func(x solvers.Session) error { return x.SetSense(solvers.Maximize) }); err != nil {
		return err
	}
	if err := w.do("minimize again", func(x solvers.Session) error { return x.SetSense(solvers.Minimize) }); err != nil {
		return err
	}
	if err := w.do("add columns after changes", addRandomCols(rng, m, perBatch, 4, t)); err != nil {
		return err
	}
	// Invalid changes are errors, not panics, and leave the session usable.
	if err := ses.SetColBounds(w.ref.NumCols()+5, 0, 1); !errors.Is(err, solvers.ErrInvalidProblem) {
		return fmt.Errorf("SetColBounds out of range: err = %v, want ErrInvalidProblem", err)
	}
	if err := ses.AddCols([]float64{1}, []float64{0}, []float64{1}, nil, []int{0, 1}, []int{m + 3}, []float64{1}); !errors.Is(err, solvers.ErrInvalidProblem) {
		return fmt.Errorf("AddCols on a missing row: err = %v, want ErrInvalidProblem", err)
	}
	return w.compare("after rejected changes")
}

func checkSessionLP(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	if !s.Capabilities().Incremental {
		p := wyndor(solvers.Maximize)
		if _, err := s.NewSession(p, nil); !errors.Is(err, solvers.ErrUnsupported) {
			return fmt.Errorf("NewSession on an engine without Incremental: err = %v, want ErrUnsupported", err)
		}
		return ErrSkip
	}
	return sessionScenario(s, 40, solvers.Continuous, 6, 25)
}

func checkSessionMIP(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	if !s.Capabilities().Incremental {
		return ErrSkip
	}
	return sessionScenario(s, 14, solvers.Binary, 3, 15)
}

func checkSessionClosed(s solvers.Solver) error {
	if !s.Capabilities().Incremental {
		return ErrSkip
	}
	ses, err := s.NewSession(wyndor(solvers.Maximize), nil)
	if err != nil {
		return err
	}
	if err := ses.Close(); err != nil {
		return err
	}
	if err := ses.Close(); err != nil {
		return fmt.Errorf("second Close: %v", err)
	}
	if _, err := ses.Solve(); !errors.Is(err, solvers.ErrClosed) {
		return fmt.Errorf("Solve after Close: err = %v, want ErrClosed", err)
	}
	return nil
}
