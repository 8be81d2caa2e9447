package ip_test

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

func TestTable3Integer(t *testing.T) {
	dir, err := datasets.SharedDir()
	if err != nil {
		t.Skip(err)
	}
	tab, err := datasets.LoadTableCSV(filepath.Join(dir, "autoworkers.csv"), []string{"A", "B", "C", "E"})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := tab.ReleaseSpec("AB,AC,AE,BC,BE,CE")
	if err != nil {
		t.Fatal(err)
	}
	s, err := solvers.New("auto", true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ip.CellBounds(ms, s, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Dobra & Fienberg, Table 3: the sharp upper bound of (A=yes, B=yes,
	// C=no, E<3) is 312 (LP 312.67). Our cell order is A, B, C, E with A
	// slowest: that cell is 1*8 + 1*4 + 0*2 + 0 = 12.
	if b.Upper[12] != 312 {
		t.Errorf("cell 12 upper = %v, want 312 (Table 3)", b.Upper[12])
	}
	for c := range b.Lower {
		if b.Lower[c] != math.Round(b.Lower[c]) || b.Upper[c] != math.Round(b.Upper[c]) {
			t.Errorf("cell %d: non-integer IP bounds [%v, %v]", c, b.Lower[c], b.Upper[c])
		}
	}
}

func TestNoIntegerTable(t *testing.T) {
	s, err := solvers.New("auto", true)
	if err != nil {
		t.Fatal(err)
	}
	vars := []model.Variable{{Name: "A", Levels: []string{"0", "1"}}, {Name: "B", Levels: []string{"0", "1"}}, {Name: "C", Levels: []string{"0", "1"}}}
	// [AB] and [AC] force A = B = C, [BC] says B != C: no table at all.
	ms := &model.MarginSet{Vars: vars, Margins: []*model.Marginal{
		{Vars: []int{0, 1}, Counts: []int64{1, 0, 0, 1}},
		{Vars: []int{0, 2}, Counts: []int64{1, 0, 0, 1}},
		{Vars: []int{1, 2}, Counts: []int64{0, 1, 1, 0}},
	}}
	if _, err := ip.CellBounds(ms, s, nil, nil); !errors.Is(err, ip.ErrInfeasible) {
		t.Errorf("err = %v, want ip.ErrInfeasible", err)
	}
}
