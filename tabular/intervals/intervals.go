package intervals

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// Tolerances. They are relative to max(1, |value|) of the quantity compared.
const (
	// ConsistTol is the tolerance within which a relation whose cells are
	// all published must hold (its total minus the sum of its parts).
	ConsistTol = 1e-9
	// SnapTol is how close an LP bound must be to an integer to be
	// reported as that integer (engines return 4.0000000001 for 4).
	SnapTol = 1e-9
	// IntTol is the integrality slack of a MIP's dual bound before it is
	// rounded inward (floor for a maximum, ceiling for a minimum).
	IntTol = 1e-6
)

// Sentinel errors.
var (
	// ErrInfeasible: the published values, the relations and the prior
	// bounds admit no value of the suppressed cells. The error names a
	// relation when one alone is violated.
	ErrInfeasible = errors.New("intervals: published cells inconsistent with the relations and bounds")
	// ErrNotSolved: an engine stopped in a way that gives no bound
	// (numerical trouble, an unknown status, an unbounded minimum).
	ErrNotSolved = errors.New("intervals: a bound could not be computed")
)

// Settings are the options of Compute; nil means defaults.
type Settings struct {
	// Solver is the engine's registry name. Default "auto": the project's
	// preferred available LP engine (CLP, then HiGHS, ...), or MIP engine
	// (HiGHS, then CBC, ...) when Integer is set.
	Solver string
	// Params are passed to every solve. Default nil (solvers.DefaultParams:
	// no time limit, tight MIP gaps, one thread, quiet).
	Params *solvers.Params
	// Integer asks for the integer (sharp for integer data) interval: the
	// same model with integer variables, solved by a MIP engine. Default
	// false: LP intervals, with certificates.
	Integer bool
	// Prior gives the attacker's prior bounds of suppressed cell i (its
	// index in the table or system) whose true value is value. Default nil:
	// the cell's own prior bounds (Cell.PriorBounds) when it sets them
	// (PriorLower or PriorUpper nonzero; always for a LinearSystem, whose
	// cells' bounds are those of its JJ file); otherwise [0, +Inf) when
	// the table is a frequency table or every cell value is non-negative,
	// (−Inf, +Inf) otherwise. PercentPrior builds a prior within a
	// percentage of the value.
	Prior func(cell int, value float64) (lo, up float64)
	// NoCertificates drops the dual vectors from the result (they cost one
	// float per row and per variable for each bound). Default false: every
	// optimal LP bound keeps its certificate, and with Integer every end
	// its IntegerEnd (a witness table, up to one float per suppressed cell,
	// and one more LP solve per end).
	NoCertificates bool
	// Workers is the number of goroutines that solve independent
	// components, each with its own engine session. Default 0 or 1: one,
	// in component order. The intervals, certificates and counts do not
	// depend on it (each component is solved the same way whichever
	// goroutine takes it); only Seconds does.
	Workers int
	// NoSkip solves both ends of every cell by its own LP: no cells
	// determined by differencing, no batch solves, no ends proven by
	// feasible points seen in earlier solves (see doc.go, "Components,
	// determined cells and skipped solves"). Default false.
	NoSkip bool
	// NoDecompose solves the whole attacker problem in one model and
	// session instead of one per connected component. Default false.
	NoDecompose bool
	// NoLocal leaves out the local relaxations tried before a cell's own
	// solve (see doc.go, "Local relaxations"). Default false.
	NoLocal bool
}

// PercentPrior returns a Prior of [value·(1 − p/100), value·(1 + p/100)]
// (ends swapped for a negative value), intersected with [0, +Inf) when
// nonNeg: the external knowledge that a respondent's value is known to
// within p percent (Hundepool et al. 2012, chapter 4).
func PercentPrior(p float64, nonNeg bool) func(int, float64) (float64, float64) {
	if p < 0 || math.IsNaN(p) {
		panic("intervals: negative percentage")
	}
	return func(_ int, v float64) (float64, float64) {
		lo, up := v*(1-p/100), v*(1+p/100)
		if lo > up {
			lo, up = up, lo
		}
		if nonNeg {
			lo = math.Max(lo, 0)
		}
		return lo, up
	}
}

// Status says how a bound was obtained.
type Status = solvers.Status

// Interval is the attacker's interval of one suppressed cell.
type Interval struct {
	Cell   int     // index in the table (or system)
	Name   string  // the cell's name ("region=N, sector=a")
	Value  float64 // the true (withheld) value X
	Status tabular.Status
	// Lower and Upper are the ends of the interval: min and max of the
	// cell's value over the attacker's polytope (or its integer points).
	// ±Inf when unbounded. After a limit without a proven bound they are
	// the prior bounds.
	Lower, Upper float64
	// LowerStatus and UpperStatus are the engines' statuses (Optimal,
	// Unbounded for an infinite end, TimeLimit, ...).
	LowerStatus, UpperStatus Status
	// LowerCert and UpperCert are the dual certificates of LP bounds
	// (nil for integer bounds, infinite ends, or when not kept).
	LowerCert, UpperCert *Certificate
	// LowerInt and UpperInt certify the ends of an integer interval (see
	// IntegerEnd; nil for LP bounds, infinite ends, or when not kept).
	LowerInt, UpperInt *IntegerEnd
}

// Disclosed reports whether the interval is a single point (within
// SnapTol): the attacker knows the cell's value.
func (iv *Interval) Disclosed() bool {
	return math.Abs(iv.Upper-iv.Lower) <= SnapTol*math.Max(1, math.Abs(iv.Value))
}

// Result is the outcome of Compute.
type Result struct {
	Intervals []Interval // one per suppressed cell, in cell order
	Engine    string     // the engine's registry name
	Integer   bool       // integer intervals
	Seconds   float64    // wall-clock time of Compute
	Solves    int        // LPs or MIPs solved
	Rows      int        // relations with at least one suppressed cell
	// Skipped counts the ends proven without a solve, by a feasible
	// point seen at a bound that the prior or one relation proves.
	Skipped int
	// Determined counts the cells that relations alone determine, one
	// relation after another, before any LP (their two ends are among
	// Skipped).
	Determined int
	// Batches counts the solves (among Solves) of batch objectives: min
	// or max of a sum of unproven cells (see doc.go).
	Batches int
	// Iterations are the engines' simplex (or branch-and-bound) iterations
	// summed over the solves.
	Iterations int64
	// Local counts the ends proven by a local relaxation (the relations
	// near the cell) whose bound a seen feasible point reaches, without
	// the cell's own solve; LocalSolves the local LPs solved, which are
	// not among Solves.
	Local, LocalSolves int
	// Components is the number of independent blocks of the attacker
	// problem (1 with Settings.NoDecompose); LargestComponent is the
	// number of suppressed cells of the largest.
	Components, LargestComponent int
}

// Lookup returns the interval of cell i and whether it is suppressed.
func (r *Result) Lookup(i int) (*Interval, bool) {
	lo, hi := 0, len(r.Intervals)
	for lo < hi {
		m := (lo + hi) / 2
		if r.Intervals[m].Cell < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.Intervals) && r.Intervals[lo].Cell == i {
		return &r.Intervals[lo], true
	}
	return nil, false
}

// attacker is the attacker problem: A x = b over the suppressed cells.
type attacker struct {
	cells  []int     // suppressed cell of each variable
	values []float64 // their true values
	status []tabular.Status
	names  []string
	lo, up []float64 // prior bounds
	rel    []int     // the relation of each row
	rows   [][]term  // row entries
	rhs    []float64 // b
	relN   []tabular.Relation
	name   func(int) string
	// varRows are the rows of each variable.
	varRows [][]int
	// fix are the cells that relations alone determine (nil when not
	// presolved).
	fix *fixed
	// tight and tightRow are, per sense (0 min, 1 max), each undetermined
	// variable's tightest one-row bound and its row (see tightRows).
	tight    [2][]float64
	tightRow [2][]int
}

type term struct {
	v    int
	coef float64
}

// source is the common view of a Table and a System.
type source struct {
	n      int
	value  func(int) float64
	status func(int) tabular.Status
	name   func(int) string
	rels   []tabular.Relation
	nonNeg bool
	// linear, when set, replaces rels: general relations Σ c·x = rhs.
	linear []tabular.LinearRelation
	// prior, when set, gives a cell's own prior bounds and whether it has
	// them; Settings.Prior overrides it.
	prior func(int) (lo, up float64, ok bool)
}

func tableSource(t *tabular.Table) source {
	rels := make([]tabular.Relation, 0, t.NumRelations())
	for r := range t.Relations() {
		rels = append(rels, r)
	}
	return source{
		n:      len(t.Cells),
		value:  func(i int) float64 { return t.Cells[i].Value },
		status: func(i int) tabular.Status { return t.Cells[i].Status },
		name:   t.CellName,
		rels:   rels,
		nonNeg: t.NonNegative(),
		prior:  func(i int) (float64, float64, bool) { return cellPrior(&t.Cells[i]) },
	}
}

func systemSource(s *tabular.System) source {
	return source{
		n:      len(s.Cells),
		value:  func(i int) float64 { return s.Cells[i].Value },
		status: func(i int) tabular.Status { return s.Cells[i].Status },
		name:   s.CellName,
		rels:   s.Relations,
		nonNeg: s.NonNegative(),
		prior: func(g int) (float64, float64, bool) {
			r := s.Cells[g].Refs[0]
			return cellPrior(&s.Tables[r.Table].Cells[r.Cell])
		},
	}
}

// build writes the attacker problem; it fails with ErrInfeasible when a
// relation without suppressed cells is violated or a relation alone cannot
// be met within the prior bounds.
func build(src source, s *Settings) (*attacker, error) {
	a := &attacker{name: src.name}
	varOf := make([]int, src.n)
	for i := 0; i < src.n; i++ {
		varOf[i] = -1
		if !src.status(i).Suppressed() {
			continue
		}
		v := src.value(i)
		lo, up := math.Inf(-1), math.Inf(1)
		if src.nonNeg {
			lo = 0
		}
		if src.prior != nil {
			if l, u, ok := src.prior(i); ok {
				lo, up = l, u
			}
		}
		if s.Prior != nil {
			lo, up = s.Prior(i, v)
		}
		if s.Integer {
			lo, up = math.Ceil(lo-IntTol)+0, math.Floor(up+IntTol)+0 // no −0
		}
		if lo > up {
			return nil, fmt.Errorf("%w: prior bounds [%g, %g] of cell %s are empty", ErrInfeasible, lo, up, src.name(i))
		}
		varOf[i] = len(a.cells)
		a.cells = append(a.cells, i)
		a.values = append(a.values, v)
		a.status = append(a.status, src.status(i))
		a.names = append(a.names, src.name(i))
		a.lo = append(a.lo, lo)
		a.up = append(a.up, up)
	}
	for k := range src.numRelations() {
		// Σ parts − total = 0 (Σ c·x = rhs): suppressed terms on the left,
		// published on the right.
		var row []term
		rhs, scale := 0.0, 0.0
		add := func(c int, coef float64) {
			if v := varOf[c]; v >= 0 {
				row = append(row, term{v, coef})
				return
			}
			rhs -= coef * src.value(c)
			scale = math.Max(scale, math.Abs(src.value(c)))
		}
		if src.linear != nil {
			rhs, scale = src.linear[k].RHS, math.Abs(src.linear[k].RHS)
			for q, c := range src.linear[k].Cells {
				add(c, src.linear[k].Coefs[q])
			}
			row = mergeTerms(row)
		} else {
			r := src.rels[k]
			add(r.Total, -1)
			for _, p := range r.Parts {
				add(p, 1)
			}
		}
		if len(row) == 0 {
			if math.Abs(rhs) > ConsistTol*math.Max(1, scale) {
				return nil, fmt.Errorf("%w: relation %d (%s) is violated by %g among published cells",
					ErrInfeasible, k, src.relationName(k), -rhs)
			}
			continue
		}
		// A relation alone: the range of its left side over the bounds.
		minL, maxL := 0.0, 0.0
		for _, t := range row {
			if t.coef > 0 {
				minL += t.coef * a.lo[t.v]
				maxL += t.coef * a.up[t.v]
			} else {
				minL += t.coef * a.up[t.v]
				maxL += t.coef * a.lo[t.v]
			}
		}
		tol := ConsistTol * math.Max(1, math.Max(scale, math.Abs(rhs)))
		if minL > rhs+tol || maxL < rhs-tol {
			return nil, fmt.Errorf("%w: relation %d (%s) needs its suppressed cells to sum to %g, outside [%g, %g] allowed by their bounds",
				ErrInfeasible, k, src.relationName(k), rhs, minL, maxL)
		}
		a.rel = append(a.rel, k)
		a.rows = append(a.rows, row)
		a.rhs = append(a.rhs, rhs)
	}
	a.relN = src.rels
	a.varRows = make([][]int, len(a.cells))
	for i, row := range a.rows {
		for _, t := range row {
			a.varRows[t.v] = append(a.varRows[t.v], i)
		}
	}
	return a, nil
}

// Compute returns the interval of every suppressed cell of t (Status
// Primary or Secondary) given its published cells, its relations and the
// prior bounds. Failures are errors: ErrInfeasible (wrapped, naming a
// relation when one alone is violated), ErrNotSolved, and the solvers
// package's errors (unknown or unavailable engine, invalid parameters).
func Compute(t *tabular.Table, s *Settings) (*Result, error) {
	return compute(tableSource(t), s)
}

// ComputeSystem is Compute for linked tables: the cells and relations of
// the System.
func ComputeSystem(sys *tabular.System, s *Settings) (*Result, error) {
	return compute(systemSource(sys), s)
}

func compute(src source, s *Settings) (*Result, error) {
	start := time.Now()
	if s == nil {
		s = &Settings{}
	}
	if s.Workers < 0 {
		panic("intervals: negative Settings.Workers")
	}
	a, err := build(src, s)
	if err != nil {
		return nil, err
	}
	name := s.Solver
	if name == "" {
		name = "auto"
	}
	res := &Result{Integer: s.Integer, Rows: len(a.rows), Intervals: make([]Interval, len(a.cells))}
	for j, c := range a.cells {
		res.Intervals[j] = Interval{Cell: c, Name: a.names[j], Value: a.values[j], Status: a.status[j]}
	}
	if len(a.cells) == 0 {
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	sv, err := solvers.New(name, s.Integer)
	if err != nil {
		return nil, err
	}
	res.Engine = sv.Name()
	// Integer intervals keep the plain computation (one model, every end
	// solved): their witness tables index the whole problem's columns.
	plain := s.NoSkip || s.Integer
	if !plain {
		if a.fix, err = a.presolve(); err != nil {
			return nil, err
		}
		for j, is := range a.fix.is {
			if is {
				a.setFixed(res, j, s)
				res.Skipped += 2
				res.Determined++
			}
		}
	}
	if !plain {
		a.tightRows()
	}
	comps := a.components(s.NoDecompose || s.Integer)
	res.Components = len(comps)
	for _, c := range comps {
		res.LargestComponent = max(res.LargestComponent, len(c.vars))
	}
	if err := a.solveComponents(sv, name, comps, s, res); err != nil {
		return nil, err
	}
	if s.Integer && !s.NoCertificates {
		if err := a.outerBounds(res, s); err != nil {
			return nil, err
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// bound turns a solve into an end of variable j's interval. A limit
// without a proven bound gives the prior bound (valid, maybe not sharp);
// an integer solve uses its dual bound rounded inward when it has a gap.
func (a *attacker) bound(r *solvers.Result, j int, sense solvers.Sense, integer bool) (float64, error) {
	max := sense == solvers.Maximize
	switch r.Status {
	case solvers.Infeasible, solvers.InfeasibleOrUnbounded:
		return 0, ErrInfeasible
	case solvers.Unbounded:
		if max {
			return math.Inf(1), nil
		}
		return math.Inf(-1), nil
	case solvers.Optimal:
		if !integer {
			return snap(r.Objective), nil
		}
		if bb := r.BestBound; !math.IsNaN(bb) && !math.IsInf(bb, 0) {
			if max {
				return math.Max(math.Round(r.Objective), math.Floor(bb+IntTol)), nil
			}
			return math.Min(math.Round(r.Objective), math.Ceil(bb-IntTol)), nil
		}
		return math.Round(r.Objective), nil
	}
	if !r.Status.Limit() {
		return 0, fmt.Errorf("engine stopped: %v", r.Status)
	}
	if integer && !math.IsNaN(r.BestBound) && !math.IsInf(r.BestBound, 0) {
		if max {
			return math.Min(a.up[j], math.Floor(r.BestBound+IntTol)), nil
		}
		return math.Max(a.lo[j], math.Ceil(r.BestBound-IntTol)), nil
	}
	if max {
		return a.up[j], nil
	}
	return a.lo[j], nil
}

// snap rounds v to the nearest integer when it is within SnapTol of it.
func snap(v float64) float64 {
	if r := math.Round(v); math.Abs(v-r) <= SnapTol*math.Max(1, math.Abs(v)) {
		if r == 0 {
			return 0
		}
		return r
	}
	return v
}
