package suppress

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// source is the common view of a Table and a System.
type source struct {
	n      int
	value  func(int) float64
	status func(int) tabular.Status
	cost   func(int) float64
	levels func(int) (lower, upper, sliding float64)
	name   func(int) string
	rels   []tabular.Relation
	nonNeg bool
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
		cost:   func(i int) float64 { return t.Cells[i].Cost },
		levels: func(i int) (float64, float64, float64) {
			c := &t.Cells[i]
			return c.Lower, c.Upper, c.Sliding
		},
		name:   t.CellName,
		rels:   rels,
		nonNeg: t.NonNegative(),
	}
}

func systemSource(s *tabular.System) source {
	return source{
		n:      len(s.Cells),
		value:  func(i int) float64 { return s.Cells[i].Value },
		status: func(i int) tabular.Status { return s.Cells[i].Status },
		cost:   func(i int) float64 { return s.Cells[i].Cost },
		// A shared cell needs the largest level any of its tables gives it.
		levels: func(i int) (lo, up, sl float64) {
			for _, r := range s.Cells[i].Refs {
				c := &s.Tables[r.Table].Cells[r.Cell]
				lo, up, sl = math.Max(lo, c.Lower), math.Max(up, c.Upper), math.Max(sl, c.Sliding)
			}
			return lo, up, sl
		},
		name:   s.CellName,
		rels:   s.Relations,
		nonNeg: s.NonNegative(),
	}
}

// target is one attacker subproblem: raise (Up) or lower primary cell
// Cell, attacker column Col, by at least Level. An insider's target has
// its own movement bounds on the columns of ov (nil: the model's LB, UB
// everywhere; see insider.go).
type target struct {
	cell, col int
	up        bool
	level     float64
	ov        *override
}

// bounds returns LB and UB of column c for target t.
func (m *model) bounds(t target, c int) (lb, ub float64) {
	if t.ov != nil {
		if k, ok := slices.BinarySearch(t.ov.cols, c); ok {
			return t.ov.lb[k], t.ov.ub[k]
		}
	}
	return m.lb[c], m.ub[c]
}

// model is the suppression problem over the attacker's columns: the cells
// that can be suppressed (primary and free ones); the other cells are
// published for sure and drop out of the relations.
type model struct {
	src   source
	cell  []int     // cell of each column
	colOf []int     // column of each cell, −1 when it is published for sure
	vr    []int     // master variable of each column, −1 for a primary cell (y = 1)
	col   []int     // column of each master variable
	cost  []float64 // cost of each master variable
	lb    []float64 // per column: how far it can move down (LB)
	ub    []float64 // per column: how far it can move up (UB)
	prob  *solvers.Problem
	// rows of the attacker problem (relations restricted to columns)
	rows    [][]int // columns of each row
	targets []target
	capM    float64
}

// buildModel checks the input and writes the model.
func buildModel(src source, s *Settings) (*model, error) {
	m := &model{src: src, colOf: make([]int, src.n)}
	if err := checkConsistent(src); err != nil {
		return nil, err
	}
	capM := s.Capacity
	if capM == 0 {
		maxA, maxL := 0.0, 0.0
		for i := 0; i < src.n; i++ {
			maxA = math.Max(maxA, math.Abs(src.value(i)))
			if src.status(i) == tabular.Primary {
				lo, up, _ := src.levels(i)
				maxL = math.Max(maxL, math.Max(lo, up))
			}
		}
		capM = math.Max(maxA+maxL, 1)
	}
	m.capM = capM
	prior := s.Prior
	for i := 0; i < src.n; i++ {
		m.colOf[i] = -1
		st := src.status(i)
		switch st {
		case tabular.MustPublish:
			continue
		case tabular.Empty:
			if s.Empty != EmptyAllowed {
				continue
			}
		case tabular.Safe, tabular.Secondary, tabular.Primary:
		default:
			return nil, fmt.Errorf("%w: cell (%s) has status %v", ErrInput, src.name(i), st)
		}
		a := src.value(i)
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("%w: cell (%s) has value %v", ErrInput, src.name(i), a)
		}
		lo, up := math.Inf(-1), math.Inf(1)
		if src.nonNeg {
			lo = 0
		}
		if prior != nil {
			lo, up = prior(i, a)
		}
		if math.IsNaN(lo) || math.IsNaN(up) || lo > a || up < a {
			return nil, fmt.Errorf("%w: cell (%s): value %g outside its prior bounds [%g, %g]", ErrInput, src.name(i), a, lo, up)
		}
		down, rise := a-lo, up-a
		if math.IsInf(down, 1) {
			down = capM
		}
		if math.IsInf(rise, 1) {
			rise = capM
		}
		c := len(m.cell)
		m.colOf[i] = c
		m.cell = append(m.cell, i)
		m.lb = append(m.lb, down)
		m.ub = append(m.ub, rise)
		if st == tabular.Primary {
			m.vr = append(m.vr, -1)
			lower, upper, sliding := src.levels(i)
			if bad := math.IsNaN(lower) || math.IsNaN(upper) || lower < 0 || upper < 0; bad {
				return nil, fmt.Errorf("%w: primary cell (%s) has protection levels lower %g, upper %g", ErrInput, src.name(i), lower, upper)
			}
			if sliding > lower+upper+1e-12*math.Max(1, math.Abs(a)) {
				return nil, fmt.Errorf("%w: primary cell (%s) has a sliding protection level %g above upper + lower = %g (sliding protection is not modelled)",
					ErrUnsupported, src.name(i), sliding, lower+upper)
			}
			if upper == 0 && lower == 0 {
				min := s.minLevel() * math.Max(1, math.Abs(a))
				if rise > 0 {
					upper = math.Min(min, rise)
				} else {
					lower = math.Min(min, down)
				}
			}
			if upper > rise || lower > down {
				return nil, fmt.Errorf("%w: primary cell (%s) with value %g and levels lower %g, upper %g cannot reach them within its prior bounds [%g, %g]",
					ErrInfeasible, src.name(i), a, lower, upper, lo, up)
			}
			if upper > 0 {
				m.targets = append(m.targets, target{cell: i, col: c, up: true, level: upper})
			}
			if lower > 0 {
				m.targets = append(m.targets, target{cell: i, col: c, up: false, level: lower})
			}
			continue
		}
		cost := src.cost(i)
		if math.IsNaN(cost) || math.IsInf(cost, 0) || cost < 0 {
			return nil, fmt.Errorf("%w: cell (%s) has cost %v (want a finite number >= 0)", ErrInput, src.name(i), cost)
		}
		m.vr = append(m.vr, len(m.col))
		m.col = append(m.col, c)
		m.cost = append(m.cost, cost)
	}
	b := solvers.NewRowBuilder(solvers.Maximize)
	for c := range m.cell {
		b.AddVar(0, -m.lb[c], m.ub[c], solvers.Continuous, "")
	}
	for _, r := range src.rels {
		var cols []int
		var vals []float64
		if c := m.colOf[r.Total]; c >= 0 {
			cols, vals = append(cols, c), append(vals, -1)
		}
		for _, p := range r.Parts {
			if c := m.colOf[p]; c >= 0 {
				cols, vals = append(cols, c), append(vals, 1)
			}
		}
		if len(cols) == 0 {
			continue
		}
		b.AddConstraint(0, 0, cols, vals, "")
		m.rows = append(m.rows, cols)
	}
	m.prob = b.Problem()
	return m, nil
}

// checkConsistent verifies the relations on the values, as intervals does
// among published cells (relative tolerance ConsistTol).
func checkConsistent(src source) error {
	for _, r := range src.rels {
		sum, scale := 0.0, math.Abs(src.value(r.Total))
		for _, p := range r.Parts {
			sum += src.value(p)
			scale = math.Max(scale, math.Abs(src.value(p)))
		}
		if v := src.value(r.Total); math.Abs(v-sum) > ConsistTol*math.Max(1, scale) {
			return fmt.Errorf("%w: cell (%s) = %g but its %d parts sum to %g", tabular.ErrInconsistent, src.name(r.Total), v, len(r.Parts), sum)
		}
	}
	return nil
}

// relationCuts returns the first cuts: for each target's primary cell and
// each relation in which no other primary cell lies, some free cell of the
// relation must be suppressed. It fails with ErrInfeasible when a relation
// has no free cell.
func (m *model) relationCuts() ([]cut, error) {
	var cuts []cut
	seen := map[int]bool{}
	for _, t := range m.targets {
		if seen[t.col] {
			continue
		}
		seen[t.col] = true
		for _, cols := range m.rows {
			has, other := false, false
			var vars []int
			for _, c := range cols {
				switch {
				case c == t.col:
					has = true
				case m.vr[c] < 0:
					other = true
				default:
					vars = append(vars, m.vr[c])
				}
			}
			if !has || other {
				continue
			}
			if len(vars) == 0 {
				return nil, fmt.Errorf("%w: primary cell (%s) is the only cell of a relation that may be suppressed: it is recomputed from the published ones", ErrInfeasible, m.src.name(t.cell))
			}
			coef := make([]float64, len(vars))
			for k := range coef {
				coef[k] = 1
			}
			cuts = append(cuts, newCut(vars, coef))
		}
	}
	return cuts, nil
}
