package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// DataDirEnv names the environment variable that overrides the location of
// the shared benchmark data.
const DataDirEnv = "SDCOPT_DATA_DIR"

// ErrNoSharedData is wrapped by SharedDir when the benchmark data cannot be
// found; tests skip on it.
var ErrNoSharedData = errors.New("datasets: shared benchmark data not found")

// SharedDir returns the directory of the benchmark CSV files: $SDCOPT_DATA_DIR
// when set (it must be a directory), otherwise the first existing
// shared/datasets found by walking up from the working directory, then from
// the directory of the running executable (so bin/sdcopt finds the data
// beside its checkout from anywhere), checking DIR/../shared/datasets and
// DIR/shared/datasets at each level.
func SharedDir() (string, error) {
	if dir := os.Getenv(DataDirEnv); dir != "" {
		if isDir(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("%w: %s=%s is not a directory", ErrNoSharedData, DataDirEnv, dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSharedData, err)
	}
	starts := []string{wd}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, start := range starts {
		if dir, ok := findUp(start); ok {
			return dir, nil
		}
	}
	return "", fmt.Errorf("%w: no shared/datasets directory above %s or the executable (set %s)", ErrNoSharedData, wd, DataDirEnv)
}

// findUp walks up from start looking for shared/datasets.
func findUp(start string) (string, bool) {
	for dir := start; ; {
		for _, cand := range []string{
			filepath.Join(dir, "..", "shared", "datasets"),
			filepath.Join(dir, "shared", "datasets"),
		} {
			if isDir(cand) {
				return filepath.Clean(cand), true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// readVerified reads a file of the shared data directory and checks its
// SHA-256 against the value listed in the data README.
func readVerified(path, wantSHA256 string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != wantSHA256 {
		return nil, fmt.Errorf("datasets: %s: SHA-256 %s, want %s (file changed or corrupt)", path, got, wantSHA256)
	}
	return data, nil
}
