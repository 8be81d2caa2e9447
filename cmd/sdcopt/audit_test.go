package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/internal/filelock"
)

func TestAuditDemo(t *testing.T) {
	var buf bytes.Buffer
	if err := runAuditDemo(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"released", "denied", "simulated", "implied by release"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// sdcopt audit --update appends releases atomically; bad input leaves the
// history file unchanged with exit 2.
func TestAuditCLI(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	hist := filepath.Join(dir, "h.json")
	if _, msg, code := run(t, "audit", "--table", csv, "--history", hist, "--request", "BF"); code != 2 || !strings.Contains(msg, "no such file") {
		t.Errorf("missing history without --create: exit %d %q", code, msg)
	}
	for i, req := range []string{"BF", "ABCE", "ADE"} {
		out, msg, code := run(t, "audit", "--table", csv, "--history", hist, "--request", req, "--update", "--create", "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", req, code, msg)
		}
		var d struct {
			Outcome  string `json:"outcome"`
			Operator *struct {
				Explanation string `json:"explanation"`
			} `json:"operator"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if d.Outcome != "released" || d.Operator == nil || d.Operator.Explanation == "" {
			t.Errorf("%s: %s", req, out)
		}
		b, _ := os.ReadFile(hist)
		if n := strings.Count(string(b), `"margin"`); n != i+1 {
			t.Errorf("after %s: %d releases in the history", req, n)
		}
	}
	// The whole table is denied; the public answer says nothing else.
	out, msg, code := run(t, "audit", "--table", csv, "--history", hist, "--request", "ABCDEF", "--public", "--format", "json", "--update")
	if code != 0 || !strings.Contains(out, `"denied"`) || strings.Contains(out, "operator") || strings.Contains(out, "counts") {
		t.Errorf("denial: exit %d %q %s", code, out, msg)
	}
	before, _ := os.ReadFile(hist)
	bad := []struct {
		name string
		args []string
		msg  string
	}{
		{"unknown variable", []string{"--request", "AZ"}, `"Z"`},
		{"negative width", []string{"--request", "AB", "--policy", "min_width=-1"}, "min_width"},
		{"bad mode", []string{"--request", "AB", "--mode", "publish"}, "--mode"},
		{"history not JSON", []string{"--request", "AB", "--history", writeTemp(t, "bad.json", "{nope")}, "bad.json"},
		{"history of another table", []string{"--request", "AB", "--history", writeTemp(t, "other.json", `{"version":1,"vars":[{"name":"A","levels":["x"]}],"releases":[]}`)}, "variables"},
	}
	for _, c := range bad {
		args := append([]string{"audit", "--table", csv, "--history", hist, "--update"}, c.args...)
		_, msg, code := run(t, args...)
		if code != 2 || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: exit %d %q, want 2 containing %q", c.name, code, msg, c.msg)
		}
		if after, _ := os.ReadFile(hist); !bytes.Equal(before, after) {
			t.Errorf("%s: history file changed", c.name)
		}
	}
	// A release marked true with values that are not the table's.
	var doc map[string]any
	json.Unmarshal(before, &doc)
	rel := doc["releases"].([]any)[0].(map[string]any)
	counts := rel["counts"].([]any)
	counts[0], counts[1] = counts[0].(float64)+1, counts[1].(float64)-1
	lie, _ := json.Marshal(doc)
	liePath := writeTemp(t, "lie.json", string(lie))
	if _, msg, code := run(t, "audit", "--table", csv, "--history", liePath, "--request", "AB", "--update"); code != 2 || !strings.Contains(msg, "marked true") {
		t.Errorf("false release: exit %d %q", code, msg)
	}
	if after, _ := os.ReadFile(liePath); string(after) != string(lie) {
		t.Error("a rejected history was rewritten")
	}

	out, msg, code = run(t, "audit", "replay", "--table", csv, "--requests", "BF,ABCE,ADE,AB,ABCDEF", "--format", "json")
	if code != 0 {
		t.Fatalf("replay: exit %d %s", code, msg)
	}
	var rep struct {
		Decisions []struct {
			Decision struct {
				Outcome string `json:"outcome"`
			} `json:"decision"`
		} `json:"decisions"`
	}
	json.Unmarshal([]byte(out), &rep)
	var got []string
	for _, d := range rep.Decisions {
		got = append(got, d.Decision.Outcome)
	}
	if strings.Join(got, ",") != "released,released,released,released,denied" {
		t.Errorf("replay outcomes %v", got)
	}
}

func TestServeDemo(t *testing.T) {
	var buf bytes.Buffer
	if err := runServeDemo(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "skipped") {
		t.Skip(out)
	}
	for _, want := range []string{"-> released", "-> denied", "-> simulated", "retry: the stored decision", "5 public releases", "server stopped"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo lacks %q:\n%s", want, out)
		}
	}
}

// Two `audit --update` processes on one history, 20 rounds: every release
// a process announces is in the final file (none lost to a concurrent
// rewrite), the first run of a round creating the file (--create).
func TestAuditUpdateConcurrent(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	// [B:F] and [A:D:E] are released in either order (Dobra & Fienberg's
	// releases, see TestAuditCLI).
	margins := []string{"BF", "ADE"}
	for r := 0; r < rounds; r++ {
		hist := filepath.Join(dir, fmt.Sprintf("h%d.json", r))
		var wg sync.WaitGroup
		procs := make([]proc, len(margins))
		for i, m := range margins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				procs[i] = runSdcopt(t, dir, "audit", "--table", csv, "--history", hist, "--request", m, "--update", "--create", "--public")
			}()
		}
		wg.Wait()
		b, err := os.ReadFile(hist)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		h, err := audit.ReadHistory(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		inFile := map[string]bool{}
		for _, rel := range h.Releases {
			inFile[strings.Join(rel.Margin, ":")] = true
		}
		announced := 0
		for i, p := range procs {
			if p.code != 0 {
				t.Fatalf("round %d %s: exit %d %s", r, margins[i], p.code, p.stderr)
			}
			if !strings.Contains(p.stdout, "RELEASED") {
				continue
			}
			announced++
			name := strings.Join(strings.Split(margins[i], ""), ":")
			if !inFile[name] {
				t.Errorf("round %d: [%s] printed RELEASED but the history holds %v", r, name, h.Releases)
			}
		}
		if announced != len(h.Releases) {
			t.Errorf("round %d: %d releases announced, %d in the file", r, announced, len(h.Releases))
		}
	}
}

// --update through a symbolic link writes the file it points to and keeps
// the link; a held lock makes a second run exit 2 naming the holder; an
// --out that is the (new) history is refused.
func TestAuditUpdateLinkAndLock(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	if _, msg, code := run(t, "audit", "--table", csv, "--history", real, "--request", "BF", "--update", "--create"); code != 0 {
		t.Fatal(msg)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if _, msg, code := run(t, "audit", "--table", csv, "--history", link, "--request", "ADE", "--update"); code != 0 {
		t.Fatalf("update through the link: exit %d %s", code, msg)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st, err)
	}
	if b, _ := os.ReadFile(real); strings.Count(string(b), `"margin"`) != 2 {
		t.Errorf("the target does not hold both releases:\n%s", b)
	}

	// The lock is on the history file itself (issue 44, item 9; it was
	// on real.json.lock, a file of its own).
	lock, err := filelock.Acquire(real, 0o600, 0)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(real)
	start := time.Now()
	p := runSdcopt(t, dir, "audit", "--table", csv, "--history", link, "--request", "AB", "--update", "--lock-wait", "0.3")
	lock.Release()
	if p.code != 2 || !strings.Contains(p.stderr, "another sdcopt audit --update") || !strings.Contains(p.stderr, fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("held lock: exit %d %q", p.code, p.stderr)
	}
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Errorf("gave up after %v, before --lock-wait", el)
	}
	if after, _ := os.ReadFile(real); !bytes.Equal(before, after) {
		t.Error("the history changed although the run did not get the lock")
	}

	fresh := filepath.Join(dir, "new.json")
	if _, msg, code := run(t, "audit", "--table", csv, "--history", fresh, "--update", "--create", "--request", "BF", "--out", fresh); code != 2 || !strings.Contains(msg, "same file") {
		t.Errorf("--out naming the new history: exit %d %q", code, msg)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a refused run created the history")
	}
}
