package solvers

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// allStatuses lists every named status, found by walking the values until
// String falls back to "Status(n)", so that a status added later is
// checked without editing the test.
func allStatuses(t *testing.T) []Status {
	t.Helper()
	var out []Status
	for s := StatusUnknown; ; s++ {
		if strings.HasPrefix(s.String(), "Status(") {
			break
		}
		out = append(out, s)
	}
	if len(out) < int(NumericalTrouble)+1 {
		t.Fatalf("only %d named statuses, want at least %d", len(out), NumericalTrouble+1)
	}
	return out
}

// TestStatusNamesSnakeCase: the status names are the CLI's stable JSON
// vocabulary: lower_snake_case, unique, and what MarshalText and JSON emit.
func TestStatusNamesSnakeCase(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	seen := map[string]Status{}
	for _, s := range allStatuses(t) {
		name := s.String()
		if !snake.MatchString(name) {
			t.Errorf("status %d: name %q is not lower_snake_case", int(s), name)
		}
		if prev, dup := seen[name]; dup {
			t.Errorf("statuses %d and %d share the name %q", int(prev), int(s), name)
		}
		seen[name] = s
		if b, err := s.MarshalText(); err != nil || string(b) != name {
			t.Errorf("%v.MarshalText() = %q, %v", s, b, err)
		}
		b, err := json.Marshal(struct{ S Status }{s})
		if err != nil || string(b) != `{"S":"`+name+`"}` {
			t.Errorf("JSON of %v = %s, %v", s, b, err)
		}
	}
}

func TestStatusClasses(t *testing.T) {
	for _, s := range allStatuses(t) {
		noSol := s == Infeasible || s == Unbounded || s == InfeasibleOrUnbounded
		limit := s == TimeLimit || s == IterationLimit || s == NodeLimit || s == SolutionLimit || s == Interrupted
		if s.NoSolution() != noSol || s.Limit() != limit {
			t.Errorf("%v: NoSolution %v Limit %v, want %v %v", s, s.NoSolution(), s.Limit(), noSol, limit)
		}
	}
}
