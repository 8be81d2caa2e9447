package datasets

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestReadMicrodata(t *testing.T) {
	in := "id,sex,age,region\n1,M,young,N\n2,F,old,S\n3,M,old,N\n4,M,young,N\n"
	md, err := ReadMicrodata(strings.NewReader(in), "m.csv", []string{"region", "sex"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if md.N != 4 || md.Vars[0].Name != "region" || !slices.Equal(md.Vars[0].Levels, []string{"N", "S"}) || !slices.Equal(md.Vars[1].Levels, []string{"M", "F"}) {
		t.Fatalf("got %+v", md)
	}
	tab, err := md.Collapse([]int{0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// (N,M)=3, (N,F)=0, (S,M)=0, (S,F)=1
	if !slices.Equal(tab.Counts, []int64{3, 0, 0, 1}) {
		t.Errorf("collapse [region:sex] = %v", tab.Counts)
	}
	one, err := md.Collapse([]int{1}, 0)
	if err != nil || !slices.Equal(one.Counts, []int64{3, 1}) {
		t.Errorf("collapse [sex] = %v, %v", one, err)
	}
	levels, counts := md.Cells()
	if len(levels) != 2 || !slices.Equal(counts, []int64{3, 1}) {
		t.Errorf("cells %v %v", levels, counts)
	}
	if _, err := md.Collapse([]int{0, 1}, 16); !errors.Is(err, ErrTooLarge) {
		t.Errorf("4 cells in 16 bytes: %v", err)
	}
	// A levels file fixes the order and adds unseen levels.
	lv, err := ReadLevels(strings.NewReader("variable,level\nsex,F\nsex,M\nsex,X\n"), "l.csv")
	if err != nil {
		t.Fatal(err)
	}
	md, err = ReadMicrodata(strings.NewReader(in), "m.csv", []string{"sex"}, lv)
	if err != nil || !slices.Equal(md.Vars[0].Levels, []string{"F", "M", "X"}) {
		t.Fatalf("levels file: %v %v", md, err)
	}
}

func TestReadMicrodataErrors(t *testing.T) {
	lv := map[string][]string{"sex": {"M"}}
	for _, tc := range []struct {
		in   string
		vars []string
		lv   map[string][]string
		want string
	}{
		{"", []string{"sex"}, nil, "empty file"},
		{"sex,age\n", []string{"sex"}, nil, "m.csv:1: header only"},
		{"sex,age\nM,1\n", []string{"nope"}, nil, `unknown column "nope"`},
		{"sex,age\nM,1\n", []string{"sex", "sex"}, nil, "selected twice"},
		// An empty field is a missing value, the category "?" (issue 44:
		// one definition of missing values; it was an error before).
		{"sex,age\nM,1\n,2\n", []string{"sex"}, lv, `m.csv:3: column "sex": missing value "": a missing value is the category "?", which is not among the 1 levels`},
		{"sex,age\nM,1\nF\n", []string{"sex"}, nil, "m.csv:3: 1 fields"},
		{"sex,age\nM,1\nF,2\n", []string{"sex"}, lv, `m.csv:3: column "sex": label "F" is not among the 1 levels`},
		{"sex,age\nM,1\n", nil, nil, "no variables"},
	} {
		_, err := ReadMicrodata(strings.NewReader(tc.in), "m.csv", tc.vars, tc.lv)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %v: error %v, want %q", tc.in, tc.vars, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"var,lev\nsex,M\n", `want "variable,level"`},
		{"variable,level\nsex,M\nsex,M\n", `l.csv:3: column "level": level "M" of sex listed twice`},
		{"variable,level\n", "header only"},
	} {
		_, err := ReadLevels(strings.NewReader(tc.in), "l.csv")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}
