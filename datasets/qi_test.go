package datasets

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

const qiCSV = `age, sex ,city,income
30, M, Rome ,10
45,F,Oslo,20
 30 ,?,Rome,30
51,F,,40
22,M,Bern,50
`

func TestLoadQIDropMissing(t *testing.T) {
	path := writeFile(t, "qi.csv", qiCSV)
	q, err := LoadQI(path, []string{"sex", "age", "city"}, []string{"city", "sex"}, false)
	if err != nil {
		t.Fatal(err)
	}
	tab := q.Table
	if tab.N != 3 || q.Dropped != 2 || len(q.Records) != 5 {
		t.Fatalf("N %d dropped %d records %d, want 3, 2, 5", tab.N, q.Dropped, len(q.Records))
	}
	if !slices.Equal(q.Rows, []int{0, 1, 4}) {
		t.Errorf("rows %v, want [0 1 4]", q.Rows)
	}
	if !slices.Equal(q.QICols, []int{1, 0, 2}) {
		t.Errorf("QI columns %v, want [1 0 2] (the order of qi)", q.QICols)
	}
	if !slices.Equal(q.Header, []string{"age", "sex", "city", "income"}) {
		t.Errorf("header %q", q.Header)
	}
	if q.Records[0][2] != "Rome" || q.Records[2][1] != "?" {
		t.Errorf("records not trimmed or not kept: %q", q.Records)
	}
	want := []model.QIAttr{
		{Name: "sex", Kind: model.Categorical, Categories: []string{"F", "M"}},
		{Name: "age", Kind: model.Numeric, Min: 22, Max: 45},
		{Name: "city", Kind: model.Categorical, Categories: []string{"Bern", "Oslo", "Rome"}},
	}
	for a, w := range want {
		g := tab.Attrs[a]
		if g.Name != w.Name || g.Kind != w.Kind || g.Min != w.Min || g.Max != w.Max || !slices.Equal(g.Categories, w.Categories) {
			t.Errorf("attribute %d = %+v, want %+v", a, g, w)
		}
	}
	// Rows: (M,30,Rome), (F,45,Oslo), (M,22,Bern).
	wantX := []float64{1, 30, 2, 0, 45, 1, 1, 22, 0}
	if !slices.Equal(tab.X, wantX) {
		t.Errorf("X = %v, want %v", tab.X, wantX)
	}
}

func TestLoadQIKeepMissing(t *testing.T) {
	path := writeFile(t, "qi.csv", qiCSV)
	q, err := LoadQI(path, []string{"age", "sex", "city"}, []string{"sex", "city"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if q.Table.N != 5 || q.Dropped != 0 {
		t.Fatalf("N %d dropped %d, want 5, 0", q.Table.N, q.Dropped)
	}
	// "" and "?" are both the category "?" (sorted: "?" < "F" < "M").
	if got := q.Table.Attrs[1].Categories; !slices.Equal(got, []string{"?", "F", "M"}) {
		t.Errorf("sex categories %q", got)
	}
	if got := q.Table.Attrs[2].Categories; !slices.Equal(got, []string{"?", "Bern", "Oslo", "Rome"}) {
		t.Errorf("city categories %q", got)
	}
	if v := q.Table.Row(3)[2]; v != 0 {
		t.Errorf("record 4's empty city has code %v, want 0 (\"?\")", v)
	}
	if a := q.Table.Attrs[0]; a.Min != 22 || a.Max != 51 {
		t.Errorf("age range [%v, %v], want [22, 51]", a.Min, a.Max)
	}
}

func TestLoadQIErrors(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		qi    []string
		cat   []string
		keep  bool
		want  string // expected in the message after the file name
		line  int
		col   string
		isDat bool
	}{
		// A kept missing numeric value was an error here; it is "any
		// value" since issue 44 (TestKeepMissingNumeric).
		{"bad number", "a,b\n1,x\n2,y\nabc,z\n", []string{"a", "b"}, []string{"b"}, false, `:4: column "a": non-numeric value "abc"`, 4, "a", true},
		{"bad number in dropped row", "a,b\n1,x\nzz,?\n", []string{"a", "b"}, []string{"b"}, false, `:3: column "a": non-numeric value "zz"`, 3, "a", true},
		{"digit separator", "a,b\n1,x\n1_2,y\n", []string{"a", "b"}, []string{"b"}, false, `:3: column "a": non-numeric value "1_2" (numbers are read in plain decimal`, 3, "a", true},
		{"hex float", "a,b\n0x1p3,x\n", []string{"a", "b"}, []string{"b"}, false, `:2: column "a": non-numeric value "0x1p3" (numbers are read`, 2, "a", true},
		{"infinite", "a,b\n1,x\nInf,y\n", []string{"a", "b"}, []string{"b"}, false, `:3: column "a": value "Inf" is not a finite number`, 3, "a", true},
		{"unknown QI", "a,b\n1,x\n", []string{"a", "zip"}, nil, false, `: unknown quasi-identifier "zip" (available columns: a, b)`, 0, "", true},
		{"QI twice", "a,b\n1,x\n", []string{"a", "a"}, nil, false, `: quasi-identifier "a" selected twice`, 0, "", true},
		{"categorical not QI", "a,b\n1,x\n", []string{"a"}, []string{"b"}, false, `: categorical column "b" is not among the quasi-identifiers (a)`, 0, "", true},
		{"categorical unknown", "a,b\n1,x\n", []string{"a"}, []string{"c"}, false, `: unknown categorical column "c"`, 0, "", true},
		{"no QI", "a,b\n1,x\n", nil, nil, false, ": no quasi-identifiers selected", 0, "", true},
		{"empty file", "", []string{"a"}, nil, false, ": empty file", 0, "", true},
		{"header only", "a,b\n", []string{"a"}, nil, false, ":1: header only", 1, "", true},
		{"ragged", "a,b\n1,x\n2\n", []string{"a"}, nil, false, ":3: 1 fields, the header has 2", 3, "", true},
		{"all dropped", "a,b\n1,?\n2,\n", []string{"a", "b"}, []string{"b"}, false, ": all 2 records have a missing quasi-identifier value", 0, "", true},
		{"text numeric", "a,b\n1,x\n2,y\n", []string{"a", "b"}, nil, false, `:2: column "b": non-numeric value "x" in a numeric quasi-identifier (declare the column categorical?)`, 2, "b", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "in.csv", tc.text)
			q, err := LoadQI(path, tc.qi, tc.cat, tc.keep)
			if err == nil {
				t.Fatalf("no error; table %+v", q.Table)
			}
			if !strings.Contains(err.Error(), path+tc.want) {
				t.Errorf("error %q, want it to contain %q", err, path+tc.want)
			}
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DataError", err)
			}
			if de.Line != tc.line || de.Column != tc.col {
				t.Errorf("line %d column %q, want %d %q", de.Line, de.Column, tc.line, tc.col)
			}
		})
	}
}

func TestLoadQIMissingFile(t *testing.T) {
	if _, err := LoadQI(t.TempDir()+"/nope.csv", []string{"a"}, nil, false); err == nil {
		t.Fatal("no error for a missing file")
	}
}

// marital is a categorical attribute for the hierarchy tests.
func marital() *model.QIAttr {
	return &model.QIAttr{Name: "marital", Kind: model.Categorical,
		Categories: []string{"Divorced", "Married-AF", "Married-civ", "Never", "Widowed"}}
}

func TestLoadHierarchy(t *testing.T) {
	// Chains of different lengths, one stopping below the root and
	// continued by another line, and an extra value not in the data.
	text := "Married-civ,Married,Any\nMarried-AF,Married,Any\n Divorced , Alone\nWidowed,Alone\nAlone,Any\nNever,Any\nSeparated,Alone,Any\n"
	path := writeFile(t, "h.csv", text)
	at := marital()
	h, err := LoadHierarchy(path, at)
	if err != nil {
		t.Fatal(err)
	}
	// Inner nodes in order of first reach from the leaves in code order:
	// Divorced -> Alone (5) -> Any (6); Married-AF -> Married (7).
	wantNames := []string{"Divorced", "Married-AF", "Married-civ", "Never", "Widowed", "Alone", "Any", "Married"}
	wantParent := []int32{5, 7, 7, 6, 5, 6, -1, 6}
	// Separated is a leaf of the hierarchy although the data lack it: it
	// counts under Alone and Any (6 leaves in all).
	wantLeaves := []int32{1, 1, 1, 1, 1, 3, 6, 2}
	wantDepth := []int32{2, 2, 2, 1, 2, 1, 0, 1}
	if h.NumLeaves != 5 || h.TotalLeaves != 6 || !slices.Equal(h.Names, wantNames) || !slices.Equal(h.Parent, wantParent) ||
		!slices.Equal(h.Leaves, wantLeaves) || !slices.Equal(h.Depth, wantDepth) {
		t.Fatalf("hierarchy %+v\nwant names %q parent %v leaves %v depth %v", h, wantNames, wantParent, wantLeaves, wantDepth)
	}
	for _, c := range []struct{ a, b, lca int32 }{{0, 4, 5}, {1, 2, 7}, {0, 1, 6}, {3, 3, 3}, {3, 0, 6}} {
		if got := h.LCA(c.a, c.b); got != c.lca {
			t.Errorf("LCA(%s, %s) = %s, want %s", h.Names[c.a], h.Names[c.b], h.Names[got], h.Names[c.lca])
		}
	}
	// A table with the hierarchy attached passes model's check, and the
	// box of {Divorced, Widowed} is Alone with NCP 3/6 (Alone covers
	// Divorced, Widowed and the absent Separated, of 6 leaves).
	at.Hier = h
	tab := &model.QITable{Attrs: []model.QIAttr{*at}, N: 2, X: []float64{0, 4}}
	if err := tab.Check(); err != nil {
		t.Fatal(err)
	}
	b := tab.NewBox(0)
	tab.Add(b, 1)
	if got := tab.NCPSum(b); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("NCP of {Divorced, Widowed} = %v, want 0.5", got)
	}
	// Without the absent leaf the same box costs 2/5: the denominator is
	// the hierarchy's leaf count, not the data's.
	h2, err := ReadHierarchy(strings.NewReader(strings.Replace(text, "Separated,Alone,Any\n", "", 1)), "h2", marital())
	if err != nil {
		t.Fatal(err)
	}
	at.Hier = h2
	tab2 := &model.QITable{Attrs: []model.QIAttr{*at}, N: 2, X: []float64{0, 4}}
	b2 := tab2.NewBox(0)
	tab2.Add(b2, 1)
	if got := tab2.NCPSum(b2); h2.TotalLeaves != 5 || math.Abs(got-0.4) > 1e-12 {
		t.Errorf("without Separated: %d leaves, NCP of {Divorced, Widowed} = %v, want 5 and 0.4", h2.TotalLeaves, got)
	}
}

// ARX writes hierarchies separated by semicolons, every line through
// every level, a value kept at a level repeated ("Never;Never;*"); the
// same tree as the comma file with the repetitions left out.
func TestLoadHierarchyARX(t *testing.T) {
	arx := "Married-civ;Married;*\nMarried-AF;Married;*\nDivorced;Alone;*\nWidowed;Alone;*\nNever;Never;*\n"
	comma := "Married-civ,Married,*\nMarried-AF,Married,*\nDivorced,Alone,*\nWidowed,Alone,*\nNever,*\n"
	h1, err := ReadHierarchy(strings.NewReader(arx), "arx.csv", marital())
	if err != nil {
		t.Fatal(err)
	}
	h2, err := ReadHierarchy(strings.NewReader(comma), "comma.csv", marital())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(h1, h2) || h1.TotalLeaves != 5 || h1.Depth[slices.Index(h1.Names, "Never")] != 1 {
		t.Errorf("ARX hierarchy %+v\ncomma hierarchy %+v", h1, h2)
	}
	// A value with a comma in an ARX file; a byte-order mark; CRLF.
	at := &model.QIAttr{Name: "m", Kind: model.Categorical, Categories: []string{"Married, spouse absent", "Single"}}
	h, err := ReadHierarchy(strings.NewReader(utf8BOM+"Married, spouse absent;Married;*\r\nSingle;Single;*\r\n"), "m.csv", at)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.Names, []string{"Married, spouse absent", "Single", "Married", "*"}) {
		t.Errorf("names %q", h.Names)
	}
	// A comma file whose first line holds a semicolon in a value.
	at = &model.QIAttr{Name: "m", Kind: model.Categorical, Categories: []string{"a;b", "c"}}
	if h, err = ReadHierarchy(strings.NewReader("a;b,x,*\nc,*\n"), "m.csv", at); err != nil || h.Names[0] != "a;b" {
		t.Errorf("comma file with a semicolon: %+v, %v", h, err)
	}
}

func TestLoadHierarchyErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		want string
		line int
	}{
		{"missing category", "Divorced,Any\nMarried-AF,Any\nMarried-civ,Any\nNever,Any\n", `: attribute marital: 1 categories missing from the hierarchy: "Widowed" (of its 5 categories; fields read as separated by ',', detected on line 1)`, 0},
		// An ARX file read with the wrong separator used to give this
		// error for every category; now the separator is detected, and
		// the message says which one was used.
		{"missing category, semicolons", "Divorced;Any\nMarried-AF;Any\nMarried-civ;Any\nNever;Any\nWidow,ed;Any\n", `: attribute marital: 1 categories missing from the hierarchy: "Widowed" (of its 5 categories; fields read as separated by ';', detected on line 1)`, 0},
		{"cycle", "Divorced,A\nMarried-AF,A\nMarried-civ,A\nNever,B\nWidowed,B\nA,B\nB,A\n", `:7: cycle: "B" leads back to "A"`, 7},
		// A level repeating the one below is the same node (ARX), but a
		// value coming back higher up is a cycle.
		{"value repeated higher up", "Divorced,A,B,A\nMarried-AF,Any\nMarried-civ,Any\nNever,Any\nWidowed,Any\n", `:1: cycle: "B" leads back to "A"`, 1},
		{"trailing separator", "Divorced;Any;\n", `:1: empty node name in field 3 (fields separated by ';'): a separator at the end of the line?`, 1},
		{"two parents", "Divorced,A,Any\nMarried-AF,B,Any\nDivorced,B\n", `:3: "Divorced" has parent "B" here and "A" on line 1`, 3},
		{"two roots", "Divorced,Any\nMarried-AF,Any\nMarried-civ,Any\nNever,Any\nWidowed,Alone\n", `:5: more than one root: "Any" (above "Divorced") and "Alone" (above "Widowed")`, 5},
		{"unknown parent chain", "Divorced,Alone\nMarried-AF,Any\nMarried-civ,Any\nNever,Any\nWidowed,Alone\n", `:2: more than one root: "Alone" (above "Divorced") and "Any" (above "Married-AF")`, 2},
		{"category inner", "Divorced,Never,Any\nMarried-AF,Any\nMarried-civ,Any\nWidowed,Any\n", `:1: category "Never" of attribute marital is an inner node (parent of "Divorced")`, 1},
		// Several offences: the first in file order, every time (it used
		// to depend on map iteration order; found by FuzzLoadHierarchy).
		{"category inner twice", "Married-AF,Never,Any\nDivorced,Never\nMarried-civ,Widowed,Any\n", `:1: category "Never" of attribute marital is an inner node (parent of "Married-AF")`, 1},
		{"empty cell", "Divorced,,Any\n", `:1: empty node name in field 2`, 1},
		{"empty file", "", ": empty hierarchy file", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "h.csv", tc.text)
			h, err := LoadHierarchy(path, marital())
			// The same error every time (maps iterate in random order).
			for range 20 {
				if _, again := LoadHierarchy(path, marital()); (err == nil) != (again == nil) || (err != nil && err.Error() != again.Error()) {
					t.Fatalf("error %v, then %v", err, again)
				}
			}
			if err == nil {
				t.Fatalf("no error; hierarchy %+v", h)
			}
			if !strings.Contains(err.Error(), path+tc.want) {
				t.Errorf("error %q, want it to contain %q", err, path+tc.want)
			}
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DataError", err)
			}
			if de.Line != tc.line {
				t.Errorf("line %d, want %d", de.Line, tc.line)
			}
		})
	}
	num := &model.QIAttr{Name: "age", Kind: model.Numeric, Min: 0, Max: 1}
	if _, err := LoadHierarchy(writeFile(t, "h.csv", "a,b\n"), num); err == nil || !strings.Contains(err.Error(), "not a categorical attribute") {
		t.Errorf("numeric attribute: error %v", err)
	}
}

func TestLoadAdult(t *testing.T) {
	q, err := LoadAdult(false)
	if errors.Is(err, ErrNoSharedData) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	// The shared README: 32561 rows, 2399 with at least one '?' (all in
	// workclass, occupation, native-country, which are quasi-identifiers),
	// 30162 complete.
	if len(q.Records) != 32561 || q.Dropped != 2399 || q.Table.N != 30162 {
		t.Fatalf("records %d dropped %d kept %d, want 32561, 2399, 30162", len(q.Records), q.Dropped, q.Table.N)
	}
	t.Logf("Adult: %d rows, %d with '?' in the 8 quasi-identifiers", len(q.Records), q.Dropped)
	if !slices.Equal(q.QICols, []int{0, 4, 9, 5, 8, 1, 13, 6}) {
		t.Errorf("QI columns %v", q.QICols)
	}
	keep, err := LoadAdult(true)
	if err != nil {
		t.Fatal(err)
	}
	if keep.Table.N != 32561 || keep.Dropped != 0 {
		t.Fatalf("kept %d dropped %d, want 32561, 0", keep.Table.N, keep.Dropped)
	}
	// Cardinalities counted on adult.csv (with '?' as a category when kept;
	// workclass Never-worked occurs only with occupation '?').
	wantCard := map[string][2]int{"sex": {2, 2}, "marital-status": {7, 7}, "race": {5, 5},
		"workclass": {7, 9}, "native-country": {41, 42}, "occupation": {14, 15}}
	for a := range q.Table.Attrs {
		dr, kp := &q.Table.Attrs[a], &keep.Table.Attrs[a]
		if dr.Kind == model.Numeric {
			lo, hi := 17.0, 90.0
			if dr.Name == "education-num" {
				lo, hi = 1, 16
			}
			if dr.Min != lo || dr.Max != hi || kp.Min != lo || kp.Max != hi {
				t.Errorf("%s range [%v, %v] / [%v, %v], want [%v, %v]", dr.Name, dr.Min, dr.Max, kp.Min, kp.Max, lo, hi)
			}
			continue
		}
		w := wantCard[dr.Name]
		if dr.Cardinality() != w[0] || kp.Cardinality() != w[1] {
			t.Errorf("%s cardinality %d / %d, want %d / %d", dr.Name, dr.Cardinality(), kp.Cardinality(), w[0], w[1])
		}
	}
}

func TestSyntheticQI(t *testing.T) {
	const n = 20000
	a := SyntheticQI(n, 7)
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	b := SyntheticQI(n, 7)
	if !slices.Equal(a.X, b.X) {
		t.Error("same seed, different tables")
	}
	if c := SyntheticQI(n, 8); slices.Equal(a.X, c.X) {
		t.Error("different seeds, same table")
	}
	var names []string
	for _, at := range a.Attrs {
		names = append(names, at.Name)
	}
	if !slices.Equal(names, AdultQI()) {
		t.Errorf("names %q, want %q", names, AdultQI())
	}
	wantCard := []int{0, 0, 2, 7, 5, 9, 42, 15}
	// Share of the most frequent category, Adult (measured on adult.csv):
	// sex 0.67, marital-status 0.46, race 0.85, workclass 0.70,
	// native-country 0.90, occupation 0.13; Zipf fits within 0.02, and
	// the sampling error at n = 20000 is below 0.01.
	wantTop := []float64{0, 0, 0.67, 0.46, 0.85, 0.70, 0.90, 0.13}
	d := a.D()
	for k, at := range a.Attrs {
		if at.Kind == model.Numeric {
			if at.Min < 1 || at.Max > 90 || at.Min == at.Max {
				t.Errorf("%s range [%v, %v]", at.Name, at.Min, at.Max)
			}
			continue
		}
		if at.Cardinality() != wantCard[k] {
			t.Errorf("%s cardinality %d, want %d", at.Name, at.Cardinality(), wantCard[k])
		}
		cnt := make([]int, at.Cardinality())
		for i := 0; i < n; i++ {
			cnt[int(a.X[i*d+k])]++
		}
		top := float64(slices.Max(cnt)) / n
		if math.Abs(top-wantTop[k]) > 0.03 {
			t.Errorf("%s top share %.3f, want %.2f ± 0.03", at.Name, top, wantTop[k])
		}
	}
	// Age: median 37 in Adult; the generator's median is 17 + 20.
	ages := make([]float64, n)
	for i := range ages {
		ages[i] = a.X[i*d]
	}
	slices.Sort(ages)
	if med := ages[n/2]; med < 35 || med > 39 {
		t.Errorf("median age %v, want 37 ± 2", med)
	}
	if e := SyntheticQI(0, 1); e.N != 0 || len(e.X) != 0 || e.Check() != nil {
		t.Errorf("empty table %+v", e)
	}
	if e := SyntheticQI(-3, 1); e.N != 0 {
		t.Errorf("n = -3 gives N = %d", e.N)
	}
}

func BenchmarkSyntheticQI(b *testing.B) {
	for b.Loop() {
		SyntheticQI(100000, 1)
	}
}

func BenchmarkLoadAdult(b *testing.B) {
	if _, err := SharedDir(); errors.Is(err, ErrNoSharedData) {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := LoadAdult(false); err != nil {
			b.Fatal(err)
		}
	}
}

// TestKeepMissingNumeric: with keepMissing a missing numeric value (any
// spelling) is kept as NaN, "any value", and the range is that of the
// values present (issue 44: it was an error).
func TestKeepMissingNumeric(t *testing.T) {
	q, err := ReadQI(strings.NewReader("a,b\n1,x\n?,y\nNA,x\n4,y\n,x\n"), "k.csv", []string{"a", "b"}, []string{"b"}, true)
	if err != nil {
		t.Fatal(err)
	}
	at := q.Table.Attrs[0]
	if q.Table.N != 5 || q.Dropped != 0 || at.Min != 1 || at.Max != 4 {
		t.Fatalf("N %d dropped %d range [%v, %v]", q.Table.N, q.Dropped, at.Min, at.Max)
	}
	for i, want := range []bool{false, true, true, false, true} {
		if got := model.IsMissing(q.Table.Row(i)[0]); got != want {
			t.Errorf("record %d missing %v, want %v", i, got, want)
		}
	}
	// Every value missing: a constant attribute.
	q, err = ReadQI(strings.NewReader("a,b\n?,y\nNA,x\n"), "k.csv", []string{"a", "b"}, []string{"b"}, true)
	if err != nil || q.Table.Attrs[0].Min != 0 || q.Table.Attrs[0].Max != 0 || q.Table.Check() != nil {
		t.Fatalf("all missing: %v %+v", err, q)
	}
}
