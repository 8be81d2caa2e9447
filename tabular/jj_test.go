package tabular

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

func TestJJRoundTrip(t *testing.T) {
	tab := primaryTable(t, nil)
	if _, err := ApplyPrimary(tab, ruleSet(t, "freq:3,p:15")); err != nil {
		t.Fatal(err)
	}
	it, _ := tab.Lookup("Total")
	tab.Cells[it].Status = MustPublish
	tab.Cells[it].PriorLower, tab.Cells[it].PriorUpper, tab.Cells[it].Sliding = 100, 1000, 3
	ls := tab.Linear()
	var buf bytes.Buffer
	if err := WriteJJ(&buf, ls); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	// Cells in index order: Total, a, b, c. Cell a: p(15) with U = L = 10
	// (TestApplyPrimary); c is empty: z with bounds [0, 0]. One relation,
	// Total = a + b + c.
	want := "0\n4\n" +
		"0 185 185 z 100 1000 0 0 3\n" +
		"1 115 115 u 0 1e20 10 10 0\n" +
		"2 70 70 u 0 1e20 7 7 0\n" +
		"3 0 0 z 0 0 0 0 0\n" +
		"1\n0 4 : 0 (-1) 1 (1) 2 (1) 3 (1)\n"
	if text != want {
		t.Fatalf("JJ file\n%s\nwant\n%s", text, want)
	}
	back, err := ReadJJ(strings.NewReader(text), "t.jj")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range ls.Cells {
		b := back.Cells[i]
		if b.Value != c.Value || b.Cost != c.Cost || b.Status != c.Status || b.Lower != c.Lower || b.Upper != c.Upper ||
			b.Sliding != c.Sliding || b.PriorLower != c.PriorLower || b.PriorUpper != c.PriorUpper {
			t.Errorf("cell %d read back %+v, wrote %+v", i, b, c)
		}
	}
	if len(back.Relations) != len(ls.Relations) {
		t.Fatalf("%d relations read back, %d written", len(back.Relations), len(ls.Relations))
	}
	for q, r := range ls.Relations {
		b := back.Relations[q]
		if b.RHS != r.RHS || !slices.Equal(b.Cells, r.Cells) || !slices.Equal(b.Coefs, r.Coefs) {
			t.Errorf("relation %d read back %+v, wrote %+v", q, b, r)
		}
	}
	var again bytes.Buffer
	if err := WriteJJ(&again, back); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Errorf("a JJ file read and written back differs:\n%s", again.String())
	}
	// sdcTable writes terms as j(c) and rhs as 0.0; both read the same.
	alt := strings.Replace(text, "0 4 : 0 (-1) 1 (1) 2 (1) 3 (1)", "0.0 4 : 0(-1) 1(1) 2(1) 3(1)", 1)
	if b, err := ReadJJ(strings.NewReader(alt), "t.jj"); err != nil || !slices.Equal(b.Relations[0].Coefs, []float64{-1, 1, 1, 1}) {
		t.Errorf("sdcTable spelling: %v %+v", err, b)
	}
}

func TestJJTwoDimensionalRoundTrip(t *testing.T) {
	// A 2-D hierarchical table: the relations of both dimensions.
	tab, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t), &BuildSettings{Response: "turnover"})
	if err != nil {
		t.Fatal(err)
	}
	ls := tab.Linear()
	if len(ls.Relations) != tab.NumRelations() {
		t.Fatalf("%d relations, want %d", len(ls.Relations), tab.NumRelations())
	}
	var buf bytes.Buffer
	if err := WriteJJ(&buf, ls); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJJ(bytes.NewReader(buf.Bytes()), "t.jj")
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	WriteJJ(&again, back)
	if again.String() != buf.String() {
		t.Error("a JJ file read and written back differs")
	}
	// A system of the one table is the same linear system.
	sys, err := NewSystem([]*Table{tab}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sl := sys.Linear(); len(sl.Cells) != len(ls.Cells) || len(sl.Relations) != len(ls.Relations) {
		t.Errorf("system: %d cells, %d relations; table: %d, %d", len(sl.Cells), len(sl.Relations), len(ls.Cells), len(ls.Relations))
	}
	// The relations read back hold on the values read back: A x = 0.
	for q, r := range back.Relations {
		s := 0.0
		for k, j := range r.Cells {
			s += r.Coefs[k] * back.Cells[j].Value
		}
		if !near(s, r.RHS) {
			t.Errorf("relation %d: Σ c·x = %v, rhs %v", q, s, r.RHS)
		}
	}
}

func TestReadJJErrors(t *testing.T) {
	const head = "0\n2\n0 3 3 s 0 1e20 0 0 0\n1 3 3 u 0 1e20 1 1 0\n"
	for _, c := range []struct {
		name, text string
		line       int
		field      string
		msg        string
	}{
		{"bad cell count", "0\nx\n", 2, "cells", "not a count"},
		{"fewer cells than the count", "0\n3\n0 3 3 s 0 1e20 0 0 0\n1 3 3 u 0 1e20 1 1 0\n1\n", 5, "cell", "fields"},
		{"bad status", "0\n1\n0 3 3 q 0 1e20 0 0 0\n0\n", 3, "status", `unknown status "q"`},
		{"bad number", "0\n1\n0 3 x s 0 1e20 0 0 0\n0\n", 3, "cost", "not a number"},
		{"negative level", "0\n1\n0 3 3 s 0 1e20 0 -1 0\n0\n", 3, "upl", "negative"},
		{"index twice", "0\n2\n0 3 3 s 0 1e20 0 0 0\n0 3 3 s 0 1e20 0 0 0\n0\n", 4, "index", "twice"},
		{"cell out of range", head + "1\n0 2 : 0 (-1) 2 (1)\n", 6, "term", "cell 2 out of range"},
		{"term count", head + "1\n0 3 : 0 (-1) 1 (1)\n", 6, "terms", "says 3 terms and lists 2"},
		{"more relations than the count", head + "1\n0 2 : 0 (-1) 1 (1)\n0 2 : 0 (-1) 1 (1)\n", 7, "end", "after the 1 relations"},
		{"fewer relations than the count", head + "2\n0 2 : 0 (-1) 1 (1)\n", 7, "relation", "end of file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJJ(strings.NewReader(c.text), "t.jj")
			var de *datasets.DataError
			if !errors.As(err, &de) || !errors.Is(err, ErrJJ) {
				t.Fatalf("error %v, want a *datasets.DataError wrapping ErrJJ", err)
			}
			if de.File != "t.jj" || de.Line != c.line || de.Column != c.field || !strings.Contains(de.Msg, c.msg) {
				t.Errorf("error %q (line %d field %q), want line %d field %q containing %q", err, de.Line, de.Column, c.line, c.field, c.msg)
			}
		})
	}
}
