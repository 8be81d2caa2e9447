package synth

import (
	"fmt"
	"slices"
	"strings"
)

// The presets are the table shapes of the tabular benchmarks (the targets
// of the table audit, secondary suppression and adjustment), each a
// frequency table of records over hierarchical dimensions. Records are
// chosen for the number of cells failing a minimum-frequency rule of 3
// (freq:3) that the targets name, measured with seed 7 (TestPresets logs
// them); Skew makes small cells cluster as in business registers.
// Response, holdings and weights are left to the caller.
var presets = map[string]Spec{
	// 36 × 36 = 1,296 cells: two dimensions, total → 5 groups → 6
	// leaves each; freq:3 makes 188 primary (28 empty).
	"2way-1300": {Dims: []Dim{{Name: "region", Branching: []int{5, 6}}, {Name: "activity", Branching: []int{5, 6}}}, Records: 10000, Skew: 0.8},
	// 17³ = 4,913 cells: three dimensions, total → 4 groups → 3 leaves;
	// freq:3 makes 1,154 primary (703 empty).
	"3way-5000": {Dims: []Dim{{Name: "region", Branching: []int{4, 3}}, {Name: "activity", Branching: []int{4, 3}}, {Name: "size", Branching: []int{4, 3}}}, Records: 4000, Skew: 0.8},
	// 46³ = 97,336 cells: three dimensions, total → 5 groups → 8 leaves;
	// freq:3 makes 24,228 primary (19,867 empty).
	"3way-100k": {Dims: []Dim{{Name: "region", Branching: []int{5, 8}}, {Name: "activity", Branching: []int{5, 8}}, {Name: "size", Branching: []int{5, 8}}}, Records: 250000, Skew: 0.8},
	// 331 × 321 = 106,251 cells: two dimensions of three levels below the
	// total (total → 6 → 6 → 8 and total → 5 → 7 → 8); freq:3 makes
	// 32,423 primary (29,528 empty).
	"2way-100k": {Dims: []Dim{{Name: "region", Branching: []int{6, 6, 8}}, {Name: "activity", Branching: []int{5, 7, 8}}}, Records: 250000, Skew: 0.8},
}

// Preset returns the named preset with the given seed: "2way-1300",
// "3way-5000", "3way-100k" or "2way-100k" (Presets lists them).
func Preset(name string, seed uint64) (Spec, error) {
	s, ok := presets[name]
	if !ok {
		return Spec{}, fmt.Errorf("%w: unknown preset %q (want one of %s)", ErrSpec, name, strings.Join(Presets(), ", "))
	}
	s.Dims = slices.Clone(s.Dims)
	s.Seed = seed
	return s, nil
}

// Presets returns the presets' names, sorted.
func Presets() []string {
	var names []string
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
