package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 44, item 15: sdcopt audit replay --protect-collapsed releases a
// first request (it used to deny every one) and denies a combination of
// margins that pins a cell of the table over their variables. Records
// (0,0,0,0) and (0,1,1,1) over binary A, B, C, D under the exact rule
// alone: [AB] and [AC] are released; [BC] with them fixes the ABC cells
// (0,0,0) and (0,1,1) at 1 while D leaves the full cells inside free in
// [0, 1], so it is released without the flag and denied with it.
func TestAuditProtectCollapsedCLI(t *testing.T) {
	mfile := writeTemp(t, "m.csv", "A,B,C,D\n0,0,0,0\n0,1,1,1\n")
	for _, tc := range []struct {
		requests string
		protect  bool
		want     []string
	}{
		{"A:B,A:C,B:C", false, []string{"released", "released", "released"}},
		{"A:B,A:C,B:C", true, []string{"released", "released", "denied"}},
		{"A:B:C", true, []string{"released"}},
	} {
		args := []string{"audit", "replay", "--microdata", mfile, "--vars", "A,B,C,D", "--levels", writeTemp(t, "l.csv",
			"variable,level\nA,0\nA,1\nB,0\nB,1\nC,0\nC,1\nD,0\nD,1\n"),
			"--policy", "small=0,min_width=0", "--requests", tc.requests, "--format", "json"}
		if tc.protect {
			args = append(args, "--protect-collapsed")
		}
		out, msg, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, msg)
		}
		var res struct {
			Decisions []struct {
				Decision struct {
					Outcome string `json:"outcome"`
				} `json:"decision"`
			} `json:"decisions"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		var got []string
		for _, d := range res.Decisions {
			got = append(got, d.Decision.Outcome)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s with protect collapsed %v: %v, want %v", tc.requests, tc.protect, got, tc.want)
		}
	}
}
