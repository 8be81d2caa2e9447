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
