package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

type microaggDoc struct {
	Data            string   `json:"data"`
	Columns         []string `json:"columns"`
	N               int      `json:"n"`
	D               int      `json:"d"`
	K               int      `json:"k"`
	Method          string   `json:"method"`
	SSE             float64  `json:"sse"`
	SST             float64  `json:"sst"`
	IL              *float64 `json:"il"`
	Groups          int      `json:"groups"`
	MinGroup        int      `json:"min_group"`
	MaxGroup        int      `json:"max_group"`
	LargeGroups     *int     `json:"large_groups"`
	ConstantColumns []string `json:"constant_columns"`
	Seconds         *float64 `json:"seconds"`
}

func runMicroaggJSON(t *testing.T, args ...string) microaggDoc {
	t.Helper()
	out, msg, code := run(t, append([]string{"microagg", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var doc microaggDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if doc.IL == nil || doc.Seconds == nil || doc.LargeGroups == nil {
		t.Fatalf("JSON lacks il, seconds or large_groups:\n%s", out)
	}
	return doc
}

func skipWithoutShared(t *testing.T) {
	t.Helper()
	if _, err := datasets.SharedDir(); errors.Is(err, datasets.ErrNoSharedData) {
		t.Skip(err)
	}
}

func TestMicroaggCensusMDAV(t *testing.T) {
	skipWithoutShared(t)
	doc := runMicroaggJSON(t, "--data", "census", "--k", "3", "--method", "mdav")
	// Census, k = 3, MDAV: IL 5.69 (Mortazavi & Jalili, Table 2; datasets README, Section 2).
	if got := fmt.Sprintf("%.2f", *doc.IL); got != "5.69" {
		t.Errorf("census k=3 MDAV: il %s, want 5.69", got)
	}
	if doc.N != 1080 || doc.D != 13 || doc.K != 3 || doc.Method != "mdav" || doc.Data != "census" || len(doc.Columns) != 13 {
		t.Errorf("instance fields: %+v", doc)
	}
	// SST = n·d with population-sd z-scores (datasets README, Section 2).
	if math.Abs(doc.SST-1080*13) > 1e-6 || math.Abs(100*doc.SSE/doc.SST-*doc.IL) > 1e-9 {
		t.Errorf("sse %g sst %g il %g", doc.SSE, doc.SST, *doc.IL)
	}
	if doc.MinGroup < 3 || doc.MaxGroup > 5 || doc.Groups < 1080/5 || doc.Groups > 1080/3 {
		t.Errorf("groups %d sizes %d..%d", doc.Groups, doc.MinGroup, doc.MaxGroup)
	}
}

func TestBenchMDAV(t *testing.T) {
	skipWithoutShared(t)
	out, msg, code := run(t, "bench", "mdav", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var doc struct {
		Rows []struct {
			Data      string   `json:"data"`
			K         int      `json:"k"`
			IL        float64  `json:"il"`
			Published *float64 `json:"published"`
			Match     *bool    `json:"match"`
		} `json:"rows"`
		Differences int `json:"differences"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	// 3 data sets x k = 3, 4, 5, 10; published values for k = 3, 5, 10
	// (Mortazavi & Jalili, Table 2).
	if len(doc.Rows) != 12 || doc.Differences != 0 {
		t.Errorf("%d rows, %d differences:\n%s", len(doc.Rows), doc.Differences, out)
	}
	for _, r := range doc.Rows {
		if (r.K == 4) != (r.Published == nil) {
			t.Errorf("%s k=%d: published %v", r.Data, r.K, r.Published)
		}
		if r.Match != nil && !*r.Match {
			t.Errorf("%s k=%d: il %.4f, published %.2f", r.Data, r.K, r.IL, *r.Published)
		}
	}
	text, _, code := run(t, "bench", "mdav")
	if code != 0 || !strings.Contains(text, "Table 2") || !strings.Contains(text, "16.93") {
		t.Errorf("text table:\n%s", text)
	}
	if _, msg, code := run(t, "bench", "nope"); code != 2 || !strings.Contains(msg, "mdav") {
		t.Errorf("unknown bench: exit %d %q", code, msg)
	}
}

func TestMicroaggBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeTemp(t, "good.csv", "a,b\n1,2\n2,3\n3,5\n4,4\n")
	nan := writeTemp(t, "nan.csv", "a,b\n1,2\n2,NaN\n3,5\n")
	ragged := writeTemp(t, "ragged.csv", "a,b\n1,2\n2\n")
	text := writeTemp(t, "text.csv", "a,b\nx,y\nz,w\n")
	cases := []struct {
		name     string
		args     []string
		contains []string
	}{
		{"k < 2", []string{"--data", good, "--cols", "a,b", "--k", "1"}, []string{"--k must be at least 2, got 1"}},
		{"k missing", []string{"--data", good, "--cols", "a,b"}, []string{"--k is required"}},
		{"k > n", []string{"--data", good, "--cols", "a,b", "--k", "5"}, []string{"--k 5 exceeds", "n = 4"}},
		{"k > n synthetic", []string{"--data", "synthetic:sim1", "--k", "101"}, []string{"n = 100"}},
		{"unknown method", []string{"--data", good, "--cols", "a,b", "--k", "2", "--method", "kmeans"}, []string{`unknown --method "kmeans"`, "mdav"}},
		{"unknown column", []string{"--data", good, "--k", "2", "--cols", "a,zz"}, []string{`unknown column "zz"`, "available: a, b"}},
		{"NaN", []string{"--data", nan, "--cols", "a,b", "--k", "2"}, []string{nan + `:3: column "b"`, "not a finite number"}},
		{"ragged", []string{"--data", ragged, "--cols", "a,b", "--k", "2"}, []string{ragged + ":3:", "ragged"}},
		{"cols required", []string{"--data", text, "--k", "2"}, []string{"--cols is required with --data " + text}},
		{"text column", []string{"--data", text, "--cols", "a", "--k", "2"}, []string{`non-numeric value "x"`}},
		{"role conflict", []string{"--data", good, "--cols", "a", "--sensitive", "a", "--k", "2"}, []string{`column "a" is in --cols (quasi-identifier) and in --sensitive`}},
		{"role unknown", []string{"--data", good, "--cols", "a", "--insensitive", "c", "--k", "2"}, []string{`--insensitive: unknown column "c" (columns: a, b)`}},
		{"keep not published", []string{"--data", good, "--cols", "a", "--keep-risky", "b", "--k", "2"}, []string{`--keep-risky: column "b" is unclassified`}},
		{"leak", []string{"--data", good, "--cols", "a", "--sensitive", "b", "--k", "2"}, []string{`column "b" (unique)`, "--keep-risky b"}},
		{"missing file", []string{"--data", filepath.Join(dir, "nope.csv"), "--cols", "a", "--k", "2"}, []string{"nope.csv", "no such file"}},
		{"no data", []string{"--k", "2"}, []string{"--data is required"}},
		{"bad synthetic", []string{"--data", "synthetic:sim9", "--k", "2"}, []string{`unknown generator "sim9"`}},
		{"gamma without vmdav", []string{"--data", good, "--cols", "a,b", "--k", "2", "--gamma", "0.5"}, []string{"--gamma applies to --method vmdav"}},
		{"bad format", []string{"--data", good, "--cols", "a,b", "--k", "2", "--format", "yaml"}, []string{"yaml"}},
		{"positional argument", []string{"--data", good, "--cols", "a,b", "--k", "2", "extra"}, []string{"no arguments"}},
		{"same output files", []string{"--data", good, "--cols", "a,b", "--k", "2", "--groups", filepath.Join(dir, "out.csv")}, []string{"same file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"microagg"}, tc.args...)
			args = append(args, "--out", filepath.Join(dir, "out.csv"))
			if !strings.Contains(strings.Join(tc.args, " "), "--groups") {
				args = append(args, "--groups", filepath.Join(dir, "groups.csv"))
			}
			_, msg, code := run(t, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (%s)", code, msg)
			}
			for _, want := range tc.contains {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("files left in the output directory: %v", entries)
			}
		})
	}
}

func readCSV(t *testing.T, path string) [][]string {
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

func TestMicroaggOutputFiles(t *testing.T) {
	// A text column between the numeric ones, published unchanged
	// (insensitive), and a constant column microaggregated (z = 0); with
	// univariate, y and year are published unchanged too (y, unique in
	// every record, only with --keep-risky).
	in := writeTemp(t, "in.csv", "x,name,y,year\n1,a,10,96\n2,b,11,96\n10,a,50,96\n11,b,52,96\n3,a,12,96\n")
	dir := t.TempDir()
	outPath, groupsPath := filepath.Join(dir, "protected.csv"), filepath.Join(dir, "groups.csv")
	for _, method := range []string{"mdav", "vmdav", "univariate", "projection"} {
		args := []string{"--data", in, "--k", "2", "--method", method, "--out", outPath, "--groups", groupsPath, "--insensitive", "name", "--digits", "full"}
		wantCols, wantSST := "x,y,year", 10.0 // the constant column adds nothing: SST = n·(d-1)
		if method == "univariate" {
			args = append(args, "--cols", "x", "--sensitive", "y,year", "--keep-risky", "y")
			wantCols, wantSST = "x", 5
		} else {
			args = append(args, "--cols", "x,y,year")
		}
		doc := runMicroaggJSON(t, args...)
		if doc.N != 5 || strings.Join(doc.Columns, ",") != wantCols {
			t.Errorf("%s: n %d d %d columns %v", method, doc.N, doc.D, doc.Columns)
		}
		if method != "univariate" && (len(doc.ConstantColumns) != 1 || doc.ConstantColumns[0] != "year") {
			t.Errorf("%s: constant columns %v, want [year]", method, doc.ConstantColumns)
		}
		if math.Abs(doc.SST-wantSST) > 1e-9 {
			t.Errorf("%s: sst %g, want %g", method, doc.SST, wantSST)
		}
		prot, groups := readCSV(t, outPath), readCSV(t, groupsPath)
		if strings.Join(prot[0], ",") != "x,name,y,year" || len(prot) != 6 {
			t.Fatalf("%s: protected file %v", method, prot)
		}
		if strings.Join(groups[0], ",") != "record,group" || len(groups) != 6 {
			t.Fatalf("%s: groups file %v", method, groups)
		}
		raw := [][]float64{{1, 10}, {2, 11}, {10, 50}, {11, 52}, {3, 12}}
		names := []string{"a", "b", "a", "b", "a"}
		members := map[string][]int{}
		for i := 1; i <= 5; i++ {
			if groups[i][0] != strconv.Itoa(i) {
				t.Errorf("%s: groups row %d names record %s", method, i, groups[i][0])
			}
			members[groups[i][1]] = append(members[groups[i][1]], i-1)
			if prot[i][1] != names[i-1] || prot[i][3] != "96" {
				t.Errorf("%s: row %d: %v, text and constant columns must be kept", method, i, prot[i])
			}
		}
		if len(members) != doc.Groups {
			t.Errorf("%s: %d groups in the file, %d reported", method, len(members), doc.Groups)
		}
		for g, ms := range members {
			if len(ms) < 2 {
				t.Errorf("%s: group %s has %d records", method, g, len(ms))
			}
			cols := []int{0, 2}
			if method == "univariate" {
				cols = cols[:1]
				if prot[ms[0]+1][2] != fmt.Sprint(raw[ms[0]][1]) {
					t.Errorf("univariate: column y not selected, yet changed: %v", prot[ms[0]+1])
				}
			}
			for c, col := range cols {
				mean := 0.0
				for _, i := range ms {
					mean += raw[i][c] / float64(len(ms))
				}
				for _, i := range ms {
					v, err := strconv.ParseFloat(prot[i+1][col], 64)
					if err != nil || math.Abs(v-mean) > 1e-9 {
						t.Errorf("%s: record %d column %d: %s, want the group mean %g", method, i+1, col, prot[i+1][col], mean)
					}
				}
			}
		}
	}
	// Only the two outputs, no temporary files.
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("output directory holds %v", entries)
	}
	// A failing run leaves the earlier outputs alone.
	before, _ := os.ReadFile(outPath)
	if _, _, code := run(t, "microagg", "--data", in, "--cols", "x", "--k", "9", "--out", outPath); code != 2 {
		t.Errorf("k = 9 on 5 records: exit %d", code)
	}
	if after, _ := os.ReadFile(outPath); string(after) != string(before) {
		t.Error("a failing run changed the existing output file")
	}
}

func TestMicroaggSynthetic(t *testing.T) {
	for _, method := range []string{"mdav", "vmdav", "projection"} {
		doc := runMicroaggJSON(t, "--data", "synthetic:sim2:3", "--k", "3", "--method", method)
		if doc.N != 100 || doc.D < 4 || doc.D > 8 || doc.Data != "synthetic:sim2:3" || doc.MinGroup < 3 {
			t.Errorf("%s: %+v", method, doc)
		}
		if *doc.IL <= 0 || *doc.IL >= 100 {
			t.Errorf("%s: il %g", method, *doc.IL)
		}
	}
	// univariate needs one attribute.
	if _, msg, code := run(t, "microagg", "--data", "synthetic:sim2:3", "--k", "3", "--method", "univariate"); code != 2 || !strings.Contains(msg, "one attribute") {
		t.Errorf("univariate on several attributes: exit %d %q", code, msg)
	}
	u := runMicroaggJSON(t, "--data", "synthetic:sim2:3", "--k", "3", "--method", "univariate", "--cols", "v2")
	if u.D != 1 || u.MaxGroup > 5 {
		t.Errorf("univariate on v2: %+v", u)
	}
	// --gamma reaches V-MDAV; gamma 0 gives fixed groups of k (plus the
	// leftover records).
	g := runMicroaggJSON(t, "--data", "synthetic:sim2:3", "--k", "3", "--method", "vmdav", "--gamma", "0")
	if g.Groups != 33 {
		t.Errorf("vmdav gamma 0 on 100 records: %d groups, want 33", g.Groups)
	}
	// Same spec, same result; the default seed is 1.
	a := runMicroaggJSON(t, "--data", "synthetic:sim1", "--k", "5")
	b := runMicroaggJSON(t, "--data", "synthetic:sim1:1", "--k", "5")
	c := runMicroaggJSON(t, "--data", "synthetic:sim1:2", "--k", "5")
	if *a.IL != *b.IL || a.Data != "synthetic:sim1:1" {
		t.Errorf("default seed: il %g vs %g, data %s", *a.IL, *b.IL, a.Data)
	}
	if *a.IL == *c.IL {
		t.Errorf("seeds 1 and 2 gave the same il %g", *a.IL)
	}
	// --cols on generated data.
	d := runMicroaggJSON(t, "--data", "synthetic:sim1", "--k", "3", "--cols", "v1,v3")
	if d.D != 2 || strings.Join(d.Columns, ",") != "v1,v3" {
		t.Errorf("--cols v1,v3: d %d columns %v", d.D, d.Columns)
	}
	out, msg, code := run(t, "microagg", "--data", "synthetic:sim1", "--k", "3")
	if code != 0 || !strings.Contains(out, "IL") || !strings.Contains(out, "synthetic:sim1:1") {
		t.Errorf("text output: exit %d %s\n%s", code, msg, out)
	}
}

func TestDemoMicroagg(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every method on 10,000 records")
	}
	var buf strings.Builder
	if err := runMicroaggDemo(&buf); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"mdav", "vmdav", "univariate", "projection", "IL"} {
		if !strings.Contains(buf.String(), m) {
			t.Errorf("demo output lacks %q:\n%s", m, buf.String())
		}
	}
}

// icsmDoc is the part of the `sdcopt microagg --method icsm` JSON that the
// ICSM tests read.
type icsmDoc struct {
	microaggDoc
	Init       *string  `json:"init"`
	InitialIL  *float64 `json:"initial_il"`
	Iterations *int     `json:"iterations"`
	Runs       *int     `json:"runs"`
	Restarts   int      `json:"restarts"`
	Seed       *uint64  `json:"seed"`
	Migrations *int     `json:"migrations"`
	Exchanges  *int     `json:"exchanges"`
	Cycles     *int     `json:"cycles"`
	Stopped    string   `json:"stopped"`
}

func runICSMJSON(t *testing.T, args ...string) icsmDoc {
	t.Helper()
	out, msg, code := run(t, append([]string{"microagg", "--format", "json", "--method", "icsm"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var doc icsmDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if doc.IL == nil || doc.Init == nil || doc.InitialIL == nil || doc.Iterations == nil || doc.Runs == nil ||
		doc.Migrations == nil || doc.Exchanges == nil || doc.Cycles == nil {
		t.Fatalf("JSON lacks an icsm field:\n%s", out)
	}
	return doc
}

// ilTolerance absorbs the summation order of SSE in IL comparisons.
const ilTolerance = 1e-9

func TestMicroaggICSM(t *testing.T) {
	for _, data := range []string{"synthetic:sim2:3", "synthetic:gauss-120-3-4:7"} {
		for _, init := range []string{"mdav", "vmdav", "projection"} {
			start := runMicroaggJSON(t, "--data", data, "--k", "3", "--method", init)
			doc := runICSMJSON(t, "--data", data, "--k", "3", "--init", init)
			// ICSM only applies moves that lower the SSE, so it never ends
			// above its initial clustering.
			if *doc.IL > *start.IL+ilTolerance || math.Abs(*doc.InitialIL-*start.IL) > ilTolerance {
				t.Errorf("%s from %s: il %g, initial il %g, %s il %g", data, init, *doc.IL, *doc.InitialIL, init, *start.IL)
			}
			if doc.Method != "icsm" || *doc.Init != init || doc.N != start.N || doc.MinGroup < 3 || *doc.LargeGroups != 0 {
				t.Errorf("%s from %s: %+v", data, init, doc)
			}
			if math.Abs(100*doc.SSE/doc.SST-*doc.IL) > ilTolerance {
				t.Errorf("%s from %s: sse %g sst %g il %g", data, init, doc.SSE, doc.SST, *doc.IL)
			}
			if *doc.Runs != 1 || doc.Seed != nil || doc.Stopped != "converged" {
				t.Errorf("%s from %s: runs %d seed %v stopped %q", data, init, *doc.Runs, doc.Seed, doc.Stopped)
			}
		}
	}
	// Restarts: the seed is reported, the result is no worse than a
	// single run (run 0 is the single run), and equal seeds repeat it.
	one := runICSMJSON(t, "--data", "synthetic:sim2:3", "--k", "3")
	a := runICSMJSON(t, "--data", "synthetic:sim2:3", "--k", "3", "--restarts", "3", "--seed", "5", "--check", "--sources", "-1", "--pool", "10")
	b := runICSMJSON(t, "--data", "synthetic:sim2:3", "--k", "3", "--restarts", "3", "--seed", "5", "--check", "--sources", "-1", "--pool", "10")
	if a.Seed == nil || *a.Seed != 5 || a.Restarts != 3 || *a.Runs < 1 || *a.Runs > 4 {
		t.Errorf("restarts: seed %v restarts %d runs %d", a.Seed, a.Restarts, *a.Runs)
	}
	if *a.IL > *one.IL+ilTolerance || *a.IL != *b.IL {
		t.Errorf("restarts: il %g and %g, single run %g", *a.IL, *b.IL, *one.IL)
	}
	// An iteration cap of 1 allows at most one improving round.
	c := runICSMJSON(t, "--data", "synthetic:sim2:3", "--k", "3", "--max-iter", "1")
	if *c.Iterations > 1 || (c.Stopped != "converged" && c.Stopped != "iteration_limit") {
		t.Errorf("--max-iter 1: %d iterations, stopped %q", *c.Iterations, c.Stopped)
	}
	out, msg, code := run(t, "microagg", "--data", "synthetic:sim2:3", "--k", "3", "--method", "icsm", "--restarts", "1")
	for _, want := range []string{"method    icsm", "init      mdav, IL", "stopped: ", "migrations", "seed      1 (1 restarts)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("text output lacks %q: exit %d %s\n%s", want, code, msg, out)
		}
	}
	// The help lists icsm once, whether or not microagg.Methods has it.
	help, _, _ := run(t, "microagg", "--help")
	if n := strings.Count(help, "|icsm"); n != 1 {
		t.Errorf("help names icsm %d times in --method:\n%s", n, help)
	}
}

func TestMicroaggICSMBadInput(t *testing.T) {
	data := []string{"--data", "synthetic:sim2:3", "--k", "3"}
	cases := []badInputCase{
		{[]string{"--max-iter", "5"}, []string{"--max-iter", "icsm or colgen only", "mdav"}},
		{[]string{"--method", "vmdav", "--restarts", "2"}, []string{"--restarts", "icsm only", "vmdav"}},
		{[]string{"--init", "mdav"}, []string{"--init", "icsm only"}},
		{[]string{"--check"}, []string{"--check", "icsm only"}},
		{[]string{"--seed", "3"}, []string{"--seed", "icsm only"}},
		{[]string{"--method", "icsm", "--init", "bogus"}, []string{`unknown --init "bogus"`, "mdav, vmdav, projection"}},
		{[]string{"--method", "icsm", "--restarts", "-1"}, []string{"--restarts", "-1"}},
		{[]string{"--method", "icsm", "--time-limit", "-1"}, []string{"--time-limit", "-1"}},
		{[]string{"--method", "icsm", "--time-limit", "NaN"}, []string{"--time-limit", "NaN"}},
		{[]string{"--method", "icsm", "--max-iter", "-2"}, []string{"--max-iter", "-2"}},
		{[]string{"--method", "icsm", "--pool", "0"}, []string{"--pool", "0"}},
		{[]string{"--method", "icsm", "--sources", "-2"}, []string{"--sources", "-2"}},
		{[]string{"--method", "icsm", "--sources", "0"}, []string{"--sources", "0"}},
		{[]string{"--method", "icsm", "--seed", "-1"}, []string{"seed"}},
		{[]string{"--method", "icsm", "--k", "101"}, []string{"--k 101 exceeds"}},
	}
	expectBadInput(t, append([]string{"microagg"}, data...), cases)
}
