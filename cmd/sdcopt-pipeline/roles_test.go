package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// readCSV reads a whole CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

// TestMicroaggRoles: issue 44 (found while fixing item 8). sdcopt-pipeline
// microagg --out wrote every column of the input, the ones it did not
// microaggregate unchanged: the record ids and columns nobody classified
// were published. As sdcopt microagg: --cols are the quasi-identifiers,
// --identifier columns are removed, --sensitive and --insensitive columns
// are published unchanged once the leak check passes (one that copies a
// quasi-identifier stops the run, exit 2, naming it, unless named with
// --keep-risky), and columns in no role are not published.
func TestMicroaggRoles(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "people.csv")
	var b strings.Builder
	b.WriteString("id,x,y,disease,note,xcopy\n")
	for i := range 60 {
		x := []string{"0.91", "0.92", "0.95", "1.07", "0.33", "2.18", "0.05"}[i%7]
		fmt.Fprintf(&b, "p%03d,%s,%d,%s,n%d,%s\n", i, x, 10+i%5, []string{"flu", "cold", "none"}[i%3], i%2, x)
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"microagg", "--data", data, "--cols", "x,y", "--k", "3", "--coarse", "30"}

	// No role flag: only the microaggregated columns are published.
	out := filepath.Join(dir, "bare.csv")
	if _, err := run(append(base, "--out", out)...); err != nil {
		t.Fatal(err)
	}
	if h := readCSV(t, out)[0]; !slices.Equal(h, []string{"x", "y"}) {
		t.Fatalf("without role flags the published header is %v, want [x y]: no identifier, no column in no role", h)
	}

	// The roles: id removed, disease published unchanged, note and xcopy
	// (in no role) not published.
	out = filepath.Join(dir, "roles.csv")
	roles := []string{"--identifier", "id", "--sensitive", "disease", "--out", out}
	text, err := run(append(base, roles...)...)
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, out)
	if !slices.Equal(recs[0], []string{"x", "y", "disease"}) {
		t.Fatalf("published header %v, want [x y disease]", recs[0])
	}
	for i, rec := range recs[1:] {
		if want := []string{"flu", "cold", "none"}[i%3]; rec[2] != want {
			t.Fatalf("record %d: disease %q, want %q unchanged", i+1, rec[2], want)
		}
	}
	if !strings.Contains(text, "published x, y, disease") || !strings.Contains(text, "identifiers id; in no role note, xcopy") {
		t.Fatalf("the report does not say what was published:\n%s", text)
	}
	js, err := run(append(base, append(roles, "--format", "json")...)...)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Published []string `json:"published_columns"`
		Dropped   []string `json:"dropped_columns"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if !slices.Equal(doc.Published, []string{"x", "y", "disease"}) || !slices.Equal(doc.Dropped, []string{"id", "note", "xcopy"}) {
		t.Fatalf("JSON published_columns %v, dropped_columns %v", doc.Published, doc.Dropped)
	}

	// A sensitive column that copies a quasi-identifier: refused before
	// anything is written, unless --keep-risky.
	out = filepath.Join(dir, "leak.csv")
	leak := append(slices.Clone(base), "--identifier", "id", "--sensitive", "disease,xcopy", "--out", out)
	_, err = run(leak...)
	if cli.Code(err) != cli.ExitBadInput {
		t.Fatalf("--sensitive xcopy (a copy of x): exit %d (%v), want 2", cli.Code(err), err)
	}
	named := false
	for _, line := range strings.Split(err.Error(), "\n") {
		named = named || strings.Contains(line, `column "xcopy" (determines)`) && strings.Contains(line, "xcopy determines x")
	}
	if !named || !strings.Contains(err.Error(), "--keep-risky xcopy") {
		t.Fatalf("the refusal does not name xcopy and --keep-risky:\n%v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a refused run wrote --out")
	}
	if _, err := run(append(leak, "--keep-risky", "xcopy")...); err != nil {
		t.Fatalf("--keep-risky xcopy: %v", err)
	}
	recs = readCSV(t, out)
	if !slices.Equal(recs[0], []string{"x", "y", "disease", "xcopy"}) {
		t.Fatalf("--keep-risky xcopy: published header %v", recs[0])
	}

	// Bad role flags: exit 2, naming the flag.
	for _, c := range []struct{ args []string }{
		{[]string{"--identifier", "nosuch"}},
		{[]string{"--sensitive", "x"}},
		{[]string{"--keep-risky", "note"}},
	} {
		_, err := run(append(slices.Clone(base), c.args...)...)
		if cli.Code(err) != cli.ExitBadInput || !strings.Contains(err.Error(), c.args[0]) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: exit %d (%v), want 2 with one line naming %s", c.args, cli.Code(err), err, c.args[0])
		}
	}
}
