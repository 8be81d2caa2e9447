package datasets

import (
	"bufio"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sdcopt/sdcopt/model"
)

func TestSkipBOM(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"\xef", "\xef"},         // a prefix of the mark is data
		{"\xef\xbb", "\xef\xbb"}, // likewise
		{"\xef\xbb\xbf", ""},     // the mark alone
		{"\xef\xbb\xbfa,b\n", "a,b\n"},
		{"a,b\n", "a,b\n"},
		{"\xef\xbb\xbf\xef\xbb\xbfa", "\xef\xbb\xbfa"}, // only one mark is skipped
		{"a\xef\xbb\xbf", "a\xef\xbb\xbf"},             // a mark later is data
		{"\xef\xbb\xbe,x", "\xef\xbb\xbe,x"},           // not the mark
	} {
		got, err := io.ReadAll(SkipBOM(strings.NewReader(tc.in)))
		if err != nil || string(got) != tc.want {
			t.Errorf("SkipBOM(%q) read %q, %v; want %q", tc.in, got, err, tc.want)
		}
		// One byte at a time: Peek must wait for three bytes.
		got, err = io.ReadAll(SkipBOM(iotest.OneByteReader(strings.NewReader(tc.in))))
		if err != nil || string(got) != tc.want {
			t.Errorf("SkipBOM(one byte at a time %q) read %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	// A *bufio.Reader is used as it is.
	br := bufio.NewReader(strings.NewReader("\xef\xbb\xbfxy"))
	if r := SkipBOM(br); r != io.Reader(br) {
		t.Errorf("SkipBOM(*bufio.Reader) returned a new reader %T", r)
	}
	// A read error before three bytes is not lost.
	boom := errors.New("boom")
	r := SkipBOM(io.MultiReader(strings.NewReader("a"), iotest.ErrReader(boom)))
	got, err := io.ReadAll(r)
	if string(got) != "a" || !errors.Is(err, boom) {
		t.Errorf("read %q, %v; want \"a\", boom", got, err)
	}
}

// bomCase is one input of TestLoadersBOM: the file text without a mark.
type bomCase struct {
	name, text string
}

// loadTwice writes text to path without and then with a byte-order mark,
// loads it both times and checks that the results and errors are the same.
func loadTwice(t *testing.T, path, text string, load func() (any, error)) {
	t.Helper()
	var res [2]any
	var errs [2]error
	for i, prefix := range []string{"", utf8BOM} {
		if err := os.WriteFile(path, []byte(prefix+text), 0o644); err != nil {
			t.Fatal(err)
		}
		res[i], errs[i] = load()
	}
	if (errs[0] == nil) != (errs[1] == nil) || (errs[0] != nil && errs[0].Error() != errs[1].Error()) {
		t.Fatalf("error without a mark %v, with one %v", errs[0], errs[1])
	}
	if !reflect.DeepEqual(res[0], res[1]) {
		t.Fatalf("result without a mark %+v, with one %+v", res[0], res[1])
	}
}

func TestLoadersBOM(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/in.csv"
	// Each loader: good files (the first header cell quoted too: after a
	// mark, encoding/csv alone rejects the quote as a bare '"'), and bad
	// ones whose error must give the same line.
	t.Run("microdata", func(t *testing.T) {
		for _, tc := range []bomCase{
			{"plain", "id,name,x\n1,Ann,2.5\n2,Bob,3\n"},
			{"quoted", "\"id\",name,x\n1,Ann,2.5\n2,Bob,3\n"},
			{"mixed column", "id,x\n1,2\n2,NA\n"},
			{"ragged", "id,x\n1,2\n2\n"},
			{"empty", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				loadTwice(t, path, tc.text, func() (any, error) { return LoadCSV(path, nil) })
				loadTwice(t, path, tc.text, func() (any, error) { return LoadCSV(path, []string{"x"}) })
				loadTwice(t, path, tc.text, func() (any, error) { return Load(path, []string{"id"}) })
			})
		}
		tab, err := ReadCSV(strings.NewReader(utf8BOM+"\"id\",x\n1,2\n"), "r", nil)
		if err != nil || tab.Header[0] != "id" || tab.Data.Names[0] != "id" {
			t.Errorf("ReadCSV after a mark: %v, %v", tab, err)
		}
	})
	t.Run("long table", func(t *testing.T) {
		for _, tc := range []bomCase{
			{"plain", "A,B,count\nx,p,1\ny,q,2\n"},
			{"quoted", "\"A\",B,count\nx,p,1\ny,q,2\n"},
			{"count first", "count,A\n3,x\n"},
			{"bad count", "A,count\nx,1\ny,-2\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				loadTwice(t, path, tc.text, func() (any, error) { return LoadTableCSV(path, nil) })
				loadTwice(t, path, tc.text, func() (any, error) { return LoadTableCSV(path, []string{"A"}) })
				loadTwice(t, path, tc.text, func() (any, error) { return LoadMarginCSV(path) })
			})
		}
	})
	t.Run("margin files", func(t *testing.T) {
		other := writeFile(t, "bc.csv", "B,C,count\np,u,1\nq,u,2\n")
		for _, tc := range []bomCase{
			{"plain", "A,B,count\nx,p,1\ny,q,2\n"},
			{"quoted", "\"A\",B,count\nx,p,1\ny,q,2\n"},
			{"bad", "A,B,count\nx,p,1\nx,p,2\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				loadTwice(t, path, tc.text, func() (any, error) { return LoadMarginFiles([]string{path, other}, nil) })
				loadTwice(t, path, tc.text, func() (any, error) { return LoadMarginFiles([]string{other, path}, []string{"C", "B", "A"}) })
			})
		}
	})
	t.Run("quasi-identifiers", func(t *testing.T) {
		for _, tc := range []bomCase{
			{"plain", qiCSV},
			{"quoted", "\"age\",sex\n30,M\n40,F\n"},
			{"bad", "age,sex\n30,M\nold,F\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				loadTwice(t, path, tc.text, func() (any, error) { return LoadQI(path, []string{"age", "sex"}, []string{"sex"}, false) })
				loadTwice(t, path, tc.text, func() (any, error) { return LoadQI(path, []string{"sex", "age"}, []string{"sex"}, true) })
			})
		}
	})
	t.Run("hierarchy", func(t *testing.T) {
		for _, tc := range []bomCase{
			{"plain", "Divorced,Alone,Any\nWidowed,Alone\nMarried-AF,Married,Any\nMarried-civ,Married\nNever,Any\n"},
			// The first node is a category: with the mark left in, it
			// would be an unknown value and Divorced missing.
			{"quoted", "\"Divorced\",Alone,Any\nWidowed,Alone\nMarried-AF,Married,Any\nMarried-civ,Married\nNever,Any\n"},
			{"bad", "Divorced,Any\nMarried-AF,Any\nDivorced,Alone\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				loadTwice(t, path, tc.text, func() (any, error) { return LoadHierarchy(path, marital()) })
			})
		}
		h, err := ReadHierarchy(strings.NewReader(utf8BOM+"Divorced,Any\nMarried-AF,Any\nMarried-civ,Any\nNever,Any\nWidowed,Any\n"), "h", marital())
		if err != nil || h.Names[0] != "Divorced" {
			t.Errorf("ReadHierarchy after a mark: %v", err)
		}
	})
}

// The loaders' results are plain values: make sure DeepEqual above
// compares something (a nil result on both sides with equal errors is
// fine, but a good file must load).
func TestLoadersBOMLoads(t *testing.T) {
	path := writeFile(t, "t.csv", utf8BOM+"\"A\",count\nx,1\n")
	tab, err := LoadTableCSV(path, nil)
	if err != nil || !reflect.DeepEqual(tab.Vars, []model.Variable{{Name: "A", Levels: []string{"x"}}}) {
		t.Errorf("LoadTableCSV after a mark: %+v, %v", tab, err)
	}
}
