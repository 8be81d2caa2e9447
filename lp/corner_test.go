package lp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// randomRelease is a seeded table of 3 or 4 variables with 2..3 levels and
// a random set of released margins (sizes 1..3).
func randomRelease(seed uint64) *model.MarginSet {
	rng := rand.New(rand.NewPCG(seed, 17))
	k := 3 + rng.IntN(2)
	vars := make([]model.Variable, k)
	dims := make([]int, k)
	for i := range vars {
		dims[i] = 2 + rng.IntN(2)
		vars[i].Name = string(rune('A' + i))
		for l := 0; l < dims[i]; l++ {
			vars[i].Levels = append(vars[i].Levels, strconv.Itoa(l))
		}
	}
	counts := make([]int64, model.NumCells(dims))
	for i := range counts {
		counts[i] = int64(rng.IntN(6))
	}
	var subs [][]int
	for len(subs) == 0 {
		for mask := 1; mask < 1<<k; mask++ {
			var s []int
			for i := 0; i < k; i++ {
				if mask&(1<<i) != 0 {
					s = append(s, i)
				}
			}
			if len(s) < k && rng.IntN(3) == 0 {
				subs = append(subs, s)
			}
		}
	}
	ms, err := (&model.Table{Vars: vars, Counts: counts}).Released(subs)
	if err != nil {
		panic(err)
	}
	return ms
}

// TestCornerSystemEquivalent: the corner system has full row rank (its
// row count is the rank of the released-margin system, checked on the
// dimension count of the hierarchical model) and the same LP bounds as
// the released-margin system, on 40 seeded releases.
func TestCornerSystemEquivalent(t *testing.T) {
	s, err := solvers.New("auto", false)
	if err != nil {
		t.Skip(err)
	}
	for seed := uint64(1); seed <= 40; seed++ {
		ms := randomRelease(seed)
		cs := NewCornerSystem(ms, false)
		// Every row is satisfied by the table's own counts; rows = Σ_S Π(d_i-1).
		dims := model.Dims(ms.Vars)
		want := 0
		for _, sub := range cs.Subsets {
			r := 1
			for _, v := range sub {
				r *= dims[v] - 1
			}
			want += r
		}
		if len(cs.Rows) != want || cs.Problem.NumRows() != want {
			t.Fatalf("seed %d: %d rows, want %d", seed, len(cs.Rows), want)
		}
		ref, err := CellBounds(ms, s, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := s.NewSession(cs.Problem, nil)
		if err != nil {
			t.Fatal(err)
		}
		for c := range ref.Lower {
			if err := sess.SetObjective([]int{c}, []float64{1}); err != nil {
				t.Fatal(err)
			}
			for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
				sess.SetSense(sense)
				r, err := sess.Solve()
				if err != nil || r.Status != solvers.Optimal {
					t.Fatalf("seed %d cell %d: %v %v", seed, c, r.Status, err)
				}
				want := ref.Lower[c]
				if sense == solvers.Maximize {
					want = ref.Upper[c]
				}
				if math.Abs(r.Objective-want) > 1e-6 {
					t.Errorf("seed %d (%s) cell %d %v: corner %g, margins %g", seed, ms.Name(), c, sense, r.Objective, want)
				}
			}
			sess.SetObjective([]int{c}, []float64{0})
		}
		sess.Close()
	}
}
