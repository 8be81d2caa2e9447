package ip_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// benchPricingLimit caps one SolveExactPricing call in the benchmarks; a
// combination that does not finish within it is skipped (and reported).
const benchPricingLimit = 30 * time.Second

// censusPricing returns the pricing instance of size eta on a random
// subset of n census records (seed 1), standardized, with the realistic
// duals λ_v = 1.1 · SSE(G_v)/|G_v| where G_v is v's group in the MDAV
// partition with k = max(3, ⌈(η+1)/2⌉), the smallest k ≥ 3 for which η is
// a pricing size (k ≤ η ≤ 2k−1).
func censusPricing(b *testing.B, n, eta int) *model.PricingInstance {
	raw, err := datasets.LoadCASC("census")
	if errors.Is(err, datasets.ErrNoSharedData) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	sub, _, err := datasets.Subset(raw, datasets.SubsetRandom, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	z, _ := model.Standardize(sub)
	dist := model.NewSqDist(z)
	k := max(3, (eta+2)/2)
	cl, err := microagg.MDAV(z, k)
	if err != nil {
		b.Fatal(err)
	}
	lam := make([]float64, n)
	for _, g := range cl.Groups() {
		share := 1.1 * dist.GroupCost(g) / float64(len(g))
		for _, v := range g {
			lam[v] = share
		}
	}
	return &model.PricingInstance{Dist: dist, Lambda: lam, Eta: eta}
}

// BenchmarkExactPricing times SolveExactPricing on census subsets of
// n = 30, 50, 100 records for η = 3..9, per MIP engine, without and with
// triangle cuts (default rounds and cap). Each call has a time limit of
// benchPricingLimit; a call that does not prove optimality within it is
// reported with b.Skip (with its status and bounds). n = 100 is skipped
// under -short. Metrics: rc (the optimal reduced cost), cuts, nodes. Run
// with
//
//	go test -tags "lpsolve coin" -run '^$' -bench ExactPricing -benchtime 1x ./ip/
func BenchmarkExactPricing(b *testing.B) {
	for _, n := range []int{30, 50, 100} {
		for eta := 3; eta <= 9; eta++ {
			for _, eng := range mipEngines(b) {
				for _, cuts := range []bool{false, true} {
					name := fmt.Sprintf("n=%d/eta=%d/%s/cuts=%v", n, eta, eng, cuts)
					b.Run(name, func(b *testing.B) {
						if n > 50 && testing.Short() {
							b.Skip("n = 100 skipped under -short")
						}
						p := censusPricing(b, n, eta)
						opts := &ip.PricingOptions{Solver: eng, TriangleCuts: cuts, Params: &solvers.Params{TimeLimit: benchPricingLimit}}
						var res *ip.PricingResult
						for b.Loop() {
							var err error
							if res, err = ip.SolveExactPricing(p, opts); err != nil {
								b.Fatal(err)
							}
							if !res.Optimal {
								b.Skipf("not optimal within %v (status %v, incumbent %v, bound %v)", benchPricingLimit, res.Status, res.Column.ReducedCost, res.BestBound)
							}
						}
						b.ReportMetric(res.Column.ReducedCost, "rc")
						b.ReportMetric(float64(res.Cuts), "cuts")
						b.ReportMetric(float64(res.Nodes), "nodes")
					})
				}
			}
		}
	}
}
