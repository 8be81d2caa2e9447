package pipeline

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

func gauss(t *testing.T, n int) *model.Dataset {
	raw, err := datasets.GaussianClusters(n, 4, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := model.Standardize(raw)
	return z
}

// TestMicroaggPartsMatchSingleMachine compares every coarse part with
// microagg.MDAV on the same records, and the combined SSE, SST and IL with
// model's on the whole clustering.
func TestMicroaggPartsMatchSingleMachine(t *testing.T) {
	z := gauss(t, 2000)
	const k = 3
	res, err := Microagg(context.Background(), z, MicroaggConfig{K: k, Coarse: 600, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) < 3 {
		t.Fatalf("%d coarse parts, want at least 3", len(res.Parts))
	}
	sseSum := 0.0
	for _, ids := range res.Parts {
		var x []float64
		for _, i := range ids {
			x = append(x, z.X[i*z.D:(i+1)*z.D]...)
		}
		sub, err := model.NewDataset(z.Names, len(ids), z.D, x)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := microagg.MDAV(sub, k)
		if err != nil {
			t.Fatal(err)
		}
		// Same groups: records together in MDAV's part clustering are
		// together in the pipeline's, and the other way round.
		for a := range ids {
			for b := a + 1; b < len(ids); b++ {
				if (cl.Group[a] == cl.Group[b]) != (res.Clustering.Group[ids[a]] == res.Clustering.Group[ids[b]]) {
					t.Fatalf("records %d and %d grouped differently from MDAV on their part", ids[a], ids[b])
				}
			}
		}
		sseSum += model.SSE(sub, cl)
	}
	if _, err := res.Clustering.CheckK(z.N, k); err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.SSE-sseSum) > 1e-9*sseSum || math.Abs(res.SSE-model.SSE(z, res.Clustering)) > 1e-9*res.SSE {
		t.Fatalf("SSE %v, parts %v, whole %v", res.SSE, sseSum, model.SSE(z, res.Clustering))
	}
	if math.Abs(res.SST-model.SST(z)) > 1e-9*model.SST(z) || math.Abs(res.IL-model.IL(z, res.Clustering)) > 1e-9 {
		t.Fatalf("SST %v IL %v, model %v %v", res.SST, res.IL, model.SST(z), model.IL(z, res.Clustering))
	}
}

// TestMicroaggOnePartIsMDAV: one coarse part is microagg.MDAV on the data.
func TestMicroaggOnePartIsMDAV(t *testing.T) {
	z := gauss(t, 500)
	res, err := Microagg(context.Background(), z, MicroaggConfig{K: 4, Coarse: 1000})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := microagg.MDAV(z, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 1 || !slices.Equal(cl.Group, res.Clustering.Group) {
		t.Fatalf("%d parts; groups differ from MDAV", len(res.Parts))
	}
	if math.Abs(res.IL-model.IL(z, cl)) > 1e-9 {
		t.Fatalf("IL %v, MDAV %v", res.IL, model.IL(z, cl))
	}
}

func TestMicroaggLocalIsPipeline(t *testing.T) {
	z := gauss(t, 1200)
	cfg := MicroaggConfig{K: 3, Coarse: 400, Seed: 8}
	res, err := Microagg(context.Background(), z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := MicroaggLocal(z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(loc.Clustering.Group, res.Clustering.Group) || math.Abs(loc.IL-res.IL) > 1e-9 || len(res.Parts) < 2 {
		t.Fatalf("%d parts; IL %v, local %v; or the groups differ", len(res.Parts), res.IL, loc.IL)
	}
}
