package intervals

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// TestCertificatesFile: the intervals and certificates written by
// WriteCertificates read back equal (infinite ends included) and verify;
// a document of another format or version, or with unknown fields, is
// refused.
func TestCertificatesFile(t *testing.T) {
	tab := classic(t)
	tab.Cells[cell(t, tab, "a1", "b1")].Status = tabular.Primary
	for _, c := range [][2]string{{"a1", "b2"}, {"a2", "b1"}, {"a2", "b2"}} {
		tab.Cells[cell(t, tab, c[0], c[1])].Status = tabular.Secondary
	}
	r, err := Compute(tab, nil)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	r.Intervals[0].Upper = math.Inf(1) // a weaker claim, written as null
	var buf bytes.Buffer
	info := CertificatesInfo{Table: "t.csv", Prior: "percent=10"}
	if err := WriteCertificates(&buf, info, r); err != nil {
		t.Fatal(err)
	}
	back, got, err := ReadCertificates(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got.Table != info.Table || got.Prior != info.Prior || got.Engine != r.Engine {
		t.Errorf("info %+v, want %+v with engine %s", got, info, r.Engine)
	}
	if len(back.Intervals) != len(r.Intervals) {
		t.Fatalf("%d intervals read, %d written", len(back.Intervals), len(r.Intervals))
	}
	for i, iv := range back.Intervals {
		w := r.Intervals[i]
		if iv.Cell != w.Cell || iv.Lower != w.Lower || iv.Upper != w.Upper ||
			(iv.UpperCert == nil) != (w.UpperCert == nil) || (iv.LowerCert == nil) != (w.LowerCert == nil) {
			t.Errorf("interval %d read %+v, written %+v", i, iv, w)
		}
	}
	if err := Verify(tab, back, nil); err != nil {
		t.Fatalf("read back: %v", err)
	}
	doc := buf.String()
	// A version 1 file (LP intervals, no version 2 field) is still read.
	if v1, _, err := ReadCertificates(strings.NewReader(strings.Replace(doc, `"version": 2`, `"version": 1`, 1))); err != nil {
		t.Errorf("version 1: %v", err)
	} else if err := Verify(tab, v1, nil); err != nil {
		t.Errorf("version 1: %v", err)
	}
	for name, bad := range map[string]string{
		"format":  strings.Replace(doc, CertificatesFormat, "other", 1),
		"version": strings.Replace(doc, `"version": 2`, `"version": 3`, 1),
		"unknown": strings.Replace(doc, `"table"`, `"tables"`, 1),
		"syntax":  doc[:len(doc)/2],
	} {
		if _, _, err := ReadCertificates(strings.NewReader(bad)); !errors.Is(err, ErrCertificatesFile) {
			t.Errorf("%s: %v, want ErrCertificatesFile", name, err)
		}
	}
}
