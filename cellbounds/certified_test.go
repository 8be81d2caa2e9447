package cellbounds_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/model"
)

// certifyAndVerify runs the certified method with the IP beside it and
// checks that every bound is sharp, equal to the IP bound, and accepted by
// Verify after a JSON round trip.
func certifyAndVerify(t *testing.T, name string, ms *model.MarginSet) *cellbounds.Result {
	t.Helper()
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified, Compare: []string{cellbounds.IP}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !res.Sharp || res.Certificates == nil {
		t.Errorf("%s: sharp %v (%s)", name, res.Sharp, res.Note)
	}
	sameBounds(t, name+": certified vs ip", res.Bounds, res.Compare[cellbounds.IP].Bounds, 0)
	var buf bytes.Buffer
	if err := cellbounds.WriteCertificates(&buf, res.Certificates); err != nil {
		t.Fatal(err)
	}
	certs, err := cellbounds.ReadCertificates(&buf)
	if err != nil {
		t.Fatal(err)
	}
	v, err := cellbounds.Verify(ms, res.Bounds.Lower, res.Bounds.Upper, certs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if v.Invalid > 0 {
		for _, c := range v.Cells {
			if c.Reason != "" {
				t.Errorf("%s: cell %d: %s", name, c.Cell, c.Reason)
				break
			}
		}
	}
	for _, c := range v.Cells {
		for _, st := range []string{c.LowerStatus, c.UpperStatus} {
			if st != cellbounds.StatusProven && st != cellbounds.StatusEngineWord {
				t.Errorf("%s: cell %d: %s / %s", name, c.Cell, c.LowerStatus, c.UpperStatus)
			}
		}
	}
	return res
}

// TestCertifiedRandom: on seeded random small tables the certified bounds
// equal the IP bounds and every certificate verifies.
func TestCertifiedRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	rng := rand.New(rand.NewPCG(20261125, 5))
	kinds := map[string]int{}
	var vertex, face, mip, ips int
	for i := 0; i < n; i++ {
		_, ms := randomCase(rng)
		res := certifyAndVerify(t, fmt.Sprintf("case %d (%s)", i, ms.Name()), ms)
		for _, c := range res.Certificates.Cells {
			kinds[c.Lower.Proof]++
			kinds[c.Upper.Proof]++
		}
		st := res.CertifiedStats
		vertex, face, mip, ips = vertex+st.VertexWitnesses, face+st.RandomWitnesses, mip+st.MIPWitnesses, ips+st.IPSolves
	}
	t.Logf("%d tables: proofs %v; witnesses: %d integral vertices, %d face LPs, %d short MIPs; %d IPs", n, kinds, vertex, face, mip, ips)
}

// TestCertifiedAutoworkers: the paper's margin sets on the autoworkers
// table (Dobra & Fienberg, Tables 2-5).
func TestCertifiedAutoworkers(t *testing.T) {
	for _, c := range []struct {
		vars []string
		spec string
	}{
		{nil, "BF,ABCE,ADE"},
		{[]string{"A", "B", "C", "E"}, "AB,AC,AE,BC,BE,CE"},
		{[]string{"A", "D", "E"}, "AD,AE,DE"},
		{nil, "BF,BC,BE,AB,AC,AE,CE,DE,AD"},
	} {
		if testing.Short() && c.vars == nil {
			continue
		}
		certifyAndVerify(t, c.spec, autoworkers(t, c.vars, c.spec))
	}
}

// TestVerifyRejectsCorruption: a witness count changed, a dual entry
// changed, a value changed: each is invalid, naming the cell.
func TestVerifyRejectsCorruption(t *testing.T) {
	ms := autoworkers(t, []string{"A", "B", "C", "E"}, "AB,AC,AE,BC,BE,CE")
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified})
	if err != nil {
		t.Fatal(err)
	}
	certs := res.Certificates
	dual := -1
	for j, c := range certs.Cells {
		if c.Upper.Proof == cellbounds.ProofDual && c.Upper.Witness >= 0 {
			dual = j
			break
		}
	}
	if dual < 0 {
		t.Fatal("no dual-proven upper bound to corrupt")
	}
	corrupt := []struct {
		name   string
		change func(c *cellbounds.Certificates)
		cell   int
	}{
		{"witness count", func(c *cellbounds.Certificates) {
			w := c.Cells[dual].Upper.Witness
			c.Witnesses[w] = append([]int64(nil), c.Witnesses[w]...)
			c.Witnesses[w][0]++
		}, dual},
		{"dual entry", func(c *cellbounds.Certificates) {
			d := *c.Cells[dual].Upper.Dual
			d.Entries = append([][3]int64(nil), d.Entries...)
			d.Entries[0][2] -= d.Denominator * 1000
			c.Cells[dual].Upper.Dual = &d
		}, dual},
		{"value", func(c *cellbounds.Certificates) { c.Cells[dual].Upper.Value-- }, dual},
	}
	for _, k := range corrupt {
		var buf bytes.Buffer
		cellbounds.WriteCertificates(&buf, certs)
		c, _ := cellbounds.ReadCertificates(&buf)
		k.change(c)
		v, err := cellbounds.Verify(ms, res.Bounds.Lower, res.Bounds.Upper, c)
		if err != nil {
			t.Fatal(err)
		}
		if v.Invalid == 0 || v.Cells[k.cell].UpperStatus != cellbounds.StatusInvalid || !strings.Contains(v.Cells[k.cell].Reason, "upper") {
			t.Errorf("%s: invalid %d, cell %d: %+v", k.name, v.Invalid, k.cell, v.Cells[k.cell])
		}
	}
}

// TestVerifyLooseBoundsAndCounts: a reported bound looser than a proven
// certificate value is valid, not sharp (it was called invalid); a tighter
// one is invalid; a count outside its cell's bounds makes them invalid.
// The table is autoworkers over A, B, C, E given its six two-way margins
// (Dobra & Fienberg, Table 3), where every bound is proven.
func TestVerifyLooseBoundsAndCounts(t *testing.T) {
	ms := autoworkers(t, []string{"A", "B", "C", "E"}, "AB,AC,AE,BC,BE,CE")
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Certified})
	if err != nil {
		t.Fatal(err)
	}
	// A cell with a positive lower bound, so that it can be loosened
	// without reaching the trivial 0.
	cell := -1
	for j, l := range res.Bounds.Lower {
		if l > 0 {
			cell = j
			break
		}
	}
	if cell < 0 {
		t.Fatal("no cell with a positive lower bound")
	}
	lo, up := res.Bounds.Lower[cell], res.Bounds.Upper[cell]
	cases := []struct {
		name           string
		lower, upper   float64
		count          int64 // -1: none reported
		wantLo, wantUp string
		invalid        int
	}{
		{"as computed", lo, up, -1, cellbounds.StatusProven, cellbounds.StatusProven, 0},
		{"lower looser", lo - 1, up, -1, cellbounds.StatusLoose, cellbounds.StatusProven, 0},
		{"upper looser", lo, up + 3, -1, cellbounds.StatusProven, cellbounds.StatusLoose, 0},
		{"both below and above the trivial range", -5, 1e9, -1, cellbounds.StatusLoose, cellbounds.StatusLoose, 0},
		{"lower tighter", lo + 1, up, -1, cellbounds.StatusInvalid, cellbounds.StatusProven, 1},
		{"upper tighter", lo, up - 1, -1, cellbounds.StatusProven, cellbounds.StatusInvalid, 1},
		{"count inside", lo, up, int64(lo), cellbounds.StatusProven, cellbounds.StatusProven, 0},
		{"count below the lower bound", lo, up, int64(lo) - 1, cellbounds.StatusInvalid, cellbounds.StatusProven, 1},
		{"count above the upper bound", lo, up, int64(up) + 1, cellbounds.StatusProven, cellbounds.StatusInvalid, 1},
		{"count above a loosened upper bound", lo, up + 3, int64(up) + 4, cellbounds.StatusProven, cellbounds.StatusInvalid, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lower, upper := slices.Clone(res.Bounds.Lower), slices.Clone(res.Bounds.Upper)
			lower[cell], upper[cell] = c.lower, c.upper
			v, err := cellbounds.Verify(ms, lower, upper, res.Certificates)
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]int64, len(lower))
			for j := range counts {
				counts[j] = -1
			}
			counts[cell] = c.count
			v.CheckCounts(counts, lower, upper)
			cv := v.Cells[cell]
			if cv.LowerStatus != c.wantLo || cv.UpperStatus != c.wantUp || v.Invalid != c.invalid {
				t.Errorf("lower %s, upper %s, %d invalid (%s); want %s, %s, %d", cv.LowerStatus, cv.UpperStatus, v.Invalid, cv.Reason,
					c.wantLo, c.wantUp, c.invalid)
			}
			total := 0
			for _, n := range v.Counts {
				total += n
			}
			if total != 2*len(v.Cells) || v.Counts[cellbounds.StatusInvalid] != c.invalid {
				t.Errorf("status counts %v: %d bounds, want %d", v.Counts, total, 2*len(v.Cells))
			}
		})
	}
}
