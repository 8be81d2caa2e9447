package kanon

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

func TestParseInterval(t *testing.T) {
	for _, c := range []struct {
		cell   string
		lo, hi float64
		bad    bool
	}{
		{"[-5--3]", -5, -3, false}, {"[1e-05-2]", 1e-5, 2, false}, {"7", 7, 7, false}, {"-2.5", -2.5, -2.5, false},
		{"[1.-2]", 1, 2, false}, {"[3-]", 0, 0, true}, {"[3-4", 0, 0, true}, {"[34]", 0, 0, true}, {"abc", 0, 0, true}, {"[1-Inf]", 0, 0, true},
		// Go literal syntax (strconv.ParseFloat reads 12, 8 and 10): not numbers.
		{"1_2", 0, 0, true}, {"0x1p3", 0, 0, true}, {"[1_0-20]", 0, 0, true}, {"[1-0x1p3]", 0, 0, true}, {"[1e1-1.5E2]", 10, 150, false},
	} {
		lo, hi, err := ParseInterval(c.cell)
		if (err != nil) != c.bad || (!c.bad && (lo != c.lo || hi != c.hi)) {
			t.Errorf("ParseInterval(%q) = %v, %v, %v", c.cell, lo, hi, err)
		}
	}
}

// publicationData is a small mixed data set: two numeric and one
// categorical quasi-identifier, and one other column.
const publicationData = "age,zip,sex,income\n30,100,M,10\n31,101,F,20\n35,100,F,30\n40,105,M,40\n41,104,M,50\n45,103,F,60\n"

func loadPublicationData(t testing.TB) *datasets.QIData {
	t.Helper()
	q, err := datasets.ReadQI(strings.NewReader(publicationData), "data.csv", []string{"age", "zip", "sex"}, []string{"sex"}, false)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// allColumns publishes every column of q (the tests' data have no
// identifier).
func allColumns(q *datasets.QIData) []int {
	cols := make([]int, len(q.Header))
	for j := range cols {
		cols[j] = j
	}
	return cols
}

// publish anonymizes the data and returns the two files.
func publish(t testing.TB, q *datasets.QIData, k int) (pub, graph []byte, res *Result) {
	t.Helper()
	res, err := Anonymize(q.Table, k, &Options{Method: MethodHungarian, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var pb, gb bytes.Buffer
	if err := WritePublished(&pb, q, res, allColumns(q)); err != nil {
		t.Fatal(err)
	}
	if err := WriteGraph(&gb, q, res); err != nil {
		t.Fatal(err)
	}
	return pb.Bytes(), gb.Bytes(), res
}

// TestPublicationRoundTrip writes a publication, reads it back (also with
// a byte-order mark, as Excel saves CSV) and verifies it; corrupted copies
// are rejected with the right kind of error.
func TestPublicationRoundTrip(t *testing.T) {
	q := loadPublicationData(t)
	const k = 2
	pub, graph, res := publish(t, q, k)
	for _, bom := range []string{"", "\xef\xbb\xbf"} {
		p, err := ReadPublished(strings.NewReader(bom+string(pub)), "pub.csv", q)
		if err != nil {
			t.Fatalf("bom %q: %v", bom, err)
		}
		edges, err := ReadGraph(strings.NewReader(bom+string(graph)), "graph.csv")
		if err != nil {
			t.Fatalf("bom %q: %v", bom, err)
		}
		v, err := VerifyPublication(q, p, edges, k, &res.GCP, "pub.csv", "graph.csv")
		if err != nil {
			t.Fatalf("bom %q: %v", bom, err)
		}
		if v.N != q.Table.N || v.Edges != k*q.Table.N || !closeRel(v.GCP, res.GCP) {
			t.Errorf("verification %+v, want n %d, %d edges, GCP %g", v, q.Table.N, k*q.Table.N, res.GCP)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(graph)), "\n")
	cases := []struct {
		name       string
		pub, graph string
		want       error
		contains   string
	}{
		{"graph header", string(pub), "a,b,c,d\n" + strings.Join(lines[1:], "\n"), ErrFormat, "graph.csv:1"},
		{"graph field", string(pub), strings.Join(lines[:2], "\n") + "\nx,1,0,0\n", ErrFormat, "graph.csv:3"},
		{"graph flag", string(pub), strings.Join(lines[:2], "\n") + "\n1,1,2,0\n", ErrFormat, "not 0 or 1"},
		{"missing edge", string(pub), strings.Join(lines[:len(lines)-1], "\n") + "\n", ErrInvalid, "published row"},
		{"published header", "x" + string(pub), string(graph), ErrFormat, "pub.csv:1"},
		{"published column twice", strings.Replace(string(pub), "income", "age", 1), string(graph), ErrFormat, `column "age" appears twice`},
		{"published QI missing", dropColumn(string(pub), 2), string(graph), ErrFormat, `quasi-identifier "sex" is not among the published columns`},
		{"unknown category", strings.Replace(string(pub), ",M,", ",Q,", 1), string(graph), ErrInvalid, `"Q"`},
		{"empty graph", string(pub), "", ErrFormat, "empty file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			p, err := ReadPublished(strings.NewReader(c.pub), "pub.csv", q)
			if err == nil {
				var edges []Edge
				edges, err = ReadGraph(strings.NewReader(c.graph), "graph.csv")
				if err == nil {
					_, err = VerifyPublication(q, p, edges, k, nil, "pub.csv", "graph.csv")
				}
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.contains) {
				t.Errorf("error %v, want %v containing %q", err, c.want, c.contains)
			}
		})
	}
}

// FuzzReadGraph: the graph reader never panics, and every error is a
// format error naming the file.
func FuzzReadGraph(f *testing.F) {
	q := loadPublicationData(f)
	_, graph, _ := publish(f, q, 2)
	f.Add(graph)
	f.Add([]byte("original,published,own,assigned\n1,1,1,1\n"))
	f.Add([]byte("\xef\xbb\xbforiginal,published,own,assigned\n"))
	f.Add([]byte("original,published,own,assigned\n1,\"2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadGraph(bytes.NewReader(data), "g.csv")
		if err != nil && (!errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "g.csv")) {
			t.Errorf("error %v: want ErrFormat naming g.csv", err)
		}
	})
}

// FuzzReadPublished: the published-file reader never panics, errors name
// the file, and whatever it accepts can be verified without a panic.
func FuzzReadPublished(f *testing.F) {
	q := loadPublicationData(f)
	pub, graph, _ := publish(f, q, 2)
	edges, err := ReadGraph(bytes.NewReader(graph), "g.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pub)
	f.Add([]byte("age,zip,sex,income\n[30-31],{100|101},{M|F},10\n"))
	f.Add([]byte("age,zip,sex,income\n[5-3],100,M,1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPublished(bytes.NewReader(data), "p.csv", q)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "p.csv") {
				t.Errorf("error %v: want ErrFormat or ErrInvalid naming p.csv", err)
			}
			return
		}
		if _, err := VerifyPublication(q, p, edges, 2, nil, "p.csv", "g.csv"); err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("verification error %v does not wrap ErrInvalid", err)
		}
	})
}

// dropColumn removes column c from every line of a CSV text without
// quoted cells.
func dropColumn(text string, c int) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for x, l := range lines {
		f := strings.Split(l, ",")
		lines[x] = strings.Join(append(f[:c:c], f[c+1:]...), ",")
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestPublishedColumns: the published file carries the chosen columns in
// the input's order, the quasi-identifiers where the input has them;
// without a choice only the quasi-identifiers; it reads back and verifies
// (the header says which columns it has), and a layout without a
// quasi-identifier or with a column twice is refused.
func TestPublishedColumns(t *testing.T) {
	const data = "id,sex,age,income,zip\n1,M,30,10,100\n2,F,31,20,101\n3,F,35,30,100\n4,M,40,40,105\n5,M,41,50,104\n6,F,45,60,103\n"
	q, err := datasets.ReadQI(strings.NewReader(data), "d.csv", []string{"zip", "age", "sex"}, []string{"sex"}, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Anonymize(q.Table, 2, &Options{Method: MethodHungarian, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var gb bytes.Buffer
	if err := WriteGraph(&gb, q, res); err != nil {
		t.Fatal(err)
	}
	edges, err := ReadGraph(bytes.NewReader(gb.Bytes()), "g.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cols   []int
		header string
	}{
		{[]int{4, 3, 2, 1}, "sex,age,income,zip"},
		{nil, "sex,age,zip"},
	} {
		var pb bytes.Buffer
		if err := WritePublished(&pb, q, res, c.cols); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(pb.String(), "\n")
		if lines[0] != c.header {
			t.Errorf("cols %v: header %q, want %q", c.cols, lines[0], c.header)
		}
		p, err := ReadPublished(bytes.NewReader(pb.Bytes()), "p.csv", q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := VerifyPublication(q, p, edges, 2, &res.GCP, "p.csv", "g.csv"); err != nil {
			t.Errorf("cols %v: %v", c.cols, err)
		}
		if c.cols != nil {
			// A changed unchanged cell is caught.
			f := strings.Split(lines[1], ",")
			f[2] = "999" // income of the first published row
			lines[1] = strings.Join(f, ",")
			p, err := ReadPublished(strings.NewReader(strings.Join(lines, "\n")), "p.csv", q)
			if err == nil {
				_, err = VerifyPublication(q, p, edges, 2, nil, "p.csv", "g.csv")
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `column "income"`) {
				t.Errorf("changed income: %v", err)
			}
		}
	}
	for _, cols := range [][]int{{1, 2}, {1, 2, 4, 4}, {1, 2, 4, 5}} {
		if err := WritePublished(io.Discard, q, res, cols); err == nil {
			t.Errorf("cols %v: no error", cols)
		}
	}
}
