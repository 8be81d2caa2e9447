package datasets

import (
	"slices"
	"strings"
	"testing"
)

// TestMissingUnified: a missing value is spelled the same in every reader
// (issue 44, missing values: kanon read "" and "?", microagg "", "NA" and
// "?", the microdata of audit and serve only "?" and "NA", as labels, and
// refused an empty one): IsMissing says which cells are missing, and each
// reader treats all three spellings alike.
func TestMissingUnified(t *testing.T) {
	for _, c := range []struct {
		cell string
		want bool
	}{{"", true}, {"NA", true}, {"?", true}, {" NA ", true}, {"na", false}, {"N/A", false}, {"0", false}, {"-", false}, {"??", false}} {
		if got := IsMissing(c.cell); got != c.want {
			t.Errorf("IsMissing(%q) = %v, want %v", c.cell, got, c.want)
		}
	}
	for _, miss := range []string{"", "NA", "?"} {
		// k-anonymity: a missing numeric or categorical QI drops the row...
		in := "age,job,x\n30,a,1\n" + miss + ",b,2\n40," + miss + ",3\n50,c,4\n"
		q, err := ReadQI(strings.NewReader(in), "q.csv", []string{"age", "job"}, []string{"job"}, false)
		if err != nil || q.Dropped != 2 || q.Table.N != 2 {
			t.Errorf("ReadQI %q: %v", miss, err)
		}
		// ...or, kept, is the category "?" (categorical).
		in = "age,job\n30,a\n35," + miss + "\n40,b\n"
		q, err = ReadQI(strings.NewReader(in), "q.csv", []string{"age", "job"}, []string{"job"}, true)
		if err != nil || q.Dropped != 0 || !slices.Equal(q.Table.Attrs[1].Categories, []string{"?", "a", "b"}) {
			t.Errorf("ReadQI keep %q: %v", miss, err)
		}
		// Microaggregation: dropped under MissingDrop.
		tab, err := ReadCSVWith(strings.NewReader("a,b\n1,2\n"+miss+",3\n4,5\n"), "m.csv", []string{"a", "b"}, &CSVOptions{Missing: MissingDrop})
		if err != nil || tab.MissingRecords != 1 || tab.Data.N != 2 {
			t.Errorf("ReadCSV %q: %v", miss, err)
		}
		// Categorical microdata (audit, serve): the category "?", its
		// levels in canonical order (CompareLabels: "?" before letters).
		md, err := ReadMicrodata(strings.NewReader("sex,x\nM,1\n"+miss+",2\nF,3\n"), "d.csv", []string{"sex"}, nil)
		if err != nil || !slices.Equal(md.Vars[0].Levels, []string{MissingLabel, "F", "M"}) {
			t.Errorf("ReadMicrodata %q: %v %+v", miss, err, md)
		}
	}
}

// TestCheckDropped: ReadQI counts the missing values of every
// quasi-identifier with the first line, and CheckDropped refuses a drop
// above the share allowed, naming the file, the first line and the column
// (issue 44: a third of the records dropped silently).
func TestCheckDropped(t *testing.T) {
	in := "age,job\n30,a\n35,\n40,b\nNA,?\n50,c\n60,\n"
	q, err := ReadQI(strings.NewReader(in), "p.csv", []string{"age", "job"}, []string{"job"}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []MissingCount{{"age", 1, 5}, {"job", 3, 3}}
	if q.Dropped != 3 || !slices.Equal(q.Missing, want) {
		t.Fatalf("dropped %d, missing %+v, want 3, %+v", q.Dropped, q.Missing, want)
	}
	if err := q.CheckDropped(0.5); err != nil {
		t.Errorf("3 of 6 within 0.5: %v", err)
	}
	err = q.CheckDropped(DefaultMaxDropped)
	if err == nil || !strings.HasPrefix(err.Error(), `p.csv:3: column "job": 3 of 6 records (50.0 %)`) || !strings.Contains(err.Error(), "age 1, job 3") {
		t.Errorf("above 5 %%: %v", err)
	}
}
