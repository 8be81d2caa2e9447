package bench

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// DobraSource names the paper of the dobra tables.
const DobraSource = "Dobra & Fienberg, Bounds for cell entries in contingency tables induced by fixed marginal totals, Tables 2-5 (Czech autoworkers)"

// dobraTable is one of the bound tables of Dobra & Fienberg, "Bounds for
// cell entries in contingency tables induced by fixed marginal totals with
// applications to disclosure limitation" (Statistical Journal of the UN
// ECE 18, 2001), on the Czech autoworkers data, laid out as in the paper:
// one printed row per combination of the row variables (first variable
// slowest), one column per combination of the column variables.
type dobraTable struct {
	name    string
	title   string
	vars    []string // variables of the table (nil: all six), in CSV order
	margins string   // released margins
	rows    []string // row variables, paper order
	cols    []string // column variables, paper order
	// published bounds, transcribed: one string per printed row, one
	// "lo,up" per column; "?" marks a cell that could not be read.
	published []string
	// publishedLP: the fractional LP upper bounds the paper prints (the
	// symbol ".:" beside a cell), by (row, column).
	publishedLP map[[2]int]float64
}

// dobraTables are the paper's Tables 2-5. Columns are always (B=no,A=no),
// (B=no,A=yes), (B=yes,A=no), (B=yes,A=yes), except Table 4 (A=no, A=yes).
var dobraTables = []dobraTable{
	{
		name: "table2", title: "Table 2: bounds given the marginals [BF], [ABCE], [ADE] (decomposable, Theorem 1)",
		margins: "BF,ABCE,ADE", rows: []string{"F", "E", "D", "C"}, cols: []string{"B", "A"},
		// Table 2, rows F=neg (8 rows) then F=pos (8 rows); within F, E <3
		// then >=3; within E, D <140 then >=140; within D, C no then yes.
		// Clearly printed in the paper.
		published: []string{
			"0,88 0,62 0,224 0,117", // neg <3 <140 no
			"0,261 0,246 0,25 0,38", // neg <3 <140 yes
			"0,88 0,62 0,224 0,117", // neg <3 >=140 no
			"0,261 0,151 0,25 0,38", // neg <3 >=140 yes
			"0,58 0,60 0,170 0,148", // neg >=3 <140 no
			"0,115 0,173 0,20 0,36", // neg >=3 <140 yes
			"0,58 0,60 0,170 0,148", // neg >=3 >=140 no
			"0,115 0,173 0,20 0,36", // neg >=3 >=140 yes
			"0,88 0,62 0,126 0,117", // pos <3 <140 no
			"0,134 0,134 0,25 0,38", // pos <3 <140 yes
			"0,88 0,62 0,126 0,117", // pos <3 >=140 no
			"0,134 0,134 0,25 0,38", // pos <3 >=140 yes
			"0,58 0,60 0,126 0,126", // pos >=3 <140 no
			"0,115 0,134 0,20 0,36", // pos >=3 <140 yes
			"0,58 0,60 0,126 0,126", // pos >=3 >=140 no
			"0,115 0,134 0,20 0,36", // pos >=3 >=140 yes
		},
	},
	{
		name: "table3", title: "Table 3: bounds for the marginal [ABCE] given all its two-way marginals",
		vars: []string{"A", "B", "C", "E"}, margins: "AB,AC,AE,BC,BE,CE",
		rows: []string{"E", "C"}, cols: []string{"B", "A"},
		// Table 3, right half (the left half is the [ABCE] counts). The
		// last row prints "[0.314] [0.344] [0.119] [0.119]" (a period for
		// the comma); read as [0,314] [0,344] [0,119] [0,119].
		published: []string{
			"0,206 0,167 0,404 0,312", // <3 C=no; the last cell also ".: [0,312.67]"
			"0,421 0,463 0,119 0,119", // <3 C=yes
			"0,181 0,167 0,363 0,339", // >=3 C=no
			"0,314 0,344 0,119 0,119", // >=3 C=yes
		},
		publishedLP: map[[2]int]float64{{0, 3}: 312.67},
	},
	{
		name: "table4", title: "Table 4: bounds for the marginal [ADE] given all its two-way marginals",
		vars: []string{"A", "D", "E"}, margins: "AD,AE,DE",
		rows: []string{"E", "D"}, cols: []string{"A"},
		// Table 4, right half; clearly printed.
		published: []string{
			"182,515 130,463", // <3 D=<140
			"83,416 0,333",    // <3 D=>=140
			"0,333 76,409",    // >=3 D=<140
			"30,363 8,341",    // >=3 D=>=140
		},
	},
	{
		name: "table5", title: "Table 5: bounds given [BF], [BC], [BE], [AB], [AC], [AE], [CE], [DE], [AD] (reducible, Theorem 2)",
		margins: "BF,BC,BE,AB,AC,AE,CE,DE,AD", rows: []string{"F", "E", "D", "C"}, cols: []string{"B", "A"},
		// Table 5. The text extraction of this table is garbled: the
		// numbers are legible but two rows come out of order. In the rows
		// "neg <3 >=140 no" (extracted as 206, 404, 167, 312) and
		// "neg >=3 >=140 no" (extracted as 181, 363, 339, 167) the four
		// values are placed in the column order of every other row of
		// Tables 2, 3 and 5 (B=no before B=yes); the values themselves are
		// as printed. "[0.134]" and "[0.126]" (periods) read as [0,134],
		// [0,126]. The paper prints ".: [0,312.67]" beside the last cell of
		// rows 1 and 3 (the fractional LP bounds).
		published: []string{
			"0,206 0,167 0,404 0,312", // neg <3 <140 no
			"0,421 0,463 0,119 0,119", // neg <3 <140 yes
			"0,206 0,167 0,404 0,312", // neg <3 >=140 no (order inferred, see above)
			"0,416 0,333 0,119 0,119", // neg <3 >=140 yes
			"0,181 0,167 0,333 0,339", // neg >=3 <140 no
			"0,314 0,344 0,119 0,119", // neg >=3 <140 yes
			"0,181 0,167 0,363 0,339", // neg >=3 >=140 no (order inferred, see above)
			"0,314 0,341 0,119 0,119", // neg >=3 >=140 yes
			"0,134 0,134 0,126 0,126", // pos <3 <140 no
			"0,134 0,134 0,119 0,119", // pos <3 <140 yes
			"0,134 0,134 0,126 0,126", // pos <3 >=140 no
			"0,134 0,134 0,119 0,119", // pos <3 >=140 yes
			"0,134 0,134 0,126 0,126", // pos >=3 <140 no
			"0,134 0,134 0,119 0,119", // pos >=3 <140 yes
			"0,134 0,134 0,126 0,126", // pos >=3 >=140 no
			"0,134 0,134 0,119 0,119", // pos >=3 >=140 yes
		},
		publishedLP: map[[2]int]float64{{0, 3}: 312.67, {2, 3}: 312.67},
	},
}

// parsePublished returns the published bounds, row-major over (row, col);
// NaN where unknown. It panics on a malformed transcription (programmer
// error).
func (d *dobraTable) parsePublished() (lo, up []float64) {
	for r, row := range d.published {
		for c, cell := range strings.Fields(row) {
			if cell == "?" {
				lo, up = append(lo, math.NaN()), append(up, math.NaN())
				continue
			}
			a, b, ok := strings.Cut(cell, ",")
			x, err1 := strconv.ParseFloat(a, 64)
			y, err2 := strconv.ParseFloat(b, 64)
			if !ok || err1 != nil || err2 != nil {
				panic(fmt.Sprintf("bench: dobra %s row %d cell %d: bad transcription %q", d.name, r, c, cell))
			}
			lo, up = append(lo, x), append(up, y)
		}
	}
	return lo, up
}

// DobraTableNames lists the reproducible tables.
func DobraTableNames() []string {
	var out []string
	for _, d := range dobraTables {
		out = append(out, d.name)
	}
	return out
}

// DobraCell is one cell of a reproduced table.
type DobraCell struct {
	Labels       map[string]string `json:"labels"`
	Count        int64             `json:"count"`
	Lower        float64           `json:"lower"`
	Upper        float64           `json:"upper"`
	Method       string            `json:"method"`
	LPLower      float64           `json:"lp_lower"`
	LPUpper      float64           `json:"lp_upper"`
	IPLower      float64           `json:"ip_lower"`
	IPUpper      float64           `json:"ip_upper"`
	ShuttleLower float64           `json:"shuttle_lower"`
	ShuttleUpper float64           `json:"shuttle_upper"`
	PubLower     *float64          `json:"published_lower"`
	PubUpper     *float64          `json:"published_upper"`
	PubLPUpper   *float64          `json:"published_lp_upper,omitempty"`
	Differs      bool              `json:"differs"` // our sharp bound != published
	Fractional   bool              `json:"lp_fractional"`
	// Verdict, when Differs: what the independent methods say.
	Verdict string `json:"verdict,omitempty"`
}

// DobraTable is one reproduced table.
type DobraTable struct {
	Table   string      `json:"table"`
	Title   string      `json:"title"`
	Margins []string    `json:"margins"`
	Method  string      `json:"method"`
	Sharp   bool        `json:"sharp"`
	Seconds float64     `json:"seconds"`
	Solver  string      `json:"solver"`
	Differs int         `json:"differs"`
	Cells   []DobraCell `json:"cells"` // in the paper's layout order
	def     *dobraTable
}

// DobraReport is the outcome of Dobra.
type DobraReport struct {
	Method      string        `json:"method"` // "auto", the method of our bounds
	Data        string        `json:"data"`
	Source      string        `json:"published"`
	Results     []*DobraTable `json:"tables"`
	Differences int           `json:"differences"` // cells whose sharp bounds differ from the published ones
	Seconds     float64       `json:"seconds"`
}

// DobraOptions configure Dobra; nil means defaults.
type DobraOptions struct {
	// Data is the autoworkers CSV (default: autoworkers.csv of
	// datasets.SharedDir).
	Data string
	// Tables selects tables by name (DobraTableNames; default all).
	Tables   []string
	Progress Progress
}

// Dobra reproduces Dobra & Fienberg's Tables 2-5 on the autoworkers table:
// for every cell our sharp bounds (cellbounds method auto), the LP, IP and
// shuttle bounds, and the published bounds in the paper's layout; every
// difference from the paper comes with the verdict of the independent
// methods.
func Dobra(opt *DobraOptions) (*DobraReport, error) {
	if opt == nil {
		opt = &DobraOptions{}
	}
	prog := progressOf(opt.Progress)
	for _, name := range opt.Tables {
		if !slices.Contains(DobraTableNames(), name) {
			return nil, settingsErr("tables", "unknown table %q (want some of %s)", name, strings.Join(DobraTableNames(), ", "))
		}
	}
	data := opt.Data
	if data == "" {
		dir, err := datasets.SharedDir()
		if err != nil {
			return nil, err
		}
		data = filepath.Join(dir, "autoworkers.csv")
	}
	start := time.Now()
	rep := &DobraReport{Method: cellbounds.Auto, Data: data, Source: DobraSource}
	for i := range dobraTables {
		d := &dobraTables[i]
		if len(opt.Tables) > 0 && !slices.Contains(opt.Tables, d.name) {
			continue
		}
		prog.Printf("dobra %s", d.name)
		r, err := runDobraTable(d, data)
		if err != nil {
			return nil, err
		}
		rep.Results = append(rep.Results, r)
		rep.Differences += r.Differs
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func runDobraTable(d *dobraTable, data string) (*DobraTable, error) {
	t, err := datasets.LoadTableCSV(data, d.vars)
	if err != nil {
		return nil, err
	}
	ms, err := t.ReleaseSpec(d.margins)
	if err != nil {
		return nil, fmt.Errorf("bench dobra: %s: %w", d.name, err)
	}
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.Auto,
		Compare: []string{cellbounds.LP, cellbounds.IP, cellbounds.Shuttle}})
	if err != nil {
		return nil, fmt.Errorf("bench dobra: %s: %w", d.name, err)
	}
	pubLo, pubUp := d.parsePublished()
	r := &DobraTable{Table: d.name, Title: d.title, Method: cellbounds.Auto, Sharp: res.Sharp, Seconds: res.Seconds,
		Solver: res.Compare[cellbounds.IP].Solver, def: d}
	for _, m := range ms.Margins {
		r.Margins = append(r.Margins, model.MarginalName(ms.Vars, m.Vars))
	}
	dims := model.Dims(t.Vars)
	rowDims := make([]int, len(d.rows))
	colDims := make([]int, len(d.cols))
	rowPos := make([]int, len(d.rows))
	colPos := make([]int, len(d.cols))
	for i, v := range d.rows {
		rowPos[i] = t.VarIndex(v)
		rowDims[i] = dims[rowPos[i]]
	}
	for i, v := range d.cols {
		colPos[i] = t.VarIndex(v)
		colDims[i] = dims[colPos[i]]
	}
	nr, nc := model.NumCells(rowDims), model.NumCells(colDims)
	if len(pubLo) != nr*nc {
		panic(fmt.Sprintf("bench: dobra %s transcribes %d cells, the layout has %d", d.name, len(pubLo), nr*nc))
	}
	lv := make([]int, len(dims))
	rl := make([]int, len(rowDims))
	cl := make([]int, len(colDims))
	lpB, ipB, shB := res.Compare[cellbounds.LP].Bounds, res.Compare[cellbounds.IP].Bounds, res.Compare[cellbounds.Shuttle].Bounds
	for ri := 0; ri < nr; ri++ {
		model.CellLevels(rowDims, ri, rl)
		for ci := 0; ci < nc; ci++ {
			model.CellLevels(colDims, ci, cl)
			for i, p := range rowPos {
				lv[p] = rl[i]
			}
			for i, p := range colPos {
				lv[p] = cl[i]
			}
			idx := model.CellIndex(dims, lv)
			cell := DobraCell{Labels: map[string]string{}, Count: t.Counts[idx],
				Lower: res.Bounds.Lower[idx], Upper: res.Bounds.Upper[idx], Method: res.Bounds.Method[idx],
				LPLower: lpB.Lower[idx], LPUpper: lpB.Upper[idx], IPLower: ipB.Lower[idx], IPUpper: ipB.Upper[idx],
				ShuttleLower: shB.Lower[idx], ShuttleUpper: shB.Upper[idx]}
			for i, v := range t.Vars {
				cell.Labels[v.Name] = v.Levels[lv[i]]
			}
			k := ri*nc + ci
			if !math.IsNaN(pubLo[k]) {
				cell.PubLower, cell.PubUpper = &pubLo[k], &pubUp[k]
				cell.Differs = !dobraEq(cell.Lower, pubLo[k]) || !dobraEq(cell.Upper, pubUp[k])
			}
			if v, ok := d.publishedLP[[2]int{ri, ci}]; ok {
				cell.PubLPUpper = &v
			}
			cell.Fractional = cellbounds.Fractional(cell.LPLower) || cellbounds.Fractional(cell.LPUpper)
			if cell.Differs {
				r.Differs++
				cell.Verdict = dobraVerdict(&cell)
			}
			r.Cells = append(r.Cells, cell)
		}
	}
	return r, nil
}

func dobraEq(a, b float64) bool { return math.Abs(a-b) <= cellbounds.FracTol }

var (
	fmtBound    = cellbounds.FormatBound
	fmtInterval = cellbounds.FormatInterval
)

// dobraVerdict explains a difference from the published bound.
func dobraVerdict(c *DobraCell) string {
	ipSh := dobraEq(c.IPLower, c.ShuttleLower) && dobraEq(c.IPUpper, c.ShuttleUpper)
	oursIP := dobraEq(c.Lower, c.IPLower) && dobraEq(c.Upper, c.IPUpper)
	switch {
	case ipSh && oursIP:
		return fmt.Sprintf("IP and shuttle both give [%s,%s]: the published [%s,%s] is not the sharp bound",
			fmtBound(c.IPLower), fmtBound(c.IPUpper), fmtBound(*c.PubLower), fmtBound(*c.PubUpper))
	case ipSh:
		return fmt.Sprintf("IP and shuttle give [%s,%s], our auto bound [%s,%s]: OUR BOUND IS WRONG",
			fmtBound(c.IPLower), fmtBound(c.IPUpper), fmtBound(c.Lower), fmtBound(c.Upper))
	}
	return fmt.Sprintf("IP [%s,%s] and shuttle [%s,%s] disagree: unresolved",
		fmtBound(c.IPLower), fmtBound(c.IPUpper), fmtBound(c.ShuttleLower), fmtBound(c.ShuttleUpper))
}

// CellName names a cell by the table's row and column variables, in the
// paper's order ("F=neg,E=<3,...").
func (r *DobraTable) CellName(c *DobraCell) string {
	var parts []string
	for _, v := range append(append([]string{}, r.def.rows...), r.def.cols...) {
		parts = append(parts, v+"="+c.Labels[v])
	}
	return strings.Join(parts, ",")
}

// Tables returns one row per cell of every table.
func (r *DobraReport) Tables() []*Table {
	t := &Table{Name: "dobra", Columns: []string{"paper_table", "cell", "count", "lower", "upper", "method", "lp_lower", "lp_upper",
		"ip_lower", "ip_upper", "shuttle_lower", "shuttle_upper", "published_lower", "published_upper", "published_lp_upper",
		"differs", "lp_fractional", "verdict"}}
	for _, tb := range r.Results {
		for i := range tb.Cells {
			c := &tb.Cells[i]
			t.add(tb.Table, tb.CellName(c), c.Count, c.Lower, c.Upper, c.Method, c.LPLower, c.LPUpper, c.IPLower, c.IPUpper,
				c.ShuttleLower, c.ShuttleUpper, c.PubLower, c.PubUpper, c.PubLPUpper, c.Differs, c.Fractional, c.Verdict)
		}
	}
	return []*Table{t}
}

// WriteText writes every table in the paper's layout: our bounds, the LP
// bounds and the published bounds, with every difference explained.
func (r *DobraReport) WriteText(w io.Writer) error {
	for _, tb := range r.Results {
		writeDobraText(w, tb)
	}
	return nil
}

func writeDobraText(w io.Writer, r *DobraTable) {
	d := r.def
	fmt.Fprintf(w, "== %s\n", d.title)
	sharp := "not proven sharp"
	if r.Sharp {
		sharp = "sharp"
	}
	methods := map[string]bool{}
	var ms []string
	for _, c := range r.Cells {
		if !methods[c.Method] {
			methods[c.Method] = true
			ms = append(ms, c.Method)
		}
	}
	fmt.Fprintf(w, "margins %s; ours: auto = %s (%s), %.3f s; IP engine %s\n",
		strings.Join(r.Margins, " "), strings.Join(ms, ", "), sharp, r.Seconds, r.Solver)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	colLabels := dobraColLabels(r)
	nc := len(colLabels)
	head := append(append([]string{}, d.rows...), "")
	head = append(head, colLabels...)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for ri := 0; ri*nc < len(r.Cells); ri++ {
		row := r.Cells[ri*nc : (ri+1)*nc]
		var labels []string
		for _, v := range d.rows {
			labels = append(labels, row[0].Labels[v])
		}
		for k, what := range []string{"ours", "lp", "published"} {
			line := make([]string, len(labels))
			if k == 0 {
				copy(line, labels)
			}
			line = append(line, what)
			for _, c := range row {
				var s string
				switch what {
				case "ours":
					s = fmtInterval(c.Lower, c.Upper)
					if c.Differs {
						s += " !"
					}
				case "lp":
					s = fmtInterval(c.LPLower, c.LPUpper)
					if c.Fractional {
						s += " F"
					}
				default:
					if c.PubLower == nil {
						s = "?"
					} else {
						s = fmtInterval(*c.PubLower, *c.PubUpper)
						if c.PubLPUpper != nil {
							s += " (lp " + fmtBound(*c.PubLPUpper) + ")"
						}
					}
				}
				line = append(line, s)
			}
			fmt.Fprintln(tw, strings.Join(line, "\t"))
		}
	}
	tw.Flush()
	nfrac := 0
	for _, c := range r.Cells {
		if c.Fractional {
			nfrac++
		}
	}
	fmt.Fprintf(w, "flags: ! differs from the published bound (%d cells); F fractional LP bound (%d cells)\n", r.Differs, nfrac)
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Differs {
			fmt.Fprintf(w, "  %s (count %d): ours [%s,%s], published [%s,%s]: %s\n", r.CellName(c), c.Count,
				fmtBound(c.Lower), fmtBound(c.Upper), fmtBound(*c.PubLower), fmtBound(*c.PubUpper), c.Verdict)
		}
	}
	fmt.Fprintln(w)
}

func dobraColLabels(r *DobraTable) []string {
	d := r.def
	seen := map[string]bool{}
	var out []string
	for _, c := range r.Cells {
		var parts []string
		for _, v := range d.cols {
			parts = append(parts, v+"="+c.Labels[v])
		}
		s := strings.Join(parts, " ")
		if seen[s] {
			break
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}
