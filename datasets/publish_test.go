package datasets

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/roles"
)

// TestWritePublished: only the chosen columns are written, in input order,
// the microaggregated ones replaced; a generated table formats its cells;
// bad selections are errors.
func TestWritePublished(t *testing.T) {
	const data = "id,x,name,y\n1,10,ann,5\n2,20,bob,6\n"
	tab, err := ReadCSV(strings.NewReader(data), "d.csv", []string{"y", "x"})
	if err != nil {
		t.Fatal(err)
	}
	prot, err := model.NewDataset([]string{"x", "y"}, 2, 2, []float64{15, 5.5, 15, 5.5})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tab.WritePublished(&buf, prot, []int{3, 2, 1}); err != nil {
		t.Fatal(err)
	}
	if want := "x,name,y\n15,ann,5.5\n15,bob,5.5\n"; buf.String() != want {
		t.Errorf("published %q, want %q", buf.String(), want)
	}
	if tab.Cell(1, 0) != "2" || tab.Cell(0, 2) != "ann" {
		t.Errorf("cells %q %q", tab.Cell(1, 0), tab.Cell(0, 2))
	}
	for _, cols := range [][]int{{1}, {1, 3, 3}, {1, 3, 4}, {-1, 1, 3}} {
		if err := tab.WritePublished(&bytes.Buffer{}, prot, cols); err == nil {
			t.Errorf("cols %v: no error", cols)
		}
	}
	ds, err := model.NewDataset([]string{"a", "b"}, 2, 2, []float64{1.5, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	gen, err := TableFromDataset(ds, "gen", []string{"b"})
	if err != nil {
		t.Fatal(err)
	}
	if gen.Cell(0, 0) != "1.5" || gen.Cell(1, 1) != "4" {
		t.Errorf("generated cells %q %q", gen.Cell(0, 0), gen.Cell(1, 1))
	}
}

// TestWriteProtectedRoles: the easy path publishes what the CLI would
// (issue 44, item 8: WriteProtected wrote every column at full precision,
// ids included, "P0001,62.666666666666664,..."): the identifier and the
// columns in no role are left out, the microaggregated columns are
// written at the file's precision (Decimals: age 0 decimals, income 2, so
// 400 is written 400.00), and an assignment that does not fit the table,
// or a column the leak check flags, is an error.
func TestWriteProtectedRoles(t *testing.T) {
	const data = "id,age,note,income,diagnosis\n" +
		"P0001,60,a,100.25,flu\nP0002,62,b,200.5,cold\nP0003,66,c,300,flu\nP0004,70,d,400,cold\n"
	tab, err := ReadCSV(strings.NewReader(data), "people.csv", []string{"age", "income"})
	if err != nil {
		t.Fatal(err)
	}
	// Group means by hand: {P0001, P0002, P0003}: age 188/3 = 62.667,
	// income 600.75/3 = 200.25; P0004 stays alone (a 1-record group is
	// enough for the writer).
	prot, err := model.NewDataset([]string{"age", "income"}, 4, 2,
		[]float64{188.0 / 3, 200.25, 188.0 / 3, 200.25, 188.0 / 3, 200.25, 70, 400})
	if err != nil {
		t.Fatal(err)
	}
	assign := func(lists ...roles.List) *roles.Assignment {
		a, err := roles.New(tab.Header, lists...)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	id := roles.List{Role: roles.Identifier, Columns: []string{"id"}}
	qi := roles.List{Role: roles.QuasiIdentifier, Columns: []string{"age", "income"}}
	sens := roles.List{Role: roles.Sensitive, Columns: []string{"diagnosis"}}
	var buf bytes.Buffer
	if err := tab.WriteProtected(&buf, prot, assign(id, qi, sens)); err != nil {
		t.Fatal(err)
	}
	if want := "age,income,diagnosis\n63,200.25,flu\n63,200.25,cold\n63,200.25,flu\n70,400.00,cold\n"; buf.String() != want {
		t.Errorf("published %q, want %q", buf.String(), want)
	}
	// Digits, when set, overrides the source's precision.
	tab.Digits = []int{1, 0}
	buf.Reset()
	if err := tab.WriteProtected(&buf, prot, assign(id, qi, sens)); err != nil || !strings.HasPrefix(buf.String(), "age,income,diagnosis\n62.7,200,flu\n") {
		t.Errorf("Digits [1 0]: %q, %v", buf.String(), err)
	}
	tab.Digits = nil
	other, _ := roles.New([]string{"id", "age", "income"}, qi)
	for _, c := range []struct {
		name string
		a    *roles.Assignment
		want string
	}{
		{"nil", nil, "no roles"},
		{"other header", other, "header"},
		{"age not a quasi-identifier", assign(id, roles.List{Role: roles.QuasiIdentifier, Columns: []string{"income"}}, roles.List{Role: roles.Insensitive, Columns: []string{"age"}}), `"age" is insensitive`},
		{"note a quasi-identifier", assign(id, roles.List{Role: roles.QuasiIdentifier, Columns: []string{"age", "income", "note"}}), `"note" is a quasi-identifier`},
		{"leak", assign(qi, roles.List{Role: roles.Insensitive, Columns: []string{"id"}}), `column "id" (unique)`},
	} {
		err := tab.WriteProtected(&bytes.Buffer{}, prot, c.a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
