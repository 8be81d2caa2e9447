package model

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Variable is a categorical variable of a contingency table with ordered
// category labels (levels).
type Variable struct {
	Name   string
	Levels []string
}

// Table is a k-way table of counts. Cells are stored in row-major order
// over Vars: the first variable varies slowest, the last fastest, as in the
// long CSV files (autoworkers.csv lists A slowest and F fastest).
type Table struct {
	Vars   []Variable
	Counts []int64
}

// Dims returns the number of levels of every variable.
func Dims(vars []Variable) []int {
	d := make([]int, len(vars))
	for i, v := range vars {
		d[i] = len(v.Levels)
	}
	return d
}

// NumCells is the product of dims (1 for no variables).
func NumCells(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// CellIndex returns the row-major index of the cell with level indices lv.
func CellIndex(dims, lv []int) int {
	idx := 0
	for i, d := range dims {
		idx = idx*d + lv[i]
	}
	return idx
}

// CellLevels writes the level indices of cell idx into lv and returns it.
func CellLevels(dims []int, idx int, lv []int) []int {
	if lv == nil {
		lv = make([]int, len(dims))
	}
	for i := len(dims) - 1; i >= 0; i-- {
		lv[i] = idx % dims[i]
		idx /= dims[i]
	}
	return lv
}

// NewTable checks the shape and counts (non-negative) of a table.
func NewTable(vars []Variable, counts []int64) (*Table, error) {
	seen := map[string]bool{}
	for _, v := range vars {
		if v.Name == "" {
			return nil, fmt.Errorf("model: a variable has no name")
		}
		if seen[v.Name] {
			return nil, fmt.Errorf("model: duplicate variable %q", v.Name)
		}
		seen[v.Name] = true
		if len(v.Levels) == 0 {
			return nil, fmt.Errorf("model: variable %q has no levels", v.Name)
		}
		ls := map[string]bool{}
		for _, l := range v.Levels {
			if ls[l] {
				return nil, fmt.Errorf("model: variable %q has the level %q twice", v.Name, l)
			}
			ls[l] = true
		}
	}
	if n := NumCells(Dims(vars)); len(counts) != n {
		return nil, fmt.Errorf("model: table over %d cells has %d counts", n, len(counts))
	}
	for i, c := range counts {
		if c < 0 {
			return nil, fmt.Errorf("model: cell %d has negative count %d", i, c)
		}
	}
	return &Table{Vars: vars, Counts: counts}, nil
}

// Total is the grand total of the table.
func (t *Table) Total() int64 {
	var s int64
	for _, c := range t.Counts {
		s += c
	}
	return s
}

// VarIndex returns the position of the named variable, or -1.
func (t *Table) VarIndex(name string) int { return varIndex(t.Vars, name) }

func varIndex(vars []Variable, name string) int {
	for i, v := range vars {
		if v.Name == name {
			return i
		}
	}
	return -1
}

// Marginal is the table collapsed onto a subset of the variables of a
// parent table. Vars holds the positions of those variables in the parent,
// in increasing order; Counts is row-major over them.
type Marginal struct {
	Vars   []int
	Counts []int64
}

// MarginalName is the conventional bracket name of a marginal, e.g. "[ABCE]" for
// one-letter variables or "[age:sex]" otherwise.
func MarginalName(vars []Variable, m []int) string {
	names := make([]string, len(m))
	short := true
	for i, j := range m {
		names[i] = vars[j].Name
		short = short && len(names[i]) == 1
	}
	if short {
		return "[" + strings.Join(names, "") + "]"
	}
	return "[" + strings.Join(names, ":") + "]"
}

// SubDims returns the dims of the variables at positions sub.
func SubDims(dims []int, sub []int) []int {
	d := make([]int, len(sub))
	for i, j := range sub {
		d[i] = dims[j]
	}
	return d
}

// Project maps the level vector lv of a full cell to the index of its cell
// in the marginal over positions sub.
func Project(dims, sub, lv []int) int {
	idx := 0
	for _, j := range sub {
		idx = idx*dims[j] + lv[j]
	}
	return idx
}

// Collapse sums the table over every variable not in sub (positions,
// increasing) and returns the marginal.
func (t *Table) Collapse(sub []int) (*Marginal, error) {
	if err := checkSubset(len(t.Vars), sub); err != nil {
		return nil, err
	}
	dims := Dims(t.Vars)
	m := &Marginal{Vars: append([]int(nil), sub...), Counts: make([]int64, NumCells(SubDims(dims, sub)))}
	lv := make([]int, len(dims))
	for idx, c := range t.Counts {
		CellLevels(dims, idx, lv)
		m.Counts[Project(dims, sub, lv)] += c
	}
	return m, nil
}

// CollapseTable returns the table over the variables at positions sub (in
// that order, increasing), as a Table of its own.
func (t *Table) CollapseTable(sub []int) (*Table, error) {
	m, err := t.Collapse(sub)
	if err != nil {
		return nil, err
	}
	vars := make([]Variable, len(sub))
	for i, j := range sub {
		vars[i] = t.Vars[j]
	}
	return &Table{Vars: vars, Counts: m.Counts}, nil
}

func checkSubset(k int, sub []int) error {
	for i, j := range sub {
		if j < 0 || j >= k {
			return fmt.Errorf("model: variable position %d out of range [0, %d)", j, k)
		}
		if i > 0 && sub[i-1] >= j {
			return fmt.Errorf("model: marginal variables must be distinct and increasing, got %v", sub)
		}
	}
	return nil
}

// MarginSet is what an intruder knows: the variables of the unknown table
// and a set of released marginals over them.
type MarginSet struct {
	Vars    []Variable
	Margins []*Marginal
}

// Name lists the marginals, e.g. "[BF] [ABCE] [ADE]".
func (ms *MarginSet) Name() string {
	parts := make([]string, len(ms.Margins))
	for i, m := range ms.Margins {
		parts[i] = MarginalName(ms.Vars, m.Vars)
	}
	return strings.Join(parts, " ")
}

// Released returns the marginals of t over the given variable subsets
// (positions; each is sorted and checked).
func (t *Table) Released(subsets [][]int) (*MarginSet, error) {
	ms := &MarginSet{Vars: t.Vars}
	for _, s := range subsets {
		sub := append([]int(nil), s...)
		sort.Ints(sub)
		m, err := t.Collapse(sub)
		if err != nil {
			return nil, err
		}
		ms.Margins = append(ms.Margins, m)
	}
	return ms, nil
}

// InconsistencyError describes the first disagreement between released
// marginals: two marginals whose collapses onto their shared variables
// differ in a cell (or whose grand totals differ, when Shared is empty).
type InconsistencyError struct {
	A, B       string // marginal names
	Shared     string // the common sub-marginal, "[]" for the grand total
	Cell       string // the cell of the common sub-marginal, as var=level pairs
	CountA     int64
	CountB     int64
	Mismatches int // how many cells of the common sub-marginal disagree
}

func (e *InconsistencyError) Error() string {
	if e.Shared == "[]" {
		return fmt.Sprintf("inconsistent margins: %s has total %d but %s has total %d", e.A, e.CountA, e.B, e.CountB)
	}
	return fmt.Sprintf("inconsistent margins: %s and %s disagree on %s at %s: %d vs %d (%d cell(s) of %s differ)",
		e.A, e.B, e.Shared, e.Cell, e.CountA, e.CountB, e.Mismatches, e.Shared)
}

// Check validates the margin set: shapes, non-negative counts, and
// consistency — every pair of marginals has the same grand total and the
// same collapse onto their shared variables. A disagreement is returned as
// an *InconsistencyError.
func (ms *MarginSet) Check() error {
	dims := Dims(ms.Vars)
	for _, m := range ms.Margins {
		if err := checkSubset(len(ms.Vars), m.Vars); err != nil {
			return err
		}
		if want := NumCells(SubDims(dims, m.Vars)); len(m.Counts) != want {
			return fmt.Errorf("model: marginal %s has %d counts, want %d", MarginalName(ms.Vars, m.Vars), len(m.Counts), want)
		}
		for i, c := range m.Counts {
			if c < 0 {
				return fmt.Errorf("model: marginal %s cell %d has negative count %d", MarginalName(ms.Vars, m.Vars), i, c)
			}
		}
	}
	for a := 0; a < len(ms.Margins); a++ {
		for b := a + 1; b < len(ms.Margins); b++ {
			if err := ms.checkPair(ms.Margins[a], ms.Margins[b]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (ms *MarginSet) checkPair(ma, mb *Marginal) error {
	var shared []int
	for _, x := range ma.Vars {
		for _, y := range mb.Vars {
			if x == y {
				shared = append(shared, x)
			}
		}
	}
	ca := CollapseMarginal(ms.Vars, ma, shared)
	cb := CollapseMarginal(ms.Vars, mb, shared)
	var first *InconsistencyError
	n := 0
	for i := range ca {
		if ca[i] != cb[i] {
			n++
			if first == nil {
				first = &InconsistencyError{A: MarginalName(ms.Vars, ma.Vars), B: MarginalName(ms.Vars, mb.Vars),
					Shared: MarginalName(ms.Vars, shared), Cell: CellLabel(ms.Vars, shared, i), CountA: ca[i], CountB: cb[i]}
			}
		}
	}
	if first != nil {
		first.Mismatches = n
		return first
	}
	return nil
}

// CellLabel names cell idx of the marginal over the variable positions sub
// (nil: every variable, a cell of the full table) as "A=no,B=yes".
func CellLabel(vars []Variable, sub []int, idx int) string {
	if sub == nil {
		sub = make([]int, len(vars))
		for i := range sub {
			sub[i] = i
		}
	}
	lv := CellLevels(SubDims(Dims(vars), sub), idx, nil)
	parts := make([]string, len(sub))
	for i, j := range sub {
		parts[i] = vars[j].Name + "=" + vars[j].Levels[lv[i]]
	}
	return strings.Join(parts, ",")
}

// IsSubset reports whether every variable position of a is in b.
func IsSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// CollapseMarginal sums marginal m onto the variables sub ⊆ m.Vars
// (positions, increasing), in the row-major cell order over sub.
func CollapseMarginal(vars []Variable, m *Marginal, sub []int) []int64 {
	dims := Dims(vars)
	mdims := SubDims(dims, m.Vars)
	out := make([]int64, NumCells(SubDims(dims, sub)))
	lv := make([]int, len(m.Vars))
	full := make([]int, len(vars))
	for idx, c := range m.Counts {
		CellLevels(mdims, idx, lv)
		for i, j := range m.Vars {
			full[j] = lv[i]
		}
		out[Project(dims, sub, full)] += c
	}
	return out
}

// MarginalOf returns the marginal of ms over exactly the variables sub, if
// released.
func (ms *MarginSet) MarginalOf(sub []int) (*Marginal, bool) {
	for _, m := range ms.Margins {
		if equalInts(m.Vars, sub) {
			return m, true
		}
	}
	return nil, false
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// AllMargins returns every k-way margin of d variables: the k-element
// subsets of 0..d-1, each sorted, in lexicographic order (C(d, k) of them;
// e.g. d = 3, k = 2: [0 1] [0 2] [1 2]). Errors: d < 1, or k outside 1..d.
func AllMargins(d, k int) ([][]int, error) {
	if d < 1 || k < 1 || k > d {
		return nil, fmt.Errorf("all %d-way margins of %d variables: want 1 <= k <= %d", k, d, max(d, 1))
	}
	var out [][]int
	sub := make([]int, k)
	for i := range sub {
		sub[i] = i
	}
	for {
		out = append(out, slices.Clone(sub))
		i := k - 1
		for i >= 0 && sub[i] == d-k+i {
			i--
		}
		if i < 0 {
			return out, nil
		}
		sub[i]++
		for j := i + 1; j < k; j++ {
			sub[j] = sub[j-1] + 1
		}
	}
}

// ParseMarginSpec parses a list of marginals: margins separated by commas,
// each margin's variable names separated by ':' (e.g. "B:F,A:B:C:E,A:D:E").
// When every variable name is a single character, a margin may also be
// written without separators ("BF,ABCE,ADE"). "all:K" names every K-way
// margin of the variables (AllMargins; unless a variable is named "all").
// It returns the positions of the variables of each margin, sorted.
func ParseMarginSpec(vars []Variable, spec string) ([][]int, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty margin specification")
	}
	if rest, ok := strings.CutPrefix(spec, "all:"); ok && varIndex(vars, "all") < 0 {
		k, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil || k < 1 || k > len(vars) {
			return nil, fmt.Errorf("margin specification %q: want all:K with K in 1..%d (the number of variables)", spec, len(vars))
		}
		return AllMargins(len(vars), k)
	}
	oneChar := true
	for _, v := range vars {
		oneChar = oneChar && len(v.Name) == 1
	}
	var out [][]int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("margin specification %q has an empty margin", spec)
		}
		var names []string
		switch {
		case strings.Contains(part, ":"):
			names = strings.Split(part, ":")
		case oneChar:
			for _, r := range part {
				names = append(names, string(r))
			}
		default:
			names = []string{part}
		}
		seen := map[int]bool{}
		var sub []int
		for _, n := range names {
			j := varIndex(vars, strings.TrimSpace(n))
			if j < 0 {
				known := make([]string, len(vars))
				for i, v := range vars {
					known[i] = v.Name
				}
				return nil, fmt.Errorf("margin %q names unknown variable %q (variables: %s)", part, n, strings.Join(known, ", "))
			}
			if seen[j] {
				return nil, fmt.Errorf("margin %q names variable %q twice", part, n)
			}
			seen[j] = true
			sub = append(sub, j)
		}
		sort.Ints(sub)
		out = append(out, sub)
	}
	return out, nil
}

// ReleaseSpec returns the marginals of t named by a margin specification
// (see ParseMarginSpec): the intruder's view of t.
func (t *Table) ReleaseSpec(spec string) (*MarginSet, error) {
	subs, err := ParseMarginSpec(t.Vars, spec)
	if err != nil {
		return nil, err
	}
	return t.Released(subs)
}
