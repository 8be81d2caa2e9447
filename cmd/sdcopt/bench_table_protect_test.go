package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchTableProtect: bench table-protect on the small linked preset
// writes its JSON report (the System of 1,872 cells protected jointly,
// audited with no failure); bad flags exit 2 naming the flag.
func TestBenchTableProtect(t *testing.T) {
	out, msg, code := run(t, "bench", "table-protect", "--cases", "linked-2000:fast", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var rep struct {
		Method string `json:"method"`
		Rows   []struct {
			Cells     int    `json:"cells"`
			Tables    int    `json:"tables"`
			Status    string `json:"status"`
			Secondary int    `json:"secondary"`
			Failures  int    `json:"failures"`
		} `json:"rows"`
		Seconds float64 `json:"seconds"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Method != "table-protect" || len(rep.Rows) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if r := rep.Rows[0]; r.Status != "ok" || r.Cells != 1872 || r.Tables != 2 || r.Secondary == 0 || r.Failures != 0 {
		t.Errorf("row %+v", r)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--cases", "nope:fast"}, "cases"},
		{[]string{"--zero", "maybe"}, "zero"},
		{[]string{"--time-limit", "-1"}, "--time-limit"},
	} {
		_, msg, code := run(t, append([]string{"bench", "table-protect", "--quiet"}, c.args...)...)
		if code != 2 || !strings.Contains(msg, c.flag) {
			t.Errorf("%v: exit %d %q, want 2 naming %s", c.args, code, msg, c.flag)
		}
	}
}
