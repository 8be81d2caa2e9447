package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// workDirs returns the run work directories (sdcopt-pipeline-*) in dir.
func workDirs(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "sdcopt-pipeline-*"))
	return m
}

// TestSignalsRemoveWorkDir: issue 44, item 7. SIGINT or SIGTERM in the
// middle of `sdcopt-pipeline kanon` or `microagg` left the staged input
// (the confidential records) and the parts' files in
// $TMPDIR/sdcopt-pipeline-* every time, while the process said "no
// partial output left behind". The process (this test binary run as
// sdcopt-pipeline) is started with its own TMPDIR and stopped once its
// work directory holds the staged input, or once a part's file appears;
// it must exit 130 / 143 and leave no work directory, no output, no
// temporary output file and nothing else in its TMPDIR.
func TestSignalsRemoveWorkDir(t *testing.T) {
	if testing.Short() {
		t.Skip("signals: long-running processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type trigger int
	const (
		staged trigger = iota // the staged input exists
		part                  // a part's file exists besides the staged input
	)
	kanonArgs := []string{"kanon", "--synthetic", "60000", "--k", "5", "--method", "greedy", "--coarse", "20000", "--out", "pub.csv", "--graph-out", "graph.csv"}
	microArgs := []string{"microagg", "--data", "synthetic:gauss-60000-5-5", "--k", "3", "--coarse", "20000", "--out", "prot.csv"}
	for _, tc := range []struct {
		name    string
		args    []string
		outputs []string
		workDir bool // --work-dir (a directory of the test) instead of $TMPDIR
		when    trigger
	}{
		{"kanon staged", kanonArgs, []string{"pub.csv", "graph.csv"}, false, staged},
		{"kanon part", kanonArgs, []string{"pub.csv", "graph.csv"}, false, part},
		{"microagg staged", microArgs, []string{"prot.csv"}, false, staged},
		{"microagg part", microArgs, []string{"prot.csv"}, false, part},
		{"microagg work-dir", microArgs, []string{"prot.csv"}, true, staged},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(fmt.Sprintf("%s/%s", tc.name, sig), func(t *testing.T) {
				dir, tmp := t.TempDir(), t.TempDir()
				args := tc.args
				work := tmp
				if tc.workDir {
					work = t.TempDir()
					args = append(args, "--work-dir", work)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, exe, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), mainEnv+"=1", "TMPDIR="+tmp)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				start := time.Now()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				var werr error
				sent := false
				tick := time.NewTicker(2 * time.Millisecond)
				defer tick.Stop()
			poll:
				for {
					select {
					case werr = <-done:
						break poll
					case <-tick.C:
						ready := false
						for _, d := range workDirs(work) {
							names, _ := filepath.Glob(filepath.Join(d, "*"))
							for _, n := range names {
								base := filepath.Base(n)
								isPart := strings.HasPrefix(base, "pub-") || strings.HasPrefix(base, "graph-") || strings.HasPrefix(base, "micro-part-")
								ready = ready || (tc.when == staged && base == "input.txt") || (tc.when == part && isPart)
							}
						}
						if ready {
							sent = cmd.Process.Signal(sig) == nil
							werr = <-done
							break poll
						}
					}
				}
				elapsed := time.Since(start)
				code := 0
				var ee *exec.ExitError
				switch {
				case errors.As(werr, &ee):
					code = ee.ExitCode()
				case werr != nil:
					t.Fatal(werr)
				}
				for _, bad := range []string{"fatal error", "goroutine ", "panic"} {
					if strings.Contains(stderr.String(), bad) {
						t.Fatalf("crash (%q) after %s:\n%s", bad, sig, stderr.String())
					}
				}
				if left := workDirs(work); len(left) > 0 {
					var files []string
					for _, d := range left {
						names, _ := filepath.Glob(filepath.Join(d, "*"))
						for _, n := range names {
							files = append(files, filepath.Base(n))
						}
					}
					t.Errorf("work directory left after %s (exit %d): %v holding %v", sig, code, left, files)
				}
				for _, d := range []string{dir, tmp, work} {
					es, _ := os.ReadDir(d)
					for _, e := range es {
						t.Errorf("left in %s: %s", d, e.Name())
					}
				}
				if !sent {
					t.Fatalf("finished before the signal (exit %d, %.1f s): make the data larger\n%s", code, elapsed.Seconds(), stderr.String())
				}
				want := cli.ExitInterrupted
				if sig == syscall.SIGTERM {
					want = cli.ExitTerminated
				}
				if code != want {
					t.Fatalf("exit %d after %s, want %d\nstderr: %s", code, sig, want, stderr.String())
				}
				if !strings.Contains(stderr.String(), "sdcopt-pipeline: stopped by ") || !strings.Contains(stderr.String(), cli.StoppedMessage) {
					t.Errorf("stderr lacks \"sdcopt-pipeline: stopped by ...; %s\": %s", cli.StoppedMessage, stderr.String())
				}
			})
		}
	}
}
