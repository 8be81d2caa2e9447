package model

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// small2x2x2 is a hand-made 2x2x2 table; cell order is A slowest, C fastest.
func small2x2x2(t *testing.T) *Table {
	t.Helper()
	vars := []Variable{{"A", []string{"a0", "a1"}}, {"B", []string{"b0", "b1"}}, {"C", []string{"c0", "c1"}}}
	tb, err := NewTable(vars, []int64{1, 2, 3, 4, 5, 6, 7, 8})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestCollapse(t *testing.T) {
	tb := small2x2x2(t)
	// [AC]: (a0,c0) = 1+3, (a0,c1) = 2+4, (a1,c0) = 5+7, (a1,c1) = 6+8.
	m, err := tb.Collapse([]int{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{4, 6, 12, 14}
	for i := range want {
		if m.Counts[i] != want[i] {
			t.Fatalf("[AC] = %v, want %v", m.Counts, want)
		}
	}
	g, _ := tb.Collapse(nil)
	if len(g.Counts) != 1 || g.Counts[0] != 36 || tb.Total() != 36 {
		t.Errorf("grand total %v", g.Counts)
	}
	if _, err := tb.Collapse([]int{2, 0}); err == nil {
		t.Error("unsorted marginal accepted")
	}
}

func TestCellIndexRoundTrip(t *testing.T) {
	dims := []int{2, 3, 4}
	lv := make([]int, 3)
	for idx := 0; idx < NumCells(dims); idx++ {
		if got := CellIndex(dims, CellLevels(dims, idx, lv)); got != idx {
			t.Fatalf("round trip %d -> %v -> %d", idx, lv, got)
		}
	}
}

func TestMarginSetConsistency(t *testing.T) {
	tb := small2x2x2(t)
	ms, err := tb.Released([][]int{{0, 1}, {1, 2}, {0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.Check(); err != nil {
		t.Fatalf("margins of a real table reported inconsistent: %v", err)
	}
	if ms.Name() != "[AB] [BC] [AC]" {
		t.Errorf("Name = %q", ms.Name())
	}
	// Move one unit inside [BC] keeping its total: [B] no longer agrees with [AB].
	ms.Margins[1].Counts[0]++
	ms.Margins[1].Counts[3]--
	err = ms.Check()
	var ie *InconsistencyError
	if !errors.As(err, &ie) || ie.Shared != "[B]" || !strings.Contains(err.Error(), "B=b0") {
		t.Errorf("Check = %v, want a [B] disagreement at B=b0", err)
	}
	// Different grand totals.
	ms2, _ := tb.Released([][]int{{0}, {1}})
	ms2.Margins[1].Counts[0] += 5
	if err := ms2.Check(); !errors.As(err, &ie) || ie.Shared != "[]" || !strings.Contains(err.Error(), "total") {
		t.Errorf("Check = %v, want a total disagreement", err)
	}
}

func TestParseMarginSpec(t *testing.T) {
	vars := []Variable{{"A", []string{"x"}}, {"B", []string{"x"}}, {"C", []string{"x"}}, {"D", []string{"x"}}, {"E", []string{"x"}}, {"F", []string{"x"}}}
	a, err := ParseMarginSpec(vars, "BF,ABCE,ADE")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseMarginSpec(vars, "B:F,A:B:C:E,A:D:E")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 3 || !equalInts(a[1], []int{0, 1, 2, 4}) || !equalInts(a[2], b[2]) || !equalInts(a[0], []int{1, 5}) {
		t.Errorf("parsed %v and %v", a, b)
	}
	for _, bad := range []string{"", "BX", "B,,C", "BB", "A:Z"} {
		if _, err := ParseMarginSpec(vars, bad); err == nil {
			t.Errorf("spec %q accepted", bad)
		}
	}
	long := []Variable{{"age", []string{"x"}}, {"sex", []string{"x"}}}
	c, err := ParseMarginSpec(long, "age:sex,sex")
	if err != nil || len(c) != 2 || !equalInts(c[0], []int{0, 1}) || !equalInts(c[1], []int{1}) {
		t.Errorf("long names: %v %v", c, err)
	}
}

func TestNewTableRejects(t *testing.T) {
	v := []Variable{{"A", []string{"a", "b"}}}
	if _, err := NewTable(v, []int64{1, -1}); err == nil {
		t.Error("negative count accepted")
	}
	if _, err := NewTable(v, []int64{1}); err == nil {
		t.Error("wrong number of counts accepted")
	}
	if _, err := NewTable([]Variable{{"A", []string{"a", "a"}}}, []int64{1, 1}); err == nil {
		t.Error("duplicate level accepted")
	}
	if _, err := NewTable([]Variable{{"A", nil}}, nil); err == nil {
		t.Error("variable without levels accepted")
	}
}

// TestAllMargins: C(d, k) sorted distinct k-subsets in lexicographic order
// (C(10, 2) = 45, C(6, 3) = 20), and the "all:K" specification.
func TestAllMargins(t *testing.T) {
	binom := func(n, k int) int {
		r := 1
		for i := 1; i <= k; i++ {
			r = r * (n - k + i) / i
		}
		return r
	}
	for _, c := range []struct{ d, k int }{{1, 1}, {3, 2}, {6, 3}, {10, 2}, {5, 5}, {7, 1}} {
		m, err := AllMargins(c.d, c.k)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) != binom(c.d, c.k) {
			t.Errorf("d=%d k=%d: %d margins, want %d", c.d, c.k, len(m), binom(c.d, c.k))
		}
		for i, sub := range m {
			if len(sub) != c.k || sub[0] < 0 || sub[c.k-1] >= c.d {
				t.Fatalf("d=%d k=%d: margin %v", c.d, c.k, sub)
			}
			for j := 1; j < c.k; j++ {
				if sub[j] <= sub[j-1] {
					t.Fatalf("d=%d k=%d: margin %v not increasing", c.d, c.k, sub)
				}
			}
			if i > 0 && slices.Compare(m[i-1], sub) >= 0 {
				t.Fatalf("d=%d k=%d: %v before %v", c.d, c.k, m[i-1], sub)
			}
		}
	}
	m, _ := AllMargins(3, 2)
	if len(m) != 3 || !equalInts(m[0], []int{0, 1}) || !equalInts(m[1], []int{0, 2}) || !equalInts(m[2], []int{1, 2}) {
		t.Errorf("AllMargins(3, 2) = %v", m)
	}
	for _, c := range []struct{ d, k int }{{0, 1}, {3, 0}, {3, 4}, {2, -1}} {
		if _, err := AllMargins(c.d, c.k); err == nil {
			t.Errorf("AllMargins(%d, %d) accepted", c.d, c.k)
		}
	}
	vars := []Variable{{"A", []string{"x"}}, {"B", []string{"x"}}, {"C", []string{"x"}}, {"D", []string{"x"}}}
	s, err := ParseMarginSpec(vars, " all:3 ")
	if want, _ := AllMargins(4, 3); err != nil || !slices.EqualFunc(s, want, equalInts) {
		t.Errorf("all:3 = %v, %v; want %v", s, err, want)
	}
	for _, bad := range []string{"all:0", "all:5", "all:x", "all:"} {
		if _, err := ParseMarginSpec(vars, bad); err == nil || !strings.Contains(err.Error(), "all:K") {
			t.Errorf("spec %q: %v, want an all:K error", bad, err)
		}
	}
	// A variable named "all" keeps its name.
	named := []Variable{{"all", []string{"x"}}, {"B", []string{"x"}}}
	if s, err := ParseMarginSpec(named, "all:B"); err != nil || len(s) != 1 || !equalInts(s[0], []int{0, 1}) {
		t.Errorf("all:B with a variable named all = %v, %v", s, err)
	}
}
