package intervals

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// localTable is a seeded 3-way hierarchical table (each variable total →
// 2 groups → 3 leaves: 9 codes, 729 cells) with 60 % of its cells
// suppressed at random, large enough that components keep hundreds of
// cells after differencing.
func localTable(t *testing.T, seed uint64) *tabular.Table {
	rng := rand.New(rand.NewPCG(700, seed))
	hs := []*tabular.Hierarchy{twoLevel(t, "r", 2, 3), twoLevel(t, "s", 2, 3), twoLevel(t, "t", 2, 3)}
	tab := newTable(hs, func() float64 { return float64(rng.IntN(6)) })
	k := 3 * len(tab.Cells) / 5
	suppress(tab, rng, k, k/3)
	return tab
}

// TestLocalBound: for every undetermined cell of seeded 3-way tables and
// each distance d = 1, 2, 3 and sense, the local relaxation's bound is an
// outer bound of the cell's end (computed without local relaxations),
// never looser than at distance d − 1 (a larger neighbourhood is a
// tighter relaxation), and its lifted certificate passes Verify when
// stored as that end.
func TestLocalBound(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	const tol = 1e-7 // engine optimality tolerance on ends of size ≤ the table total
	checked, sharp := 0, 0
	for seed := range uint64(seeds) {
		tab := localTable(t, seed)
		s := &Settings{NoLocal: true}
		ref, err := Compute(tab, s)
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		a, err := build(tableSource(tab), s)
		if err != nil {
			t.Fatal(err)
		}
		if a.fix, err = a.presolve(); err != nil {
			t.Fatal(err)
		}
		sv, err := solvers.New("auto", false)
		if err != nil {
			t.Fatal(err)
		}
		// local[d-1] is ref with every end that a local relaxation of
		// distance d bounds replaced by that bound and its certificate.
		var local [LocalDepth]Result
		for d := range local {
			local[d] = *ref
			local[d].Intervals = append([]Interval(nil), ref.Intervals...)
		}
		for j := range a.cells {
			if a.fix.is[j] || len(a.varRows[j]) == 0 {
				continue
			}
			for _, sense := range []solvers.Sense{solvers.Minimize, solvers.Maximize} {
				end := ref.Intervals[j].Lower
				if sense == solvers.Maximize {
					end = ref.Intervals[j].Upper
				}
				prev := math.Inf(1)
				if sense == solvers.Minimize {
					prev = math.Inf(-1)
				}
				for d := 1; d <= LocalDepth; d++ {
					rows, vars := a.localNeighbourhood(j, d)
					v, cert, ok, err := a.localBound(sv, j, rows, vars, sense, s)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						continue
					}
					name := fmt.Sprintf("seed %d, cell %s, %v, d=%d", seed, a.names[j], sense, d)
					outer := v >= end-tol*math.Max(1, math.Abs(end))
					tighter := v <= prev+tol*math.Max(1, math.Abs(v))
					if sense == solvers.Minimize {
						outer = v <= end+tol*math.Max(1, math.Abs(end))
						tighter = v >= prev-tol*math.Max(1, math.Abs(v))
					}
					if !outer || !tighter {
						t.Fatalf("%s: local bound %g, end %g, bound at d-1 %g", name, v, end, prev)
					}
					prev = v
					iv := &local[d-1].Intervals[j]
					if sense == solvers.Minimize {
						iv.Lower, iv.LowerCert = v, cert
					} else {
						iv.Upper, iv.UpperCert = v, cert
					}
					checked++
					if sameEnds(v, end) {
						sharp++
					}
				}
			}
		}
		for d := range local {
			if err := Verify(tab, &local[d], s); err != nil {
				t.Fatalf("seed %d, local bounds of distance %d: %v", seed, d+1, err)
			}
		}
	}
	t.Logf("%d local bounds checked, %d of them equal to the end", checked, sharp)
	if checked == 0 {
		t.Fatal("no local bound solved")
	}
}

// TestLocalMatchesNoLocal: on seeded 3-way tables, the intervals with
// local relaxations (the default) are those without, every certificate
// passes Verify, and some ends are proven locally (localMinRows lowered
// so that the small components try local relaxations).
func TestLocalMatchesNoLocal(t *testing.T) {
	old := localMinRows
	localMinRows = 2 // the seeded tables' components are small
	defer func() { localMinRows = old }()
	seeds := 4
	if testing.Short() {
		seeds = 2
	}
	local, solves, solvesNoLocal := 0, 0, 0
	for seed := range uint64(seeds) {
		tab := localTable(t, 10+seed)
		ref, err := Compute(tab, &Settings{NoLocal: true})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		s := &Settings{}
		r, err := Compute(tab, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(tab, r, s); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for j, iv := range r.Intervals {
			p := ref.Intervals[j]
			if !sameEnds(iv.Lower, p.Lower) || !sameEnds(iv.Upper, p.Upper) || iv.LowerStatus != p.LowerStatus || iv.UpperStatus != p.UpperStatus {
				t.Fatalf("seed %d: cell %s [%g, %g], without local relaxations [%g, %g]", seed, iv.Name, iv.Lower, iv.Upper, p.Lower, p.Upper)
			}
		}
		if r.Solves+r.Skipped+r.Local < 2*len(r.Intervals) {
			t.Fatalf("seed %d: %d solves, %d skipped, %d local for %d cells", seed, r.Solves, r.Skipped, r.Local, len(r.Intervals))
		}
		local, solves, solvesNoLocal = local+r.Local, solves+r.Solves, solvesNoLocal+ref.Solves
	}
	t.Logf("%d ends proven locally; %d solves, %d without local relaxations", local, solves, solvesNoLocal)
	if local == 0 {
		t.Fatal("no end proven by a local relaxation")
	}
}

// TestSplitComponent: with Settings.Workers > 1, a large component's
// cells are split over several sessions (splitMin lowered here so that
// the seeded 729-cell tables' components are split). The intervals are
// those of one session, every certificate passes Verify, and two runs
// with the same Workers give the same counts and ends (the split does not
// depend on scheduling).
func TestSplitComponent(t *testing.T) {
	old, oldRows := splitMin, localMinRows
	splitMin, localMinRows = 8, 2 // small components split, and local relaxations in each part
	defer func() { splitMin, localMinRows = old, oldRows }()
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	split := false
	for seed := range uint64(seeds) {
		tab := localTable(t, 20+seed)
		one, err := Compute(tab, &Settings{Workers: 1})
		skipUnavailable(t, err)
		if err != nil {
			t.Fatal(err)
		}
		split = split || one.LargestComponent >= splitMin
		for _, w := range []int{2, 3} {
			var prev *Result
			for range 2 {
				s := &Settings{Workers: w}
				r, err := Compute(tab, s)
				if err != nil {
					t.Fatal(err)
				}
				if err := Verify(tab, r, s); err != nil {
					t.Fatalf("seed %d, workers %d: %v", seed, w, err)
				}
				for j, iv := range r.Intervals {
					o := one.Intervals[j]
					if !sameEnds(iv.Lower, o.Lower) || !sameEnds(iv.Upper, o.Upper) || iv.LowerStatus != o.LowerStatus || iv.UpperStatus != o.UpperStatus {
						t.Fatalf("seed %d, workers %d: cell %s [%g, %g], one session [%g, %g]", seed, w, iv.Name, iv.Lower, iv.Upper, o.Lower, o.Upper)
					}
				}
				if r.Solves+r.Skipped+r.Local < 2*len(r.Intervals) {
					t.Fatalf("seed %d, workers %d: %d solves, %d skipped, %d local for %d cells", seed, w, r.Solves, r.Skipped, r.Local, len(r.Intervals))
				}
				if prev != nil {
					if r.Solves != prev.Solves || r.Skipped != prev.Skipped || r.Local != prev.Local || r.Iterations != prev.Iterations {
						t.Fatalf("seed %d, workers %d: runs differ: %d/%d/%d/%d solves/skipped/local/iterations, then %d/%d/%d/%d", seed, w,
							prev.Solves, prev.Skipped, prev.Local, prev.Iterations, r.Solves, r.Skipped, r.Local, r.Iterations)
					}
					for j, iv := range r.Intervals {
						if iv.Lower != prev.Intervals[j].Lower || iv.Upper != prev.Intervals[j].Upper {
							t.Fatalf("seed %d, workers %d: cell %s differs between runs", seed, w, iv.Name)
						}
					}
				}
				prev = r
			}
		}
	}
	if !split {
		t.Fatalf("no component of %d cells or more: nothing split", splitMin)
	}
}
