package synth_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/primary"
	"github.com/sdcopt/sdcopt/tabular/synth"
)

// The benchmark table of the 2-way targets, with its primary cells.
func Example() {
	s, err := synth.Preset("2way-1300", 7)
	if err != nil {
		panic(err)
	}
	d, err := synth.Generate(s)
	if err != nil {
		panic(err)
	}
	t, err := d.Table()
	if err != nil {
		panic(err)
	}
	rs, err := primary.ParseRuleSet("freq:3")
	if err != nil {
		panic(err)
	}
	sum, err := tabular.ApplyPrimary(t, rs)
	if err != nil {
		panic(err)
	}
	fmt.Println(sum.Cells, "cells,", sum.Primary, "primary,", sum.Empty, "empty")
	fmt.Println(t.CellName(1))
	// Output:
	// 1296 cells, 188 primary, 28 empty
	// region=Total, activity=a1
}
