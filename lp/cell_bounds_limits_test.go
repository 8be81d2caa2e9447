package lp

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
)

// TestBoundValueLimits: a limit is a valid unproven bound (the dual bound
// of an integer solve, rounded inward, or the trivial bound), never an
// error; numerical trouble and unknown statuses stay errors.
func TestBoundValueLimits(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		status            solvers.Status
		bestBound         float64
		sense             solvers.Sense
		integer           bool
		v                 float64
		unproven, trivial bool
		err               bool
	}{
		{solvers.TimeLimit, nan, solvers.Minimize, false, 0, true, true, false},
		{solvers.TimeLimit, 12.5, solvers.Maximize, false, 0, true, true, false}, // an LP's "bound" at a limit is not used
		{solvers.IterationLimit, nan, solvers.Maximize, false, 0, true, true, false},
		{solvers.Interrupted, nan, solvers.Maximize, true, 0, true, true, false},
		{solvers.TimeLimit, 312.67, solvers.Maximize, true, 312, true, false, false},
		{solvers.NodeLimit, 4.2, solvers.Minimize, true, 5, true, false, false},
		{solvers.NodeLimit, -0.5, solvers.Minimize, true, 0, true, false, false},
		{solvers.NumericalTrouble, nan, solvers.Minimize, false, 0, false, false, true},
		{solvers.StatusUnknown, nan, solvers.Maximize, true, 0, false, false, true},
	}
	for _, c := range cases {
		r := &solvers.Result{Status: c.status, BestBound: c.bestBound}
		v, unproven, trivial, err := boundValue(r, c.sense, c.integer)
		if (err != nil) != c.err || err == nil && (v != c.v || unproven != c.unproven || trivial != c.trivial) {
			t.Errorf("%v %v integer=%v bound %v: got %v, %v, %v, %v", c.status, c.sense, c.integer, c.bestBound, v, unproven, trivial, err)
		}
	}
}

// randomMargins is a seeded random 3-way table (2..3 levels, counts 0..4)
// with all its 2-way margins.
func randomMargins(seed uint64) *model.MarginSet {
	rng := rand.New(rand.NewPCG(seed, 3))
	dims := []int{2 + rng.IntN(2), 2 + rng.IntN(2), 2 + rng.IntN(2)}
	vars := make([]model.Variable, len(dims))
	for i, d := range dims {
		vars[i].Name = string(rune('A' + i))
		for l := 0; l < d; l++ {
			vars[i].Levels = append(vars[i].Levels, strconv.Itoa(l))
		}
	}
	counts := make([]int64, model.NumCells(dims))
	for i := range counts {
		if rng.IntN(4) > 0 {
			counts[i] = int64(rng.IntN(5))
		}
	}
	ms, err := (&model.Table{Vars: vars, Counts: counts}).Released([][]int{{0, 1}, {0, 2}, {1, 2}})
	if err != nil {
		panic(err)
	}
	return ms
}

// TestSolveDeadlinePast: with Options.Deadline already past no solve runs
// and every target gets the trivial bounds, unproven; the run is not an
// error.
func TestSolveDeadlinePast(t *testing.T) {
	s, err := solvers.New("auto", false)
	if err != nil {
		t.Skip(err)
	}
	for seed := uint64(1); seed <= 5; seed++ {
		ms := randomMargins(seed)
		var st Stats
		b, err := Solve(ms, s, nil, &Options{Deadline: time.Now().Add(-time.Second), Stats: &st}, false)
		if err != nil {
			t.Fatal(err)
		}
		triv := TrivialBounds(ms)
		if c := b.Diff(triv, 0); c >= 0 {
			t.Errorf("seed %d: cell %d: [%v, %v], trivial [%v, %v]", seed, c, b.Lower[c], b.Upper[c], triv.Lower[c], triv.Upper[c])
		}
		todo := st.Targets - st.Presolved
		if !st.Stopped || st.Solves != 0 || st.Trivial != 2*todo || st.Unproven != 2*todo {
			t.Errorf("seed %d: stats %+v", seed, st)
		}
		for i := range st.LowerAttained {
			if st.LowerAttained[i] || st.UpperAttained[i] {
				t.Errorf("seed %d: target %d attained without any solve", seed, i)
			}
		}
	}
}

// TestSolveReopened: with a deadline, a session whose engine time limit
// exceeds the time left by more than the slack is reopened; forcing a
// reopen before every solve (negative slack) must give the same bounds as
// one warm session (the objective and sense are set again on the fresh
// session).
func TestSolveReopened(t *testing.T) {
	defer func(f func(time.Duration) time.Duration) { deadlineSlack = f }(deadlineSlack)
	normal := deadlineSlack
	for _, name := range []string{"clp", "highs", "lpsolve"} {
		s, err := solvers.New(name, false)
		if err != nil {
			continue
		}
		for seed := uint64(1); seed <= 4; seed++ {
			ms := randomMargins(seed)
			deadlineSlack = normal
			want, err := Solve(ms, s, nil, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			deadlineSlack = func(time.Duration) time.Duration { return -time.Hour }
			var st Stats
			got, err := Solve(ms, s, nil, &Options{Deadline: time.Now().Add(time.Hour), Stats: &st}, false)
			if err != nil {
				t.Fatal(err)
			}
			if c := got.Diff(want, 1e-6); c >= 0 || st.Stopped || st.Unproven != 0 {
				t.Errorf("%s seed %d: reopened sessions: cell %d differs (stats %+v)", name, seed, c, st)
			}
		}
	}
}

// TestSolveMemoryLimit: a model whose estimate exceeds
// Options.MemoryLimit is refused before anything is built.
func TestSolveMemoryLimit(t *testing.T) {
	s, err := solvers.New("auto", false)
	if err != nil {
		t.Skip(err)
	}
	ms := randomMargins(1)
	need := CellBoundsMemory(ms, nil)
	if _, err := Solve(ms, s, nil, &Options{MemoryLimit: need - 1}, false); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit %d below the estimate %d: err = %v", need-1, need, err)
	}
	if _, err := Solve(ms, s, nil, &Options{MemoryLimit: need}, false); err != nil {
		t.Errorf("limit = the estimate: %v", err)
	}
}
