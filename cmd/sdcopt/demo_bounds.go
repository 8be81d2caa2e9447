package main

import (
	"fmt"
	"io"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
)

// demoBoundsTable is a hand-made 2x2x2x2 table (seeded random counts, kept
// because its 2-way margins give a fractional LP bound): the cell
// (A=hi, B=lo, C=lo, D=hi) has LP upper bound 16.67 and sharp integer
// upper bound 16.
func demoBoundsTable() *model.Table {
	lv := []string{"lo", "hi"}
	vars := []model.Variable{{Name: "A", Levels: lv}, {Name: "B", Levels: lv}, {Name: "C", Levels: lv}, {Name: "D", Levels: lv}}
	counts := []int64{26, 0, 11, 0, 0, 28, 18, 0, 0, 6, 9, 14, 11, 0, 0, 0}
	t, err := model.NewTable(vars, counts)
	if err != nil {
		panic(err)
	}
	return t
}

// runBoundsDemo prints the cell bounds of the embedded table given its six
// 2-way margins: LP bounds beside the sharp integer bounds (auto and IP).
func runBoundsDemo(w io.Writer) error {
	fmt.Fprintln(w, "\n== sdcopt demo: cell bounds given released 2-way margins (embedded 2x2x2x2 table)")
	t := demoBoundsTable()
	ms, err := t.ReleaseSpec("AB,AC,AD,BC,BD,CD")
	if err != nil {
		return err
	}
	s := &boundsSettings{table: "(embedded)", method: cellbounds.Auto, compare: []string{cellbounds.LP, cellbounds.IP}}
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: s.method, Compare: s.compare})
	if err != nil {
		return err
	}
	inst := &boundsInstance{ms: ms, table: t}
	return newBoundsReport(inst, s, res).writeText(w)
}
