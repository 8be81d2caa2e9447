package mps

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

var inf = math.Inf(1)

// Exact float comparison is intended throughout these tests: values are
// written with strconv.FormatFloat(v, 'g', -1, 64), the shortest text that
// parses back to the same float64, so a round trip must reproduce every
// value bit for bit (up to the sign of zero). The one documented exception,
// the recomputed bound of a ranged row, is compared in ulps.

// ulps is the distance between a and b in units in the last place.
func ulps(a, b float64) uint64 {
	if a == b {
		return 0
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.Signbit(a) != math.Signbit(b) {
		return math.MaxUint64
	}
	x, y := math.Float64bits(math.Abs(a)), math.Float64bits(math.Abs(b))
	if x > y {
		return x - y
	}
	return y - x
}

// expectNames is the name list the writer must use: given when all valid
// and unique, generated otherwise.
func expectNames(n int, given []string, prefix string) []string {
	ok := len(given) == n && n > 0
	seen := map[string]bool{}
	for _, s := range given {
		if s == "" || strings.ContainsAny(s, " \t\r\n\v\f") || seen[s] {
			ok = false
		}
		seen[s] = true
	}
	if ok {
		return given
	}
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

// rangeTol is how many ulps the recomputed bound of a ranged row may move.
const rangeTol = 2

// sameProblem compares got (read back) with want (the original) field by
// field. Names are compared with the names the writer had to use. Values
// that the file holds verbatim must be equal; the bound of a ranged row
// that the reader recomputes as rhs ± |R| may be rangeTol ulps off.
func sameProblem(t *testing.T, want, got *solvers.Problem) {
	t.Helper()
	if err := got.Validate(); err != nil {
		t.Fatalf("read-back problem does not validate: %v", err)
	}
	n, m := want.NumCols(), want.NumRows()
	if got.NumCols() != n || got.NumRows() != m || got.NumNonzeros() != want.NumNonzeros() {
		t.Fatalf("shape: got %d cols %d rows %d nz, want %d %d %d", got.NumCols(), got.NumRows(), got.NumNonzeros(), n, m, want.NumNonzeros())
	}
	if wn := strings.Join(strings.Fields(want.Name), " "); got.Name != wn {
		t.Errorf("Name = %q, want %q", got.Name, wn)
	}
	if got.Sense != want.Sense {
		t.Errorf("Sense = %v, want %v", got.Sense, want.Sense)
	}
	if got.Offset != want.Offset {
		t.Errorf("Offset = %v, want %v", got.Offset, want.Offset)
	}
	cn := expectNames(n, want.ColNames, "x")
	rn := expectNames(m, want.RowNames, "r")
	for j := 0; j < n; j++ {
		if got.Obj[j] != want.Obj[j] {
			t.Errorf("Obj[%d] = %v, want %v", j, got.Obj[j], want.Obj[j])
		}
		if got.ColLower[j] != want.ColLower[j] || got.ColUpper[j] != want.ColUpper[j] {
			t.Errorf("col %d bounds [%v, %v], want [%v, %v]", j, got.ColLower[j], got.ColUpper[j], want.ColLower[j], want.ColUpper[j])
		}
		if got.Type(j) != want.Type(j) {
			t.Errorf("col %d type %v, want %v", j, got.Type(j), want.Type(j))
		}
		if got.ColName(j) != cn[j] {
			t.Errorf("col %d name %q, want %q", j, got.ColName(j), cn[j])
		}
		if got.ColStart[j+1] != want.ColStart[j+1] {
			t.Errorf("ColStart[%d] = %d, want %d", j+1, got.ColStart[j+1], want.ColStart[j+1])
		}
	}
	for k := range want.RowIndex {
		if got.RowIndex[k] != want.RowIndex[k] || got.Value[k] != want.Value[k] {
			t.Errorf("entry %d: row %d value %v, want row %d value %v", k, got.RowIndex[k], got.Value[k], want.RowIndex[k], want.Value[k])
		}
	}
	for i := 0; i < m; i++ {
		lo, up := want.RowLower[i], want.RowUpper[i]
		glo, gup := got.RowLower[i], got.RowUpper[i]
		ranged := lo != up && !math.IsInf(lo, 0) && !math.IsInf(up, 0)
		if ranged {
			if ulps(glo, lo) > rangeTol || ulps(gup, up) > rangeTol || (glo != lo && gup != up) {
				t.Errorf("ranged row %d bounds [%v, %v], want [%v, %v]", i, glo, gup, lo, up)
			}
		} else if glo != lo || gup != up {
			t.Errorf("row %d bounds [%v, %v], want [%v, %v]", i, glo, gup, lo, up)
		}
		if got.RowName(i) != rn[i] {
			t.Errorf("row %d name %q, want %q", i, got.RowName(i), rn[i])
		}
	}
}

func roundTrip(t *testing.T, p *solvers.Problem) (*solvers.Problem, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatalf("Write: %v", err)
	}
	q, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("Read: %v\n%s", err, buf.String())
	}
	return q, buf.String()
}

// featureProblems are hand-built problems that together use every feature
// the writer supports.
func featureProblems() map[string]*solvers.Problem {
	ps := map[string]*solvers.Problem{}

	ps["empty"] = &solvers.Problem{}
	ps["empty max with offset"] = &solvers.Problem{Name: "nothing", Sense: solvers.Maximize, Offset: 2.5}

	// min x0 + 2 x1 - 3 x2 + 7 s.t. every row type, every continuous bound kind.
	p := &solvers.Problem{Name: "lp features", Offset: 7}
	free := p.AddRow(-inf, inf, "free")
	eq := p.AddRow(3, 3, "eq")
	le := p.AddRow(-inf, 10, "le")
	ge := p.AddRow(-2.5, inf, "ge")
	rg := p.AddRow(-1, 4, "range")
	rg2 := p.AddRow(0.1, 0.3, "range2")
	p.AddCol(1, 0, inf, solvers.Continuous, []int{free, eq, le}, []float64{1, 2, 3}, "x")
	p.AddCol(2, -inf, inf, solvers.Continuous, []int{eq, ge, rg}, []float64{-1, 0.5, 1e-9}, "free_col")
	p.AddCol(-3, 1.5, 1.5, solvers.Continuous, []int{rg2, le}, []float64{4, 0}, "fixed")
	p.AddCol(0, -inf, 5, solvers.Continuous, []int{ge}, []float64{1e300}, "minus_inf")
	p.AddCol(0, -2, inf, solvers.Continuous, nil, nil, "neg_lower")
	p.AddCol(0.25, 0, -1, solvers.Continuous, []int{rg}, []float64{-7}, "neg_upper")
	p.AddCol(0, 1, 2, solvers.Continuous, []int{rg2}, []float64{math.SmallestNonzeroFloat64}, "boxed")
	ps["lp features"] = p

	// max with integer, binary, mixed blocks.
	q := &solvers.Problem{Name: "mip", Sense: solvers.Maximize, Offset: -1.25}
	c0 := q.AddRow(-inf, 6, "c0")
	c1 := q.AddRow(1, 1, "c1")
	q.AddCol(5, 0, 1, solvers.Binary, []int{c0, c1}, []float64{2, 1}, "b0")
	q.AddCol(4, 0, 1, solvers.Binary, []int{c0, c1}, []float64{3, 1}, "b1")
	q.AddCol(1, 0, inf, solvers.Continuous, []int{c0}, []float64{1}, "y")
	q.AddCol(3, 0, inf, solvers.Integer, []int{c0}, []float64{1}, "n_default")
	q.AddCol(3, -5, 5, solvers.Integer, []int{c0}, []float64{1}, "n_box")
	q.AddCol(1, -inf, inf, solvers.Integer, []int{c0}, []float64{1}, "n_free")
	q.AddCol(1, 2, 2, solvers.Integer, nil, nil, "n_fixed")
	q.AddCol(1, -inf, -3, solvers.Integer, []int{c1}, []float64{0}, "n_minus")
	q.AddCol(1, 0, -3, solvers.Integer, nil, nil, "n_empty_box")
	q.AddCol(1, 0, 5, solvers.Binary, nil, nil, "b_wide")
	q.AddCol(1, -inf, inf, solvers.Binary, nil, nil, "b_free")
	q.AddCol(1, 0.5, 0.5, solvers.Binary, nil, nil, "b_fixed")
	q.AddCol(1, 0, 1, solvers.Continuous, nil, nil, "tail")
	ps["mip features"] = q

	// Invalid names of each kind: the writer must fall back to x0.., r0..
	r := &solvers.Problem{}
	r.AddRow(0, 1, "has space")
	r.AddRow(0, inf, "ok")
	r.AddCol(1, 0, 1, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "a")
	r.AddCol(1, 0, 1, solvers.Continuous, []int{0}, []float64{1}, "a") // duplicate
	ps["invalid names"] = r

	s := &solvers.Problem{}
	s.AddRow(2, 2, "")
	s.AddCol(1, 0, 1, solvers.Continuous, []int{0}, []float64{1}, "")
	s.AddCol(1, 0, 1, solvers.Integer, []int{0}, []float64{1}, "named")
	ps["empty names"] = s

	// A row called "obj" forces another objective row name.
	o := &solvers.Problem{Offset: 3}
	o.AddRow(-inf, 1, "obj")
	o.AddRow(-inf, 2, "obj_1")
	o.AddCol(1, 0, inf, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	ps["obj name clash"] = o

	// No names at all, ColType non-nil but all continuous.
	u := &solvers.Problem{
		Obj: []float64{1, 0}, ColLower: []float64{0, 0}, ColUpper: []float64{inf, 1},
		ColType:  []solvers.VarType{solvers.Continuous, solvers.Continuous},
		RowLower: []float64{-inf}, RowUpper: []float64{4},
		ColStart: []int{0, 1, 2}, RowIndex: []int{0, 0}, Value: []float64{1, 1},
	}
	ps["unnamed"] = u

	// Rows but no columns, and columns but no rows.
	v := &solvers.Problem{}
	v.AddRow(-inf, 0, "lonely")
	v.AddRow(-inf, inf, "lonely_free")
	ps["rows only"] = v
	w := &solvers.Problem{Sense: solvers.Maximize}
	w.AddCol(1, 0, 3, solvers.Integer, nil, nil, "k")
	w.AddCol(0, 0, inf, solvers.Continuous, nil, nil, "z")
	ps["cols only"] = w
	return ps
}

func TestRoundTripFeatures(t *testing.T) {
	for name, p := range featureProblems() {
		t.Run(name, func(t *testing.T) {
			q, text := roundTrip(t, p)
			sameProblem(t, p, q)
			if t.Failed() {
				t.Logf("file:\n%s", text)
			}
			// Writing the read-back problem gives the same text.
			var again bytes.Buffer
			if err := Write(&again, q); err != nil {
				t.Fatal(err)
			}
			if again.String() != text {
				t.Errorf("second write differs:\n%s\nvs\n%s", again.String(), text)
			}
		})
	}
}

// The hand-built ranged rows above have data for which an exact range
// exists; check they are exact, not merely within rangeTol.
func TestRangedRowsExact(t *testing.T) {
	cases := [][2]float64{{-1, 4}, {0.1, 0.3}, {-1e20, 1}, {1, 1e20}, {-0.7, -0.2}, {1e-300, 2e-300}, {-3, 1e308}}
	for _, c := range cases {
		p := &solvers.Problem{}
		p.AddRow(c[0], c[1], "r")
		q, _ := roundTrip(t, p)
		if q.RowLower[0] != c[0] || q.RowUpper[0] != c[1] {
			t.Errorf("ranged row [%v, %v] read back as [%v, %v]", c[0], c[1], q.RowLower[0], q.RowUpper[0])
		}
	}
	// Integer-valued ranges are always exact.
	rng := rand.New(rand.NewPCG(7, 7))
	for k := 0; k < 2000; k++ {
		lo := float64(rng.IntN(2000001) - 1000000)
		up := lo + float64(1+rng.IntN(1000000))
		s, ok := specOf(lo, up)
		if !ok {
			t.Fatalf("specOf(%v, %v) failed", lo, up)
		}
		if l, u := rangeBounds(s.typ, s.rhs, s.rng); l != lo || u != up {
			t.Fatalf("range [%v, %v] encoded inexactly as [%v, %v]", lo, up, l, u)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	p := &solvers.Problem{}
	p.AddRow(2, 1, "crossed")
	if err := Write(&bytes.Buffer{}, p); !errors.Is(err, solvers.ErrUnsupported) {
		t.Errorf("crossed row bounds: err = %v, want ErrUnsupported", err)
	}
	p = &solvers.Problem{}
	p.AddRow(-1e308, 1e308, "wide")
	if err := Write(&bytes.Buffer{}, p); !errors.Is(err, solvers.ErrUnsupported) {
		t.Errorf("overflowing range: err = %v, want ErrUnsupported", err)
	}
	p = &solvers.Problem{Obj: []float64{1}} // missing bounds
	if err := Write(&bytes.Buffer{}, p); !errors.Is(err, solvers.ErrInvalidProblem) {
		t.Errorf("invalid problem: err = %v, want ErrInvalidProblem", err)
	}
}

func TestWriteMergesDuplicates(t *testing.T) {
	p := &solvers.Problem{}
	p.AddRow(-inf, 1, "a")
	p.AddRow(-inf, 1, "b")
	p.AddCol(1, 0, 1, solvers.Continuous, []int{1, 0, 1}, []float64{2, 3, 4}, "x")
	q, _ := roundTrip(t, p)
	rows, vals := q.Column(0)
	// 2 + 4 = 6 in row b (first seen), then 3 in row a.
	if len(rows) != 2 || rows[0] != 1 || vals[0] != 6 || rows[1] != 0 || vals[1] != 3 {
		t.Errorf("merged column = %v %v, want [1 0] [6 3]", rows, vals)
	}
}

func TestWriteText(t *testing.T) {
	p := &solvers.Problem{Name: "t", Sense: solvers.Maximize, Offset: 2}
	p.AddRow(1, 3, "c")
	p.AddCol(1, 0, inf, solvers.Integer, []int{0}, []float64{1}, "n")
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"NAME      t\n",
		"OBJSENSE\n    MAX\n",
		"'INTORG'", "'INTEND'",
		"RHS       obj       -2\n", // RHS on the objective = -offset
		" PL BND       n\n",        // integer column: explicit infinite upper bound
		"RANGES\n", "\nENDATA\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

// knownLP is a small LP written by hand:
//
//	max  3x + 2y - z + 10
//	s.t. c1:  x +  y      <= 4
//	     c2:  x      + z  >= 1
//	     c3:       y - z   = 0.5
//	     c4: 1 <= x + y + z <= 6   (ranged)
//	     0 <= x <= 3, y free, z integer in [-2, 5]
const knownLP = `* a comment
NAME          KNOWN
OBJSENSE
    MAXIMIZE
ROWS
 N  profit
 L  c1
 G  c2
 E  c3
 G  c4
COLUMNS
    x         profit    3            c1        1
    x         c2        1            c4        1
    y         profit    2            c1        1
    y         c3        1            c4        1
    MARKER    'MARKER'  'INTORG'
    z         profit    -1           c2        1
    z         c3        -1           c4        1
    MARKER    'MARKER'  'INTEND'
RHS
    rhs       c1        4            c2        1
    rhs       c3        0.5          c4        1
    rhs       profit    -10
RANGES
    rng       c4        5
BOUNDS
 UP bnd       x         3
 FR bnd       y
 LO bnd       z         -2
 UP bnd       z         5
ENDATA
`

func TestReadKnown(t *testing.T) {
	p, err := Read(strings.NewReader(knownLP))
	if err != nil {
		t.Fatal(err)
	}
	// Every expected value below is transcribed from knownLP by hand.
	want := &solvers.Problem{
		Name: "KNOWN", Sense: solvers.Maximize, Offset: 10,
		Obj:      []float64{3, 2, -1},
		ColLower: []float64{0, -inf, -2},
		ColUpper: []float64{3, inf, 5},
		ColType:  []solvers.VarType{solvers.Continuous, solvers.Continuous, solvers.Integer},
		ColNames: []string{"x", "y", "z"},
		RowLower: []float64{-inf, 1, 0.5, 1},
		RowUpper: []float64{4, inf, 0.5, 6},
		RowNames: []string{"c1", "c2", "c3", "c4"},
		ColStart: []int{0, 3, 6, 9},
		RowIndex: []int{0, 1, 3, 0, 2, 3, 1, 2, 3},
		Value:    []float64{1, 1, 1, 1, 1, 1, 1, -1, 1},
	}
	sameProblem(t, want, p)
}

// fixedLP is knownLP's structure in classic fixed MPS, with blank set
// names in RHS and BOUNDS and a one-line OBJSENSE.
const fixedLP = `NAME          FIXED
OBJSENSE MAX
ROWS
 N  COST
 L  LIM1
 G  LIM2
COLUMNS
    X1        COST         1.0   LIM1         1.0
    X1        LIM2         1.0
    X2        COST         2.0   LIM1         1.0
RHS
              LIM1         4.0   LIM2         1.0
BOUNDS
 UP           X1           4.0
 MI           X2
ENDATA
`

func TestReadFixed(t *testing.T) {
	p, err := Read(strings.NewReader(fixedLP))
	if err != nil {
		t.Fatal(err)
	}
	// Transcribed from fixedLP by hand.
	want := &solvers.Problem{
		Name: "FIXED", Sense: solvers.Maximize,
		Obj: []float64{1, 2}, ColLower: []float64{0, -inf}, ColUpper: []float64{4, inf},
		ColNames: []string{"X1", "X2"},
		RowLower: []float64{-inf, 1}, RowUpper: []float64{4, inf}, RowNames: []string{"LIM1", "LIM2"},
		ColStart: []int{0, 2, 3}, RowIndex: []int{0, 1, 0}, Value: []float64{1, 1, 1},
	}
	sameProblem(t, want, p)
}

// conventionsMPS uses every reading convention that draws a warning.
const conventionsMPS = `NAME
ROWS
 N obj
 N spare
 E e
COLUMNS
 x obj 1 spare 2
 x e 1
 y obj 1
 b e 1
RHS
 obj 3 spare 9
 e 2
RANGES
 spare 1
BOUNDS
 UP BND x -4
 LO BND y 0
 UP BND y -1
 BV BND b
ENDATA
anything after ENDATA is ignored
`

func TestReadConventions(t *testing.T) {
	p, warns, err := Decode(strings.NewReader(conventionsMPS), "conv.mps")
	if err != nil {
		t.Fatal(err)
	}
	// Second N row "spare" is a free row with its coefficient kept.
	if p.NumRows() != 2 || p.RowNames[0] != "spare" || !math.IsInf(p.RowLower[0], -1) || !math.IsInf(p.RowUpper[0], 1) {
		t.Errorf("free row: names %v bounds %v %v", p.RowNames, p.RowLower, p.RowUpper)
	}
	if rows, vals := p.Column(0); len(rows) != 2 || rows[0] != 0 || vals[0] != 2 {
		t.Errorf("column x = %v %v", rows, vals)
	}
	// RHS on the objective row is -offset.
	if p.Offset != -3 {
		t.Errorf("Offset = %v, want -3", p.Offset)
	}
	// UP -4 with default lower bound: classic rule, lower -inf.
	if !math.IsInf(p.ColLower[0], -1) || p.ColUpper[0] != -4 {
		t.Errorf("x bounds [%v, %v], want [-inf, -4]", p.ColLower[0], p.ColUpper[0])
	}
	// Explicit LO 0 then UP -1: kept as written (an empty interval).
	if p.ColLower[1] != 0 || p.ColUpper[1] != -1 {
		t.Errorf("y bounds [%v, %v], want [0, -1]", p.ColLower[1], p.ColUpper[1])
	}
	if p.Type(2) != solvers.Binary || p.ColLower[2] != 0 || p.ColUpper[2] != 1 {
		t.Errorf("b: type %v bounds [%v, %v]", p.Type(2), p.ColLower[2], p.ColUpper[2])
	}
	// Warnings: RHS on free row, range on free row, negative UP (3 in all).
	if len(warns) != 3 {
		t.Errorf("warnings = %v, want 3", warns)
	}
	for _, w := range warns {
		if !strings.HasPrefix(w.String(), "conv.mps:") {
			t.Errorf("warning %q does not name the file", w.String())
		}
	}
}

func TestIntegerDefaultBounds(t *testing.T) {
	// Integer column inside markers without BOUNDS: [0, +inf), not [0, 1].
	const text = "ROWS\n N o\nCOLUMNS\n MARKER 'MARKER' 'INTORG'\n k o 1\n MARKER 'MARKER' 'INTEND'\nENDATA\n"
	p, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if p.Type(0) != solvers.Integer || p.ColLower[0] != 0 || !math.IsInf(p.ColUpper[0], 1) {
		t.Errorf("k: type %v bounds [%v, %v], want integer [0, +inf)", p.Type(0), p.ColLower[0], p.ColUpper[0])
	}
}

// malformedCase is an MPS text the reader must reject, the line its
// error must name and a fragment of the message.
type malformedCase struct {
	name, text string
	line       int
	msg        string
}

func malformedCases() []malformedCase {
	const rows = "NAME x\nROWS\n N obj\n L c1\n"   // lines 1-4
	const cols = rows + "COLUMNS\n x obj 1 c1 1\n" // lines 5-6
	const intorg = " M 'MARKER' 'INTORG'\n"
	const intend = " M 'MARKER' 'INTEND'\n"
	return []malformedCase{
		{"empty", "", 0, "empty file"},
		{"only comments", "* nothing\n\n", 0, "empty file"},
		{"unknown section", rows + "COLUMNZ\n", 5, `unknown section "COLUMNZ"`},
		{"unindented data", rows + "COLUMNS\nx obj 1\n", 6, "unknown section"},
		{"data before section", " x obj 1\n", 1, "before any section"},
		{"duplicate row", rows + " G c1\n", 5, `duplicate row "c1"`},
		{"row type", rows + " Q c2\n", 5, "unknown row type"},
		{"row fields", rows + " L\n", 5, "ROWS line"},
		{"unknown row in columns", cols + " y c7 1\n", 7, `unknown row "c7" in COLUMNS`},
		{"malformed coefficient", cols + " y c1 1.2.3\n", 7, `malformed number "1.2.3"`},
		{"nan coefficient", cols + " y c1 NaN\n", 7, "NaN"},
		{"infinite coefficient", cols + " y c1 1e999\n", 7, "not finite"},
		{"digit separator", cols + " y c1 1_0\n", 7, `malformed number "1_0"`},
		{"hexadecimal float", cols + "RHS\n RHS c1 0x1p3\n", 8, `malformed number "0x1p3"`},
		{"column fields", cols + " y c1\n", 7, "COLUMNS line"},
		{"noncontiguous column", cols + " y c1 1\n x c1 2\n", 8, "contiguous"},
		{"duplicate entry", cols + " x c1 2\n", 7, "duplicate entry"},
		{"duplicate objective", cols + " x obj 2\n", 7, "duplicate objective"},
		{"bad marker", cols + " M 'MARKER' 'SOSORG'\n", 7, "marker"},
		{"intend without intorg", cols + intend, 7, "INTEND marker without a preceding INTORG"},
		{"second intend", cols + intorg + " k c1 1\n" + intend + intend, 10, "INTEND marker without a preceding INTORG"},
		{"intorg inside intorg", cols + intorg + " k c1 1\n" + intorg, 9, "INTORG marker inside the integer block opened on line 7"},
		{"rhs inside intorg", cols + intorg + " k c1 1\nRHS\n", 9, "INTORG marker on line 7 has no INTEND"},
		{"bounds inside intorg", cols + intorg + " k c1 1\nBOUNDS\n", 9, "no INTEND"},
		{"ranges inside intorg", cols + intorg + "RANGES\n", 8, "no INTEND"},
		{"endata inside intorg", cols + intorg + " k c1 1\nENDATA\n", 9, "INTORG marker on line 7 has no INTEND"},
		{"lowercase markers unbalanced", cols + " m 'MARKER' 'intorg'\n k c1 1\nENDATA\n", 9, "no INTEND"},
		{"bom then unbalanced", "\ufeff" + cols + intorg + "ENDATA\n", 8, "no INTEND"},
		{"columns before rows", "COLUMNS\n", 1, "COLUMNS before ROWS"},
		{"unknown row in rhs", cols + "RHS\n RHS c9 1\n", 8, `unknown row "c9" in RHS`},
		{"malformed rhs", cols + "RHS\n RHS c1 x\n", 8, "malformed number"},
		{"duplicate rhs", cols + "RHS\n RHS c1 1\n RHS c1 2\n", 9, "duplicate RHS"},
		{"second rhs set", cols + "RHS\n A c1 1\n B obj 2\n", 9, "second RHS set"},
		{"unknown row in ranges", cols + "RANGES\n R c9 1\n", 8, `unknown row "c9" in RANGES`},
		{"unknown bound type", cols + "BOUNDS\n XX BND x 1\n", 8, `unknown bound type "XX"`},
		{"semicontinuous", cols + "BOUNDS\n SC BND x 1\n", 8, "not supported"},
		{"unknown column in bounds", cols + "BOUNDS\n UP BND q 1\n", 8, `unknown column "q"`},
		{"malformed bound", cols + "BOUNDS\n UP BND x one\n", 8, "malformed number"},
		{"bound missing value", cols + "BOUNDS\n UP x\n", 8, "needs"},
		{"lower +inf", cols + "BOUNDS\n LO BND x inf\n", 8, "out of range"},
		{"duplicate section", cols + "RHS\nRHS\n", 8, "duplicate RHS"},
		{"columns after rhs", rows + "RHS\nCOLUMNS\n", 6, "COLUMNS must precede"},
		{"objsense value", "OBJSENSE\n UP\n", 2, "objective sense"},
		{"objsense after columns", cols + "OBJSENSE MAX\n", 7, "OBJSENSE must precede"},
		{"missing endata", cols, 6, "without ENDATA"},
		{"no rows", "NAME x\nENDATA\n", 2, "no ROWS"},
		{"bom not at the start", "NAME x\n\ufeffROWS\n", 2, "unknown section"},
		{"two boms", "\ufeff\ufeffNAME x\n", 1, "unknown section"},
	}
}

func TestMalformed(t *testing.T) {
	for _, c := range malformedCases() {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.text))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("got line %d %q, want line %d containing %q", pe.Line, pe.Msg, c.line, c.msg)
			}
			// Decode names the file, like every other reader error.
			_, _, err = Decode(strings.NewReader(c.text), "bad.mps")
			if want := fmt.Sprintf("bad.mps:%d: ", c.line); c.line > 0 && !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Decode error %q does not start with %q", err, want)
			}
		})
	}
}

// TestByteOrderMark: a UTF-8 byte-order mark before the first line (as
// some Windows editors write) is skipped, whatever the first line holds.
func TestByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	for _, text := range []string{knownLP, fixedLP, conventionsMPS, "ROWS\n N o\nENDATA\n"} {
		want, err := Read(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(strings.NewReader(bom + text))
		if err != nil {
			t.Fatalf("with a BOM: %v\n%s", err, text)
		}
		sameProblem(t, want, got)
		if got.Name != want.Name {
			t.Errorf("name %q with a BOM, %q without", got.Name, want.Name)
		}
	}
	// A file that is only a BOM (and blank lines) is empty.
	if _, err := Read(strings.NewReader(bom + "\n\n")); err == nil || !strings.Contains(err.Error(), "empty file") {
		t.Errorf("BOM-only file: err = %v, want empty file", err)
	}
}

func TestParseErrorText(t *testing.T) {
	e := &ParseError{File: "model.mps", Line: 12, Msg: `unknown row "c7" in COLUMNS`}
	if got := e.Error(); got != `model.mps:12: unknown row "c7" in COLUMNS` {
		t.Errorf("Error() = %q", got)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "model.mps")
	if err := os.WriteFile(path, []byte("ROWS\n N obj\nCOLUMNS\n x c7 1\nENDATA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if err == nil || err.Error() != path+`:4: unknown row "c7" in COLUMNS` {
		t.Errorf("ReadFile error = %v", err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	ps := featureProblems()
	for _, name := range []string{"m.mps", "m.mps.gz"} {
		path := filepath.Join(dir, name)
		p := ps["mip features"]
		if err := WriteFile(path, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sameProblem(t, p, q)
	}
	// The .gz file really is gzip.
	f, err := os.Open(filepath.Join(dir, "m.mps.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gzip.NewReader(f); err != nil {
		t.Errorf("m.mps.gz is not gzip: %v", err)
	}
	f.Close()

	// A failing write leaves neither the target nor a temporary file, and
	// does not touch an existing file.
	bad := &solvers.Problem{}
	bad.AddRow(2, 1, "crossed")
	if err := WriteFile(filepath.Join(dir, "bad.mps"), bad); err == nil {
		t.Fatal("WriteFile of an unwritable problem succeeded")
	}
	before, _ := os.ReadFile(filepath.Join(dir, "m.mps"))
	if err := WriteFile(filepath.Join(dir, "m.mps"), bad); err == nil {
		t.Fatal("WriteFile of an unwritable problem succeeded")
	}
	after, _ := os.ReadFile(filepath.Join(dir, "m.mps"))
	if !bytes.Equal(before, after) {
		t.Error("failed WriteFile modified the existing file")
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "m.mps,m.mps.gz" {
		t.Errorf("directory holds %v, want [m.mps m.mps.gz]", names)
	}
}

// randomProblem builds a problem exercising random combinations of the
// features; all names are valid unless the name mode says otherwise.
func randomProblem(rng *rand.Rand) *solvers.Problem {
	val := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return float64(rng.IntN(21) - 10)
		case 2:
			return math.Round(rng.NormFloat64()*1000) / 100
		case 3:
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		case 4:
			for {
				v := math.Float64frombits(rng.Uint64())
				if !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < 1e300 {
					return v
				}
			}
		default:
			return rng.NormFloat64()
		}
	}
	p := &solvers.Problem{Sense: solvers.Sense(rng.IntN(2))}
	if rng.IntN(2) == 0 {
		p.Offset = val()
	}
	if rng.IntN(3) > 0 {
		p.Name = "rand " + strconv.Itoa(rng.IntN(1000))
	}
	m, n := rng.IntN(7), rng.IntN(9)
	for i := 0; i < m; i++ {
		a, b := val(), val()
		if a > b {
			a, b = b, a
		}
		var lo, up float64
		switch rng.IntN(5) {
		case 0:
			lo, up = a, a
		case 1:
			lo, up = -inf, b
		case 2:
			lo, up = a, inf
		case 3:
			lo, up = -inf, inf
		default:
			lo, up = a, b
			if a == b || math.IsInf(b-a, 0) {
				lo, up = a, inf
			}
		}
		p.AddRow(lo, up, "row_"+strconv.Itoa(i))
	}
	for j := 0; j < n; j++ {
		a, b := val(), val()
		if a > b && rng.IntN(4) > 0 {
			a, b = b, a
		}
		var lo, up float64
		switch rng.IntN(6) {
		case 0:
			lo, up = 0, inf
		case 1:
			lo, up = a, a
		case 2:
			lo, up = -inf, b
		case 3:
			lo, up = a, inf
		case 4:
			lo, up = -inf, inf
		default:
			lo, up = a, b
		}
		t := solvers.VarType(rng.IntN(3))
		if t == solvers.Binary && rng.IntN(2) == 0 {
			lo, up = 0, 1
		}
		var rows []int
		var vals []float64
		for i := 0; i < m; i++ {
			if rng.IntN(2) == 0 {
				rows = append(rows, i)
				vals = append(vals, val())
			}
		}
		rng.Shuffle(len(rows), func(x, y int) { rows[x], rows[y] = rows[y], rows[x] })
		obj := 0.0
		if rng.IntN(3) > 0 {
			obj = val()
		}
		p.AddCol(obj, lo, up, t, rows, vals, "col_"+strconv.Itoa(j))
	}
	switch rng.IntN(6) {
	case 0:
		p.ColNames, p.RowNames = nil, nil
	case 1:
		if n > 0 {
			p.ColNames[rng.IntN(n)] = "bad name"
		}
	case 2:
		if m > 1 {
			p.RowNames[1] = p.RowNames[0]
		}
	}
	return p
}

func TestRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 11))
	count := 400
	if testing.Short() {
		count = 100
	}
	for k := 0; k < count; k++ {
		p := randomProblem(rng)
		q, text := roundTrip(t, p)
		sameProblem(t, p, q)
		if t.Failed() {
			t.Fatalf("problem %d:\n%s", k, text)
		}
	}
}

func BenchmarkWriteRead(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := &solvers.Problem{}
	const m, n = 2000, 5000
	for i := 0; i < m; i++ {
		p.AddRow(-inf, float64(rng.IntN(100)), "")
	}
	for j := 0; j < n; j++ {
		var rows []int
		var vals []float64
		for k := 0; k < 10; k++ {
			rows = append(rows, (j*7+k*131)%m)
			vals = append(vals, rng.NormFloat64())
		}
		p.AddCol(rng.Float64(), 0, 1, solvers.VarType(j%2), rows, vals, "")
	}
	b.ResetTimer()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			b.Fatal(err)
		}
		if _, err := Read(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
