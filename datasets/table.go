package datasets

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sdcopt/sdcopt/model"
)

// CountColumn is the name of the count column of a long-format table
// (matched case-insensitively).
const CountColumn = "count"

// CountAliases are the other names a count column is found under, matched
// exactly: Freq, the name R's as.data.frame(table(...)) writes, and n,
// dplyr::count's.
var CountAliases = []string{"Freq", "n"}

// maxCount bounds a cell count so that sums over any table stay exact in
// float64 (the solvers work in floating point): 2^50.
const maxCount = 1 << 50

// longTable is a long-format CSV file as parsed: the variables with levels
// in order of first appearance and the counts of the cells present.
type longTable struct {
	vars   []model.Variable
	counts []int64
}

// LoadTableCSV reads a contingency table in long format: one column per
// variable (the category labels as text) and one count column
// (non-negative integers; "12.0" is accepted as 12), named "count" (in any
// case) or one of CountAliases ("Freq" as R's as.data.frame(table(...))
// writes it, "n"); two such columns are an error naming both (name the
// count column with LoadTableCSVWith). Every row is one cell.
// Levels are ordered by first appearance in the file; variables keep the
// file's column order. Combinations that do not appear are zero cells; a
// combination that appears twice is an error.
//
// vars (optional) selects and orders the variables; the others are summed
// out (the table is collapsed onto vars, in that order). Errors are
// *DataError naming the file, line and column: empty file, no records,
// no "count" column, no variable columns, duplicate or empty column names,
// ragged rows, empty labels, negative, non-integer or too large counts,
// duplicate cells, unknown or repeated names in vars, and levels whose
// dense table (8 bytes a cell, listed or not) would exceed MemoryLimit
// (wrapping ErrTooLarge).
func LoadTableCSV(path string, vars []string) (*model.Table, error) {
	return LoadTableCSVWith(path, vars, nil)
}

// LoadTableCSVWith is LoadTableCSV with options (nil: the defaults):
// opt.Count names the count column (every other column is then a
// variable, a column named count included), opt.Dialect gives the
// separator and the decimal mark of the counts.
//
// The table is collapsed while it is read: only the selected variables
// are materialized, so a file whose full table would be too large for
// memory is read when the selected table fits (the full combinations are
// still checked for duplicates).
func LoadTableCSVWith(path string, vars []string, opt *CSVOptions) (*model.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lt, err := readLongTableVars(bufio.NewReaderSize(f, 1<<16), path, opt.opts(), vars)
	if err != nil {
		return nil, err
	}
	return &model.Table{Vars: lt.vars, Counts: lt.counts}, nil
}

// TableVarNames returns the variable columns of the long-format table at
// path (every header column but the count column, in file order), reading
// only the header: the names that LoadTableCSV's vars select from. opt as
// for LoadTableCSVWith (nil: the defaults).
func TableVarNames(path string, opt *CSVOptions) ([]string, error) {
	o := opt.opts()
	if err := o.check(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_, header, err := readHeaderSep(bufio.NewReaderSize(f, 1<<16), path, o.sep())
	if err != nil {
		return nil, err
	}
	countCol, err := findCountColumn(header, path, o.Count)
	if err != nil {
		return nil, err
	}
	var names []string
	for j, h := range header {
		if j != countCol {
			names = append(names, h)
		}
	}
	return names, nil
}

// ReadTableCSV reads a long-format table from r as LoadTableCSV reads a
// file; name stands for the source in error messages (e.g. an upload).
func ReadTableCSV(r io.Reader, name string) (*model.Table, error) {
	return ReadTableCSVWith(r, name, nil)
}

// ReadTableCSVWith is ReadTableCSV with options, as LoadTableCSVWith.
func ReadTableCSVWith(r io.Reader, name string, opt *CSVOptions) (*model.Table, error) {
	lt, err := readLongTable(r, name, opt.opts())
	if err != nil {
		return nil, err
	}
	return &model.Table{Vars: lt.vars, Counts: lt.counts}, nil
}

// CollapseTo collapses t onto the named variables, in the given order (the
// --vars of the CLI). Unknown or repeated names are a *DataError naming
// source.
func CollapseTo(t *model.Table, source string, vars []string) (*model.Table, error) {
	path := source
	pos := make([]int, len(vars))
	seen := map[int]bool{}
	for i, name := range vars {
		name = strings.TrimSpace(name)
		j := t.VarIndex(name)
		if j < 0 {
			return nil, &DataError{File: path, Msg: fmt.Sprintf("unknown variable %q in --vars (variables: %s)", name, varNames(t.Vars))}
		}
		if seen[j] {
			return nil, &DataError{File: path, Msg: fmt.Sprintf("variable %q selected twice", name)}
		}
		seen[j] = true
		pos[i] = j
	}
	// Collapse onto the sorted positions, then permute into the asked order.
	sorted := append([]int(nil), pos...)
	slices.Sort(sorted)
	ct, err := t.CollapseTable(sorted)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return permuteTable(ct, sorted, pos), nil
}

// permuteTable reorders the variables of t (whose variables sit at
// positions from in the parent) into the order to.
func permuteTable(t *model.Table, from, to []int) *model.Table {
	perm := make([]int, len(to)) // perm[i] = index in t of the i-th output variable
	for i, p := range to {
		for k, q := range from {
			if p == q {
				perm[i] = k
			}
		}
	}
	vars := make([]model.Variable, len(to))
	for i, k := range perm {
		vars[i] = t.Vars[k]
	}
	dims := model.Dims(t.Vars)
	odims := model.Dims(vars)
	out := &model.Table{Vars: vars, Counts: make([]int64, len(t.Counts))}
	lv := make([]int, len(dims))
	olv := make([]int, len(dims))
	for idx, c := range t.Counts {
		model.CellLevels(dims, idx, lv)
		for i, k := range perm {
			olv[i] = lv[k]
		}
		out.Counts[model.CellIndex(odims, olv)] = c
	}
	return out
}

// Margin is a released marginal table as read from a file: the variables
// it is over (with the levels it lists) and its counts, row-major.
type Margin struct {
	Source string       // the file it was read from
	Table  *model.Table // the marginal as a table over its own variables
}

// LoadMarginCSV reads one released marginal table in the same long format
// as LoadTableCSV (one column per variable of the margin, plus "count").
// It is the intruder's view: the full table is unknown. The same errors as
// LoadTableCSV apply.
func LoadMarginCSV(path string) (*Margin, error) {
	return LoadMarginCSVWith(path, nil)
}

// LoadMarginCSVWith is LoadMarginCSV with options, as LoadTableCSVWith.
func LoadMarginCSVWith(path string, opt *CSVOptions) (*Margin, error) {
	lt, err := readLongFile(path, opt.opts())
	if err != nil {
		return nil, err
	}
	return &Margin{Source: path, Table: &model.Table{Vars: lt.vars, Counts: lt.counts}}, nil
}

// LoadMarginFiles reads released marginal tables (LoadMarginCSV) and
// merges them into one margin set; see MergeMargins.
func LoadMarginFiles(paths []string, vars []string) (*model.MarginSet, error) {
	return LoadMarginFilesWith(paths, vars, nil)
}

// LoadMarginFilesWith is LoadMarginFiles with options (LoadMarginCSVWith)
// for every file.
func LoadMarginFilesWith(paths []string, vars []string, opt *CSVOptions) (*model.MarginSet, error) {
	if len(paths) == 0 {
		return nil, &DataError{File: "--margin-files", Msg: "no margin files given"}
	}
	ms := make([]*Margin, len(paths))
	for i, p := range paths {
		m, err := LoadMarginCSVWith(p, opt)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	return MergeMargins(ms, vars)
}

// MergeMargins builds the margin set an intruder knows from released
// marginal tables. Variables are matched by name; the full table's
// variables are ordered by first appearance over the margins in the given
// order, or as listed in vars (which must name exactly the variables of
// the margins). A variable's levels are the union of the levels listed in
// the margins, in order of first appearance: a level missing from one
// margin is a zero cell there, exactly as a missing combination within a
// file is. Whether the margins then agree is left to MarginSet.Check,
// which reports the first disagreement (so a level with a positive count
// in one margin and absent from another is reported as an inconsistency,
// not as bad input). Errors (*DataError): two files over the same set of
// variables, a margin over the merged levels larger than MemoryLimit
// (wrapping ErrTooLarge), and a full table with more cells than an int
// can index.
func MergeMargins(margins []*Margin, vars []string) (*model.MarginSet, error) {
	var all []model.Variable
	index := map[string]int{}
	levelIndex := []map[string]int{}
	for _, m := range margins {
		for _, v := range m.Table.Vars {
			j, ok := index[v.Name]
			if !ok {
				j = len(all)
				index[v.Name] = j
				all = append(all, model.Variable{Name: v.Name})
				levelIndex = append(levelIndex, map[string]int{})
			}
			for _, l := range v.Levels {
				if _, ok := levelIndex[j][l]; !ok {
					levelIndex[j][l] = len(all[j].Levels)
					all[j].Levels = append(all[j].Levels, l)
				}
			}
		}
	}
	order := make([]int, len(all)) // order[i] = index in all of output variable i
	for i := range order {
		order[i] = i
	}
	if len(vars) > 0 {
		seen := map[int]bool{}
		order = order[:0]
		for _, name := range vars {
			name = strings.TrimSpace(name)
			j, ok := index[name]
			if !ok {
				return nil, &DataError{File: "--vars", Msg: fmt.Sprintf("unknown variable %q (the margins are over %s)", name, varNames(all))}
			}
			if seen[j] {
				return nil, &DataError{File: "--vars", Msg: fmt.Sprintf("variable %q listed twice", name)}
			}
			seen[j] = true
			order = append(order, j)
		}
		if len(order) != len(all) {
			var missing []string
			for j, v := range all {
				if !seen[j] {
					missing = append(missing, v.Name)
				}
			}
			return nil, &DataError{File: "--vars", Msg: fmt.Sprintf("with --margin-files, --vars must list every variable of the margins; missing %s", strings.Join(missing, ", "))}
		}
	}
	pos := make([]int, len(all)) // pos[index in all] = output position
	outVars := make([]model.Variable, len(all))
	for i, j := range order {
		pos[j] = i
		outVars[i] = all[j]
	}
	ms := &model.MarginSet{Vars: outVars}
	dims := model.Dims(outVars)
	if sizeProduct(dims...) < 0 {
		sources := make([]string, len(margins))
		for i, m := range margins {
			sources[i] = m.Source
		}
		return nil, &DataError{File: strings.Join(sources, ", "), Err: ErrTooLarge,
			Msg: fmt.Sprintf("the full table over %s levels has %s cells, too many to index", formatDims(dims), formatCells(dims))}
	}
	bySubset := map[string]string{}
	for _, m := range margins {
		k := len(m.Table.Vars)
		sub := make([]int, k)
		for i, v := range m.Table.Vars {
			sub[i] = pos[index[v.Name]]
		}
		sorted := append([]int(nil), sub...)
		slices.Sort(sorted)
		key := fmt.Sprint(sorted)
		if prev, dup := bySubset[key]; dup {
			return nil, &DataError{File: m.Source, Msg: fmt.Sprintf("margin %s is also given by %s", model.MarginalName(outVars, sorted), prev)}
		}
		bySubset[key] = m.Source
		mdims := model.SubDims(dims, sorted)
		// The margin spans the levels of every file: it may be larger than
		// the file's own table.
		if err := checkCells(mdims); err != nil {
			return nil, &DataError{File: m.Source, Msg: "margin " + model.MarginalName(outVars, sorted) + ": " + err.Error(), Err: ErrTooLarge}
		}
		counts := make([]int64, model.NumCells(mdims))
		lv := make([]int, k)
		full := make([]int, len(outVars))
		fdims := model.Dims(m.Table.Vars)
		for idx, c := range m.Table.Counts {
			model.CellLevels(fdims, idx, lv)
			for i, v := range m.Table.Vars {
				full[sub[i]] = levelIndex[index[v.Name]][v.Levels[lv[i]]]
			}
			counts[model.Project(dims, sorted, full)] = c
		}
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: sorted, Counts: counts})
	}
	return ms, nil
}

func varNames(vars []model.Variable) string {
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

func readLongFile(path string, o CSVOptions) (*longTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLongTable(bufio.NewReaderSize(f, 1<<16), path, o)
}

// findCountColumn returns the index of the count column of header: the
// column named o.Count when set, otherwise the one column named count
// (any case) or one of CountAliases.
func findCountColumn(header []string, name string, count string) (int, error) {
	if count != "" {
		j := slices.Index(header, strings.TrimSpace(count))
		if j < 0 {
			return -1, &DataError{File: name, Line: 1, Msg: fmt.Sprintf("no count column %q (columns: %s)", count, strings.Join(header, ", "))}
		}
		return j, nil
	}
	countCol := -1
	for j, h := range header {
		if !strings.EqualFold(h, CountColumn) && !slices.Contains(CountAliases, h) {
			continue
		}
		if countCol >= 0 {
			return -1, &DataError{File: name, Line: 1,
				Msg: fmt.Sprintf("two count columns, %q (column %d) and %q (column %d): name the count column (--count)", header[countCol], countCol+1, h, j+1)}
		}
		countCol = j
	}
	if countCol < 0 {
		return -1, &DataError{File: name, Line: 1,
			Msg: fmt.Sprintf("no count column: none is named %q, %q or %q (columns: %s); name it with --count", CountColumn, CountAliases[0], CountAliases[1], strings.Join(header, ", "))}
	}
	return countCol, nil
}

// readLongTable parses a long-format table from r (see LoadTableCSV);
// name is used in error messages.
func readLongTable(r io.Reader, name string, o CSVOptions) (*longTable, error) {
	return readLongTableVars(r, name, o, nil)
}

// readLongTableVars is readLongTable collapsed onto the variables sel (in
// that order; nil = every variable, in file order) while reading: only
// the selected variables get a dense table, and duplicates are detected
// on the full combination of every variable's label.
func readLongTableVars(r io.Reader, name string, o CSVOptions, sel []string) (*longTable, error) {
	if err := o.check(name); err != nil {
		return nil, err
	}
	cr, header, err := readHeaderSep(r, name, o.sep())
	if err != nil {
		return nil, err
	}
	countCol, err := findCountColumn(header, name, o.Count)
	if err != nil {
		return nil, err
	}
	if len(header) < 2 {
		return nil, &DataError{File: name, Line: 1, Msg: "no variable columns besides the count column " + strconv.Quote(header[countCol])}
	}
	// all holds every variable of the file (levels of all of them are
	// coded, for the duplicate check); out[i] is the position in all of
	// the i-th variable of the table read.
	var all []model.Variable
	var varCols []int
	for j, h := range header {
		if j != countCol {
			all = append(all, model.Variable{Name: h})
			varCols = append(varCols, j)
		}
	}
	k := len(all)
	out := make([]int, 0, k)
	if len(sel) == 0 {
		for i := range all {
			out = append(out, i)
		}
	} else {
		for _, v := range sel {
			v = strings.TrimSpace(v)
			i := slices.IndexFunc(all, func(x model.Variable) bool { return x.Name == v })
			if i < 0 {
				return nil, &DataError{File: name, Msg: fmt.Sprintf("unknown variable %q in --vars (variables: %s)", v, varNames(all))}
			}
			if slices.Contains(out, i) {
				return nil, &DataError{File: name, Msg: fmt.Sprintf("variable %q selected twice", v)}
			}
			out = append(out, i)
		}
	}
	levelIdx := make([]map[string]int, k)
	for i := range levelIdx {
		levelIdx[i] = map[string]int{}
	}
	// The cells read, flat (no allocation per row): the codes of every
	// variable of the file (k per cell), the count and the line.
	var codes []int32
	var cellCounts []int64
	var lines []int
	lv := make([]int, k)
	rows := &Rows{cr: cr, name: name, width: len(header)}
	for rec, line := range rows.All() {
		for i, j := range varCols {
			l := strings.TrimSpace(rec[j])
			if l == "" {
				return nil, &DataError{File: name, Line: line, Column: header[j], Msg: "empty category label"}
			}
			if !utf8.ValidString(l) {
				// Printed in JSON, every invalid byte would become U+FFFD,
				// making distinct labels look alike.
				return nil, &DataError{File: name, Line: line, Column: header[j],
					Msg: fmt.Sprintf("category label %q is not UTF-8 text (save the file as UTF-8)", l)}
			}
			x, ok := levelIdx[i][l]
			if !ok {
				x = len(all[i].Levels)
				levelIdx[i][l] = x
				all[i].Levels = append(all[i].Levels, l)
			}
			lv[i] = x
		}
		c, msg := parseCount(rec[countCol], o.Dialect)
		if msg != "" {
			return nil, &DataError{File: name, Line: line, Column: header[countCol], Msg: msg}
		}
		for _, x := range lv {
			codes = append(codes, int32(x))
		}
		cellCounts, lines = append(cellCounts, c), append(lines, line)
	}
	if rows.err != nil {
		return nil, rows.err
	}
	if len(cellCounts) == 0 {
		return nil, &DataError{File: name, Line: 1, Msg: "header only, no cells (empty table)"}
	}
	vars := make([]model.Variable, len(out))
	for i, p := range out {
		vars[i] = all[p]
	}
	dims := model.Dims(vars)
	if err := checkCells(dims); err != nil {
		return nil, &DataError{File: name, Msg: err.Error(), Err: ErrTooLarge}
	}
	counts := make([]int64, model.NumCells(dims))
	// A duplicate is the same label in every variable of the file. When
	// the table keeps every variable, its cell index identifies the
	// labels, and the line of each cell's first row is kept per cell;
	// otherwise the rows are keyed by the codes of all the variables (the
	// full table over the file's variables is never materialized).
	var firstAt []int32 // per cell of the table: first line, 0 = none
	var firstLine map[string]int
	if len(out) == k {
		firstAt = make([]int32, len(counts))
	} else {
		firstLine = make(map[string]int, len(cellCounts))
	}
	key := make([]byte, 0, 4*k)
	olv := make([]int, len(out))
	var total int64
	for r, c := range cellCounts {
		cl := codes[r*k : (r+1)*k]
		line := lines[r]
		for i, p := range out {
			olv[i] = int(cl[p])
		}
		idx := model.CellIndex(dims, olv)
		first := 0
		if firstAt != nil {
			first = int(firstAt[idx])
			if first == 0 {
				firstAt[idx] = int32(min(line, math.MaxInt32))
			}
		} else {
			key = key[:0]
			for _, x := range cl {
				key = binary.AppendUvarint(key, uint64(x))
			}
			first = firstLine[string(key)]
			if first == 0 {
				firstLine[string(key)] = line
			}
		}
		if first != 0 {
			labels := make([]string, k)
			for i := range cl {
				labels[i] = all[i].Name + "=" + all[i].Levels[cl[i]]
			}
			return nil, &DataError{File: name, Line: line,
				Msg: fmt.Sprintf("duplicate cell %s (first on line %d)", strings.Join(labels, ","), first)}
		}
		counts[idx] += c
		total += c
		if total > maxCount {
			return nil, &DataError{File: name, Line: line, Column: header[countCol], Msg: fmt.Sprintf("grand total exceeds %d", int64(maxCount))}
		}
	}
	return &longTable{vars: vars, counts: counts}, nil
}

// checkCells returns an error wrapping ErrTooLarge when the dense table
// over variables with dims levels (8 bytes a cell) would exceed
// MemoryLimit: the cells of a long file are only those listed, but every
// combination of levels is a cell of the table.
func checkCells(dims []int) error {
	return checkMemory(fmt.Sprintf("the table over %s levels (%s cells)", formatDims(dims), formatCells(dims)),
		sizeProduct(append([]int{8}, dims...)...))
}

// formatDims writes dims as "3 x 4 x 2".
func formatDims(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, " x ")
}

// formatCells writes the product of dims, or "more than 2^63".
func formatCells(dims []int) string {
	if n := sizeProduct(dims...); n >= 0 {
		return strconv.FormatInt(n, 10)
	}
	return fmt.Sprintf("more than %d", math.MaxInt)
}

// parseCount parses a cell count: a non-negative integer, written as an
// integer or in decimal or scientific notation with no fractional part
// ("12", "12.0", "1e3"; not "1_2" or "0x1p3", see numtext.ParseFloat).
func parseCount(s string, d Dialect) (int64, string) {
	s = strings.TrimSpace(s)
	if s == "" || s == "NA" || s == "?" {
		return 0, fmt.Sprintf("missing count %q", s)
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		if v < 0 {
			return 0, fmt.Sprintf("negative count %d", v)
		}
		if v > maxCount {
			return 0, fmt.Sprintf("count %d is too large (limit %d)", v, int64(maxCount))
		}
		return v, ""
	}
	f, err := d.parseFloat(s)
	if err != nil {
		return 0, fmt.Sprintf("count %q is not a number", s) + numberHint(s)
	}
	if f < 0 {
		return 0, fmt.Sprintf("negative count %s", s)
	}
	if f != math.Trunc(f) {
		return 0, fmt.Sprintf("count %s is not an integer", s)
	}
	if f > maxCount {
		return 0, fmt.Sprintf("count %s is too large (limit %d)", s, int64(maxCount))
	}
	return int64(f), ""
}
