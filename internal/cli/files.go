package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Files collects the files one run of a command reads and writes, so that
// Check can refuse, before any computation, an output that would replace
// an input or another output of the same run, or that cannot be written.
//
// Paths are compared after resolution (absolute, cleaned, symbolic links
// of the directories and of the file itself followed) and, where both
// exist, by file identity (os.SameFile), so "./x" and "x", a link to an
// input and a second hard link of it are all caught.
type Files struct {
	in, out []namedFile
}

type namedFile struct {
	flag string // the flag that names the file, e.g. "--data"
	path string // as the user gave it
}

// Input records an input file named by flag; an empty path is ignored.
func (f *Files) Input(flag, path string) {
	if path != "" {
		f.in = append(f.in, namedFile{flag, path})
	}
}

// Output records an output file named by flag; an empty path is ignored.
func (f *Files) Output(flag, path string) {
	if path != "" {
		f.out = append(f.out, namedFile{flag, path})
	}
}

// Update records a file named by flag that the run reads, when it exists,
// and then replaces (a history appended to): it is checked as an output,
// against the inputs and the other outputs, but not against itself. An
// empty path is ignored.
func (f *Files) Update(flag, path string) {
	if path != "" {
		f.out = append(f.out, namedFile{flag, path})
	}
}

// Check returns a bad-input error when an output path is an existing
// directory or a symbolic link, lies in a directory that does not exist or
// in which no file can be created (a read-only or virtual file system such
// as /proc: a file is created and removed to know), or resolves to an
// input or to another output. Paths are compared whether or not the files
// exist yet. Every message names the paths as the user gave them.
func (f *Files) Check() error {
	outs := make([]resolved, len(f.out))
	for i, o := range f.out {
		r, err := resolveOutput(o)
		if err != nil {
			return err
		}
		outs[i] = r
	}
	ins := make([]resolved, 0, len(f.in))
	for _, in := range f.in {
		r, ok := resolveInput(in)
		if ok {
			ins = append(ins, r)
		}
	}
	for i, o := range outs {
		for _, in := range ins {
			if o.same(in) {
				return BadInput("%s %s is the input %s %s: refusing to overwrite an input", o.flag, o.path, in.flag, in.path)
			}
		}
		for _, p := range outs[:i] {
			if o.same(p) {
				if o.flag == p.flag {
					return BadInput("%s names the file %s twice", o.flag, o.path)
				}
				return BadInput("%s %s and %s %s are the same file", p.flag, p.path, o.flag, o.path)
			}
		}
	}
	return nil
}

// resolved is a file with its resolved path and, when it exists, its
// identity.
type resolved struct {
	namedFile
	real string
	info fs.FileInfo // nil when the file does not exist
}

func (a resolved) same(b resolved) bool {
	if a.real == b.real {
		return true
	}
	return a.info != nil && b.info != nil && os.SameFile(a.info, b.info)
}

func resolveOutput(o namedFile) (resolved, error) {
	r := resolved{namedFile: o}
	abs, err := filepath.Abs(o.path)
	if err != nil {
		return r, BadInput("%s %s: %v", o.flag, o.path, err)
	}
	dir := filepath.Dir(abs)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, BadInput("%s %s: directory %s does not exist", o.flag, o.path, filepath.Dir(o.path))
	case err != nil:
		return r, BadInput("%s %s: %v", o.flag, o.path, unwrapPath(err))
	case !st.IsDir():
		return r, BadInput("%s %s: %s is not a directory", o.flag, o.path, filepath.Dir(o.path))
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil || !canCreate(dir) {
		return r, BadInput("%s %s: directory %s is not writable", o.flag, o.path, filepath.Dir(o.path))
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return r, BadInput("%s %s: %v", o.flag, o.path, unwrapPath(err))
	}
	r.real = filepath.Join(realDir, filepath.Base(abs))
	lst, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, nil
	case err != nil:
		return r, BadInput("%s %s: %v", o.flag, o.path, unwrapPath(err))
	case lst.Mode()&fs.ModeSymlink != 0:
		// Writing would replace the link by a file, not write through it;
		// either way it is not what the link's owner meant.
		return r, BadInput("%s %s is a symbolic link: name the file itself", o.flag, o.path)
	case lst.IsDir():
		return r, BadInput("%s %s is a directory", o.flag, o.path)
	case !lst.Mode().IsRegular():
		return r, BadInput("%s %s is not a regular file", o.flag, o.path)
	}
	r.info = lst
	return r, nil
}

// canCreate reports whether a file can be created in dir, by creating
// and removing one: access(2) says yes for root in /proc and /sys, where
// the run would compute and then fail to write. The file is registered as
// a temporary, so that an interrupt removes it too.
func canCreate(dir string) bool {
	f, err := createTemp(filepath.Join(dir, "sdcopt-check"))
	if err != nil {
		return false
	}
	f.Close()
	removeTemp(f.Name())
	return true
}

// resolveInput resolves an input. A file that does not exist (yet) is
// resolved through its directory, so that an output of the same name is
// still caught; a path that cannot be resolved at all cannot collide with
// an output and is left to the loader to report.
func resolveInput(in namedFile) (resolved, bool) {
	real, err := filepath.EvalSymlinks(in.path)
	if errors.Is(err, fs.ErrNotExist) {
		abs, aerr := filepath.Abs(in.path)
		if aerr != nil {
			return resolved{}, false
		}
		dir, derr := filepath.EvalSymlinks(filepath.Dir(abs))
		if derr != nil {
			return resolved{}, false
		}
		return resolved{namedFile: in, real: filepath.Join(dir, filepath.Base(abs))}, true
	}
	if err != nil {
		return resolved{}, false
	}
	if real, err = filepath.Abs(real); err != nil {
		return resolved{}, false
	}
	st, err := os.Stat(real)
	if err != nil {
		return resolved{}, false
	}
	return resolved{namedFile: in, real: real, info: st}, true
}

// unwrapPath drops the operation and path of an *fs.PathError, whose path
// may be a resolved one the user never typed.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pathError names the user's path in an error from writing it.
func pathError(path string, err error) error {
	return fmt.Errorf("%s: %w", path, unwrapPath(err))
}
