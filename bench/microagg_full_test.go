package bench

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/model"
)

// fullTestData is a seeded small stand-in for the CASC sets.
func fullTestData(t *testing.T) func(string) ([]*model.Dataset, error) {
	return func(name string) ([]*model.Dataset, error) {
		r := rand.New(rand.NewPCG(uint64(len(name)), 9))
		n, d := 60, 3
		x := make([]float64, n*d)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		raw, err := model.NewDataset(nil, n, d, x)
		if err != nil {
			t.Fatal(err)
		}
		z, _ := model.Standardize(raw)
		return []*model.Dataset{z}, nil
	}
}

// TestMicroaggFull runs the bench on small stand-ins: every row checked,
// the groups files recompute the reported IL, the published values are
// Mortazavi & Jalili's.
func TestMicroaggFull(t *testing.T) {
	dir := t.TempDir()
	o := &MicroaggFullOptions{Data: []string{"census", "eia"}, Ks: []int{3, 4}, TimeLimit: 2 * time.Second, Seed: 1,
		GroupsDir: dir, load: fullTestData(t), Colgen: colgen.Options{MaxIterations: 3}}
	rep, err := MicroaggFull(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rep.Rows))
	}
	zs, _ := fullTestData(t)("census")
	z := zs[0]
	for _, r := range rep.Rows {
		if r.LowerBoundIL > r.IL+1e-9 || !(r.LowerBoundIL > 0) {
			t.Fatalf("%s k=%d: bound IL %.6g, IL %.6g", r.Data, r.K, r.LowerBoundIL, r.IL)
		}
		b, err := os.ReadFile(r.GroupsFile)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != "record,group" || len(lines) != z.N+1 {
			t.Fatalf("groups file %s: header %q, %d lines", r.GroupsFile, lines[0], len(lines))
		}
		labels := make([]int, z.N)
		for i, l := range lines[1:] {
			var rec, g int
			if _, err := fmt.Sscanf(l, "%d,%d", &rec, &g); err != nil || rec != i+1 {
				t.Fatalf("line %q: %v", l, err)
			}
			labels[i] = g - 1
		}
		cl, err := model.FromLabels(labels)
		if err != nil {
			t.Fatal(err)
		}
		// The stand-in data is the same for every name of equal length.
		if r.Data == "census" {
			if got := model.IL(z, cl); math.Abs(got-r.IL) > 1e-9*math.Max(1, got) {
				t.Fatalf("IL from the groups file %.12g, reported %.12g", got, r.IL)
			}
		}
		// Table 4 has every case; Table 2 (MDAV) has k = 3, 5, 10 only.
		if r.Published == nil || (r.PublishedMDAV == nil) != (r.K == 4) {
			t.Fatalf("%s k=%d: published %v, MDAV %v", r.Data, r.K, r.Published, r.PublishedMDAV)
		}
	}
	// Mortazavi & Jalili Table 4: census k=3 4.75, Table 2: MDAV 5.69.
	if p := rep.Rows[0].Published; *p != 4.75 || *rep.Rows[0].PublishedMDAV != 5.69 {
		t.Fatalf("census k=3 published %v / %v", *p, *rep.Rows[0].PublishedMDAV)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "P.ICSM") {
		t.Fatalf("text: %v\n%s", err, buf.String())
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, ".groups-*")); len(entries) != 0 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestMicroaggFullSettings(t *testing.T) {
	for _, o := range []*MicroaggFullOptions{
		{Data: []string{"adult"}, Ks: []int{3}, TimeLimit: time.Second},
		{Data: []string{"eia"}, Ks: []int{1}, TimeLimit: time.Second},
		{Data: []string{"eia"}, Ks: []int{3}},
		{Data: []string{"eia"}, Ks: []int{3}, TimeLimit: time.Second, GroupsDir: "/nonexistent/dir"},
	} {
		if _, err := MicroaggFull(o); !errors.Is(err, ErrSettings) {
			t.Fatalf("%+v: %v, want ErrSettings", o, err)
		}
	}
}

// TestMicroaggFullCloseStage: a row says what the gap-closing stage did
// (its status, groups and time) when the stage ran.
func TestMicroaggFullCloseStage(t *testing.T) {
	o := &MicroaggFullOptions{Data: []string{"census"}, Ks: []int{3}, TimeLimit: 30 * time.Second, Seed: 1,
		load: fullTestData(t), Colgen: colgen.Options{NoICSM: true, NoBranch: true}}
	rep, err := MicroaggFull(o)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Rows[0]
	if r.CloseStatus == "" || r.CloseColumns == 0 || !(r.CloseSeconds > 0) {
		t.Fatalf("close status %q, %d groups, %.3f s", r.CloseStatus, r.CloseColumns, r.CloseSeconds)
	}
	t.Logf("close: %s", r.CloseStatus)
}
