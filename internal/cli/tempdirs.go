package cli

import "os"

// tempTrees are the temporary work directories of running computations
// (MkdirTemp), removed with their contents by an interrupt; guarded by
// tempMu.
var tempTrees = map[string]bool{}

// MkdirTemp creates a new directory as os.MkdirTemp(base, pattern) does
// (mode 0700) and registers it, so that SIGINT or SIGTERM
// (HandleSignals) removes it with everything in it before the process
// exits. The returned function removes it so and forgets it: call it at
// the end of the run, on every path. sdcopt-pipeline stages the records
// and the parts' files in such a directory.
func MkdirTemp(base, pattern string) (string, func(), error) {
	tempMu.Lock()
	defer tempMu.Unlock()
	dir, err := os.MkdirTemp(base, pattern)
	if err != nil {
		return "", nil, err
	}
	tempTrees[dir] = true
	return dir, func() {
		tempMu.Lock()
		defer tempMu.Unlock()
		removeTree(dir)
		delete(tempTrees, dir)
	}, nil
}

// removeTree removes dir and its contents. Workers of the computation may
// still be adding files while it is removed (os.RemoveAll then fails with
// the directory not empty), so it tries a few times.
func removeTree(dir string) {
	for range 50 {
		if err := os.RemoveAll(dir); err == nil {
			return
		}
	}
}

// removeAllTrees removes every registered work directory; it is called
// with tempMu held by the signal handler, which then exits.
func removeAllTrees() {
	for dir := range tempTrees {
		removeTree(dir)
		delete(tempTrees, dir)
	}
}
