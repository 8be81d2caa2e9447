package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/internal/filelock"
)

func fileMode(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

// Issue 44, item 9: a history replaced by --update keeps its mode (it
// was turned 0644); a new one is created 0600, as it holds what was
// released from a confidential table.
func TestAuditUpdateKeepsMode(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	created := filepath.Join(dir, "new.json")
	if _, msg, code := run(t, "audit", "--table", csv, "--history", created, "--request", "BF", "--update", "--create"); code != 0 {
		t.Fatal(msg)
	}
	if m := fileMode(t, created); m != 0o600 {
		t.Errorf("a new history is created %#o, want 0600", m)
	}
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644} {
		hist := filepath.Join(dir, fmt.Sprintf("h%o.json", mode))
		b, _ := os.ReadFile(created)
		if err := os.WriteFile(hist, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(hist, mode); err != nil {
			t.Fatal(err)
		}
		if _, msg, code := run(t, "audit", "--table", csv, "--history", hist, "--request", "ADE", "--update"); code != 0 {
			t.Fatalf("%#o: %s", mode, msg)
		}
		if b2, _ := os.ReadFile(hist); bytes.Equal(b, b2) {
			t.Fatalf("%#o: the history was not updated", mode)
		}
		if m := fileMode(t, hist); m != mode {
			t.Errorf("a %#o history is %#o after --update", mode, m)
		}
	}
}

// Issue 44, item 9: the graph of kanon --graph-out (which published
// record each original became) is private: created 0600; the
// publication itself 0644; a file replaced keeps its mode.
func TestKanonGraphPrivate(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "qi.csv")
	if err := os.WriteFile(data, []byte(fixtureQI), 0o644); err != nil {
		t.Fatal(err)
	}
	pub, graph := filepath.Join(dir, "pub.csv"), filepath.Join(dir, "graph.csv")
	args := []string{"kanon", "--data", data, "--qi", "age,zip,sex", "--categorical", "sex", "--k", "2", "--out", pub, "--graph-out", graph}
	if _, msg, code := run(t, args...); code != 0 {
		t.Fatal(msg)
	}
	if m := fileMode(t, graph); m != 0o600 {
		t.Errorf("graph.csv is created %#o, want 0600", m)
	}
	if m := fileMode(t, pub); m != 0o644 {
		t.Errorf("the publication is created %#o, want 0644", m)
	}
	os.Chmod(graph, 0o640)
	os.Chmod(pub, 0o664)
	if _, msg, code := run(t, args...); code != 0 {
		t.Fatal(msg)
	}
	if m := fileMode(t, graph); m != 0o640 {
		t.Errorf("graph.csv replaced: %#o, want its 0640 kept", m)
	}
	if m := fileMode(t, pub); m != 0o664 {
		t.Errorf("the publication replaced: %#o, want its 0664 kept", m)
	}
}

// Issue 44, item 9: the lock of --update is the history file itself, so
// that every name of it (a symbolic link, a second hard link) shares it
// and no output can replace it: an --out named HISTORY.lock (the lock's
// former name) is an ordinary file, and a run still waits for the holder
// of the history. A history with a second hard link is refused (an
// update replaces one name only, the other would keep the old history).
func TestAuditUpdateLocksTheFile(t *testing.T) {
	csv := autoworkersCSV(t)
	dir := t.TempDir()
	hist := filepath.Join(dir, "h.json")
	if _, msg, code := run(t, "audit", "--table", csv, "--history", hist, "--request", "BF", "--update", "--create", "--out", hist+".lock"); code != 0 {
		t.Fatal(msg)
	}
	lock, err := filelock.Acquire(hist, 0o600, 0)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(hist)
	p := runSdcopt(t, dir, "audit", "--table", csv, "--history", hist, "--request", "ADE", "--update", "--lock-wait", "0.2", "--out", hist+".lock")
	lock.Release()
	if p.code != 2 || !strings.Contains(p.stderr, "another sdcopt audit --update") {
		t.Errorf("a run while the history is held: exit %d %q, want 2", p.code, p.stderr)
	}
	if after, _ := os.ReadFile(hist); !bytes.Equal(before, after) {
		t.Error("the history changed although the run did not get its lock")
	}

	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(hist, hard); err != nil {
		t.Skip(err)
	}
	for _, name := range []string{hist, hard} {
		_, msg, code := run(t, "audit", "--table", csv, "--history", name, "--request", "ADE", "--update")
		if code != 2 || !strings.Contains(msg, "hard link") || !strings.Contains(msg, name) {
			t.Errorf("--update through %s with two hard links: exit %d %q, want 2", name, code, msg)
		}
	}
	for _, name := range []string{hist, hard} {
		if b, _ := os.ReadFile(name); !bytes.Equal(b, before) {
			t.Errorf("%s changed", name)
		}
	}
}

// Issue 44, item 9 (private outputs 0600), for bounds: with --table the
// result holds every cell's confidential count and the certificates hold
// the table and tables a few moves from it (the witnesses of the attained
// values), so both are created 0600; from released margin files alone
// (--margin-files) they hold only public data and are created 0644.
func TestBoundsOutputsPrivateWithTable(t *testing.T) {
	dir := t.TempDir()
	csv := autoworkersCSV(t)
	out, certs := filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	if _, msg, code := run(t, "bounds", "--table", csv, "--margins", "BF,ABCE,ADE", "--method", "certified",
		"--format", "json", "--out", out, "--certificates", certs); code != 0 {
		t.Fatal(msg)
	}
	for _, f := range []string{out, certs} {
		if m := fileMode(t, f); m != 0o600 {
			t.Errorf("bounds --table: %s is created %#o, want 0600", filepath.Base(f), m)
		}
	}
	ab := writeTemp(t, "ab.csv", "A,B,count\nx,p,3\nx,q,1\ny,p,0\ny,q,2\n")
	bc := writeTemp(t, "bc.csv", "B,C,count\np,u,2\np,v,1\nq,u,1\nq,v,2\n")
	pubOut, pubCerts := filepath.Join(dir, "m.json"), filepath.Join(dir, "mc.json")
	if _, msg, code := run(t, "bounds", "--margin-files", ab+","+bc, "--method", "certified",
		"--format", "json", "--out", pubOut, "--certificates", pubCerts); code != 0 {
		t.Fatal(msg)
	}
	for _, f := range []string{pubOut, pubCerts} {
		if m := fileMode(t, f); m != 0o644 {
			t.Errorf("bounds --margin-files: %s is created %#o, want 0644", filepath.Base(f), m)
		}
	}
}
