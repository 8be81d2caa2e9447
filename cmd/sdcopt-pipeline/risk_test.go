package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/risk"
)

// TestMicroaggRiskOfPublished: issue 44 (found while fixing item 8).
// Every protected output reports the disclosure risk of what it
// publishes. sdcopt-pipeline microagg --out writes the centroids rounded
// to each column's precision (--digits source), but computed IL1s,
// interval disclosure and DBRL on the unrounded centroids: on people.csv
// it reported interval disclosure 0.0533 where sdcopt microagg reports
// 4.00 % for the same published file. With one coarse part the
// pipeline's measures are the whole data's, so they must be package
// risk's on the original and the published file, read back; and the
// interval disclosure with one attribute outside (sdcMicro before 5.6.0)
// is reported too, as sdcopt's interval_disclosure_one_outside.
func TestMicroaggRiskOfPublished(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "people.csv")
	var b strings.Builder
	b.WriteString("id,age,hours,income,diagnosis\n")
	const n = 90
	for i := range n {
		// 30 tight triples: integer age and hours, income with one
		// decimal. A triple's centroid is within 0.05 standard deviations
		// of its members before rounding, and the rounded age (a + 1/3
		// written as a) is not for the member of age a + 1.
		c := i / 3
		age := 18 + (c*37)%61 + i%3/2
		hours := 10 + (c*13)%41
		income := 1200 + float64((c*7919)%9000)/10 + float64(i%3)/10
		fmt.Fprintf(&b, "p%03d,%d,%d,%.1f,%s\n", i, age, hours, income, []string{"flu", "none", "asthma"}[i%3])
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cols := []string{"age", "hours", "income"}
	orig, err := datasets.LoadCSV(data, cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, runner := range []string{"prism", "single"} {
		out := filepath.Join(dir, "protected-"+runner+".csv")
		text, err := run("microagg", "--data", data, "--k", "3", "--identifier", "id", "--cols", strings.Join(cols, ","),
			"--sensitive", "diagnosis", "--coarse", "1000", "--runner", runner, "--out", out, "--format", "json")
		if err != nil {
			t.Fatalf("%s: %v", runner, err)
		}
		var got struct {
			Parts      int      `json:"parts"`
			IL1s       float64  `json:"il1s"`
			Interval   float64  `json:"interval_disclosure"`
			OneOutside *float64 `json:"interval_disclosure_one_outside"`
			Linkage    float64  `json:"record_linkage_upper_bound"`
			Digits     []int    `json:"digits"`
		}
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("%s: %v\n%s", runner, err, text)
		}
		if got.Parts != 1 {
			t.Fatalf("%s: %d coarse parts with --coarse 1000 for %d records, want 1", runner, got.Parts, n)
		}
		pub, err := datasets.LoadCSV(out, cols)
		if err != nil {
			t.Fatal(err)
		}
		want, err := risk.Numeric(orig.Data, pub.Data, nil)
		if err != nil {
			t.Fatal(err)
		}
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*(1+math.Abs(b)) }
		if !close(got.Interval, want.Interval) {
			t.Errorf("%s: interval disclosure %.6f, want %.6f: the risk of the published (rounded, digits %v) file", runner, got.Interval, want.Interval, got.Digits)
		}
		if got.OneOutside == nil {
			t.Errorf("%s: no interval_disclosure_one_outside in the JSON result (want %.6f)", runner, want.IntervalOneOutside)
		} else if !close(*got.OneOutside, want.IntervalOneOutside) {
			t.Errorf("%s: interval disclosure with one attribute outside %.6f, want %.6f", runner, *got.OneOutside, want.IntervalOneOutside)
		}
		if !close(got.IL1s, want.IL1s) {
			t.Errorf("%s: IL1s %.9f, want %.9f of the published file", runner, got.IL1s, want.IL1s)
		}
		if !close(got.Linkage, want.Linkage) {
			t.Errorf("%s: record linkage (one part: exact) %.6f, want %.6f of the published file", runner, got.Linkage, want.Linkage)
		}
	}
}
