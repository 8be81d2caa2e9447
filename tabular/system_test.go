package tabular

import (
	"errors"
	"strings"
	"testing"
)

// linkedCSV extends microCSV with a size class (s, l): the tables
// region × sector and region × size share their region margin (sector
// and size at Total), the grand total included.
const linkedCSV = `region,sector,size,turnover
N1,a,s,100
N1,a,l,50
N1,b,s,30
N2,a,l,200
S1,b,s,10
S3,a,l,5
`

func linkedTables(t *testing.T) (*Table, *Table) {
	t.Helper()
	rs := regionSectorSpec(t)
	ab, err := ReadMicrodata(strings.NewReader(linkedCSV), "l.csv", rs, &BuildSettings{Response: "turnover"})
	if err != nil {
		t.Fatal(err)
	}
	ac, err := ReadMicrodata(strings.NewReader(linkedCSV), "l.csv", []DimSpec{rs[0], {Column: "size"}}, &BuildSettings{Response: "turnover"})
	if err != nil {
		t.Fatal(err)
	}
	return ab, ac
}

func TestSystemLinked(t *testing.T) {
	ab, ac := linkedTables(t)
	sys, err := NewSystem([]*Table{ab, ac}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Cells: 8 region codes × 3 sector codes + 8 × 3 size codes, less the
	// 8 region-margin cells both hold = 40. Relations: 17 per table
	// (TestRelations' count; size is flat with 2 leaves like sector), less
	// the 3 along region at the margin (totals Total, N, S with sector or
	// size at Total), which are the same relations = 31.
	if sys.Len() != 40 || len(sys.Relations) != 31 || len(sys.Vars) != 3 {
		t.Fatalf("%d cells, %d relations, %d variables; want 40, 31, 3", sys.Len(), len(sys.Relations), len(sys.Vars))
	}
	shared := 0
	for _, c := range sys.Cells {
		if len(c.Refs) == 2 {
			shared++
		}
	}
	if shared != 8 {
		t.Errorf("%d shared cells, want 8", shared)
	}
	// The region margin cell N: 100+50+30+200 = 380 in both tables, one
	// system cell.
	g, ok := sys.Lookup(map[string]string{"region": "N"})
	if !ok || sys.Cells[g].Value != 380 || len(sys.Cells[g].Refs) != 2 {
		t.Fatalf("margin cell N: %v %+v", ok, sys.Cells[g])
	}
	i, _ := ab.Lookup("N", "Total")
	j, _ := ac.Lookup("N", "Total")
	if sys.Global[0][i] != g || sys.Global[1][j] != g {
		t.Errorf("tables' (N, Total) map to %d and %d, want %d", sys.Global[0][i], sys.Global[1][j], g)
	}
	if g, _ := sys.Lookup(map[string]string{"size": "l", "region": "N2"}); sys.Cells[g].Value != 200 {
		t.Errorf("(N2, size l) = %v, want 200", sys.Cells[g].Value)
	}
	if _, ok := sys.Lookup(map[string]string{"sector": "a", "size": "l"}); ok {
		t.Error("sector × size is in no table but was found")
	}
	if err := sys.CheckConsistent(1e-12); err != nil {
		t.Error(err)
	}
	// Each relation appears once.
	seen := map[[2]int]bool{}
	for _, r := range sys.Relations {
		if seen[[2]int{r.Total, r.Dim}] {
			t.Errorf("relation of %s along %s twice", sys.CellName(r.Total), sys.Vars[r.Dim].Name)
		}
		seen[[2]int{r.Total, r.Dim}] = true
	}
}

func TestSystemConflicts(t *testing.T) {
	ab, ac := linkedTables(t)
	// A disagreeing margin: table 1 says (N, Total) is 381.
	j, _ := ac.Lookup("N", "Total")
	ac.Cells[j].Value = 381
	_, err := NewSystem([]*Table{ab, ac}, nil)
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, ErrLinked) {
		t.Fatalf("error %v, want a *ConflictError", err)
	}
	if ce.Cell != "region=N" || ce.Field != "value" || ce.Tables != [2]int{0, 1} || ce.Values != [2]string{"380", "381"} {
		t.Errorf("conflict %+v, want cell region=N, value 380 in table 0, 381 in table 1", ce)
	}
	// Within a loose tolerance it links (|381 − 380| ≤ 0.01·381).
	if _, err := NewSystem([]*Table{ab, ac}, &SystemSettings{Tol: 0.01}); err != nil {
		t.Errorf("tolerance 0.01: %v", err)
	}
	ac.Cells[j].Value = 380

	// Statuses: primary in one table, safe in the other: primary.
	i, _ := ab.Lookup("S", "Total")
	k, _ := ac.Lookup("S", "Total")
	ac.Cells[k].Status, ac.Cells[k].Rule = Primary, "p%"
	sys, err := NewSystem([]*Table{ab, ac}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := sys.Cells[sys.Global[0][i]]; c.Status != Primary || c.Rule != "p%" {
		t.Errorf("merged status %v rule %q, want primary p%%", c.Status, c.Rule)
	}
	// Must publish in one, primary in the other: a conflict.
	ab.Cells[i].Status = MustPublish
	if _, err := NewSystem([]*Table{ab, ac}, nil); !errors.As(err, &ce) || ce.Field != "status" {
		t.Errorf("must_publish vs primary: %v, want a status conflict", err)
	}

	// A variable with two hierarchies.
	flat, _ := NewFlat("", []string{"N1", "N2", "S1", "S2", "S3"})
	other := NewTable([]Dimension{{"region", flat}})
	if _, err := NewSystem([]*Table{ab, other}, nil); !errors.Is(err, ErrLinked) || !strings.Contains(err.Error(), `"region"`) {
		t.Errorf("two hierarchies: %v, want ErrLinked naming region", err)
	}
}
