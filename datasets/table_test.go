package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

func writeTableFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadTableCSV(t *testing.T) {
	// Levels in order of first appearance; the missing cell (x, q) is 0.
	p := writeTableFile(t, "t.csv", "A,B,count\nb,p,1\na,q,2\nb,q,3.0\n")
	tab, err := LoadTableCSV(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Vars[0].Levels; strings.Join(got, ",") != "b,a" {
		t.Errorf("A levels %v, want [b a]", got)
	}
	want := []int64{1, 3, 0, 2} // (b,p) (b,q) (a,p) (a,q)
	for i, c := range want {
		if tab.Counts[i] != c {
			t.Errorf("counts %v, want %v", tab.Counts, want)
			break
		}
	}
	// --vars B,A reorders; --vars B collapses.
	tb, err := LoadTableCSV(p, []string{"B", "A"})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Vars[0].Name != "B" || tb.Counts[1] != 0 || tb.Counts[2] != 3 || tb.Counts[3] != 2 {
		t.Errorf("B,A table %v %v", tb.Vars, tb.Counts)
	}
	t1, err := LoadTableCSV(p, []string{"B"})
	if err != nil {
		t.Fatal(err)
	}
	if len(t1.Counts) != 2 || t1.Counts[0] != 1 || t1.Counts[1] != 5 {
		t.Errorf("B table %v", t1.Counts)
	}
}

func TestLoadTableCSVErrors(t *testing.T) {
	cases := []struct {
		name, text string
		vars       []string
		line       int
		col, msg   string
	}{
		{"empty", "", nil, 0, "", "empty file"},
		{"header only", "A,count\n", nil, 1, "", "empty table"},
		{"no count", "A,B\nx,y\n", nil, 1, "", `no count column: none is named "count", "Freq" or "n"`},
		{"two counts", "A,Freq,count\nx,1,2\n", nil, 1, "", `two count columns, "Freq" (column 2) and "count" (column 3): name the count column (--count)`},
		{"Freq and n", "n,Freq\n1,2\n", nil, 1, "", `two count columns, "n" (column 1) and "Freq" (column 2)`},
		{"count only", "count\n3\n", nil, 1, "", "no variable columns"},
		{"negative", "A,count\nx,1\ny,-2\n", nil, 3, "count", "negative count"},
		{"fraction", "A,count\nx,1.5\n", nil, 2, "count", "not an integer"},
		{"text count", "A,count\nx,lots\n", nil, 2, "count", "not a number"},
		{"missing count", "A,count\nx,\n", nil, 2, "count", "missing count"},
		// Go literal syntax is not a count (strconv.ParseFloat reads these
		// as 10, 8 and 1000; ParseInt with base 0 reads 0x10 as 16).
		{"digit separator count", "A,count\nx,1\ny,1_0\n", nil, 3, "count", `count "1_0" is not a number (numbers are read in plain decimal or scientific notation`},
		{"hex float count", "A,count\nx,0x1p3\n", nil, 2, "count", `count "0x1p3" is not a number (numbers are read`},
		{"hex count", "A,count\nx,0x10\n", nil, 2, "count", `count "0x10" is not a number (numbers are read`},
		{"separated float count", "A,count\nx,1_000.0\n", nil, 2, "count", "is not a number"},
		{"infinite count", "A,count\nx,Inf\n", nil, 2, "count", `count "Inf" is not a number`},
		{"duplicate cell", "A,B,count\nx,y,1\nx,z,1\nx,y,2\n", nil, 4, "", "duplicate cell A=x,B=y (first on line 2)"},
		{"empty label", "A,count\n ,1\n", nil, 2, "A", "empty category label"},
		{"ragged", "A,count\nx,1,2\n", nil, 2, "", "ragged"},
		{"dup column", "A,A,count\nx,y,1\n", nil, 1, "A", "duplicate column"},
		// Non-UTF-8 text (Latin-1 "é" is the byte 0xe9) would print as
		// U+FFFD in JSON, two distinct labels alike.
		{"latin-1 label", "A,count\ncaf\xe9,1\nna\xefve,2\n", nil, 2, "A", `category label "caf\xe9" is not UTF-8 text`},
		{"latin-1 label later", "A,B,count\nx,y,1\nx,\xff,2\n", nil, 3, "B", `category label "\xff" is not UTF-8 text`},
		{"latin-1 variable", "\xc5r,count\nx,1\n", nil, 1, "", `column 1 has the name "\xc5r", which is not UTF-8 text`},
		{"unknown var", "A,count\nx,1\n", []string{"Z"}, 0, "", `unknown variable "Z"`},
		{"var twice", "A,count\nx,1\n", []string{"A", "A"}, 0, "", "selected twice"},
	}
	for _, c := range cases {
		p := writeTableFile(t, "bad.csv", c.text)
		_, err := LoadTableCSV(p, c.vars)
		var de *DataError
		if !errors.As(err, &de) {
			t.Errorf("%s: err = %v, want *DataError", c.name, err)
			continue
		}
		if de.File != p || de.Line != c.line || de.Column != c.col || !strings.Contains(de.Msg, c.msg) {
			t.Errorf("%s: got %q (line %d, column %q), want line %d column %q containing %q",
				c.name, err, de.Line, de.Column, c.line, c.col, c.msg)
		}
	}
}

func TestMergeMargins(t *testing.T) {
	ab := writeTableFile(t, "ab.csv", "A,B,count\nx,p,1\nx,q,2\ny,p,3\n")
	bc := writeTableFile(t, "bc.csv", "C,B,count\nu,p,4\nu,q,2\n")
	ms, err := LoadMarginFiles([]string{ab, bc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ms.Name() != "[AB] [BC]" {
		t.Errorf("margins %s", ms.Name())
	}
	if err := ms.Check(); err != nil {
		t.Errorf("consistent margins: %v", err)
	}
	// [BC] counts are re-ordered to (B, C): (p,u)=4, (q,u)=2.
	if m := ms.Margins[1]; m.Counts[0] != 4 || m.Counts[1] != 2 {
		t.Errorf("[BC] counts %v", m.Counts)
	}
	// --vars orders the variables.
	ms2, err := LoadMarginFiles([]string{ab, bc}, []string{"C", "B", "A"})
	if err != nil {
		t.Fatal(err)
	}
	if ms2.Vars[0].Name != "C" || ms2.Name() != "[BA] [CB]" {
		t.Errorf("vars %v margins %s", ms2.Vars, ms2.Name())
	}
	// A level of B missing from one margin is a zero cell there: the
	// margins then disagree, which Check reports as an inconsistency.
	bc2 := writeTableFile(t, "bc2.csv", "B,C,count\np,u,4\nr,u,2\n")
	ms3, err := LoadMarginFiles([]string{ab, bc2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ie *model.InconsistencyError
	if err := ms3.Check(); !errors.As(err, &ie) {
		t.Errorf("levels differ: Check = %v, want *model.InconsistencyError", err)
	}
	// Errors: the same margin twice, --vars missing a variable.
	if _, err := LoadMarginFiles([]string{ab, ab}, nil); err == nil || !strings.Contains(err.Error(), "also given by") {
		t.Errorf("duplicate margin: err = %v", err)
	}
	if _, err := LoadMarginFiles([]string{ab, bc}, []string{"A", "B"}); err == nil || !strings.Contains(err.Error(), "missing C") {
		t.Errorf("--vars without C: err = %v", err)
	}
	if _, err := LoadMarginFiles(nil, nil); err == nil {
		t.Error("no files: no error")
	}
}

// TestDecimalNotation: numbers in decimal and scientific notation are read
// as written, in microdata cells and in counts.
func TestDecimalNotation(t *testing.T) {
	tab, err := ReadCSV(strings.NewReader("a,b\n1.5e1,-2\n+3,.5\n1E2,5.\n"), "in.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{15, -2, 3, 0.5, 100, 5}
	for i, v := range want {
		if tab.Data.X[i] != v {
			t.Errorf("value %d = %v, want %v", i, tab.Data.X[i], v)
		}
	}
	tb, err := ReadTableCSV(strings.NewReader("A,count\nx,1e1\ny,12.0\nz,+3\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.Counts; len(got) != 3 || got[0] != 10 || got[1] != 12 || got[2] != 3 {
		t.Errorf("counts %v, want [10 12 3]", got)
	}
}

// TestLoadTableCSVCollapsesWhileReading: a 2-row file over 40 variables
// (2^40 cells in full, far over the memory limit) is read onto 3 of them
// without materializing the full table, duplicates of the full
// combination are still refused, and the collapsed counts are the sums.
func TestLoadTableCSVCollapsesWhileReading(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		b.WriteString("V" + strconv.Itoa(i) + ",")
	}
	b.WriteString("count\n")
	for r := range 2 {
		for range 40 {
			b.WriteString(strconv.Itoa(r) + ",")
		}
		b.WriteString(strconv.Itoa(5+r) + "\n")
	}
	p := writeTableFile(t, "wide.csv", b.String())
	if _, err := LoadTableCSV(p, nil); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("full table: err = %v, want ErrTooLarge", err)
	}
	tab, err := LoadTableCSV(p, []string{"V2", "V0", "V1"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Vars[0].Name != "V2" || len(tab.Counts) != 8 || tab.Counts[0] != 5 || tab.Counts[7] != 6 || tab.Total() != 11 {
		t.Errorf("collapsed table %v %v", tab.Vars, tab.Counts)
	}
	// Two rows that agree on the selected variables but not elsewhere add up.
	p2 := writeTableFile(t, "sum.csv", "A,B,C,count\nx,p,1,2\nx,p,2,3\ny,q,1,4\n")
	t2, err := LoadTableCSV(p2, []string{"A"})
	if err != nil {
		t.Fatal(err)
	}
	if t2.Counts[0] != 5 || t2.Counts[1] != 4 {
		t.Errorf("A counts %v, want [5 4]", t2.Counts)
	}
	// A full duplicate is refused even when collapsed.
	p3 := writeTableFile(t, "dup.csv", "A,B,count\nx,p,2\nx,p,3\n")
	var de *DataError
	if _, err := LoadTableCSV(p3, []string{"A"}); !errors.As(err, &de) || de.Line != 3 || !strings.Contains(err.Error(), "duplicate cell A=x,B=p") {
		t.Errorf("duplicate: err = %v", err)
	}
	names, err := TableVarNames(p2, nil)
	if err != nil || strings.Join(names, ",") != "A,B,C" {
		t.Errorf("TableVarNames = %v, %v", names, err)
	}
}
