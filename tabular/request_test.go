package tabular

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/tabular/primary"
)

// requestCSV: two sectors of four enterprises each (lines 2-5 and 6-9).
// In sector a the largest (e1, 100) asked for protection; in sector b only
// the 4th largest (f4, 20) did, and the 2nd largest (f2) of sector c.
// Sector c's f2 asked on one of its two records (yes, then empty).
const requestCSV = `sector,id,turnover,req
a,e1,100,1
a,e2,50,0
a,e3,30,
a,e4,20,no
b,f1,100,0
b,f2,50,n
b,f3,30,false
b,f4,20,YES
c,g1,100,0
c,g2,30,yes
c,g2,20,
c,g3,30,0
`

// TestRequest: a cell whose largest contributor requested protection is
// primary by rule "request" with the safety range (default 10 %, by hand:
// 10 % of 200 = 20 for a, of 180 = 18 for c, of 580 = 58 for the total);
// a cell whose 4th largest did is not (the rule looks at the RequestTop =
// 2 largest); a cell whose 2nd largest requested on one of its records
// is. freq:3 does not fire (4 and 3 respondents).
func TestRequest(t *testing.T) {
	tab, err := ReadMicrodata(strings.NewReader(requestCSV), "req.csv", []DimSpec{{Column: "sector"}},
		&BuildSettings{Response: "turnover", Respondent: "id", Request: "req"})
	if err != nil {
		t.Fatal(err)
	}
	a := cellOf(t, tab, "a")
	if len(a.Top) == 0 || a.Top[0].ID != "e1" || !a.Top[0].Requested || a.Top[1].Requested {
		t.Fatalf("sector a top %+v, want e1 requested first", a.Top)
	}
	rs, err := primary.ParseRuleSet("freq:3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyPrimary(tab, rs); err != nil {
		t.Fatal(err)
	}
	// The total's two largest are e1 and f1 (100 each, g1 too; ties by
	// ID): e1 asked, so it is primary.
	for _, c := range []struct {
		code    string
		primary bool
		level   float64
	}{{"a", true, 20}, {"b", false, 0}, {"c", true, 18}, {"Total", true, 58}} {
		got := cellOf(t, tab, c.code)
		if (got.Status == Primary) != c.primary {
			t.Errorf("sector %s: status %v rule %q, want primary %v", c.code, got.Status, got.Rule, c.primary)
		}
		if c.primary && (got.Rule != "request" || math.Abs(got.Upper-c.level) > 1e-9 || math.Abs(got.Lower-c.level) > 1e-9) {
			t.Errorf("sector %s: rule %q levels %g, %g; want request with %g", c.code, got.Rule, got.Upper, got.Lower, c.level)
		}
	}
}

// TestRequestBadInput: a request value that is not a flag is an error
// naming the file, the line and the column; a request column without a
// response column too.
func TestRequestBadInput(t *testing.T) {
	bad := strings.Replace(requestCSV, "b,f3,30,false", "b,f3,30,maybe", 1)
	_, err := ReadMicrodata(strings.NewReader(bad), "req.csv", []DimSpec{{Column: "sector"}},
		&BuildSettings{Response: "turnover", Respondent: "id", Request: "req"})
	var de *datasets.DataError
	if !errors.As(err, &de) || !errors.Is(err, ErrBuild) || de.File != "req.csv" || de.Line != 8 || de.Column != "req" ||
		!strings.Contains(err.Error(), "maybe") {
		t.Fatalf("err %v, want req.csv line 8 column req", err)
	}
	_, err = ReadMicrodata(strings.NewReader(requestCSV), "req.csv", []DimSpec{{Column: "sector"}}, &BuildSettings{Request: "req"})
	if !errors.As(err, &de) || de.Column != "req" || !strings.Contains(err.Error(), "magnitude") {
		t.Fatalf("frequency table: err %v, want the request column refused", err)
	}
	_, err = ReadMicrodata(strings.NewReader(requestCSV), "req.csv", []DimSpec{{Column: "sector"}},
		&BuildSettings{Response: "turnover", Request: "nosuch"})
	if !errors.As(err, &de) || de.Column != "nosuch" {
		t.Fatalf("missing column: err %v", err)
	}
}
