package datasets

import (
	"errors"
	"math/rand/v2"
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
	if md.N != 4 || md.Vars[0].Name != "region" || !slices.Equal(md.Vars[0].Levels, []string{"N", "S"}) || !slices.Equal(md.Vars[1].Levels, []string{"F", "M"}) {
		t.Fatalf("got %+v", md)
	}
	tab, err := md.Collapse([]int{0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Levels in canonical order, not of first appearance (issue 44,
	// item 3): (N,F)=0, (N,M)=3, (S,F)=1, (S,M)=0.
	if !slices.Equal(tab.Counts, []int64{0, 3, 1, 0}) {
		t.Errorf("collapse [region:sex] = %v", tab.Counts)
	}
	one, err := md.Collapse([]int{1}, 0)
	if err != nil || !slices.Equal(one.Counts, []int64{1, 3}) {
		t.Errorf("collapse [sex] = %v, %v", one, err)
	}
	levels, counts := md.Cells()
	if len(levels) != 2 || !slices.Equal(counts, []int64{3, 1}) { // (N,M), (S,F)
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

// The levels read from microdata are in canonical order (CompareLabels:
// runs of digits as numbers, other bytes by value, ties by bytes),
// never in the order the records first show them, which would publish
// the first records' combinations (issue 44, item 3).
func TestMicrodataLevelsCanonical(t *testing.T) {
	for _, tc := range []struct {
		data, want []string
	}{
		{[]string{"M", "F"}, []string{"F", "M"}},
		{[]string{"10", "9", "2", "1", "100"}, []string{"1", "2", "9", "10", "100"}},
		{[]string{"age 10", "age 9", "age 10a", "age 9b"}, []string{"age 9", "age 9b", "age 10", "age 10a"}},
		{[]string{"b", "B", "a", "A", "?", "1"}, []string{"1", "?", "A", "B", "a", "b"}},
		{[]string{"1", "01", "001", "0"}, []string{"0", "001", "01", "1"}},
		{[]string{"-1", "-2", "1.10", "1.9"}, []string{"-1", "-2", "1.9", "1.10"}},
		{[]string{"x2y10", "x2y9", "x10y1"}, []string{"x2y9", "x2y10", "x10y1"}},
	} {
		rev := slices.Clone(tc.data)
		slices.Reverse(rev)
		for _, order := range [][]string{tc.data, rev} {
			in := "v\n" + strings.Join(order, "\n") + "\n"
			md, err := ReadMicrodata(strings.NewReader(in), "m.csv", []string{"v"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(md.Vars[0].Levels, tc.want) {
				t.Errorf("labels %q: levels %q, want %q", order, md.Vars[0].Levels, tc.want)
			}
			for i := range md.N {
				if got := md.Vars[0].Levels[md.Level(i, 0)]; got != order[i] {
					t.Errorf("labels %q: record %d reads %q, want %q", order, i+1, got, order[i])
				}
			}
		}
	}
}

// LevelOptions.MinCount merges the levels the data give to fewer records
// into OtherLevel, last; a levels file's levels are kept; the option is
// refused where it would do nothing or clash with a label (issue 44,
// item 3).
func TestMicrodataMinLevelCount(t *testing.T) {
	in := "sex,age\nM,10\nF,9\nM,2\nX,9\nM,9\nF,2\n"
	for _, tc := range []struct {
		min    int
		levels map[string][]string
		want   [][]string // levels of sex, age
		err    string
	}{
		{0, nil, [][]string{{"F", "M", "X"}, {"2", "9", "10"}}, ""},
		{1, nil, [][]string{{"F", "M", "X"}, {"2", "9", "10"}}, ""},
		{2, nil, [][]string{{"F", "M", OtherLevel}, {"2", "9", OtherLevel}}, ""},
		{3, nil, [][]string{{"M", OtherLevel}, {"9", OtherLevel}}, ""},
		{7, nil, [][]string{{OtherLevel}, {OtherLevel}}, ""},
		{2, map[string][]string{"sex": {"X", "M", "F", "U"}}, [][]string{{"X", "M", "F", "U"}, {"2", "9", OtherLevel}}, ""},
		{2, map[string][]string{"sex": {"X", "M", "F"}, "age": {"10", "9", "2"}}, nil, "applies to no variable"},
		{-1, nil, nil, "negative"},
		{0, map[string][]string{"sexx": {"M"}}, nil, `levels are given for "sexx", which is not among the declared variables sex,age`},
	} {
		md, err := ReadMicrodataWith(strings.NewReader(in), "m.csv", []string{"sex", "age"}, LevelOptions{Levels: tc.levels, MinCount: tc.min})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("min %d, levels %v: error %v, want %q", tc.min, tc.levels, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("min %d: %v", tc.min, err)
		}
		for j, want := range tc.want {
			if !slices.Equal(md.Vars[j].Levels, want) {
				t.Errorf("min %d, levels %v: levels of %s %q, want %q", tc.min, tc.levels, md.Vars[j].Name, md.Vars[j].Levels, want)
			}
		}
		// Every record reads its own label, or OtherLevel for a merged one.
		rows := strings.Split(strings.TrimSpace(in), "\n")[1:]
		for i, row := range rows {
			for j, l := range strings.Split(row, ",") {
				got := md.Vars[j].Levels[md.Level(i, j)]
				if got != l && (got != OtherLevel || slices.Contains(md.Vars[j].Levels, l)) {
					t.Errorf("min %d: record %d reads %q for %s, want %q", tc.min, i+1, got, md.Vars[j].Name, l)
				}
			}
		}
	}
	if _, err := ReadMicrodataWith(strings.NewReader("v\n(other)\nx\n"), "m.csv", []string{"v"}, LevelOptions{MinCount: 2}); err == nil || !strings.Contains(err.Error(), `column "v": the data hold the label "(other)"`) {
		t.Errorf("a label (other) in the data: %v", err)
	}
	// A levels file row naming an undeclared variable is an error naming
	// the file, the line and the column (issue 44, item 13).
	_, err := ReadLevelsOf(strings.NewReader("variable,level\nsex,M\nsexx,F\n"), "l.csv", []string{"sex", "age"})
	if err == nil || !strings.Contains(err.Error(), `l.csv:3: column "variable": "sexx" is not among the declared variables sex,age`) {
		t.Errorf("levels of an undeclared variable: %v", err)
	}
}

// CompareLabels is a total order (antisymmetric, transitive, 0 only for
// equal labels) on seeded random labels of digits, letters, signs and
// points, so that the sort of the levels is well defined (issue 44,
// item 3).
func TestCompareLabelsTotalOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 3))
	const alphabet = "00129aZz-. "
	label := func() string {
		b := make([]byte, r.IntN(7))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	labels := make([]string, 400)
	for i := range labels {
		labels[i] = label()
	}
	for _, a := range labels {
		for _, b := range labels {
			ab, ba := CompareLabels(a, b), CompareLabels(b, a)
			if ab != -ba || (ab == 0) != (a == b) {
				t.Fatalf("CompareLabels(%q, %q) = %d, reversed %d", a, b, ab, ba)
			}
		}
	}
	for range 200000 {
		a, b, c := labels[r.IntN(len(labels))], labels[r.IntN(len(labels))], labels[r.IntN(len(labels))]
		if CompareLabels(a, b) <= 0 && CompareLabels(b, c) <= 0 && CompareLabels(a, c) > 0 {
			t.Fatalf("not transitive: %q <= %q <= %q but %q > %q", a, b, c, a, c)
		}
	}
}
