package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// insiderTable is a table file with a freq column: (a1, b1) = 20 is
// primary with levels 0.5, protected by the rectangle (a1|a2, b1|b2)
// whose corner (a1, b2) = 9 has one contributor. The outsider's interval
// of (a1, b1): t ∈ [−min(20, 25), min(9, 30)] = [−20, 9], [0, 29] ⊇
// [19.5, 20.5]. The singleton knows (a1, b2) = 9, so t = 0 and (a1, b1)
// = 20 exactly (hand computation).
const insiderTable = `region,sector,value,freq,status,upper,lower
Total,Total,159,14,safe,0,0
Total,b1,50,6,safe,0,0
Total,b2,34,4,safe,0,0
Total,b3,75,4,safe,0,0
a1,Total,69,6,safe,0,0
a1,b1,20,3,primary,0.5,0.5
a1,b2,9,1,secondary,0,0
a1,b3,40,2,safe,0,0
a2,Total,90,8,safe,0,0
a2,b1,30,3,secondary,0,0
a2,b2,25,3,secondary,0,0
a2,b3,35,2,safe,0,0
`

func TestTableAuditInsiders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "insider.csv")
	if err := os.WriteFile(path, []byte(insiderTable), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"table", "audit", "--table", path, "--dims", "region,sector"}
	stdout, msg, code := run(t, args...)
	if code != 1 || !strings.Contains(msg, "0 under-protected") || !strings.Contains(msg, "1 insider finding(s)") ||
		!strings.Contains(msg, "cell (region=a1, sector=b2) puts (region=a1, sector=b1) 20 in [20, 20]") || strings.Contains(msg, "\n") {
		t.Fatalf("exit %d %q, want 1 naming the insider\n%s", code, msg, stdout)
	}
	for _, w := range []string{"under-protected 0", "insiders        FAIL (1 audited of 1 found",
		"insider breaks  (region=a1, sector=b1): 20 in [20, 20] to cell (region=a1, sector=b2), needs [19.5, 20.5] (levels, exactly disclosed)"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("report lacks %q:\n%s", w, stdout)
		}
	}
	// --insiders=false: the plain audit alone passes.
	if stdout, msg, code = run(t, append(args, "--insiders=false")...); code != 0 || strings.Contains(stdout, "insiders ") {
		t.Errorf("--insiders=false: exit %d %s\n%s", code, msg, stdout)
	}
	stdout, _, code = run(t, append(args, "--format", "json")...)
	var rep tableAuditReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 {
		t.Fatalf("json: exit %d %v\n%s", code, err, stdout)
	}
	ins := rep.Insiders
	if rep.Pass || ins == nil || !ins.Ran || ins.Pass || len(ins.Insiders) != 1 || ins.Insiders[0].Kind != "cell" ||
		len(ins.Findings) != 1 || ins.Findings[0].Insider != "cell (region=a1, sector=b2)" || !ins.Findings[0].Disclosed ||
		ins.Findings[0].NeedUpper != 20.5 || ins.Findings[0].ShortAbove != 0.5 {
		t.Errorf("json insiders %+v", ins)
	}
	stdout, _, code = run(t, append(args, "--format", "csv")...)
	if code != 1 || !strings.Contains(stdout, "\ncheck,insider,cell,name,value,lower,upper,own,requirement,need_lower,need_upper,verdict\n") ||
		!strings.Contains(stdout, `insider,"cell (region=a1, sector=b2)",5,"region=a1, sector=b1",20,20,20,0,levels,19.5,20.5,disclosed`) {
		t.Errorf("csv: exit %d\n%s", code, stdout)
	}
	// Without a freq column the section says why it did not run.
	noFreq := filepath.Join(t.TempDir(), "nofreq.csv")
	os.WriteFile(noFreq, []byte(strings.NewReplacer(",freq,", ",", ",14,", ",", ",6,", ",", ",4,", ",", ",3,", ",", ",1,", ",", ",2,", ",", ",8,", ",").Replace(insiderTable)), 0o644)
	stdout, msg, code = run(t, "table", "audit", "--table", noFreq, "--dims", "region,sector")
	if code != 0 || !strings.Contains(stdout, "insiders        not audited: the table has no freq column") {
		t.Errorf("no freq: exit %d %s\n%s", code, msg, stdout)
	}
}
