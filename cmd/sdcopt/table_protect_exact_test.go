package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestTableProtectExactAudit: --exact-audit computes the intervals
// instead of letting the fast method's hypercubes decide the audit; on
// the hand-made table both audits pass and the pattern is the same.
func TestTableProtectExactAudit(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(in, []byte(protectTable), 0o644); err != nil {
		t.Fatal(err)
	}
	pattern := func(st string, extra ...string) string {
		args := append([]string{"table", "protect", "--quiet", "--insiders=false", "--table", in, "--dims", "row,col",
			"--method", "fast", "--statuses", st, "--format", "json"}, extra...)
		stdout, msg, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s\n%s", extra, code, msg, stdout)
		}
		var rep struct {
			Audit string `json:"audit"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%v: %v\n%s", extra, err, stdout)
		}
		if rep.Audit != "pass" {
			t.Errorf("%v: audit %q", extra, rep.Audit)
		}
		b, err := os.ReadFile(st)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := pattern(filepath.Join(dir, "a.csv")), pattern(filepath.Join(dir, "b.csv"), "--exact-audit"); a != b {
		t.Error("--exact-audit changed the pattern")
	}
}
