package tabular

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

func TestTableFileRoundTrip(t *testing.T) {
	tab, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t), &BuildSettings{Response: "turnover"})
	if err != nil {
		t.Fatal(err)
	}
	// Hand suppression: (S1, b) primary by a rule, (S3, a) secondary, a
	// fractional cost on the grand total.
	i, _ := tab.Lookup("S1", "b")
	tab.Cells[i].Status, tab.Cells[i].Rule = Primary, "freq(3)"
	tab.Cells[i].Upper, tab.Cells[i].Lower, tab.Cells[i].Sliding = 2.5, 1.25, 4
	tab.Cells[i].PriorLower, tab.Cells[i].PriorUpper = -1, 1000
	j, _ := tab.Lookup("S3", "a")
	tab.Cells[j].Status = Secondary
	k, _ := tab.Lookup("Total", "Total")
	tab.Cells[k].Cost = 0.1
	var buf bytes.Buffer
	if err := WriteTableFile(&buf, tab); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	// Header plus 24 cells; the first row is the grand total (canonical
	// order: totals before their parts), sum 395 and 6 respondents from
	// microCSV.
	if len(lines) != 25 || lines[0] != "region,sector,value,freq,status,cost,rule,upper,lower,sliding,prior_lower,prior_upper" || lines[1] != "Total,Total,395,6,safe,0.1,,0,0,0,0," {
		t.Fatalf("file starts %q, %q (%d lines)", lines[0], lines[1], len(lines))
	}
	back, err := ReadTableFile(strings.NewReader(text), "t.csv", tab.Dims, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Cells {
		a, b := tab.Cells[i], back.Cells[i]
		if a.Value != b.Value || a.Freq != b.Freq || a.Status != b.Status || a.Cost != b.Cost || a.Rule != b.Rule ||
			a.Upper != b.Upper || a.Lower != b.Lower || a.Sliding != b.Sliding || a.PriorLower != b.PriorLower || a.PriorUpper != b.PriorUpper {
			t.Errorf("cell (%s): read back %+v, wrote %+v", tab.CellName(i), b, a)
		}
	}
	var again bytes.Buffer
	if err := WriteTableFile(&again, back); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Error("writing the table read back changes the file")
	}
	// The same file without hierarchies: both dimensions become flat
	// (region's subtotals N and S are then leaves under Total, and the
	// relations no longer hold: the file's totals double count).
	flat, err := ReadTableFile(strings.NewReader(text), "t.csv", []Dimension{{Name: "sector"}, {Name: "region"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(flat.Dims[1].H.Codes(), " "); got != "Total N N1 N2 S S1 S2 S3" {
		t.Errorf("flat region codes %q", got)
	}
	if err := flat.CheckConsistent(1e-9); !errors.Is(err, ErrInconsistent) {
		t.Errorf("flat reading: CheckConsistent = %v, want ErrInconsistent", err)
	}
}

func TestReadTableFileSpellings(t *testing.T) {
	// A τ-ARGUS/sdcTable style file: semicolons, status letters, no cost,
	// columns in another order, an extra column, cells missing.
	text := "status;sector;value;note;freq\ns;Total;10;x;4\nu;a;7;;1\nx;b;3;;3\n"
	f, _ := NewFlat("", []string{"a", "b", "c"})
	tab, err := ReadTableFile(strings.NewReader(text), "t.csv", []Dimension{{"sector", f}}, &TableFileSettings{Sep: ';'})
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]Cell{
		"Total": {Value: 10, Freq: 4, Cost: 10, Status: Safe},
		"a":     {Value: 7, Freq: 1, Cost: 7, Status: Primary},
		"b":     {Value: 3, Freq: 3, Cost: 3, Status: Secondary},
		"c":     {Status: Empty},
	} {
		if c := cellOf(t, tab, code); c.Value != want.Value || c.Freq != want.Freq || c.Cost != want.Cost || c.Status != want.Status {
			t.Errorf("(%s) = %+v, want %+v", code, c, want)
		}
	}
	if err := tab.CheckConsistent(0); err != nil {
		t.Error(err)
	}
}

func TestReadTableFileErrors(t *testing.T) {
	f, _ := NewFlat("", []string{"a", "b"})
	dims := []Dimension{{"sector", f}}
	for _, c := range []struct {
		name, text string
		line       int
		column     string
		msg        string
	}{
		{"unknown code", "sector,value\nTotal,1\nz,1\n", 3, "sector", `"z" is not in the hierarchy`},
		{"twice", "sector,value\na,1\nb,1\na,2\n", 4, "sector", "twice (first on line 2)"},
		{"bad value", "sector,value\na,x\n", 2, "value", "not a number"},
		{"bad freq", "sector,value,freq\na,1,-1\n", 2, "freq", "not a count"},
		{"negative level", "sector,value,upper\na,1,-1\n", 2, "upper", "negative"},
		{"bad prior bound", "sector,value,prior_upper\na,1,x\n", 2, "prior_upper", "not a number"},
		{"bad status", "sector,value,status\na,1,q\n", 2, "status", "unknown status"},
		{"no value column", "sector,count\na,1\n", 1, "value", "no such column"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadTableFile(strings.NewReader(c.text), "t.csv", dims, nil)
			var de *datasets.DataError
			if !errors.As(err, &de) || !errors.Is(err, ErrTableFile) {
				t.Fatalf("error %v, want a *datasets.DataError wrapping ErrTableFile", err)
			}
			if de.Line != c.line || de.Column != c.column || !strings.Contains(de.Msg, c.msg) {
				t.Errorf("error %q, want line %d column %q containing %q", err, c.line, c.column, c.msg)
			}
		})
	}
}

func TestReadTableFileCostColumn(t *testing.T) {
	const text = "r,value,w\na,5,2\nb,7,x\n"
	dims := []Dimension{{Name: "r"}}
	_, err := ReadTableFile(strings.NewReader(text), "t.csv", dims, &TableFileSettings{CostColumn: "w"})
	var de *datasets.DataError
	if !errors.As(err, &de) || de.Line != 3 || de.Column != "w" {
		t.Fatalf("error %v, want line 3 column w", err)
	}
	tab, err := ReadTableFile(strings.NewReader("r,value,w\na,5,2\nb,7,4\n"), "t.csv", dims, &TableFileSettings{CostColumn: "w"})
	if err != nil {
		t.Fatal(err)
	}
	// Cells in order: Total (not in the file: cost 0), a, b.
	if tab.Cells[1].Cost != 2 || tab.Cells[2].Cost != 4 {
		t.Errorf("costs %g %g, want 2 4 (column w)", tab.Cells[1].Cost, tab.Cells[2].Cost)
	}
	if _, err := ReadTableFile(strings.NewReader(text), "t.csv", dims, &TableFileSettings{CostColumn: "nope"}); !errors.Is(err, ErrTableFile) {
		t.Errorf("missing cost column: %v", err)
	}
}

// TestWritePublished: the published file has codes, value and freq only,
// x for both in a suppressed cell (primary or secondary), and the same
// rows as the table file. Totals from microCSV: grand total 395, 6
// respondents (as TestTableFileRoundTrip).
func TestWritePublished(t *testing.T) {
	tab, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t), &BuildSettings{Response: "turnover"})
	if err != nil {
		t.Fatal(err)
	}
	i, _ := tab.Lookup("S1", "b")
	tab.Cells[i].Status = Primary
	j, _ := tab.Lookup("S3", "a")
	tab.Cells[j].Status = Secondary
	for _, withFreq := range []bool{true, false} {
		var buf bytes.Buffer
		if err := WritePublished(&buf, tab, withFreq); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		head, total, s1b, s3a := "region,sector,value,freq", "Total,Total,395,6", "S1,b,x,x", "S3,a,x,x"
		if !withFreq {
			head, total, s1b, s3a = "region,sector,value", "Total,Total,395", "S1,b,x", "S3,a,x"
		}
		if len(lines) != 25 || lines[0] != head || lines[1] != total {
			t.Fatalf("withFreq %v: file starts %q, %q (%d lines)", withFreq, lines[0], lines[1], len(lines))
		}
		if !slices.Contains(lines, s1b) || !slices.Contains(lines, s3a) {
			t.Errorf("withFreq %v: no %q or %q in %q", withFreq, s1b, s3a, lines)
		}
		for _, l := range lines {
			if strings.Count(l, "x") > 0 && l != s1b && l != s3a {
				t.Errorf("withFreq %v: unexpected x in %q", withFreq, l)
			}
		}
	}
}
