package datasets

import (
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
// shared/datasets found by walking up from the working directory, checking
// DIR/../shared/datasets and DIR/shared/datasets at each level.
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
	for dir := wd; ; {
		for _, cand := range []string{
			filepath.Join(dir, "..", "shared", "datasets"),
			filepath.Join(dir, "shared", "datasets"),
		} {
			if isDir(cand) {
				return filepath.Clean(cand), nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("%w: no shared/datasets directory above %s (set %s)", ErrNoSharedData, wd, DataDirEnv)
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
