package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/tabular"
)

// writeJJOf writes the table file path (over region:hrc, sector) as a JJ
// file, the way `sdcopt table primary --jj` does.
func writeJJOf(t *testing.T, path, hrc, jj string) {
	t.Helper()
	h, err := loadHierarchy(hrc, ',')
	if err != nil {
		t.Fatal(err)
	}
	flat, err := tabular.NewFlat("", []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := tabular.LoadTableFile(path, []tabular.Dimension{{Name: "region", H: h}, {Name: "sector", H: flat}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(jj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := tabular.WriteJJ(f, tab.Linear()); err != nil {
		t.Fatal(err)
	}
}

func auditJSON(t *testing.T, want int, args ...string) tableAuditReport {
	t.Helper()
	stdout, msg, code := run(t, append([]string{"table", "audit", "--format", "json"}, args...)...)
	var rep tableAuditReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != want {
		t.Fatalf("%v: exit %d (want %d) %s %v\n%s", args, code, want, msg, err, stdout)
	}
	return rep
}

// TestTableAuditJJ: the rectangle table and its JJ file audit alike
// (same cells, intervals, verdicts), LP and integer; certificates written
// on the JJ verify against it (--integer too); the single suppressed
// cell fails as in TestTableAuditUnderProtected.
func TestTableAuditJJ(t *testing.T) {
	dir, single, rect, hrc := writeAuditFiles(t)
	dims := "region:" + hrc + ",sector"
	rectJJ, singleJJ := filepath.Join(dir, "rect.jj"), filepath.Join(dir, "single.jj")
	writeJJOf(t, rect, hrc, rectJJ)
	writeJJOf(t, single, hrc, singleJJ)
	for _, integer := range []bool{false, true} {
		extra := []string{}
		if integer {
			extra = []string{"--integer"}
		}
		want := auditJSON(t, 0, append([]string{"--table", rect, "--dims", dims}, extra...)...)
		got := auditJSON(t, 0, append([]string{"--jj", rectJJ}, extra...)...)
		if got.JJ != rectJJ || len(got.Cells) != len(want.Cells) || got.Pass != want.Pass || len(got.Cells) != 4 {
			t.Fatalf("integer %v: jj %+v\ntable %+v", integer, got, want)
		}
		for i, w := range want.Cells {
			g := got.Cells[i]
			// LP ends within the engines' optimality tolerance (1e-7 on
			// values below 100).
			if g.Cell != w.Cell || math.Abs(*g.Lower-*w.Lower) > 1e-6 || math.Abs(*g.Upper-*w.Upper) > 1e-6 ||
				g.Verdict != w.Verdict || g.Status != w.Status {
				t.Errorf("integer %v: jj cell %+v, table cell %+v", integer, g, w)
			}
		}
		certs := filepath.Join(dir, "jj-certs.json")
		os.Remove(certs)
		rep := auditJSON(t, 0, append([]string{"--jj", rectJJ, "--certificates", certs}, extra...)...)
		if integer && (rep.EngineClaimed != 0 || rep.Cells[0].LowerCertified == nil || !*rep.Cells[0].UpperCertified) {
			t.Errorf("integer certificates: %+v", rep)
		}
		rep = auditJSON(t, 0, "--jj", rectJJ, "--verify", "--certificates", certs)
		if !rep.Verified || rep.Integer != integer {
			t.Errorf("verify: %+v", rep)
		}
		// Another consistent table (N's total 56, the grand total 101, the
		// total of b 41): the certificates prove other bounds, refused.
		b, _ := os.ReadFile(rectJJ)
		other := filepath.Join(dir, "other.jj")
		changed := strings.NewReplacer("\n0 100 100 s", "\n0 101 100 s", "\n2 40 40 s", "\n2 41 40 s", "\n3 55 55 s", "\n3 56 55 s").Replace(string(b))
		if strings.Count(changed, "\n") != strings.Count(string(b), "\n") || changed == string(b) || !strings.Contains(changed, "3 56 55 s") {
			t.Fatalf("cannot change\n%s", b)
		}
		os.WriteFile(other, []byte(changed), 0o600)
		if _, msg, code := run(t, "table", "audit", "--jj", other, "--verify", "--certificates", certs); code == 0 {
			t.Errorf("verify against another JJ: exit 0 %s", msg)
		}
	}
	_, msg, code := run(t, "table", "audit", "--jj", singleJJ)
	if code != 1 || !strings.Contains(msg, "1 under-protected") || !strings.Contains(msg, "cell 4") || !strings.Contains(msg, "single.jj") {
		t.Fatalf("single: exit %d %q", code, msg)
	}
}

// TestTableAuditJJSliding: a JJ cell's SPL is audited: the rectangle's
// (N, a) = 30 lies in [15, 55] (TestTableAuditRectangleAndCertificates),
// width 40, so SPL 40 passes and SPL 41 fails short by 1.
func TestTableAuditJJSliding(t *testing.T) {
	dir, _, rect, hrc := writeAuditFiles(t)
	jj := filepath.Join(dir, "rect.jj")
	writeJJOf(t, rect, hrc, jj)
	b, _ := os.ReadFile(jj)
	line := "4 30 30 u 0 1e20 5 5 0"
	if !strings.Contains(string(b), line+"\n") {
		t.Fatalf("no line %q in\n%s", line, b)
	}
	for _, c := range []struct {
		spl   string
		exit  int
		short float64
	}{{"40", 0, 0}, {"41", 1, 1}} {
		os.WriteFile(jj, []byte(strings.Replace(string(b), line, "4 30 30 u 0 1e20 5 5 "+c.spl, 1)), 0o600)
		rep := auditJSON(t, c.exit, "--jj", jj)
		if rep.Cells[0].ShortWidth != c.short || rep.Cells[0].Cell != 4 {
			t.Errorf("SPL %s: %+v", c.spl, rep.Cells[0])
		}
	}
}

// TestTableAuditJJBadInput: a malformed JJ file is exit 2 with one line
// naming the file, the line and the field.
func TestTableAuditJJBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"status", "0\n2\n0 3 1 s 0 1e20 0 0 0\n1 3 1 q 0 1e20 0 0 0\n1\n0 2 : 0 (-1) 1 (1)\n", []string{"bad.jj:4", "status", "q"}},
		{"coefficient", "0\n2\n0 3 1 s 0 1e20 0 0 0\n1 3 1 u 0 1e20 0 0 0\n1\n0 2 : 0 (-1) 1 (one)\n", []string{"bad.jj:6", "term"}},
		{"cell out of range", "0\n2\n0 3 1 s 0 1e20 0 0 0\n1 3 1 u 0 1e20 0 0 0\n1\n0 2 : 0 (-1) 2 (1)\n", []string{"bad.jj:6", "out of range"}},
		{"infinite coefficient", "0\n2\n0 3 1 s 0 1e20 0 0 0\n1 3 1 u 0 1e20 0 0 0\n1\n0 2 : 0 (-1) 1 (inf)\n", []string{"bad.jj", "relation 0", "coefficient"}},
	} {
		path := filepath.Join(dir, "bad.jj")
		os.WriteFile(path, []byte(c.text), 0o600)
		_, msg, code := run(t, "table", "audit", "--jj", path)
		if code != 2 || strings.Contains(msg, "\n") {
			t.Errorf("%s: exit %d %q, want 2 and one line", c.name, code, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not name %q", c.name, msg, w)
			}
		}
	}
}

// TestTableAuditPriorColumns: the table file's prior_upper is the
// attacker's prior by default. In the rectangle (N, a) = 30 + t with
// −15 ≤ t ≤ 25 (TestTableAuditRectangleAndCertificates); prior_upper 40
// on (N, a) gives t ≤ 10, so (N, a) ∈ [15, 40]. --prior percent=100
// replaces the cells' priors with [0, 2·value]: (S, b) = 15 + t ≤ 30
// gives t ≤ 15, the other cells allow more, so (N, a) ∈ [15, 45].
func TestTableAuditPriorColumns(t *testing.T) {
	dir, _, rect, hrc := writeAuditFiles(t)
	b, _ := os.ReadFile(rect)
	text := strings.Replace(string(b), "region,sector,value,status,upper,lower\n", "region,sector,value,status,upper,lower,prior_upper\n", 1)
	text = strings.Replace(text, "N,a,30,primary,5,5\n", "N,a,30,primary,5,5,40\n", 1)
	text = strings.ReplaceAll(text, ",0,0\n", ",0,0,\n")
	withPrior := filepath.Join(dir, "prior.csv")
	os.WriteFile(withPrior, []byte(text), 0o600)
	dims := "region:" + hrc + ",sector"
	rep := auditJSON(t, 0, "--table", withPrior, "--dims", dims)
	if c := rep.Cells[0]; c.Cell != 4 || math.Abs(*c.Lower-15) > 1e-6 || math.Abs(*c.Upper-40) > 1e-6 {
		t.Errorf("prior_upper 40: %+v, want (N, a) in [15, 40]", c)
	}
	rep = auditJSON(t, 0, "--table", withPrior, "--dims", dims, "--prior", "percent=100")
	if c := rep.Cells[0]; math.Abs(*c.Lower-15) > 1e-6 || math.Abs(*c.Upper-45) > 1e-6 {
		t.Errorf("--prior percent=100: [%g, %g], want (N, a) in [15, 45]", *c.Lower, *c.Upper)
	}
}
