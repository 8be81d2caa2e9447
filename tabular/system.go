package tabular

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// DefaultAgreeTol is the default relative tolerance within which two
// tables' values of a shared cell agree: |a − b| ≤ tol·max(1, |a|, |b|).
// Values summed in different orders differ by rounding only, far below
// it.
const DefaultAgreeTol = 1e-9

// ErrLinked is the sentinel of tables that cannot be linked: a variable
// with different hierarchies in two tables, or a shared cell whose tables
// disagree (then the error is a *ConflictError).
var ErrLinked = errors.New("tabular: tables cannot be linked")

// SystemSettings are the options of NewSystem; nil means defaults.
type SystemSettings struct {
	Tol float64 // relative tolerance of shared values; 0 means DefaultAgreeTol
}

// CellRef is one table's cell: Tables[Table].Cells[Cell].
type CellRef struct{ Table, Cell int }

// SysCell is a cell of a System: a combination of one code per system
// variable (the total for the variables its tables do not span), with
// the value, frequency, cost and status its tables agree on, and where it
// occurs.
type SysCell struct {
	Codes  []int // code index per System.Vars
	Value  float64
	Freq   int
	Cost   float64
	Status Status
	Rule   string
	Refs   []CellRef // the tables' cells that are this cell, in table order
}

// System is a set of linked tables: tables from the same microdata over
// different (overlapping) sets of variables, whose cells that mean the
// same thing (the same codes for the variables a table spans, the others
// at their total) are one cell. It has one global cell index and the union
// of the tables' relations over it.
type System struct {
	Vars      []Dimension // the union of the tables' variables, in order of first appearance
	Tables    []*Table
	Cells     []SysCell
	Global    [][]int    // Global[t][i] is the system index of cell i of table t
	Relations []Relation // the union of the tables' relations, each once; Dim indexes Vars
	index     map[string]int
}

// ConflictError is a cell shared by two tables whose values (or
// frequencies, or statuses) disagree.
type ConflictError struct {
	Cell   string    // the cell, as System.CellName writes it
	Field  string    // "value", "freq" or "status"
	Tables [2]int    // the two tables (indices into the argument of NewSystem)
	Values [2]string // their values of Field
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("tabular: tables cannot be linked: cell (%s) has %s %s in table %d but %s in table %d",
		e.Cell, e.Field, e.Values[0], e.Tables[0], e.Values[1], e.Tables[1])
}

// Unwrap returns ErrLinked.
func (e *ConflictError) Unwrap() error { return ErrLinked }

// NewSystem links tables. A variable (a dimension name) must have the
// same hierarchy in every table that spans it (else an error wrapping
// ErrLinked). Every shared cell must agree in value (within the
// tolerance) and frequency across its tables, else a *ConflictError
// naming the cell. Statuses are merged: Safe and Empty yield to the
// other; Primary wins over Secondary; MustPublish with a suppressed status
// is a conflict. The first table's cost and rule are kept (Rule from the
// first table that makes the cell Primary).
func NewSystem(tables []*Table, s *SystemSettings) (*System, error) {
	tol := DefaultAgreeTol
	if s != nil && s.Tol != 0 {
		tol = s.Tol
	}
	sys := &System{Tables: tables, Global: make([][]int, len(tables)), index: map[string]int{}}
	varOf := make([][]int, len(tables)) // varOf[t][d]: the system variable of table t's dimension d
	first := map[string]int{}           // variable → first table spanning it
	for ti, t := range tables {
		varOf[ti] = make([]int, len(t.Dims))
		for d, dim := range t.Dims {
			v := slices.IndexFunc(sys.Vars, func(x Dimension) bool { return x.Name == dim.Name })
			if v < 0 {
				v = len(sys.Vars)
				sys.Vars = append(sys.Vars, dim)
				first[dim.Name] = ti
			} else if !sys.Vars[v].H.Equal(dim.H) {
				return nil, fmt.Errorf("%w: variable %q has one hierarchy in table %d and another in table %d",
					ErrLinked, dim.Name, first[dim.Name], ti)
			}
			varOf[ti][d] = v
		}
	}
	key := make([]byte, 4*len(sys.Vars))
	codes := make([]int, len(sys.Vars))
	var ci []int
	for ti, t := range tables {
		sys.Global[ti] = make([]int, t.Len())
		for i := range t.Cells {
			clear(codes)
			ci = t.CodeIndices(i, ci)
			for d, k := range ci {
				codes[varOf[ti][d]] = k
			}
			for v, k := range codes {
				binary.LittleEndian.PutUint32(key[4*v:], uint32(k))
			}
			c := t.Cells[i]
			g, ok := sys.index[string(key)]
			if !ok {
				g = len(sys.Cells)
				sys.index[string(key)] = g
				sys.Cells = append(sys.Cells, SysCell{Codes: slices.Clone(codes), Value: c.Value, Freq: c.Freq,
					Cost: c.Cost, Status: c.Status, Rule: c.Rule, Refs: []CellRef{{ti, i}}})
				sys.Global[ti][i] = g
				continue
			}
			sc := &sys.Cells[g]
			prev := sc.Refs[0].Table
			conflict := func(field, a, b string) error {
				return &ConflictError{Cell: sys.CellName(g), Field: field, Tables: [2]int{prev, ti}, Values: [2]string{a, b}}
			}
			if math.Abs(sc.Value-c.Value) > tol*math.Max(1, math.Max(math.Abs(sc.Value), math.Abs(c.Value))) {
				return nil, conflict("value", fmt.Sprint(sc.Value), fmt.Sprint(c.Value))
			}
			if sc.Freq != c.Freq {
				return nil, conflict("freq", fmt.Sprint(sc.Freq), fmt.Sprint(c.Freq))
			}
			st, ok := mergeStatus(sc.Status, c.Status)
			if !ok {
				return nil, conflict("status", sc.Status.String(), c.Status.String())
			}
			if st == Primary && sc.Status != Primary {
				sc.Rule = c.Rule
			}
			sc.Status = st
			sc.Refs = append(sc.Refs, CellRef{ti, i})
			sys.Global[ti][i] = g
		}
	}
	seen := map[[2]int]bool{}
	for ti, t := range tables {
		for r := range t.Relations() {
			total, v := sys.Global[ti][r.Total], varOf[ti][r.Dim]
			if seen[[2]int{total, v}] {
				continue
			}
			seen[[2]int{total, v}] = true
			for j, p := range r.Parts {
				r.Parts[j] = sys.Global[ti][p]
			}
			sys.Relations = append(sys.Relations, Relation{Total: total, Parts: r.Parts, Dim: v})
		}
	}
	return sys, nil
}

// mergeStatus is the status of a cell two tables give statuses a and b,
// and false when they conflict.
func mergeStatus(a, b Status) (Status, bool) {
	rank := func(s Status) int {
		switch s {
		case Empty:
			return 0
		case Safe:
			return 1
		case MustPublish:
			return 2
		case Secondary:
			return 3
		}
		return 4 // Primary
	}
	if a == b {
		return a, true
	}
	if (a == MustPublish && b.Suppressed()) || (b == MustPublish && a.Suppressed()) {
		return a, false
	}
	if rank(b) > rank(a) {
		return b, true
	}
	return a, true
}

// Len returns the number of system cells.
func (s *System) Len() int { return len(s.Cells) }

// Lookup returns the system cell with the given codes by variable name
// (variables not named at their total) and whether it exists (every
// named variable is a system variable, every code in its hierarchy, and
// some table holds the combination).
func (s *System) Lookup(codes map[string]string) (int, bool) {
	key := make([]byte, 4*len(s.Vars))
	n := 0
	for v, dim := range s.Vars {
		code, ok := codes[dim.Name]
		if !ok {
			continue
		}
		n++
		k, ok := dim.H.Index(code)
		if !ok {
			return 0, false
		}
		binary.LittleEndian.PutUint32(key[4*v:], uint32(k))
	}
	if n != len(codes) {
		return 0, false
	}
	g, ok := s.index[string(key)]
	return g, ok
}

// CellName returns system cell g as "name=code, ..." over the variables
// not at their total ("all totals" for the grand total).
func (s *System) CellName(g int) string {
	var parts []string
	for v, k := range s.Cells[g].Codes {
		if k != 0 {
			parts = append(parts, s.Vars[v].Name+"="+s.Vars[v].H.Code(k))
		}
	}
	if parts == nil {
		return "all totals"
	}
	return strings.Join(parts, ", ")
}

// CheckConsistent verifies every relation of the system on the cells'
// values, as Table.CheckConsistent does.
func (s *System) CheckConsistent(tol float64) error {
	return checkRelations(slices.Values(s.Relations), func(g int) float64 { return s.Cells[g].Value }, s.CellName, tol)
}

// NonNegative reports whether every cell value of the system is known to
// be ≥ 0: when no table is a magnitude table, or no cell is negative (see
// Table.NonNegative).
func (s *System) NonNegative() bool {
	magnitude := false
	for _, t := range s.Tables {
		magnitude = magnitude || t.Magnitude
	}
	if !magnitude {
		return true
	}
	for i := range s.Cells {
		if s.Cells[i].Value < 0 {
			return false
		}
	}
	return true
}
