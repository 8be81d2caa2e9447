package datasets

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
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
