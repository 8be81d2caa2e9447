package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// requestMicro: sector a's largest respondent (e1) asked for protection,
// sector b's 4th largest (f4) did; four respondents each, so freq:3 does
// not fire.
const requestMicro = `sector,id,turnover,req
a,e1,100,1
a,e2,50,0
a,e3,30,
a,e4,20,0
b,f1,100,0
b,f2,50,0
b,f3,30,0
b,f4,20,yes
`

// TestTablePrimaryRequest: --request makes (a) primary by rule request
// (its largest contributor asked) and not (b) (its 4th did); the total's
// two largest, e1 and f1 (ties by ID), include e1: primary too. A value
// that is not a flag is exit 2 naming the file, the line and the column.
func TestTablePrimaryRequest(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "req.csv")
	os.WriteFile(data, []byte(requestMicro), 0o644)
	out := filepath.Join(dir, "table.csv")
	stdout, msg, code := run(t, "table", "primary", "--data", data, "--dims", "sector", "--response", "turnover",
		"--respondent", "id", "--request", "req", "--rules", "freq:3", "--out", out, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var rep tablePrimaryReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Request != "req" || rep.Primary != 2 || rep.ByRule["request"] != 2 || rep.ByRule["freq(3)"] != 0 {
		t.Errorf("report %+v, want 2 primary by request", rep)
	}
	text, _ := os.ReadFile(out)
	if !strings.Contains(string(text), "\na,200,4,primary,200,request,") || !strings.Contains(string(text), "\nb,200,4,safe,") {
		t.Errorf("table file:\n%s", text)
	}
	os.WriteFile(data, []byte(strings.Replace(requestMicro, "b,f3,30,0", "b,f3,30,perhaps", 1)), 0o644)
	_, msg, code = run(t, "table", "primary", "--data", data, "--dims", "sector", "--response", "turnover",
		"--respondent", "id", "--request", "req", "--rules", "freq:3")
	if code != 2 || !strings.Contains(msg, "req.csv:8") || !strings.Contains(msg, `"req"`) || !strings.Contains(msg, "perhaps") {
		t.Errorf("bad flag: exit %d %q, want 2 naming req.csv:8, column req", code, msg)
	}
}
