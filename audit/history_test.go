package audit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/model"
)

// twoByTwo is the table A x B with counts [[1, 5], [4, 6]] (row-major).
func twoByTwo(t *testing.T) *model.Table {
	t.Helper()
	bin := []string{"x", "y"}
	tab, err := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}}, []int64{1, 5, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// A history whose simulated release contradicts a true one is refused by
// Check and by Decide, also when the request is implied by a release (no
// bounds computed) and when only the simulated release contains it.
func TestContradictoryHistoryRefused(t *testing.T) {
	tab := twoByTwo(t)
	a, err := audit.New(tab, audit.Policy{Small: 3, MinWidth: 3, AllowSimulate: true}, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The true [A] is (1+5, 4+6) = (6, 10); the "simulated" whole table
	// [[3, 3], [3, 7]] has [A] = (6, 10) too but [B] = (6, 10), while the
	// true [B] is (1+4, 5+6) = (5, 11).
	trueB := audit.Release{Margin: []string{"B"}, Counts: []int64{5, 11}}
	simAB := audit.Release{Margin: []string{"A", "B"}, Counts: []int64{3, 3, 3, 7}, Simulated: true}
	for _, order := range [][]audit.Release{{trueB, simAB}, {simAB, trueB}} {
		h := audit.NewHistory(tab)
		h.Releases = append(h.Releases, order...)
		if err := h.Check(tab); !errors.Is(err, audit.ErrHistory) || !strings.Contains(err.Error(), "contradict") {
			t.Errorf("Check: %v", err)
		}
		// [A] and [B] are implied by a release: the decision would
		// compute nothing.
		for _, m := range [][]string{{"A"}, {"B"}, {"A", "B"}} {
			if d, err := a.Decide(h, audit.Request{Margin: m}); !errors.Is(err, audit.ErrHistory) {
				t.Errorf("Decide %v: %+v %v", m, d, err)
			}
		}
	}
	// The same margin twice with other values.
	h := audit.NewHistory(tab)
	h.Releases = append(h.Releases, audit.Release{Margin: []string{"A"}, Counts: []int64{7, 9}, Simulated: true},
		audit.Release{Margin: []string{"A"}, Counts: []int64{8, 8}, Simulated: true})
	if err := h.Check(tab); !errors.Is(err, audit.ErrHistory) || !strings.Contains(err.Error(), "repeats") {
		t.Errorf("repeated margin: %v", err)
	}
	// A consistent mixed history passes: the simulated whole table
	// [[2, 4], [3, 7]] has the true [B] = (5, 11).
	ok := audit.NewHistory(tab)
	ok.Releases = append(ok.Releases, trueB, audit.Release{Margin: []string{"A", "B"}, Counts: []int64{2, 4, 3, 7}, Simulated: true})
	if err := ok.Check(tab); err != nil {
		t.Errorf("consistent history: %v", err)
	}
	if d, err := a.Decide(ok, audit.Request{Margin: []string{"A"}}); err != nil || d.Outcome != audit.Simulated || !d.Operator.Implied {
		t.Errorf("implied by the simulated table: %+v %v", d, err)
	}
}

// The default policy does not simulate: a denied request in simulate
// mode is denied.
func TestDefaultPolicyNoSimulation(t *testing.T) {
	tab := twoByTwo(t)
	if audit.DefaultPolicy().AllowSimulate {
		t.Fatal("the default policy allows simulation")
	}
	a, err := audit.New(tab, audit.DefaultPolicy(), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Decide(audit.NewHistory(tab), audit.Request{Margin: []string{"A", "B"}, Mode: audit.ModeSimulate, Seed: 1})
	if err != nil || d.Outcome != audit.Denied || d.Simulated {
		t.Errorf("whole table in simulate mode under the default policy: %+v %v", d, err)
	}
}

// Every way of leaving fields out of a policy update keeps the omitted
// fields of the current policy: omission never weakens.
func TestPolicyUpdateOmissionKeeps(t *testing.T) {
	cur := audit.Policy{Small: 5, MinWidth: 4, MinRelWidth: 0.25, AllowSimulate: false}
	small, width, rel, sim := int64(7), int64(6), 0.5, true
	for mask := 0; mask < 16; mask++ {
		var u audit.PolicyUpdate
		want := cur
		if mask&1 != 0 {
			u.Small, want.Small = &small, small
		}
		if mask&2 != 0 {
			u.MinWidth, want.MinWidth = &width, width
		}
		if mask&4 != 0 {
			u.MinRelWidth, want.MinRelWidth = &rel, rel
		}
		if mask&8 != 0 {
			u.AllowSimulate, want.AllowSimulate = &sim, sim
		}
		got, err := u.Apply(cur)
		if err != nil || got != want {
			t.Errorf("fields %04b: %+v %v, want %+v", mask, got, err, want)
		}
	}
	neg := int64(-1)
	if _, err := (audit.PolicyUpdate{MinWidth: &neg}).Apply(cur); !errors.Is(err, audit.ErrPolicy) {
		t.Errorf("negative width: %v", err)
	}
}

// TestParsePolicySimulate: simulate takes true or false, and turning it on
// keeps the other defaults.
func TestParsePolicySimulate(t *testing.T) {
	for _, c := range []struct{ spec, msg string }{
		{"simulate=maybe", `"maybe" is not true or false`},
		{"small=x", `"x" is not an integer`},
	} {
		if _, err := audit.ParsePolicy(c.spec); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.spec, err, c.msg)
		}
	}
	if p, err := audit.ParsePolicy("simulate=true"); err != nil || !p.AllowSimulate || p.Small != 3 {
		t.Errorf("simulate=true: %+v %v", p, err)
	}
}
