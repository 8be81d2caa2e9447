package intervals

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// balancedVector returns a balanced vector of h with +1 at x (see package
// tabular/suppress, fast.go): +1 down a random chain from x to a leaf,
// and, below a parent, −1 down a random chain from a random sibling.
func balancedVector(h *tabular.Hierarchy, x int, rng *rand.Rand) map[int]int {
	s := map[int]int{}
	down := func(c, sign int) {
		for {
			s[c] = sign
			if h.IsLeaf(c) {
				return
			}
			ch := h.Children(c)
			c = ch[rng.IntN(len(ch))]
		}
	}
	down(x, 1)
	if par := h.Parent(x); par >= 0 {
		var sib []int
		for _, y := range h.Children(par) {
			if y != x {
				sib = append(sib, y)
			}
		}
		down(sib[rng.IntN(len(sib))], -1)
	}
	return s
}

// cubeMove returns the move δ·sign·Π_e s_e of balanced vectors s_e
// through cell p's codes: a deviation of every relation of t.
func cubeMove(t *tabular.Table, p int, sign int, step float64, rng *rand.Rand) Move {
	codes := t.CodeIndices(p, nil)
	vecs := make([]map[int]int, len(codes))
	for d, c := range codes {
		vecs[d] = balancedVector(t.Dims[d].H, c, rng)
	}
	m := Move{Step: step}
	cur := make([]int, len(codes))
	var rec func(d, w int)
	rec = func(d, w int) {
		if d == len(codes) {
			m.Cells = append(m.Cells, t.Index(cur))
			m.Mult = append(m.Mult, sign*w)
			return
		}
		for c, s := range vecs[d] {
			cur[d] = c
			rec(d+1, w*s)
		}
	}
	rec(0, 1)
	return m
}

// TestDecideAgreesWithAudit: on 24 seeded hierarchical tables (2-way
// 9×9 and 3-way 4×4×4 codes, leaf values 1..6) whose primary cells (levels
// U = L = 1) are protected by cube moves, the decision audit is OK
// exactly when every move is valid; published corners and corrupted
// moves make it refuse moves; and whenever it is OK the exact audit
// (Compute, then Audit) passes, and whenever the exact audit fails it
// is not OK. Every accepted move's points lie within the exact
// intervals. The cases where both pass and where the exact audit fails
// are counted, and both must occur.
func TestDecideAgreesWithAudit(t *testing.T) {
	const tol = 1e-7 // engine tolerance on ends of size ≤ the table total (≤ 6·64)
	pass, fail, refusedSeen := 0, 0, 0
	for seed := range uint64(24) {
		rng := rand.New(rand.NewPCG(46, seed))
		var hs []*tabular.Hierarchy
		if seed%2 == 0 {
			hs = []*tabular.Hierarchy{twoLevel(t, "r", 2, 3), twoLevel(t, "s", 2, 3)}
		} else {
			hs = []*tabular.Hierarchy{flat(t, "r", 3), flat(t, "s", 3), flat(t, "t", 3)}
		}
		tab := newTable(hs, func() float64 { return float64(1 + rng.IntN(6)) })
		lower, upper := make([]float64, len(tab.Cells)), make([]float64, len(tab.Cells))
		var moves []Move
		for _, p := range rng.Perm(len(tab.Cells))[:1+rng.IntN(3)] {
			tab.Cells[p].Status = tabular.Primary
			lower[p], upper[p] = 1, 1
		}
		for p := range tab.Cells {
			if tab.Cells[p].Status != tabular.Primary {
				continue
			}
			for _, sign := range []int{1, -1} {
				m := cubeMove(tab, p, sign, 1, rng)
				for _, c := range m.Cells {
					if tab.Cells[c].Status != tabular.Primary {
						tab.Cells[c].Status = tabular.Secondary
					}
				}
				moves = append(moves, m)
			}
		}
		levels := LevelSlices(lower, upper)
		variant := seed % 3 // 0: as built; 1: a secondary published; 2: a move corrupted
		switch variant {
		case 1:
			var sec []int
			for i, c := range tab.Cells {
				if c.Status == tabular.Secondary {
					sec = append(sec, i)
				}
			}
			tab.Cells[sec[rng.IntN(len(sec))]].Status = tabular.Safe
		case 2:
			m := &moves[rng.IntN(len(moves))]
			m.Mult[rng.IntN(len(m.Mult))] *= -1
		}
		d, err := Decide(tab, levels, moves, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compute(tab, nil)
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		rep := Audit(r, levels)
		switch {
		case variant == 0 && (!d.OK() || d.Refused != 0):
			t.Errorf("seed %d: valid moves only, decision OK %v with %d of %d refused, open %v", seed, d.OK(), d.Refused, d.Moves, d.Open)
		case variant > 0 && d.Refused == 0:
			t.Errorf("seed %d, variant %d: no move refused", seed, variant)
		}
		if d.Refused > 0 {
			refusedSeen++
		}
		if d.OK() && !rep.OK() {
			t.Errorf("seed %d: decision OK, exact audit: %d under-protected, %d disclosed", seed, len(rep.UnderProtected), len(rep.Disclosed))
		}
		if d.OK() && d.Primary != rep.Primary {
			t.Errorf("seed %d: %d primary cells decided, %d audited", seed, d.Primary, rep.Primary)
		}
		if d.OK() {
			pass++
		}
		if !rep.OK() {
			fail++
		}
		// Every point of a move the decision accepts is in the polytope.
		if d.Refused == 0 {
			for _, m := range moves {
				for k, c := range m.Cells {
					iv, _ := r.Lookup(c)
					x := tab.Cells[c].Value + m.Step*float64(m.Mult[k])
					if x > iv.Upper+tol || x < iv.Lower-tol {
						t.Errorf("seed %d: cell %s moved to %g, outside its exact interval [%g, %g]", seed, iv.Name, x, iv.Lower, iv.Upper)
					}
				}
			}
		}
	}
	t.Logf("24 tables: %d decided pass, %d failing the exact audit, %d with refused moves", pass, fail, refusedSeen)
	if pass == 0 || fail == 0 {
		t.Errorf("%d passing and %d failing cases: the test needs both", pass, fail)
	}
}

// TestDecidePremise: a decision needs the true table in the polytope; a
// prior that excludes a suppressed cell's value leaves every requirement
// open, and a level met by the true table alone (≤ 0) needs no move.
func TestDecidePremise(t *testing.T) {
	hs := []*tabular.Hierarchy{flat(t, "r", 2), flat(t, "s", 2)}
	vals := []float64{1, 2, 3, 4}
	k := 0
	tab := newTable(hs, func() float64 { k++; return vals[k-1] })
	// The leaves (r1, s1) = 1, (r1, s2) = 2, (r2, s1) = 3, (r2, s2) = 4.
	leaf := func(r, s string) int {
		i, _ := tab.Dims[0].H.Index(r)
		j, _ := tab.Dims[1].H.Index(s)
		return tab.Index([]int{i, j})
	}
	c11, c12, c21, c22 := leaf("r1", "s1"), leaf("r1", "s2"), leaf("r2", "s1"), leaf("r2", "s2")
	for _, c := range []int{c11, c12, c21, c22} {
		tab.Cells[c].Status = tabular.Secondary
	}
	tab.Cells[c11].Status = tabular.Primary
	rect := Move{Cells: []int{c11, c12, c21, c22}, Mult: []int{1, -1, -1, 1}, Step: 1}
	levels := func(i int) (float64, float64) { return 1, 1 }
	down := rect
	down.Mult = []int{-1, 1, 1, -1}
	d, err := Decide(tab, levels, []Move{rect, down}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !d.OK() || d.Primary != 1 {
		t.Fatalf("rectangle moves: OK %v, primary %d, open %v", d.OK(), d.Primary, d.Open)
	}
	// The rectangle with step 3 takes (r1, s2) = 2 to 2 − 3 = −1, below
	// the prior bound 0: refused (hand computation).
	big := rect
	big.Step = 3
	if d, _ := Decide(tab, levels, []Move{big, down}, nil); d.Refused != 1 || d.OK() {
		t.Errorf("a move below the prior bound: refused %d, OK %v", d.Refused, d.OK())
	}
	// Levels 0: the true table meets them; only "moved" needs a move.
	zero := func(int) (float64, float64) { return 0, 0 }
	if d, _ := Decide(tab, zero, []Move{down}, nil); !d.OK() {
		t.Errorf("levels 0 with a moving deviation: open %v", d.Open)
	}
	// Without a move every suppressed cell may be disclosed: all open.
	if d, _ := Decide(tab, zero, nil, nil); d.OK() || len(d.Open) != 4 || !d.Open[0].Moved || d.Open[0].Upper {
		t.Errorf("levels 0 without moves: OK %v, open %v", d.OK(), d.Open)
	}
	// A prior excluding the true value of a suppressed cell.
	s := &Settings{Prior: func(i int, v float64) (float64, float64) {
		if i == c11 {
			return v + 0.5, v + 10
		}
		return 0, math.Inf(1)
	}}
	d, err = Decide(tab, levels, []Move{rect, down}, s)
	if err != nil {
		t.Fatal(err)
	}
	if d.Premise || d.OK() || len(d.Open) != 4 {
		t.Errorf("true table outside the priors: premise %v, OK %v, %d open", d.Premise, d.OK(), len(d.Open))
	}
}

// TestDecideExactComparisons: the comparisons of Decide are exact where
// float arithmetic is not. 1e16 + 1 is not a float64 (above 2^53 only
// even integers are): 1e16 + 1·1 rounds to 1e16, yet exceeds it; 1e16 −
// 1 rounds to 1e16, yet falls short. 0.1 + 0.2·1 is above the float 0.3
// both in floats and exactly (0.1000000000000000055… +
// 0.2000000000000000111… = 0.3000000000000000166… > 0.2999999999999999888…).
func TestDecideExactComparisons(t *testing.T) {
	cases := []struct {
		x, step float64
		w       int64
		c       float64
		want    int
	}{
		{1e16, 1, 1, 1e16, 1},
		{1e16, 1, -1, 1e16, -1},
		{1e16, 1, 0, 1e16, 0},
		{0.1, 0.2, 1, 0.3, 1},
		{0, 0.1, 3, 0.3, 1}, // 3·0.1000000000000000055… > 0.2999999999999999888…
		{math.NaN(), 1, 1, 0, -1},
	}
	for _, c := range cases {
		if got := cmpSum(c.x, c.step, c.w, c.c); got != c.want {
			t.Errorf("cmpSum(%g, %g, %d, %g) = %d, want %d", c.x, c.step, c.w, c.c, got, c.want)
		}
	}
	if cmpStep(0.1, 3, 0.3) != 1 || cmpStep(1, 1, 1) != 0 || cmpStep(1, -1, -1) != 0 || cmpStep(1, 5, math.Inf(1)) != -1 || cmpStep(1, 2, math.NaN()) != -1 {
		t.Error("cmpStep: wrong sign")
	}
}
