package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A second Acquire of a held file fails after the wait with the path; a
// release lets the next one in. (Two opens in one process conflict too:
// a flock belongs to the open file description, not to the process.)
func TestAcquire(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(path, 0o600, 0)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Acquire(path, 0o600, 100*time.Millisecond)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Path != path {
		t.Fatalf("second lock: %v", err)
	}
	if el := time.Since(start); el < 100*time.Millisecond {
		t.Errorf("gave up after %v, want at least the 100 ms wait", el)
	}
	done := make(chan error)
	go func() {
		l2, err := Acquire(path, 0o600, 5*time.Second)
		if err == nil {
			err = l2.Release()
		}
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("waiting lock after the release: %v", err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v %v", st, err)
	}
}

// Issue 44, item 9: AcquireFile locks the file, not its name: a second
// hard link shares the lock; a file replaced by a rename while the lock
// was awaited is locked anew; a missing file's directory is locked until
// the file exists.
func TestAcquireFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.json")
	if err := os.WriteFile(path, []byte("1"), 0o600); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	l, err := AcquireFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var busy *BusyError
	if _, err := AcquireFile(hard, 0); !errors.As(err, &busy) || busy.Path != hard {
		t.Errorf("through the hard link: %v", err)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a lock file was created: %v", err)
	}
	// Replaced while a second one waits: the waiter ends on the new file.
	done := make(chan *Lock)
	go func() {
		l2, err := AcquireFile(path, 5*time.Second)
		if err != nil {
			t.Error(err)
		}
		done <- l2
	}()
	time.Sleep(50 * time.Millisecond)
	tmp := filepath.Join(dir, "tmp")
	os.WriteFile(tmp, []byte("2"), 0o600)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	l.Release()
	l2 := <-done
	if _, err := AcquireFile(path, 0); !errors.As(err, &busy) {
		t.Errorf("the new file is not locked by the waiter: %v", err)
	}
	l2.Release()
	// A missing file: its directory is locked.
	missing := filepath.Join(dir, "new.json")
	l3, err := AcquireFile(missing, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireFile(filepath.Join(dir, "other.json"), 0); !errors.As(err, &busy) {
		t.Errorf("the directory is not locked: %v", err)
	}
	l3.Release()
}
