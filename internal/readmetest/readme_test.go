package readmetest

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
)

// docs are the Markdown files whose ```sh blocks must run, in the order
// they run (later files may use what earlier ones leave); the first two
// must have some. docs/REFERENCE.md holds synopses only (```text), but a
// command written there later is run too.
var docs = []string{"README.md", "docs/REPRODUCE.md", "docs/REFERENCE.md"}

// TestDocCommands runs every ```sh block of README.md, docs/REPRODUCE.md
// and docs/REFERENCE.md as written (see the package comment), then checks that
// every file the commands left in the working directory is ignored by
// .gitignore, so that trying the README in a checkout leaves git status
// clean.
func TestDocCommands(t *testing.T) {
	root := checkoutRoot(t)
	var all []Block
	for _, name := range docs {
		text, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := Parse(name, string(text))
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) == 0 && name != "docs/REFERENCE.md" {
			t.Fatalf("%s has no ```sh block", name)
		}
		all = append(all, blocks...)
	}

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	work := filepath.Join(tmp, "sdcopt") // the checkout's place
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(work, "docs"), os.DirFS(filepath.Join(root, "docs"))); err != nil {
		t.Fatal(err)
	}
	before := files(t, work)
	haveData := false
	if dir, err := datasets.SharedDir(); err == nil {
		// ../shared/datasets from the working directory, as from a checkout
		// beside the data.
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(tmp, "shared"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(tmp, "shared", "datasets")); err != nil {
			t.Fatal(err)
		}
		haveData = true
	} else {
		t.Logf("no shared benchmark data: %v", err)
	}

	start := time.Now()
	goBuild(t, root, filepath.Join(bin, "sdcopt"), "./cmd/sdcopt")
	t.Logf("built sdcopt in %.1f s", time.Since(start).Seconds())

	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", datasets.DataDirEnv, "PWD", "OLDPWD":
			// the data are found from the working directory, as a user's
			// run finds them
		default:
			env = append(env, kv)
		}
	}
	r := &Runner{
		Dir:      work,
		Env:      env,
		Addr:     freeAddr(t),
		Short:    testing.Short(),
		Slow:     os.Getenv("SDCOPT_README_SLOW") == "1",
		HaveData: haveData,
		Pipeline: func() error {
			start := time.Now()
			err := build(root, filepath.Join(bin, "sdcopt-pipeline"), "./cmd/sdcopt-pipeline")
			t.Logf("built sdcopt-pipeline in %.1f s", time.Since(start).Seconds())
			return err
		},
	}
	t.Cleanup(func() {
		if err := r.Stop(); err != nil {
			t.Error(err)
		}
	})
	ran := 0
	for _, b := range all {
		start := time.Now()
		skipped, err := r.Run(b)
		if err != nil {
			t.Fatal(err)
		}
		if skipped != "" {
			t.Logf("%s:%d: not run: %s", b.File, b.Line, skipped)
			continue
		}
		ran++
		t.Logf("%s:%d: ok in %.1f s", b.File, b.Line, time.Since(start).Seconds())
	}
	if err := r.Stop(); err != nil {
		t.Error(err)
	}
	t.Logf("%d of %d blocks ran", ran, len(all))

	// Every file a run leaves must be ignored by git.
	if _, err := exec.LookPath("git"); err != nil {
		t.Logf("no git: the leftovers are not checked against .gitignore")
		return
	}
	var left []string
	for _, f := range files(t, work) {
		if !contains(before, f) {
			left = append(left, f)
		}
	}
	for _, f := range unignored(t, root, left) {
		t.Errorf("the commands leave %s, which .gitignore does not ignore", f)
	}
}

// unignored returns the paths (relative to the checkout) that the
// checkout's .gitignore does not ignore, whether or not they exist.
func unignored(t *testing.T, root string, paths []string) []string {
	t.Helper()
	var out []string
	for _, f := range paths {
		cmd := exec.Command("git", "check-ignore", "-q", "--no-index", f)
		cmd.Dir = root
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee) && ee.ExitCode() == 1: // not ignored
			out = append(out, f)
		default:
			t.Fatalf("git check-ignore %s: %v", f, err)
		}
	}
	return out
}

// TestUnignored: the check of leftovers against .gitignore can fail.
func TestUnignored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := checkoutRoot(t)
	got := unignored(t, root, []string{"sdc.db", "token", "h.json.lock", "published.csv", "not-ignored-by-sdcopt.csv", "docs/x.csv"})
	if want := []string{"not-ignored-by-sdcopt.csv", "docs/x.csv"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unignored = %q, want %q", got, want)
	}
}

// files lists the regular files under dir (relative, slash-separated).
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func contains(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

// freeAddr returns a loopback address with a port that was free just now.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// goBuild builds a command of the checkout with the test's build tags.
func goBuild(t *testing.T, root, out, pkg string) {
	t.Helper()
	if err := build(root, out, pkg); err != nil {
		t.Fatal(err)
	}
}

func build(root, out, pkg string) error {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	args := []string{"build"}
	if tags := buildTags(); tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, "-o", out, pkg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = root
	b, err := cmd.CombinedOutput()
	if err != nil {
		return &buildError{args: args, err: err, out: string(b)}
	}
	return nil
}

type buildError struct {
	args []string
	err  error
	out  string
}

func (e *buildError) Error() string {
	return "go " + strings.Join(e.args, " ") + ": " + e.err.Error() + "\n" + e.out
}

// buildTags returns the -tags this test binary was built with, so that
// the commands are built as the rest of the suite (lpsolve coin in make
// test).
func buildTags() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == "-tags" {
			return s.Value
		}
	}
	return ""
}

// checkoutRoot returns the module's directory, two levels above.
func checkoutRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(mod), "\n"); strings.TrimSpace(first) != "module github.com/sdcopt/sdcopt" {
		t.Fatalf("%s/go.mod starts with %q", root, first)
	}
	return root
}
