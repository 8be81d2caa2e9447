package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// auditTable is a 2×2 magnitude table with its totals as a table file:
// (N, a) is primary with levels 5 above and below.
const auditTable = `region,sector,value,status,upper,lower
Total,Total,100,safe,0,0
Total,a,60,safe,0,0
Total,b,40,safe,0,0
N,Total,55,safe,0,0
N,a,30,primary,5,5
N,b,25,safe,0,0
S,Total,45,safe,0,0
S,a,30,safe,0,0
S,b,15,safe,0,0
`

// auditRectangle is auditTable with the rectangle (N|S, a|b) suppressed.
var auditRectangle = strings.NewReplacer("N,b,25,safe", "N,b,25,secondary", "S,a,30,safe", "S,a,30,secondary",
	"S,b,15,safe", "S,b,15,secondary").Replace(auditTable)

func writeAuditFiles(t *testing.T) (dir, single, rect, hrc string) {
	dir = t.TempDir()
	single, rect, hrc = filepath.Join(dir, "single.csv"), filepath.Join(dir, "rect.csv"), filepath.Join(dir, "region.hrc")
	os.WriteFile(single, []byte(auditTable), 0o644)
	os.WriteFile(rect, []byte(auditRectangle), 0o644)
	os.WriteFile(hrc, []byte("N\nS\n"), 0o644)
	return
}

func TestTableAuditUnderProtected(t *testing.T) {
	_, single, _, hrc := writeAuditFiles(t)
	stdout, msg, code := run(t, "table", "audit", "--table", single, "--dims", "region:"+hrc+",sector")
	if code != 1 || !strings.Contains(msg, "region=N, sector=a") || !strings.Contains(msg, "1 under-protected") || strings.Contains(msg, "\n") {
		t.Fatalf("exit %d %q, want 1 naming the cell", code, msg)
	}
	for _, w := range []string{"suppressed      1", "under-protected 1", "disclosed       1", "audit           FAIL",
		"(region=N, sector=a) primary: 30 in [30, 30], needs [25, 35]"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("report lacks %q:\n%s", w, stdout)
		}
	}
	stdout, _, code = run(t, "table", "audit", "--table", single, "--dims", "region:"+hrc+",sector", "--format", "json")
	var rep tableAuditReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 {
		t.Fatalf("exit %d %v\n%s", code, err, stdout)
	}
	if rep.Pass || len(rep.Cells) != 1 || !rep.Cells[0].UnderProtected || !rep.Cells[0].Disclosed || rep.Cells[0].ShortAbove != 5 {
		t.Errorf("report %+v", rep)
	}
}

func TestTableAuditRectangleAndCertificates(t *testing.T) {
	dir, _, rect, hrc := writeAuditFiles(t)
	certs := filepath.Join(dir, "certs.json")
	dims := "region:" + hrc + ",sector"
	stdout, msg, code := run(t, "table", "audit", "--table", rect, "--dims", dims, "--certificates", certs, "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d %s\n%s", code, msg, stdout)
	}
	// The attacker moves t around the rectangle: (N, a) = 30 + t,
	// (N, b) = 25 − t, (S, a) = 30 − t, (S, b) = 15 + t, all ≥ 0, so
	// −15 ≤ t ≤ 25 and (N, a) lies in [15, 55] ⊇ [25, 35].
	if !strings.Contains(stdout, "4,\"region=N, sector=a\",primary,30,15,55,0,0,0,0,0,0,ok\n") {
		t.Errorf("csv:\n%s", stdout)
	}
	if fi, err := os.Stat(certs); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("certificates: %v %v", err, fi)
	}
	stdout, msg, code = run(t, "table", "audit", "--verify", "--table", rect, "--dims", dims, "--certificates", certs)
	if code != 0 || !strings.Contains(stdout, "every bound verified") || !strings.Contains(stdout, "audit           pass") {
		t.Fatalf("verify: exit %d %s\n%s", code, msg, stdout)
	}
	// A tampered bound: the upper end of (N, a) claimed 56.
	b, _ := os.ReadFile(certs)
	bad := strings.Replace(string(b), `"value": 55`, `"value": 56`, 1)
	if bad == string(b) {
		t.Fatalf("nothing to tamper in\n%s", b)
	}
	os.WriteFile(certs, []byte(bad), 0o600)
	_, msg, code = run(t, "table", "audit", "--verify", "--table", rect, "--dims", dims, "--certificates", certs)
	if code != 1 || !strings.Contains(msg, "refused") || !strings.Contains(msg, "region=N, sector=a") || strings.Contains(msg, "\n") {
		t.Errorf("tampered: exit %d %q, want 1 naming the cell", code, msg)
	}
	// A sharper claimed end than its duals prove: upper 50 for (N, a).
	bad = strings.Replace(string(b), `"upper": 55`, `"upper": 50`, 1)
	if bad == string(b) {
		t.Fatalf("no upper end 55 in\n%s", b)
	}
	os.WriteFile(certs, []byte(bad), 0o600)
	if _, msg, code = run(t, "table", "audit", "--verify", "--table", rect, "--dims", dims, "--certificates", certs); code != 1 || !strings.Contains(msg, "sharper") {
		t.Errorf("sharper claim: exit %d %q, want 1", code, msg)
	}
	// The report to --out holds the values: 0600.
	out := filepath.Join(dir, "report.json")
	if _, msg, code = run(t, "table", "audit", "--table", rect, "--dims", dims, "--format", "json", "--out", out); code != 0 {
		t.Fatalf("--out: exit %d %s", code, msg)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("--out: %v %v", err, fi)
	}
	os.WriteFile(certs, []byte("{"), 0o600)
	if _, msg, code = run(t, "table", "audit", "--verify", "--table", rect, "--dims", dims, "--certificates", certs); code != 2 {
		t.Errorf("malformed certificates: exit %d %q, want 2", code, msg)
	}
}

func TestTableAuditBadInput(t *testing.T) {
	dir, single, _, hrc := writeAuditFiles(t)
	short := filepath.Join(dir, "short.hrc")
	os.WriteFile(short, []byte("N\n"), 0o644) // S missing
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"no dims", []string{"--table", single}, []string{"--dims"}},
		{"no table", []string{"--dims", "region"}, []string{"--table"}},
		{"code missing from hierarchy", []string{"--table", single, "--dims", "region:" + short + ",sector"}, []string{"single.csv:", "region", "S"}},
		{"unknown solver", []string{"--table", single, "--dims", "region:" + hrc + ",sector", "--solver", "nosuch"}, []string{"--solver", "nosuch"}},
		{"bad prior", []string{"--table", single, "--dims", "region,sector", "--prior", "percent=x"}, []string{"--prior"}},
		{"jj with table", []string{"--table", single, "--jj", single}, []string{"--jj", "--table"}},
		{"jj with dims", []string{"--jj", single, "--dims", "region"}, []string{"--jj", "--dims"}},
		{"verify integer", []string{"--table", single, "--dims", "region,sector", "--verify", "--integer", "--certificates", filepath.Join(dir, "c.json")}, []string{"--integer"}},
		{"verify without certificates", []string{"--table", single, "--dims", "region,sector", "--verify"}, []string{"--certificates"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, msg, code := run(t, append([]string{"table", "audit"}, c.args...)...)
			if code != 2 || strings.Contains(msg, "\n") {
				t.Fatalf("exit %d %q, want 2 and one line", code, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not name %q", msg, w)
				}
			}
		})
	}
}
