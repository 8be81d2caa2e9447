package kanon

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// checkMondrian checks that classes partition the records of tab into
// classes of at least k records, and that no class of at least 2k records
// has an allowable split left (strict Mondrian stops only then).
func checkMondrian(t *testing.T, tab *model.QITable, k int, classes [][]int) {
	t.Helper()
	seen := make([]bool, tab.N)
	for ci, c := range classes {
		if len(c) < k {
			t.Fatalf("class %d has %d records < k = %d", ci, len(c), k)
		}
		for _, i := range c {
			if i < 0 || i >= tab.N || seen[i] {
				t.Fatalf("record %d in two classes or out of range", i)
			}
			seen[i] = true
		}
		if len(c) < 2*k {
			continue
		}
		box := tab.NewBox(c[0])
		for _, i := range c[1:] {
			tab.Add(box, i)
		}
		for a := range tab.Attrs {
			at := &tab.Attrs[a]
			var parts [][]int
			if at.Kind == model.Categorical && at.Hier != nil {
				if box.Node[a] >= int32(at.Hier.NumLeaves) {
					parts = splitHierarchy(tab, c, a, box.Node[a], k)
				}
			} else {
				parts = splitMedian(tab, c, a, k, nil)
			}
			if parts != nil {
				t.Fatalf("class %d (%d records) still splits on %s", ci, len(c), at.Name)
			}
		}
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("record %d in no class", i)
		}
	}
}

func TestMondrianClasses(t *testing.T) {
	for seed := range uint64(10) {
		n := 20 + int(seed)*37
		for _, hier := range []bool{false, true} {
			tab := randTable(seed, n, hier)
			for _, k := range []int{1, 2, 3, 7, n / 2, n} {
				classes, err := Mondrian(tab, k)
				if err != nil {
					t.Fatal(err)
				}
				checkMondrian(t, tab, k, classes)
				r, err := Anonymize(tab, k, &Options{Method: MethodMondrian, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				checkResult(t, tab, k, r)
				if r.Classes != len(classes) {
					t.Fatalf("%d classes in the result, Mondrian gave %d", r.Classes, len(classes))
				}
				// The published box of every record is its class's box:
				// the GCP of the graph (boxes from the neighbours) equals
				// the result's (class boxes).
				if got := tab.GCP(r.Graph); math.Abs(got-r.GCP) > 1e-12 {
					t.Fatalf("GCP %v, of the class graph %v", r.GCP, got)
				}
				if k == n && len(classes) != 1 {
					t.Fatalf("k = n: %d classes", len(classes))
				}
			}
		}
	}
}

// TestMondrianLine: 8 distinct values on one numeric attribute, k = 2:
// median splits give 4 classes of 2 consecutive values, each of width 1
// of the range 7, so GCP = 1/7.
func TestMondrianLine(t *testing.T) {
	tab := &model.QITable{Attrs: []model.QIAttr{{Name: "x", Kind: model.Numeric, Min: 1, Max: 8}}, N: 8, X: []float64{5, 3, 8, 1, 2, 7, 6, 4}}
	r, err := Anonymize(tab, 2, &Options{Method: MethodMondrian})
	if err != nil {
		t.Fatal(err)
	}
	if r.Classes != 4 || math.Abs(r.GCP-1.0/7) > 1e-12 {
		t.Fatalf("%d classes, GCP %v; want 4 and 1/7", r.Classes, r.GCP)
	}
	// Ties: 6 equal values and 2 others, k = 3: the median 0 leaves 6 and
	// 2 (<=) or 0 and 8 (<), neither allowed, so one class.
	tie := &model.QITable{Attrs: tab.Attrs, N: 8, X: []float64{1, 1, 1, 1, 1, 1, 8, 7}}
	r, err = Anonymize(tie, 3, &Options{Method: MethodMondrian})
	if err != nil {
		t.Fatal(err)
	}
	if r.Classes != 1 || math.Abs(r.GCP-1) > 1e-12 {
		t.Fatalf("ties: %d classes, GCP %v; want 1 and 1", r.Classes, r.GCP)
	}
}

func TestMondrianBadInput(t *testing.T) {
	tab := randTable(1, 10, false)
	for _, c := range []struct {
		k    int
		opt  *Options
		want error
	}{
		{0, &Options{Method: MethodMondrian}, ErrK}, {11, &Options{Method: MethodMondrian}, ErrK},
		{2, &Options{Method: MethodMondrian, Partition: 5}, ErrPartition},
	} {
		if _, err := Anonymize(tab, c.k, c.opt); !errors.Is(err, c.want) {
			t.Fatalf("k %d %+v: error %v, want %v", c.k, c.opt, err, c.want)
		}
	}
	if _, err := Mondrian(nil, 2); err == nil {
		t.Fatal("nil table accepted")
	}
}

// TestMondrianPublication: Mondrian's publication (class boxes, the class
// graph) passes VerifyPublication unchanged, and the freeform method on
// the same data is no worse.
func TestMondrianPublication(t *testing.T) {
	q := loadPublicationData(t)
	res, err := Anonymize(q.Table, 2, &Options{Method: MethodMondrian, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var pb, gb bytes.Buffer
	if err := WritePublished(&pb, q, res, allColumns(q)); err != nil {
		t.Fatal(err)
	}
	if err := WriteGraph(&gb, q, res); err != nil {
		t.Fatal(err)
	}
	pub, err := ReadPublished(bytes.NewReader(pb.Bytes()), "pub.csv", q)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := ReadGraph(bytes.NewReader(gb.Bytes()), "graph.csv")
	if err != nil {
		t.Fatal(err)
	}
	v, err := VerifyPublication(q, pub, edges, 2, &res.GCP, "pub.csv", "graph.csv")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v.GCP-res.GCP) > 1e-12 {
		t.Fatalf("verified GCP %v, reported %v", v.GCP, res.GCP)
	}
	// Claiming k = 4 fails: the classes have fewer records.
	if _, err := VerifyPublication(q, pub, edges, 4, nil, "pub.csv", "graph.csv"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("k = 4 accepted: %v", err)
	}
	ff, err := Anonymize(q.Table, 2, &Options{Method: MethodHungarian})
	if err != nil {
		t.Fatal(err)
	}
	if ff.GCP > res.GCP+1e-12 {
		t.Fatalf("hungarian GCP %v above Mondrian's %v", ff.GCP, res.GCP)
	}
}
