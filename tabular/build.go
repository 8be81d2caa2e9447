package tabular

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/datasets"
)

// DefaultTopN is how many of the largest contributions a magnitude cell
// keeps when BuildSettings.TopN is 0: enough for the (n,k)-dominance rule
// with n ≤ 3 and the p% rule (which needs the two largest).
const DefaultTopN = 3

// ErrBuild is the sentinel of a microdata file that cannot be tabulated
// (a bad code, number or weight); the error is a *datasets.DataError
// naming the file, the line and the column.
var ErrBuild = errors.New("tabular: cannot tabulate microdata")

// DimSpec says how one microdata column spans a table.
type DimSpec struct {
	Column string     // the column of the codes (the leaves)
	H      *Hierarchy // the hierarchy; nil: built from the data's codes
	// Prefix, when H is nil, is a code-prefix rule (PrefixHierarchy) over
	// the data's codes; nil means flat (the codes in datasets.CompareLabels
	// order under one total).
	Prefix []int
	Root   string // the total's code when the hierarchy is built from the data; default DefaultRoot
}

// BuildSettings are the options of ReadMicrodata; nil means a frequency
// table without weights.
type BuildSettings struct {
	Response   string // numeric column summed in a magnitude table; "" makes a frequency table
	Respondent string // magnitude tables: column identifying respondents (a respondent's records in a cell are summed and count once in Freq); default: each record is one respondent, named by its line number. A frequency table counts records
	Holding    string // column of the holding of each respondent; "" keeps no TopHolding. A missing holding makes the respondent its own holding
	Weight     string // column of sampling weights (positive); "" means 1
	Request    string // magnitude tables: column saying whether the respondent asked for protection (ParseRequest: 1/0, yes/no, true/false; missing means no); a respondent asked when any of its records says so. "" means no requests
	TopN       int    // contributions kept per cell, by respondent and by holding; default DefaultTopN
	Sep        rune   // field separator; default ','
}

// LoadMicrodata reads the microdata file at path; see ReadMicrodata.
func LoadMicrodata(path string, dims []DimSpec, s *BuildSettings) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMicrodata(f, path, dims, s)
}

// ReadMicrodata tabulates a CSV file of microdata (a header row, one
// record a row) over the dimensions dims: every cell, totals and subtotals
// included, gets Value (the number of records, or the sum of the
// response; weighted by the sampling weights when a weight column is
// given), Freq (the unweighted number of respondents), Cost = Value,
// Status Safe (Empty when Freq is 0), and in a magnitude table the TopN
// largest contributions by respondent (and by holding).
//
// Every failure is a *datasets.DataError naming the file (name), the line
// and the column, wrapping ErrBuild or ErrHierarchy: a column not in the
// header, a missing value (datasets.IsMissing) in a dimension, response or
// weight column, a code not a leaf of the dimension's hierarchy, a
// response or weight that is not a number, a weight ≤ 0, a request column
// without a response column or a request value that ParseRequest refuses.
// A nil dims or a dimension named twice panics.
func ReadMicrodata(r io.Reader, name string, dims []DimSpec, s *BuildSettings) (*Table, error) {
	if len(dims) == 0 {
		panic("tabular: ReadMicrodata without dimensions")
	}
	var set BuildSettings
	if s != nil {
		set = *s
	}
	if set.Sep == 0 {
		set.Sep = ','
	}
	cr := csv.NewReader(datasets.SkipBOM(r))
	cr.Comma = set.Sep
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		return nil, datasets.CSVError(name, err)
	}
	col := func(c string) (int, error) {
		if c == "" {
			return -1, nil
		}
		for j, h := range header {
			if strings.TrimSpace(h) == c {
				return j, nil
			}
		}
		return -1, &datasets.DataError{File: name, Line: 1, Column: c, Msg: "no such column", Err: ErrBuild}
	}
	dcol := make([]int, len(dims))
	for d, ds := range dims {
		if dcol[d], err = col(ds.Column); err != nil {
			return nil, err
		}
	}
	rcol, err := col(set.Response)
	if err != nil {
		return nil, err
	}
	idcol, err := col(set.Respondent)
	if err != nil {
		return nil, err
	}
	hcol, err := col(set.Holding)
	if err != nil {
		return nil, err
	}
	wcol, err := col(set.Weight)
	if err != nil {
		return nil, err
	}
	qcol, err := col(set.Request)
	if err != nil {
		return nil, err
	}
	if qcol >= 0 && rcol < 0 {
		return nil, &datasets.DataError{File: name, Line: 1, Column: set.Request,
			Msg: "a request column needs a magnitude table (a response column): requests are judged on the largest contributions", Err: ErrBuild}
	}

	type record struct {
		codes    []string
		value, w float64
		id, hold string
		line     int
		request  bool
	}
	var recs []record
	rows := datasets.NewRows(cr, name, 0)
	for rec, line := range rows.All() {
		bad := func(j int, msg string) error {
			return &datasets.DataError{File: name, Line: line, Column: header[j], Msg: msg, Err: ErrBuild}
		}
		num := func(j int) (float64, error) {
			f := strings.TrimSpace(rec[j])
			if datasets.IsMissing(f) {
				return 0, bad(j, "missing value")
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return 0, bad(j, fmt.Sprintf("%q is not a number", f))
			}
			return v, nil
		}
		x := record{codes: make([]string, len(dims)), value: 1, w: 1, line: line, id: strconv.Itoa(line)}
		for d, j := range dcol {
			x.codes[d] = strings.TrimSpace(rec[j])
			if datasets.IsMissing(x.codes[d]) {
				return nil, bad(j, "missing code")
			}
		}
		if rcol >= 0 {
			if x.value, err = num(rcol); err != nil {
				return nil, err
			}
		}
		if wcol >= 0 {
			if x.w, err = num(wcol); err != nil {
				return nil, err
			}
			if x.w <= 0 {
				return nil, bad(wcol, fmt.Sprintf("weight %v is not positive", x.w))
			}
		}
		if idcol >= 0 {
			if x.id = strings.TrimSpace(rec[idcol]); datasets.IsMissing(x.id) {
				return nil, bad(idcol, "missing respondent")
			}
		}
		if hcol >= 0 {
			if x.hold = strings.TrimSpace(rec[hcol]); datasets.IsMissing(x.hold) {
				x.hold = "respondent " + x.id
			}
		}
		if qcol >= 0 {
			if x.request, err = ParseRequest(rec[qcol]); err != nil {
				return nil, bad(qcol, err.Error())
			}
		}
		recs = append(recs, x)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	tdims := make([]Dimension, len(dims))
	for d, ds := range dims {
		h := ds.H
		if h == nil {
			var codes []string
			seen := map[string]bool{}
			for _, x := range recs {
				if c := x.codes[d]; !seen[c] {
					seen[c] = true
					codes = append(codes, c)
				}
			}
			slices.SortFunc(codes, datasets.CompareLabels)
			if ds.Prefix != nil {
				h, err = PrefixHierarchy(ds.Root, codes, ds.Prefix)
			} else {
				h, err = NewFlat(ds.Root, codes)
			}
			if err != nil {
				return nil, &datasets.DataError{File: name, Column: ds.Column, Msg: strings.TrimPrefix(err.Error(), "tabular: "), Err: ErrHierarchy}
			}
		}
		tdims[d] = Dimension{Name: ds.Column, H: h}
	}
	b := NewBuilder(tdims, &BuilderSettings{
		Magnitude: rcol >= 0, Weighted: wcol >= 0, Holdings: hcol >= 0,
		Respondents: idcol >= 0, TopN: set.TopN,
	})
	leaf := make([]int, len(dims))
	for _, x := range recs {
		for d, c := range x.codes {
			k, ok := tdims[d].H.Index(c)
			if !ok || !tdims[d].H.IsLeaf(k) {
				msg := fmt.Sprintf("code %q is not in the hierarchy", c)
				if ok {
					msg = fmt.Sprintf("code %q is a total of the hierarchy, not a leaf", c)
				}
				return nil, &datasets.DataError{File: name, Line: x.line, Column: dims[d].Column, Msg: msg, Err: ErrBuild}
			}
			leaf[d] = k
		}
		b.Add(leaf, x.value, x.w, x.id, x.hold)
		if x.request {
			b.MarkRequested(x.id)
		}
	}
	return b.Table(), nil
}

// ParseRequest reads a value of a request column: 1, yes, y, true (the
// respondent asked for protection) or 0, no, n, false, case-insensitive;
// a missing value (datasets.IsMissing) is no. Anything else is an error.
func ParseRequest(s string) (bool, error) {
	s = strings.TrimSpace(s)
	if datasets.IsMissing(s) {
		return false, nil
	}
	switch strings.ToLower(s) {
	case "1", "yes", "y", "true":
		return true, nil
	case "0", "no", "n", "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a request flag (want 1/0, yes/no or true/false; empty means no)", s)
}

// BuilderSettings are the options of NewBuilder; nil means a frequency
// table without weights.
type BuilderSettings struct {
	Magnitude   bool // values are a response's sums, with top contributions
	Weighted    bool // the table is weighted (Table.Weighted)
	Respondents bool // respondent IDs may repeat: a respondent's records are summed before ranking
	Holdings    bool // keep the top contributions by holding
	TopN        int  // contributions kept per cell; default DefaultTopN
}

// Builder tabulates records one at a time into a table; the microdata
// readers use it, and so can callers with data in memory.
type Builder struct {
	t      *Table
	set    BuilderSettings
	chains [][][]int // chains[d][leaf] = the leaf's ancestors, leaf first, root last
	// Respondents and holdings are interned (ids: name → number, the
	// name and the weight of its first record by number); per cell, a
	// map from number to the summed value.
	resp, hold     []map[int32]float64
	respID, holdID ids
	odo            []int
	requested      map[string]bool // respondents that asked for protection
}

// ids interns names as small integers.
type ids struct {
	num    map[string]int32
	name   []string
	weight []float64
}

// get returns the number of name, new ones with weight w.
func (x *ids) get(name string, w float64) int32 {
	if n, ok := x.num[name]; ok {
		return n
	}
	if x.num == nil {
		x.num = map[string]int32{}
	}
	n := int32(len(x.name))
	x.num[name] = n
	x.name = append(x.name, name)
	x.weight = append(x.weight, w)
	return n
}

// NewBuilder returns a builder of the table over dims.
func NewBuilder(dims []Dimension, s *BuilderSettings) *Builder {
	b := &Builder{t: NewTable(dims)}
	if s != nil {
		b.set = *s
	}
	if b.set.TopN <= 0 {
		b.set.TopN = DefaultTopN
	}
	b.t.Magnitude, b.t.Weighted = b.set.Magnitude, b.set.Weighted
	b.chains = make([][][]int, len(dims))
	for d, dim := range dims {
		h := dim.H
		b.chains[d] = make([][]int, h.Len())
		for k := range h.Len() {
			if h.IsLeaf(k) {
				for a := k; a >= 0; a = h.Parent(a) {
					b.chains[d][k] = append(b.chains[d][k], a)
				}
			}
		}
	}
	if b.set.Magnitude && b.set.Respondents {
		b.resp = make([]map[int32]float64, b.t.Len())
	}
	if b.set.Magnitude && b.set.Holdings {
		b.hold = make([]map[int32]float64, b.t.Len())
	}
	b.odo = make([]int, len(dims))
	return b
}

// Add adds one record at the leaves with code indices leaf (one per
// dimension) to every cell above it: value is the response (ignored in a
// frequency table, where the record counts 1), w its sampling weight, id
// its respondent, holding its holding ("" when not kept). A non-leaf
// index panics.
func (b *Builder) Add(leaf []int, value, w float64, id, holding string) {
	for d, k := range leaf {
		if b.chains[d][k] == nil {
			panic(fmt.Sprintf("tabular: Builder.Add: code %q of %q is not a leaf", b.t.Dims[d].H.Code(k), b.t.Dims[d].Name))
		}
	}
	v := w
	if b.set.Magnitude {
		v = w * value
	}
	var rid, hid int32
	if b.resp != nil {
		rid = b.respID.get(id, w)
	}
	if b.hold != nil {
		hid = b.holdID.get(holding, w)
	}
	clear(b.odo)
	for {
		i := 0
		for d, k := range leaf {
			i += b.chains[d][k][b.odo[d]] * b.t.stride[d]
		}
		c := &b.t.Cells[i]
		c.Value += v
		c.Cost = c.Value
		c.Status = Safe
		if b.set.Magnitude {
			if b.resp != nil {
				aggregate(&b.resp[i], rid, value)
			} else {
				c.Freq++
				c.Top = insertTop(c.Top, Contribution{id, value, w, false}, b.set.TopN)
			}
			if b.hold != nil {
				aggregate(&b.hold[i], hid, value)
			}
		} else if b.resp == nil {
			c.Freq++
		}
		// next combination of ancestors
		d := len(leaf) - 1
		for ; d >= 0; d-- {
			b.odo[d]++
			if b.odo[d] < len(b.chains[d][leaf[d]]) {
				break
			}
			b.odo[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// aggregate adds value to key's sum in *m.
func aggregate(m *map[int32]float64, key int32, value float64) {
	if *m == nil {
		*m = map[int32]float64{}
	}
	(*m)[key] += value
}

// before is the order of top contributions: larger value first, ties by
// ID so that the result does not depend on the input order.
func before(a, b Contribution) bool {
	return a.Value > b.Value || (a.Value == b.Value && a.ID < b.ID)
}

// insertTop inserts c into top (sorted by before), keeping at most n.
func insertTop(top []Contribution, c Contribution, n int) []Contribution {
	if len(top) == n && !before(c, top[n-1]) {
		return top
	}
	j := len(top)
	for j > 0 && before(c, top[j-1]) {
		j--
	}
	if len(top) < n {
		top = append(top, Contribution{})
	}
	copy(top[j+1:], top[j:])
	top[j] = c
	return top
}

// MarkRequested records that respondent id (as given to Add) asked for
// protection: its contributions in the table's Top are Requested.
func (b *Builder) MarkRequested(id string) {
	if b.requested == nil {
		b.requested = map[string]bool{}
	}
	b.requested[id] = true
}

// Table finishes the table: the top contributions of aggregated
// respondents and holdings are ranked, and those of respondents marked by
// MarkRequested are Requested. The builder must not be used after.
func (b *Builder) Table() *Table {
	for i := range b.t.Cells {
		c := &b.t.Cells[i]
		if b.resp != nil {
			c.Freq = len(b.resp[i])
			for k, v := range b.resp[i] {
				c.Top = insertTop(c.Top, Contribution{b.respID.name[k], v, b.respID.weight[k], false}, b.set.TopN)
			}
		}
		if b.hold != nil {
			for k, v := range b.hold[i] {
				c.TopHolding = insertTop(c.TopHolding, Contribution{b.holdID.name[k], v, b.holdID.weight[k], false}, b.set.TopN)
			}
		}
		if b.requested != nil {
			for k := range c.Top {
				c.Top[k].Requested = b.requested[c.Top[k].ID]
			}
		}
	}
	t := b.t
	b.t, b.resp, b.hold = nil, nil, nil
	return t
}
