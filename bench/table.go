package bench

import (
	"encoding/csv"
	"io"
	"math"
	"slices"
	"strconv"
)

// Table is one table of a report: named columns and rows of cells, ready
// for CSV. Numbers are written in full precision ('g', shortest
// representation); a missing value is an empty cell.
type Table struct {
	Name    string
	Columns []string
	Rows    [][]string
}

// add appends a row; cells are formatted by cell.
func (t *Table) add(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = cell(c)
	}
	t.Rows = append(t.Rows, row)
}

// cell formats one value: floats in full precision, NaN and nil pointers
// as empty cells.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case *float64:
		if x == nil {
			return ""
		}
		return cell(*x)
	case *int:
		if x == nil {
			return ""
		}
		return strconv.Itoa(*x)
	case *bool:
		if x == nil {
			return ""
		}
		return strconv.FormatBool(*x)
	}
	panic("bench: cell of unsupported type") // programmer error
}

// WriteCSV writes the tables of a report as one rectangular CSV: the first
// column names the table, the others are the union of the tables' columns
// in order of first appearance; a table's row leaves the columns it does
// not have empty. A report with one table is that table with a "table"
// column in front.
func WriteCSV(w io.Writer, r Report) error {
	tables := r.Tables()
	header := []string{"table"}
	index := map[string]int{}
	for _, t := range tables {
		for _, c := range t.Columns {
			if _, ok := index[c]; !ok {
				index[c] = len(header)
				header = append(header, c)
			}
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, t := range tables {
		for _, row := range t.Rows {
			rec := make([]string, len(header))
			rec[0] = t.Name
			for i, c := range t.Columns {
				rec[index[c]] = row[i]
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Formats lists the output formats of every report.
var Formats = []string{"text", "json", "csv"}

// columnIndex returns the position of name in t's columns (programmer
// error when absent).
func (t *Table) columnIndex(name string) int {
	i := slices.Index(t.Columns, name)
	if i < 0 {
		panic("bench: no column " + name)
	}
	return i
}
