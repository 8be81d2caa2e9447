package cellbounds_test

import (
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
)

// TestCertifiedGaps: gaps by hand on a certificate with two witnesses, the
// truth widening the attained interval, and no table at all.
func TestCertifiedGaps(t *testing.T) {
	cell := func(lo, hi int64) cellbounds.CellCertificate {
		// Proven values (a bound is sharp when proven and attained:
		// issue 44, item 12).
		return cellbounds.CellCertificate{Lower: cellbounds.BoundCertificate{Value: lo, Proof: cellbounds.ProofDual, Witness: -1},
			Upper: cellbounds.BoundCertificate{Value: hi, Proof: cellbounds.ProofDual, Witness: -1}}
	}
	// CertifiedGaps adds the tables it knows to the certificates as
	// witnesses: each case has its own.
	newCerts := func(wit [][]int64) *cellbounds.Certificates {
		return &cellbounds.Certificates{Cells: []cellbounds.CellCertificate{cell(0, 4), cell(1, 3), cell(0, 0)}, Witnesses: wit}
	}
	certs := newCerts([][]int64{{1, 3, 0}, {2, 1, 0}})
	g := cellbounds.CertifiedGaps(certs, nil)
	// Cell 0: attained [1, 2] in [0, 4]: gap 1 + 2 = 3; cell 1: [1, 3]
	// attained: 0; cell 2: 0.
	if want := []int64{3, 0, 0}; !equal(g.Gap, want) || g.TotalGap != 3 || g.MedianGap != 0 || g.MaxGap != 3 || g.SharpBounds != 4 || g.Bounds != 6 {
		t.Errorf("gaps %+v, want gap %v, total 3, median 0, max 3, 4 of 6 sharp", g, want)
	}
	certs = newCerts([][]int64{{1, 3, 0}, {2, 1, 0}})
	g = cellbounds.CertifiedGaps(certs, []int64{0, 2, 0})
	if want := []int64{2, 0, 0}; !equal(g.Gap, want) || g.AttainedLower[0] != 0 || g.SharpBounds != 5 {
		t.Errorf("with the truth: %+v, want gap %v and 5 sharp", g, want)
	}
	// The truth widened cell 0's attained values: it is a witness now, and
	// the witness of the bound it attains (issue 44, items 10 and 12).
	if n, _ := certs.SharpBounds(); len(certs.Witnesses) != 3 || certs.Cells[0].Lower.Witness != 2 || n != 5 {
		t.Errorf("with the truth: %d witnesses, cell 0's lower witness %d, %d sharp; want 3, 2, 5", len(certs.Witnesses), certs.Cells[0].Lower.Witness, n)
	}
	certs = newCerts(nil)
	g = cellbounds.CertifiedGaps(certs, nil)
	if want := []int64{4, 2, 0}; g.Attained || !equal(g.Gap, want) || g.MedianGap != 2 || g.SharpBounds != 0 {
		t.Errorf("no table: %+v, want gap %v, median 2, none sharp", g, want)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGapsWiden: on the 2x2x2 table with all 2-way margins (two tables:
// the even- and the odd-parity one, every cell's sharp bounds [0, 1]),
// the even table alone attains one value per cell; local moves from it
// reach the other table and close every gap.
func TestGapsWiden(t *testing.T) {
	vars := make([]model.Variable, 3)
	for i := range vars {
		vars[i] = model.Variable{Name: string(rune('A' + i)), Levels: []string{"0", "1"}}
	}
	even := []int64{1, 0, 0, 1, 0, 1, 1, 0}
	tab, err := model.NewTable(vars, even)
	if err != nil {
		t.Fatal(err)
	}
	newCerts := func() *cellbounds.Certificates {
		certs := &cellbounds.Certificates{}
		for range even {
			certs.Cells = append(certs.Cells, cellbounds.CellCertificate{Lower: cellbounds.BoundCertificate{Value: 0, Proof: cellbounds.ProofTrivial, Witness: -1},
				Upper: cellbounds.BoundCertificate{Value: 1, Proof: cellbounds.ProofTrivial, Witness: -1}})
		}
		return certs
	}
	g := cellbounds.CertifiedGaps(newCerts(), even)
	if g.TotalGap != 8 || g.SharpBounds != 8 {
		t.Fatalf("before the moves: total gap %d, %d sharp; want 8 and 8", g.TotalGap, g.SharpBounds)
	}
	g.Widen(tab, [][]int{{0, 1}, {0, 2}, {1, 2}}, time.Time{})
	if g.TotalGap != 0 || g.SharpBounds != 16 || g.Moved != 8 {
		t.Errorf("after the moves: total gap %d, %d of 16 sharp, %d moved; want 0, 16, 8", g.TotalGap, g.SharpBounds, g.Moved)
	}
	// Every 2-way margin fixed by the 3-way margin: no move, nothing
	// changes.
	g = cellbounds.CertifiedGaps(newCerts(), even)
	g.Widen(tab, [][]int{{0, 1, 2}}, time.Time{})
	if g.TotalGap != 8 || g.Moved != 0 {
		t.Errorf("with the full table released: total gap %d, %d moved; want 8, 0", g.TotalGap, g.Moved)
	}
}
