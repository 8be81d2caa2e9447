package bench

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular/intervals"
	"github.com/sdcopt/sdcopt/tabular/synth"
)

func TestDiag(t *testing.T) {
	size, _ := strconv.Atoi(os.Getenv("SIZE"))
	ways, _ := strconv.Atoi(os.Getenv("WAYS"))
	g, k := TableAuditShape(size, ways)
	dims := make([]synth.Dim, ways)
	for d := range dims {
		dims[d] = synth.Dim{Name: []string{"region", "activity", "size"}[d], Branching: []int{g, k}}
	}
	spec := synth.Spec{Dims: dims, Records: int(2.5 * float64(pow(g*k, ways))), Skew: 0.8, Seed: 1}
	data, _ := synth.Generate(spec)
	tab, _ := data.Table()
	p, s := suppressForAudit(tab, data.Hierarchies[0], os.Getenv("PAT"), 0.4, 1)
	set := &intervals.Settings{Solver: os.Getenv("ENG")}
	if raw := os.Getenv("RAW"); raw != "" {
		set.Params = &solvers.Params{Raw: map[string]string{}}
		k, v, _ := cut(raw)
		set.Params.Raw[k] = v
	}
	r, err := intervals.Compute(tab, set)
	if err != nil {
		t.Fatal(err)
	}
	lo0, loPrior, upRow, upInf := 0, 0, 0, 0
	for _, iv := range r.Intervals {
		if iv.Lower == 0 {
			lo0++
		}
		if iv.LowerCert != nil && len(iv.LowerCert.Rows) == 0 {
			loPrior++
		}
		if iv.UpperCert != nil && len(iv.UpperCert.Rows) == 1 {
			upRow++
		}
		if math.IsInf(iv.Upper, 1) {
			upInf++
		}
	}
	t.Logf("lower 0: %d (y=0 certs %d), upper one-row certs %d, upper inf %d", lo0, loPrior, upRow, upInf)
	t.Logf("cells %d primary %d supp %d det %d comps %d largest %d rows %d solves %d batches %d skipped %d iters %d secs %.2f", len(tab.Cells), p, s, r.Determined, r.Components, r.LargestComponent, r.Rows, r.Solves, r.Batches, r.Skipped, r.Iterations, r.Seconds)
}

func pow(a, b int) int {
	r := 1
	for range b {
		r *= a
	}
	return r
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
