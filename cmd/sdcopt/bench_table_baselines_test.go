package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Without R the command reports the skip and exits 0, in every format;
// bad settings exit 2 naming the flag.
func TestBenchTableBaselinesSkipped(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-Rscript")
	out, msg, code := run(t, "bench", "table-baselines", "--rscript", missing)
	if code != 0 || !strings.Contains(out, "skipped: R/sdcTable not installed") {
		t.Errorf("text: code %d, %q, %q", code, out, msg)
	}
	out, msg, code = run(t, "bench", "table-baselines", "--rscript", missing, "--format", "json")
	var rep struct {
		Method  string `json:"method"`
		Skipped string `json:"skipped"`
		Rows    []any  `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Method != "table-baselines" ||
		!strings.HasPrefix(rep.Skipped, "R/sdcTable not installed") || rep.Rows == nil || len(rep.Rows) != 0 {
		t.Errorf("json: code %d, %q, %q", code, out, msg)
	}
	for _, c := range []struct{ flag, value string }{{"--rules", "nk:1:85"}, {"--cases", "9way"}, {"--time-limit", "-1"}, {"--tools", "argus"}} {
		_, msg, code = run(t, "bench", "table-baselines", "--rscript", missing, c.flag, c.value)
		if code != 2 || !strings.Contains(msg, c.flag) {
			t.Errorf("%s %s: code %d, %q", c.flag, c.value, code, msg)
		}
	}
}
