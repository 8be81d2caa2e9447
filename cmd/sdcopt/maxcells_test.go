package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 44, item 18: a decision denied by --max-cells says how many cells
// the table has and the limit in cells (it said "would take more than 8
// bytes (limit 1 cells)": bytes against cells, and "too large for
// memory" for a limit the operator set).
func TestAuditMaxCellsMessage(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "md.csv")
	if err := os.WriteFile(md, []byte("A,B,C\na,x,p\nb,y,q\na,y,p\nb,x,q\na,x,q\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		maxCells, request, want string
	}{
		{"1", "A:B", "the table over A, B (2 x 2 levels) has 4 cells, more than the max-cells limit of 1 cell\n"},
		{"1", "C", "the table over C (2 levels) has 2 cells, more than the max-cells limit of 1 cell\n"},
		{"3", "A:B", "the table over A, B (2 x 2 levels) has 4 cells, more than the max-cells limit of 3 cells\n"},
	} {
		out, msg, code := run(t, "audit", "replay", "--microdata", md, "--vars", "A,B,C", "--requests", c.request, "--max-cells", c.maxCells)
		if code != 0 {
			t.Fatalf("exit %d %s", code, msg)
		}
		if !strings.Contains(out, c.want) || strings.Contains(out, "bytes") || strings.Contains(out, "memory") {
			t.Errorf("--max-cells %s, [%s]:\n%s\nwant %q", c.maxCells, c.request, out, c.want)
		}
	}
}
