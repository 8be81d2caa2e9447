package readmetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	md := "# T\n\n```sh\nsdcopt version\n```\n\ntext\n\n" +
		"<!-- readme-test: skip installs packages -->\n```sh\nmake deps\n```\n" +
		"```\noutput, not run\n```\n" +
		"<!-- readme-test: long; creates a.csv b.csv; prints ok:  two  spaces; prints x -->\n```sh\nsdcopt kanon --data adult \\\n  --k 5\n```\n" +
		"```go\npackage main\n```\n" +
		"<!-- readme-test: background 127.0.0.1:8080; pipeline; slow minutes -->\n```sh\nsdcopt serve --addr 127.0.0.1:8080\n```\n"
	blocks, err := Parse("T.md", md)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{
		{File: "T.md", Line: 3, Code: "sdcopt version\n"},
		{File: "T.md", Line: 10, Code: "make deps\n", Skip: "installs packages"},
		{File: "T.md", Line: 17, Code: "sdcopt kanon --data adult \\\n  --k 5\n", Long: true, Data: true, Creates: []string{"a.csv", "b.csv"}, Prints: []string{"ok:  two  spaces", "x"}},
		{File: "T.md", Line: 25, Code: "sdcopt serve --addr 127.0.0.1:8080\n", Background: "127.0.0.1:8080", Pipeline: true, Slow: "minutes"},
	}
	if !reflect.DeepEqual(blocks, want) {
		t.Errorf("Parse:\n%+v\nwant\n%+v", blocks, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ md, want string }{
		{"```bash\nls\n```\n", "T.md:1: a ```bash block"},
		{"```sh\nls\n", "T.md:1: the ``` block opened here is not closed"},
		{"<!-- readme-test: skip why -->\n\n```sh\nls\n```\n", "T.md:1: a readme-test marker must be on the line just above"},
		{"<!-- readme-test: skip why -->\n```go\nx\n```\n", "T.md:1: a readme-test marker must be on the line just above a ```sh fence, not ```go"},
		{"<!-- readme-test: quick -->\n```sh\nls\n```\n", `unknown readme-test marker word "quick"`},
		{"<!-- readme-test: skip -->\n```sh\nls\n```\n", "readme-test skip needs a reason"},
		{"<!-- readme-test: long\n```sh\nls\n```\n", "must end with -->"},
		{"<!-- readme-test: creates -->\n```sh\nls\n```\n", "creates needs at least one file"},
		{"<!-- readme-test: prints -->\n```sh\nls\n```\n", "prints needs a text"},
		{"text\n```sh\n\n```\n", "T.md:2: an empty ```sh block"},
		{"<!-- readme-test: long -->\n", "T.md:1: a readme-test marker must be on the line just above"},
	} {
		_, err := Parse("T.md", c.md)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", c.md, err, c.want)
		}
	}
}

func TestUsesSharedData(t *testing.T) {
	for code, want := range map[string]bool{
		"sdcopt kanon --data adult --k 5":                  true,
		"sdcopt bench icsm --data tarragona,census":        true,
		"sdcopt bounds --table ../shared/datasets/a.csv":   true,
		"sdcopt microagg --data synthetic:sim1 --k 3":      false,
		"sdcopt kanon --data docs/examples/people.csv":     false,
		"sdcopt microagg --data census.csv --cols a --k 3": false,
	} {
		if got := usesSharedData(code); got != want {
			t.Errorf("usesSharedData(%q) = %v, want %v", code, got, want)
		}
	}
}

// TestRunnerFails: the runner reports a failing command (also one that is
// not the block's last), a missing or empty output file and a server that
// exits early, and passes what works; so TestDocCommands can fail.
func TestRunnerFails(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Dir: dir, Env: os.Environ(), Timeout: 20 * time.Second}
	md := "```sh\nfalse\necho after\n```\n" + // stops at false (bash -e)
		"```sh\nfalse | cat\n```\n" + // pipefail
		"<!-- readme-test: creates out.txt -->\n```sh\ntrue\n```\n" +
		"<!-- readme-test: creates empty.txt -->\n```sh\n: > empty.txt\n```\n" +
		"<!-- readme-test: background 127.0.0.1:1 -->\n```sh\nexit 0\n```\n" +
		"<!-- readme-test: creates ok.txt; prints written -->\n```sh\necho fine > ok.txt\necho written\n```\n" +
		"<!-- readme-test: skip never -->\n```sh\nfalse\n```\n" +
		"<!-- readme-test: data -->\n```sh\nfalse\n```\n" +
		"<!-- readme-test: prints DENIED -->\n```sh\necho RELEASED\n```\n"
	blocks, err := Parse("T.md", md)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 9 {
		t.Fatalf("%d blocks, want 9", len(blocks))
	}
	for i, want := range []string{"T.md:1: exit status 1", "T.md:5: exit status 1", "should create out.txt", "left empty.txt empty", "exited before accepting"} {
		_, err := r.Run(blocks[i])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("block %d: Run = %v, want an error with %q", i, err, want)
		}
	}
	if skipped, err := r.Run(blocks[5]); err != nil || skipped != "" {
		t.Errorf("a working block: skipped %q, %v", skipped, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ok.txt")); err != nil || string(b) != "fine\n" {
		t.Errorf("ok.txt: %q, %v", b, err)
	}
	if _, err := r.Run(blocks[8]); err == nil || !strings.Contains(err.Error(), `the output does not contain "DENIED"`) {
		t.Errorf("a block without its expected output: Run = %v", err)
	}
	for _, b := range blocks[6:8] {
		if skipped, err := r.Run(b); err != nil || skipped == "" {
			t.Errorf("block at line %d: skipped %q, %v; want skipped", b.Line, skipped, err)
		}
	}
	// The server that exited is reported again when the servers stop.
	if err := r.Stop(); err == nil || !strings.Contains(err.Error(), "exited before the last block") {
		t.Errorf("Stop = %v, want the early exit", err)
	}
}

// TestRunnerBackground: a server block runs until Stop, with the address
// replaced by the runner's.
func TestRunnerBackground(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	py := "python3"
	if _, err := exec.LookPath(py); err != nil {
		t.Skip("needs python3 as a tiny server")
	}
	addr := freeAddr(t)
	_, port, _ := strings.Cut(addr, ":")
	r := &Runner{Dir: t.TempDir(), Env: os.Environ(), Addr: addr}
	blocks, err := Parse("T.md", "<!-- readme-test: background 127.0.0.1:8080 -->\n```sh\npython3 -m http.server --bind 127.0.0.1 "+port+"\n```\n"+
		"```sh\ncurl -sf http://127.0.0.1:8080/ > /dev/null\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if _, err := r.Run(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Stop(); err != nil {
		t.Error(err)
	}
}
