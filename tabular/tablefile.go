package tabular

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/datasets"
)

// ErrTableFile is the sentinel of a malformed table file; the error is a
// *datasets.DataError naming the file, the line and the column.
var ErrTableFile = errors.New("tabular: bad table file")

// The columns of a table file besides the dimensions'.
const (
	ColValue  = "value"
	ColFreq   = "freq"
	ColStatus = "status"
	ColCost   = "cost"
	ColRule   = "rule"
	// Optional: protection levels and prior bounds (Cell's fields).
	ColUpper      = "upper"
	ColLower      = "lower"
	ColSliding    = "sliding"
	ColPriorLower = "prior_lower"
	ColPriorUpper = "prior_upper"
)

// WriteTableFile writes t as a table file: a CSV file with a header row
// (the dimensions' names, then value, freq, status, cost, rule, upper,
// lower, sliding, prior_lower, prior_upper) and one
// row per cell in the canonical order (cell index order: the first
// dimension slowest, each dimension's codes in hierarchy pre-order, a
// total before its parts). Numbers are written in plain decimal with the
// fewest digits that read back exactly (datasets.FormatValue); statuses by
// their lower_snake_case names; prior_upper is empty when the cell has
// no upper bound (PriorUpper 0). Top contributions are not written.
func WriteTableFile(w io.Writer, t *Table) error {
	return writeCells(w, t, []string{ColValue, ColFreq, ColStatus, ColCost, ColRule, ColUpper, ColLower, ColSliding, ColPriorLower, ColPriorUpper},
		func(row []string, c *Cell) []string {
			row = append(row, datasets.FormatValue(c.Value), strconv.Itoa(c.Freq), c.Status.String(),
				datasets.FormatValue(c.Cost), c.Rule, datasets.FormatValue(c.Upper), datasets.FormatValue(c.Lower),
				datasets.FormatValue(c.Sliding), datasets.FormatValue(c.PriorLower), "")
			if c.PriorUpper != 0 {
				row[len(row)-1] = datasets.FormatValue(c.PriorUpper)
			}
			return row
		})
}

// SuppressedMark stands for a suppressed value (and frequency) in a
// published table.
const SuppressedMark = "x"

// WritePublished writes the published table: a CSV file with a header row
// (the dimensions' names, value and, withFreq, freq) and one row per cell
// in the canonical order (as WriteTableFile), SuppressedMark for the value
// and frequency of a suppressed cell. Nothing else (statuses, levels,
// costs) is written: which cells are primary is itself confidential.
func WritePublished(w io.Writer, t *Table, withFreq bool) error {
	cols := []string{ColValue}
	if withFreq {
		cols = append(cols, ColFreq)
	}
	return writeCells(w, t, cols, func(row []string, c *Cell) []string {
		v, f := datasets.FormatValue(c.Value), strconv.Itoa(c.Freq)
		if c.Status.Suppressed() {
			v, f = SuppressedMark, SuppressedMark
		}
		row = append(row, v)
		if withFreq {
			row = append(row, f)
		}
		return row
	})
}

// writeCells writes a CSV file of t's cells: a header row of the
// dimensions' names then cols, and one row per cell in cell index order,
// its codes followed by what fields appends for it.
func writeCells(w io.Writer, t *Table, cols []string, fields func(row []string, c *Cell) []string) error {
	cw := csv.NewWriter(w)
	row := make([]string, 0, len(t.Dims)+len(cols))
	for _, d := range t.Dims {
		row = append(row, d.Name)
	}
	row = append(row, cols...)
	if err := cw.Write(row); err != nil {
		return err
	}
	ci := make([]int, 0, len(t.Dims))
	for i := range t.Cells {
		row = row[:0]
		ci = t.CodeIndices(i, ci)
		for d, k := range ci {
			row = append(row, t.Dims[d].H.Code(k))
		}
		if err := cw.Write(fields(row, &t.Cells[i])); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// TableFileSettings are the options of ReadTableFile; nil means defaults.
type TableFileSettings struct {
	Sep rune // field separator; default ','
	// CostColumn is the numeric column read as each cell's Cost. Default
	// "" : ColCost when present (else the cell's value).
	CostColumn string
}

// ReadTableFile reads a table file (as WriteTableFile writes it, or as
// another tool or a person wrote it) over dims: a header row naming every
// dimension and the column value, optionally freq, status, cost, rule,
// upper, lower, sliding, prior_lower and prior_upper (other columns are ignored; columns in any order), one row per cell.
// A dimension without a hierarchy (H nil) becomes flat: its codes other
// than DefaultRoot in the file, in datasets.CompareLabels order, under
// DefaultRoot; the returned table's Dims carry the hierarchies used.
//
// A cell's codes may be at any level of the hierarchies (totals are rows
// like the others). Cells not in the file get value 0, freq 0 and status
// Empty. Without a status column a listed cell is Safe (Empty when its
// freq column says 0); without a cost column its cost is its value. Status
// spellings are those of ParseStatus. The file's totals are not checked
// against their parts: call CheckConsistent. An empty or missing upper,
// lower, sliding, prior_lower or prior_upper is 0, the Cell default (for
// prior_upper: no upper bound).
//
// Errors are *datasets.DataError naming the file (name), the line and
// the column, wrapping ErrTableFile: a missing column, a code not in the
// dimension's hierarchy, a cell twice, a value, freq or cost that is not
// a number (freq a non-negative integer; a protection level negative), an
// unknown status.
func ReadTableFile(r io.Reader, name string, dims []Dimension, s *TableFileSettings) (*Table, error) {
	sep := ','
	if s != nil && s.Sep != 0 {
		sep = s.Sep
	}
	cr := csv.NewReader(datasets.SkipBOM(r))
	cr.Comma = sep
	header, err := cr.Read()
	if err != nil {
		return nil, datasets.CSVError(name, err)
	}
	find := func(c string) int {
		for j, h := range header {
			if strings.TrimSpace(h) == c {
				return j
			}
		}
		return -1
	}
	dcol := make([]int, len(dims))
	for d, dim := range dims {
		if dcol[d] = find(dim.Name); dcol[d] < 0 {
			return nil, &datasets.DataError{File: name, Line: 1, Column: dim.Name, Msg: "no such column", Err: ErrTableFile}
		}
	}
	vcol, fcol, scol, ccol, rcol := find(ColValue), find(ColFreq), find(ColStatus), find(ColCost), find(ColRule)
	if s != nil && s.CostColumn != "" {
		if ccol = find(s.CostColumn); ccol < 0 {
			return nil, &datasets.DataError{File: name, Line: 1, Column: s.CostColumn, Msg: "no such column (the cost column)", Err: ErrTableFile}
		}
	}
	optional := []struct {
		col   int
		level bool // a protection level: ≥ 0
		field func(*Cell) *float64
	}{
		{find(ColUpper), true, func(c *Cell) *float64 { return &c.Upper }},
		{find(ColLower), true, func(c *Cell) *float64 { return &c.Lower }},
		{find(ColSliding), true, func(c *Cell) *float64 { return &c.Sliding }},
		{find(ColPriorLower), false, func(c *Cell) *float64 { return &c.PriorLower }},
		{find(ColPriorUpper), false, func(c *Cell) *float64 { return &c.PriorUpper }},
	}
	if vcol < 0 {
		return nil, &datasets.DataError{File: name, Line: 1, Column: ColValue, Msg: "no such column", Err: ErrTableFile}
	}
	var rows [][]string
	var lines []int
	in := datasets.NewRows(cr, name, 0)
	for rec, line := range in.All() {
		rows, lines = append(rows, rec), append(lines, line)
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	tdims := slices.Clone(dims)
	for d := range tdims {
		if tdims[d].H != nil {
			continue
		}
		var codes []string
		seen := map[string]bool{}
		for _, rec := range rows {
			if c := strings.TrimSpace(rec[dcol[d]]); c != DefaultRoot && !seen[c] {
				seen[c] = true
				codes = append(codes, c)
			}
		}
		slices.SortFunc(codes, datasets.CompareLabels)
		h, err := NewFlat(DefaultRoot, codes)
		if err != nil {
			return nil, &datasets.DataError{File: name, Column: tdims[d].Name, Msg: strings.TrimPrefix(err.Error(), "tabular: "), Err: ErrTableFile}
		}
		tdims[d].H = h
	}
	t := NewTable(tdims)
	defined := make([]int, t.Len()) // line of each cell's row, 0 if none
	ci := make([]int, len(dims))
	for n, rec := range rows {
		line := lines[n]
		bad := func(j int, msg string) error {
			return &datasets.DataError{File: name, Line: line, Column: header[j], Msg: msg, Err: ErrTableFile}
		}
		num := func(j int) (float64, error) {
			f := strings.TrimSpace(rec[j])
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return 0, bad(j, fmt.Sprintf("%q is not a number", f))
			}
			return v, nil
		}
		for d, j := range dcol {
			code := strings.TrimSpace(rec[j])
			k, ok := tdims[d].H.Index(code)
			if !ok {
				return nil, bad(j, fmt.Sprintf("code %q is not in the hierarchy", code))
			}
			ci[d] = k
		}
		i := t.Index(ci)
		if defined[i] != 0 {
			return nil, bad(dcol[0], fmt.Sprintf("cell (%s) twice (first on line %d)", t.CellName(i), defined[i]))
		}
		defined[i] = line
		c := &t.Cells[i]
		if c.Value, err = num(vcol); err != nil {
			return nil, err
		}
		c.Cost, c.Status = c.Value, Safe
		if fcol >= 0 {
			f := strings.TrimSpace(rec[fcol])
			if c.Freq, err = strconv.Atoi(f); err != nil || c.Freq < 0 {
				return nil, bad(fcol, fmt.Sprintf("%q is not a count", f))
			}
			if c.Freq == 0 {
				c.Status = Empty
			}
		}
		if scol >= 0 {
			if c.Status, err = ParseStatus(rec[scol]); err != nil {
				return nil, bad(scol, strings.TrimPrefix(err.Error(), "tabular: "))
			}
		}
		if ccol >= 0 {
			if c.Cost, err = num(ccol); err != nil {
				return nil, err
			}
		}
		if rcol >= 0 {
			c.Rule = strings.TrimSpace(rec[rcol])
		}
		for _, o := range optional {
			if o.col < 0 || strings.TrimSpace(rec[o.col]) == "" {
				continue
			}
			v, err := num(o.col)
			if err != nil {
				return nil, err
			}
			if o.level && v < 0 {
				return nil, bad(o.col, fmt.Sprintf("protection level %v is negative", v))
			}
			*o.field(c) = v
		}
	}
	return t, nil
}
