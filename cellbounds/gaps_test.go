package cellbounds_test

import (
	"testing"

	"github.com/sdcopt/sdcopt/cellbounds"
)

// TestCertifiedGaps: gaps by hand on a certificate with two witnesses, the
// truth widening the attained interval, and no table at all.
func TestCertifiedGaps(t *testing.T) {
	cell := func(lo, hi int64) cellbounds.CellCertificate {
		return cellbounds.CellCertificate{Lower: cellbounds.BoundCertificate{Value: lo, Witness: -1}, Upper: cellbounds.BoundCertificate{Value: hi, Witness: -1}}
	}
	certs := &cellbounds.Certificates{
		Cells:     []cellbounds.CellCertificate{cell(0, 4), cell(1, 3), cell(0, 0)},
		Witnesses: [][]int64{{1, 3, 0}, {2, 1, 0}},
	}
	g := cellbounds.CertifiedGaps(certs, nil)
	// Cell 0: attained [1, 2] in [0, 4]: gap 1 + 2 = 3; cell 1: [1, 3]
	// attained: 0; cell 2: 0.
	if want := []int64{3, 0, 0}; !equal(g.Gap, want) || g.TotalGap != 3 || g.MedianGap != 0 || g.MaxGap != 3 || g.SharpBounds != 4 || g.Bounds != 6 {
		t.Errorf("gaps %+v, want gap %v, total 3, median 0, max 3, 4 of 6 sharp", g, want)
	}
	g = cellbounds.CertifiedGaps(certs, []int64{0, 2, 0})
	if want := []int64{2, 0, 0}; !equal(g.Gap, want) || g.AttainedLower[0] != 0 || g.SharpBounds != 5 {
		t.Errorf("with the truth: %+v, want gap %v and 5 sharp", g, want)
	}
	certs.Witnesses = nil
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
