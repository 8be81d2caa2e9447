package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/server"
)

// sdcopt audit replay on microdata decides as on the long table of the
// same records' cross-classification; audit --microdata --update keeps a
// history; bad flags and bad records exit 2 naming the file and line.
func TestAuditMicrodataCLI(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var micro, long strings.Builder
	micro.WriteString("id,A,B,C,D\n")
	long.WriteString("A,B,C,D,count\n")
	id := 0
	for a := range 3 {
		for b := range 2 {
			for c := range 2 {
				for d := range 3 {
					n := []int{0, 0, 1, 2, 3}[r.IntN(5)]
					fmt.Fprintf(&long, "a%d,b%d,c%d,d%d,%d\n", a, b, c, d, n)
					for range n {
						id++
						fmt.Fprintf(&micro, "%d,a%d,b%d,c%d,d%d\n", id, a, b, c, d)
					}
				}
			}
		}
	}
	// The long table lists every cell in order, so its levels are in the
	// order of a levels file listing them.
	var levels strings.Builder
	levels.WriteString("variable,level\n")
	for v, n := range map[string]int{"A": 3, "B": 2, "C": 2, "D": 3} {
		for l := range n {
			fmt.Fprintf(&levels, "%s,%s%d\n", v, strings.ToLower(v), l)
		}
	}
	mfile := writeTemp(t, "m.csv", micro.String())
	lfile := writeTemp(t, "l.csv", levels.String())
	tfile := writeTemp(t, "t.csv", long.String())
	requests := "A:B,B:C,A:C,A:B:C,A:D"
	type rows struct {
		Decisions []struct {
			Decision struct {
				Outcome string  `json:"outcome"`
				Counts  []int64 `json:"counts"`
			} `json:"decision"`
		} `json:"decisions"`
	}
	var got [2]rows
	for i, args := range [][]string{
		{"--table", tfile},
		{"--microdata", mfile, "--vars", "A,B,C,D", "--levels", lfile},
	} {
		out, msg, code := run(t, append([]string{"audit", "replay", "--requests", requests, "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, msg)
		}
		if err := json.Unmarshal([]byte(out), &got[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(got[0].Decisions) != 5 || len(got[1].Decisions) != 5 {
		t.Fatalf("decisions: %d and %d", len(got[0].Decisions), len(got[1].Decisions))
	}
	outcomes := map[string]int{}
	for i := range got[0].Decisions {
		a, b := got[0].Decisions[i].Decision, got[1].Decisions[i].Decision
		outcomes[a.Outcome]++
		if a.Outcome != b.Outcome || fmt.Sprint(a.Counts) != fmt.Sprint(b.Counts) {
			t.Errorf("request %d: table %s %v, microdata %s %v", i+1, a.Outcome, a.Counts, b.Outcome, b.Counts)
		}
	}
	t.Logf("outcomes %v", outcomes)

	hist := filepath.Join(t.TempDir(), "h.json")
	for _, req := range []string{"A", "A:B"} {
		if _, msg, code := run(t, "audit", "--microdata", mfile, "--vars", "A,B,C,D", "--history", hist, "--request", req, "--update", "--create"); code != 0 {
			t.Fatalf("%s: exit %d: %s", req, code, msg)
		}
	}
	// The history belongs to the layout of A,B,C,D: another selection is
	// bad input.
	if _, msg, code := run(t, "audit", "--microdata", mfile, "--vars", "A,B,C", "--history", hist, "--request", "C"); code != 2 || !strings.Contains(msg, "variables") {
		t.Errorf("history of other variables: exit %d %q", code, msg)
	}
	// A ragged row (an empty field was bad input here before issue 44 made
	// it a missing value, the category "?", as in every command).
	bad := writeTemp(t, "bad.csv", "id,A,B\n1,a0,b0\n2,b1\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--microdata", mfile}, "needs --vars"},
		{[]string{"--microdata", mfile, "--vars", "A", "--table", tfile}, "exclude each other"},
		{[]string{"--vars", "A"}, "required"},
		{[]string{"--table", tfile, "--vars", "A"}, "need --microdata"},
		{[]string{"--microdata", mfile, "--vars", "A,Z"}, `unknown column "Z"`},
		{[]string{"--microdata", bad, "--vars", "A,B"}, `bad.csv:3: 2 fields`},
	} {
		_, msg, code := run(t, append([]string{"audit", "replay", "--requests", "A"}, tc.args...)...)
		if code != 2 || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: exit %d %q, want 2 and %q", tc.args, code, msg, tc.want)
		}
	}
}

// No option is silently ignored with --microdata (issue 44, item 13): a
// levels row for a variable not in --vars (a typo) is exit 2 naming the
// levels file, the line and the column; the long table's reading flags
// (--sep, --decimal, --count) are refused rather than ignored; in
// sdcopt audit and in sdcopt serve load alike. The options accepted are
// repeated on serve load's line and in the operator's view.
func TestAuditMicrodataIgnoredOptions(t *testing.T) {
	micro := writeTemp(t, "m.csv", "id,A,B\n1,a0,b0\n2,a1,b1\n3,a0,b1\n4,a1,b0\n")
	typo := writeTemp(t, "typo.csv", "variable,level\nA,a0\nA,a1\nAA,a2\n")
	db := filepath.Join(t.TempDir(), "sdc.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--levels", typo}, `typo.csv:4: column "variable": "AA" is not among the declared variables A,B`},
		{[]string{"--sep", ";"}, "--sep"},
		{[]string{"--decimal", ","}, "--decimal"},
		{[]string{"--count", "n"}, "--count"},
	} {
		for _, cmd := range [][]string{
			{"audit", "replay", "--requests", "A"},
			{"serve", "load", "--db", db, "--name", "t"},
		} {
			args := append(append(slices.Clone(cmd), "--microdata", micro, "--vars", "A,B"), tc.args...)
			out, msg, code := run(t, args...)
			if code != 2 || !strings.Contains(msg, tc.want) || strings.Count(strings.TrimSpace(msg), "\n") > 0 {
				t.Errorf("%s %v: exit %d %q %q, want 2 and one line with %q", cmd[0], tc.args, code, out, msg, tc.want)
			}
		}
	}
	out, msg, code := run(t, "serve", "load", "--db", db, "--name", "opts", "--microdata", micro, "--vars", "A,B", "--max-cells", "1000", "--protect-collapsed")
	if code != 0 || !strings.Contains(out, "max cells 1000, protect collapsed true") {
		t.Errorf("serve load with options: exit %d %q %s", code, out, msg)
	}
	store, err := server.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	info, err := store.Table(context.Background(), "opts")
	if err != nil {
		t.Fatal(err)
	}
	if o := info.MicrodataOptions; o == nil || o.MaxCells != 1000 || !o.ProtectCollapsed {
		t.Errorf("operator's view of the options: %+v", o)
	}
}
