package bench

import (
	"errors"
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

// TestTableAuditShape: the shapes nearest to the sizes of the sweep.
// Hand computation: (1 + 3 + 3·2)³ = 10³ = 1,000; (1 + 4 + 4·3)³ = 17³ =
// 4,913 (synth preset "3way-5000"; 16 = g(1 + k) also for g = 2, k = 7,
// which the |g − k| tie-break leaves out); (1 + 5 + 5·8)³ = 46³ = 97,336
// (preset "3way-100k").
func TestTableAuditShape(t *testing.T) {
	for _, c := range []struct{ cells, ways, g, k int }{
		{1000, 3, 3, 2}, {5000, 3, 4, 3}, {100000, 3, 5, 8},
	} {
		if g, k := TableAuditShape(c.cells, c.ways); g != c.g || k != c.k {
			t.Errorf("%d cells, %d-way: g %d, k %d; want %d, %d", c.cells, c.ways, g, k, c.g, c.k)
		}
	}
	// 2-way: the number of cells is within a factor 1.2 of the target.
	for _, n := range []int{1000, 5000, 20000, 100000} {
		g, k := TableAuditShape(n, 2)
		if c := float64((1 + g + g*k) * (1 + g + g*k)); math.Abs(math.Log(c/float64(n))) > math.Log(1.2) {
			t.Errorf("%d cells, 2-way: %d cells (g %d, k %d)", n, int(c), g, k)
		}
	}
}

// TestTableAuditSmall runs the sweep on small tables: every way, pattern
// and size gives a row whose counts add up (40 % of the cells suppressed,
// every end solved or skipped), the certificates verified (inside
// TableAudit), one fit per way and pattern, and the same seed the same
// counts.
func TestTableAuditSmall(t *testing.T) {
	opt := &TableAuditOptions{Sizes: []int{300, 1000}, Ways: []int{2, 3}, Patterns: []string{"random", "concentrated"},
		Suppressed: 0.4, Solver: "auto", Workers: 2, Seed: 5}
	rep, err := TableAudit(opt)
	if errors.Is(err, solvers.ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 8 || len(rep.Fits) != 4 {
		t.Fatalf("%d rows, %d fits; want 8 and 4", len(rep.Rows), len(rep.Fits))
	}
	for _, r := range rep.Rows {
		side := 1 + r.Groups + r.Groups*r.Leaves
		want := side * side
		if r.Ways == 3 {
			want *= side
		}
		if r.Cells != want || r.Suppressed != int(math.Round(0.4*float64(r.Cells))) || r.Primary > r.Suppressed ||
			r.Solves+r.Skipped < 2*r.Suppressed || r.Disclosed < r.Determined || r.Largest > r.Suppressed-r.Determined {
			t.Errorf("row %+v", r)
		}
	}
	again, err := TableAudit(opt)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rep.Rows {
		a := again.Rows[i]
		if r.Primary != a.Primary || r.Disclosed != a.Disclosed || r.Solves != a.Solves || r.Skipped != a.Skipped || r.Components != a.Components {
			t.Errorf("row %d: %+v, then %+v", i, r, a)
		}
	}
	checkRenders(t, rep)
	for _, bad := range []*TableAuditOptions{
		{Sizes: []int{1000}, Ways: []int{4}, Suppressed: 0.4, Workers: 1},
		{Sizes: []int{1000}, Ways: []int{2}, Suppressed: 1, Workers: 1},
		{Sizes: []int{1000}, Ways: []int{2}, Patterns: []string{"diagonal"}, Suppressed: 0.4, Workers: 1},
		{Sizes: []int{5}, Ways: []int{2}, Suppressed: 0.4, Workers: 1},
	} {
		if _, err := TableAudit(bad); !errors.Is(err, ErrSettings) {
			t.Errorf("%+v: %v, want ErrSettings", bad, err)
		}
	}
}
