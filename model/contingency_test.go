package model

import (
	"errors"
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
