package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMkdirTemp: issue 44, item 7. A work directory is private (0700),
// registered for removal by an interrupt until its remove function has
// removed it with its contents.
func TestMkdirTemp(t *testing.T) {
	base := t.TempDir()
	dir, remove, err := MkdirTemp(base, "work-*")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 || filepath.Dir(dir) != base {
		t.Fatalf("%s: %v, %v: want a new 0700 directory in %s", dir, st, err, base)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "input.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	tempMu.Lock()
	registered := tempTrees[dir]
	tempMu.Unlock()
	if !registered {
		t.Fatal("not registered for removal by an interrupt")
	}
	remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s left: %v", dir, err)
	}
	tempMu.Lock()
	_, registered = tempTrees[dir]
	tempMu.Unlock()
	if registered {
		t.Fatal("still registered after its removal")
	}
	// What the signal handler does.
	dir, _, err = MkdirTemp(base, "work-*")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "part.gob"), []byte("x"), 0o644)
	tempMu.Lock()
	removeAllTrees()
	tempMu.Unlock()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s left by removeAllTrees: %v", dir, err)
	}
}
