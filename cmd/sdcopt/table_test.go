package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tableMicro is a small microdata file: region (municipalities N1, N2
// under N; S1 under S), sector, turnover, holding.
const tableMicro = `region,sector,turnover,holding
N1,a,100,h1
N1,a,10,h2
N1,a,5,h3
N2,a,40,h4
N2,a,30,h5
S1,b,60,h6
S1,b,50,h7
S1,b,45,h8
`

const tableHRC = "N\n@N1\n@N2\nS\n@S1\n"

func TestTablePrimary(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "micro.csv")
	hrc := filepath.Join(dir, "region.hrc")
	os.WriteFile(data, []byte(tableMicro), 0o644)
	os.WriteFile(hrc, []byte(tableHRC), 0o644)
	out := filepath.Join(dir, "table.csv")
	stdout, msg, code := run(t, "table", "primary", "--data", data, "--dims", "region:"+hrc+",sector", "--response", "turnover",
		"--rules", "freq:3,p:15", "--out", out, "--jj", filepath.Join(dir, "t.jj"), "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var rep tablePrimaryReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	// Cells: region has 6 codes (Total, N, N1, N2, S, S1), sector 3
	// (Total, a, b): 18. Sensitive, by hand (x1, x2, R = X − x1 − x2):
	//   (N1,a) = (N1,Total): 100, 10, R 5 < 15: p(15), U = 10
	//   (N2,a) = (N2,Total): F = 2: freq(3) and p(15) (R = 0)
	//   (N,a) = (N,Total) = (Total,a): 185, R = 45 ≥ 15: safe
	//   (S1,b) and its totals: 60, 50, R 45 ≥ 9: safe; (·,Total) likewise.
	if rep.Method != "primary" || rep.Cells != 18 || rep.Primary != 4 || rep.ByRule["p(15)"] != 4 || rep.ByRule["freq(3)"] != 2 {
		t.Errorf("report %+v", rep)
	}
	// Empty cells: (N,b), (N1,b), (N2,b), (S,a), (S1,a).
	if rep.Empty != 5 {
		t.Errorf("empty %d, want 5", rep.Empty)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "N1,a,115,3,primary,115,p(15),10,10,0,0,\n") ||
		!strings.Contains(string(text), "N2,a,70,2,primary,70,freq(3)+p(15),7,7,0,0,\n") {
		t.Errorf("table file:\n%s", text)
	}
	if jj, err := os.ReadFile(filepath.Join(dir, "t.jj")); err != nil || !strings.HasPrefix(string(jj), "0\n18\n") {
		t.Errorf("JJ file: %v\n%s", err, jj)
	}
	// The table file read back: the frequency rule applies again (a table
	// file keeps no contributions, so p is refused with a clear message).
	stdout, msg, code = run(t, "table", "primary", "--table", out, "--dims", "region:"+hrc+",sector", "--rules", "freq:3")
	if code != 0 || !strings.Contains(stdout, "freq(3)") {
		t.Errorf("--table: exit %d %s\n%s", code, msg, stdout)
	}
	if _, msg, code = run(t, "table", "primary", "--table", out, "--dims", "region:"+hrc+",sector", "--rules", "p:15"); code != 2 || !strings.Contains(msg, "no contributions") {
		t.Errorf("--table with p: exit %d %q", code, msg)
	}
	// A prefix hierarchy and the csv summary.
	stdout, msg, code = run(t, "table", "primary", "--data", data, "--dims", "region:prefix=1,2,sector", "--rules", "freq:3", "--format", "csv")
	if code != 0 || !strings.HasPrefix(stdout, "count,rule,cells\ncells,,18\n") {
		t.Errorf("prefix: exit %d %s\n%s", code, msg, stdout)
	}
}

func TestTablePrimaryBadInput(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "micro.csv")
	hrc := filepath.Join(dir, "region.hrc")
	os.WriteFile(data, []byte(tableMicro), 0o644)
	os.WriteFile(hrc, []byte("N\n@N1\n@N2\nS\n"), 0o644) // S1 missing
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown column", []string{"--data", data, "--dims", "region,size", "--rules", "freq:3"}, []string{"micro.csv:1", "size", "no such column"}},
		{"bad rule", []string{"--data", data, "--dims", "region", "--rules", "freq:3,q:1"}, []string{"--rules", "q"}},
		{"code missing from hierarchy", []string{"--data", data, "--dims", "region:" + hrc, "--rules", "freq:3"}, []string{"micro.csv:7", "region", "S1"}},
		{"p on frequency table", []string{"--data", data, "--dims", "region", "--rules", "p:15"}, []string{"frequency table"}},
		{"p on weighted table", []string{"--data", data, "--dims", "region", "--response", "turnover", "--weight", "turnover", "--rules", "p:15"}, []string{"weighted"}},
		{"no rules", []string{"--data", data, "--dims", "region"}, []string{"--rules"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, msg, code := run(t, append([]string{"table", "primary"}, c.args...)...)
			if code != 2 || strings.Contains(msg, "\n") {
				t.Fatalf("exit %d %q, want 2 and one line", code, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not name %q", msg, w)
				}
			}
		})
	}
}
