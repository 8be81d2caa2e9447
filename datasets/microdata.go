package datasets

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// Microdata is categorical microdata: one record per respondent over
// declared variables. The confidential contingency table is the
// cross-classification of the records over every declared variable; it is
// never built: Collapse builds the table over a subset of the variables
// (dense over that subset only) and Cells lists the non-empty cells of the
// full cross-classification (at most one per record).
type Microdata struct {
	Source string           // the file the records came from
	Vars   []model.Variable // the declared variables, in declaration order, with their levels
	N      int              // number of records
	// LevelsGiven names the variables whose levels a levels file gave
	// (ReadMicrodataWith); the others' levels are the data's labels in
	// canonical order. MinLevelCount is LevelOptions.MinCount as read.
	LevelsGiven   []string
	MinLevelCount int
	codes         []int32 // N x len(Vars), row-major: level index of every record and variable
}

// ErrMicrodata reports a microdata request that does not fit the records
// (unknown variables, an empty selection).
var ErrMicrodata = errors.New("datasets: bad microdata request")

// LoadMicrodata reads the CSV file at path (see ReadMicrodata); levelsPath,
// when not empty, is a levels file (see ReadLevels).
func LoadMicrodata(path string, vars []string, levelsPath string) (*Microdata, error) {
	return LoadMicrodataWith(path, vars, levelsPath, LevelOptions{})
}

// LoadMicrodataWith is LoadMicrodata with the options of the levels
// (ReadMicrodataWith); levelsPath, when not empty, is read into
// opt.Levels, and a row of it naming a variable not in vars is an error
// naming the levels file, the line and the column "variable".
func LoadMicrodataWith(path string, vars []string, levelsPath string, opt LevelOptions) (*Microdata, error) {
	if levelsPath != "" {
		if opt.Levels != nil {
			return nil, fmt.Errorf("%w: levels given both as a file and as a map", ErrMicrodata)
		}
		f, err := os.Open(levelsPath)
		if err != nil {
			return nil, err
		}
		opt.Levels, err = ReadLevelsOf(bufio.NewReader(f), levelsPath, vars)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMicrodataWith(bufio.NewReaderSize(f, 1<<16), path, vars, opt)
}

// OtherLevel is the level into which LevelOptions.MinCount merges the
// rare levels of a variable.
const OtherLevel = "(other)"

// LevelOptions say how ReadMicrodataWith forms the levels of the
// declared variables.
type LevelOptions struct {
	// Levels gives, for the variables it names, their levels in order (a
	// levels file, ReadLevels); naming a variable that is not declared
	// is an error.
	Levels map[string][]string
	// MinCount, when above 1, merges the levels taken from the data that
	// fewer than MinCount records hold into one level, OtherLevel, placed
	// last (the levels of a levels file are the operator's list, not the
	// data's, and are kept). It is an error when every declared variable
	// has its levels from Levels (the option would do nothing), and when
	// the data hold the label OtherLevel themselves.
	MinCount int
}

// ReadMicrodata reads categorical microdata from a CSV file with one header
// row and one record per respondent (name is used in error messages). vars
// names the declared variables (header names, at least one, no repeats);
// the other columns are ignored. Every field of a declared variable is a
// category label, trimmed; a missing value (IsMissing: empty, "NA" or
// "?"; the UCI Adult file writes its missing values as "?") is the one
// category MissingLabel "?". The levels of a variable are those of
// levels[name] in that order when given (a label outside them is an error
// naming the file, line and column; so is a missing value when "?" is not
// among them), otherwise the labels of the data in canonical order
// (CompareLabels), never in the order of the records: the order of first
// appearance would publish the first records' combinations with the
// levels.
//
// Errors (*DataError except I/O failures): empty file, header only,
// unknown or repeated variables, ragged rows, labels outside a levels
// file, levels given for an undeclared variable, a variable without
// levels.
func ReadMicrodata(r io.Reader, name string, vars []string, levels map[string][]string) (*Microdata, error) {
	return ReadMicrodataWith(r, name, vars, LevelOptions{Levels: levels})
}

// ReadMicrodataWith is ReadMicrodata with the options of the levels.
func ReadMicrodataWith(r io.Reader, name string, vars []string, opt LevelOptions) (*Microdata, error) {
	levels := opt.Levels
	if opt.MinCount < 0 {
		return nil, &DataError{File: name, Msg: fmt.Sprintf("minimum count per level %d is negative", opt.MinCount)}
	}
	cr, header, err := readHeader(r, name)
	if err != nil {
		return nil, err
	}
	if len(vars) == 0 {
		return nil, &DataError{File: name, Msg: "no variables declared"}
	}
	if _, err := selectNames(header, vars); err != nil {
		return nil, &DataError{File: name, Line: 1, Msg: err.Error()}
	}
	// selectNames orders columns as the header; keep the declared order.
	colOf := make([]int, len(vars))
	for i, v := range vars {
		colOf[i] = slices.Index(header, strings.TrimSpace(v))
	}
	for _, v := range slices.Sorted(maps.Keys(levels)) {
		if !slices.ContainsFunc(colOf, func(c int) bool { return header[c] == v }) {
			return nil, &DataError{File: name, Msg: fmt.Sprintf("levels are given for %q, which is not among the declared variables %s", v, strings.Join(vars, ","))}
		}
	}
	k := len(vars)
	md := &Microdata{Source: name, Vars: make([]model.Variable, k)}
	index := make([]map[string]int32, k)
	fixed := make([]bool, k)
	for i := range vars {
		md.Vars[i].Name = header[colOf[i]]
		index[i] = map[string]int32{}
		if lv, ok := levels[md.Vars[i].Name]; ok {
			fixed[i] = true
			for _, l := range lv {
				index[i][l] = int32(len(md.Vars[i].Levels))
				md.Vars[i].Levels = append(md.Vars[i].Levels, l)
			}
		}
	}
	rows := &Rows{cr: cr, name: name, width: len(header)}
	for rec, line := range rows.All() {
		for i, j := range colOf {
			l := strings.TrimSpace(rec[j])
			miss := IsMissing(l)
			if miss {
				l = MissingLabel // "", "NA" and "?" are one category
			}
			x, ok := index[i][l]
			if !ok {
				if fixed[i] && miss {
					return nil, &DataError{File: name, Line: line, Column: header[j],
						Msg: fmt.Sprintf("missing value %q: a missing value is the category %q, which is not among the %d levels of the levels file (add it)", rec[j], MissingLabel, len(md.Vars[i].Levels))}
				}
				if fixed[i] {
					return nil, &DataError{File: name, Line: line, Column: header[j],
						Msg: fmt.Sprintf("label %q is not among the %d levels of the levels file", l, len(md.Vars[i].Levels))}
				}
				x = int32(len(md.Vars[i].Levels))
				index[i][l] = x
				md.Vars[i].Levels = append(md.Vars[i].Levels, l)
			}
			md.codes = append(md.codes, x)
		}
		md.N++
	}
	if rows.err != nil {
		return nil, rows.err
	}
	if md.N == 0 {
		return nil, &DataError{File: name, Line: 1, Msg: "header only, no records"}
	}
	for i := range md.Vars {
		if len(md.Vars[i].Levels) == 0 {
			return nil, &DataError{File: name, Column: md.Vars[i].Name, Msg: "the levels file lists no level"}
		}
	}
	if opt.MinCount > 1 && !slices.Contains(fixed, false) {
		return nil, &DataError{File: name, Msg: fmt.Sprintf("a minimum count per level (%d) applies to no variable: the levels file gives the levels of every declared one", opt.MinCount)}
	}
	md.MinLevelCount = opt.MinCount
	for i := range md.Vars {
		if fixed[i] {
			md.LevelsGiven = append(md.LevelsGiven, md.Vars[i].Name)
		} else if err := md.canonicalLevels(i, opt.MinCount); err != nil {
			return nil, &DataError{File: name, Column: md.Vars[i].Name, Msg: err.Error()}
		}
	}
	return md, nil
}

// canonicalLevels puts the levels of variable i in canonical order
// (CompareLabels), after merging those held by fewer than minCount
// records into OtherLevel (last), and recodes the records.
func (m *Microdata) canonicalLevels(i, minCount int) error {
	k := len(m.Vars)
	old := m.Vars[i].Levels
	count := make([]int, len(old))
	for r := range m.N {
		count[m.codes[r*k+i]]++
	}
	var keep, rare []int
	for x, l := range old {
		if minCount > 1 && l == OtherLevel {
			return fmt.Errorf("the data hold the label %q, the level rare levels are merged into", OtherLevel)
		}
		if count[x] < minCount {
			rare = append(rare, x)
		} else {
			keep = append(keep, x)
		}
	}
	slices.SortFunc(keep, func(a, b int) int { return CompareLabels(old[a], old[b]) })
	recode := make([]int32, len(old))
	levels := make([]string, 0, len(keep)+1)
	for _, x := range keep {
		recode[x] = int32(len(levels))
		levels = append(levels, old[x])
	}
	if len(rare) > 0 {
		for _, x := range rare {
			recode[x] = int32(len(levels))
		}
		levels = append(levels, OtherLevel)
	}
	for r := range m.N {
		m.codes[r*k+i] = recode[m.codes[r*k+i]]
	}
	m.Vars[i].Levels = levels
	return nil
}

// CompareLabels is the canonical order of the levels read from
// microdata (-1, 0 or +1 as a sorts before, equal to or after b): labels
// compare piece by piece, a run of decimal digits as the whole number it
// writes (so "2" < "10" and "age 9" < "age 10"), any other byte by its
// value (so "A" < "B" < "a", and a digit before a letter); a sign or a
// decimal point is an ordinary byte, so "-2" > "-1" and "1.10" > "1.9".
// Labels equal under these rules ("01" and "1") are ordered by their
// bytes. The order is total and depends on the labels only.
func CompareLabels(a, b string) int {
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := i, j
			for ei < len(a) && isDigit(a[ei]) {
				ei++
			}
			for ej < len(b) && isDigit(b[ej]) {
				ej++
			}
			na, nb := strings.TrimLeft(a[i:ei], "0"), strings.TrimLeft(b[j:ej], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		if c := cmp.Compare(a[i], b[j]); c != 0 {
			return c
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// LoadLevels reads a levels file: a CSV file with the header
// "variable,level" and one row per level, the levels of a variable in
// their order. A repeated level is an error naming the line.
func LoadLevels(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLevels(bufio.NewReader(f), path)
}

// ReadLevels reads a levels file from r; see LoadLevels.
func ReadLevels(r io.Reader, name string) (map[string][]string, error) {
	return ReadLevelsOf(r, name, nil)
}

// ReadLevelsOf is ReadLevels for the declared variables vars: a row
// naming another variable (a typo) is an error naming the line and the
// column "variable" (nil vars: any variable).
func ReadLevelsOf(r io.Reader, name string, vars []string) (map[string][]string, error) {
	cr, header, err := readHeader(r, name)
	if err != nil {
		return nil, err
	}
	if len(header) != 2 || !strings.EqualFold(header[0], "variable") || !strings.EqualFold(header[1], "level") {
		return nil, &DataError{File: name, Line: 1, Msg: fmt.Sprintf("header %q, want \"variable,level\"", strings.Join(header, ","))}
	}
	out := map[string][]string{}
	rows := &Rows{cr: cr, name: name, width: 2}
	for rec, line := range rows.All() {
		v, l := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		if v == "" {
			return nil, &DataError{File: name, Line: line, Column: header[0], Msg: "empty variable name"}
		}
		if vars != nil && !slices.ContainsFunc(vars, func(d string) bool { return strings.TrimSpace(d) == v }) {
			return nil, &DataError{File: name, Line: line, Column: header[0],
				Msg: fmt.Sprintf("%q is not among the declared variables %s", v, strings.Join(vars, ","))}
		}
		if l == "" {
			return nil, &DataError{File: name, Line: line, Column: header[1], Msg: "empty level"}
		}
		if slices.Contains(out[v], l) {
			return nil, &DataError{File: name, Line: line, Column: header[1], Msg: fmt.Sprintf("level %q of %s listed twice", l, v)}
		}
		out[v] = append(out[v], l)
	}
	if rows.err != nil {
		return nil, rows.err
	}
	if len(out) == 0 {
		return nil, &DataError{File: name, Line: 1, Msg: "header only, no levels"}
	}
	return out, nil
}

// MicrodataFromTable expands a table into one record per counted unit
// (in cell order), for tests and examples.
func MicrodataFromTable(t *model.Table, source string) *Microdata {
	md := &Microdata{Source: source, Vars: slices.Clone(t.Vars)}
	dims := model.Dims(t.Vars)
	lv := make([]int, len(dims))
	for c, n := range t.Counts {
		model.CellLevels(dims, c, lv)
		for range n {
			for _, x := range lv {
				md.codes = append(md.codes, int32(x))
			}
			md.N++
		}
	}
	return md
}

// Level returns the level index of variable j in record i.
func (m *Microdata) Level(i, j int) int { return int(m.codes[i*len(m.Vars)+j]) }

// VarIndex returns the position of the named variable, or -1.
func (m *Microdata) VarIndex(name string) int {
	for j, v := range m.Vars {
		if v.Name == name {
			return j
		}
	}
	return -1
}

// TooLargeError is Collapse's error for a table over its limit; it wraps
// ErrTooLarge.
type TooLargeError struct {
	Vars  string // the variables, "A, B"
	Dims  string // their numbers of levels, "2 x 3"
	Cells string // the number of cells ("more than ..." past int64)
	// MaxBytes is the limit, at 8 bytes a cell.
	MaxBytes int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%v: the table over %s (%s levels, %s cells at 8 bytes each) is larger than the limit of %d bytes",
		ErrTooLarge, e.Vars, e.Dims, e.Cells, e.MaxBytes)
}

func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// Collapse returns the table over the variables sub (increasing positions
// into m.Vars) counted from the records: dense over those variables only.
// A table whose cells would take more than maxBytes (8 bytes a cell;
// maxBytes <= 0 means MemoryLimit) is a *TooLargeError (wrapping
// ErrTooLarge), returned before anything is allocated.
func (m *Microdata) Collapse(sub []int, maxBytes int64) (*model.Table, error) {
	for i, j := range sub {
		if j < 0 || j >= len(m.Vars) || (i > 0 && sub[i-1] >= j) {
			return nil, fmt.Errorf("%w: variable positions %v are not increasing positions below %d", ErrMicrodata, sub, len(m.Vars))
		}
	}
	vars := make([]model.Variable, len(sub))
	dims := make([]int, len(sub))
	for i, j := range sub {
		vars[i] = m.Vars[j]
		dims[i] = len(m.Vars[j].Levels)
	}
	if maxBytes <= 0 {
		maxBytes = MemoryLimit()
	}
	if n := sizeProduct(append([]int{8}, dims...)...); n < 0 || n > maxBytes {
		return nil, &TooLargeError{Vars: varNames(vars), Dims: formatDims(dims), Cells: formatCells(dims), MaxBytes: maxBytes}
	}
	counts := make([]int64, model.NumCells(dims))
	k := len(m.Vars)
	for i := range m.N {
		idx := 0
		for s, j := range sub {
			idx = idx*dims[s] + int(m.codes[i*k+j])
		}
		counts[idx]++
	}
	return model.NewTable(vars, counts)
}

// Cells returns the non-empty cells of the full cross-classification:
// each as the level index of every variable (levels[c]) with its count,
// in lexicographic order of the levels. There are at most N.
func (m *Microdata) Cells() (levels [][]int32, counts []int64) {
	k := len(m.Vars)
	order := make([]int, m.N)
	for i := range order {
		order[i] = i
	}
	row := func(i int) []int32 { return m.codes[i*k : (i+1)*k] }
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(row(a), row(b)) })
	for _, i := range order {
		if n := len(levels); n > 0 && slices.Equal(levels[n-1], row(i)) {
			counts[n-1]++
			continue
		}
		levels = append(levels, row(i))
		counts = append(counts, 1)
	}
	return levels, counts
}

// AdultVars are the nine categorical variables of the UCI Adult file.
var AdultVars = []string{"workclass", "education", "marital-status", "occupation", "relationship", "race", "sex", "native-country", "income"}

// LoadAdultMicrodata reads adult.csv (the training file, 32561 records) of
// the shared data directory as microdata over AdultVars, "?" kept as a
// level.
func LoadAdultMicrodata() (*Microdata, error) {
	dir, err := SharedDir()
	if err != nil {
		return nil, err
	}
	return LoadMicrodata(dir+"/adult.csv", AdultVars, "")
}

// SyntheticMicrodata draws n seeded records over len(levels) variables
// V1, V2, ... with levels[j] levels each ("0", "1", ...), dependent
// through a latent class: each record draws a class z in 0..3, and each
// variable takes, with probability 0.6, the level z*(j+1) mod levels[j],
// otherwise a level drawn from a skewed distribution (level l with
// weight 1/(l+1)). Not a model of any population: a test bed with
// sparse, dependent cells.
func SyntheticMicrodata(n int, levels []int, seed uint64) (*Microdata, error) {
	if n < 1 || len(levels) == 0 {
		return nil, fmt.Errorf("%w: need records and variables (have %d, %d)", ErrMicrodata, n, len(levels))
	}
	if sz := sizeProduct(n, len(levels), 4); sz < 0 || sz > MemoryLimit() {
		return nil, fmt.Errorf("%w: %d records of %d variables", ErrTooLarge, n, len(levels))
	}
	md := &Microdata{Source: fmt.Sprintf("synthetic(n=%d,seed=%d)", n, seed), Vars: make([]model.Variable, len(levels)), N: n}
	cum := make([][]float64, len(levels))
	for j, l := range levels {
		if l < 1 {
			return nil, fmt.Errorf("%w: variable %d has %d levels", ErrMicrodata, j+1, l)
		}
		md.Vars[j].Name = fmt.Sprintf("V%d", j+1)
		s := 0.0
		for x := range l {
			md.Vars[j].Levels = append(md.Vars[j].Levels, fmt.Sprint(x))
			s += 1 / float64(x+1)
			cum[j] = append(cum[j], s)
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x6d6963726f))
	md.codes = make([]int32, 0, n*len(levels))
	for range n {
		z := r.IntN(4)
		for j, l := range levels {
			x := z * (j + 1) % l
			if r.Float64() >= 0.6 {
				u := r.Float64() * cum[j][l-1]
				x = 0
				for x < l-1 && cum[j][x] < u {
					x++
				}
			}
			md.codes = append(md.codes, int32(x))
		}
	}
	return md, nil
}

// MicrodataFromCells rebuilds microdata from its non-empty cells (as
// Cells returns them: the level indices of every variable, and how many
// records have them), one record per counted unit in the order given. A
// cell of the wrong width, a level outside its variable or a count below
// 1 is an error wrapping ErrMicrodata.
func MicrodataFromCells(source string, vars []model.Variable, levels [][]int32, counts []int64) (*Microdata, error) {
	if len(levels) != len(counts) {
		return nil, fmt.Errorf("%w: %d cells, %d counts", ErrMicrodata, len(levels), len(counts))
	}
	md := &Microdata{Source: source, Vars: slices.Clone(vars)}
	for i, lv := range levels {
		if len(lv) != len(vars) {
			return nil, fmt.Errorf("%w: cell %d has %d levels for %d variables", ErrMicrodata, i, len(lv), len(vars))
		}
		for j, x := range lv {
			if x < 0 || int(x) >= len(vars[j].Levels) {
				return nil, fmt.Errorf("%w: cell %d: level %d of variable %s, which has %d", ErrMicrodata, i, x, vars[j].Name, len(vars[j].Levels))
			}
		}
		if counts[i] < 1 {
			return nil, fmt.Errorf("%w: cell %d has count %d", ErrMicrodata, i, counts[i])
		}
		for range counts[i] {
			md.codes = append(md.codes, lv...)
			md.N++
		}
	}
	return md, nil
}

// PoissonTable is a seeded table of the given dimensions (variables A, B,
// ... with levels 0, 1, ...) whose counts are Poisson with the given mean
// (Knuth's multiplication method): sparse tables with many small counts,
// as the cross-classification of a survey over a few variables is. The
// benchmark of the release auditor (sdcopt bench audit DIMS:WAY@MEAN) and
// its tests use it.
func PoissonTable(dims []int, mean float64, seed uint64) (*model.Table, error) {
	r := rand.New(rand.NewPCG(seed, 0x706f6973))
	vars := make([]model.Variable, len(dims))
	for i, d := range dims {
		vars[i].Name = string(rune('A' + i))
		for l := 0; l < d; l++ {
			vars[i].Levels = append(vars[i].Levels, strconv.Itoa(l))
		}
	}
	counts := make([]int64, model.NumCells(dims))
	limit := math.Exp(-mean)
	for i := range counts {
		k, p := int64(0), r.Float64()
		for p > limit {
			k++
			p *= r.Float64()
		}
		counts[i] = k
	}
	return model.NewTable(vars, counts)
}
