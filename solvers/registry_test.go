package solvers

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Two engines registered for this package's tests only: one that runs
// (though it never solves) and one that is unavailable.
const (
	fakeAvailable   = "zz-fake-available"
	fakeUnavailable = "zz-fake-unavailable"
)

func init() {
	// Ranks -1: the fakes are never "auto"'s choice.
	noSolver := func() (Solver, error) { return nil, errors.New("fake engine") }
	Register(Engine{Name: fakeAvailable, Caps: Capabilities{LP: true, WarmStart: true, TimeLimit: true},
		Probe: func() (string, error) { return "1.0", nil }, New: noSolver, LPRank: -1, MIPRank: -1})
	Register(Engine{Name: fakeUnavailable, Caps: Capabilities{LP: true, Integer: true}, New: noSolver, LPRank: -1, MIPRank: -1,
		Probe: func() (string, error) {
			return "", &Error{Engine: fakeUnavailable, Op: "probe", Err: fmt.Errorf("%w: not built in", ErrUnavailable)}
		}})
}

func TestKnown(t *testing.T) {
	for _, name := range []string{"auto", "", fakeAvailable, fakeUnavailable} {
		if err := Known(name); err != nil {
			t.Errorf("Known(%q) = %v, want nil", name, err)
		}
	}
	for _, name := range []string{"gurobi", "Auto", "zz-fake", " " + fakeAvailable} {
		err := Known(name)
		if !errors.Is(err, ErrUnknownSolver) {
			t.Errorf("Known(%q) = %v, want ErrUnknownSolver", name, err)
			continue
		}
		// The message lists what would have been accepted.
		for _, want := range []string{"auto", fakeAvailable, fakeUnavailable} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Known(%q) = %q, does not list %q", name, err, want)
			}
		}
	}
}

// TestInfoJSON: the engine listing is lower_snake_case JSON, capabilities
// included; an unavailable engine says why and claims no capabilities.
func TestInfoJSON(t *testing.T) {
	var got map[string]map[string]any
	for _, info := range List() {
		b, err := json.Marshal(info)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if got == nil {
			got = map[string]map[string]any{}
		}
		got[info.Name] = m
	}
	avail := got[fakeAvailable]
	caps, ok := avail["capabilities"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no capabilities object in %v", fakeAvailable, avail)
	}
	want := map[string]bool{"lp": true, "integer": false, "duals": false, "incremental": false, "warm_start": true, "time_limit": true}
	if len(caps) != len(want) {
		t.Errorf("capabilities keys %v, want exactly %v", caps, want)
	}
	for k, v := range want {
		if caps[k] != v {
			t.Errorf("capabilities[%q] = %v, want %v", k, caps[k], v)
		}
	}
	if avail["available"] != true || avail["version"] != "1.0" {
		t.Errorf("%s listed as %v", fakeAvailable, avail)
	}
	un := got[fakeUnavailable]
	if un["available"] != false || !strings.Contains(fmt.Sprint(un["reason"]), "not built in") {
		t.Errorf("%s listed as %v", fakeUnavailable, un)
	}
	if c := un["capabilities"].(map[string]any); c["lp"] != false || c["integer"] != false {
		t.Errorf("%s: capabilities %v, want none", fakeUnavailable, c)
	}
	// Every key at every level is lower_snake_case.
	for name, m := range got {
		checkSnakeKeys(t, name, m)
	}
}

func checkSnakeKeys(t *testing.T, where string, m map[string]any) {
	t.Helper()
	for k, v := range m {
		if k != strings.ToLower(k) || strings.ContainsAny(k, " -") {
			t.Errorf("%s: key %q is not lower_snake_case", where, k)
		}
		if sub, ok := v.(map[string]any); ok {
			checkSnakeKeys(t, where+"."+k, sub)
		}
	}
}

// A program that forgot the blank import of solvers/all has no engine
// registered: the lookup errors must say which import registers them.
func TestNoEngineNamesTheImport(t *testing.T) {
	regMu.Lock()
	saved, savedProbes := engines, probes
	only := func(names ...string) {
		engines, probes = map[string]*Engine{}, map[string]*probed{}
		for _, n := range names {
			engines[n], probes[n] = saved[n], &probed{}
		}
	}
	only(fakeAvailable, fakeUnavailable)
	regMu.Unlock()
	defer func() {
		regMu.Lock()
		engines, probes = saved, savedProbes
		regMu.Unlock()
	}()
	// The fakes only (ranks -1): registered, none fits "auto".
	_, err := New("auto", false)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "solvers/all") ||
		!strings.Contains(err.Error(), fakeUnavailable+": ") {
		t.Errorf("New(auto) with unusable engines = %v, want ErrUnavailable naming the import and the reasons", err)
	}
	// No engine registered at all.
	regMu.Lock()
	only()
	regMu.Unlock()
	for _, mip := range []bool{false, true} {
		_, err := New("auto", mip)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), `_ "github.com/sdcopt/sdcopt/solvers/all"`) ||
			!strings.Contains(err.Error(), "no engine is registered") {
			t.Errorf("New(auto, %v) without engines = %v, want the import named", mip, err)
		}
	}
	_, err = New("highs", true)
	if !errors.Is(err, ErrUnknownSolver) || !strings.Contains(err.Error(), "solvers/all") {
		t.Errorf("New(highs) without engines = %v, want ErrUnknownSolver naming the import", err)
	}
}
