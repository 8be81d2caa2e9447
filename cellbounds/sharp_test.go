package cellbounds_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/internal/tabletest"
	"github.com/sdcopt/sdcopt/lp"
)

// TestSharpOneDefinition: the run's note and statistics, the gap report
// and Verify count the same sharp bounds, by the one definition
// (BoundCertificate.Sharp: proven and attained by a witness of the
// certificates), on tables where the count is known (issue 44, item 12):
//
//   - 2^3 with all 2-way margins: the tables with the margins are a line
//     t + k·d (d the parity move), every LP bound an integer table's
//     value: all 16 bounds are sharp;
//   - the same run stopped before any solve: the bounds are the trivial
//     [0, u_c], and the table itself (the only table known) attains the
//     lower bound of its zero cells and the upper bound of the cells equal
//     to u_c.
func TestSharpOneDefinition(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit time.Duration
	}{{"complete", 0}, {"stopped", time.Nanosecond}} {
		t.Run(tc.name, func(t *testing.T) {
			tab, ms := tabletest.Binary(t, 3, 2, 4, 7)
			n := len(tab.Counts)
			want := 2 * n
			if tc.limit > 0 {
				want = 0
				for c, u := range lp.TrivialUppers(ms) {
					if tab.Counts[c] == 0 {
						want++
					}
					if tab.Counts[c] == u {
						want++
					}
				}
				if want == 0 || want == 2*n {
					t.Fatalf("table %v: %d sharp trivial bounds, want a count between 0 and %d", tab.Counts, want, 2*n)
				}
			}
			res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified, Certify: true, TimeLimit: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			g := cellbounds.CertifiedGaps(res.Certificates, tab.Counts)
			res.RecountCertified()
			v, err := cellbounds.Verify(ms, res.Bounds.Lower, res.Bounds.Upper, res.Certificates)
			if err != nil {
				t.Fatal(err)
			}
			certs, _ := res.Certificates.SharpBounds()
			note := fmt.Sprintf("%d of %d bounds sharp", want, 2*n)
			if certs != want || g.SharpBounds != want || res.CertifiedStats.Sharp != want || v.SharpBounds != want || !strings.Contains(res.Note, note) {
				t.Errorf("sharp bounds: certificates %d, gap report %d, statistics %d, verify %d, note %q; want %d (%q)",
					certs, g.SharpBounds, res.CertifiedStats.Sharp, v.SharpBounds, res.Note, want, note)
			}
			if cells := res.SharpCells; cells != v.SharpCells {
				t.Errorf("sharp cells: run %d, verify %d", cells, v.SharpCells)
			}
			if !v.OK() {
				t.Errorf("verify: %d invalid, refused %v", v.Invalid, v.Refused)
			}
		})
	}
}
