package audit

import (
	"math"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/frechet"
)

// The box search on a piece larger than searchMaxTable never passes the
// sharp integer upper bounds: 17 binary variables (131,072 cells) inside
// 18 (one binary variable outside, so the piece checks upper ends only),
// 4,000 seeded synthetic records, and the chain of 3-way margins {0,1,2},
// {2,3,4}, ..., {14,15,16}. The chain is decomposable, so the sharp integer
// upper bound of every cell is the least of its cliques' marginal counts
// (Dobra & Fienberg 2000, Theorem 1; frechet.Bounds): the reference.
// Under min_width 120 some cells cannot reach their width. Every cell the
// search attains a value for (every 4th cell to raise, 10 s) must stay
// within [0, U(y)], none may be reported raised beyond U(y), and the
// search must raise some of the cells that can reach their width.
func TestBoxSearchWithinSharpBounds(t *testing.T) {
	levels := make([]int, 18)
	for i := range levels {
		levels[i] = 2
	}
	md, err := datasets.SyntheticMicrodata(4000, levels, 7)
	if err != nil {
		t.Fatal(err)
	}
	// min_width 120: the widths of some cells exceed their bounds.
	outer, err := NewMicrodata(md, Policy{Small: 3, MinWidth: 120}, Options{}, MicrodataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]int, 17)
	for i := range w {
		w[i] = i
	}
	in, err := outer.micro.auditor(w, outer, true)
	if err != nil {
		t.Fatal(err)
	}
	if !in.upperOnly() || len(in.table.Counts) <= searchMaxTable {
		t.Fatalf("the piece (%d cells, upper ends only %v) does not test a large piece", len(in.table.Counts), in.upperOnly())
	}
	ms := &model.MarginSet{Vars: in.table.Vars}
	for k := 0; k+2 < 17; k += 2 {
		m, err := in.table.Collapse([]int{k, k + 1, k + 2})
		if err != nil {
			t.Fatal(err)
		}
		ms.Margins = append(ms.Margins, m)
	}
	ref, err := frechet.Bounds(ms)
	if err != nil {
		t.Fatal(err)
	}
	req := in.requirement()
	var open []int
	for i, y := range in.needed(ms) {
		if in.table.Counts[y] < req[y] && i%4 == 0 { // every 4th, for time
			open = append(open, y)
		}
	}
	left, found := in.searchBoxes(ms, open, req, nil, time.Now().Add(10*time.Second))
	stillOpen := map[int]bool{}
	for _, y := range left {
		stillOpen[y] = true
	}
	var possible, raised int
	for _, y := range open {
		u := int64(math.Round(ref.Upper[y]))
		if f, ok := found[y]; ok && (f.lo < 0 || f.hi > u) {
			t.Fatalf("cell %d: attained [%d, %d] outside the sharp bounds [0, %d]", y, f.lo, f.hi, u)
		}
		if !stillOpen[y] && u < req[y] {
			t.Fatalf("cell %d: reported raised to %d although its sharp upper bound is %d", y, req[y], u)
		}
		if u >= req[y] {
			possible++
			if !stillOpen[y] {
				raised++
			}
		}
	}
	t.Logf("%d cells to raise, %d can reach their width, %d raised by the boxes", len(open), possible, raised)
	if raised == 0 || possible == len(open) {
		t.Errorf("the boxes raised %d of the %d cells that can reach their width", raised, possible)
	}
}

// The box search on a piece whose margins do not decompose (a cycle of
// 2-way margins over 10 binary variables, 1,024 cells, inside 11; 300
// seeded synthetic records; smaller than the pieces the auditor searches
// by boxes, for the reference's sake), against the sharp integer upper bounds of
// the integer program per cell (cellbounds IP on lp_solve, HiGHS when
// lp_solve is not linked) on every 8th cell to raise: a cell raised must
// have U(y) >= its width and every attained value at most U(y).
func TestBoxSearchAgainstIP(t *testing.T) {
	if testing.Short() {
		t.Skip("an integer program per sampled cell")
	}
	eng := RefEngine(t)
	levels := make([]int, 11)
	for i := range levels {
		levels[i] = 2
	}
	md, err := datasets.SyntheticMicrodata(300, levels, 3)
	if err != nil {
		t.Fatal(err)
	}
	outer, err := NewMicrodata(md, DefaultPolicy(), Options{}, MicrodataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]int, 10)
	for i := range w {
		w[i] = i
	}
	in, err := outer.micro.auditor(w, outer, true)
	if err != nil {
		t.Fatal(err)
	}
	if !in.upperOnly() {
		t.Fatal("the piece checks both ends")
	}
	ms := &model.MarginSet{Vars: in.table.Vars}
	for k := range 10 {
		vs := []int{k, (k + 1) % 10}
		if vs[0] > vs[1] {
			vs[0], vs[1] = vs[1], vs[0]
		}
		m, err := in.table.Collapse(vs)
		if err != nil {
			t.Fatal(err)
		}
		ms.Margins = append(ms.Margins, m)
	}
	if frechet.Decomposable(ms) {
		t.Fatal("the cycle decomposes")
	}
	req := in.requirement()
	var open []int
	for _, y := range in.needed(ms) {
		if in.table.Counts[y] < req[y] {
			open = append(open, y)
		}
	}
	left, found := in.searchBoxes(ms, open, req, nil, time.Now().Add(time.Minute))
	stillOpen := map[int]bool{}
	for _, y := range left {
		stillOpen[y] = true
	}
	var sample []int
	for i := 0; i < len(open); i += 8 {
		sample = append(sample, open[i])
	}
	ref, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.IP, Solver: eng, Cells: sample})
	if err != nil {
		t.Fatal(err)
	}
	var raised, below int
	for _, y := range sample {
		u := int64(math.Round(ref.Bounds.Upper[y]))
		if u < req[y] {
			below++
		}
		if f, ok := found[y]; ok && (f.lo < 0 || f.hi > u) {
			t.Fatalf("cell %d: attained [%d, %d] outside the IP bounds [0, %d]", y, f.lo, f.hi, u)
		}
		if !stillOpen[y] {
			raised++
			if u < req[y] {
				t.Fatalf("cell %d: reported raised to %d although its IP upper bound is %d", y, req[y], u)
			}
		}
	}
	t.Logf("%d cells to raise, %d left open; of %d sampled, %d raised, %d below their width", len(open), len(left), len(sample), raised, below)
	if raised == 0 {
		t.Error("the sample has no cell raised by the boxes")
	}
}
