package tabular

import (
	"errors"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

// regionHRC is a two-level τ-ARGUS hierarchy: Total → N, S; N → N1, N2;
// S → S1, S2, S3 (8 codes, 3 of them totals).
const regionHRC = "N\n@N1\n@N2\nS\n@S1\n@S2\n@S3\n"

func TestReadHRC(t *testing.T) {
	h, err := ReadHRC(strings.NewReader(regionHRC), "region.hrc", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Total", "N", "N1", "N2", "S", "S1", "S2", "S3"}
	if got := h.Codes(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("codes %v, want %v", got, want)
	}
	s1, _ := h.Index("S1")
	if p := h.Code(h.Parent(s1)); p != "S" || h.Depth(s1) != 2 || !h.IsLeaf(s1) {
		t.Errorf("S1: parent %q depth %d leaf %v, want S 2 true", p, h.Depth(s1), h.IsLeaf(s1))
	}
	if n := len(h.Children(0)); n != 2 {
		t.Errorf("root has %d children, want 2", n)
	}
	// A custom marker and root, a byte-order mark, CRLF line ends and a blank line.
	h2, err := ReadHRC(strings.NewReader("\ufeffN\r\n..N1\r\n\r\nS\r\n"), "x.hrc", &HRCSettings{Root: "All", Marker: ".."})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h2.Codes(), " "); got != "All N N1 S" {
		t.Errorf("codes %q, want \"All N N1 S\"", got)
	}
}

// checkDataError checks that err is a *datasets.DataError at file:line
// wrapping ErrHierarchy whose message contains msg.
func checkDataError(t *testing.T, err error, file string, line int, msg string) {
	t.Helper()
	var de *datasets.DataError
	if !errors.As(err, &de) {
		t.Fatalf("error %v is not a *datasets.DataError", err)
	}
	if de.File != file || de.Line != line || !strings.Contains(de.Error(), msg) || !errors.Is(err, ErrHierarchy) {
		t.Errorf("error %q (file %q line %d), want file %q line %d containing %q wrapping ErrHierarchy",
			err, de.File, de.Line, file, line, msg)
	}
}

func TestReadHRCErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"orphan", "N\n@@N1\n", 2, "orphan"},
		{"first line too deep", "@N1\n", 1, "orphan"},
		{"twice", "N\n@N1\n@N1\n", 3, `"N1" twice (first on line 2)`},
		{"twice across branches", "N\n@X\nS\n@X\n", 4, "twice"},
		{"empty code", "N\n@ \n", 2, "empty code"},
		{"root again", "Total\n", 1, "root"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadHRC(strings.NewReader(c.text), "bad.hrc", nil)
			checkDataError(t, err, "bad.hrc", c.line, c.msg)
		})
	}
}

func TestReadParentChild(t *testing.T) {
	// One top code: it is the root.
	h, err := ReadParentChild(strings.NewReader("parent,child\nAll,N\nN,N1\nAll,S\nN,N2\n"), "pc.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Codes(), " "); got != "All N N1 N2 S" {
		t.Errorf("codes %q, want \"All N N1 N2 S\"", got)
	}
	// Children listed before their parents; two top codes under the implicit Total.
	h, err = ReadParentChild(strings.NewReader("p;c\nN;N1\nS;S1\n"), "pc.csv", &PCSettings{Sep: ';'})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Codes(), " "); got != "Total N N1 S S1" {
		t.Errorf("codes %q, want \"Total N N1 S S1\"", got)
	}
	for _, c := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"two parents", "parent,child\nT,N\nT,S\nN,X\nS,X\n", 5, `"X" twice (first on line 4)`},
		{"cycle below the root", "parent,child\nT,N\nA,B\nB,A\n", 3, "cycle"},
		{"all a cycle", "parent,child\nA,B\nB,A\n", 2, "cycle"},
		{"self loop", "parent,child\nT,N\nN,N\n", 3, "twice"},
		{"empty child", "parent,child\nT,N\nN, \n", 3, `column "child": empty code`},
		{"empty parent", "parent,child\nT,N\n,N1\n", 3, `column "parent": empty code`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadParentChild(strings.NewReader(c.text), "pc.csv", nil)
			checkDataError(t, err, "pc.csv", c.line, c.msg)
		})
	}
}

func TestPrefixHierarchy(t *testing.T) {
	ls, err := ParseLengths("1,3")
	if err != nil {
		t.Fatal(err)
	}
	h, err := PrefixHierarchy("", []string{"101", "102", "201"}, ls)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Codes(), " "); got != "Total 1 101 102 2 201" {
		t.Errorf("codes %q, want \"Total 1 101 102 2 201\"", got)
	}
	if _, err := PrefixHierarchy("", []string{"101", "20"}, ls); !errors.Is(err, ErrHierarchy) || !strings.Contains(err.Error(), `"20"`) {
		t.Errorf("short code: error %v, want ErrHierarchy naming \"20\"", err)
	}
	for _, bad := range []string{"3,1", "0,2", "1,x", ""} {
		if _, err := ParseLengths(bad); !errors.Is(err, ErrHierarchy) {
			t.Errorf("ParseLengths(%q): error %v, want ErrHierarchy", bad, err)
		}
	}
}

func TestNewFlatAndPairs(t *testing.T) {
	if _, err := NewFlat("", []string{"a", "b", "a"}); !errors.Is(err, ErrHierarchy) {
		t.Errorf("repeated leaf: error %v, want ErrHierarchy", err)
	}
	h, err := NewHierarchy("T", []string{"T", "T", "A"}, []string{"A", "B", "A1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Codes(), " "); got != "T A A1 B" {
		t.Errorf("codes %q, want \"T A A1 B\"", got)
	}
	if _, err := NewHierarchy("T", []string{"T", "Z"}, []string{"A", "B"}); !errors.Is(err, ErrHierarchy) || !strings.Contains(err.Error(), "orphan") {
		t.Errorf("undefined parent: error %v, want an orphan", err)
	}
}
