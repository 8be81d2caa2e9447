package cli

import (
	"bufio"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// The temporary files of outputs being written, so that an interrupt can
// remove them (HandleSignals), and the lock that makes a set of renames
// (Outputs.Commit) indivisible for the signal handler.
var (
	tempMu   sync.Mutex
	temps    = map[string]bool{} // path -> is a directory
	commitMu sync.Mutex
)

func createTemp(path string) (*os.File, error) {
	tempMu.Lock()
	defer tempMu.Unlock()
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, pathError(path, err)
	}
	temps[f.Name()] = false
	return f, nil
}

func removeTemp(name string) {
	tempMu.Lock()
	defer tempMu.Unlock()
	os.Remove(name)
	delete(temps, name)
}

// removeAllTemps removes every registered temporary, files first, then
// the directories created for outputs (when still empty); it is called
// with tempMu held by the signal handler, which then exits.
func removeAllTemps() {
	for name, dir := range temps {
		if !dir {
			os.Remove(name)
			delete(temps, name)
		}
	}
	// Directories innermost first: a longer path cannot contain a
	// shorter one.
	dirs := slices.Collect(maps.Keys(temps))
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, name := range dirs {
		os.Remove(name)
		delete(temps, name)
	}
}

// Outputs writes the output files of one run so that they appear together
// or not at all: Write puts each file's contents into a temporary file in
// the destination's directory, Commit renames them all into place, and
// Abort (or an interrupt, see HandleSignals) removes the temporaries. Call
// Abort in a defer: after Commit it does nothing.
type Outputs struct {
	staged []staged
	dirs   []string // directories created by Mkdir, innermost last
}

// Mkdir creates dir (and missing parents) for outputs of the run; the
// directories it created are removed again by Abort or an interrupt, so
// a run that writes nothing leaves none behind.
func (o *Outputs) Mkdir(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		missing = append(missing, d)
	}
	tempMu.Lock()
	defer tempMu.Unlock()
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil {
			return pathError(dir, err)
		}
		temps[missing[i]] = true
		o.dirs = append(o.dirs, missing[i])
	}
	return nil
}

type staged struct {
	path, tmp string
}

// Write stages path with the contents that write produces: a new file
// gets mode 0644, a file replaced keeps its mode. Errors name path, never
// the temporary file.
func (o *Outputs) Write(path string, write func(w io.Writer) error) error {
	return o.write(path, 0o644, write)
}

// WritePrivate is Write for an output that holds confidential data (a
// release history, the graph from original to published records): a new
// file gets mode 0600, a file replaced keeps its mode.
func (o *Outputs) WritePrivate(path string, write func(w io.Writer) error) error {
	return o.write(path, 0o600, write)
}

// modeFor is the mode of the file that replaces path: the mode of the
// file there now, or perm for a new one.
func modeFor(path string, perm os.FileMode) os.FileMode {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return st.Mode().Perm()
	}
	return perm
}

func (o *Outputs) write(path string, perm os.FileMode, write func(w io.Writer) error) error {
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			removeTemp(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return pathError(path, err)
	}
	if err := bw.Flush(); err != nil {
		return pathError(path, err)
	}
	// CreateTemp makes the file 0600 (so nobody else can open it while
	// it is written); the mode is set before the rename.
	if err := f.Chmod(modeFor(path, perm)); err != nil {
		return pathError(path, err)
	}
	if err := f.Sync(); err != nil {
		return pathError(path, err)
	}
	if err := f.Close(); err != nil {
		return pathError(path, err)
	}
	ok = true
	o.staged = append(o.staged, staged{path, tmp})
	return nil
}

// Commit renames every staged file into place. An interrupt waits until
// the renames are done, so a run leaves either all of its outputs or none
// (barring a rename failure, which is reported).
func (o *Outputs) Commit() error {
	commitMu.Lock()
	defer commitMu.Unlock()
	var first error
	for _, s := range o.staged {
		if first != nil {
			removeTemp(s.tmp)
			continue
		}
		if err := os.Rename(s.tmp, s.path); err != nil {
			first = pathError(s.path, err)
			removeTemp(s.tmp)
			continue
		}
		tempMu.Lock()
		delete(temps, s.tmp)
		tempMu.Unlock()
	}
	o.staged = nil
	if first != nil {
		o.removeDirs()
		return first
	}
	tempMu.Lock()
	for _, d := range o.dirs {
		delete(temps, d)
	}
	tempMu.Unlock()
	o.dirs = nil
	return nil
}

// removeDirs removes the directories Mkdir created, innermost first.
func (o *Outputs) removeDirs() {
	for i := len(o.dirs) - 1; i >= 0; i-- {
		removeTemp(o.dirs[i])
	}
	o.dirs = nil
}

// Abort removes the staged files that were not committed and the
// directories Mkdir created for them.
func (o *Outputs) Abort() {
	for _, s := range o.staged {
		removeTemp(s.tmp)
	}
	o.staged = nil
	o.removeDirs()
}

// WriteFileAtomic writes one file through a temporary file and a rename,
// so that a failure or an interrupt never leaves a partial file (mode as
// Outputs.Write).
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	var o Outputs
	defer o.Abort()
	if err := o.Write(path, write); err != nil {
		return err
	}
	return o.Commit()
}

// WritePrivateFileAtomic is WriteFileAtomic with the modes of
// Outputs.WritePrivate.
func WritePrivateFileAtomic(path string, write func(w io.Writer) error) error {
	var o Outputs
	defer o.Abort()
	if err := o.WritePrivate(path, write); err != nil {
		return err
	}
	return o.Commit()
}
