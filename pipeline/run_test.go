package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// TestWorkDirPrivate: issue 44, item 1. The run stages into a fresh
// directory of its own (mode 0700) inside Runner.WorkDir, removed after
// the run, and writes nothing else there: a file in WorkDir named like
// the staged input is left as it was.
func TestWorkDirPrivate(t *testing.T) {
	base := t.TempDir()
	keep := filepath.Join(base, "input.txt")
	if err := os.WriteFile(keep, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Runner{WorkDir: base}
	dir, remove, err := r.workDir(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != base || !strings.HasPrefix(filepath.Base(dir), workDirPrefix) {
		t.Errorf("work directory %s: want a new %s* in %s", dir, workDirPrefix, base)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("work directory mode %v, want 0700", st.Mode().Perm())
	}
	z := &model.Dataset{N: 4, D: 1, X: []float64{1, 2, 3, 4}, Names: []string{"x"}}
	if _, err := stage(context.Background(), dir, z.X, z.N, z.D); err != nil {
		t.Fatal(err)
	}
	remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("work directory %s left after the run: %v", dir, err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "a,b\n1,2\n" {
		t.Errorf("input.txt in the work directory changed: %q, %v", b, err)
	}
	es, _ := os.ReadDir(base)
	if len(es) != 1 {
		t.Errorf("work directory's parent holds %d entries, want only input.txt", len(es))
	}
	for _, bad := range []string{filepath.Join(base, "none"), keep} {
		if err := (Runner{WorkDir: bad}).Check(); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("--work-dir %s: error %v, want one naming it", bad, err)
		}
	}
}
