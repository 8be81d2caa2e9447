package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

// readCSVSep reads a CSV file with the separator sep.
func readCSVSep(t *testing.T, path string, sep rune) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.Comma = sep
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A semicolon file with decimal commas and a missing value, as a
// spreadsheet in most of continental Europe saves it: read with --sep and
// --decimal, the missing value imputed or dropped, the protected file
// written in the same dialect, rounded to the source's precision.
func TestMicroaggDialectMissingDigits(t *testing.T) {
	in := writeTemp(t, "eu.csv", "x;name;y\n1,5;a;10\n2,5;b;NA\n10,25;a;50\n11,0;b;52\n3,75;a;12\n")
	// x as read, and y with the missing value imputed by the mean of the
	// observed ones, (10+50+52+12)/4 = 31.
	x := []float64{1.5, 2.5, 10.25, 11, 3.75}
	y := []float64{10, 31, 50, 52, 12}
	dir := t.TempDir()
	out, groups := filepath.Join(dir, "out.csv"), filepath.Join(dir, "groups.csv")
	args := []string{"microagg", "--data", in, "--cols", "x,y", "--insensitive", "name", "--k", "2", "--sep", ";", "--decimal", ",",
		"--missing", "impute-mean", "--out", out, "--groups", groups, "--format", "json"}
	stdout, msg, code := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var doc struct {
		N              int    `json:"n"`
		Missing        string `json:"missing"`
		MissingRecords int    `json:"missing_records"`
		Digits         []int  `json:"digits"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.N != 5 || doc.Missing != "impute-mean" || doc.MissingRecords != 1 || len(doc.Digits) != 2 || doc.Digits[0] != 2 || doc.Digits[1] != 0 {
		t.Errorf("report %+v", doc)
	}
	prot, grp := readCSVSep(t, out, ';'), readCSV(t, groups)
	if strings.Join(prot[0], ";") != "x;name;y" || len(prot) != 6 {
		t.Fatalf("protected file %q", prot)
	}
	members := map[string][]int{}
	for i := 1; i <= 5; i++ {
		members[grp[i][1]] = append(members[grp[i][1]], i-1)
	}
	meanX, meanY := make([]float64, 5), make([]float64, 5) // each record's group means
	for _, ms := range members {
		mx, my := 0.0, 0.0
		for _, i := range ms {
			mx += x[i] / float64(len(ms))
			my += y[i] / float64(len(ms))
		}
		for _, i := range ms {
			meanX[i], meanY[i] = mx, my
		}
	}
	comma := func(s string) string { return strings.Replace(s, ".", ",", 1) }
	check := func(digits string, prot [][]string, wantX, wantY func(i int) string) {
		t.Helper()
		for i := range 5 {
			if prot[i+1][0] != wantX(i) || prot[i+1][2] != wantY(i) {
				t.Errorf("--digits %s: record %d: %q, want x %s y %s", digits, i+1, prot[i+1], wantX(i), wantY(i))
			}
		}
	}
	// Rounded as the source: x 2 decimals, y none; decimal commas.
	check("source", prot, func(i int) string { return comma(datasets.FormatRounded(meanX[i], 2)) },
		func(i int) string { return datasets.FormatRounded(meanY[i], 0) })
	for _, c := range []struct {
		digits       string
		wantX, wantY func(i int) string
	}{
		{"full", func(i int) string { return comma(datasets.FormatValue(meanX[i])) }, func(i int) string { return comma(datasets.FormatValue(meanY[i])) }},
		{"1", func(i int) string { return comma(datasets.FormatRounded(meanX[i], 1)) }, func(i int) string { return comma(datasets.FormatRounded(meanY[i], 1)) }},
	} {
		if _, msg, code := run(t, append(args[:len(args)-2], "--digits", c.digits)...); code != 0 {
			t.Fatalf("--digits %s: exit %d: %s", c.digits, code, msg)
		}
		check(c.digits, readCSVSep(t, out, ';'), c.wantX, c.wantY)
	}
	if math.Abs(meanY[1]-math.Round(meanY[1])) < 1e-9 {
		t.Errorf("record 2's group mean of y %v is an integer: the rounding is not tested", meanY[1])
	}
	// --missing drop: the record is neither microaggregated nor published.
	stdout, msg, code = run(t, "microagg", "--data", in, "--cols", "x,y", "--insensitive", "name", "--k", "2", "--sep", ";", "--decimal", ",",
		"--missing", "drop", "--keep-risky", "name", "--out", out)
	if code != 0 {
		t.Fatalf("drop: exit %d: %s", code, msg)
	}
	if !strings.Contains(stdout, "missing   1 records with missing values: dropped") || !strings.Contains(stdout, "rounded   --out to decimals x 2, y 0") {
		t.Errorf("drop report:\n%s", stdout)
	}
	if prot := readCSVSep(t, out, ';'); len(prot) != 5 || prot[2][1] != "a" {
		t.Errorf("drop: protected file %q", prot)
	}
	stdout, msg, code = run(t, "microagg", "--data", in, "--cols", "x,y", "--k", "2", "--sep", ";", "--decimal", ",",
		"--missing", "drop", "--digits", "1", "--out", out)
	if code != 0 || !strings.Contains(stdout, "rounded   --out to 1 decimals in every column (SSE and IL of the unrounded values)") {
		t.Errorf("--digits 1: exit %d: %s\n%s", code, msg, stdout)
	}
	// stderr says what became of the records, unless --quiet.
	p := runSdcopt(t, filepath.Dir(in), "microagg", "--data", "eu.csv", "--cols", "x,y", "--k", "2", "--sep", ";", "--decimal", ",", "--missing", "drop")
	if p.code != 0 || !strings.Contains(p.stderr, "1 of 5 records have a missing value in a microaggregated column (1 cells): dropped") {
		t.Errorf("stderr: exit %d %q", p.code, p.stderr)
	}
}

func TestDataFormatFlagErrors(t *testing.T) {
	good := writeTemp(t, "good.csv", "a,b\n1,2\n2,3\n3,5\n4,4\n")
	na := writeTemp(t, "na.csv", "a,b\n1,2\n2,NA\n3,5\n4,4\n")
	semi := writeTemp(t, "semi.csv", "a;b\n1,5;2\n2;3\n")
	table := writeTemp(t, "t.csv", "A,B,n,Freq\nx,p,1,2\nx,q,1,2\ny,p,1,2\ny,q,1,2\n")
	cases := []struct {
		name     string
		args     []string
		contains []string
	}{
		{"decimal comma with commas", []string{"microagg", "--data", good, "--cols", "a", "--k", "2", "--decimal", ","}, []string{"a decimal comma needs another field separator"}},
		{"bad sep", []string{"microagg", "--data", good, "--cols", "a", "--k", "2", "--sep", "|"}, []string{`--sep: field separator "|"`}},
		{"bad decimal", []string{"kanon", "--data", good, "--qi", "a", "--k", "2", "--decimal", ";"}, []string{`--decimal: decimal mark ";"`}},
		{"bad missing", []string{"microagg", "--data", good, "--cols", "a", "--k", "2", "--missing", "omit"}, []string{`--missing: unknown missing-value policy "omit"`}},
		{"bad digits", []string{"microagg", "--data", good, "--cols", "a", "--k", "2", "--digits", "18"}, []string{`--digits "18": want source, full or a number of decimals 0..17`}},
		{"sep with a generator", []string{"microagg", "--data", "synthetic:sim1", "--k", "2", "--sep", ";"}, []string{"--sep applies to a CSV file, not --data synthetic:sim1:1"}},
		{"missing value", []string{"microagg", "--data", na, "--cols", "a,b", "--k", "2"}, []string{na + `:3: column "b": missing value "NA" (see --missing`}},
		{"decimal comma unread", []string{"microagg", "--data", semi, "--cols", "a,b", "--k", "2", "--sep", ";"}, []string{semi + `:2: column "a": non-numeric value "1,5" (a decimal comma? give the decimal mark: --decimal ,)`}},
		{"two count columns", []string{"bounds", "--table", table, "--margins", "A,B"}, []string{`two count columns, "n" (column 3) and "Freq" (column 4): name the count column (--count)`}},
		{"unknown count column", []string{"audit", "replay", "--table", table, "--requests", "A", "--count", "total"}, []string{`no count column "total"`}},
		{"sep with adult", []string{"kanon", "--data", "adult", "--k", "2", "--sep", ";"}, []string{"--sep applies to a CSV file, not --data adult"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, msg, code := run(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (%s)", code, msg)
			}
			for _, want := range tc.contains {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
		})
	}
}

// Tables as R writes them (as.data.frame(table(...)) names the count
// column Freq), semicolon tables, and --count for a column of another name.
func TestTableCountColumnFlags(t *testing.T) {
	freq := writeTemp(t, "freq.csv", "\"A\",\"B\",\"Freq\"\n\"x\",\"p\",3\n\"x\",\"q\",1\n\"y\",\"p\",0\n\"y\",\"q\",2\n")
	semi := writeTemp(t, "semi.csv", "A;B;weight;n\nx;p;3;1\nx;q;1;1\ny;p;0;1\ny;q;2;1\n")
	for _, args := range [][]string{
		{"bounds", "--table", freq, "--margins", "A,B", "--format", "json"},
		{"bounds", "--table", semi, "--margins", "A,B", "--format", "json", "--sep", ";", "--count", "weight"},
	} {
		out, msg, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, msg)
		}
		doc := parseBounds(t, out)
		// With both one-way margins released, cell (x, p) of count 3 lies
		// in [max(0, 4+3-6), min(4, 3)] = [1, 3] (row x 4, column p 3, total 6).
		if len(doc.Cells) != 4 || doc.Cells[0].Count == nil || *doc.Cells[0].Count != 3 || doc.Cells[0].Lower != 1 || doc.Cells[0].Upper != 3 {
			t.Errorf("%v: cells %+v", args, doc.Cells)
		}
	}
	// The margin files of an intruder, with Freq columns.
	a := writeTemp(t, "a.csv", "A;Freq\nx;4\ny;2\n")
	b := writeTemp(t, "b.csv", "B;Freq\np;3\nq;3\n")
	out, msg, code := run(t, "bounds", "--margin-files", a+","+b, "--sep", ";", "--format", "json")
	if code != 0 {
		t.Fatalf("margin files: exit %d: %s", code, msg)
	}
	if doc := parseBounds(t, out); len(doc.Cells) != 4 || doc.Cells[0].Lower != 1 || doc.Cells[0].Upper != 3 {
		t.Errorf("margin files: cells %+v", doc.Cells)
	}
	// audit replay and serve load read the same tables.
	if _, msg, code := run(t, "audit", "replay", "--table", semi, "--sep", ";", "--count", "weight", "--requests", "A,B"); code != 0 {
		t.Errorf("audit replay: exit %d: %s", code, msg)
	}
	db := filepath.Join(t.TempDir(), "sdc.db")
	if out, msg, code := run(t, "serve", "load", "--db", db, "--name", "t", "--table", freq); code != 0 || !strings.Contains(out, "2 variables, 4 cells, total 6") {
		t.Errorf("serve load: exit %d: %s %s", code, msg, out)
	}
}

// kanon reads semicolon files with decimal commas and ARX hierarchies,
// keeps the input's column order in the published file, and says on
// stderr how many records it dropped for missing values.
func TestKanonDialectARXDropped(t *testing.T) {
	dir := t.TempDir()
	data := "id;sex;age;income\n1;Male;30,5;low\n2;Female;31;low\n3;Male;40;high\n4;Female;41,5;high\n5;?;50;low\n6;Male;52;low\n7;Female;55;high\n"
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sex.csv"), []byte("Male;Male;*\nFemale;Female;*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"kanon", "--data", "d.csv", "--sep", ";", "--decimal", ",", "--qi", "age,sex", "--categorical", "sex",
		"--hierarchy", "sex=sex.csv", "--sensitive", "income", "--identifier", "id", "--k", "2", "--out", "pub.csv", "--graph-out", "graph.csv", "--method", "flow",
		"--max-dropped", "0.2"} // 1 of 7 dropped: more than the default 5 % (issue 44)
	p := runSdcopt(t, dir, args...)
	if p.code != 0 {
		t.Fatalf("exit %d: %s", p.code, p.stderr)
	}
	if !strings.Contains(p.stderr, "1 of 7 records (14.3 %) dropped for a missing quasi-identifier value") {
		t.Errorf("stderr %q", p.stderr)
	}
	pub := readCSV(t, filepath.Join(dir, "pub.csv"))
	// The input's order: sex before age, although --qi lists age first.
	if strings.Join(pub[0], ",") != "sex,age,income" || len(pub) != 7 {
		t.Fatalf("published %q", pub)
	}
	for _, rec := range pub[1:] {
		if rec[0] != "Male" && rec[0] != "Female" && rec[0] != "*" {
			t.Errorf("sex published as %q", rec[0])
		}
		lo, hi, ok := strings.Cut(strings.Trim(rec[1], "[]"), "-")
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		if !ok && err1 == nil {
			h, err2 = l, nil
		}
		if err1 != nil || err2 != nil || l < 30.5 || h > 55 || math.IsNaN(l) {
			t.Errorf("age published as %q", rec[1])
		}
	}
	// verify reads the data with the same flags.
	if p := runSdcopt(t, dir, "kanon", "verify", "--data", "d.csv", "--sep", ";", "--decimal", ",", "--qi", "age,sex", "--categorical", "sex",
		"--hierarchy", "sex=sex.csv", "--published", "pub.csv", "--graph", "graph.csv", "--k", "2"); p.code != 0 || !strings.Contains(p.stdout, "ok: 6 published records") {
		t.Errorf("verify: exit %d: %s%s", p.code, p.stdout, p.stderr)
	}
	p = runSdcopt(t, dir, append(args, "--quiet")...)
	if p.code != 0 || p.stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", p.code, p.stderr)
	}
}
