package main

import (
	"errors"
	"os"

	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// auditInput is what `sdcopt table audit` audits: a table file over its
// dimensions, or a JJ file.
type auditInput struct {
	name    string         // the file, for messages
	tab     *tabular.Table // the table (nil for a JJ file: no frequencies, no insider audit)
	dims    []string       // the table's dimensions (none for a JJ file)
	cells   []tabular.Cell
	nonNeg  bool // every value ≥ 0 (the default prior of --prior percent=P)
	compute func(*intervals.Settings) (*intervals.Result, error)
	verify  func(*intervals.Result, *intervals.Settings) error
}

func loadAuditInput(s *tableAuditSettings, dims []dimFlag, sep rune) (*auditInput, error) {
	if s.jj == "" {
		tab, err := loadTableFile(s.table, dims, sep)
		if err != nil {
			return nil, err
		}
		in := &auditInput{name: s.table, tab: tab, cells: tab.Cells, nonNeg: tab.NonNegative(),
			compute: func(st *intervals.Settings) (*intervals.Result, error) {
				r, err := intervals.Compute(tab, st)
				return r, libraryError("", err)
			},
			verify: func(r *intervals.Result, st *intervals.Settings) error { return intervals.Verify(tab, r, st) }}
		for _, d := range tab.Dims {
			in.dims = append(in.dims, d.Name)
		}
		return in, nil
	}
	f, err := os.Open(s.jj)
	if err != nil {
		return nil, cli.BadInput("--jj: %v", err)
	}
	defer f.Close()
	ls, err := tabular.ReadJJ(f, s.jj)
	if err != nil {
		return nil, libraryError("", err)
	}
	in := &auditInput{name: s.jj, dims: []string{}, cells: ls.Cells, nonNeg: true,
		compute: func(st *intervals.Settings) (*intervals.Result, error) {
			r, err := intervals.ComputeLinear(ls, st)
			if errors.Is(err, intervals.ErrLinearSystem) {
				return nil, cli.BadInput("--jj %s: %v", s.jj, err)
			}
			return r, libraryError("", err)
		},
		verify: func(r *intervals.Result, st *intervals.Settings) error { return intervals.VerifyLinear(ls, r, st) }}
	for _, c := range ls.Cells {
		if c.Value < 0 {
			in.nonNeg = false
		}
	}
	return in, nil
}
