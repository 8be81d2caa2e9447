package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/internal/numtext"
	"github.com/sdcopt/sdcopt/model"
)

// Quasi-identifier data for k-anonymity by freeform generalization.
//
// LoadQI reads a CSV file with mixed numeric and categorical columns and
// builds the model.QITable of the selected quasi-identifiers; the other
// columns are kept as text so that a published file can carry them.
// Categorical values are coded in sorted (byte-wise) order of the values,
// so that the codes do not depend on the record order; a numeric
// attribute's Min and Max are the range of its values over the kept
// records.

// QIData is a CSV file read for k-anonymization.
type QIData struct {
	Table   *model.QITable // the quasi-identifiers of the kept records
	Rows    []int          // Rows[i]: index into Records (0-based data row of the file) of table record i
	Header  []string       // column names, in file order
	Records [][]string     // every data row of the file (cells trimmed), dropped rows included
	QICols  []int          // QICols[a]: index into Header of quasi-identifier a (the order of the qi argument)
	Dropped int            // data rows dropped for a missing quasi-identifier value
	// Source is the name the data was read under (the file).
	Source string
	// Missing counts, per quasi-identifier (in the order of QICols), the
	// data rows with a missing value there (IsMissing), dropped or kept,
	// and the line of the first (0: none).
	Missing []MissingCount
}

// MissingCount is the count of missing values of one quasi-identifier.
type MissingCount struct {
	Column    string
	Rows      int // data rows with a missing value in the column
	FirstLine int // 1-based file line of the first (the header is line 1); 0 if none
}

// DefaultMaxDropped is the default share of the records that a
// k-anonymization may drop for missing quasi-identifier values
// (CheckDropped).
const DefaultMaxDropped = 0.05

// CheckDropped returns nil when the rows dropped for a missing
// quasi-identifier value are at most maxShare of all data rows, and
// otherwise a *DataError naming the file, the first dropped line, the
// column with the most missing values and every column's count: a run
// that silently left out a third of the people would publish a biased
// file and say nothing of those left out.
func (q *QIData) CheckDropped(maxShare float64) error {
	all := len(q.Records)
	if all == 0 || float64(q.Dropped) <= maxShare*float64(all) {
		return nil
	}
	e := &DataError{File: q.Source}
	var parts []string
	worst := -1
	for x, m := range q.Missing {
		if m.Rows == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d", m.Column, m.Rows))
		if worst < 0 || m.Rows > q.Missing[worst].Rows {
			worst = x
		}
		if e.Line == 0 || m.FirstLine < e.Line {
			e.Line = m.FirstLine
		}
	}
	if worst >= 0 {
		e.Column = q.Missing[worst].Column
	}
	e.Msg = fmt.Sprintf("%d of %d records (%.1f %%) have a missing quasi-identifier value (empty, NA or ?: %s) and would be dropped, more than the %g %% allowed",
		q.Dropped, all, 100*float64(q.Dropped)/float64(all), strings.Join(parts, ", "), 100*maxShare)
	return e
}

// MissingQI is the category that a missing categorical value becomes when
// missing values are kept (MissingLabel).
const MissingQI = MissingLabel

// LoadQI reads the CSV file at path (one header row; cells are trimmed of
// spaces) and selects the quasi-identifier columns qi, in the given order.
// The names in categorical (each must be in qi) are categorical; every
// other quasi-identifier must hold numbers. A missing value (IsMissing) in
// a quasi-identifier drops the row when keepMissing is false; when it is
// true, a missing categorical value is kept as the category "?" and a
// missing numeric value as NaN, "any value" (model.IsMissing: its box
// spans the column's range, which is that of the values present). Errors (*DataError, naming file, line
// and column, except I/O failures): empty file, header only, empty or
// duplicate column names, ragged rows, unknown or repeated names in qi or
// categorical, non-numeric or non-finite numeric values (also in dropped
// rows), and no record left after dropping.
func LoadQI(path string, qi, categorical []string, keepMissing bool) (*QIData, error) {
	return LoadQIWith(path, qi, categorical, keepMissing, nil)
}

// LoadQIWith is LoadQI with options (nil: the defaults): opt.Dialect
// gives the separator and the decimal mark of the numeric
// quasi-identifiers; the other fields are not used.
func LoadQIWith(path string, qi, categorical []string, keepMissing bool, opt *CSVOptions) (*QIData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQIWith(bufio.NewReaderSize(f, 1<<16), path, qi, categorical, keepMissing, opt)
}

// ReadQI is LoadQI reading from r; name is used in error messages.
func ReadQI(r io.Reader, name string, qi, categorical []string, keepMissing bool) (*QIData, error) {
	return ReadQIWith(r, name, qi, categorical, keepMissing, nil)
}

// ReadQIWith is LoadQIWith reading from r.
func ReadQIWith(r io.Reader, name string, qi, categorical []string, keepMissing bool, opt *CSVOptions) (*QIData, error) {
	o := opt.opts()
	if err := o.check(name); err != nil {
		return nil, err
	}
	cr, header, err := readHeaderSep(r, name, o.sep())
	if err != nil {
		return nil, err
	}
	cols, isCat, err := selectQI(header, qi, categorical)
	if err != nil {
		return nil, &DataError{File: name, Msg: err.Error()}
	}
	d := len(cols)
	out := &QIData{Header: header, QICols: cols, Source: name, Missing: make([]MissingCount, d)}
	for a, j := range cols {
		out.Missing[a].Column = header[j]
	}
	var nums []float64          // kept records' values (categorical slots unused)
	cats := make([][]string, d) // kept records' categorical values
	rows := &Rows{cr: cr, name: name, width: len(header)}
	for rec, line := range rows.All() {
		for j := range rec {
			rec[j] = strings.TrimSpace(rec[j])
		}
		drop := false
		for a, j := range cols {
			c := rec[j]
			if IsMissing(c) {
				if m := &out.Missing[a]; m.Rows == 0 {
					m.FirstLine = line
				}
				out.Missing[a].Rows++
				if !keepMissing {
					drop = true
				}
				continue
			}
			if !isCat[a] {
				_, err := o.parseFloat(c)
				if err != nil && !errors.Is(err, numtext.ErrNotFinite) {
					return nil, &DataError{File: name, Line: line, Column: header[j],
						Msg: o.nonNumeric(c) + " in a numeric quasi-identifier (declare the column categorical?)"}
				}
				if err != nil {
					return nil, &DataError{File: name, Line: line, Column: header[j],
						Msg: fmt.Sprintf("value %q is not a finite number", c)}
				}
			}
		}
		out.Records = append(out.Records, rec)
		if drop {
			out.Dropped++
			continue
		}
		out.Rows = append(out.Rows, len(out.Records)-1)
		for a, j := range cols {
			if isCat[a] {
				c := rec[j]
				if IsMissing(c) {
					c = MissingQI // kept: "", "NA" and "?" are one category
				}
				cats[a] = append(cats[a], c)
				nums = append(nums, 0)
			} else if IsMissing(rec[j]) {
				nums = append(nums, math.NaN()) // kept: any value (model.IsMissing)
			} else {
				v, _ := o.parseFloat(rec[j]) // checked above
				nums = append(nums, v)
			}
		}
	}
	if rows.err != nil {
		return nil, rows.err
	}
	if len(out.Records) == 0 {
		return nil, &DataError{File: name, Line: 1, Msg: "header only, no records"}
	}
	n := len(out.Rows)
	if n == 0 {
		return nil, &DataError{File: name,
			Msg: fmt.Sprintf("all %d records have a missing quasi-identifier value and were dropped (keep missing values as a category?)", out.Dropped)}
	}
	t := &model.QITable{Attrs: make([]model.QIAttr, d), N: n, X: nums}
	for a, j := range cols {
		at := &t.Attrs[a]
		at.Name = header[j]
		if !isCat[a] {
			at.Kind = model.Numeric
			at.Min, at.Max = math.Inf(1), math.Inf(-1)
			for i := 0; i < n; i++ {
				if v := nums[i*d+a]; !model.IsMissing(v) {
					at.Min, at.Max = math.Min(at.Min, v), math.Max(at.Max, v)
				}
			}
			if at.Min > at.Max { // every value missing: a constant attribute
				at.Min, at.Max = 0, 0
			}
			continue
		}
		at.Kind = model.Categorical
		at.Categories = slices.Clone(cats[a])
		slices.Sort(at.Categories)
		at.Categories = slices.Compact(at.Categories)
		code := make(map[string]int, len(at.Categories))
		for c, v := range at.Categories {
			code[v] = c
		}
		for i, v := range cats[a] {
			nums[i*d+a] = float64(code[v])
		}
	}
	if err := t.Check(); err != nil {
		// Cannot happen: ranges and codes come from the data.
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out.Table = t
	return out, nil
}

// selectQI maps the quasi-identifier names to header indices (in the
// order of qi) and marks the categorical ones.
func selectQI(header, qi, categorical []string) ([]int, []bool, error) {
	if len(qi) == 0 {
		return nil, nil, errors.New("no quasi-identifiers selected")
	}
	index := make(map[string]int, len(header))
	for j, h := range header {
		index[h] = j
	}
	cols := make([]int, len(qi))
	pos := map[string]int{}
	for a, q := range qi {
		q = strings.TrimSpace(q)
		j, ok := index[q]
		if !ok {
			return nil, nil, fmt.Errorf("unknown quasi-identifier %q (available columns: %s)", q, strings.Join(header, ", "))
		}
		if _, dup := pos[q]; dup {
			return nil, nil, fmt.Errorf("quasi-identifier %q selected twice", q)
		}
		pos[q] = a
		cols[a] = j
	}
	isCat := make([]bool, len(qi))
	for _, c := range categorical {
		c = strings.TrimSpace(c)
		a, ok := pos[c]
		switch {
		case !ok && slices.Contains(header, c):
			return nil, nil, fmt.Errorf("categorical column %q is not among the quasi-identifiers (%s)", c, strings.Join(qi, ", "))
		case !ok:
			return nil, nil, fmt.Errorf("unknown categorical column %q (available columns: %s)", c, strings.Join(header, ", "))
		case isCat[a]:
			return nil, nil, fmt.Errorf("categorical column %q listed twice", c)
		}
		isCat[a] = true
	}
	return cols, isCat, nil
}

// The UCI Adult training data in the shared data directory (see its
// README: 32561 rows, 15 columns, '?' for missing values).
const (
	adultFile   = "adult.csv"
	adultSHA256 = "f2c62076f19504d99a38b22badf445a7f42530ade6b827acf78dd143fbce38bb"
)

// AdultQI returns the 8 quasi-identifiers of Adult that mirror the CENSUS
// data of Doka et al.: age and education-num (numeric), then sex,
// marital-status, race, workclass, native-country and occupation
// (categorical).
//
// The default roles of Adult (package roles) are these quasi-identifiers,
// income sensitive (AdultSensitive), and every other column not published.
// The other columns cannot be published unchanged beside the generalized
// quasi-identifiers: education is a one-to-one relabelling of
// education-num (16 values, each pinning one education-num; publishing it
// would reveal the exact value inside every generalized interval),
// relationship nearly determines marital-status (Husband and Wife pin
// Married-civ-spouse; gain 0.64 over guessing, see roles), fnlwgt is
// unique for 47.9 % of the records, and capital-gain, capital-loss and
// hours-per-week are attributes an adversary may know as well as the
// quasi-identifiers. education is not made a ninth quasi-identifier: it
// carries no information beyond education-num, and the set stays the
// paper's, so that the GCP figures remain comparable. income (<=50K,
// >50K) reveals no quasi-identifier (gain at most 0.10) and has no unique
// value.
func AdultQI() []string {
	return []string{"age", "education-num", "sex", "marital-status", "race", "workclass", "native-country", "occupation"}
}

// AdultSensitive returns the column of Adult published unchanged by
// default: income (see AdultQI for the roles of the others).
func AdultSensitive() []string { return []string{"income"} }

// AdultCategorical returns the categorical quasi-identifiers of AdultQI.
func AdultCategorical() []string {
	return []string{"sex", "marital-status", "race", "workclass", "native-country", "occupation"}
}

// AdultPath returns the path of adult.csv in the shared data directory
// (wrapping ErrNoSharedData when the directory is not found).
func AdultPath() (string, error) {
	dir, err := SharedDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, adultFile), nil
}

// LoadAdult reads adult.csv from the shared data directory, checks its
// SHA-256 against the README's value and selects AdultQI (categorical:
// AdultCategorical). With keepMissing false the rows with a '?' in a
// quasi-identifier are dropped (2399 of 32561 rows).
func LoadAdult(keepMissing bool) (*QIData, error) {
	path, err := AdultPath()
	if err != nil {
		return nil, err
	}
	data, err := readVerified(path, adultSHA256)
	if err != nil {
		return nil, err
	}
	return ReadQI(bytes.NewReader(data), path, AdultQI(), AdultCategorical(), keepMissing)
}

// LoadHierarchy reads a generalization hierarchy for the categorical
// attribute attr from a CSV file without header: each line is
// value,ancestor1,ancestor2,...(most general last), cells trimmed. The
// separator is ',' or ';', whichever splits the first line into more
// fields (',' on a tie): ARX's hierarchy files ("White;*",
// "Male;Male;*") are read as they are. A level that repeats the value
// below it on the same line ("Male;Male;*", ARX's way of keeping a
// value at a level) is the same node, not a parent. A line may stop below
// the root when another line continues from its last node (for example
// "Divorced,Alone" and "Alone,Any"), so the file is the union of the
// parent links its lines give. Every category of attr must appear; the
// categories become the leaves (node v = category code v), inner nodes
// are numbered after them in order of first reach from the leaves in code
// order. Values that are not categories of attr, and nodes above none of
// them, are not nodes (a hierarchy may cover values that the data lack),
// but the leaves of the file under the root all count: Leaves[v] is the
// number of the file's leaves (nodes that are no node's parent) under v
// and TotalLeaves the number under the root, so that the NCP of a node
// (Leaves/TotalLeaves) is the same whichever values the data happen to
// hold.
// Errors (*DataError naming file and line): an empty cell, a node given
// two different parents, a cycle, a category that is an inner node, a
// category missing from the file, and links that do not end in a single
// root.
func LoadHierarchy(path string, attr *model.QIAttr) (*model.Hierarchy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadHierarchy(bufio.NewReader(f), path, attr)
}

// ReadHierarchy is LoadHierarchy reading from r; name is used in error
// messages.
func ReadHierarchy(r io.Reader, name string, attr *model.QIAttr) (*model.Hierarchy, error) {
	if attr == nil || attr.Kind != model.Categorical || len(attr.Categories) == 0 {
		an := "<nil>"
		if attr != nil {
			an = attr.Name
		}
		return nil, &DataError{File: name, Msg: fmt.Sprintf("attribute %s is not a categorical attribute with categories: a hierarchy needs one", an)}
	}
	type link struct {
		parent string
		line   int
	}
	parent := map[string]link{}
	var children []string // the keys of parent, in file order
	firstLine := map[string]int{}
	lines := 0
	br := bufio.NewReader(SkipBOM(r))
	sep := hierarchySep(br)
	cr := csv.NewReader(br) // the mark is skipped already
	cr.Comma, cr.FieldsPerRecord = sep, -1
	rows := &Rows{cr: cr, name: name}
	for rec, line := range rows.All() {
		lines++
		for t := range rec {
			rec[t] = strings.TrimSpace(rec[t])
			if rec[t] == "" {
				msg := fmt.Sprintf("empty node name in field %d (fields separated by %q)", t+1, sep)
				if t == len(rec)-1 && t > 0 {
					msg += ": a separator at the end of the line?"
				}
				return nil, &DataError{File: name, Line: line, Msg: msg}
			}
			if _, ok := firstLine[rec[t]]; !ok {
				firstLine[rec[t]] = line
			}
		}
		for t := 0; t+1 < len(rec); t++ {
			child, par := rec[t], rec[t+1]
			if child == par {
				continue // a level repeating the value below it: the same node
			}
			if old, ok := parent[child]; ok && old.parent != par {
				return nil, &DataError{File: name, Line: line,
					Msg: fmt.Sprintf("%q has parent %q here and %q on line %d", child, par, old.parent, old.line)}
			}
			if _, ok := parent[child]; !ok {
				children = append(children, child)
				parent[child] = link{par, line}
			}
		}
	}
	if rows.err != nil {
		return nil, rows.err
	}
	if lines == 0 {
		return nil, &DataError{File: name, Msg: "empty hierarchy file"}
	}
	nl := len(attr.Categories)
	id := make(map[string]int32, nl)
	for c, v := range attr.Categories {
		id[v] = int32(c)
	}
	var missing []string
	for _, v := range attr.Categories {
		if _, ok := firstLine[v]; !ok {
			missing = append(missing, strconv.Quote(v))
		}
	}
	if len(missing) > 0 {
		return nil, &DataError{File: name,
			Msg: fmt.Sprintf("attribute %s: %d categories missing from the hierarchy: %s (of its %d categories; fields read as separated by %q, detected on line 1)",
				attr.Name, len(missing), strings.Join(missing, ", "), nl, sep)}
	}
	for _, child := range children { // the first offence in file order
		l := parent[child]
		if _, isLeaf := id[l.parent]; isLeaf {
			return nil, &DataError{File: name, Line: l.line,
				Msg: fmt.Sprintf("category %q of attribute %s is an inner node (parent of %q); categories must be leaves", l.parent, attr.Name, child)}
		}
	}
	h := &model.Hierarchy{NumLeaves: nl}
	for _, v := range attr.Categories {
		h.Names = append(h.Names, v)
		h.Parent = append(h.Parent, -1)
	}
	root := int32(-1)
	rootLeaf := ""
	for c := 0; c < nl; c++ {
		// Walk up from leaf c, numbering the new nodes, until a node
		// already placed or the root.
		v, cur := int32(c), attr.Categories[c]
		onPath := map[string]bool{cur: true}
		for {
			l, ok := parent[cur]
			if !ok {
				if root >= 0 && root != v {
					return nil, &DataError{File: name, Line: firstLine[cur],
						Msg: fmt.Sprintf("more than one root: %q (above %q) and %q (above %q); every value must lead to the same most general node",
							h.Names[root], rootLeaf, cur, attr.Categories[c])}
				}
				root, rootLeaf = v, attr.Categories[c]
				break
			}
			if onPath[l.parent] {
				return nil, &DataError{File: name, Line: l.line, Msg: fmt.Sprintf("cycle: %q leads back to %q", cur, l.parent)}
			}
			onPath[l.parent] = true
			p, known := id[l.parent]
			if !known {
				p = int32(len(h.Names))
				id[l.parent] = p
				h.Names = append(h.Names, l.parent)
				h.Parent = append(h.Parent, -1)
			}
			h.Parent[v] = p
			if known {
				break // the rest of the path is placed (and checked) already
			}
			v, cur = p, l.parent
		}
	}
	m := len(h.Names)
	h.Leaves = make([]int32, m)
	h.Depth = make([]int32, m)
	// Depths: walk up from each node to the first node of known depth (or
	// past the root), then number the path on the way down; every node is
	// numbered once, so long chains cost O(m), not O(m · depth).
	known := make([]bool, m)
	var path []int32
	for v := int32(0); v < int32(m); v++ {
		path = path[:0]
		u := v
		for u >= 0 && !known[u] {
			path = append(path, u)
			u = h.Parent[u]
		}
		d := int32(-1)
		if u >= 0 {
			d = h.Depth[u]
		}
		for i := len(path) - 1; i >= 0; i-- {
			d++
			h.Depth[path[i]], known[path[i]] = d, true
		}
	}
	// Leaves under each node: every leaf of the file (a node that is no
	// node's parent), categories and values the data lack alike, adds 1 to
	// each placed node above it. Leaves whose chain never reaches a placed
	// node belong to another tree and are not counted.
	isParent := make(map[string]bool, len(parent))
	for _, l := range parent {
		isParent[l.parent] = true
	}
	names := make([]string, 0, len(firstLine))
	for v := range firstLine {
		if !isParent[v] {
			names = append(names, v)
		}
	}
	slices.Sort(names) // deterministic walks
	for _, leaf := range names {
		cur := leaf
		steps := 0
		for {
			if v, ok := id[cur]; ok {
				// The placed nodes above are all known: count along them.
				for ; v >= 0; v = h.Parent[v] {
					h.Leaves[v]++
				}
				break
			}
			l, ok := parent[cur]
			if !ok || steps > len(parent) { // another tree's root, or a cycle off the hierarchy
				break
			}
			cur = l.parent
			steps++
		}
	}
	h.TotalLeaves = int(h.Leaves[root])
	return h, nil
}

// hierarchySep returns the separator of a hierarchy file: ';' when it
// splits the first line into more fields than ',' does, else ','. It
// only peeks at br.
func hierarchySep(br *bufio.Reader) rune {
	line, _ := br.Peek(br.Size())
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := func(sep rune) int {
		cr := csv.NewReader(bytes.NewReader(line))
		cr.Comma = sep
		cr.FieldsPerRecord = -1
		cr.LazyQuotes = true
		rec, err := cr.Read()
		if err != nil {
			return 1
		}
		return len(rec)
	}
	if fields(';') > fields(',') {
		return ';'
	}
	return ','
}

// Synthetic quasi-identifiers with the cardinalities of Adult.
const streamSyntheticQI = 0x5dc0_9a55_0101

// synthCat describes a categorical attribute of SyntheticQI: its
// cardinality (that of Adult with the '?' category counted, as in the
// file) and the Zipf exponent s of the frequencies, P(code c) ∝ (c+1)^-s,
// fitted so that the most frequent category has about Adult's share
// (sex 0.67, marital-status 0.46, race 0.85, workclass 0.70,
// native-country 0.90, occupation 0.13; measured on adult.csv).
type synthCat struct {
	name string
	card int
	s    float64
}

var synthCats = []synthCat{
	{"sex", 2, 1.02},
	{"marital-status", 7, 1.25},
	{"race", 5, 3.1},
	{"workclass", 9, 2.2},
	{"native-country", 42, 3.6},
	{"occupation", 15, 0.37},
}

// synthEduWeights are the relative frequencies (per 10,000) of
// education-num 1..16 in adult.csv.
var synthEduWeights = []float64{16, 52, 102, 198, 158, 287, 361, 133, 3225, 2239, 424, 328, 1645, 529, 177, 127}

// Synthetic age: 17 + round(exp(N(ln 20, 0.55²))), capped at 90 (Adult's
// top code): median 37, mean about 40, close to Adult's 37 and 38.6.
const (
	synthAgeMin   = 17
	synthAgeMax   = 90
	synthAgeMu    = 2.995732273553991 // ln 20
	synthAgeSigma = 0.55
)

// NewSyntheticQI generates n records with the 8 quasi-identifiers of AdultQI
// (same names, kinds and order): age (17..90, right-skewed), education-num
// (1..16 with Adult's frequencies) and six categorical attributes with
// Adult's cardinalities counting '?' (sex 2, marital-status 7, race 5,
// workclass 9, native-country 42, occupation 15) and Zipf-like
// frequencies. Categories are named NAME-01, NAME-02, ... in order of
// decreasing frequency; every attribute lists all its categories, even
// those that a small sample lacks. Numeric Min/Max are the generated
// range. The records are independent draws; the same n and seed give the
// same table.
//
// Errors: n < 1, and a table larger than MemoryLimit (8 values of 8 bytes
// per record; wrapping ErrTooLarge, checked before allocating).
func NewSyntheticQI(n int, seed uint64) (*model.QITable, error) {
	if n < 1 {
		return nil, fmt.Errorf("datasets: synthetic QI table of %d records: need at least 1", n)
	}
	if err := checkSyntheticQI(n); err != nil {
		return nil, err
	}
	return syntheticQI(n, seed), nil
}

// SyntheticQI is NewSyntheticQI for a size the caller knows to be
// sensible, as in tests and benchmarks: n <= 0 gives an empty table, and
// a table larger than MemoryLimit is a programmer error that panics (with
// an error wrapping ErrTooLarge) instead of returning it. Use
// NewSyntheticQI for a size that comes from user input.
func SyntheticQI(n int, seed uint64) *model.QITable {
	n = max(n, 0)
	if err := checkSyntheticQI(n); err != nil {
		panic(err)
	}
	return syntheticQI(n, seed)
}

// synthQIAttrs is the number of quasi-identifiers of SyntheticQI.
var synthQIAttrs = 2 + len(synthCats)

// checkSyntheticQI checks that n records of SyntheticQI fit in memory.
func checkSyntheticQI(n int) error {
	if err := checkMemory(fmt.Sprintf("synthetic QI table of %d records x %d attributes", n, synthQIAttrs),
		sizeProduct(8, n, synthQIAttrs)); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	return nil
}

// syntheticQI generates the table of NewSyntheticQI; n >= 0 fits.
func syntheticQI(n int, seed uint64) *model.QITable {
	d := synthQIAttrs
	t := &model.QITable{N: n, X: make([]float64, 0, n*d)}
	t.Attrs, _ = SyntheticQIRows(n, seed, func(row []float64) error {
		t.X = append(t.X, row...)
		return nil
	})
	return t
}

// SyntheticQIRows generates the records of NewSyntheticQI(n, seed) one at
// a time, without holding them: emit receives each record's values (the
// slice is reused) and may stop the generation with an error, which is
// returned. The attributes, returned at the end, are those of the table
// (numeric Min/Max over the n records). n < 0 counts as 0.
func SyntheticQIRows(n int, seed uint64, emit func(row []float64) error) ([]model.QIAttr, error) {
	r := rand.New(rand.NewPCG(seed, streamSyntheticQI))
	d := synthQIAttrs
	attrs := make([]model.QIAttr, d)
	attrs[0] = model.QIAttr{Name: "age", Kind: model.Numeric}
	attrs[1] = model.QIAttr{Name: "education-num", Kind: model.Numeric}
	cum := make([][]float64, d)
	cum[1] = cumulative(synthEduWeights)
	for k, sc := range synthCats {
		a := 2 + k
		at := &attrs[a]
		at.Name, at.Kind = sc.name, model.Categorical
		w := make([]float64, sc.card)
		for c := range w {
			at.Categories = append(at.Categories, fmt.Sprintf("%s-%02d", sc.name, c+1))
			w[c] = math.Pow(float64(c+1), -sc.s)
		}
		cum[a] = cumulative(w)
	}
	for a := 0; a < 2; a++ {
		attrs[a].Min, attrs[a].Max = math.Inf(1), math.Inf(-1)
	}
	row := make([]float64, d)
	for i := 0; i < n; i++ {
		age := synthAgeMin + math.Round(math.Exp(synthAgeMu+synthAgeSigma*r.NormFloat64()))
		row[0] = math.Min(age, synthAgeMax)
		row[1] = float64(1 + draw(r, cum[1]))
		for a := 2; a < d; a++ {
			row[a] = float64(draw(r, cum[a]))
		}
		for a := 0; a < 2; a++ {
			attrs[a].Min, attrs[a].Max = math.Min(attrs[a].Min, row[a]), math.Max(attrs[a].Max, row[a])
		}
		if err := emit(row); err != nil {
			return nil, err
		}
	}
	if n <= 0 {
		for a := 0; a < 2; a++ {
			attrs[a].Min, attrs[a].Max = 0, 0
		}
	}
	return attrs, nil
}

// cumulative returns the normalized cumulative sums of w (last = 1).
func cumulative(w []float64) []float64 {
	c := make([]float64, len(w))
	s := 0.0
	for i, v := range w {
		s += v
		c[i] = s
	}
	for i := range c {
		c[i] /= s
	}
	c[len(c)-1] = 1
	return c
}

// draw returns the index of a uniform draw in the cumulative distribution.
func draw(r *rand.Rand, cum []float64) int {
	u := r.Float64()
	i, _ := slices.BinarySearch(cum, u)
	if u == cum[min(i, len(cum)-1)] {
		i++ // cum[i] == u: the draw lies in (cum[i], cum[i+1]]
	}
	return min(i, len(cum)-1)
}
