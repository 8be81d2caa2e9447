package main

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
)

// The flags that say how data files are written: --sep and --decimal for
// every command that reads a CSV file of data, --count for the long
// tables, --missing and --digits for microaggregation. They become a
// datasets.CSVOptions (and a Table.Digits); the readers are datasets'.

// dialectFlags are --sep and --decimal.
type dialectFlags struct {
	sep     string
	decimal string
}

func addDialectFlags(f interface {
	StringVar(*string, string, string, string)
}, d *dialectFlags) {
	f.StringVar(&d.sep, "sep", ",", "field separator of the data file: , or ; or tab")
	f.StringVar(&d.decimal, "decimal", ".", "decimal mark of the data file's numbers: . or , (a decimal comma needs --sep ';' or tab)")
}

// options checks the flags and returns the reading options they give.
func (d *dialectFlags) options() (*datasets.CSVOptions, error) {
	sep, err := datasets.ParseSep(d.sep)
	if err != nil {
		return nil, cli.BadInput("--sep: %v", err)
	}
	dec, err := datasets.ParseDecimal(d.decimal)
	if err != nil {
		return nil, cli.BadInput("--decimal: %v", err)
	}
	o := &datasets.CSVOptions{Dialect: datasets.Dialect{Sep: sep, Decimal: dec}}
	if err := o.Dialect.Check(); err != nil {
		return nil, cli.BadInput("--decimal , with --sep ,: a decimal comma needs another field separator (--sep ';' or --sep tab)")
	}
	return o, nil
}

// tableFlags are the flags of the commands that read long tables: the
// dialect and --count.
type tableFlags struct {
	dialectFlags
	count string
}

func addTableFlags(f *pflag.FlagSet, t *tableFlags) {
	addDialectFlags(f, &t.dialectFlags)
	f.StringVar(&t.count, "count", "", `name of the count column (default: the column named count, Freq or n, as R's as.data.frame(table(...)) and dplyr::count write it)`)
}

// options returns the reading options of the flags.
func (t *tableFlags) options() (*datasets.CSVOptions, error) {
	o, err := t.dialectFlags.options()
	if err != nil {
		return nil, err
	}
	if t.count != "" && strings.TrimSpace(t.count) == "" {
		return nil, cli.BadInput("--count: empty column name")
	}
	o.Count = t.count
	return o, nil
}

// microdataFlags are the reading flags of `sdcopt microagg`: the dialect,
// --missing and --digits.
type microdataFlags struct {
	dialectFlags
	missing string
	digits  string
}

// Values of --digits besides a number of decimals.
const (
	digitsSource = "source"
	digitsFull   = "full"
)

func addMicrodataFlags(f *pflag.FlagSet, m *microdataFlags) {
	addDialectFlags(f, &m.dialectFlags)
	f.StringVar(&m.missing, "missing", datasets.MissingError.String(),
		"a missing value (empty, NA or ?) in a microaggregated column: error (stop, naming the cell) | drop (leave the record out, unpublished) | impute-mean (use the column's mean; the record is published with its group's values)")
	f.StringVar(&m.digits, "digits", digitsSource,
		"decimals of the microaggregated values in --out: source (each column as many as its file has at most: integers stay integers) | full (full precision) | N (0..17)")
}

// options checks the flags and returns the reading options they give.
func (m *microdataFlags) options() (*datasets.CSVOptions, error) {
	o, err := m.dialectFlags.options()
	if err != nil {
		return nil, err
	}
	if o.Missing, err = datasets.ParseMissing(m.missing); err != nil {
		return nil, cli.BadInput("--missing: %v", err)
	}
	if _, err := m.fixedDigits(); err != nil {
		return nil, err
	}
	return o, nil
}

// fixedDigits returns N for --digits N, -1 for full precision, and -2
// for source.
func (m *microdataFlags) fixedDigits() (int, error) {
	switch m.digits {
	case digitsSource:
		return -2, nil
	case digitsFull:
		return -1, nil
	}
	n, err := strconv.Atoi(m.digits)
	if err != nil || n < 0 || n > 17 {
		return 0, cli.BadInput("--digits %q: want source, full or a number of decimals 0..17", m.digits)
	}
	return n, nil
}

// tableDigits returns the Table.Digits that --digits asks for the table
// (nil: full precision).
func (m *microdataFlags) tableDigits(tab *datasets.Table) []int {
	n, _ := m.fixedDigits() // checked by options
	switch {
	case n == -1:
		return nil
	case n == -2:
		return tab.Decimals // nil for generated data: no source precision
	}
	d := make([]int, len(tab.Cols))
	for i := range d {
		d[i] = n
	}
	return d
}
