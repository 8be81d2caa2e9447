package tabular

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
)

// microCSV is hand-made microdata: six enterprises (lines 2-7) with a
// region (a leaf of regionHRC), a sector, a turnover, a holding (empty:
// the enterprise is its own holding) and a sampling weight.
const microCSV = `region,sector,turnover,holding,w
N1,a,100,H1,1
N1,a,50,H1,2
N1,b,30,,1
N2,a,200,H2,1
S1,b,10,H1,1
S3,a,5,H3,1
`

// cellOf returns the cell with the given codes or fails.
func cellOf(t *testing.T, tab *Table, codes ...string) Cell {
	t.Helper()
	i, ok := tab.Lookup(codes...)
	if !ok {
		t.Fatalf("no cell %v", codes)
	}
	return tab.Cells[i]
}

func regionSectorSpec(t *testing.T) []DimSpec {
	dims := regionSector(t)
	return []DimSpec{{Column: "region", H: dims[0].H}, {Column: "sector"}}
}

// contribs writes contributions as "ID:value ID:value".
func contribs(cs []Contribution) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.ID+":"+datasets.FormatValue(c.Value))
	}
	return strings.Join(s, " ")
}

func TestReadMicrodataFrequency(t *testing.T) {
	tab, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Magnitude || tab.Weighted {
		t.Error("a frequency table without weights is marked magnitude or weighted")
	}
	// Counts by hand from microCSV: (N1,a) lines 2,3; (N,Total) lines 2-5;
	// (S,Total) lines 6,7; (Total,a) lines 2,3,5,7; S2 has no record.
	for _, c := range []struct {
		region, sector string
		n              int
		status         Status
	}{
		{"N1", "a", 2, Safe}, {"N", "Total", 4, Safe}, {"S", "Total", 2, Safe},
		{"Total", "a", 4, Safe}, {"Total", "Total", 6, Safe}, {"S2", "Total", 0, Empty}, {"S1", "a", 0, Empty},
	} {
		cell := cellOf(t, tab, c.region, c.sector)
		if cell.Value != float64(c.n) || cell.Freq != c.n || cell.Status != c.status || cell.Cost != cell.Value {
			t.Errorf("(%s, %s): value %v freq %d status %v cost %v, want %d %d %v", c.region, c.sector, cell.Value, cell.Freq, cell.Status, cell.Cost, c.n, c.n, c.status)
		}
	}
	if err := tab.CheckConsistent(0); err != nil {
		t.Error(err)
	}
}

func TestReadMicrodataMagnitude(t *testing.T) {
	tab, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t),
		&BuildSettings{Response: "turnover", Holding: "holding"})
	if err != nil {
		t.Fatal(err)
	}
	// Sums, frequencies and top contributions by hand. Respondents are
	// named by their line: 100 is line 2, 50 line 3, 30 line 4, 200 line
	// 5, 10 line 6, 5 line 7. Holdings: H1 = lines 2, 3, 6; H2 = line 5;
	// H3 = line 7; line 4 has none, so it is its own ("respondent 4").
	for _, c := range []struct {
		region, sector string
		value          float64
		freq           int
		top, hold      string
	}{
		{"N1", "a", 150, 2, "2:100 3:50", "H1:150"},
		{"N", "Total", 380, 4, "5:200 2:100 3:50", "H2:200 H1:150 respondent 4:30"},
		{"S", "Total", 15, 2, "6:10 7:5", "H1:10 H3:5"},
		{"Total", "a", 355, 4, "5:200 2:100 3:50", "H2:200 H1:150 H3:5"},
		// grand total: H1 = 100 + 50 + 10 = 160
		{"Total", "Total", 395, 6, "5:200 2:100 3:50", "H2:200 H1:160 respondent 4:30"},
		{"S2", "Total", 0, 0, "", ""},
	} {
		cell := cellOf(t, tab, c.region, c.sector)
		if math.Abs(cell.Value-c.value) > 1e-9 || cell.Freq != c.freq || contribs(cell.Top) != c.top || contribs(cell.TopHolding) != c.hold {
			t.Errorf("(%s, %s): value %v freq %d top %q holding %q; want %v %d %q %q", c.region, c.sector,
				cell.Value, cell.Freq, contribs(cell.Top), contribs(cell.TopHolding), c.value, c.freq, c.top, c.hold)
		}
	}
	if err := tab.CheckConsistent(1e-12); err != nil {
		t.Error(err)
	}
}

func TestReadMicrodataRespondentColumn(t *testing.T) {
	// Two records of respondent R1 in one cell are one contributor of 150.
	text := "id,sector,y\nR1,a,100\nR1,a,50\nR2,a,120\nR3,b,1\n"
	tab, err := ReadMicrodata(strings.NewReader(text), "r.csv", []DimSpec{{Column: "sector"}},
		&BuildSettings{Response: "y", Respondent: "id", TopN: 1})
	if err != nil {
		t.Fatal(err)
	}
	a := cellOf(t, tab, "a")
	if a.Freq != 2 || contribs(a.Top) != "R1:150" || a.Value != 270 {
		t.Errorf("(a): freq %d top %q value %v; want 2, R1:150, 270", a.Freq, contribs(a.Top), a.Value)
	}
	if tot := cellOf(t, tab, "Total"); tot.Freq != 3 || contribs(tot.Top) != "R1:150" {
		t.Errorf("(Total): freq %d top %q; want 3, R1:150", tot.Freq, contribs(tot.Top))
	}
}

func TestReadMicrodataWeights(t *testing.T) {
	tab, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t),
		&BuildSettings{Response: "turnover", Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Weighted || !tab.Magnitude {
		t.Error("not marked weighted magnitude")
	}
	// Line 3 (50) has weight 2, the others 1: (N1, a) = 100 + 2·50 = 200,
	// the grand total 395 + 50 = 445; Freq stays the record count; the top
	// contributions are unweighted values with their weights.
	n1a := cellOf(t, tab, "N1", "a")
	if n1a.Value != 200 || n1a.Freq != 2 || contribs(n1a.Top) != "2:100 3:50" || n1a.Top[1].Weight != 2 {
		t.Errorf("(N1, a): value %v freq %d top %q; want 200 2 \"2:100 3:50\" with weight 2 on line 3", n1a.Value, n1a.Freq, contribs(n1a.Top))
	}
	if tot := cellOf(t, tab, "Total", "Total"); tot.Value != 445 || tot.Freq != 6 {
		t.Errorf("grand total %v freq %d, want 445 6", tot.Value, tot.Freq)
	}
	// A weighted frequency table: (N1, a) = 1 + 2 = 3 records' weight.
	ft, err := ReadMicrodata(strings.NewReader(microCSV), "micro.csv", regionSectorSpec(t), &BuildSettings{Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cellOf(t, ft, "N1", "a"); c.Value != 3 || c.Freq != 2 {
		t.Errorf("weighted count (N1, a) %v freq %d, want 3 2", c.Value, c.Freq)
	}
}

func TestReadMicrodataPrefix(t *testing.T) {
	text := "nace,y\n101,1\n102,2\n201,4\n101,8\n"
	tab, err := ReadMicrodata(strings.NewReader(text), "p.csv", []DimSpec{{Column: "nace", Prefix: []int{1, 3}}}, &BuildSettings{Response: "y"})
	if err != nil {
		t.Fatal(err)
	}
	// 1 = 101 + 102 = (1 + 8) + 2 = 11; 2 = 4; Total 15.
	for code, want := range map[string]float64{"1": 11, "101": 9, "2": 4, "Total": 15} {
		if c := cellOf(t, tab, code); c.Value != want {
			t.Errorf("(%s) = %v, want %v", code, c.Value, want)
		}
	}
}

func TestReadMicrodataErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		set        *BuildSettings
		line       int
		column     string
		msg        string
	}{
		{"code not in hierarchy", "region,sector,turnover\nN1,a,1\nX9,a,1\n", nil, 3, "region", `"X9" is not in the hierarchy`},
		{"total code in data", "region,sector,turnover\nN,a,1\n", nil, 2, "region", "not a leaf"},
		{"missing code", "region,sector,turnover\nN1,NA,1\n", nil, 2, "sector", "missing code"},
		{"bad number", "region,sector,turnover\nN1,a,1\nN2,a,abc\n", &BuildSettings{Response: "turnover"}, 3, "turnover", "not a number"},
		{"missing response", "region,sector,turnover\nN1,a,\n", &BuildSettings{Response: "turnover"}, 2, "turnover", "missing value"},
		{"no column", "region,sector,turnover\nN1,a,1\n", &BuildSettings{Weight: "w"}, 1, "w", "no such column"},
		{"zero weight", "region,sector,w\nN1,a,0\n", &BuildSettings{Weight: "w"}, 2, "w", "not positive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadMicrodata(strings.NewReader(c.text), "m.csv", regionSectorSpec(t), c.set)
			var de *datasets.DataError
			if !errors.As(err, &de) || !errors.Is(err, ErrBuild) {
				t.Fatalf("error %v, want a *datasets.DataError wrapping ErrBuild", err)
			}
			if de.File != "m.csv" || de.Line != c.line || de.Column != c.column || !strings.Contains(de.Msg, c.msg) {
				t.Errorf("error %q, want m.csv:%d column %q containing %q", err, c.line, c.column, c.msg)
			}
		})
	}
}
