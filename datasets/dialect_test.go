package datasets

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// A table as R writes it: as.data.frame(table(df)) names the count column
// Freq, dplyr::count names it n.
func TestLoadTableCSVCountNames(t *testing.T) {
	want := []int64{1, 3, 0, 2}
	for _, text := range []string{
		"A,B,count\nb,p,1\na,q,2\nb,q,3\n",
		"A,B,COUNT\nb,p,1\na,q,2\nb,q,3\n",
		"\"A\",\"B\",\"Freq\"\n\"b\",\"p\",1\n\"a\",\"q\",2\n\"b\",\"q\",3\n",
		"n,A,B\n1,b,p\n2,a,q\n3,b,q\n",
	} {
		tab, err := LoadTableCSV(writeTableFile(t, "t.csv", text), nil)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if len(tab.Vars) != 2 || tab.Vars[0].Name != "A" || !slices.Equal(tab.Counts, want) {
			t.Errorf("%q: variables %v counts %v, want A,B and %v", text, tab.Vars, tab.Counts, want)
		}
	}
	// write.csv(as.data.frame(table(...))) adds row names in a column
	// without a name: said, not read as a variable.
	_, err := LoadTableCSV(writeTableFile(t, "t.csv", "\"\",\"A\",\"Freq\"\n\"1\",\"x\",2\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "column 1 has an empty name (row names, as R's write.csv writes them? write the file with row.names = FALSE)") {
		t.Errorf("row names: err = %v", err)
	}
	// "freq" and "N" are not R's spelling: variables, so no count column.
	_, err = LoadTableCSV(writeTableFile(t, "t.csv", "A,freq\nx,1\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "no count column") {
		t.Errorf("freq: err = %v, want no count column", err)
	}
	// Named with Count: "n" is then a variable beside the count column.
	p := writeTableFile(t, "t.csv", "n,weight\nx,1\ny,4\n")
	tab, err := LoadTableCSVWith(p, nil, &CSVOptions{Count: "weight"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Vars[0].Name != "n" || !slices.Equal(tab.Counts, []int64{1, 4}) {
		t.Errorf("--count weight: %v %v", tab.Vars, tab.Counts)
	}
	// Two candidates are resolved by naming one.
	p = writeTableFile(t, "t.csv", "A,n,Freq\nx,a,1\ny,b,4\n")
	if _, err := LoadTableCSV(p, nil); err == nil || !strings.Contains(err.Error(), `"n" (column 2) and "Freq" (column 3)`) {
		t.Errorf("ambiguous: err = %v", err)
	}
	tab, err = LoadTableCSVWith(p, nil, &CSVOptions{Count: "Freq"})
	if err != nil || len(tab.Vars) != 2 || tab.Vars[1].Name != "n" {
		t.Errorf("--count Freq: %v, %v", tab, err)
	}
	var de *DataError
	_, err = LoadTableCSVWith(p, nil, &CSVOptions{Count: "total"})
	if !errors.As(err, &de) || de.Line != 1 || !strings.Contains(de.Msg, `no count column "total" (columns: A, n, Freq)`) {
		t.Errorf("--count total: %v", err)
	}
}

// A semicolon file with decimal commas, as spreadsheets in most of
// continental Europe save CSV.
func TestReadDialects(t *testing.T) {
	semi := &CSVOptions{Dialect: Dialect{Sep: ';', Decimal: ','}}
	tab, err := ReadCSVWith(strings.NewReader("id;income;region\n1;1234,5;\"Nord; Ost\"\n2;20;Süd\n3;-0,25;West\n"), "eu.csv", []string{"income"}, semi)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Data.X, []float64{1234.5, 20, -0.25}) || tab.Rows[0][2] != "Nord; Ost" {
		t.Errorf("values %v, rows %q", tab.Data.X, tab.Rows)
	}
	if !slices.Equal(tab.Decimals, []int{2}) {
		t.Errorf("decimals %v, want [2]", tab.Decimals)
	}
	// The protected file is written in the same dialect, rounded as asked.
	tab.Digits = []int{1}
	var b bytes.Buffer
	prot, _ := model.NewDataset([]string{"income"}, 3, 1, []float64{617.125, 617.125, -0.04})
	if err := tab.WriteAllColumnsUnsafe(&b, prot); err != nil {
		t.Fatal(err)
	}
	if want := "id;income;region\n1;617,1;\"Nord; Ost\"\n2;617,1;Süd\n3;0,0;West\n"; b.String() != want {
		t.Errorf("written %q, want %q", b.String(), want)
	}
	// Tab-separated with a point.
	tab, err = ReadCSVWith(strings.NewReader("a\tb\n1.5\t2\n"), "t.tsv", nil, &CSVOptions{Dialect: Dialect{Sep: '\t'}})
	if err != nil || !slices.Equal(tab.Data.X, []float64{1.5, 2}) {
		t.Errorf("tab: %v, %v", tab, err)
	}
	// Long tables: the counts may be written with a decimal comma.
	lt, err := ReadTableCSVWith(strings.NewReader("A;B;Freq\nx;p;1\nx;q;2,0\n"), "t.csv", semi)
	if err != nil || !slices.Equal(lt.Counts, []int64{1, 2}) {
		t.Errorf("semicolon table: %v, %v", lt, err)
	}
	cases := []struct {
		name, text string
		opt        *CSVOptions
		line       int
		msg        string
	}{
		{"comma and decimal comma", "a\n1\n", &CSVOptions{Dialect: Dialect{Sep: ',', Decimal: ','}}, 0, "a decimal comma needs another field separator"},
		{"pipe", "a\n1\n", &CSVOptions{Dialect: Dialect{Sep: '|'}}, 0, "unsupported field separator"},
		{"point with decimal comma", "a;b\n1,5;2\n1.234;3\n", semi, 3, `the decimal mark is ',' and a point is not read`},
		{"comma without decimal comma", "a;b\n1,5;2\n", &CSVOptions{Dialect: Dialect{Sep: ';'}}, 2, "a decimal comma? give the decimal mark: --decimal ,"},
		{"semicolon file read with commas", "a;b\n1,5;2\n", nil, 2, "ragged"},
	}
	for _, c := range cases {
		_, err := ReadCSVWith(strings.NewReader(c.text), "x.csv", []string{"a"}, c.opt)
		var de *DataError
		if !errors.As(err, &de) || de.Line != c.line || !strings.Contains(de.Msg, c.msg) {
			t.Errorf("%s: err = %v, want line %d containing %q", c.name, err, c.line, c.msg)
		}
	}
}

func TestParseSepDecimal(t *testing.T) {
	for s, want := range map[string]rune{",": ',', ";": ';', "tab": '\t', "\t": '\t', `\t`: '\t'} {
		if got, err := ParseSep(s); err != nil || got != want {
			t.Errorf("ParseSep(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ParseSep("|"); err == nil {
		t.Error("ParseSep(|): no error")
	}
	if d, err := ParseDecimal(","); err != nil || d != ',' {
		t.Errorf("ParseDecimal(,) = %q, %v", d, err)
	}
	if _, err := ParseDecimal(";"); err == nil {
		t.Error("ParseDecimal(;): no error")
	}
}

func TestReadCSVMissing(t *testing.T) {
	text := "id,x,y\n1,1,10\n2,NA,20\n3,3,\n4,5,?\n5,7,30\n"
	// The default names the first missing cell and the way out.
	_, err := ReadCSV(strings.NewReader(text), "m.csv", []string{"x", "y"})
	var de *DataError
	if !errors.As(err, &de) || de.Line != 3 || de.Column != "x" || !strings.Contains(de.Msg, `missing value "NA" (see --missing`) {
		t.Fatalf("error: %v", err)
	}
	drop, err := ReadCSVWith(strings.NewReader(text), "m.csv", []string{"x", "y"}, &CSVOptions{Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	if drop.Data.N != 2 || !slices.Equal(drop.Data.X, []float64{1, 10, 7, 30}) || drop.Rows[1][0] != "5" ||
		drop.MissingRecords != 3 || drop.MissingCells != 3 || drop.Missing != MissingDrop {
		t.Errorf("drop: %d records %v, rows %q, %d records %d cells", drop.Data.N, drop.Data.X, drop.Rows, drop.MissingRecords, drop.MissingCells)
	}
	imp, err := ReadCSVWith(strings.NewReader(text), "m.csv", []string{"x", "y"}, &CSVOptions{Missing: MissingImputeMean})
	if err != nil {
		t.Fatal(err)
	}
	// Means of the observed values: x (1+3+5+7)/4 = 4, y (10+20+30)/3 = 20.
	want := []float64{1, 10, 4, 20, 3, 20, 5, 20, 7, 30}
	if imp.Data.N != 5 || !slices.Equal(imp.Data.X, want) || imp.MissingRecords != 3 || imp.MissingCells != 3 {
		t.Errorf("impute-mean: %v, %d records %d cells; want %v", imp.Data.X, imp.MissingRecords, imp.MissingCells, want)
	}
	// Without a selection a column of numbers and missing values is
	// microaggregated under a lenient policy; text still is an error.
	auto, err := ReadCSVWith(strings.NewReader("a,b,c\n1,x,\n2,y,4\n"), "m.csv", nil, &CSVOptions{Missing: MissingDrop})
	if err != nil || !slices.Equal(auto.Cols, []int{0, 2}) || auto.Data.N != 1 {
		t.Errorf("auto drop: %+v, %v", auto, err)
	}
	_, err = ReadCSVWith(strings.NewReader("a,b\n1,x\nz,4\n"), "m.csv", []string{"a"}, &CSVOptions{Missing: MissingDrop})
	if !errors.As(err, &de) || de.Line != 3 || !strings.Contains(de.Msg, `non-numeric value "z"`) {
		t.Errorf("text under drop: %v", err)
	}
	_, err = ReadCSVWith(strings.NewReader("a,b\nNA,1\n,2\n"), "m.csv", []string{"a", "b"}, &CSVOptions{Missing: MissingImputeMean})
	if !errors.As(err, &de) || de.Column != "a" || !strings.Contains(de.Msg, "every value is missing") {
		t.Errorf("all missing, impute: %v", err)
	}
	_, err = ReadCSVWith(strings.NewReader("a,b\nNA,1\n,2\n"), "m.csv", []string{"a", "b"}, &CSVOptions{Missing: MissingDrop})
	if err == nil || !strings.Contains(err.Error(), "all 2 records have a missing value") {
		t.Errorf("all missing, drop: %v", err)
	}
	for _, name := range MissingPolicies() {
		m, err := ParseMissing(name)
		if err != nil || m.String() != name {
			t.Errorf("ParseMissing(%q) = %v, %v", name, m, err)
		}
	}
	if _, err := ParseMissing("omit"); err == nil {
		t.Error("ParseMissing(omit): no error")
	}
}

func TestDecimals(t *testing.T) {
	for s, want := range map[string]int{"12": 0, "-3": 0, "12.50": 2, "1.5e3": 0, "1.25e1": 1, "1e-3": 3, ".5": 1, "5.": 0, "1e-400": maxDecimals, "2E+2": 0} {
		if got := decimalsOf(s); got != want {
			t.Errorf("decimalsOf(%q) = %d, want %d", s, got, want)
		}
	}
	tab, err := ReadCSV(strings.NewReader("a,b,c\n1,2.5,3\n10,0.125,4e-1\n"), "d.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Decimals, []int{0, 3, 1}) {
		t.Errorf("decimals %v, want [0 3 1]", tab.Decimals)
	}
	for _, c := range []struct {
		v    float64
		d    int
		want string
	}{{265865.6666666667, 0, "265866"}, {-0.4, 0, "0"}, {-0.04, 1, "0.0"}, {2.5, 0, "2"}, {1.005, 2, "1.00"}, {-1.5, 0, "-2"}} {
		if got := FormatRounded(c.v, c.d); got != c.want {
			t.Errorf("FormatRounded(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
}

// Rounded is the value a file written by FormatRounded reads back as
// (the values whose disclosure risk sdcopt-pipeline microagg measures);
// decimals < 0 keep v.
func TestRounded(t *testing.T) {
	for _, c := range []struct {
		v    float64
		d    int
		want float64
	}{{265865.6666666667, 0, 265866}, {-0.4, 0, 0}, {2.5, 0, 2}, {1.005, 2, 1}, {-1.5, 0, -2}, {1.25, 1, 1.2}, {0.1 + 0.2, -1, 0.1 + 0.2}} {
		if got := Rounded(c.v, c.d); got != c.want {
			t.Errorf("Rounded(%v, %d) = %v, want %v", c.v, c.d, got, c.want)
		}
	}
}
