package enumerate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// benchData returns a standardized data set and its distances: src
// "census", "tarragona" or "eia" (a subset of n records by criterion
// crit, seed 2024; skipped when the shared data are missing), or
// "uniformD" (n seeded points uniform in the unit cube of dimension D: no
// cluster structure, the hard case for the bounds).
func benchData(tb testing.TB, src, crit string, n int) (*model.Dataset, *model.SqDist) {
	tb.Helper()
	return benchDataSeed(tb, src, crit, n, 2024)
}

// benchDataSeed is benchData with the seed given.
func benchDataSeed(tb testing.TB, src, crit string, n int, seed uint64) (*model.Dataset, *model.SqDist) {
	tb.Helper()
	var raw *model.Dataset
	if dim, ok := strings.CutPrefix(src, "uniform"); ok {
		var d int
		fmt.Sscan(dim, &d)
		r := rand.New(rand.NewPCG(seed, uint64(d)))
		x := make([]float64, n*d)
		for i := range x {
			x[i] = r.Float64()
		}
		var err error
		if raw, err = model.NewDataset(nil, n, d, x); err != nil {
			tb.Fatal(err)
		}
	} else {
		all, err := datasets.LoadCASC(src)
		if errors.Is(err, datasets.ErrNoSharedData) {
			tb.Skip(err)
		}
		if err != nil {
			tb.Fatal(err)
		}
		if raw, _, err = datasets.Subset(all, crit, n, seed); err != nil {
			tb.Fatal(err)
		}
	}
	z, _ := model.Standardize(raw)
	return z, model.NewSqDist(z)
}

// cgDuals runs a small column generation for the master LP (9) of the
// paper (one equality row per record, one column per group, cost SSE)
// from the MDAV groups, pricing sizes k..2k-1 with this package (the first
// size with negative columns wins, as in Section 5.1), and returns the dual
// vectors of every iteration; the last one is LP-optimal: no group of size
// k..2k-1 has negative reduced cost (up to 1e-7).
// The LP engine is the registry's default ("auto").
func cgDuals(tb testing.TB, d *model.SqDist, z *model.Dataset, k int, maxIter int) [][]float64 {
	tb.Helper()
	cl, err := microagg.MDAV(z, k)
	if err != nil {
		tb.Fatal(err)
	}
	n := d.N
	groups := make([][]int, cl.NumGroups)
	for v, g := range cl.Group {
		groups[g] = append(groups[g], v)
	}
	seen := map[string]bool{}
	key := func(g []int) string { return fmt.Sprint(g) }
	for _, g := range groups {
		seen[key(g)] = true
	}
	pp, err := Prepare(d, 2*k-1)
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]float64
	for it := 0; it < maxIter; it++ {
		p := &solvers.Problem{Sense: solvers.Minimize}
		for v := 0; v < n; v++ {
			p.AddRow(1, 1, "")
		}
		ones := make([]float64, 2*k)
		for i := range ones {
			ones[i] = 1
		}
		for _, g := range groups {
			p.AddCol(d.GroupCost(g), 0, solvers.Inf, solvers.Continuous, g, ones[:len(g)], "")
		}
		res, err := solvers.Solve("", p, nil)
		if err != nil {
			tb.Fatal(err)
		}
		if res.Status != solvers.Optimal || !res.HasDuals {
			tb.Fatalf("master LP: status %v, duals %v", res.Status, res.HasDuals)
		}
		lambda := slices.Clone(res.Duals)
		out = append(out, lambda)
		added := 0
		for eta := k; eta < 2*k && added == 0; eta++ {
			r, err := pp.Solve(lambda, eta, &Options{Threshold: -1e-7, MaxColumns: 25})
			if err != nil {
				tb.Fatal(err)
			}
			for _, c := range r.Columns {
				if !seen[key(c.Members)] {
					seen[key(c.Members)] = true
					groups = append(groups, c.Members)
					added++
				}
			}
		}
		if added == 0 {
			return out
		}
	}
	tb.Fatalf("column generation did not converge in %d iterations", maxIter)
	return nil
}

type dualCase struct {
	d     *model.SqDist
	pp    *Prepared
	duals [][]float64 // per CG iteration; the last one is LP-optimal
}

var (
	dualMu    sync.Mutex
	dualCache = map[string]*dualCase{}
)

// getDuals returns (cached) the column-generation duals of benchData(src,
// crit, n) for groups of k..2k-1 records.
func getDuals(tb testing.TB, src, crit string, n, k int) *dualCase {
	dualMu.Lock()
	defer dualMu.Unlock()
	name := fmt.Sprintf("%s/%s/%d/%d", src, crit, n, k)
	if c, ok := dualCache[name]; ok {
		return c
	}
	z, d := benchData(tb, src, crit, n)
	duals := cgDuals(tb, d, z, k, 5000)
	pp, err := Prepare(d, 2*k-1)
	if err != nil {
		tb.Fatal(err)
	}
	c := &dualCase{d: d, pp: pp, duals: duals}
	dualCache[name] = c
	return c
}

// Benchmarks. Run with
//
//	go test -tags "lpsolve coin" -run '^$' -bench . -benchtime 300ms ./native/enumerate/
//
// Data: census subsets of n random records (seed 2024), standardized.
// Duals: "final" are the LP-optimal duals at the end of the column
// generation of cgDuals for k = 3 (sizes 3..5) or k = 5 (sizes 5..9): the
// hard case, where the search must prove that no group has negative
// reduced cost; "mdav" are the MDAV-share duals of mdavDuals with factor
// 1.15 (many negative groups). Metrics: nodes/op (search-tree nodes) and
// cols/op (columns returned).

func benchSolve(b *testing.B, pp *Prepared, lambda []float64, eta int, o *Options) {
	var nodes, cols int64
	b.ResetTimer()
	for range b.N {
		r, err := pp.Solve(lambda, eta, o)
		if err != nil {
			b.Fatal(err)
		}
		if !r.Complete {
			b.Fatal("incomplete")
		}
		nodes += r.Nodes
		cols += int64(len(r.Columns))
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(cols)/float64(b.N), "cols/op")
}

// BenchmarkFinal prices the LP-optimal duals (nothing to find).
func BenchmarkFinal(b *testing.B) {
	for _, n := range []int{30, 50, 100, 200} {
		for _, k := range []int{3, 5} {
			c := getDuals(b, "census", datasets.SubsetRandom, n, k)
			lambda := c.duals[len(c.duals)-1]
			for eta := k; eta < 2*k; eta++ {
				if k == 5 && eta == 5 {
					continue // covered by k = 3's range
				}
				b.Run(fmt.Sprintf("n=%d/k=%d/eta=%d", n, k, eta), func(b *testing.B) {
					benchSolve(b, c.pp, lambda, eta, &Options{Threshold: -1e-9, MaxColumns: 25, Workers: 1})
				})
			}
		}
	}
}

// BenchmarkMDAV prices MDAV-share duals (factor 1.15) for the best group.
func BenchmarkMDAV(b *testing.B) {
	for _, n := range []int{30, 50, 100, 200} {
		d, lambda := mdavDuals(b, n, 3, 1.15, 2024)
		pp, err := Prepare(d, 9)
		if err != nil {
			b.Fatal(err)
		}
		for eta := 3; eta <= 9; eta++ {
			b.Run(fmt.Sprintf("n=%d/eta=%d", n, eta), func(b *testing.B) {
				benchSolve(b, pp, lambda, eta, &Options{Threshold: -1e-9, Workers: 1})
			})
		}
	}
}

// BenchmarkSweep prices the duals of every column-generation iteration for
// every size k..2k-1 (25 columns each), one and two workers, on census and
// on uniform points in 10 dimensions (no cluster structure): ns/op is the
// whole sweep, ms/solve the mean of one call.
func BenchmarkSweep(b *testing.B) {
	for _, cs := range []struct {
		src  string
		n, k int
	}{{"census", 100, 5}, {"census", 200, 3}, {"census", 200, 5}, {"uniform10", 100, 5}} {
		n, k := cs.n, cs.k
		c := getDuals(b, cs.src, datasets.SubsetRandom, n, k)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/n=%d/k=%d/workers=%d", cs.src, n, k, workers), func(b *testing.B) {
				calls := 0
				for range b.N {
					for _, lambda := range c.duals {
						for eta := k; eta < 2*k; eta++ {
							if _, err := c.pp.Solve(lambda, eta, &Options{Threshold: -1e-9, MaxColumns: 25, Workers: workers}); err != nil {
								b.Fatal(err)
							}
							calls++
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(calls), "ms/solve")
				b.ReportMetric(float64(len(c.duals)), "iterations")
			})
		}
	}
}

// BenchmarkMinSharesAt: one MinShares call at k = 10 on a full CASC set at
// duals read from SDCOPT_SHARES_DUALS (DIR/SET-k10.duals, one a line, as
// colgen's BenchmarkShareAscent writes them; skipped without), on 2
// workers, with where the nodes of the search (pass 2) go: the records
// whose share is 0 and those of negative share.
func BenchmarkMinSharesAt(b *testing.B) {
	dir := os.Getenv("SDCOPT_SHARES_DUALS")
	if dir == "" {
		b.Skip("SDCOPT_SHARES_DUALS not set")
	}
	for _, set := range []string{"tarragona", "census", "eia"} {
		buf, err := os.ReadFile(filepath.Join(dir, set+"-k10.duals"))
		if err != nil {
			continue
		}
		var lambda []float64
		for _, f := range strings.Fields(string(buf)) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				b.Fatal(err)
			}
			lambda = append(lambda, x)
		}
		all, err := datasets.LoadCASC(set)
		if errors.Is(err, datasets.ErrNoSharedData) {
			b.Skip(err)
		}
		if err != nil {
			b.Fatal(err)
		}
		z, _ := model.Standardize(all)
		d := model.NewSqDist(z)
		pp, err := Prepare(d, 19)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(set, func(b *testing.B) {
			var zeroNodes, negNodes, pass1 int64
			var zeros int
			for range b.N {
				a := newAnchored(pp, lambda, 10, 19, &SharesOptions{Workers: 2})
				a.parallel(func(w *anchorWorker, v int) { w.roots(v) }, nil)
				pass1 = a.nodes.Load()
				per := make([]int64, pp.n)
				a.searchOrder()
				a.parallel(func(w *anchorWorker, v int) {
					n0 := w.nodes
					w.search(v)
					per[v] = w.nodes - n0
				}, a.order)
				zeroNodes, negNodes, zeros = 0, 0, 0
				for v := range per {
					if ldf(&a.best[v]) == 0 {
						zeroNodes += per[v]
						zeros++
					} else {
						negNodes += per[v]
					}
				}
			}
			b.ReportMetric(float64(pass1), "pass1-nodes")
			b.ReportMetric(float64(zeroNodes), "zero-nodes")
			b.ReportMetric(float64(negNodes), "neg-nodes")
			b.ReportMetric(float64(zeros), "zero-records")
		})
	}
}
