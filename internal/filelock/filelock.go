// Package filelock takes exclusive advisory locks on files (flock(2)), so
// that two sdcopt processes never run a read-decide-write on the same
// release history or serve the same database at once.
//
// A flock lock belongs to the open file description: it is released when
// the file is closed or the process ends (also on kill -9), so a crashed
// holder never leaves a stale lock behind. Locks are advisory: they bind
// only processes that take them. A flock lock belongs to the file (the
// inode), not to its name: AcquireFile locks a file itself, so every name
// of it shares the lock; TryShared and Held let a process share a file
// with others or see whether anyone holds it.
package filelock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Lock is an exclusive lock held on a file.
type Lock struct {
	f *os.File
}

// BusyError reports a file locked by another process.
type BusyError struct {
	Path string
	// PID is the holder's process id as /proc/locks gives it (0 when
	// unknown).
	PID int
	// Waited is how long the lock was waited for.
	Waited time.Duration
}

func (e *BusyError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
	}
	if e.Waited > 0 {
		return fmt.Sprintf("%s is locked by %s (waited %s)", e.Path, who, e.Waited.Round(time.Millisecond))
	}
	return fmt.Sprintf("%s is locked by %s", e.Path, who)
}

// pollInterval is how often a waiting Acquire retries.
const pollInterval = 20 * time.Millisecond

// Acquire opens path (creating it with mode perm when missing) and takes
// an exclusive lock on it, retrying for up to wait (0: one try). A lock
// held by another process at the end is a *BusyError.
func Acquire(path string, perm os.FileMode, wait time.Duration) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, perm)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Since(start) >= wait {
			busy := &BusyError{Path: path, PID: holder(f), Waited: wait}
			f.Close()
			return nil, busy
		}
		time.Sleep(pollInterval)
	}
}

// Release releases the lock and closes the file.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing drops the flock
	l.f = nil
	return err
}

// holder finds the process holding a flock on f's file in /proc/locks
// (Linux; 0 when it cannot tell). A line reads
// "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF": the pid, then the
// device's major and minor numbers (hex) and the inode.
func holder(f *os.File) int {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return 0
	}
	pl, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer pl.Close()
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
	sc := bufio.NewScanner(pl)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		// "->" marks a waiter's line; it has one more field.
		if len(fs) > 1 && fs[1] == "->" {
			continue
		}
		if len(fs) < 6 || fs[1] != "FLOCK" || (fs[3] != "WRITE" && fs[3] != "READ") || fs[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(fs[4]); err == nil && pid != os.Getpid() {
			return pid
		}
	}
	return 0
}

// TryShared takes a shared lock on the existing file path without
// waiting: any number of shared locks coexist, an exclusive one (Acquire)
// excludes them. A file locked exclusively by another process is a
// *BusyError naming the holder.
func TryShared(path string) (*Lock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &BusyError{Path: path, PID: holderOf(path)}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
}

// Held reports whether another open file description holds a lock on the
// existing file path (false when the file does not exist). It tries an
// exclusive lock and drops it at once.
func Held(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return false, nil // closing drops it
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return true, nil
		default:
			return false, fmt.Errorf("lock %s: %w", path, err)
		}
	}
}

// holderOf is holder for a path (0 when it cannot be opened).
func holderOf(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	return holder(f)
}

// AcquireFile takes an exclusive lock on the file path itself, not on a
// lock file beside it, so that every name of the file (a symbolic link, a
// second hard link) shares the lock and no output can replace the lock.
// A file replaced by a rename while the lock was awaited is locked anew
// (the lock must be on the file the name gives now). When path does not
// exist, its directory is locked instead, until the file is created:
// then the file's lock is taken. It retries for up to wait; a lock held
// at the end is a *BusyError naming path.
func AcquireFile(path string, wait time.Duration) (*Lock, error) {
	start := time.Now()
	for {
		target := path
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			target = filepath.Dir(path)
			f, err = os.Open(target)
		}
		if err != nil {
			return nil, err
		}
		for {
			err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
			if err == nil || !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
				break
			}
			if time.Since(start) >= wait {
				busy := &BusyError{Path: path, PID: holder(f), Waited: wait}
				f.Close()
				return nil, busy
			}
			time.Sleep(pollInterval)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if target == path {
			held, err1 := f.Stat()
			now, err2 := os.Stat(path)
			if err1 == nil && err2 == nil && os.SameFile(held, now) {
				return &Lock{f: f}, nil
			}
		} else if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return &Lock{f: f}, nil
		}
		f.Close() // the name now gives another file (or one was created)
	}
}
