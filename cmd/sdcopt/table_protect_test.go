package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// protectTable is a 3×3 magnitude table with its totals (flat rows r1..r3,
// columns a..c) built by hand so that each cost rule has its own unique
// optimal pattern; (r1, a) is primary with levels 1 above and below.
//
//	value   a   b   c   T      freq   a   b   c   T
//	r1     10   1  30  41      r1     5  10   1  16
//	r2     20   1   1  22      r2     1  10  10  21
//	r3      1  30   1  32      r3    10   1  10  21
//	T      31  32  32  95      T     16  21  21  58
//
// Every protecting pattern is a cycle of the 2-D table through (r1, a)
// (hand computation: a suppressed cell alone in a row or column is
// recomputed), so at least 3 secondary cells, and the cheapest ones are:
//   - unity: a rectangle, 3 cells (cost 3; several rectangles tie);
//   - value: the 6-cycle (r1,a),(r1,b),(r2,b),(r2,c),(r3,c),(r3,a):
//     1+1+1+1+1 = 5, against at least 1+20+1 = 22 for a rectangle;
//   - freq: the rectangle r1,r2 × a,c: (r1,c)+(r2,a)+(r2,c) = 1+1+10 = 12,
//     against 21 for the other rectangles, 50 and 23 for the 6-cycles;
//   - log (1+ln(1+v)): the rectangle r1,r2 × a,b: 2(1+ln 2)+(1+ln 21)
//     = 7.431, against 2(1+ln 2)+(1+ln 31) = 7.820 for r1,r3 × a,b and
//     r1,r3 × a,c and 5(1+ln 2) = 8.466 for the 6-cycle.
//
// Each of these moves (r1, a) by 1 either way without taking a cell of
// value 1 below 0, so level 1 is reached. Rectangles or cycles through a
// total cost more under every rule (a total is at least 31 in value, 16
// in freq, 1+ln 32 in log). The column w repeats freq, for --cost w.
const protectTable = `row,col,value,freq,status,upper,lower,w
Total,Total,95,58,safe,0,0,58
Total,a,31,16,safe,0,0,16
Total,b,32,21,safe,0,0,21
Total,c,32,21,safe,0,0,21
r1,Total,41,16,safe,0,0,16
r1,a,10,5,primary,1,1,5
r1,b,1,10,safe,0,0,10
r1,c,30,1,safe,0,0,1
r2,Total,22,21,safe,0,0,21
r2,a,20,1,safe,0,0,1
r2,b,1,10,safe,0,0,10
r2,c,1,10,safe,0,0,10
r3,Total,32,21,safe,0,0,21
r3,a,1,10,safe,0,0,10
r3,b,30,1,safe,0,0,1
r3,c,1,10,safe,0,0,10
`

// secondaryCells reads a --statuses file and returns its secondary cells
// as "row,col", sorted.
func secondaryCells(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	st := slices.Index(rows[0], "status")
	var out []string
	for _, r := range rows[1:] {
		if r[st] == "secondary" {
			out = append(out, r[0]+","+r[1])
		}
	}
	slices.Sort(out)
	return out
}

func TestTableProtectCostRules(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.csv")
	os.WriteFile(in, []byte(protectTable), 0o644)
	cases := []struct {
		cost      string
		secondary []string // nil: only the count is checked
		count     int
		cost0     float64
	}{
		{"unity", nil, 3, 3},
		{"value", []string{"r1,b", "r2,b", "r2,c", "r3,a", "r3,c"}, 5, 5},
		{"freq", []string{"r1,c", "r2,a", "r2,c"}, 3, 12},
		{"w", []string{"r1,c", "r2,a", "r2,c"}, 3, 12},
		{"log", []string{"r1,b", "r2,a", "r2,b"}, 3, 2*(1+math.Log(2)) + 1 + math.Log(21)},
	}
	// The cost rules are what is tested: the insider check, which this
	// table's singletons fail (a finding blocks publication, see
	// TestTableProtectMicrodata), is left out.
	for _, tc := range cases {
		t.Run(tc.cost, func(t *testing.T) {
			st := filepath.Join(dir, "st-"+tc.cost+".csv")
			stdout, msg, code := run(t, "table", "protect", "--quiet", "--insiders=false", "--table", in, "--dims", "row,col", "--cost", tc.cost,
				"--statuses", st, "--format", "json")
			if code != 0 {
				t.Fatalf("exit %d %s\n%s", code, msg, stdout)
			}
			var rep tableProtectReport
			var doc map[string]any
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatal(err)
			}
			json.Unmarshal([]byte(stdout), &doc)
			checkKeys(t, "", doc)
			if rep.Secondary != tc.count || math.Abs(rep.PatternCost-tc.cost0) > 1e-6 || rep.Stop != "optimal" ||
				rep.Audit != "pass" || rep.Primary != 1 || rep.Suppressed != tc.count+1 {
				t.Errorf("report %+v, want %d secondary cells of cost %g, optimal, audit pass", rep, tc.count, tc.cost0)
			}
			if math.Abs(rep.LowerBound-rep.PatternCost) > 1e-6*math.Max(1, rep.PatternCost) {
				t.Errorf("lower bound %g, cost %g: want equal at the optimum", rep.LowerBound, rep.PatternCost)
			}
			got := secondaryCells(t, st)
			if len(got) != tc.count || (tc.secondary != nil && !slices.Equal(got, tc.secondary)) {
				t.Errorf("secondary cells %v, want %v", got, tc.secondary)
			}
		})
	}
}

func TestTableProtectPublishedAndAudited(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.csv")
	os.WriteFile(in, []byte(protectTable), 0o644)
	pub, st, trace, plot := filepath.Join(dir, "pub.csv"), filepath.Join(dir, "st.csv"), filepath.Join(dir, "trace.csv"), filepath.Join(dir, "fig")
	stdout, msg, code := run(t, "table", "protect", "--quiet", "--table", in, "--dims", "row,col", "--out", pub,
		"--statuses", st, "--trace", trace, "--plot", plot)
	if code != 0 {
		t.Fatalf("exit %d %s\n%s", code, msg, stdout)
	}
	for _, w := range []string{"primary     1", "secondary   5", "suppressed  6 cells, total value 15", "audit       pass", "stop        optimal"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("report lacks %q:\n%s", w, stdout)
		}
	}
	// The published file: codes, value and freq, x on the 6 suppressed
	// cells (the value pattern above), nothing else.
	data, _ := os.ReadFile(pub)
	text := string(data)
	if !strings.HasPrefix(text, "row,col,value,freq\n") || strings.Count(text, ",x,x\n") != 6 ||
		!strings.Contains(text, "r1,a,x,x\n") || !strings.Contains(text, "r2,a,20,1\n") ||
		strings.Contains(text, "primary") || strings.Contains(text, "secondary") {
		t.Errorf("published table:\n%s", text)
	}
	if fi, err := os.Stat(st); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("statuses file: %v %v, want mode 0600", err, fi)
	}
	// The statuses file passes the audit (the table has freq: the pair
	// and singleton insiders are a model the suppression does not cover,
	// so they are left out here).
	stdout, msg, code = run(t, "table", "audit", "--table", st, "--dims", "row,col", "--insiders=false")
	if code != 0 || !strings.Contains(stdout, "audit           pass") || !strings.Contains(stdout, "suppressed      6") {
		t.Errorf("audit of the statuses: exit %d %s\n%s", code, msg, stdout)
	}
	tr, _ := os.ReadFile(trace)
	lines := strings.Split(strings.TrimSpace(string(tr)), "\n")
	if lines[0] != "seconds,incumbent,bound" || len(lines) < 2 || !strings.HasSuffix(lines[len(lines)-1], ",5,5") {
		t.Errorf("trace:\n%s", tr)
	}
	for _, f := range []string{"protect-trace.svg", "protect-trace.png"} {
		if _, err := os.Stat(filepath.Join(plot, f)); err != nil {
			t.Errorf("plot: %v", err)
		}
	}
}

func TestTableProtectMicrodata(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the example files")
	}
	dir := t.TempDir()
	st, pub := filepath.Join(dir, "st.csv"), filepath.Join(dir, "pub.csv")
	ex := filepath.Join("..", "..", "docs", "examples")
	stdout, msg, code := run(t, "table", "protect", "--quiet", "--data", filepath.Join(ex, "enterprises.csv"),
		"--dims", "region:"+filepath.Join(ex, "region.hrc")+",sector", "--response", "turnover", "--holding", "group",
		"--rules", "freq:3,p:15,nk:1:85", "--statuses", st, "--out", pub, "--format", "csv")
	// Insiders are modelled (the table has contributions): the pattern
	// passes the insider audit, and is published.
	if code != 0 {
		t.Fatalf("exit %d %s\n%s", code, msg, stdout)
	}
	for _, w := range []string{"primary,3\n", "audit,pass\n", "stop,optimal\n", "insiders,pass\n", "insider_findings,0\n"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("report lacks %q:\n%s", w, stdout)
		}
	}
	if _, err := os.Stat(pub); err != nil {
		t.Errorf("published table: %v", err)
	}
	// The statuses file passes `sdcopt table audit` with its insiders
	// (every one of them).
	out, msg, code := run(t, "table", "audit", "--table", st, "--dims", "region:"+filepath.Join(ex, "region.hrc")+",sector", "--max-insiders", "-1")
	if code != 0 {
		t.Errorf("audit of the statuses: exit %d %s\n%s", code, msg, out)
	}
	// Outsiders only: one secondary cell, (N1, industry), completes the
	// cycle through N1|N2 × industry|retail (table primary finds 3
	// primary cells, README), and an insider breaks it: (N2, retail) = 70
	// has two contributors, who together know it, and then (N1, retail) =
	// (N, retail) − 70 = 185 − 70 = 115 exactly (hand computation from
	// docs/examples/enterprises.csv). The insider audit stays as the
	// final check: exit 1, nothing published.
	os.Remove(pub)
	stdout, msg, code = run(t, "table", "protect", "--quiet", "--data", filepath.Join(ex, "enterprises.csv"),
		"--dims", "region:"+filepath.Join(ex, "region.hrc")+",sector", "--response", "turnover", "--holding", "group",
		"--rules", "freq:3,p:15,nk:1:85", "--statuses", st, "--out", pub, "--format", "csv", "--insiders=false")
	if code != 0 {
		t.Fatalf("--insiders=false: exit %d %s\n%s", code, msg, stdout)
	}
	if got := secondaryCells(t, st); !slices.Equal(got, []string{"N1,industry"}) {
		t.Errorf("secondary cells %v", got)
	}
	if _, err := os.Stat(pub); err != nil {
		t.Errorf("--insiders=false: published table: %v", err)
	}
	out, _, code = run(t, "table", "audit", "--table", st, "--dims", "region:"+filepath.Join(ex, "region.hrc")+",sector")
	if code != 1 || !strings.Contains(out, "insider") {
		t.Errorf("outsider pattern passes the insider audit: exit %d\n%s", code, out)
	}
}

func TestTableProtectBadInput(t *testing.T) {
	in := writeTemp(t, "t.csv", protectTable)
	expectBadInput(t, []string{"table", "protect"}, []badInputCase{
		{args: []string{"--dims", "row,col"}, want: []string{"--data", "--table"}},
		{args: []string{"--table", in}, want: []string{"--dims is required"}},
		{args: []string{"--table", in, "--dims", "row,col", "--method", "best"}, want: []string{"--method \"best\""}},
		{args: []string{"--table", in, "--dims", "row,col", "--zero", "maybe"}, want: []string{"--zero \"maybe\""}},
		{args: []string{"--table", in, "--dims", "row,col", "--cost", "nosuch"}, want: []string{in, "nosuch", "no such column"}},
		{args: []string{"--table", in, "--dims", "row,col", "--cost", "status"}, want: []string{in + ":2:", "status", "not a number"}},
		{args: []string{"--data", in, "--dims", "row,col", "--rules", "freq:3", "--cost", "w"}, want: []string{"--cost \"w\""}},
		{args: []string{"--data", in, "--dims", "row,col"}, want: []string{"--rules is required"}},
		{args: []string{"--table", in, "--dims", "row,col", "--out", in}, want: []string{"--out"}},
		{args: []string{"--table", in, "--dims", "row,col", "--statuses", in}, want: []string{"--statuses"}},
		{args: []string{"--table", in, "--dims", "row,col", "--format", "xml"}, want: []string{"xml"}},
		{args: []string{"--table", in, "--dims", "row,col", "--plot", in}, want: []string{"--plot"}},
		{args: []string{"--table", in, "--dims", "row,col", "--time-limit", "-1"}, want: []string{"--time-limit"}},
	})
	// Nothing was written over the input.
	if data, _ := os.ReadFile(in); string(data) != protectTable {
		t.Errorf("input changed:\n%s", data)
	}
}

// zeroTable is a 2×2 table with totals where (r1, b) is empty and (r1, a)
// is primary with a lower level only (1 below, 0 above).
const zeroTable = `row,col,value,freq,status,upper,lower
Total,Total,15,3,safe,0,0
Total,a,10,2,safe,0,0
Total,b,5,1,safe,0,0
r1,Total,5,1,safe,0,0
r1,a,5,1,primary,0,1
r1,b,0,0,empty,0,0
r2,Total,10,2,safe,0,0
r2,a,5,1,safe,0,0
r2,b,5,1,safe,0,0
`

func TestTableProtectZero(t *testing.T) {
	in := writeTemp(t, "z.csv", zeroTable)
	dir := filepath.Dir(in)
	// Hand computation (cost: value). --zero never: (r1, b) = 0 is
	// published, so (r1, Total) must be suppressed, then one more cell
	// of column Total and of its row: (r1,T)+(r2,T)+(r2,a) = 5+10+5 = 20
	// (through (Total, Total) = 15 it costs more). --zero allowed: the
	// rectangle (r1,b)+(r2,a)+(r2,b) = 0+5+5 = 10, in which the attacker
	// lowers (r1, a) by 1 and raises (r1, b) from 0 (the lower level
	// only: (r1, b) cannot go below 0, so no upper level would be met).
	for _, tc := range []struct {
		zero string
		cost float64
		sec  []string
	}{{"never", 20, []string{"r1,Total", "r2,Total", "r2,a"}}, {"allowed", 10, []string{"r1,b", "r2,a", "r2,b"}}} {
		st := filepath.Join(dir, "st-"+tc.zero+".csv")
		stdout, msg, code := run(t, "table", "protect", "--quiet", "--insiders=false", "--table", in, "--dims", "row,col", "--zero", tc.zero,
			"--statuses", st, "--format", "json")
		if code != 0 {
			t.Fatalf("--zero %s: exit %d %s\n%s", tc.zero, code, msg, stdout)
		}
		var rep tableProtectReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if math.Abs(rep.PatternCost-tc.cost) > 1e-6 || rep.Audit != "pass" {
			t.Errorf("--zero %s: %+v, want cost %g", tc.zero, rep, tc.cost)
		}
		if got := secondaryCells(t, st); !slices.Equal(got, tc.sec) {
			t.Errorf("--zero %s: secondary %v, want %v", tc.zero, got, tc.sec)
		}
	}
}

func TestTableProtectInfeasible(t *testing.T) {
	// (Total) = (a) + (b) with (b) and (Total) must-publish: (a) is their
	// difference whatever is suppressed.
	in := writeTemp(t, "inf.csv", "row,value,status,upper,lower\nTotal,10,must_publish,0,0\na,4,primary,1,1\nb,6,must_publish,0,0\n")
	pub := filepath.Join(filepath.Dir(in), "pub.csv")
	_, msg, code := run(t, "table", "protect", "--quiet", "--table", in, "--dims", "row", "--out", pub)
	if code != 1 || !strings.Contains(msg, "row=a") || !strings.Contains(msg, "cannot") {
		t.Errorf("exit %d %q, want 1 naming (row=a)", code, msg)
	}
	if _, err := os.Stat(pub); err == nil {
		t.Error("published table written for an unprotectable table")
	}
}

// TestTableProtectFast protects the hand-made table with --method fast:
// a safe pattern (the final audit passes), no lower bound, never cheaper
// than the optimal method's on the same table, and the same pattern on a
// second run.
func TestTableProtectFast(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.csv")
	os.WriteFile(in, []byte(protectTable), 0o644)
	cost := func(method string, st string) (float64, string) {
		stdout, msg, code := run(t, "table", "protect", "--quiet", "--insiders=false", "--table", in, "--dims", "row,col",
			"--method", method, "--statuses", st, "--format", "json")
		if code != 0 {
			t.Fatalf("--method %s: exit %d %s\n%s", method, code, msg, stdout)
		}
		var rep struct {
			Method string  `json:"method"`
			Cost   float64 `json:"cost_of_secondary"`
			Audit  string  `json:"audit"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("--method %s: %v\n%s", method, err, stdout)
		}
		if rep.Method != method || rep.Audit != "pass" {
			t.Errorf("--method %s: method %q, audit %q", method, rep.Method, rep.Audit)
		}
		b, err := os.ReadFile(st)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Cost, string(b)
	}
	fast, pattern := cost("fast", filepath.Join(dir, "fast.csv"))
	opt, _ := cost("optimal", filepath.Join(dir, "opt.csv"))
	if fast < opt-1e-9 {
		t.Errorf("fast cost %v below the optimal %v", fast, opt)
	}
	if _, again := cost("fast", filepath.Join(dir, "fast2.csv")); again != pattern {
		t.Error("--method fast gave two patterns for one input")
	}
}
