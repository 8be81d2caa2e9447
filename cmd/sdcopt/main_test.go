package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// run executes the CLI in-process and returns stdout, the error text and
// the exit code main would use.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return out.String(), msg, cli.Code(err)
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func demoModel(t *testing.T, name string) string {
	t.Helper()
	data, err := demoModels.ReadFile("demodata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, name, string(data))
}

func TestSolversJSON(t *testing.T) {
	out, msg, code := run(t, "solvers", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var doc struct {
		Solvers []struct {
			Name      string `json:"name"`
			Version   string `json:"version"`
			Available bool   `json:"available"`
			Reason    string `json:"reason"`
		} `json:"solvers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, s := range doc.Solvers {
		seen[s.Name] = true
		if !s.Available && s.Reason == "" {
			t.Errorf("%s unavailable without a reason", s.Name)
		}
		if s.Available && s.Version == "" {
			t.Errorf("%s available without a version", s.Name)
		}
	}
	for _, n := range []string{"highs", "lpsolve", "clp", "cbc"} {
		if !seen[n] {
			t.Errorf("engine %s not listed", n)
		}
	}
}

func TestSolveAllEnginesAgree(t *testing.T) {
	// Wyndor Glass: optimum 36 (Hillier & Lieberman, Section 3.1).
	path := demoModel(t, "wyndor.mps")
	out, msg, code := run(t, "solve", path, "--solver", "all", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var doc struct {
		Agree   bool `json:"agree"`
		Results []struct {
			Solver    string   `json:"solver"`
			Status    string   `json:"status"`
			Objective *float64 `json:"objective"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if len(doc.Results) < 1 {
		t.Fatalf("no results: %s", out)
	}
	for _, r := range doc.Results {
		if r.Status != "optimal" || r.Objective == nil || math.Abs(*r.Objective-36) > 1e-6 {
			t.Errorf("%s: %s %v, want optimal 36", r.Solver, r.Status, r.Objective)
		}
	}
}

func TestSolveWriteModelRoundTrip(t *testing.T) {
	path := demoModel(t, "knapsack.mps")
	copyPath := filepath.Join(t.TempDir(), "copy.mps")
	out1, msg, code := run(t, "solve", path, "--format", "json", "--write-model", copyPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	out2, msg, code := run(t, "solve", copyPath, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var a, b struct {
		Objective float64 `json:"objective"`
	}
	json.Unmarshal([]byte(out1), &a)
	json.Unmarshal([]byte(out2), &b)
	if a.Objective == 0 || math.Abs(a.Objective-b.Objective) > 1e-9 {
		t.Errorf("objective %g on the original, %g on the written model", a.Objective, b.Objective)
	}
}

func TestSolveErrors(t *testing.T) {
	dir := t.TempDir()
	malformed := writeTemp(t, "bad.mps", "NAME bad\nROWS\n N obj\n L c1\nCOLUMNS\n x obj 1 c9 2\nRHS\nENDATA\n")
	infeasible := writeTemp(t, "infeasible.mps",
		"NAME inf\nROWS\n N obj\n G c1\n L c2\nCOLUMNS\n x obj 1 c1 1\n x c2 1\nRHS\n rhs c1 3 c2 2\nENDATA\n")
	wyndor := demoModel(t, "wyndor.mps")
	cases := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"missing file", []string{"solve", filepath.Join(dir, "nope.mps")}, 2, "nope.mps"},
		{"malformed names the line", []string{"solve", malformed}, 2, "bad.mps:6"},
		{"unknown engine", []string{"solve", wyndor, "--solver", "gurobi"}, 2, `unknown --solver "gurobi"`},
		{"unknown format", []string{"solve", wyndor, "--format", "yaml"}, 2, "yaml"},
		{"no file", []string{"solve"}, 2, "exactly one"},
		{"bad flag", []string{"solve", wyndor, "--time-limit", "abc"}, 2, "time-limit"},
		{"negative time limit", []string{"solve", wyndor, "--time-limit", "-1"}, 2, "time-limit"},
		{"bad option", []string{"solve", wyndor, "--option", "novalue"}, 2, "NAME=VALUE"},
		{"infeasible model", []string{"solve", infeasible}, 1, "infeasible"},
		{"solvers takes no args", []string{"solvers", "x"}, 2, "no arguments"},
	}
	for _, tc := range cases {
		_, msg, code := run(t, tc.args...)
		if code != tc.code || !strings.Contains(msg, tc.contains) {
			t.Errorf("%s: exit %d %q, want exit %d containing %q", tc.name, code, msg, tc.code, tc.contains)
		}
	}
}

func TestDemo(t *testing.T) {
	out, msg, code := run(t, "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	for _, want := range []string{"wyndor.mps", "knapsack.mps", "optimal", "== sdcopt demo: publishing a table", "primary cells under-protected",
		"secondary suppression", "audit of the protected table", "0 exactly disclosed: pass"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// badInputCase is a command line (after a common prefix) that must exit 2
// with a message containing every string of want.
type badInputCase struct {
	args []string
	want []string
}

// expectBadInput runs prefix + args of every case as a subtest.
func expectBadInput(t *testing.T, prefix []string, cases []badInputCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, msg, code := run(t, append(append([]string{}, prefix...), tc.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (%s)", code, msg)
			}
			for _, want := range tc.want {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
		})
	}
}
