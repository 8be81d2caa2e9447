package risk_test

import (
	"fmt"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// BenchmarkNumeric measures the microaggregation risk (DBRL, interval
// disclosure, IL1s) of MDAV at k = 3 on the CASC sets and on a generated
// set of 10^5 records (the clustering is built once, outside the timer).
func BenchmarkNumeric(b *testing.B) {
	for _, name := range []string{"census", "eia", "synthetic:gauss-100000-10-20:1"} {
		spec, err := datasets.ParseSpec(name)
		if err != nil {
			b.Fatal(err)
		}
		tab, err := spec.Load(nil)
		if err != nil {
			b.Skipf("%s: %v", name, err)
		}
		raw := tab.Data
		z, _ := model.Standardize(raw)
		cl, err := microagg.MDAV(z, 3)
		if err != nil {
			b.Fatal(err)
		}
		prot := model.Protect(raw, cl)
		b.Run(fmt.Sprintf("%s/n=%d", name, raw.N), func(b *testing.B) {
			for b.Loop() {
				if _, err := risk.Numeric(raw, prot, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGeneralization measures the k-anonymity risk of a sortgreedy
// publication of Adult (30,162 records, the 8 default quasi-identifiers),
// k = 5, partitions of 1000 records (anonymized once, outside the timer),
// and of Mondrian at k = 5 and 50.
func BenchmarkGeneralization(b *testing.B) {
	q, err := datasets.LoadAdult(false)
	if err != nil {
		b.Skipf("adult: %v", err)
	}
	t := q.Table
	for _, c := range []struct {
		method  string
		k, part int
	}{{kanon.MethodSortGreedy, 5, 1000}, {kanon.MethodMondrian, 5, 0}, {kanon.MethodMondrian, 50, 0}} {
		res, err := kanon.Anonymize(t, c.k, &kanon.Options{Method: c.method, Partition: c.part, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		boxes := t.Boxes(res.Graph)
		b.Run(fmt.Sprintf("adult/%s/k=%d", c.method, c.k), func(b *testing.B) {
			var r *risk.GeneralizationReport
			for b.Loop() {
				if r, err = risk.Generalization(t, boxes, c.k, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Work), "visits")
			b.ReportMetric(r.MaxReidentification, "max-reid")
			b.ReportMetric(r.LinkageMean, "link-mean")
		})
	}
	// Generated records with Adult's quasi-identifiers, at sizes where
	// the exact count may exceed the work budget.
	for _, n := range []int{100_000, 300_000} {
		syn := datasets.SyntheticQI(n, 1)
		res, err := kanon.Anonymize(syn, 5, &kanon.Options{Method: kanon.MethodGreedy, Partition: 1000, Seed: 1, SkipRisk: true})
		if err != nil {
			b.Fatal(err)
		}
		boxes := syn.Boxes(res.Graph)
		b.Run(fmt.Sprintf("synthetic/n=%d/greedy/k=5", n), func(b *testing.B) {
			var r *risk.GeneralizationReport
			for b.Loop() {
				if r, err = risk.Generalization(syn, boxes, 5, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Work), "visits")
			b.ReportMetric(float64(r.Sample), "sample")
			b.ReportMetric(r.LinkageMean, "link-mean")
		})
	}
}

// BenchmarkNearest compares the nearest-original queries of record
// linkage on gonum's k-d tree and on the package's tree with bounding
// boxes: the MDAV (k = 3) centroids of 10^5 generated records of 10
// attributes, standardized (tree construction included).
func BenchmarkNearest(b *testing.B) {
	spec, err := datasets.ParseSpec("synthetic:gauss-100000-10-20:1")
	if err != nil {
		b.Fatal(err)
	}
	tab, err := spec.Load(nil)
	if err != nil {
		b.Fatal(err)
	}
	z, _ := model.Standardize(tab.Data)
	cl, err := microagg.MDAV(z, 3)
	if err != nil {
		b.Fatal(err)
	}
	cent := model.Centroids(z, cl)
	b.Run("gonum-kdtree", func(b *testing.B) {
		for b.Loop() {
			risk.NearestGonum(z.D, z.X, cent)
		}
	})
	b.Run("boxtree", func(b *testing.B) {
		for b.Loop() {
			risk.NearestTree(z.D, z.X, cent)
		}
	})
}
