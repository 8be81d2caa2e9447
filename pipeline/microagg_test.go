package pipeline

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
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
	res, err := Microagg(context.Background(), z, MicroaggConfig{K: k, Coarse: 600, Seed: 4, IntervalP: 0.5})
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
	checkRisk(t, z, res, false)
}

// checkRisk compares the pipeline's combined measures with package risk's
// on the whole protected data: IL1s and interval disclosure equal, DBRL
// at least the whole data's (equal with one part).
func checkRisk(t *testing.T, z *model.Dataset, res *MicroaggResult, onePart bool) {
	t.Helper()
	prot := model.Protect(z, res.Clustering)
	il1s, err := risk.IL1s(z, prot)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := risk.IntervalDisclosure(z, prot, res.IntervalP)
	if err != nil {
		t.Fatal(err)
	}
	link, _, err := risk.RecordLinkage(z, prot)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(il1s-res.IL1s) > 1e-9*il1s || math.Abs(iv-res.Interval) > 1e-12 {
		t.Fatalf("IL1s %v interval %v (p %v); risk: %v %v", res.IL1s, res.Interval, res.IntervalP, il1s, iv)
	}
	if iv == 0 || link == 0 {
		t.Fatalf("interval %v, linkage %v: the comparison is vacuous", iv, link)
	}
	if res.Linkage < link-1e-12 || (onePart && math.Abs(res.Linkage-link) > 1e-9) {
		t.Fatalf("DBRL within parts %v, whole data %v", res.Linkage, link)
	}
}

// TestMicroaggOnePartIsMDAV: one coarse part is microagg.MDAV on the data.
func TestMicroaggOnePartIsMDAV(t *testing.T) {
	z := gauss(t, 500)
	res, err := Microagg(context.Background(), z, MicroaggConfig{K: 4, Coarse: 1000, IntervalP: 0.5})
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
	checkRisk(t, z, res, true)
}

// TestMicroaggICSM: with ICSM the parts are microagg.ICSM's from MDAV,
// on prism as in the single process.
func TestMicroaggICSM(t *testing.T) {
	z := gauss(t, 400)
	res, err := Microagg(context.Background(), z, MicroaggConfig{K: 3, Coarse: 1000, ICSM: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := microagg.ICSM(z, 3, microagg.ICSMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 1 || !slices.Equal(want.Clustering.Group, res.Clustering.Group) || math.Abs(res.IL-want.IL) > 1e-9 {
		t.Fatalf("%d parts; IL %v, ICSM %v", len(res.Parts), res.IL, want.IL)
	}
	mdav, err := Microagg(context.Background(), z, MicroaggConfig{K: 3, Coarse: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.IL >= mdav.IL {
		t.Fatalf("ICSM IL %v not below MDAV's %v", res.IL, mdav.IL)
	}
	cfg := MicroaggConfig{K: 3, Coarse: 150, ICSM: true, ICSMRounds: 5, Seed: 2}
	pp, err := Microagg(context.Background(), z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Runner.Name = RunnerSingle
	loc, err := Microagg(context.Background(), z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(pp.Parts) < 2 || !slices.Equal(pp.Clustering.Group, loc.Clustering.Group) || math.Abs(pp.IL1s-loc.IL1s) > 1e-9 ||
		pp.Interval != loc.Interval || math.Abs(pp.Linkage-loc.Linkage) > 1e-9 {
		t.Fatalf("pipeline %+v\nsingle process %+v", pp, loc)
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

// TestMicroaggDigitsMeasurePublished: issue 44 (found while fixing item
// 8). With Digits the measures are those of the published values, the
// centroids in original units rounded as the file is written: those of
// microagg.PublishRounded on the whole clustering (as sdcopt microagg
// measures them), in several parts and on both runners; the groups, SSE
// and IL are those of the unrounded run. A Digits slice that does not
// fit is an error.
func TestMicroaggDigitsMeasurePublished(t *testing.T) {
	raw, err := datasets.GaussianClusters(1200, 4, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := model.Standardize(raw)
	digits := []int{0, 1, 0, -1}
	cfg := MicroaggConfig{K: 3, Coarse: 400, Seed: 8, IntervalP: 0.5}
	plain, err := Microagg(context.Background(), z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Raw, cfg.Digits = raw, digits
	res, err := Microagg(context.Background(), z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) < 2 || !slices.Equal(res.Clustering.Group, plain.Clustering.Group) || math.Abs(res.IL-plain.IL) > 1e-12 {
		t.Fatalf("%d parts; IL %v, unrounded run %v; or the groups differ", len(res.Parts), res.IL, plain.IL)
	}
	pub, err := microagg.PublishRounded(raw, res.Clustering, digits, &risk.NumericOptions{IntervalP: cfg.IntervalP})
	if err != nil {
		t.Fatal(err)
	}
	want := pub.Risk
	if want.Interval == 0 || want.IL1s == plain.IL1s {
		t.Fatalf("interval %v, IL1s %v (unrounded %v): the comparison is vacuous", want.Interval, want.IL1s, plain.IL1s)
	}
	cfg.Runner.Name = RunnerSingle
	loc, err := Microagg(context.Background(), z, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*MicroaggResult{"prism": res, "single": loc} {
		if math.Abs(r.IL1s-want.IL1s) > 1e-9*want.IL1s || math.Abs(r.Interval-want.Interval) > 1e-12 ||
			math.Abs(r.IntervalOneOutside-want.IntervalOneOutside) > 1e-12 || r.Linkage < want.Linkage-1e-12 {
			t.Errorf("%s: IL1s %v, interval %v, one outside %v, DBRL within parts %v; published: %v %v %v, DBRL %v",
				name, r.IL1s, r.Interval, r.IntervalOneOutside, r.Linkage, want.IL1s, want.Interval, want.IntervalOneOutside, want.Linkage)
		}
	}
	for _, bad := range []MicroaggConfig{
		{K: 3, Digits: digits},
		{K: 3, Raw: raw, Digits: digits[:3]},
		{K: 3, Raw: raw, Digits: []int{0, 1, 18, 0}},
	} {
		if _, err := Microagg(context.Background(), z, bad); err == nil {
			t.Errorf("Raw %v, Digits %v: no error", bad.Raw != nil, bad.Digits)
		}
	}
}
