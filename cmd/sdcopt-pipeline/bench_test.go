package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
)

// TestBenchGridBadInput: issue 44, item 19. A grid whose k exceeds the
// records of its data (or whose shared data is missing) is bad input: exit
// 2 with one line naming the spec file and the field, before the
// pipeline starts; it was exit 3 with a 15-line trace of the failed Beam
// bundle.
func TestBenchGridBadInput(t *testing.T) {
	if _, err := datasets.SharedDir(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, spec, dataDir string
		want                []string
	}{
		{"mdav k > n", `{"bench": "mdav", "data": ["tarragona"], "k": [3, 5000]}`, "", []string{"grid.json", "field k", "5000", "834", "tarragona"}},
		{"kanon k > n", `{"bench": "kanon", "k": [5, 50000], "methods": ["sortgreedy"], "partition": 0}`, "", []string{"grid.json", "field k", "50000", "adult"}},
		{"no shared data", `{"bench": "mdav", "data": ["census"], "k": [3]}`, filepath.Join(dir, "none"), []string{"grid.json", datasets.DataDirEnv}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.dataDir != "" {
				t.Setenv(datasets.DataDirEnv, tc.dataDir)
			}
			spec := filepath.Join(t.TempDir(), "grid.json")
			if err := os.WriteFile(spec, []byte(tc.spec), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := run("bench", "--spec", spec)
			if cli.Code(err) != cli.ExitBadInput {
				t.Fatalf("exit %d (%v), want %d", cli.Code(err), err, cli.ExitBadInput)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("a message of %d lines, want one:\n%s", strings.Count(msg, "\n")+1, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}
