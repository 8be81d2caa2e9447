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
	rtools := "sdcTable:HITAS,GaussSuppression"
	out, msg, code := run(t, "bench", "table-baselines", "--rscript", missing, "--tools", rtools)
	if code != 0 || !strings.Contains(out, "skipped: R/sdcTable not installed") {
		t.Errorf("text: code %d, %q, %q", code, out, msg)
	}
	out, msg, code = run(t, "bench", "table-baselines", "--rscript", missing, "--tools", rtools, "--format", "json")
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

// Without R, sdcopt:optimal still runs and reports its pattern with both
// suppressed totals, cost, lower bound and gap; the R tools are skipped.
// 2way-1300 under freq:3 has 188 primary cells (tabular/synth's presets.go).
func TestBenchTableBaselinesOptimal(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a 1,296-cell table")
	}
	missing := filepath.Join(t.TempDir(), "no-Rscript")
	out, msg, code := run(t, "bench", "table-baselines", "--rscript", missing, "--cases", "2way-1300",
		"--tools", "GaussSuppression,sdcopt:optimal", "--time-limit", "300", "--format", "json")
	var rep struct {
		Skipped string `json:"skipped"`
		Rows    []struct {
			Tool           string   `json:"tool"`
			Status         string   `json:"status"`
			Message        string   `json:"message"`
			Primaries      int      `json:"primaries"`
			Suppressed     int      `json:"suppressed"`
			Secondary      int      `json:"secondary"`
			SuppressedVal  float64  `json:"suppressed_value"`
			SecondaryValue float64  `json:"secondary_value"`
			Cost           *float64 `json:"cost"`
			LowerBound     *float64 `json:"lower_bound"`
			Gap            *float64 `json:"gap"`
			UnderProtected int      `json:"under_protected"`
		} `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || !strings.HasPrefix(rep.Skipped, "R/sdcTable not installed") ||
		len(rep.Rows) != 1 {
		t.Fatalf("code %d, %q, %q", code, out, msg)
	}
	r := rep.Rows[0]
	if r.Status == "error" && strings.Contains(r.Message, "unavailable") {
		t.Skip(r.Message)
	}
	if r.Tool != "sdcopt:optimal" || r.Status != "ok" || r.Primaries != 188 || r.Suppressed != r.Primaries+r.Secondary ||
		r.SecondaryValue >= r.SuppressedVal || r.Cost == nil || r.LowerBound == nil || r.Gap == nil ||
		*r.LowerBound > *r.Cost+1e-6 || r.UnderProtected != 0 {
		t.Errorf("%+v", r)
	}
}
