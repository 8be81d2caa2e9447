package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// MDAVPublishedSource is where MDAVPublished comes from.
const MDAVPublishedSource = "Mortazavi & Jalili, A Novel Local Search Method for Microaggregation, Table 2, IL_MDAV"

// MDAVPublished holds IL_MDAV of Mortazavi & Jalili, "A Novel Local Search
// Method for Microaggregation", Table 2 (column IL_MDAV), for k = 3, 5,
// 10. k = 4 is not published in the papers we follow.
var MDAVPublished = map[string]map[int]float64{
	"tarragona": {3: 16.93, 5: 22.46, 10: 33.19},
	"census":    {3: 5.69, 5: 9.09, 10: 14.16},
	"eia":       {3: 0.48, 5: 1.67, 10: 3.84},
}

// MDAVKs are the k values of the MDAV table.
var MDAVKs = []int{3, 4, 5, 10}

// MDAVRow is one row: MDAV's IL on a whole CASC data set at one k.
type MDAVRow struct {
	Data      string   `json:"data"`
	N         int      `json:"n"`
	D         int      `json:"d"`
	K         int      `json:"k"`
	IL        float64  `json:"il"`
	Published *float64 `json:"published"` // null when not published
	Match     *bool    `json:"match"`     // equal to 2 decimals; null when not published
	Groups    int      `json:"groups"`
	Seconds   float64  `json:"seconds"`
}

// MDAVReport is the outcome of MDAV.
type MDAVReport struct {
	Method      string    `json:"method"`  // "mdav"
	Measure     string    `json:"measure"` // "il"
	Source      string    `json:"published"`
	Rows        []MDAVRow `json:"rows"`
	Differences int       `json:"differences"` // published values not reproduced to 2 decimals
	Seconds     float64   `json:"seconds"`
}

// MDAVOptions configure MDAV; nil means defaults.
type MDAVOptions struct {
	Data     []string // CASC data sets (empty: all of datasets.CASCNames)
	Ks       []int    // k values (empty: MDAVKs)
	Progress Progress
}

// MDAV runs MDAV on Tarragona, Census and EIA (read from the shared data
// directory) at every k of MDAVKs, beside MDAVPublished.
func MDAV(opt *MDAVOptions) (*MDAVReport, error) {
	if opt == nil {
		opt = &MDAVOptions{}
	}
	_, data, ks, err := opt.mdavCases()
	if err != nil {
		return nil, err
	}
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &MDAVReport{Method: "mdav", Measure: "il", Source: MDAVPublishedSource}
	for _, name := range data {
		raw, err := datasets.LoadCASC(name)
		if err != nil {
			return nil, err
		}
		z, _ := model.Standardize(raw)
		for _, k := range ks {
			prog.Printf("mdav on %s, k = %d", name, k)
			t0 := time.Now()
			cl, err := microagg.Run(microagg.MethodMDAV, z, k, microagg.Options{})
			secs := time.Since(t0).Seconds()
			if err != nil {
				return nil, fmt.Errorf("bench mdav: %s, k = %d: %w", name, k, err)
			}
			if _, err := cl.CheckK(z.N, k); err != nil {
				return nil, checkErr("mdav on %s, k = %d: %v", name, k, err)
			}
			row := MDAVRow{Data: name, N: z.N, D: z.D, K: k, IL: model.IL(z, cl), Groups: cl.NumGroups, Seconds: secs}
			if p, ok := MDAVPublished[name][k]; ok {
				match := fmt.Sprintf("%.2f", row.IL) == fmt.Sprintf("%.2f", p)
				row.Published, row.Match = &p, &match
				if !match {
					rep.Differences++
				}
			}
			rep.Rows = append(rep.Rows, row)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// Tables returns the rows.
func (r *MDAVReport) Tables() []*Table {
	t := &Table{Name: "mdav", Columns: []string{"data", "n", "d", "k", "il", "published", "match", "groups", "seconds"}}
	for _, x := range r.Rows {
		t.add(x.Data, x.N, x.D, x.K, x.IL, x.Published, x.Match, x.Groups, x.Seconds)
	}
	return []*Table{t}
}

// WriteText writes the table beside the published values.
func (r *MDAVReport) WriteText(w io.Writer) error {
	fmt.Fprintln(w, "MDAV information loss IL = 100*SSE/SST (%, z-scored data)")
	fmt.Fprintf(w, "published: %s\n", r.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATA\tN\tD\tK\tGROUPS\tIL\tPUBLISHED\tMATCH\tSECONDS")
	for _, x := range r.Rows {
		pub, match := "-", "-"
		if x.Published != nil {
			pub = fmt.Sprintf("%.2f", *x.Published)
			match = "yes"
			if !*x.Match {
				match = "DIFF"
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.4f\t%s\t%s\t%.3f\n", x.Data, x.N, x.D, x.K, x.Groups, x.IL, pub, match, x.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Differences == 0 {
		_, err := fmt.Fprintln(w, "every published value is reproduced to 2 decimals")
		return err
	}
	_, err := fmt.Fprintf(w, "%d values differ from the published ones at 2 decimals\n", r.Differences)
	return err
}
