package colgen_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
	_ "github.com/sdcopt/sdcopt/solvers/all" // registers the LP and MIP engines
)

// Column generation on 30 seeded records (10 Gaussian clusters in 2
// dimensions) with k = 3: besides a clustering it proves a lower bound on
// the optimal SSE, here equal to the clustering's SSE (Exact), so the
// clustering is optimal.
func ExampleRun() {
	raw, err := datasets.Synthetic("gauss-30-2-10", 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	z, _ := model.Standardize(raw)
	res, err := colgen.Run(z, 3, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("MDAV SSE %.4f, V-MDAV SSE %.4f\n", res.MDAV, res.VMDAV)
	fmt.Printf("best SSE %.4f (IL %.2f%%), lower bound %.4f, gap %.2f%%\n", res.SSE, model.IL(z, res.Clustering), res.LowerBound, res.GapPercent)
	fmt.Println("converged:", res.Converged, "exact:", res.Exact)
	// Output:
	// MDAV SSE 9.2681, V-MDAV SSE 7.9600
	// best SSE 5.6801 (IL 9.47%), lower bound 5.6801, gap 0.00%
	// converged: true exact: true
}
