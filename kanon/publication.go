package kanon

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/numtext"
	"github.com/sdcopt/sdcopt/model"
)

// The publication of a freeform generalization is two CSV files.
//
// The published file has a header of the published columns, in the
// input's column order: every quasi-identifier and the columns published
// unchanged that the caller chose (package roles: the sensitive and
// insensitive ones; identifiers and unclassified columns are left out).
// The header says which columns the file carries, so reading it back
// needs no list of roles. One row per published record, in the seeded
// publish order (Result.PublishOrder). A numeric quasi-identifier is
// "[lo-hi]" (a single value when lo = hi), a categorical one "{a|b|c}"
// (the values in category order; a single value without braces), with a
// hierarchy the name of the box's node. The other columns hold the cells
// of the original that the seeded random assignment (Result.Assignment)
// pairs with the box.
//
// The graph file "original,published,own,assigned" has one line per edge
// of the k-regular graph (for Mondrian: of the complete bipartite graph of
// every class): original is the 1-based data row of the input
// file (the header not counted; rows dropped for missing values never
// appear), published the 1-based data row of the published file; own is 1
// on the edge of the record whose own box it is (the identity round),
// assigned is 1 on the edge of the original whose other attributes the
// published row carries. The graph file links published and original
// records: it is for the data holder's audit, never for publication.
// With it VerifyPublication checks everything.

// Errors of reading and verifying a publication.
var (
	// ErrFormat: a published or graph file that cannot be parsed (bad CSV,
	// wrong header, a cell that is not a number or a set, ...).
	ErrFormat = errors.New("kanon: malformed publication file")
	// ErrInvalid: files that parse but are not a valid k-anonymous
	// publication of the data.
	ErrInvalid = errors.New("kanon: not a valid k-anonymous publication")
)

// GraphHeader is the header of the graph file.
var GraphHeader = []string{"original", "published", "own", "assigned"}

// Layout is the columns of a published file.
type Layout struct {
	Columns []int // header indices of q of the file's columns, in file order
	QIAt    []int // QIAt[a]: the file column of quasi-identifier a
	Rest    []int // header indices of the columns published unchanged, in file order
	RestAt  []int // RestAt[x]: the file column of Rest[x]
}

// Header returns the names of the file's columns.
func (l *Layout) Header(q *datasets.QIData) []string {
	h := make([]string, len(l.Columns))
	for x, j := range l.Columns {
		h[x] = q.Header[j]
	}
	return h
}

// NewLayout builds the layout of a published file of q that carries the
// columns cols (header indices of q, at most once each, every
// quasi-identifier among them), written in the input's column order
// whatever the order of cols. cols nil publishes the quasi-identifiers
// only. It fails for an index out of range, a column given twice and a
// missing quasi-identifier.
func NewLayout(q *datasets.QIData, cols []int) (*Layout, error) {
	if cols == nil {
		cols = q.QICols
	}
	cols = slices.Clone(cols)
	slices.Sort(cols)
	for x, j := range cols {
		switch {
		case j < 0 || j >= len(q.Header):
			return nil, fmt.Errorf("kanon: published column %d outside the %d columns of the data", j, len(q.Header))
		case x > 0 && cols[x-1] == j:
			return nil, fmt.Errorf("kanon: column %q published twice", q.Header[j])
		}
	}
	return layoutOf(q, cols)
}

// layoutOf builds the layout of the distinct columns cols, in file order.
func layoutOf(q *datasets.QIData, cols []int) (*Layout, error) {
	l := &Layout{Columns: cols, QIAt: make([]int, len(q.QICols))}
	for a, j := range q.QICols {
		l.QIAt[a] = slices.Index(cols, j)
		if l.QIAt[a] < 0 {
			return nil, fmt.Errorf("kanon: quasi-identifier %q is not among the published columns", q.Header[j])
		}
	}
	for x, j := range cols {
		if !slices.Contains(q.QICols, j) {
			l.Rest = append(l.Rest, j)
			l.RestAt = append(l.RestAt, x)
		}
	}
	return l, nil
}

// FormatBoxCell formats attribute a of box b as the published file has it.
// It fails for categorical values that would not read back as written (a
// value containing '|' in a set, a single value starting with '{').
func FormatBoxCell(at *model.QIAttr, b *model.Box, a int) (string, error) {
	switch {
	case at.Kind == model.Numeric:
		if b.Lo[a] == b.Hi[a] {
			return datasets.FormatValue(b.Lo[a]), nil
		}
		return "[" + datasets.FormatValue(b.Lo[a]) + "-" + datasets.FormatValue(b.Hi[a]) + "]", nil
	case at.Hier != nil:
		return at.Hier.Names[b.Node[a]], nil
	}
	var vals []string
	for c, v := range at.Categories {
		if b.Set[a][c/64]&(1<<(c%64)) != 0 {
			vals = append(vals, v)
		}
	}
	if len(vals) == 1 {
		if strings.HasPrefix(vals[0], "{") {
			return "", fmt.Errorf("attribute %s: value %q starts with '{' and would read back as a set", at.Name, vals[0])
		}
		return vals[0], nil
	}
	for _, v := range vals {
		if strings.Contains(v, "|") {
			return "", fmt.Errorf("attribute %s: value %q contains '|', the set separator", at.Name, v)
		}
	}
	return "{" + strings.Join(vals, "|") + "}", nil
}

// WritePublished writes the published file of res carrying the columns
// cols of q (see NewLayout: header indices, every quasi-identifier among
// them, written in input order; nil = the quasi-identifiers only). Which
// columns may be published unchanged is the caller's decision (package
// roles: the sensitive and insensitive columns, after roles.Check).
func WritePublished(w io.Writer, q *datasets.QIData, res *Result, cols []int) error {
	t := q.Table
	l, err := NewLayout(q, cols)
	if err != nil {
		return err
	}
	boxes := t.Boxes(res.Graph)
	cw := csv.NewWriter(w)
	if err := cw.Write(l.Header(q)); err != nil {
		return err
	}
	rec := make([]string, len(l.Columns))
	for _, j := range res.PublishOrder {
		for a := range t.Attrs {
			cell, err := FormatBoxCell(&t.Attrs[a], boxes[j], a)
			if err != nil {
				return err
			}
			rec[l.QIAt[a]] = cell
		}
		orig := q.Records[q.Rows[res.Assignment[j]]]
		for x, c := range l.Rest {
			rec[l.RestAt[x]] = orig[c]
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteGraph writes the graph file of res.
func WriteGraph(w io.Writer, q *datasets.QIData, res *Result) error {
	if _, err := io.WriteString(w, strings.Join(GraphHeader, ",")+"\n"); err != nil {
		return err
	}
	b01 := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for p, j := range res.PublishOrder {
		for _, i := range res.Graph.Matched[j] {
			if _, err := fmt.Fprintf(w, "%d,%d,%d,%d\n", q.Rows[i]+1, p+1, b01(int(i) == j), b01(int(i) == res.Assignment[j])); err != nil {
				return err
			}
		}
	}
	return nil
}

// Published is a published file read back: one box per row (file order)
// and the row's other cells.
type Published struct {
	Layout *Layout      // the file's columns
	Boxes  []*model.Box // the quasi-identifier cells of every row, as boxes
	Rest   [][]string   // the row's other cells, in the order of Layout.Rest
}

// formatErr and invalid build the two kinds of errors, naming the file and
// line.
func formatErr(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrFormat, name, line, fmt.Sprintf(format, args...))
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// csvErr names the file in a CSV parse error (which carries its line).
func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return formatErr(name, pe.Line, "%v", pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// ReadPublished parses a published file for the data q (whose table gives
// the quasi-identifiers and categories). The header names the file's
// columns: each must be a column of q, at most once, every
// quasi-identifier among them, in any order (files that put the
// quasi-identifiers first read as well). A leading UTF-8 byte-order mark
// is skipped. Cells that parse but cannot be boxes of the data (an
// unknown category, an empty interval) wrap ErrInvalid; anything that
// does not parse wraps ErrFormat. Errors name the file (name) and line.
func ReadPublished(r io.Reader, name string, q *datasets.QIData) (*Published, error) {
	cr := csv.NewReader(datasets.SkipBOM(r))
	header, err := cr.Read()
	if err == io.EOF {
		return nil, formatErr(name, 1, "empty file")
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	cols := make([]int, len(header))
	for x, h := range header {
		j := slices.Index(q.Header, strings.TrimSpace(h))
		switch {
		case j < 0:
			return nil, formatErr(name, 1, "header: column %q is not a column of the data (%s)", h, strings.Join(q.Header, ", "))
		case slices.Contains(cols[:x], j):
			return nil, formatErr(name, 1, "header: column %q appears twice", h)
		}
		cols[x] = j
	}
	l, err := layoutOf(q, cols)
	if err != nil {
		return nil, formatErr(name, 1, "header: %v", strings.TrimPrefix(err.Error(), "kanon: "))
	}
	cr.FieldsPerRecord = len(header)
	t := q.Table
	d := t.D()
	pub := &Published{Layout: l}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		b := &model.Box{Lo: make([]float64, d), Hi: make([]float64, d), Set: make([][]uint64, d), Node: make([]int32, d)}
		for a := range t.Attrs {
			if err := parseBoxCell(&t.Attrs[a], b, a, rec[l.QIAt[a]]); err != nil {
				var v *cellViolation
				if errors.As(err, &v) {
					return nil, invalid("%s:%d: column %q: %v", name, line, t.Attrs[a].Name, err)
				}
				return nil, formatErr(name, line, "column %q: %v", t.Attrs[a].Name, err)
			}
		}
		pub.Boxes = append(pub.Boxes, b)
		rest := make([]string, len(l.Rest))
		for x, at := range l.RestAt {
			rest[x] = rec[at]
		}
		pub.Rest = append(pub.Rest, rest)
	}
	return pub, nil
}

// cellViolation is a cell that parses but cannot be a box of the data.
type cellViolation struct{ msg string }

func (e *cellViolation) Error() string { return e.msg }

// parseBoxCell parses attribute a of a published cell into b.
func parseBoxCell(at *model.QIAttr, b *model.Box, a int, cell string) error {
	switch {
	case at.Kind == model.Numeric:
		lo, hi, err := ParseInterval(cell)
		if err != nil {
			return err
		}
		if lo > hi {
			return &cellViolation{fmt.Sprintf("empty interval %q", cell)}
		}
		b.Lo[a], b.Hi[a] = lo, hi
	case at.Hier != nil:
		v := slices.Index(at.Hier.Names, cell)
		if v < 0 {
			return &cellViolation{fmt.Sprintf("%q is no node of the hierarchy", cell)}
		}
		b.Node[a] = int32(v)
	default:
		vals := []string{cell}
		if strings.HasPrefix(cell, "{") {
			if !strings.HasSuffix(cell, "}") || len(cell) < 2 {
				return fmt.Errorf("set %q lacks its closing '}'", cell)
			}
			vals = strings.Split(cell[1:len(cell)-1], "|")
		}
		b.Set[a] = make([]uint64, (len(at.Categories)+63)/64)
		for _, v := range vals {
			c := slices.Index(at.Categories, v)
			if c < 0 {
				return &cellViolation{fmt.Sprintf("value %q is not a category of the data", v)}
			}
			b.Set[a][c/64] |= 1 << (c % 64)
		}
	}
	return nil
}

// ParseInterval reads "[lo-hi]" or a single number, each number in plain
// decimal or scientific notation (numtext.ParseFloat). The separator is the
// first '-' after a digit or '.', so negative bounds and exponents read
// correctly ("[-5--3]", "[1e-05-2]").
func ParseInterval(cell string) (lo, hi float64, err error) {
	num := func(s string) (float64, error) {
		v, err := numtext.ParseFloat(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a finite number in decimal or scientific notation", s)
		}
		return v, nil
	}
	if !strings.HasPrefix(cell, "[") {
		v, err := num(cell)
		return v, v, err
	}
	if !strings.HasSuffix(cell, "]") || len(cell) < 2 {
		return 0, 0, fmt.Errorf("interval %q lacks its closing ']'", cell)
	}
	body := cell[1 : len(cell)-1]
	for x := 1; x < len(body); x++ {
		if body[x] == '-' && (body[x-1] >= '0' && body[x-1] <= '9' || body[x-1] == '.') {
			if lo, err = num(body[:x]); err == nil {
				hi, err = num(body[x+1:])
			}
			return lo, hi, err
		}
	}
	return 0, 0, fmt.Errorf("interval %q: want [lo-hi]", cell)
}

// Edge is one line of a graph file.
type Edge struct {
	Original, Published int  // 1-based rows: data row of the input, row of the published file
	Own, Assigned       bool // the identity-round edge; the edge whose original's other cells the row carries
	Line                int  // line in the graph file
}

// ReadGraph parses a graph file. A leading UTF-8 byte-order mark is
// skipped. Errors wrap ErrFormat and name the file (name) and line.
func ReadGraph(r io.Reader, name string) ([]Edge, error) {
	cr := csv.NewReader(datasets.SkipBOM(r))
	cr.FieldsPerRecord = len(GraphHeader)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, formatErr(name, 1, "empty file")
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	if !slices.Equal(header, GraphHeader) {
		return nil, formatErr(name, 1, "header %q, want %q", header, GraphHeader)
	}
	var edges []Edge
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		var v [4]int
		for x := range v {
			v[x], err = strconv.Atoi(strings.TrimSpace(rec[x]))
			switch {
			case err != nil:
				return nil, formatErr(name, line, "field %s: %q is not an integer", GraphHeader[x], rec[x])
			case x >= 2 && v[x] != 0 && v[x] != 1:
				return nil, formatErr(name, line, "field %s: %q is not 0 or 1", GraphHeader[x], rec[x])
			}
		}
		edges = append(edges, Edge{Original: v[0], Published: v[1], Own: v[2] == 1, Assigned: v[3] == 1, Line: line})
	}
	return edges, nil
}

// Verification is what VerifyPublication proved.
type Verification struct {
	N, K  int     // records and the k verified
	GCP   float64 // the GCP of the published boxes
	Edges int     // lines of the graph file (n·k for a freeform graph)
}

// VerifyPublication checks a publication of the data q read back by
// ReadPublished and ReadGraph (pubName and graphName name the files in
// messages): every published row has at least k edges, one own edge (the
// identity round) and one assigned edge, both one-to-one; every original
// has degree at least k and lies inside the box of every published row it
// is linked to; every connected component of the graph is regular
// (k-regular for the freeform methods; for Mondrian every class is
// complete bipartite, of degree = its size, see
// model.GenGraph.CheckAnonymous); the other columns of each row are those of its assigned
// original; and the GCP of the published boxes equals the GCP of the
// graph's boxes recomputed from the data (Verify; so the boxes are as
// tight as the graph allows) and, when gcp is not nil, *gcp (relative
// tolerance 1e-9). Violations wrap ErrInvalid and name published rows and
// data rows of the files.
func VerifyPublication(q *datasets.QIData, pub *Published, edges []Edge, k int, gcp *float64, pubName, graphName string) (*Verification, error) {
	t := q.Table
	n := t.N
	if k < 1 || k > n {
		return nil, fmt.Errorf("%w: k = %d for %d records", ErrK, k, n)
	}
	if len(pub.Boxes) != n {
		return nil, invalid("%s has %d records, the data %d (after dropping %d with missing values)", pubName, len(pub.Boxes), n, q.Dropped)
	}
	// Map the graph's 1-based file rows to table records.
	index := make(map[int]int, n)
	for i, r := range q.Rows {
		index[r+1] = i
	}
	own := make([]int, n) // own[p] = original whose own box row p is
	asg := make([]int, n)
	for p := range own {
		own[p], asg[p] = -1, -1
	}
	byRow := make([][]int32, n)
	for _, e := range edges {
		i, ok := index[e.Original]
		if !ok {
			return nil, invalid("%s:%d: original row %d is not a record of the loaded data (out of range, or dropped for a missing value)", graphName, e.Line, e.Original)
		}
		p := e.Published - 1
		if p < 0 || p >= n {
			return nil, invalid("%s:%d: published row %d outside 1..%d", graphName, e.Line, e.Published, n)
		}
		if len(byRow[p]) == n {
			return nil, invalid("%s:%d: published row %d has more than %d edges (one per original at most)", graphName, e.Line, e.Published, n)
		}
		byRow[p] = append(byRow[p], int32(i))
		if e.Own {
			if own[p] >= 0 {
				return nil, invalid("%s:%d: published row %d has a second own edge", graphName, e.Line, e.Published)
			}
			own[p] = i
		}
		if e.Assigned {
			if asg[p] >= 0 {
				return nil, invalid("%s:%d: published row %d has a second assigned edge", graphName, e.Line, e.Published)
			}
			asg[p] = i
		}
	}
	ownRow := make([]int, n) // ownRow[j] = the published row of original j's own box
	for j := range ownRow {
		ownRow[j] = -1
	}
	assigned := make([]bool, n)
	for p := 0; p < n; p++ {
		switch {
		case own[p] < 0:
			return nil, invalid("published row %d has no own edge (identity round)", p+1)
		case ownRow[own[p]] >= 0:
			return nil, invalid("original row %d is the own record of published rows %d and %d", q.Rows[own[p]]+1, ownRow[own[p]]+1, p+1)
		case asg[p] < 0:
			return nil, invalid("published row %d has no assigned edge", p+1)
		case assigned[asg[p]]:
			return nil, invalid("original row %d is assigned to two published rows", q.Rows[asg[p]]+1)
		}
		ownRow[own[p]] = p
		assigned[asg[p]] = true
	}
	// Degrees and containment, reported in file rows.
	deg := make([]int, n)
	for p := 0; p < n; p++ {
		if len(byRow[p]) < k {
			return nil, invalid("published row %d has %d edges, want at least k = %d", p+1, len(byRow[p]), k)
		}
		for _, i := range byRow[p] {
			deg[i]++
			if !t.Contains(pub.Boxes[p], int(i)) {
				return nil, invalid("published row %d does not contain its original (data row %d)", p+1, q.Rows[i]+1)
			}
		}
	}
	for i, c := range deg {
		if c < k {
			return nil, invalid("original (data row %d) has %d edges, want at least k = %d", q.Rows[i]+1, c, k)
		}
	}
	if pub.Layout == nil {
		return nil, fmt.Errorf("kanon: VerifyPublication: a Published without its Layout (read it with ReadPublished)")
	}
	for p := 0; p < n; p++ {
		orig := q.Records[q.Rows[asg[p]]]
		for x, c := range pub.Layout.Rest {
			if got := pub.Rest[p][x]; got != orig[c] {
				return nil, invalid("published row %d, column %q: %q, but its assigned original (data row %d) has %q",
					p+1, q.Header[c], got, q.Rows[asg[p]]+1, orig[c])
			}
		}
	}
	g := &model.GenGraph{N: n, Matched: make([][]int32, n)}
	boxes := make([]*model.Box, n)
	for j := 0; j < n; j++ {
		p := ownRow[j]
		g.Matched[j] = slices.Clone(byRow[p])
		slices.Sort(g.Matched[j])
		boxes[j] = pub.Boxes[p]
	}
	sum := 0.0
	for _, b := range boxes {
		sum += t.NCPSum(b)
	}
	got := sum / float64(n*t.D())
	if gcp != nil && !closeRel(*gcp, got) {
		return nil, invalid("reported GCP %.15g, GCP of the published boxes %.15g", *gcp, got)
	}
	if err := Verify(t, boxes, g, k, got); err != nil {
		return nil, invalid("%v (records are numbered by their own original, 0-based in the loaded data)", err)
	}
	return &Verification{N: n, K: k, GCP: got, Edges: len(edges)}, nil
}

// CheckResult verifies a result of Anonymize before it is published: the
// graph (Verify with the graph's boxes), the assignment (a perfect
// matching inside the graph) and the publish order (a permutation).
func CheckResult(t *model.QITable, k int, res *Result) error {
	if err := Verify(t, t.Boxes(res.Graph), res.Graph, k, res.GCP); err != nil {
		return err
	}
	n := t.N
	if len(res.Assignment) != n || len(res.PublishOrder) != n {
		return fmt.Errorf("kanon: assignment of %d and publish order of %d for %d records", len(res.Assignment), len(res.PublishOrder), n)
	}
	used := make([]bool, n)
	for j, i := range res.Assignment {
		if i < 0 || i >= n || used[i] || !slices.Contains(res.Graph.Matched[j], int32(i)) {
			return fmt.Errorf("kanon: assignment: published record %d gets original %d, not an unused neighbour", j, i)
		}
		used[i] = true
	}
	clear(used)
	for _, j := range res.PublishOrder {
		if j < 0 || j >= n || used[j] {
			return fmt.Errorf("kanon: publish order is not a permutation")
		}
		used[j] = true
	}
	return nil
}
