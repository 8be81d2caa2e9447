package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

func autoworkersCSV(t *testing.T) string {
	t.Helper()
	dir, err := datasets.SharedDir()
	if err != nil {
		t.Skip(err)
	}
	return filepath.Join(dir, "autoworkers.csv")
}

type boundsDoc struct {
	Method  string   `json:"method"`
	Solver  string   `json:"solver"`
	Seconds *float64 `json:"seconds"`
	Sharp   bool     `json:"sharp"`
	Margins []string `json:"margins"`
	Cells   []struct {
		Labels  map[string]string `json:"labels"`
		Count   *int64            `json:"count"`
		Lower   float64           `json:"lower"`
		Upper   float64           `json:"upper"`
		Method  string            `json:"method"`
		LPLower *float64          `json:"lp_lower"`
		LPUpper *float64          `json:"lp_upper"`
		IPLower *float64          `json:"ip_lower"`
		IPUpper *float64          `json:"ip_upper"`
	} `json:"cells"`
}

func parseBounds(t *testing.T, out string) boundsDoc {
	t.Helper()
	var doc boundsDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	return doc
}

// Done when: reproduces Dobra & Fienberg's Table 2 ([BF] [ABCE] [ADE]).
func TestBoundsTable2(t *testing.T) {
	csv := autoworkersCSV(t)
	out, msg, code := run(t, "bounds", "--table", csv, "--margins", "BF,ABCE,ADE", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	doc := parseBounds(t, out)
	if doc.Method != "auto" || doc.Seconds == nil || len(doc.Cells) != 64 || !doc.Sharp ||
		strings.Join(doc.Margins, ",") != "B:F,A:B:C:E,A:D:E" {
		t.Fatalf("header: method %q sharp %v margins %v cells %d", doc.Method, doc.Sharp, doc.Margins, len(doc.Cells))
	}
	// Every published lower bound of Table 2 is 0; the upper bounds are
	// checked cell by cell in `sdcopt bench dobra` (TestBenchDobra). Here:
	// Table 2 row "neg <3 >=140 yes", column (B=no, A=yes) is [0,151].
	found := false
	for _, c := range doc.Cells {
		if c.Lower != 0 || c.Count == nil || c.Method != "frechet" {
			t.Fatalf("cell %v: lower %v count %v method %s", c.Labels, c.Lower, c.Count, c.Method)
		}
		l := c.Labels
		if l["F"] == "neg" && l["E"] == "<3" && l["D"] == ">=140" && l["C"] == "yes" && l["B"] == "no" && l["A"] == "yes" {
			found = true
			if c.Upper != 151 {
				t.Errorf("Table 2 cell (neg,<3,>=140,yes,B=no,A=yes): upper %v, want 151", c.Upper)
			}
		}
	}
	if !found {
		t.Error("cell not found")
	}
}

// Done when: --vars ABCE with all 2-way margins shows LP 312.67 against
// the integer 312 (Dobra & Fienberg, Table 3).
func TestBoundsTable3Compare(t *testing.T) {
	csv := autoworkersCSV(t)
	out, msg, code := run(t, "bounds", "--table", csv, "--vars", "ABCE", "--margins", "AB,AC,AE,BC,BE,CE", "--compare", "lp,ip", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	doc := parseBounds(t, out)
	if len(doc.Cells) != 16 {
		t.Fatalf("%d cells", len(doc.Cells))
	}
	for _, c := range doc.Cells {
		if c.LPUpper == nil || c.IPUpper == nil || c.LPLower == nil || c.IPLower == nil {
			t.Fatalf("cell %v lacks lp/ip bounds", c.Labels)
		}
		l := c.Labels
		if l["A"] == "yes" && l["B"] == "yes" && l["C"] == "no" && l["E"] == "<3" {
			if math.Abs(*c.LPUpper-938.0/3) > 1e-6 || *c.IPUpper != 312 || c.Upper != 312 {
				t.Errorf("LP %v IP %v auto %v, want 312.67, 312, 312", *c.LPUpper, *c.IPUpper, c.Upper)
			}
		}
	}
	text, _, code := run(t, "bounds", "--table", csv, "--vars", "A,B,C,E", "--margins", "A:B,A:C,A:E,B:C,B:E,C:E", "--compare", "lp,ip")
	if code != 0 || !strings.Contains(text, "[0,312.67]") || !strings.Contains(text, "F*") {
		t.Errorf("text output lacks the flagged 312.67:\n%s", text)
	}
	csvOut, _, code := run(t, "bounds", "--table", csv, "--vars", "ABCE", "--margins", "AB,AC,AE,BC,BE,CE", "--compare", "lp,ip", "--format", "csv")
	if code != 0 || !strings.HasPrefix(csvOut, "A,B,C,E,count,lower,upper,method,lp_lower,lp_upper,ip_lower,ip_upper,flags\n") {
		t.Errorf("csv output:\n%s", csvOut)
	}
}

func TestBoundsMarginFiles(t *testing.T) {
	ab := writeTemp(t, "ab.csv", "A,B,count\nx,p,3\nx,q,1\ny,p,0\ny,q,2\n")
	bc := writeTemp(t, "bc.csv", "B,C,count\np,u,2\np,v,1\nq,u,1\nq,v,2\n")
	out, msg, code := run(t, "bounds", "--margin-files", ab+","+bc, "--method", "ip", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	doc := parseBounds(t, out)
	if len(doc.Cells) != 8 || doc.Cells[0].Count != nil || doc.Solver == "" {
		t.Fatalf("cells %d, count %v, solver %q", len(doc.Cells), doc.Cells[0].Count, doc.Solver)
	}
	// Cell (x, p, u): [AB] 3, [BC] 2, B=p total 3: [max(0, 3+2-3), min(3, 2)] = [2, 2].
	if c := doc.Cells[0]; c.Lower != 2 || c.Upper != 2 {
		t.Errorf("cell (x,p,u): [%v, %v], want [2, 2]", c.Lower, c.Upper)
	}
	// Inconsistent margin files: exit 1, and no output file.
	bad := writeTemp(t, "bc2.csv", "B,C,count\np,u,2\np,v,2\nq,u,1\nq,v,2\n")
	outFile := filepath.Join(t.TempDir(), "out.json")
	_, msg, code = run(t, "bounds", "--margin-files", ab+","+bad, "--out", outFile)
	if code != 1 || !strings.Contains(msg, "inconsistent") {
		t.Errorf("inconsistent margins: exit %d: %s", code, msg)
	}
	if _, err := os.Stat(outFile); !os.IsNotExist(err) {
		t.Errorf("output file written on failure")
	}
	// --out writes the file.
	if _, msg, code = run(t, "bounds", "--margin-files", ab+","+bc, "--out", outFile, "--format", "csv"); code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if data, err := os.ReadFile(outFile); err != nil || !strings.HasPrefix(string(data), "A,B,C,lower,upper") {
		t.Errorf("out file: %v %q", err, data)
	}
}

func TestBoundsErrors(t *testing.T) {
	good := writeTemp(t, "t.csv", "A,B,C,count\nx,p,u,1\nx,q,v,2\ny,p,v,3\n")
	noTable := writeTemp(t, "ab.csv", "A,B,count\n0,0,1\n0,1,0\n1,0,0\n1,1,1\n")
	noTable2 := writeTemp(t, "ac.csv", "A,C,count\n0,0,1\n0,1,0\n1,0,0\n1,1,1\n")
	noTable3 := writeTemp(t, "bc.csv", "B,C,count\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n")
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown var", []string{"--table", good, "--margins", "AZ"}, 2, `unknown variable "Z"`},
		{"unknown --vars", []string{"--table", good, "--vars", "AQ", "--margins", "A"}, 2, `unknown variable "Q"`},
		{"negative", []string{"--table", writeTemp(t, "n.csv", "A,count\nx,1\ny,-1\n"), "--margins", "A"}, 2, "negative count"},
		{"non-integer", []string{"--table", writeTemp(t, "f.csv", "A,count\nx,1.5\n"), "--margins", "A"}, 2, "f.csv:2: column \"count\": count 1.5 is not an integer"},
		{"empty table", []string{"--table", writeTemp(t, "e.csv", "A,count\n"), "--margins", "A"}, 2, "empty table"},
		{"bad csv", []string{"--table", writeTemp(t, "r.csv", "A,count\nx,1,2\n"), "--margins", "A"}, 2, "ragged"},
		{"missing file", []string{"--table", filepath.Join(t.TempDir(), "none.csv"), "--margins", "A"}, 2, "no such file"},
		{"no input", []string{"--margins", "A"}, 2, "--table"},
		{"no margins", []string{"--table", good}, 2, "--margins"},
		{"bad method", []string{"--table", good, "--margins", "AB", "--method", "simplex"}, 2, "unknown method"},
		{"bad format", []string{"--table", good, "--margins", "AB", "--format", "xml"}, 2, "--format"},
		{"frechet n/a", []string{"--table", good, "--margins", "AB,AC,BC", "--method", "frechet"}, 2, "does not apply"},
		{"no table", []string{"--margin-files", noTable + "," + noTable2 + "," + noTable3}, 1, "no table"},
		{"no table lp", []string{"--margin-files", noTable + "," + noTable2 + "," + noTable3, "--method", "lp"}, 1, "no"},
	}
	for _, c := range cases {
		outFile := filepath.Join(t.TempDir(), "out.txt")
		_, msg, code := run(t, append(append([]string{"bounds"}, c.args...), "--out", outFile)...)
		if code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: exit %d %q, want exit %d containing %q", c.name, code, msg, c.code, c.msg)
		}
		if _, err := os.Stat(outFile); !os.IsNotExist(err) {
			t.Errorf("%s: output file written on failure", c.name)
		}
	}
}

func TestBoundsWriteModel(t *testing.T) {
	good := writeTemp(t, "t.csv", "A,B,C,count\nx,p,u,1\nx,q,v,2\ny,p,v,3\n")
	model := filepath.Join(t.TempDir(), "m.mps")
	if _, msg, code := run(t, "bounds", "--table", good, "--margins", "AB,BC", "--method", "ip", "--write-model", model); code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	_, msg, code := run(t, "solve", model, "--format", "json")
	if code != 0 {
		t.Errorf("the written model does not solve: exit %d: %s", code, msg)
	}
}

// TestBenchDobra: `sdcopt bench dobra` regenerates Tables 2-5; the only
// difference from the published bounds is Table 3's lower bound of
// (A=yes, B=no, C=yes, E<3), where IP and the shuttle agree on 30.
func TestBenchDobra(t *testing.T) {
	autoworkersCSV(t)
	if testing.Short() {
		t.Skip("solves 304 integer programs")
	}
	out, msg, code := run(t, "bench", "dobra", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var doc struct {
		Tables []struct {
			Table   string `json:"table"`
			Differs int    `json:"differs"`
			Sharp   bool   `json:"sharp"`
			Cells   []struct {
				Differs    bool   `json:"differs"`
				Fractional bool   `json:"lp_fractional"`
				Verdict    string `json:"verdict"`
			} `json:"cells"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	wantDiffs := map[string]int{"table2": 0, "table3": 1, "table4": 0, "table5": 0}
	wantFrac := map[string]int{"table2": 0, "table3": 1, "table4": 0, "table5": 2} // Section 5: "two cells"
	if len(doc.Tables) != 4 {
		t.Fatalf("%d tables", len(doc.Tables))
	}
	for _, tb := range doc.Tables {
		frac := 0
		for _, c := range tb.Cells {
			if c.Fractional {
				frac++
			}
			if c.Differs && !strings.Contains(c.Verdict, "IP and shuttle both give") {
				t.Errorf("%s: unexplained difference: %s", tb.Table, c.Verdict)
			}
		}
		if tb.Differs != wantDiffs[tb.Table] || frac != wantFrac[tb.Table] || !tb.Sharp {
			t.Errorf("%s: %d differences (want %d), %d fractional LP cells (want %d), sharp %v",
				tb.Table, tb.Differs, wantDiffs[tb.Table], frac, wantFrac[tb.Table], tb.Sharp)
		}
	}
}

func TestBoundsDemo(t *testing.T) {
	var buf strings.Builder
	if err := runBoundsDemo(&buf); err != nil {
		t.Fatal(err)
	}
	// The embedded table's fractional LP bound 50/3 against the integer 16.
	if out := buf.String(); !strings.Contains(out, "[0,16.67]") || !strings.Contains(out, "[0,16]") || !strings.Contains(out, "F*") {
		t.Errorf("demo lacks the LP/IP contrast:\n%s", out)
	}
}

// Issue 15, done when: bounds verify accepts the certificates of
// bounds --certificates, and rejects a corrupted one (one witness count
// changed, one dual entry changed) with exit 1 naming the cell.
func TestBoundsCertificatesVerify(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	res, certs := filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	base := []string{"--table", csv, "--vars", "ABCE", "--margins", "AB,AC,AE,BC,BE,CE"}
	if _, msg, code := run(t, append([]string{"bounds", "--method", "certified", "--format", "json", "--out", res, "--certificates", certs, "--quiet"}, base...)...); code != 0 {
		t.Fatalf("bounds: exit %d: %s", code, msg)
	}
	out, msg, code := run(t, append([]string{"bounds", "verify", "--bounds", res, "--certificates", certs, "--format", "json"}, base...)...)
	if code != 0 {
		t.Fatalf("verify: exit %d: %s", code, msg)
	}
	var rep struct {
		Cells   int            `json:"n_cells"`
		Counts  map[string]int `json:"counts"`
		Invalid int            `json:"invalid"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Cells != 16 || rep.Invalid != 0 || rep.Counts["proven"] != 32 {
		t.Errorf("verify: %+v, want 16 cells with 32 proven bounds", rep)
	}
	// --certificates needs a method that makes them; verify needs both files.
	if _, msg, code := run(t, append([]string{"bounds", "--method", "shuttle", "--certificates", filepath.Join(dir, "x.json")}, base...)...); code != 2 || !strings.Contains(msg, "--certificates") {
		t.Errorf("shuttle --certificates: exit %d %q", code, msg)
	}
	if _, msg, code := run(t, append([]string{"bounds", "verify", "--bounds", res}, base...)...); code != 2 || !strings.Contains(msg, "required") {
		t.Errorf("verify without --certificates: exit %d %q", code, msg)
	}

	read := func() map[string]any {
		b, err := os.ReadFile(certs)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	// The first cell whose upper bound has a witness and a dual vector.
	doc := read()
	cell := -1
	for j, c := range doc["cells"].([]any) {
		up := c.(map[string]any)["upper"].(map[string]any)
		if up["proof"] == "dual" && up["witness"].(float64) >= 0 {
			cell = j
			break
		}
	}
	if cell < 0 {
		t.Fatal("no dual-proven, attained upper bound to corrupt")
	}
	corrupt := map[string]func(doc map[string]any){
		"witness count": func(doc map[string]any) {
			up := doc["cells"].([]any)[cell].(map[string]any)["upper"].(map[string]any)
			w := doc["witnesses"].([]any)[int(up["witness"].(float64))].([]any)
			w[0] = w[0].(float64) + 1
		},
		"dual entry": func(doc map[string]any) {
			up := doc["cells"].([]any)[cell].(map[string]any)["upper"].(map[string]any)
			d := up["dual"].(map[string]any)
			e := d["entries"].([]any)[0].([]any)
			e[2] = e[2].(float64) - 1000*d["denominator"].(float64)
		},
	}
	for name, change := range corrupt {
		doc := read()
		change(doc)
		b, _ := json.Marshal(doc)
		bad := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, msg, code := run(t, append([]string{"bounds", "verify", "--bounds", res, "--certificates", bad}, base...)...)
		if code != 1 || !strings.Contains(msg, fmt.Sprintf("cell %d ", cell)) {
			t.Errorf("%s: exit %d %q, want exit 1 naming cell %d", name, code, msg, cell)
		}
	}
}

// --margins all:2 is every two-way margin: the same bounds as listing
// the six pairs of ABCE.
func TestBoundsAllMargins(t *testing.T) {
	csv := autoworkersCSV(t)
	all, msg, code := run(t, "bounds", "--table", csv, "--vars", "ABCE", "--margins", "all:2", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	listed, msg, code := run(t, "bounds", "--table", csv, "--vars", "ABCE", "--margins", "AB,AC,AE,BC,BE,CE", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	a, l := parseBounds(t, all), parseBounds(t, listed)
	if strings.Join(a.Margins, ",") != "A:B,A:C,A:E,B:C,B:E,C:E" || len(a.Cells) != 16 || len(a.Cells) != len(l.Cells) {
		t.Fatalf("all:2: margins %v, %d cells (listed: %d)", a.Margins, len(a.Cells), len(l.Cells))
	}
	for i := range a.Cells {
		if a.Cells[i].Lower != l.Cells[i].Lower || a.Cells[i].Upper != l.Cells[i].Upper {
			t.Errorf("cell %v: all:2 [%v,%v], listed [%v,%v]", a.Cells[i].Labels, a.Cells[i].Lower, a.Cells[i].Upper, l.Cells[i].Lower, l.Cells[i].Upper)
		}
	}
	_, msg, code = run(t, "bounds", "--table", csv, "--vars", "ABCE", "--margins", "all:5")
	if code != 2 || !strings.Contains(msg, "all:K") {
		t.Errorf("all:5 on 4 variables: exit %d, %s", code, msg)
	}
}

// TestBoundsCertifiedGaps: --method certified reports for every bound the
// attained and the proven value and the gap between them: on the paper's
// Table 2 margins (sharp and attained everywhere) every gap is 0; with the
// margins read from files (no table known) the attained values come from
// the witnesses only, and still fit inside the proven bounds.
func TestBoundsCertifiedGaps(t *testing.T) {
	csv := autoworkersCSV(t)
	out, msg, code := run(t, "bounds", "--table", csv, "--margins", "BF,ABCE,ADE", "--method", "certified", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var doc struct {
		Gaps struct {
			Bounds      int     `json:"bounds"`
			SharpBounds int     `json:"sharp_bounds"`
			MedianGap   float64 `json:"median_gap"`
			TotalGap    int64   `json:"total_gap"`
		} `json:"gaps"`
		Cells []struct {
			Count         int64   `json:"count"`
			L             float64 `json:"lower"`
			U             float64 `json:"upper"`
			AttainedLower *int64  `json:"attained_lower"`
			AttainedUpper *int64  `json:"attained_upper"`
			Gap           *int64  `json:"gap"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Gaps.Bounds != 128 || doc.Gaps.SharpBounds != 128 || doc.Gaps.MedianGap != 0 || doc.Gaps.TotalGap != 0 {
		t.Errorf("gaps %+v, want all 128 bounds sharp, no gap", doc.Gaps)
	}
	for i, c := range doc.Cells {
		if c.AttainedLower == nil || c.AttainedUpper == nil || c.Gap == nil {
			t.Fatalf("cell %d lacks attained values or gap", i)
		}
		if float64(*c.AttainedLower) < c.L || float64(*c.AttainedUpper) > c.U || *c.AttainedLower > c.Count || *c.AttainedUpper < c.Count {
			t.Errorf("cell %d: attained [%d, %d] for count %d, proven [%v, %v]", i, *c.AttainedLower, *c.AttainedUpper, c.Count, c.L, c.U)
		}
	}
	txt, msg, code := run(t, "bounds", "--table", csv, "--margins", "BF,ABCE,ADE", "--method", "certified", "--quiet")
	if code != 0 || !strings.Contains(txt, "attained vs proven: 128 of 128 bounds sharp; gap per cell median 0") || !strings.Contains(txt, "attained  gap") {
		t.Errorf("text report (exit %d %s):\n%s", code, msg, txt)
	}
}

// TestBoundsJSONStreamed: the streamed JSON of bounds is the document
// encoding/json writes with two-space indentation (re-indenting the
// compacted output changes no byte), and its cells carry the values of the
// text report. Labels with characters JSON escapes, a compared method and
// the certified gaps cover every kind of cell field.
func TestBoundsJSONStreamed(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "t.csv")
	var b strings.Builder
	b.WriteString("A,B,C,count\n")
	levels := []string{`"q"`, "<a&b>", "é\\x"}
	for i, a := range levels {
		for j, bb := range []string{"0", "1"} {
			for k, c := range []string{"u", "v"} {
				fmt.Fprintf(&b, "%s,%s,%s,%d\n", csvQuote(a), bb, c, (i+2*j+3*k)%4)
			}
		}
	}
	if err := os.WriteFile(table, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--method", "lp", "--compare", "ip"},
		{"--method", "certified"},
		{"--method", "shuttle"},
	} {
		argv := append([]string{"bounds", "--table", table, "--margins", "A:B,B:C,A:C", "--format", "json", "--quiet"}, args...)
		out, msg, code := run(t, argv...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, msg)
		}
		var compact, canon bytes.Buffer
		if err := json.Compact(&compact, []byte(out)); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, out)
		}
		if err := json.Indent(&canon, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got, want := out, canon.String()+"\n"; got != want {
			t.Errorf("%v: output is not encoding/json's indentation:\n%s\nwant\n%s", args, got, want)
		}
		var doc struct {
			Cells []struct {
				Labels map[string]string `json:"labels"`
				Count  int64             `json:"count"`
				Lower  float64           `json:"lower"`
				Upper  float64           `json:"upper"`
				Method string            `json:"method"`
			} `json:"cells"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Cells) != 12 {
			t.Fatalf("%v: %d cells, want 12", args, len(doc.Cells))
		}
		for c, cell := range doc.Cells {
			if cell.Labels["A"] != levels[c/4] || cell.Method == "" || cell.Lower > float64(cell.Count) || cell.Upper < float64(cell.Count) {
				t.Errorf("%v: cell %d: %+v", args, c, cell)
			}
		}
	}
}

// csvQuote quotes a CSV field that needs it.
func csvQuote(s string) string {
	if strings.ContainsAny(s, "\",\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// TestAppendJSONBound: bounds are written as encoding/json writes the
// float64 (or null for NaN and infinities).
func TestAppendJSONBound(t *testing.T) {
	for _, v := range []float64{0, 1, -1, 2.5, 1e-7, 1.5e-9, 123456789, 1e20, 1e21, 3e22, -4.25e-8, 0.1, 1.0 / 3, math.MaxFloat64} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSONBound(nil, v)); got != string(want) {
			t.Errorf("%v: %s, want %s", v, got, want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(appendJSONBound(nil, v)); got != "null" {
			t.Errorf("%v: %s, want null", v, got)
		}
	}
}

// verifyFixture writes a small table (A 2 levels, B 3, C 2, D 2; seeded
// counts), runs bounds --method certified on it with all 2-way margins and
// returns the table, the result and the certificates.
func verifyFixture(t *testing.T) (table, res, certs string, base []string) {
	t.Helper()
	dir := t.TempDir()
	table = filepath.Join(dir, "t.csv")
	var b strings.Builder
	b.WriteString("A,B,C,D,count\n")
	i := 0
	for _, a := range []string{"a0", "a1"} {
		for _, bb := range []string{"b0", "b1", "b2"} {
			for _, c := range []string{"c0", "c1"} {
				for _, d := range []string{"d0", "d1"} {
					fmt.Fprintf(&b, "%s,%s,%s,%s,%d\n", a, bb, c, d, (7*i+3)%11)
					i++
				}
			}
		}
	}
	if err := os.WriteFile(table, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res, certs = filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	base = []string{"--table", table, "--margins", "all:2"}
	if _, msg, code := run(t, append([]string{"bounds", "--method", "certified", "--format", "json", "--out", res, "--certificates", certs, "--quiet"}, base...)...); code != 0 {
		t.Fatalf("bounds: exit %d: %s", code, msg)
	}
	return table, res, certs, base
}

func readJSONMap(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func writeJSONMap(t *testing.T, path string, doc map[string]any) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBoundsVerifyTampered: bounds verify checks every claim of the result
// and of the certificates, or lists it as not checked (issue 44, item 10):
// one tamper per row, each refused (exit 1) with a message naming the
// field and, for a cell's field, the cell.
func TestBoundsVerifyTampered(t *testing.T) {
	_, res, certs, base := verifyFixture(t)
	verify := func(res, certs string) (string, string, int) {
		return run(t, append([]string{"bounds", "verify", "--bounds", res, "--certificates", certs}, base...)...)
	}
	out, msg, code := verify(res, certs)
	if code != 0 {
		t.Fatalf("untampered: exit %d: %s\n%s", code, msg, out)
	}
	// The fields verify cannot check are listed, each with its reason.
	for _, f := range []string{"not checked", "seconds", "note", "method"} {
		if !strings.Contains(out, f) {
			t.Errorf("untampered: the report does not list %q:\n%s", f, out)
		}
	}
	cell := func(doc map[string]any, j int) map[string]any { return doc["cells"].([]any)[j].(map[string]any) }
	num := func(v any) float64 { return v.(float64) }
	// A cell with a proper interval (lower < upper) to tamper with.
	rdoc := readJSONMap(t, res)
	k := -1
	for j := range rdoc["cells"].([]any) {
		if c := cell(rdoc, j); num(c["lower"]) < num(c["upper"]) {
			k = j
			break
		}
	}
	if k < 0 {
		t.Fatal("no cell with lower < upper")
	}
	kc := fmt.Sprintf("cell %d ", k)
	cases := []struct {
		name   string
		certs  bool // tamper with the certificates, not the result
		tamper func(doc map[string]any)
		want   []string
	}{
		// issue 44, item 10: relabelled cells claim another cell's count and bounds.
		{"labels swapped", false, func(d map[string]any) {
			a, b := cell(d, 0), cell(d, 1)
			a["labels"], b["labels"] = b["labels"], a["labels"]
		}, []string{"labels", "cell 0 "}},
		// issue 44, item 10: attained_* must be attained by a witness.
		{"attained_lower", false, func(d map[string]any) { cell(d, k)["attained_lower"] = num(cell(d, k)["upper"]) + 1 }, []string{"attained_lower", kc}},
		{"attained_upper", false, func(d map[string]any) { cell(d, k)["attained_upper"] = num(cell(d, k)["upper"]) + 1 }, []string{"attained_upper", kc}},
		// issue 44, item 10: gap = (attained lower - lower) + (upper - attained upper).
		{"gap", false, func(d map[string]any) { cell(d, k)["gap"] = num(cell(d, k)["gap"]) + 1 }, []string{"gap", kc}},
		{"gaps.sharp_bounds", false, func(d map[string]any) {
			g := d["gaps"].(map[string]any)
			g["sharp_bounds"] = num(g["sharp_bounds"]) - 1
		}, []string{"gaps.sharp_bounds"}},
		{"gaps.total_gap", false, func(d map[string]any) {
			g := d["gaps"].(map[string]any)
			g["total_gap"] = num(g["total_gap"]) + 3
		}, []string{"gaps.total_gap"}},
		{"gaps.max_gap", false, func(d map[string]any) {
			g := d["gaps"].(map[string]any)
			g["max_gap"] = num(g["max_gap"]) + 3
		}, []string{"gaps.max_gap"}},
		{"gaps.median_gap", false, func(d map[string]any) {
			g := d["gaps"].(map[string]any)
			g["median_gap"] = num(g["median_gap"]) + 0.5
		}, []string{"gaps.median_gap"}},
		{"gaps.bounds", false, func(d map[string]any) {
			g := d["gaps"].(map[string]any)
			g["bounds"] = num(g["bounds"]) + 2
		}, []string{"gaps.bounds"}},
		// issue 44, items 10 and 12: sharp as defined once.
		{"sharp", false, func(d map[string]any) { d["sharp"] = !d["sharp"].(bool) }, []string{"sharp"}},
		{"sharp_cells", false, func(d map[string]any) { d["sharp_cells"] = num(d["sharp_cells"]) + 1 }, []string{"sharp_cells"}},
		{"valid_cells", false, func(d map[string]any) { d["valid_cells"] = num(d["valid_cells"]) + 1 }, []string{"valid_cells"}},
		{"certified.sharp", false, func(d map[string]any) {
			c := d["certified"].(map[string]any)
			c["sharp"] = num(c["sharp"]) + 1
		}, []string{"certified.sharp"}},
		{"certified.witnesses", false, func(d map[string]any) {
			c := d["certified"].(map[string]any)
			c["witnesses"] = num(c["witnesses"]) + 1
		}, []string{"certified.witnesses"}},
		// issue 44, item 10: margins must be the margins of the input.
		{"margins", false, func(d map[string]any) { d["margins"] = d["margins"].([]any)[1:] }, []string{"margins"}},
		{"vars", false, func(d map[string]any) {
			v := d["vars"].([]any)[0].(map[string]any)
			v["name"] = "Z"
		}, []string{"vars"}},
		{"unknown field", false, func(d map[string]any) { d["proven_everything"] = true }, []string{"proven_everything"}},
		{"unknown cell field", false, func(d map[string]any) { cell(d, k)["safe"] = true }, []string{"safe", kc}},
		// A compared method's column for a method the result does not compare.
		{"unknown compared column", false, func(d map[string]any) { cell(d, k)["ip_lower"] = 0.0 }, []string{"ip_lower", kc}},
		// issue 44, item 10: witness tables no bound references are checked too.
		{"negative unreferenced witness", true, func(d map[string]any) {
			w := d["witnesses"].([]any)
			x := append([]any(nil), w[0].([]any)...)
			x[0], x[1] = num(x[0])-5-num(x[0]), num(x[1])+5+num(x[0])
			d["witnesses"] = append(w, x)
		}, []string{"witness", "negative"}},
		{"huge unreferenced witness", true, func(d map[string]any) {
			w := d["witnesses"].([]any)
			x := append([]any(nil), w[0].([]any)...)
			x[0] = 1e9
			d["witnesses"] = append(w, x)
		}, []string{"witness", "margin"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := res
			if tc.certs {
				path = certs
			}
			doc := readJSONMap(t, path)
			tc.tamper(doc)
			bad := filepath.Join(t.TempDir(), "bad.json")
			writeJSONMap(t, bad, doc)
			r, c := bad, certs
			if tc.certs {
				r, c = res, bad
			}
			_, msg, code := verify(r, c)
			if code != 1 {
				t.Fatalf("exit %d (%s), want 1", code, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not name %q", msg, w)
				}
			}
		})
	}
}

// TestBoundsSharpCountsAgree: the note, the gap line, the JSON's counts
// and bounds verify give one number of sharp bounds (issue 44, item 12:
// a certified report said "0 of 2048 bounds sharp" in its note, "245 of
// 2048 bounds sharp" in its gap line, and verify 0 proven). Stopped before
// any solve, the bounds are trivial and only the table itself attains
// some of them; complete, every bound of this small table is sharp.
func TestBoundsSharpCountsAgree(t *testing.T) {
	_, _, _, base := verifyFixture(t)
	for _, limit := range []string{"0.000001", "0"} {
		t.Run("limit "+limit, func(t *testing.T) {
			dir := t.TempDir()
			res, certs := filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
			args := append([]string{"bounds", "--method", "certified", "--time-limit", limit, "--quiet"}, base...)
			txt, msg, code := run(t, append(args, "--certificates", certs)...)
			if code != 0 {
				t.Fatalf("bounds: exit %d: %s", code, msg)
			}
			if _, msg, code := run(t, append(args, "--format", "json", "--out", res, "--certificates", filepath.Join(dir, "c2.json"))...); code != 0 {
				t.Fatalf("bounds --format json: exit %d: %s", code, msg)
			}
			count := func(what, text, pattern string) int {
				i := strings.Index(text, pattern)
				if i < 0 {
					t.Fatalf("%s: no %q in\n%s", what, pattern, text)
				}
				var k, of int
				if _, err := fmt.Sscanf(text[i+len(pattern):], "%d of %d bounds sharp", &k, &of); err != nil {
					t.Fatalf("%s: %v in %q", what, err, text[i:])
				}
				return k
			}
			j := strings.Index(txt, "note: ")
			if j < 0 {
				t.Fatalf("no note in\n%s", txt)
			}
			line := txt[j : j+strings.Index(txt[j:], "\n")]
			pattern := "note: "
			if strings.Contains(line, "time limit reached") {
				// A stopped run's note starts with its cells: the bounds follow.
				pattern = "valid bounds only; "
			}
			note := count("note", line, pattern)
			gap := count("gap line", txt, "attained vs proven: ")
			vout, msg, code := run(t, append([]string{"bounds", "verify", "--bounds", res, "--certificates", filepath.Join(dir, "c2.json"), "--format", "json"}, base...)...)
			if code != 0 {
				t.Fatalf("verify: exit %d: %s", code, msg)
			}
			var rep struct {
				Sharp int `json:"sharp_bounds"`
			}
			if err := json.Unmarshal([]byte(vout), &rep); err != nil {
				t.Fatal(err)
			}
			doc := readJSONMap(t, res)
			js := int(doc["gaps"].(map[string]any)["sharp_bounds"].(float64))
			st := int(doc["certified"].(map[string]any)["sharp"].(float64))
			if note != gap || gap != rep.Sharp || js != gap || st != gap {
				t.Errorf("sharp bounds: note %d, gap line %d, verify %d, JSON gaps %d, JSON certified %d: one definition, one number", note, gap, rep.Sharp, js, st)
			}
			if limit == "0" && gap != 48 {
				t.Errorf("complete run: %d of 48 bounds sharp, want 48", gap)
			}
		})
	}
}
