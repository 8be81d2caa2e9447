package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/pipeline"
)

// listDir returns the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// qiCSVBytes is a data file of n synthetic records with Adult's eight
// quasi-identifiers; it returns the bytes, --qi and --categorical.
func qiCSVBytes(n int, seed uint64) ([]byte, string, string) {
	q := pipeline.QIDataOf(datasets.SyntheticQI(n, seed))
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(q.Header)
	w.WriteAll(q.Records)
	return b.Bytes(), strings.Join(q.Header, ","), strings.Join(q.Header[2:], ",")
}

// numericCSVBytes is a data file of n records with two numeric columns a
// and b.
func numericCSVBytes(n int) []byte {
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,%d.%d\n", i%53, i%7, i%10)
	}
	return []byte(b.String())
}

// TestWorkDirKeepsInputs: issue 44, item 1. With --work-dir DIR holding
// the data file under a name the run used to write there (input.txt, the
// staged input; pub-000000.csv and graph-000000.csv, a part's files), or
// with --work-dir . in the data's directory, the run exited 0 after
// replacing the data by its staging file, and left the staged data
// behind. The data must be unchanged and DIR must hold exactly what it
// held before the run.
func TestWorkDirKeepsInputs(t *testing.T) {
	qiData, qi, cat := qiCSVBytes(600, 3)
	numData := numericCSVBytes(300)
	for _, tc := range []struct {
		name, file string
		kanon      bool
		dot        bool // --work-dir . run in DIR
	}{
		{name: "microagg input.txt", file: "input.txt"},
		{name: "kanon input.txt", file: "input.txt", kanon: true},
		{name: "kanon pub-000000.csv", file: "pub-000000.csv", kanon: true},
		{name: "kanon graph-000000.csv", file: "graph-000000.csv", kanon: true},
		{name: "microagg micro-part-000000.gob", file: "micro-part-000000.gob"},
		{name: "kanon work-dir .", file: "input.txt", kanon: true, dot: true},
		{name: "microagg work-dir .", file: "data.csv", dot: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, outDir := t.TempDir(), t.TempDir()
			data := numData
			if tc.kanon {
				data = qiData
			}
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			before := listDir(t, dir)
			work := dir
			if tc.dot {
				t.Chdir(dir)
				path, work = tc.file, "."
			}
			var args []string
			if tc.kanon {
				args = []string{"kanon", "--data", path, "--qi", qi, "--categorical", cat, "--k", "3", "--coarse", "300", "--partition", "100",
					"--out", filepath.Join(outDir, "pub.csv"), "--graph-out", filepath.Join(outDir, "graph.csv")}
			} else {
				args = []string{"microagg", "--data", path, "--cols", "a,b", "--k", "3", "--coarse", "200", "--out", filepath.Join(outDir, "prot.csv")}
			}
			if _, err := run(append(args, "--work-dir", work)...); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("the data file %s was changed by the run (%d bytes, was %d; starts %.40q)", tc.file, len(got), len(data), got)
			}
			if after := listDir(t, dir); !slices.Equal(after, before) {
				t.Errorf("work directory held %v before the run, %v after", before, after)
			}
		})
	}
}

// TestOutputNeverSharedInput: issue 44, item 1 (outputs never replace an
// input). --data adult or a CASC name reads a file of the shared data
// directory: an output naming that file must be refused (exit 2) before
// anything runs, as an output naming a --data file is. The shared
// directory is a stand-in here, so that a failure cannot touch the real
// data.
func TestOutputNeverSharedInput(t *testing.T) {
	shared := t.TempDir()
	t.Setenv(datasets.DataDirEnv, shared)
	for _, name := range []string{"adult.csv", "census.csv"} {
		if err := os.WriteFile(filepath.Join(shared, name), []byte("stand-in\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	adult, census := filepath.Join(shared, "adult.csv"), filepath.Join(shared, "census.csv")
	other := filepath.Join(t.TempDir(), "x.csv")
	for _, args := range [][]string{
		{"kanon", "--data", "adult", "--k", "3", "--out", adult},
		{"kanon", "--data", "ADULT", "--k", "3", "--out", other, "--graph-out", adult},
		{"kanon", "--data", "adult", "--qi", "age,sex", "--k", "3", "--out", adult},
		{"microagg", "--data", "census", "--k", "3", "--out", census},
	} {
		_, err := run(args...)
		if cli.Code(err) != cli.ExitBadInput || err == nil || !strings.Contains(err.Error(), "refusing to overwrite an input") {
			t.Errorf("%v: exit %d (%v), want 2 refusing to overwrite the input", args, cli.Code(err), err)
		}
	}
	for _, p := range []string{adult, census} {
		if b, _ := os.ReadFile(p); string(b) != "stand-in\n" {
			t.Errorf("%s changed: %q", p, b)
		}
	}
}

// TestNothingLeftInTMPDIR: issue 44, items 1 and 7 (temporaries removed
// on every exit path). A run on the prism runner left an empty
// beamloopbackworker-* file of Beam's in $TMPDIR per pipeline; nothing
// of a finished run may stay there.
func TestNothingLeftInTMPDIR(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out := t.TempDir()
	for _, args := range [][]string{
		{"microagg", "--data", "synthetic:gauss-300-2-3", "--k", "3", "--coarse", "200", "--out", filepath.Join(out, "p.csv")},
		{"kanon", "--synthetic", "400", "--k", "3", "--method", "greedy", "--coarse", "200", "--partition", "100", "--out", filepath.Join(out, "pub.csv")},
	} {
		if _, err := run(args...); err != nil {
			t.Fatal(err)
		}
		if left := listDir(t, tmp); len(left) > 0 {
			t.Errorf("%s left in $TMPDIR: %v", args[0], left)
		}
	}
}
