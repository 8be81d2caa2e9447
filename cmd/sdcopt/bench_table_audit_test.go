package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchTableAudit: bench table-audit on two small sizes writes its
// JSON report (one row per size, way and pattern; a fit per way and
// pattern) and draws the log-log figure; bad flags exit 2 naming the flag.
func TestBenchTableAudit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs")
	out, msg, code := run(t, "bench", "table-audit", "--sizes", "300,600", "--ways", "2", "--patterns", "random", "--format", "json", "--plot", dir, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var rep struct {
		Method string `json:"method"`
		Rows   []struct {
			Cells      int `json:"cells"`
			Suppressed int `json:"suppressed"`
		} `json:"rows"`
		Fits []struct {
			Exponent float64 `json:"exponent"`
		} `json:"fits"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Method != "table-audit" || len(rep.Rows) != 2 || len(rep.Fits) != 1 || rep.Rows[0].Cells >= rep.Rows[1].Cells {
		t.Errorf("report %+v", rep)
	}
	for _, f := range []string{"table-audit-time.svg", "table-audit-time.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--ways", "4"}, "--ways"},
		{[]string{"--sizes", "1..x"}, "--sizes"},
		{[]string{"--patterns", "diagonal"}, "--patterns"},
		{[]string{"--suppressed", "1.5"}, "--suppressed"},
		{[]string{"--workers", "0"}, "--workers"},
	} {
		_, msg, code := run(t, append([]string{"bench", "table-audit", "--quiet"}, c.args...)...)
		if code != 2 || !strings.Contains(msg, c.flag) {
			t.Errorf("%v: exit %d %q, want 2 naming %s", c.args, code, msg, c.flag)
		}
	}
}
