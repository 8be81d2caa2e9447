package bench

import (
	"fmt"
	"slices"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
)

// One case at a time of the kanon (table 1, GCP vs k) and MDAV
// benchmarks, as ICSMCase for ICSM: for runners that spread the cases
// over machines (package pipeline). The merged report is the one Kanon or
// MDAV gives for the same selection (same rows in the same order; Seconds
// is the sum of the cases').

// kanonCases are the (k, method) pairs of table 1, in Kanon's order.
func (o *KanonOptions) kanonCases() ([][2]int, []string, error) {
	if err := o.check(); err != nil {
		return nil, nil, err
	}
	if len(o.MIPNs) > 0 || len(o.ScaleNs) > 0 {
		return nil, nil, settingsErr("mip-n", "one case at a time covers the table of GCP vs k only: leave the MIP and scaling tables out (no mip-n, no scale-n)")
	}
	heur := slices.DeleteFunc(slices.Clone(o.Methods), func(m string) bool { return m == kanon.MethodMIP })
	var cases [][2]int
	for x := range o.Ks {
		for m := range heur {
			cases = append(cases, [2]int{x, m})
		}
	}
	return cases, heur, nil
}

// KanonCaseCount returns the number of cases (rows of table 1) of opt,
// which must select no MIP and no scaling table.
func KanonCaseCount(opt *KanonOptions) (int, error) {
	cases, _, err := opt.kanonCases()
	return len(cases), err
}

// KanonCase computes case i (0-based, in Kanon's order: by k, then by
// method) of opt alone: a report with its one row (VsMondrian unset;
// MergeKanon computes it).
func KanonCase(opt *KanonOptions, i int) (*KanonReport, error) {
	cases, heur, err := opt.kanonCases()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(cases) {
		return nil, fmt.Errorf("bench kanon: case %d outside 0..%d", i, len(cases)-1)
	}
	o := *opt
	o.Ks, o.Methods, o.Progress = []int{opt.Ks[cases[i][0]]}, []string{heur[cases[i][1]]}, nil
	rep, err := Kanon(&o)
	if err != nil {
		return nil, err
	}
	rep.Heuristics = heur
	for x := range rep.VsK {
		rep.VsK[x].VsMondrian = nil
	}
	return rep, nil
}

// MergeKanon merges the one-case reports of KanonCase, given in case
// order, into one report, with each row's ratio to Mondrian's GCP at the
// same k (when mondrian is among the methods and its GCP is positive).
func MergeKanon(reps []*KanonReport) (*KanonReport, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("bench kanon: no case to merge")
	}
	m := *reps[0]
	m.VsK, m.MIP, m.Scale, m.Seconds = []KanonKRow{}, nil, nil, 0
	for _, r := range reps {
		m.VsK = append(m.VsK, r.VsK...)
		m.Seconds += r.Seconds
	}
	for x := range m.VsK {
		for _, b := range m.VsK {
			if b.Method == kanon.MethodMondrian && b.K == m.VsK[x].K && b.GCP > 0 {
				r := m.VsK[x].GCP / b.GCP
				m.VsK[x].VsMondrian = &r
			}
		}
	}
	return &m, nil
}

// mdavCases are the (data set, k) pairs of opt, in MDAV's order.
func (o *MDAVOptions) mdavCases() ([][2]int, []string, []int, error) {
	data, ks := datasets.CASCNames(), MDAVKs
	if o != nil && len(o.Data) > 0 {
		data = o.Data
	}
	if o != nil && len(o.Ks) > 0 {
		ks = o.Ks
	}
	for _, d := range data {
		if !slices.Contains(datasets.CASCNames(), d) {
			return nil, nil, nil, settingsErr("data", "unknown data set %q (want some of %v)", d, datasets.CASCNames())
		}
	}
	for _, k := range ks {
		if k < 2 {
			return nil, nil, nil, settingsErr("k", "must be at least 2, got %d", k)
		}
	}
	var cases [][2]int
	for x := range data {
		for y := range ks {
			cases = append(cases, [2]int{x, y})
		}
	}
	return cases, data, ks, nil
}

// MDAVCaseCount returns the number of cases (rows) of opt.
func MDAVCaseCount(opt *MDAVOptions) (int, error) {
	cases, _, _, err := opt.mdavCases()
	return len(cases), err
}

// MDAVCase computes case i (0-based, in MDAV's order: by data set, then
// by k) of opt alone: a report with its one row.
func MDAVCase(opt *MDAVOptions, i int) (*MDAVReport, error) {
	cases, data, ks, err := opt.mdavCases()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(cases) {
		return nil, fmt.Errorf("bench mdav: case %d outside 0..%d", i, len(cases)-1)
	}
	return MDAV(&MDAVOptions{Data: data[cases[i][0] : cases[i][0]+1], Ks: ks[cases[i][1] : cases[i][1]+1]})
}

// MergeMDAV merges the one-case reports of MDAVCase, given in case order.
func MergeMDAV(reps []*MDAVReport) (*MDAVReport, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("bench mdav: no case to merge")
	}
	m := *reps[0]
	m.Rows, m.Differences, m.Seconds = []MDAVRow{}, 0, 0
	for _, r := range reps {
		m.Rows = append(m.Rows, r.Rows...)
		m.Differences += r.Differences
		m.Seconds += r.Seconds
	}
	return &m, nil
}
