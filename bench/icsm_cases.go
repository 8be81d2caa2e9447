package bench

import "fmt"

// One ICSM case at a time, for runners that spread the cases over
// machines (package pipeline): ICSMCaseCount numbers the cases that the
// options select, ICSMCase computes one of them, and MergeICSM puts the
// one-case reports together into the report that ICSM gives for all of
// them (same rows in the same order, same counts; Seconds is the
// caller's).

// ICSMCaseCount returns the number of cases (report rows) opt selects.
func ICSMCaseCount(opt *ICSMOptions) (int, error) {
	if opt == nil {
		opt = DefaultICSMOptions()
	}
	cases, err := opt.cases()
	if err != nil {
		return 0, err
	}
	return len(cases), nil
}

// ICSMCase computes case i (0-based, in ICSM's order) of opt alone: a
// report with its one row.
func ICSMCase(opt *ICSMOptions, i int) (*ICSMReport, error) {
	if opt == nil {
		opt = DefaultICSMOptions()
	}
	o := *opt
	cases, err := o.cases()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(cases) {
		return nil, fmt.Errorf("bench icsm: case %d outside 0..%d", i, len(cases)-1)
	}
	return runICSMCases(&o, cases[i:i+1])
}

// MergeICSM merges the one-case reports of ICSMCase, given in case order,
// into one report; Seconds is the sum of theirs.
func MergeICSM(reps []*ICSMReport) (*ICSMReport, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("bench icsm: no case to merge")
	}
	m := *reps[0]
	m.Table2, m.Table4, m.Above = []ICSMTable2Row{}, []ICSMTable4Row{}, []string{}
	m.Rows, m.AtOrBelow, m.Seconds = 0, 0, 0
	for _, r := range reps {
		m.Table2 = append(m.Table2, r.Table2...)
		m.Table4 = append(m.Table4, r.Table4...)
		m.Above = append(m.Above, r.Above...)
		m.Rows += r.Rows
		m.AtOrBelow += r.AtOrBelow
		m.Seconds += r.Seconds
	}
	return &m, nil
}
