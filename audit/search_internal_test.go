package audit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// On the table of a piece (the auditor of a collapsed table whose cells
// are checked through the full cells inside them, a variable with two
// levels outside), the neighbourhood search and the whole table's programs
// never pass the sharp integer upper bounds: every attained upper end is
// at most the IP bound, every proven one at least it, and every cell
// checked is decided as the policy applied to the IP bound decides it
// (safe iff U(y) reaches the width required). 40 seeded sparse tables
// (15 with -short) over A, B, C (3-4 levels) with the margins AB, AC, BC
// (not decomposable, so the search runs), without the local moves first.
// The reference is lp_solve's integer program per cell (HiGHS when
// lp_solve is not linked).
func TestSearchOnPieceWithinIPBounds(t *testing.T) {
	eng := RefEngine(t)
	cases := 40
	if testing.Short() {
		cases = 15
	}
	var searched, safe, disclosed int
	for s := 0; s < cases; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 30))
		vars := make([]model.Variable, 4)
		for i := range vars {
			vars[i].Name = string(rune('A' + i))
			n := 3 + r.IntN(2)
			if i == 3 {
				n = 2 // the variable outside the piece
			}
			for l := 0; l < n; l++ {
				vars[i].Levels = append(vars[i].Levels, fmt.Sprint(l))
			}
		}
		counts := make([]int64, model.NumCells(model.Dims(vars)))
		for i := range counts {
			counts[i] = []int64{0, 0, 0, 1, 1, 2, 3}[r.IntN(7)]
		}
		counts[r.IntN(len(counts))]++
		tab, err := model.NewTable(vars, counts)
		if err != nil {
			t.Fatal(err)
		}
		outer, err := NewMicrodata(datasets.MicrodataFromTable(tab, "case"), DefaultPolicy(), WithoutFirstMoves(Options{}), MicrodataOptions{})
		if err != nil {
			t.Fatal(err)
		}
		in, err := outer.micro.auditor([]int{0, 1, 2}, outer, true)
		if err != nil {
			t.Fatal(err)
		}
		if !in.upperOnly() {
			t.Fatalf("case %d: the piece's auditor checks both ends", s)
		}
		ms := &model.MarginSet{Vars: in.table.Vars}
		for _, vs := range [][]int{{0, 1}, {0, 2}, {1, 2}} {
			m, _ := in.table.Collapse(vs)
			ms.Margins = append(ms.Margins, m)
		}
		op := &OperatorReport{Disclosed: []CellRisk{}, Undecided: []CellRisk{}, deadline: time.Now().Add(time.Minute)}
		iv, err := in.bounds(ms, &model.MarginSet{Vars: ms.Vars}, op, op.deadline, false)
		if err != nil {
			t.Fatalf("case %d: %v", s, err)
		}
		ref, err := cellbounds.Compute(ms, cellbounds.Settings{Method: cellbounds.IP, Solver: eng})
		if err != nil {
			t.Fatalf("case %d: reference: %v", s, err)
		}
		req := in.requirement()
		for _, y := range in.needed(ms) {
			u := int64(math.Round(ref.Bounds.Upper[y]))
			if iv.inHi[y] >= iv.inLo[y] && iv.inHi[y] > u {
				t.Fatalf("case %d cell %d: attained upper end %d above the IP bound %d (by search: %v)", s, y, iv.inHi[y], u, iv.bySearch[y])
			}
			if iv.hi[y] < u {
				t.Fatalf("case %d cell %d: proven upper end %d below the IP bound %d", s, y, iv.hi[y], u)
			}
			if iv.bySearch[y] {
				searched++
			}
		}
		in.check(iv, op)
		for _, c := range op.Undecided {
			t.Errorf("case %d: cell %d undecided (attained [%d, %d], proven [%d, %d])", s, c.Cell, c.AttainedLower, c.AttainedUpper, c.Lower, c.Upper)
		}
		bad := map[int]bool{}
		for _, c := range op.Disclosed {
			bad[c.Cell] = true
		}
		for _, y := range in.needed(ms) {
			u := int64(math.Round(ref.Bounds.Upper[y]))
			if bad[y] != (u < req[y]) {
				t.Fatalf("case %d cell %d: disclosed %v, IP upper bound %d with width %d required", s, y, bad[y], u, req[y])
			}
			if bad[y] {
				disclosed++
			} else {
				safe++
			}
		}
	}
	t.Logf("%d cells attained by the search; %d cells safe, %d disclosed", searched, safe, disclosed)
	if searched == 0 || disclosed == 0 {
		t.Errorf("the cases do not exercise the search: %d cells attained by it, %d disclosed", searched, disclosed)
	}
}
