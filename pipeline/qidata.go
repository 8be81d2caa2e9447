package pipeline

import (
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// QIDataOf wraps a table (such as datasets.SyntheticQI) as loaded data:
// one column per attribute, named by it, cells formatted as a CSV file of
// the table would hold them (datasets.FormatValue, category names).
func QIDataOf(t *model.QITable) *datasets.QIData {
	d := t.D()
	q := &datasets.QIData{Table: t, Rows: make([]int, t.N), Header: make([]string, d), QICols: make([]int, d), Records: make([][]string, t.N)}
	for a := range d {
		q.Header[a], q.QICols[a] = t.Attrs[a].Name, a
	}
	for i := range t.N {
		q.Rows[i] = i
		rec := make([]string, d)
		for a, v := range t.Row(i) {
			if t.Attrs[a].Kind == model.Numeric {
				rec[a] = datasets.FormatValue(v)
			} else {
				rec[a] = t.Attrs[a].Categories[int(v)]
			}
		}
		q.Records[i] = rec
	}
	return q
}
