package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadCSVErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		cols []string
		want string // expected in the message after the file name
		line int
		col  string
	}{
		{"missing value", "a,b\n1,2\n3,\n", nil, `:3: column "b": missing value`, 3, "b"},
		{"missing NA", "a,b\n1,2\nNA,4\n", nil, `:3: column "a": missing value "NA"`, 3, "a"},
		{"non-numeric selected", "a,name\n1,x\n2,y\n", []string{"a", "name"}, `:2: column "name": non-numeric value "x"`, 2, "name"},
		{"non-numeric late", "a,b\n1,2\n3,4\n5,z\n", []string{"b"}, `:4: column "b": non-numeric value "z"`, 4, "b"},
		{"NaN", "a,b\n1,2\n3,NaN\n", nil, `:3: column "b": value "NaN" is not a finite number`, 3, "b"},
		{"Inf", "a,b\n1,2\n-Inf,4\n", nil, `:3: column "a": value "-Inf" is not a finite number`, 3, "a"},
		{"overflow", "a,b\n1,2\n1e400,4\n", nil, `:3: column "a": value "1e400" is not a finite number`, 3, "a"},
		// Go literal syntax is text, not a number (strconv.ParseFloat reads
		// "1_2" as 12 and "0x1p3" as 8).
		{"digit separator selected", "a,b\n1,2\n1_2,4\n", []string{"a"}, `:3: column "a": non-numeric value "1_2" (numbers are read in plain decimal or scientific notation`, 3, "a"},
		{"digit separator mixed", "a,b\n1,2\n3,1_0\n", nil, `:3: column "b": non-numeric value "1_0" (numbers are read in plain decimal or scientific notation, such as 1200 or 1.2e3: no digit separators, no hexadecimal) in a column of numbers`, 3, "b"},
		{"hex float mixed", "a,b\n0x1p3,2\n3,4\n", nil, `:2: column "a": non-numeric value "0x1p3" (numbers are read`, 2, "a"},
		{"hex integer selected", "a,b\n1,0x10\n", []string{"b"}, `:2: column "b": non-numeric value "0x10" (numbers are read`, 2, "b"},
		{"Go literals only", "a,b\n1_0,0x10\n2_0,0x1p3\n", nil, ": no numeric columns (columns: a, b)", 0, ""},
		{"ragged short", "a,b,c\n1,2,3\n4,5\n", nil, ":3: 2 fields, the header has 3", 3, ""},
		{"ragged long", "a,b\n1,2\n3,4\n5,6,7\n", nil, ":4: 3 fields, the header has 2", 4, ""},
		{"empty file", "", nil, ": empty file", 0, ""},
		{"blank lines only", "\n\n", nil, ": empty file", 0, ""},
		{"header only", "a,b\n", nil, ":1: header only", 1, ""},
		{"duplicate header", "a,b,a\n1,2,3\n", nil, `:1: column "a": duplicate column name (columns 1 and 3)`, 1, "a"},
		{"empty header name", "a,,c\n1,2,3\n", nil, ":1: column 2 has an empty name", 1, ""},
		{"no numeric columns", "s,t\nx,y\nz,w\n", nil, ": no numeric columns (columns: s, t)", 0, ""},
		{"unknown column", "a,b\n1,2\n", []string{"a", "c"}, `: unknown column "c" (available: a, b)`, 0, ""},
		{"column twice", "a,b\n1,2\n", []string{"a", "a"}, `: column "a" selected twice`, 0, ""},
		{"bare quote", "a,b\n1,2\n3,\"4\n", nil, ":3: ", 3, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "in.csv", tc.text)
			tab, err := LoadCSV(path, tc.cols)
			if err == nil {
				t.Fatalf("no error; data %v", tab.Data)
			}
			if !strings.Contains(err.Error(), path+tc.want) {
				t.Errorf("error %q, want it to contain %q", err, path+tc.want)
			}
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *DataError", err)
			}
			if de.File != path || de.Line != tc.line || de.Column != tc.col {
				t.Errorf("located at %s:%d column %q, want %s:%d column %q", de.File, de.Line, de.Column, path, tc.line, tc.col)
			}
		})
	}
}

func TestLoadCSVMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.csv")
	_, err := LoadCSV(path, nil)
	if err == nil || !strings.Contains(err.Error(), "nope.csv") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v, want a not-exist error naming the file", err)
	}
}

func TestLoadCSVSelection(t *testing.T) {
	// A text column, a quoted text cell with a comma, a column with a
	// missing value marker only in a text column, CRLF line ends and
	// padded numbers.
	text := "id,name,x,note,y\r\n1,\"Smith, J\",2.5,?,10\r\n2,Lee, 3.5 ,ok,20\r\n3,Kim,-1e2,NA,30\r\n"
	path := writeFile(t, "in.csv", text)
	tab, err := LoadCSV(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tab.Data.Names, ","); got != "id,x,y" {
		t.Errorf("default columns %s, want id,x,y", got)
	}
	want := []float64{1, 2.5, 10, 2, 3.5, 20, 3, -100, 30}
	for i, v := range want {
		if tab.Data.X[i] != v {
			t.Fatalf("X = %v, want %v", tab.Data.X, want)
		}
	}
	// --cols order does not change the (input) order of the attributes.
	tab2, err := LoadCSV(path, []string{"y", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tab2.Data.Names, ","); got != "x,y" || tab2.Cols[0] != 2 || tab2.Cols[1] != 4 {
		t.Errorf("selected %s at %v, want x,y at [2 4]", got, tab2.Cols)
	}
	// The protected file keeps every column in input order and replaces
	// only the selected ones.
	prot := tab2.Data.Clone()
	for i := range prot.X {
		prot.X[i] = float64(i) + 0.25
	}
	var buf bytes.Buffer
	if err := tab2.WriteAllColumnsUnsafe(&buf, prot); err != nil {
		t.Fatal(err)
	}
	wantOut := "id,name,x,note,y\n1,\"Smith, J\",0.25,?,1.25\n2,Lee,2.25,ok,3.25\n3,Kim,4.25,NA,5.25\n"
	if buf.String() != wantOut {
		t.Errorf("protected file\n%s\nwant\n%s", buf.String(), wantOut)
	}
	// Reading it back gives the protected values.
	back, err := ReadCSV(strings.NewReader(buf.String()), "back", []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range back.Data.X {
		if v != prot.X[i] {
			t.Fatalf("read back %v, want %v", back.Data.X, prot.X)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0"}, {-0.0 * 1, "0"}, {1234567, "1234567"}, {1e21, "1000000000000000000000"}, {-2.5, "-2.5"}, {1.0 / 3, "0.3333333333333333"}} {
		if got := FormatValue(tc.v); got != tc.want {
			t.Errorf("FormatValue(%g) = %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestLoadCSVColumnKinds(t *testing.T) {
	// Without --cols: numbers only -> selected; no number at all (a name
	// column, a code column, a column of missing values, a name "Nan")
	// -> kept as text; anything else is an error.
	text := "id,name,code,empty,x,nan\n" +
		"1,Ann,A1,,2.5,Nan\n" +
		"2,Bob,B7,NA,3,Inf\n" +
		"3,Cy,C2,?,-1e2,Ann\n"
	tab, err := ReadCSV(strings.NewReader(text), "k.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tab.Data.Names, ","); got != "id,x" {
		t.Errorf("selected %s, want id,x", got)
	}
	if len(tab.Header) != 6 || tab.Rows[1][3] != "NA" {
		t.Errorf("text columns not carried through: header %q rows %q", tab.Header, tab.Rows)
	}
}

func TestLoadCSVMixedColumn(t *testing.T) {
	advice := ": fix the cell, or select the columns to microaggregate explicitly with --cols (the others are kept unmasked)"
	cases := []struct {
		name, text string
		line       int
		col, msg   string
	}{
		// The silent drop this replaces: one text cell left the column of
		// incomes out of the microaggregation, published unmasked.
		{"one text cell", "id,income\n1,100\n2,200\n3,n/a\n4,400\n", 4, "income",
			`non-numeric value "n/a" in a column of numbers (first number "100" on line 2)` + advice},
		{"empty cell", "id,income\n1,100\n2,\n", 3, "income",
			`missing value "" in a column of numbers (first number "100" on line 2)` + advice},
		{"NA before numbers", "id,income\n1,NA\n2,?\n3,300\n", 2, "income",
			`missing value "NA" in a column of numbers (first number "300" on line 4)` + advice},
		{"code column with a number", "zip,x\nA12,1\n0800,2\n", 2, "zip",
			`non-numeric value "A12" in a column of numbers (first number "0800" on line 3)` + advice},
		{"NaN among numbers", "x\n1\nNaN\n", 3, "x",
			`value "NaN" is not a finite number in a column of numbers (first number "1" on line 2)` + advice},
		// Two mixed columns: the first bad cell in file order.
		{"first in file order", "a,b\n1,2\n3,x\ny,4\n", 3, "b",
			`non-numeric value "x" in a column of numbers (first number "2" on line 2)` + advice},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "m.csv", tc.text)
			_, err := LoadCSV(path, nil)
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DataError", err)
			}
			want := fmt.Sprintf("%s:%d: column %q: %s", path, tc.line, tc.col, tc.msg)
			if err.Error() != want {
				t.Errorf("error\n%s\nwant\n%s", err, want)
			}
			if de.File != path || de.Line != tc.line || de.Column != tc.col {
				t.Errorf("located at %s:%d %q", de.File, de.Line, de.Column)
			}
		})
	}
	// The way out the message gives: select the columns explicitly. The
	// mixed column is then kept as text; selecting it is still an error.
	path := writeFile(t, "m.csv", cases[0].text)
	tab, err := LoadCSV(path, []string{"id"})
	if err != nil || strings.Join(tab.Data.Names, ",") != "id" {
		t.Fatalf("--cols id: %v", err)
	}
	_, err = LoadCSV(path, []string{"income"})
	if want := path + `:4: column "income": non-numeric value "n/a"`; err == nil || err.Error() != want {
		t.Errorf("--cols income: error %v, want %s", err, want)
	}
}
