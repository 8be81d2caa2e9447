package tabular

import (
	"errors"
	"strings"
	"testing"
)

// regionSector returns the dimensions of the test tables: region (the
// two-level regionHRC, 8 codes) × sector (flat: Total, a, b).
func regionSector(t *testing.T) []Dimension {
	t.Helper()
	h, err := ReadHRC(strings.NewReader(regionHRC), "region.hrc", nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFlat("", []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	return []Dimension{{"region", h}, {"sector", f}}
}

func TestRelations(t *testing.T) {
	tab := NewTable(regionSector(t))
	// 8 region codes × 3 sector codes = 24 cells. Relations (hand count):
	// along region, 3 totals (Total, N, S) × 3 sector codes = 9, with
	// (2+2+3)·3 = 21 parts; along sector, 1 total × 8 region codes = 8,
	// with 2·8 = 16 parts: 17 relations, 37 parts.
	if tab.Len() != 24 {
		t.Fatalf("%d cells, want 24", tab.Len())
	}
	var n, parts int
	perDim := [2]int{}
	seen := map[int]bool{}
	for r := range tab.Relations() {
		n++
		parts += len(r.Parts)
		perDim[r.Dim]++
		// The total and its parts differ only in dimension r.Dim, where
		// the parts are the total's children.
		tc := tab.CodeIndices(r.Total, nil)
		h := tab.Dims[r.Dim].H
		for j, p := range r.Parts {
			pc := tab.CodeIndices(p, nil)
			for d := range pc {
				if d != r.Dim && pc[d] != tc[d] {
					t.Errorf("relation of %s: part %s differs outside dimension %d", tab.CellName(r.Total), tab.CellName(p), r.Dim)
				}
			}
			if pc[r.Dim] != h.Children(tc[r.Dim])[j] {
				t.Errorf("relation of %s: part %d is %s, not a child", tab.CellName(r.Total), j, tab.CellName(p))
			}
		}
		seen[r.Total*2+r.Dim] = true
	}
	if n != 17 || parts != 37 || perDim != [2]int{9, 8} || len(seen) != 17 {
		t.Errorf("%d relations (%v per dimension, %d distinct), %d parts; want 17 ([9 8], 17), 37", n, perDim, len(seen), parts)
	}
	if tab.NumRelations() != 17 {
		t.Errorf("NumRelations %d, want 17", tab.NumRelations())
	}
	// One relation by name: (N, a) = (N1, a) + (N2, a).
	want, _ := tab.Lookup("N", "a")
	found := false
	for r := range tab.Relations() {
		if r.Total == want && r.Dim == 0 {
			found = true
			if got := tab.CellName(r.Parts[0]) + "; " + tab.CellName(r.Parts[1]); got != "region=N1, sector=a; region=N2, sector=a" || len(r.Parts) != 2 {
				t.Errorf("parts of (N, a): %s", got)
			}
		}
	}
	if !found {
		t.Error("no relation for (N, a) along region")
	}
}

// fill sets every leaf cell to a distinct value and every total to the
// sum of its leaves, a consistent table.
func fill(tab *Table) {
	for i := range tab.Cells {
		tab.Cells[i].Value = 0
	}
	ci := []int{}
	for i := range tab.Cells {
		ci = tab.CodeIndices(i, ci)
		leaf := true
		for d, k := range ci {
			leaf = leaf && tab.Dims[d].H.IsLeaf(k)
		}
		if !leaf {
			continue
		}
		v := float64(i%7 + 1)
		// add v to every ancestor combination
		var rec func(d int, idx int)
		rec = func(d int, idx int) {
			if d == len(ci) {
				tab.Cells[idx].Value += v
				return
			}
			h := tab.Dims[d].H
			for a := ci[d]; a >= 0; a = h.Parent(a) {
				rec(d+1, idx+a*tab.stride[d])
			}
		}
		rec(0, 0)
	}
}

func TestCheckConsistent(t *testing.T) {
	tab := NewTable(regionSector(t))
	fill(tab)
	if err := tab.CheckConsistent(1e-12); err != nil {
		t.Fatalf("consistent table refused: %v", err)
	}
	// Tamper with the subtotal (S, b). Three relations break: (Total, b) =
	// (N, b) + (S, b) (cell 2), (S, b) = (S1, b) + (S2, b) + (S3, b) (cell
	// 13), both along region, and (S, Total) = (S, a) + (S, b) along
	// sector. The first in the order of Relations (region first, by total
	// index) is (Total, b), whose parts now sum to 1 more than it.
	i, _ := tab.Lookup("S", "b")
	tab.Cells[i].Value += 1
	err := tab.CheckConsistent(1e-9)
	var ie *InconsistencyError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInconsistent) {
		t.Fatalf("tampered subtotal: error %v, want an *InconsistencyError", err)
	}
	if ie.Total != "region=Total, sector=b" || len(ie.Parts) != 2 || ie.Parts[1] != "region=S, sector=b" || ie.Sum-ie.Value != 1 {
		t.Errorf("reported %+v, want total (Total, b), parts (N, b), (S, b), off by 1", ie)
	}
	if !strings.Contains(err.Error(), "region=Total, sector=b") {
		t.Errorf("message %q does not name the cell", err)
	}
	// Within a relative tolerance of 1 the same table passes: |Δ| = 1 ≤ 1·max(1, |v|).
	if err := tab.CheckConsistent(1); err != nil {
		t.Errorf("tol 1: %v", err)
	}
}

func TestStatus(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Status
	}{
		{"s", Safe}, {"Safe", Safe}, {"u", Primary}, {"PRIMARY", Primary}, {"unsafe", Primary},
		{"x", Secondary}, {"m", Secondary}, {"secondary", Secondary},
		{"z", MustPublish}, {"p", MustPublish}, {"must_publish", MustPublish}, {" e ", Empty}, {"empty", Empty},
	} {
		got, err := ParseStatus(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseStatus(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if back, _ := ParseStatus(got.String()); back != got {
			t.Errorf("%v does not read back", got)
		}
	}
	if _, err := ParseStatus("q"); err == nil {
		t.Error("ParseStatus(\"q\") accepted")
	}
	if Status(9).String() != "status(9)" {
		t.Errorf("out of range: %q", Status(9).String())
	}
}
