package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFilesCheck(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, name := range []string{"in.csv", "other.csv"} {
		if err := os.WriteFile(name, []byte("x\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link("in.csv", "hard.csv"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.csv", "sym.csv"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", "subl"); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("in.csv")
	cases := []struct {
		name string
		out  []string // flag, path pairs
		want string   // "" = accepted
	}{
		{"new file", []string{"--out", "new.csv"}, ""},
		{"existing other file", []string{"--out", "other.csv"}, ""},
		{"two outputs", []string{"--out", "a.csv", "--groups", "b.csv"}, ""},
		{"the input", []string{"--out", "in.csv"}, "--out in.csv is the input --data in.csv"},
		{"./input", []string{"--out", "./in.csv"}, "--out ./in.csv is the input"},
		{"absolute input", []string{"--out", abs}, "is the input"},
		{"through a directory", []string{"--out", "sub/../in.csv"}, "is the input"},
		{"hard link", []string{"--out", "hard.csv"}, "--out hard.csv is the input"},
		{"symbolic link", []string{"--out", "sym.csv"}, "--out sym.csv is a symbolic link"},
		{"linked directory", []string{"--out", "subl/x.csv", "--groups", "sub/x.csv"}, "--out subl/x.csv and --groups sub/x.csv are the same file"},
		{"same outputs", []string{"--out", "a.csv", "--groups", "./a.csv"}, "are the same file"},
		{"same flag twice", []string{"--out", "a.csv", "--out", "a.csv"}, "--out names the file a.csv twice"},
		{"missing directory", []string{"--out", "nodir/a.csv"}, "--out nodir/a.csv: directory nodir does not exist"},
		{"a directory", []string{"--out", "sub"}, "--out sub is a directory"},
		{"under a file", []string{"--out", "other.csv/a.csv"}, "other.csv is not a directory"},
		// A file that does not exist yet is compared by its path.
		{"a missing input", []string{"--out", "nothere.csv"}, "--out nothere.csv is the input --missing nothere.csv"},
		{"a missing input through ./", []string{"--out", "sub/../nothere.csv"}, "is the input --missing nothere.csv"},
		// Directories where access(2) lets root write but nothing can be
		// created: the run would compute, then fail to write.
		{"in /proc", []string{"--out", "/proc/x.csv"}, "--out /proc/x.csv: directory /proc is not writable"},
		{"in /sys", []string{"--out", "/sys/x.csv"}, "--out /sys/x.csv: directory /sys is not writable"},
		{"update, new", []string{"--update", "h.json"}, ""},
		{"update is an output", []string{"--update", "h.json", "--out", "./h.json"}, "--update h.json and --out ./h.json are the same file"},
		{"update is the input", []string{"--update", "in.csv"}, "--update in.csv is the input --data in.csv"},
		{"update in /proc", []string{"--update", "/proc/h.json"}, "directory /proc is not writable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f Files
			f.Input("--data", "in.csv")
			f.Input("--missing", "nothere.csv")
			for i := 0; i < len(c.out); i += 2 {
				if c.out[i] == "--update" {
					f.Update(c.out[i], c.out[i+1])
				} else {
					f.Output(c.out[i], c.out[i+1])
				}
			}
			err := f.Check()
			if tmp, _ := filepath.Glob(".*tmp*"); len(tmp) > 0 {
				t.Errorf("temporaries left: %v", tmp)
			}
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want one containing %q", err, c.want)
			case err != nil && Code(err) != ExitBadInput:
				t.Errorf("exit code %d, want %d", Code(err), ExitBadInput)
			}
		})
	}
}

func TestOutputsCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	var o Outputs
	if err := o.Write(a, func(w io.Writer) error { _, err := io.WriteString(w, "A"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves no temporary and no file.
	boom := errors.New("boom")
	err := o.Write(b, func(w io.Writer) error { return boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), b) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("write error %v: want boom naming %s and no temporary", err, b)
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("a.txt exists before the commit")
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "A" {
		t.Errorf("a.txt = %q", got)
	}
	if st, _ := os.Stat(a); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	var o2 Outputs
	if err := o2.Write(b, func(w io.Writer) error { _, err := io.WriteString(w, "B"); return err }); err != nil {
		t.Fatal(err)
	}
	o2.Abort()
	o2.Abort()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "a.txt" {
		t.Errorf("directory holds %v, want a.txt only", entries)
	}
	if len(temps) != 0 {
		t.Errorf("temporaries still registered: %v", temps)
	}
}

func TestWriteFileAtomicNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nodir", "x.csv")
	err := WriteFileAtomic(path, func(w io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %v: want one naming %s, not the temporary", err, path)
	}
}

func TestOutputsMkdir(t *testing.T) {
	dir := t.TempDir()
	figs := filepath.Join(dir, "a", "b")
	write := func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }
	var o Outputs
	if err := o.Mkdir(figs); err != nil {
		t.Fatal(err)
	}
	if err := o.Write(filepath.Join(figs, "f.svg"), write); err != nil {
		t.Fatal(err)
	}
	o.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("abort left %v", entries)
	}
	var o2 Outputs
	if err := o2.Mkdir(figs); err != nil {
		t.Fatal(err)
	}
	if err := o2.Write(filepath.Join(figs, "f.svg"), write); err != nil {
		t.Fatal(err)
	}
	if err := o2.Commit(); err != nil {
		t.Fatal(err)
	}
	o2.Abort()
	if b, err := os.ReadFile(filepath.Join(figs, "f.svg")); err != nil || string(b) != "x" {
		t.Errorf("committed file: %q, %v", b, err)
	}
	if len(temps) != 0 {
		t.Errorf("temporaries still registered: %v", temps)
	}
}
