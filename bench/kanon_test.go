package bench

import (
	"slices"
	"testing"
)

// TestKanonRiskAndSweep runs Mondrian at k = 10 on Adult (table 1, with
// the risk of its publication) and greedy at partitions of 500 (table 4):
// the largest re-identification probability is at most 1/k, the linkage
// success a share, and the four figures draw.
func TestKanonRiskAndSweep(t *testing.T) {
	skipWithoutShared(t)
	if testing.Short() {
		t.Skip("anonymizes Adult")
	}
	rep, err := Kanon(&KanonOptions{Ks: []int{10}, Methods: []string{"greedy", "mondrian"}, Partition: 500,
		SweepPartitions: []int{500}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.VsK) != 2 {
		t.Fatalf("%d rows of table 1", len(rep.VsK))
	}
	for _, x := range rep.VsK {
		if x.MaxReidentification <= 0 || x.MaxReidentification > 1.0/10+1e-12 || x.Linkage <= 0 || x.Linkage > 1 ||
			x.MeanReidentification > x.MaxReidentification+1e-12 {
			t.Errorf("%s: risk max %g, mean %g, linkage %g", x.Method, x.MaxReidentification, x.MeanReidentification, x.Linkage)
		}
	}
	if len(rep.Sweep) != 2 || rep.Sweep[0].Method != "greedy" || rep.Sweep[0].Partition != 500 || rep.Sweep[0].K != KanonSweepK ||
		rep.Sweep[1].Method != "mondrian" {
		t.Errorf("sweep %+v", rep.Sweep)
	}
	// Partitions of 500 in both tables with the same seed: the same run.
	if g := rep.Sweep[0].GCP; g != rep.VsK[0].GCP {
		t.Errorf("greedy at 500: GCP %g in table 4, %g in table 1", g, rep.VsK[0].GCP)
	}
	figs, err := rep.Figures()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
	}
	if want := []string{"kanon-gcp-adult", "kanon-risk-adult", "kanon-gcp-partition-adult", "kanon-gcp-time-adult"}; !slices.Equal(names, want) {
		t.Errorf("figures %q, want %q", names, want)
	}
	checkRenders(t, rep)
}
