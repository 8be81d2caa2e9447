package roles

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const tol = 1e-12

// table is a small hand-built table: q is the quasi-identifier.
//
//	row  id  c  d  q  lab
//	 0    1  a  e  1  one
//	 1    2  a  e  1  one
//	 2    3  a  e  1  one
//	 3    4  b  f  2  two
//	 4    5  b  f  2  two
//	 5    6  b  f  3  three
//	 6    7  x  g  1  one
//	 7    8  y  g  2  two
var table = [][]string{
	{"id", "c", "d", "q", "lab"},
	{"1", "a", "e", "1", "one"},
	{"2", "a", "e", "1", "one"},
	{"3", "a", "e", "1", "one"},
	{"4", "b", "f", "2", "two"},
	{"5", "b", "f", "2", "two"},
	{"6", "b", "f", "3", "three"},
	{"7", "x", "g", "1", "one"},
	{"8", "y", "g", "2", "two"},
}

func tableCell(i, j int) string { return table[i+1][j] }

// TestMeasureByHand checks the determination of q by each column against
// shares computed by hand. q has values 1 (4 records), 2 (3), 3 (1):
// chance = 4/8.
func TestMeasureByHand(t *testing.T) {
	h := table[0]
	for _, c := range []struct {
		col                  int
		share, gain          float64
		repeated, pure, vals int
	}{
		// c: a → {1,1,1} guesses 3, b → {2,2,3} guesses 2, x and y occur
		// once and count as misses: 5/8; gain (5/8-1/2)/(1/2) = 1/4.
		{1, 5.0 / 8, 0.25, 2, 1, 4},
		// d: e → 3, f → 2, g → {1,2} 1: 6/8; gain (3/4-1/2)/(1/2) = 1/2.
		{2, 6.0 / 8, 0.5, 3, 1, 3},
		// id: every value once: share 0, gain (0-1/2)/(1/2) = -1.
		{0, 0, -1, 0, 0, 8},
		// lab: one → 4, two → 3, three once (a miss): 7/8; gain 3/4.
		{4, 7.0 / 8, 0.75, 2, 2, 3},
	} {
		f := Measure(8, tableCell, h, c.col, 3)
		if math.Abs(f.Share-c.share) > tol || math.Abs(f.Chance-0.5) > tol || math.Abs(f.Gain-c.gain) > tol ||
			f.Repeated != c.repeated || f.Pure != c.pure || f.Values != c.vals || f.N != 8 {
			t.Errorf("%s -> q: %+v, want share %g gain %g repeated %d pure %d values %d", h[c.col], f, c.share, c.gain, c.repeated, c.pure, c.vals)
		}
	}
}

// TestCheckByHand: with q a quasi-identifier and every other column
// published unchanged, the defaults flag id (unique share 8/8), c (2/8
// unique, at least 0.2), d (gain exactly 0.5) and lab (gain 0.75), in
// input order.
func TestCheckByHand(t *testing.T) {
	a, err := New(table[0],
		List{Role: QuasiIdentifier, Columns: []string{"q"}},
		List{Role: Sensitive, Columns: []string{"id", "lab"}},
		List{Role: Insensitive, Columns: []string{"c", "d"}})
	if err != nil {
		t.Fatal(err)
	}
	got := Check(a, 8, tableCell, nil)
	type want struct {
		col   string
		kind  Kind
		share float64
	}
	wants := []want{{"id", Unique, 1}, {"c", Unique, 0.25}, {"d", Determines, 0.75}, {"lab", Determines, 0.875}}
	if len(got) != len(wants) {
		t.Fatalf("findings %v, want %v", got, wants)
	}
	for x, w := range wants {
		f := got[x]
		if f.Column != w.col || f.Kind != w.kind || math.Abs(f.Share-w.share) > tol {
			t.Errorf("finding %d: %+v, want %+v", x, f, w)
		}
		if w.kind == Determines && f.QI != "q" {
			t.Errorf("finding %d: QI %q", x, f.QI)
		}
	}
	if s := got[3].String(); s != "lab determines q for 87.5% of records (2 repeated values, each mapping to one value; 50.0% by guessing its most frequent value; gain 0.75)" {
		t.Errorf("evidence %q", s)
	}
	if s := got[2].String(); !strings.HasPrefix(s, "d nearly determines q for 75.0% of records (3 repeated values, 1 of them mapping to one value;") {
		t.Errorf("evidence %q", s)
	}
	if s := got[1].String(); s != "c is unique for 25.0% of records (2 of 8 records carry a value no other record has; 4 distinct values)" {
		t.Errorf("evidence %q", s)
	}
	// Stricter thresholds drop the weaker findings.
	got = Check(a, 8, tableCell, &Settings{MinGain: 0.6, MaxUnique: 0.5})
	if len(got) != 2 || got[0].Column != "id" || got[1].Column != "lab" {
		t.Errorf("strict: %v", got)
	}
	// Kept columns are not refused.
	if u := Unkept(Check(a, 8, tableCell, nil), []string{"id", " c"}); len(u) != 2 || u[0].Column != "d" || u[1].Column != "lab" {
		t.Errorf("unkept: %v", u)
	}
	// A constant quasi-identifier cannot be revealed.
	b, _ := New([]string{"u", "v"}, List{Role: QuasiIdentifier, Columns: []string{"u"}}, List{Role: Insensitive, Columns: []string{"v"}})
	cells := [][]string{{"1", "a"}, {"1", "a"}, {"1", "b"}, {"1", "b"}}
	if f := Check(b, 4, func(i, j int) string { return cells[i][j] }, nil); len(f) != 0 {
		t.Errorf("constant QI: %v", f)
	}
}

func TestAssignment(t *testing.T) {
	h := []string{"id", "age", "zip", "disease", "note", "income"}
	a, err := New(h,
		List{Role: Identifier, Label: "--identifier", Columns: []string{"id"}},
		List{Role: QuasiIdentifier, Label: "--qi", Columns: []string{"zip", " age"}},
		List{Role: Sensitive, Label: "--sensitive", Columns: []string{"disease"}},
		List{Role: Insensitive, Label: "--insensitive", Columns: nil})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Published(), []int{1, 2, 3}) || !slices.Equal(a.Dropped(), []int{0, 4, 5}) ||
		!slices.Equal(a.Exact(), []int{3}) || !slices.Equal(a.Columns(QuasiIdentifier), []int{1, 2}) {
		t.Errorf("published %v dropped %v exact %v", a.Published(), a.Dropped(), a.Exact())
	}
	if got := a.Names(a.Dropped()); !slices.Equal(got, []string{"id", "note", "income"}) {
		t.Errorf("dropped names %v", got)
	}
	if a.Roles[4] != Unclassified || a.Roles[0].Published() || !a.Roles[3].Exact() || a.Roles[1].Exact() {
		t.Errorf("roles %v", a.Roles)
	}
	for _, c := range []struct {
		lists []List
		want  string
	}{
		{[]List{{Role: Sensitive, Label: "--sensitive", Columns: []string{"salary"}}}, `--sensitive: unknown column "salary" (columns: id, age, zip, disease, note, income)`},
		{[]List{{Role: QuasiIdentifier, Label: "--qi", Columns: []string{"age"}}, {Role: Sensitive, Label: "--sensitive", Columns: []string{"age"}}},
			`column "age" is in --qi (quasi-identifier) and in --sensitive (sensitive)`},
		{[]List{{Role: Insensitive, Label: "--insensitive", Columns: []string{"note", "note"}}}, `--insensitive: column "note" named twice`},
		{[]List{{Role: Identifier, Columns: []string{""}}}, `identifier: empty column name`},
		{[]List{{Role: Unclassified, Columns: []string{"id"}}}, `not a role to assign`},
	} {
		_, err := New(h, c.lists...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.lists, err, c.want)
		}
	}
	for _, c := range []struct {
		keep []string
		want string
	}{
		{[]string{"disease"}, ""},
		{[]string{"age"}, `column "age" is quasi-identifier`},
		{[]string{"note"}, `column "note" is unclassified`},
		{[]string{"x"}, `unknown column "x"`},
		{[]string{"disease", "disease"}, "named twice"},
	} {
		err := a.CheckKeep("--keep-risky", c.keep)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("keep %v: %v, want %q", c.keep, err, c.want)
		}
	}
}

// TestMeasureProperties on seeded random tables: renaming the values of
// the column changes nothing; a column that is a renaming of the
// quasi-identifier determines it fully (share 1, gain 1, every repeated
// value pure) when every value repeats; share and gain stay in their
// ranges; Check flags exactly the pairs whose Measure passes the threshold.
func TestMeasureProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	for trial := 0; trial < 200; trial++ {
		n := 2 + r.IntN(60)
		kc, kq := 1+r.IntN(8), 2+r.IntN(5)
		rows := make([][]string, n)
		for i := range rows {
			c, q := r.IntN(kc), r.IntN(kq)
			if i%2 == 1 && r.IntN(3) == 0 {
				q = c % kq // some dependence
			}
			rows[i] = []string{fmt.Sprint("c", c), fmt.Sprint("q", q), fmt.Sprint("x", c*7+3), fmt.Sprint("Q", q)}
		}
		h := []string{"c", "q", "renamed", "copy"}
		cell := func(i, j int) string { return rows[i][j] }
		f, g := Measure(n, cell, h, 0, 1), Measure(n, cell, h, 2, 1)
		if math.Abs(f.Share-g.Share) > tol || math.Abs(f.Gain-g.Gain) > tol || f.Pure != g.Pure || f.Repeated != g.Repeated {
			t.Fatalf("trial %d: renaming changed %+v into %+v", trial, f, g)
		}
		if f.Share < 0 || f.Share > 1 || f.Chance <= 0 || f.Chance > 1 || f.Gain > 1+tol {
			t.Fatalf("trial %d: out of range %+v", trial, f)
		}
		d := Measure(n, cell, h, 3, 1)
		if d.Pure != d.Repeated {
			t.Fatalf("trial %d: a renamed copy is not pure: %+v", trial, d)
		}
		singles := 0
		count := map[string]int{}
		for _, row := range rows {
			count[row[1]]++
		}
		for _, m := range count {
			if m == 1 {
				singles++
			}
		}
		if singles == 0 && d.Chance < 1 && (math.Abs(d.Share-1) > tol || math.Abs(d.Gain-1) > tol) {
			t.Fatalf("trial %d: a renamed copy without singletons: %+v", trial, d)
		}
		a, err := New(h, List{Role: QuasiIdentifier, Columns: []string{"q"}}, List{Role: Insensitive, Columns: []string{"c", "copy"}})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, c := range []int{0, 3} {
			col := a.Header[c]
			if float64(singletons(rows, c))/float64(n) >= DefaultMaxUnique {
				want = append(want, col+" unique")
			}
			m := Measure(n, cell, h, c, 1)
			if p := pinnedByHand(rows, c, 1); math.Abs(m.Pinned-p) > tol {
				t.Fatalf("trial %d: %s pinned %g, by hand %g", trial, col, m.Pinned, p)
			}
			if m.PinnedChance < 0 || m.PinnedChance > 1 {
				t.Fatalf("trial %d: %s pinned by chance %g", trial, col, m.PinnedChance)
			}
			switch {
			case m.Chance < 1 && m.Gain >= DefaultMinGain:
				want = append(want, col+" determines")
			case m.Chance < 1 && m.Pinned-m.PinnedChance >= DefaultMaxPinned:
				want = append(want, col+" pins")
			}
		}
		var got []string
		for _, f := range Check(a, n, cell, nil) {
			got = append(got, f.Column+" "+f.Kind.String())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: Check %v, want %v", trial, got, want)
		}
	}
}

// pinnedByHand is the share of the records whose value of column c
// occurs at least twice, on records that all have one value of column q,
// and that value is not one of the most frequent of q.
func pinnedByHand(rows [][]string, c, q int) float64 {
	qcount := map[string]int{}
	for _, row := range rows {
		qcount[row[q]]++
	}
	mode := 0
	for _, m := range qcount {
		mode = max(mode, m)
	}
	pinned := 0
	for _, r := range rows {
		same, pure := 0, true
		for _, s := range rows {
			if s[c] == r[c] {
				same++
				pure = pure && s[q] == r[q]
			}
		}
		if same >= 2 && pure && qcount[r[q]] < mode {
			pinned++
		}
	}
	return float64(pinned) / float64(len(rows))
}

// singletons counts the records of column j whose value occurs once.
func singletons(rows [][]string, j int) int {
	count := map[string]int{}
	for _, row := range rows {
		count[row[j]]++
	}
	u := 0
	for _, m := range count {
		if m == 1 {
			u++
		}
	}
	return u
}

// pinTable is the table of issue 44, item 4: a quasi-identifier age over
// 100 records (age 30: 15 records; 31 to 35: 10 each; 36: 9; 60 to 72: 2
// each, the rare ages) and two columns published unchanged that pin age
// exactly for part of the records and say "x" for the rest:
//
//   - age45 is the age for the 45 records aged 30, 31, 32 or 60 to 64;
//   - rare is the age for the 26 records of a rare age (60 to 72).
func pinTable() (header []string, rows [][]string) {
	count := map[int]int{30: 15, 31: 10, 32: 10, 33: 10, 34: 10, 35: 10, 36: 9}
	for a := 60; a <= 72; a++ {
		count[a] = 2
	}
	for a := 30; a <= 72; a++ {
		for range count[a] {
			age := fmt.Sprint(a)
			age45, rare := "x", "x"
			if a <= 32 || a >= 60 && a <= 64 {
				age45 = age
			}
			if a >= 60 {
				rare = age
			}
			rows = append(rows, []string{age, age45, rare})
		}
	}
	return []string{"age", "age45", "rare"}, rows
}

// TestCheckPinsRareValues: a column that pins a quasi-identifier exactly
// for a minority of the records is refused although its gain stays below
// DefaultMinGain (issue 44, item 4: "a column equal to age for 45 % of
// rows, x otherwise: gain 0.41 < 0.5, published without warning"; "exact
// age for every rare age, 26 % of records, also passes"). Every number is
// counted by hand from pinTable (chance: age 30 holds 15 of 100 records).
func TestCheckPinsRareValues(t *testing.T) {
	h, rows := pinTable()
	n := len(rows)
	cell := func(i, j int) string { return rows[i][j] }
	a, err := New(h, List{Role: QuasiIdentifier, Columns: []string{"age"}}, List{Role: Insensitive, Columns: []string{"age45", "rare"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		col    int
		gain   float64 // Measure's gain: below DefaultMinGain, so Determines stays silent
		pinned float64 // share of records pinned, not counting age 30 (the most frequent)
		chance float64 // PinnedChance, to 1e-6
	}{
		// age45: its 8 age values are pure and repeated (45 records); "x"
		// (55 records) guesses 33, 34 or 35 (10 each): share 55/100,
		// gain (0.55-0.15)/0.85 = 8/17. Pinned: 45 - 15 (age 30) = 30.
		// Chance: the 5 values of 2 records (ages 60 to 64) are pure in a
		// non-modal age with chance S2 = Σ_{q≠30} p_q² = 5(0.1)² + 0.09² +
		// 13(0.02)² = 0.0633, so 10·S2/100 = 0.00633; the values of 10, 15
		// and 55 records add less than 1e-8.
		{1, 8.0 / 17, 0.30, 0.00633},
		// rare: 13 pure values (26 records); "x" guesses 30 (15): share
		// 41/100, gain (0.41-0.15)/0.85 = 26/85. Pinned: 26. Chance:
		// 26·S2/100 = 0.016458.
		{2, 26.0 / 85, 0.26, 0.016458},
	} {
		f := Measure(n, cell, h, c.col, 0)
		if math.Abs(f.Gain-c.gain) > tol || f.Gain >= DefaultMinGain {
			t.Errorf("%s -> age: gain %g, want %g", h[c.col], f.Gain, c.gain)
		}
		if math.Abs(f.Pinned-c.pinned) > tol || math.Abs(f.PinnedChance-c.chance) > 1e-6 {
			t.Errorf("%s -> age: pinned %g (chance %g), want %g (%g)", h[c.col], f.Pinned, f.PinnedChance, c.pinned, c.chance)
		}
	}
	got := Check(a, n, cell, nil)
	want := []string{"age45 pins age 0.300", "rare pins age 0.260"}
	var gotS []string
	for _, f := range got {
		gotS = append(gotS, fmt.Sprintf("%s %s %s %.3f", f.Column, f.Kind, f.QI, f.Share))
	}
	if !slices.Equal(gotS, want) {
		t.Fatalf("findings %q, want %q", gotS, want)
	}
	if s := got[1].String(); s != "rare pins age exactly for 26.0% of records (26 records; each of 13 repeated values is held only by records of one value of age, not its most frequent; 1.6% by chance; gain 0.31)" {
		t.Errorf("evidence %q", s)
	}
	// The threshold is a setting: at 0.27 only age45 (0.30) passes.
	if got := Check(a, n, cell, &Settings{MaxPinned: 0.27}); len(got) != 1 || got[0].Column != "age45" {
		t.Errorf("MaxPinned 0.27: %v", got)
	}
}
