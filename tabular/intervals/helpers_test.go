package intervals

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
	"github.com/sdcopt/sdcopt/tabular"
)

// tol is the absolute tolerance of comparisons of LP bounds in tests (the
// engines' optimality tolerance is about 1e-7 on values below 100).
const tol = 1e-6

// skipUnavailable skips the test when err says the engine cannot run
// here, unless SDCOPT_REQUIRE_ENGINES is set (as elsewhere in the repo).
func skipUnavailable(t testing.TB, err error) {
	t.Helper()
	if errors.Is(err, solvers.ErrUnavailable) && os.Getenv("SDCOPT_REQUIRE_ENGINES") == "" {
		t.Skip(err)
	}
}

// flat returns the flat hierarchy Total → n leaves named prefix1..n.
func flat(t testing.TB, prefix string, n int) *tabular.Hierarchy {
	leaves := make([]string, n)
	for i := range leaves {
		leaves[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	h, err := tabular.NewFlat("", leaves)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// twoLevel returns Total → g groups → k leaves each (codes "P1", "P1.1").
func twoLevel(t testing.TB, prefix string, g, k int) *tabular.Hierarchy {
	var lines []string
	for i := 1; i <= g; i++ {
		lines = append(lines, fmt.Sprintf("%s%d", prefix, i))
		for j := 1; j <= k; j++ {
			lines = append(lines, fmt.Sprintf("@%s%d.%d", prefix, i, j))
		}
	}
	h, err := tabular.ReadHRC(strings.NewReader(strings.Join(lines, "\n")+"\n"), prefix+".hrc", nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// newTable returns the frequency table over hs with leaf values from leaf
// (called once per leaf cell, in row-major order) and every total the sum
// of its leaves. Every cell is Safe.
func newTable(hs []*tabular.Hierarchy, leaf func() float64) *tabular.Table {
	dims := make([]tabular.Dimension, len(hs))
	for d, h := range hs {
		dims[d] = tabular.Dimension{Name: fmt.Sprintf("v%d", d+1), H: h}
	}
	t := tabular.NewTable(dims)
	var codes []int
	anc := make([][]int, len(hs))
	for i := range t.Cells {
		codes = t.CodeIndices(i, codes[:0])
		isLeaf := true
		for d, c := range codes {
			if !hs[d].IsLeaf(c) {
				isLeaf = false
			}
		}
		if !isLeaf {
			continue
		}
		v := leaf()
		for d, c := range codes {
			anc[d] = anc[d][:0]
			for a := c; a >= 0; a = hs[d].Parent(a) {
				anc[d] = append(anc[d], a)
			}
		}
		// Add v to every combination of ancestors.
		idx := make([]int, len(hs))
		c := make([]int, len(hs))
		for {
			for d := range idx {
				c[d] = anc[d][idx[d]]
			}
			t.Cells[t.Index(c)].Value += v
			d := len(idx) - 1
			for d >= 0 {
				idx[d]++
				if idx[d] < len(anc[d]) {
					break
				}
				idx[d] = 0
				d--
			}
			if d < 0 {
				break
			}
		}
	}
	for i := range t.Cells {
		t.Cells[i].Freq = int(t.Cells[i].Value)
		t.Cells[i].Status = tabular.Safe
	}
	return t
}

// suppress marks k distinct random cells: the first p Primary, the others
// Secondary.
func suppress(t *tabular.Table, rng *rand.Rand, k, p int) {
	for i, c := range rng.Perm(len(t.Cells))[:k] {
		if i < p {
			t.Cells[c].Status = tabular.Primary
		} else {
			t.Cells[c].Status = tabular.Secondary
		}
	}
}

// bruteForce enumerates every assignment of non-negative integers at most
// g to the suppressed cells that satisfies every relation with the
// published cells, and returns each suppressed cell's min and max (in
// cell order) and the number of tables found.
func bruteForce(t *tabular.Table, g int) (lo, up []int, n int) {
	var sup []int
	varOf := make([]int, len(t.Cells))
	for i := range t.Cells {
		varOf[i] = -1
		if t.Cells[i].Status.Suppressed() {
			varOf[i] = len(sup)
			sup = append(sup, i)
		}
	}
	type rel struct {
		vars  []int
		coefs []int
		rhs   int
	}
	var rels []rel
	for r := range t.Relations() {
		var x rel
		addTerm := func(c, coef int) {
			if v := varOf[c]; v >= 0 {
				x.vars = append(x.vars, v)
				x.coefs = append(x.coefs, coef)
			} else {
				x.rhs -= coef * int(t.Cells[c].Value)
			}
		}
		addTerm(r.Total, -1)
		for _, p := range r.Parts {
			addTerm(p, 1)
		}
		rels = append(rels, x)
	}
	lo, up = make([]int, len(sup)), make([]int, len(sup))
	for i := range lo {
		lo[i], up[i] = math.MaxInt, math.MinInt
	}
	x := make([]int, len(sup))
	// ok checks every relation's range given x[:k] assigned, the others in
	// [0, g].
	ok := func(k int) bool {
		for _, r := range rels {
			mn, mx := 0, 0
			for i, v := range r.vars {
				c := r.coefs[i]
				if v < k {
					mn += c * x[v]
					mx += c * x[v]
				} else if c > 0 {
					mx += c * g
				} else {
					mn += c * g
				}
			}
			if r.rhs < mn || r.rhs > mx {
				return false
			}
		}
		return true
	}
	var rec func(k int)
	rec = func(k int) {
		if k == len(sup) {
			n++
			for i, v := range x {
				lo[i], up[i] = min(lo[i], v), max(up[i], v)
			}
			return
		}
		for v := 0; v <= g; v++ {
			x[k] = v
			if ok(k + 1) {
				rec(k + 1)
			}
		}
	}
	rec(0)
	return lo, up, n
}
