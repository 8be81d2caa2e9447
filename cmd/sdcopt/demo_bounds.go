package main

import (
	"fmt"
	"io"
	"time"

	"github.com/sdcopt/sdcopt/bench"
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

// runCertifiedDemo computes certified bounds for a seeded 2^10 table
// (counts 0..9) given all 45 of its 2-way margins, re-checks every
// certificate in exact arithmetic, and prints how the 2,048 bounds were
// proven.
func runCertifiedDemo(w io.Writer) error {
	const spec = "2^10:2"
	fmt.Fprintf(w, "\n== sdcopt demo: certified cell bounds, a seeded 2^10 table given all 45 2-way margins (bench bounds case %s)\n", spec)
	c, err := bench.ParseBoundsCase(spec)
	if err != nil {
		return err
	}
	ms, err := c.MarginSet()
	if err != nil {
		return err
	}
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified, TimeLimit: 30 * time.Second})
	if err != nil {
		return err
	}
	st := res.CertifiedStats
	n := len(res.Bounds.Lower)
	fmt.Fprintf(w, "%d cells, %d bounds in %.1f s (%s): %d LP re-solves (%.2f ms engine time each), %d witness tables\n",
		n, 2*n, res.Seconds, res.Solver, st.LPSolves, 1000*st.LPSeconds/float64(max(1, st.LPSolves)), st.Witnesses)
	fmt.Fprintf(w, "proven by a dual vector %d, trivially %d, by an IP %d; attained and proven (sharp) %d; cells with both bounds sharp %d of %d\n",
		st.DualProven, st.TrivialProven, st.IPProven, st.Sharp, res.SharpCells, n)
	if res.Stopped != "" {
		fmt.Fprintf(w, "stopped: %s (the bounds not attained are valid, proven by their dual vectors)\n", res.Stopped)
	}
	start := time.Now()
	v, err := cellbounds.Verify(ms, res.Bounds.Lower, res.Bounds.Upper, res.Certificates)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "re-checked without any engine in %.2f s:", time.Since(start).Seconds())
	for _, s := range []string{cellbounds.StatusProven, cellbounds.StatusEngineWord, cellbounds.StatusAttained,
		cellbounds.StatusDualOnly, cellbounds.StatusNoEvidence, cellbounds.StatusInvalid} {
		fmt.Fprintf(w, " %s %d;", s, v.Counts[s])
	}
	fmt.Fprintln(w)
	if v.Invalid > 0 {
		return fmt.Errorf("certified bounds: %d invalid certificates", v.Invalid)
	}
	return nil
}
