package suppress

import (
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
)

// TestRegularizedCutsValid checks the cuts of the regularized attacker LP
// by brute force: on small random tables, at random fractional points y*,
// every cut read from the regularized LP's duals (for a target the exact
// attacker LP finds unreached at y*) must hold at every binary pattern
// that reaches the target (decided by the exact attacker LP at that
// pattern), i.e. it never removes a pattern protecting the target. It
// also checks that such cuts are found and violated at y* (otherwise the
// check would be vacuous), and are no denser than the exact LP's.
func TestRegularizedCutsValid(t *testing.T) {
	cases := []struct {
		name string
		hs   func() []*tabular.Hierarchy
		seed uint64
	}{
		{"2x3", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 2), flat(t, "c", 3)} }, 1},

		{"3x4", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{flat(t, "r", 3), flat(t, "c", 4)} }, 2},
		{"hier2x2-by-2", func() []*tabular.Hierarchy { return []*tabular.Hierarchy{twoLevel(t, "r", 2, 2), flat(t, "c", 2)} }, 3},
		{"2x2x2", func() []*tabular.Hierarchy {
			return []*tabular.Hierarchy{flat(t, "a", 2), flat(t, "b", 2), flat(t, "c", 2)}
		}, 4},
	}
	violated, checked := 0, 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab := randomTable(t, c.hs(), c.seed, 9, 2, 3)
			m, err := buildModel(tableSource(tab), &Settings{})
			if err != nil {
				t.Fatal(err)
			}
			sv, err := solvers.New("", false)
			skipUnavailable(t, err)
			if err != nil {
				t.Fatal(err)
			}
			att, err := newAttacker(m, sv, &solvers.Params{})
			if err != nil {
				t.Fatal(err)
			}
			defer att.close()
			reg, err := newRegularized(m, sv, &solvers.Params{})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.close()
			// The binary patterns checked: all of them up to 14 free
			// cells, else 3,000 random ones (each cell suppressed with
			// probability 0.7, as protecting patterns are dense).
			nv := len(m.col)
			var masks []uint64
			if nv <= 14 {
				for mask := range uint64(1) << nv {
					masks = append(masks, mask)
				}
			} else {
				rs := rand.New(rand.NewPCG(c.seed, 7))
				for range 3000 {
					var mask uint64
					for v := range nv {
						if rs.Float64() < 0.7 {
							mask |= 1 << v
						}
					}
					masks = append(masks, mask)
				}
			}
			// reached[ti][k]: the exact attacker LP at pattern masks[k]
			// reaches target ti.
			reached := make([][]bool, len(m.targets))
			for ti := range reached {
				reached[ti] = make([]bool, len(masks))
			}
			for k, mask := range masks {
				sup := make([]bool, nv)
				for v := range sup {
					sup[v] = mask>>v&1 == 1
				}
				if err := att.setY(m.colY(sup)); err != nil {
					t.Fatal(err)
				}
				for ti, tg := range m.targets {
					o, err := att.solve(tg)
					if err != nil {
						t.Fatal(err)
					}
					reached[ti][k] = o.reached
				}
			}
			rng := rand.New(rand.NewPCG(c.seed, 99))
			for range 30 {
				y := make([]float64, nv)
				for v := range y {
					if rng.IntN(3) > 0 {
						y[v] = rng.Float64()
					}
				}
				cy := make([]float64, len(m.cell))
				for col, v := range m.vr {
					cy[col] = 1
					if v >= 0 {
						cy[col] = y[v]
					}
				}
				if err := att.setY(cy); err != nil {
					t.Fatal(err)
				}
				set := false
				for ti, tg := range m.targets {
					o, err := att.solve(tg)
					if err != nil {
						t.Fatal(err)
					}
					if o.reached {
						continue
					}
					exact, ok, _ := att.cutOf(tg, o.res)
					ct, cok, err := sparser(reg, &set, cy, y, tg, exact, ok)
					if err != nil {
						t.Fatal(err)
					}
					if !cok {
						continue
					}
					if ok && len(ct.vars) > len(exact.vars) {
						t.Errorf("target %d: cut with %d variables, the exact LP's has %d", ti, len(ct.vars), len(exact.vars))
					}
					if ct.lhs(y) < 1-violationTol {
						violated++
					}
					for k, r := range reached[ti] {
						if !r {
							continue
						}
						mask := masks[k]
						checked++
						yb := make([]float64, nv)
						for v := range yb {
							if mask>>v&1 == 1 {
								yb[v] = 1
							}
						}
						if lhs := ct.lhs(yb); lhs < 1-1e-7 {
							t.Fatalf("target %d (cell %d): cut %v %v has left side %g < 1 at pattern %b, which reaches the target",
								ti, tg.cell, ct.vars, ct.coef, lhs, mask)
						}
					}
				}
			}
		})
	}
	if violated == 0 {
		t.Fatal("no violated cut was found: the check is vacuous")
	}
	t.Logf("%d violated cuts, %d (cut, protecting pattern) pairs checked", violated, checked)
}
