package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/risk"
)

// readCSVFile reads a whole CSV file (header first).
func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// numericColumns returns the named columns of a CSV as n x d numbers.
func numericColumns(t *testing.T, recs [][]string, names []string) [][]float64 {
	t.Helper()
	idx := make([]int, len(names))
	for j, name := range names {
		if idx[j] = slices.Index(recs[0], name); idx[j] < 0 {
			t.Fatalf("no column %q in %q", name, recs[0])
		}
	}
	out := make([][]float64, len(recs)-1)
	for i, rec := range recs[1:] {
		out[i] = make([]float64, len(names))
		for j, c := range idx {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[c]), 64)
			if err != nil {
				t.Fatalf("row %d column %q: %v", i+2, names[j], err)
			}
			out[i][j] = v
		}
	}
	return out
}

// TestRiskMicroaggCensus runs `sdcopt microagg --data census --k 3` and
// recomputes every risk measure of its report by brute force from the
// original file and the protected file: DBRL over every pair of records
// (ties within risk.TieTol count 1/(number tied)), sdcMicro's interval
// disclosure and IL1s from their definitions, with means and standard
// deviations computed here.
func TestRiskMicroaggCensus(t *testing.T) {
	dir, err := datasets.SharedDir()
	if err != nil {
		t.Skipf("shared data: %v", err)
	}
	prot := filepath.Join(t.TempDir(), "prot.csv")
	out, msg, code := run(t, "microagg", "--data", "census", "--k", "3", "--format", "json", "--out", prot, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var rep struct {
		Columns []string `json:"columns"`
		IL1s    float64  `json:"il1s"`
		Risk    *struct {
			RecordLinkage      float64 `json:"record_linkage"`
			RecordLinkageTied  int     `json:"record_linkage_tied"`
			IntervalDisclosure float64 `json:"interval_disclosure"`
			OneOutside         float64 `json:"interval_disclosure_one_outside"`
			IntervalP          float64 `json:"interval_p"`
		} `json:"risk"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Risk == nil {
		t.Fatalf("no risk in the report:\n%s", out)
	}
	x := numericColumns(t, readCSVFile(t, filepath.Join(dir, "census.csv")), rep.Columns)
	y := numericColumns(t, readCSVFile(t, prot), rep.Columns)
	n, d := len(x), len(rep.Columns)
	if n != 1080 || len(y) != n {
		t.Fatalf("%d original and %d protected records, want 1080 (CASC Census)", n, len(y))
	}
	mean, popSD, origSD, protSD := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	for j := 0; j < d; j++ {
		my := 0.0
		for i := 0; i < n; i++ {
			mean[j] += x[i][j]
			my += y[i][j]
		}
		mean[j] /= float64(n)
		my /= float64(n)
		sx, sy := 0.0, 0.0
		for i := 0; i < n; i++ {
			sx += (x[i][j] - mean[j]) * (x[i][j] - mean[j])
			sy += (y[i][j] - my) * (y[i][j] - my)
		}
		popSD[j], origSD[j], protSD[j] = math.Sqrt(sx/float64(n)), math.Sqrt(sx/float64(n-1)), math.Sqrt(sy/float64(n-1))
	}
	dist := func(i, q int) float64 {
		s := 0.0
		for j := 0; j < d; j++ {
			if popSD[j] > 0 {
				e := (x[i][j] - y[q][j]) / popSD[j]
				s += e * e
			}
		}
		return s
	}
	link, tied := 0.0, 0
	ds := make([]float64, n)
	for q := 0; q < n; q++ {
		dmin := math.Inf(1)
		for i := range ds {
			ds[i] = dist(i, q)
			dmin = math.Min(dmin, ds[i])
		}
		near := 0
		for _, v := range ds {
			if v <= dmin+risk.TieTol*(1+dmin) {
				near++
			}
		}
		if near > 1 {
			tied++
		}
		if ds[q] <= dmin+risk.TieTol*(1+dmin) {
			link += 1 / float64(near)
		}
	}
	link /= float64(n)
	// Interval disclosure as sdcMicro's dRisk counts it since 5.6.0 (no
	// attribute outside) and up to 5.5.1 (at most one outside; issue 44,
	// item 14).
	inside, oneOut, il1s := 0, 0, 0.0
	for i := 0; i < n; i++ {
		in, outside := true, 0
		for j := 0; j < d; j++ {
			h := rep.Risk.IntervalP * protSD[j]
			if !(x[i][j] >= y[i][j]-h && x[i][j] <= y[i][j]+h) {
				outside++
			}
			in = in && x[i][j] >= y[i][j]-h && x[i][j] <= y[i][j]+h
			if e := math.Abs(x[i][j] - y[i][j]); e > 0 {
				il1s += e / (math.Sqrt2 * origSD[j])
			}
		}
		if in {
			inside++
		}
		if outside <= 1 {
			oneOut++
		}
	}
	il1s /= float64(n * d)
	if rep.Risk.IntervalP != risk.DefaultIntervalP {
		t.Errorf("interval p %v, want sdcMicro's default %v", rep.Risk.IntervalP, risk.DefaultIntervalP)
	}
	if math.Abs(rep.Risk.RecordLinkage-link) > 1e-9 || rep.Risk.RecordLinkageTied != tied {
		t.Errorf("record linkage %v (%d tied), recomputed %v (%d tied)", rep.Risk.RecordLinkage, rep.Risk.RecordLinkageTied, link, tied)
	}
	if want := float64(inside) / float64(n); math.Abs(rep.Risk.IntervalDisclosure-want) > 1e-12 {
		t.Errorf("interval disclosure %v, recomputed %v", rep.Risk.IntervalDisclosure, want)
	}
	if want := float64(oneOut) / float64(n); math.Abs(rep.Risk.OneOutside-want) > 1e-12 {
		t.Errorf("interval disclosure with one attribute outside %v, recomputed %v", rep.Risk.OneOutside, want)
	}
	if math.Abs(rep.IL1s-il1s) > 1e-9*il1s {
		t.Errorf("IL1s %v, recomputed %v", rep.IL1s, il1s)
	}
	text, msg, code := run(t, "microagg", "--data", "census", "--k", "3", "--quiet")
	if code != 0 || !strings.Contains(text, "IL1s") || !strings.Contains(text, "record linkage") || !strings.Contains(text, "interval disclosure") || !strings.Contains(text, "one attribute outside") {
		t.Errorf("text report (exit %d, %s) lacks the risk lines:\n%s", code, msg, text)
	}
}

// riskAdultRows is the size of the Adult subset of TestRiskKanonAdult:
// the brute force below checks every (box, original) pair.
const riskAdultRows = 2500

// TestRiskKanonAdult runs `sdcopt kanon --k 5` on the first records of
// Adult without missing values (the default quasi-identifiers only) and
// recomputes the risk of its report by brute force from the published
// file: for every published row, the originals inside its box (its cells
// parsed here: "[lo-hi]" or a number, "{a|b}" or a value), and for every
// original, the published rows whose box contains it.
func TestRiskKanonAdult(t *testing.T) {
	path, err := datasets.AdultPath()
	if err != nil {
		t.Skipf("adult: %v", err)
	}
	qi, cat := datasets.AdultQI(), datasets.AdultCategorical()
	all := readCSVFile(t, path)
	idx := make([]int, len(qi))
	for a, name := range qi {
		if idx[a] = slices.Index(all[0], name); idx[a] < 0 {
			t.Fatalf("adult has no column %q", name)
		}
	}
	var orig [][]string
	for _, rec := range all[1:] {
		row := make([]string, len(qi))
		ok := true
		for a, c := range idx {
			row[a] = strings.TrimSpace(rec[c])
			ok = ok && row[a] != "" && row[a] != "?"
		}
		if ok {
			orig = append(orig, row)
		}
		if len(orig) == riskAdultRows {
			break
		}
	}
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	w.Write(qi)
	w.WriteAll(orig)
	data := writeTemp(t, "adult-subset.csv", sb.String())
	pub, graph := filepath.Join(t.TempDir(), "pub.csv"), filepath.Join(t.TempDir(), "graph.csv")
	out, msg, code := run(t, "kanon", "--data", data, "--qi", strings.Join(qi, ","), "--categorical", strings.Join(cat, ","),
		"--k", "5", "--format", "json", "--out", pub, "--graph-out", graph, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	type kanonRisk struct {
		MaxReidentification  float64 `json:"max_reidentification"`
		MeanReidentification float64 `json:"mean_reidentification"`
		MinCandidates        int     `json:"min_candidates"`
		LinkageMean          float64 `json:"linkage_mean"`
		LinkageMax           float64 `json:"linkage_max"`
		Exact                bool    `json:"exact"`
	}
	var rep struct {
		N       int        `json:"n"`
		Dropped int        `json:"dropped"`
		Risk    *kanonRisk `json:"risk"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Risk == nil || rep.N != len(orig) || rep.Dropped != 0 {
		t.Fatalf("report of %d records (%d dropped) for %d, risk %v:\n%s", rep.N, rep.Dropped, len(orig), rep.Risk, out)
	}
	published := readCSVFile(t, pub)
	for a, name := range qi {
		if published[0][a] != name {
			t.Fatalf("published header %q, want the quasi-identifiers %q first", published[0], qi)
		}
	}
	// A box: numeric [lo, hi] or a set of categorical values.
	type cell struct {
		lo, hi float64
		set    map[string]bool
	}
	isCat := func(a int) bool { return slices.Contains(cat, qi[a]) }
	boxes := make([][]cell, len(published)-1)
	for j, rec := range published[1:] {
		boxes[j] = make([]cell, len(qi))
		for a := range qi {
			v := rec[a]
			if isCat(a) {
				vals := []string{v}
				if strings.HasPrefix(v, "{") {
					vals = strings.Split(strings.TrimSuffix(strings.TrimPrefix(v, "{"), "}"), "|")
				}
				boxes[j][a].set = map[string]bool{}
				for _, s := range vals {
					boxes[j][a].set[s] = true
				}
				continue
			}
			lo, hi, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"), "-")
			if !ok {
				hi = lo
			}
			var e1, e2 error
			boxes[j][a].lo, e1 = strconv.ParseFloat(lo, 64)
			boxes[j][a].hi, e2 = strconv.ParseFloat(hi, 64)
			if e1 != nil || e2 != nil {
				t.Fatalf("published row %d, %s: %q", j+2, qi[a], v)
			}
		}
	}
	num := make([][]float64, len(orig))
	for i, row := range orig {
		num[i] = make([]float64, len(qi))
		for a, v := range row {
			if !isCat(a) {
				num[i][a], _ = strconv.ParseFloat(v, 64)
			}
		}
	}
	inside := func(b []cell, i int) bool {
		for a := range qi {
			if isCat(a) {
				if !b[a].set[orig[i][a]] {
					return false
				}
			} else if num[i][a] < b[a].lo || num[i][a] > b[a].hi {
				return false
			}
		}
		return true
	}
	links := make([]int, len(orig))
	maxR, sumR, minC := 0.0, 0.0, math.MaxInt
	for _, b := range boxes {
		c := 0
		for i := range orig {
			if inside(b, i) {
				c++
				links[i]++
			}
		}
		maxR, sumR, minC = math.Max(maxR, 1/float64(c)), sumR+1/float64(c), min(minC, c)
	}
	sumL, maxL := 0.0, 0.0
	for _, m := range links {
		sumL, maxL = sumL+1/float64(m), math.Max(maxL, 1/float64(m))
	}
	n := float64(len(orig))
	r := rep.Risk
	if r.MaxReidentification > 0.2 || r.MaxReidentification != maxR || r.MinCandidates != minC || math.Abs(r.MeanReidentification-sumR/n) > 1e-12 ||
		math.Abs(r.LinkageMean-sumL/n) > 1e-12 || r.LinkageMax != maxL || !r.Exact {
		t.Errorf("risk %+v; recomputed max %v (min count %d), mean %v, linkage mean %v, max %v", *r, maxR, minC, sumR/n, sumL/n, maxL)
	}
	// kanon verify measures the same risk from the published file.
	vout, msg, code := run(t, "kanon", "verify", "--data", data, "--qi", strings.Join(qi, ","), "--categorical", strings.Join(cat, ","),
		"--k", "5", "--published", pub, "--graph", graph, "--format", "json")
	var vrep struct {
		Risk *kanonRisk `json:"risk"`
	}
	err = json.Unmarshal([]byte(vout), &vrep)
	// The means are summed in another order (published rows, not graph
	// rows): equal up to rounding.
	if v := vrep.Risk; code != 0 || err != nil || v == nil || v.MaxReidentification != r.MaxReidentification || v.MinCandidates != r.MinCandidates ||
		math.Abs(v.MeanReidentification-r.MeanReidentification) > 1e-12 || math.Abs(v.LinkageMean-r.LinkageMean) > 1e-12 || v.LinkageMax != r.LinkageMax || !v.Exact {
		t.Errorf("kanon verify (exit %d, %s): risk %v, kanon reported %+v\n%s", code, msg, vrep.Risk, *r, vout)
	}
	text, msg, code := run(t, "kanon", "--data", data, "--qi", strings.Join(qi, ","), "--categorical", strings.Join(cat, ","), "--k", "5", "--quiet")
	if code != 0 || !strings.Contains(text, "re-identification max") || !strings.Contains(text, "linkage attack") {
		t.Errorf("text report (exit %d, %s) lacks the risk line:\n%s", code, msg, text)
	}
}
