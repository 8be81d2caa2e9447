package synth

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
)

// LinkedSpec is microdata and the linked tables tabulated from it: Spec
// generates the records, and each entry of Tables names the dimensions
// (Dim.Name, in order) one table spans. Tables that share a dimension
// share its marginal cells (the cells of that dimension with every other
// dimension at its total), so that tabular.NewSystem links them.
type LinkedSpec struct {
	Spec
	Tables [][]string
}

// The linked presets are frequency tables tabulated from one microdata
// set, for the benchmarks of secondary suppression over a
// tabular.System: region × activity and region × size share the region
// marginal (and with activity × size each pair shares a marginal). Cell
// counts are those of the System (every shared cell once), by hand
// computation from the dimensions' sizes (the code counts of a
// branching {b1, b2, b3} are 1 + b1 + b1·b2 + b1·b2·b3). Records are
// chosen for a share of cells failing freq:3 like the single-table
// presets'; TestLinkedPresets logs the counts with seed 7.
var linkedPresets = map[string]LinkedSpec{
	// region {5, 6}: 36 codes, activity {5, 6}: 36, size {4, 3}: 17;
	// 36·36 + 36·17 − 36 = 1,872 cells; freq:3 makes 287 primary (80
	// empty).
	"linked-2000": {Spec: Spec{Dims: []Dim{
		{Name: "region", Branching: []int{5, 6}}, {Name: "activity", Branching: []int{5, 6}}, {Name: "size", Branching: []int{4, 3}},
	}, Records: 6000, Skew: 0.8}, Tables: [][]string{{"region", "activity"}, {"region", "size"}}},
	// region and activity {5, 5, 5}: 156 codes each, size {5, 5, 4}:
	// 131; three tables, every pair sharing a marginal:
	// 156·156 + 156·131 + 156·131 − 156 − 156 − 131 + 1 = 64,766 cells;
	// freq:3 makes 16,994 primary (10,040 empty).
	"linked-66k": {Spec: Spec{Dims: []Dim{
		{Name: "region", Branching: []int{5, 5, 5}}, {Name: "activity", Branching: []int{5, 5, 5}}, {Name: "size", Branching: []int{5, 5, 4}},
	}, Records: 60000, Skew: 0.8}, Tables: [][]string{{"region", "activity"}, {"region", "size"}, {"activity", "size"}}},
	// region {6, 6, 8}: 331 codes, activity and size {5, 5, 5}: 156
	// each; 331·156 + 331·156 − 331 = 102,941 cells; freq:3 makes
	// 29,825 primary (19,899 empty).
	"linked-100k": {Spec: Spec{Dims: []Dim{
		{Name: "region", Branching: []int{6, 6, 8}}, {Name: "activity", Branching: []int{5, 5, 5}}, {Name: "size", Branching: []int{5, 5, 5}},
	}, Records: 150000, Skew: 0.8}, Tables: [][]string{{"region", "activity"}, {"region", "size"}}},
}

// LinkedPreset returns the named linked preset with the given seed:
// "linked-2000", "linked-66k" or "linked-100k" (LinkedPresets lists
// them).
func LinkedPreset(name string, seed uint64) (LinkedSpec, error) {
	s, ok := linkedPresets[name]
	if !ok {
		return LinkedSpec{}, fmt.Errorf("%w: unknown linked preset %q (want one of %s)", ErrSpec, name, strings.Join(LinkedPresets(), ", "))
	}
	s.Dims = slices.Clone(s.Dims)
	s.Tables = slices.Clone(s.Tables)
	s.Seed = seed
	return s, nil
}

// LinkedPresets returns the linked presets' names, sorted.
func LinkedPresets() []string {
	var names []string
	for n := range linkedPresets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// check validates the tables against the dimensions.
func (s *LinkedSpec) check() error {
	if err := s.Spec.check(); err != nil {
		return err
	}
	if len(s.Tables) == 0 {
		return fmt.Errorf("%w: no table", ErrSpec)
	}
	for k, names := range s.Tables {
		if _, err := s.Spec.dimIndices(names); err != nil {
			return fmt.Errorf("%w: table %d: %v", ErrSpec, k+1, err)
		}
	}
	return nil
}

// dimIndices returns the indices in s.Dims of the named dimensions.
func (s *Spec) dimIndices(names []string) ([]int, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("no dimension")
	}
	idx := make([]int, len(names))
	for k, n := range names {
		i := slices.IndexFunc(s.Dims, func(d Dim) bool { return d.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("no dimension %q", n)
		}
		if slices.Contains(idx[:k], i) {
			return nil, fmt.Errorf("dimension %q named twice", n)
		}
		idx[k] = i
	}
	return idx, nil
}

// GenerateLinked draws the microdata of s (as Generate(s.Spec)) after
// checking its tables.
func GenerateLinked(s LinkedSpec) (*Data, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return Generate(s.Spec)
}

// TableOver tabulates the microdata over the named dimensions only (in
// that order), with BuildSettings, through tabular.ReadMicrodata like
// Table.
func (d *Data) TableOver(names ...string) (*tabular.Table, error) {
	idx, err := d.Spec.dimIndices(names)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSpec, err)
	}
	all := d.DimSpecs()
	specs := make([]tabular.DimSpec, len(idx))
	for k, i := range idx {
		specs[k] = all[i]
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(d.WriteCSV(pw)) }()
	t, err := tabular.ReadMicrodata(pr, "synthetic.csv", specs, d.BuildSettings())
	pr.CloseWithError(io.ErrClosedPipe) // unblock the writer if the reader stopped early
	return t, err
}

// Tables tabulates the microdata once per entry of tables (dimension
// names, as LinkedSpec.Tables), in order. Link them with
// tabular.NewSystem after applying the primary rules to each.
func (d *Data) Tables(tables [][]string) ([]*tabular.Table, error) {
	out := make([]*tabular.Table, len(tables))
	for k, names := range tables {
		t, err := d.TableOver(names...)
		if err != nil {
			return nil, fmt.Errorf("table %d (%s): %w", k+1, strings.Join(names, " × "), err)
		}
		out[k] = t
	}
	return out, nil
}
