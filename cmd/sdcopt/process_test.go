package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// mainEnv makes the test binary run sdcopt instead of the tests, so that
// tests can run sdcopt as a real process (exit codes, signals) built with
// the same tags. With readyEnv set to a path, the process creates that
// file once its signal handling is in place.
const (
	mainEnv  = "SDCOPT_TEST_RUN_MAIN"
	readyEnv = "SDCOPT_TEST_READY_FILE"
)

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		os.Args = append([]string{"sdcopt"}, os.Args[1:]...)
		cli.HandleSignals() // as main does
		if ready := os.Getenv(readyEnv); ready != "" {
			if err := os.WriteFile(ready, nil, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "ready file:", err)
				os.Exit(99)
			}
		}
		os.Exit(execute())
	}
	os.Exit(m.Run())
}

// proc is a finished sdcopt process.
type proc struct {
	stdout, stderr string
	code           int
}

// sdcopt starts sdcopt as a process in dir with args; it returns the
// running command (for signals) and a function that waits for it.
func startSdcopt(t *testing.T, ctx context.Context, dir string, args ...string) (*exec.Cmd, func() proc) {
	t.Helper()
	return startSdcoptEnv(t, ctx, dir, nil, args...)
}

// startSdcoptEnv is startSdcopt with extra environment variables.
func startSdcoptEnv(t *testing.T, ctx context.Context, dir string, env []string, args ...string) (*exec.Cmd, func() proc) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), mainEnv+"=1"), env...)
	if shared, ok := sharedDataDir(); ok {
		// The process runs in a temporary directory: point it at the
		// shared data it would find from the checkout.
		cmd.Env = append(cmd.Env, "SDCOPT_DATA_DIR="+shared)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, func() proc {
		err := cmd.Wait()
		code := 0
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			code = ee.ExitCode()
		case err != nil:
			t.Fatalf("sdcopt %v: %v", args, err)
		}
		return proc{out.String(), errb.String(), code}
	}
}

// runSdcopt runs sdcopt as a process in dir (bounded to a minute).
func runSdcopt(t *testing.T, dir string, args ...string) proc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, wait := startSdcopt(t, ctx, dir, args...)
	return wait()
}

// sharedDataDir finds ../shared/datasets from the package directory.
func sharedDataDir() (string, bool) {
	if d := os.Getenv("SDCOPT_DATA_DIR"); d != "" {
		return d, true
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "datasets")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// snapshot maps every file under dir (relative path) to its mode and a
// hash of its contents, links to their targets.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			snap[rel] = "link " + target
		case d.IsDir():
			snap[rel] = "dir " + info.Mode().String()
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h := sha256.Sum256(b)
			snap[rel] = info.Mode().String() + " " + hex.EncodeToString(h[:])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// diffSnapshots lists the paths that differ, with allowed new or changed
// paths left out.
func diffSnapshots(before, after map[string]string, allowed ...string) []string {
	var diff []string
	for p, v := range after {
		if before[p] != v && !contains(allowed, p) {
			diff = append(diff, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !contains(allowed, p) {
			diff = append(diff, p+" (removed)")
		}
	}
	sort.Strings(diff)
	return diff
}

func contains(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

// tempFiles lists the hidden temporaries of atomic writes under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var tmp []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), ".") && strings.Contains(d.Name(), ".tmp") {
			tmp = append(tmp, path)
		}
		return nil
	})
	return tmp
}
