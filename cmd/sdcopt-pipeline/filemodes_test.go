package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 44, item 9: the graph from original to published records is
// confidential (it links each published record to its original), so a new
// --graph-out file is created 0600, as sdcopt kanon creates it; the
// publication is public (0644). A file replaced keeps its mode.
func TestKanonGraphPrivate(t *testing.T) {
	dir := t.TempDir()
	pub, graph := filepath.Join(dir, "pub.csv"), filepath.Join(dir, "graph.csv")
	args := []string{"kanon", "--synthetic", "400", "--k", "3", "--method", "greedy", "--coarse", "200", "--partition", "100",
		"--out", pub, "--graph-out", graph}
	mode := func(path string) os.FileMode {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if _, err := run(args...); err != nil {
		t.Fatal(err)
	}
	if m := mode(graph); m != 0o600 {
		t.Errorf("--graph-out is created %#o, want 0600", m)
	}
	if m := mode(pub); m != 0o644 {
		t.Errorf("the publication is created %#o, want 0644", m)
	}
	if err := os.Chmod(graph, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := run(args...); err != nil {
		t.Fatal(err)
	}
	if m := mode(graph); m != 0o640 {
		t.Errorf("--graph-out replaced: %#o, want its 0640 kept", m)
	}
}
