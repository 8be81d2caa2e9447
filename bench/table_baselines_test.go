package bench

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/primary"
)

// Without R (a front end that does not exist, or one that fails the
// package probe) the R tools are skipped: a report saying so, no error,
// and no row when only R tools were asked for.
func TestTableBaselinesSkipped(t *testing.T) {
	for _, rscript := range []string{filepath.Join(t.TempDir(), "no-such-Rscript"), "false"} {
		o := DefaultTableBaselinesOptions()
		o.Tools = []string{"sdcTable:HITAS", "GaussSuppression"}
		o.Rscript = rscript
		rep, err := TableBaselines(o)
		if err != nil {
			t.Fatalf("%s: %v", rscript, err)
		}
		if !strings.HasPrefix(rep.Skipped, "R/sdcTable not installed") || len(rep.Rows) != 0 {
			t.Errorf("%s: skipped %q, %d rows; want a skipped report", rscript, rep.Skipped, len(rep.Rows))
		}
		var b strings.Builder
		if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "skipped: R/sdcTable not installed") {
			t.Errorf("%s: text %q, %v", rscript, b.String(), err)
		}
	}
}

// Settings the tools cannot run are refused before anything runs.
func TestTableBaselinesSettings(t *testing.T) {
	for _, c := range []struct {
		field string
		edit  func(*TableBaselinesOptions)
	}{
		{"rules", func(o *TableBaselinesOptions) { o.Rules = "nk:1:85" }},
		{"rules", func(o *TableBaselinesOptions) { o.Rules = "p:12.5" }},
		{"rules", func(o *TableBaselinesOptions) { o.Rules = "freq:3,p:15" }},
		{"rules", func(o *TableBaselinesOptions) { o.Rules = "freq:3,zero:protect,safety:1" }},
		{"rules", func(o *TableBaselinesOptions) { o.Rules = "freq:x" }},
		{"cases", func(o *TableBaselinesOptions) { o.Cases = []string{"4way-9"} }},
		{"cases", func(o *TableBaselinesOptions) { o.Cases = nil }},
		{"tools", func(o *TableBaselinesOptions) { o.Tools = []string{"tau-argus"} }},
		{"time-limit", func(o *TableBaselinesOptions) { o.TimeLimit = -time.Second }},
	} {
		o := DefaultTableBaselinesOptions()
		o.Rscript = "false"
		c.edit(o)
		_, err := TableBaselines(o)
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != c.field {
			t.Errorf("%+v: error %v, want a settings error on %s", o, err, c.field)
		}
	}
}

// baselineTable is a 2 × 2 frequency table with margins, tabulated from 16
// records: (a1,b1) = 1, (a1,b2) = 5, (a2,b1) = 4, (a2,b2) = 6, so that
// freq:3 makes (a1,b1) the only primary cell (0 < 1 < 3; the margins are
// 6, 10, 5, 11 and the total 16).
func baselineTable(t *testing.T) *tabular.Table {
	t.Helper()
	var b strings.Builder
	b.WriteString("A,B\n")
	for _, c := range []struct {
		a, b string
		n    int
	}{{"a1", "b1", 1}, {"a1", "b2", 5}, {"a2", "b1", 4}, {"a2", "b2", 6}} {
		for range c.n {
			b.WriteString(c.a + "," + c.b + "\n")
		}
	}
	tab, err := tabular.ReadMicrodata(strings.NewReader(b.String()), "records.csv",
		[]tabular.DimSpec{{Column: "A"}, {Column: "B"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := primary.ParseRuleSet("freq:3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tabular.ApplyPrimary(tab, rs); err != nil {
		t.Fatal(err)
	}
	return tab
}

// pattern is a tool's output: the table file of baselineTable with the
// given statuses by cell ("a1/b1" → "primary"; unnamed cells "safe").
func pattern(t *testing.T, ours *tabular.Table, status map[string]string, value map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("A,B,value,freq,status\n")
	for i, c := range ours.Cells {
		codes := ours.Codes(i)
		key := strings.Join(codes, "/")
		st, v := "safe", datasets.FormatValue(c.Value)
		if s, ok := status[key]; ok {
			st = s
		}
		if s, ok := value[key]; ok {
			v = s
		}
		b.WriteString(codes[0] + "," + codes[1] + "," + v + "," + strconv.Itoa(c.Freq) + "," + st + "\n")
	}
	return b.String()
}

func readPattern(t *testing.T, ours *tabular.Table, text string) *tabular.Table {
	t.Helper()
	pat, err := tabular.ReadTableFile(strings.NewReader(text), "tool.csv", ours.Dims, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pat
}

// The audit of a tool's pattern, on baselineTable, checked by hand.
func TestAuditTable(t *testing.T) {
	ours := baselineTable(t)
	if ours.Len() != 9 {
		t.Fatalf("%d cells, want 9 (3 × 3 with margins)", ours.Len())
	}
	// Only the primary cell suppressed: the attacker recomputes it as the
	// row total minus the published part, 6 − 5 = 1, a one-point interval
	// short of the 10 % safety range [0.9, 1.1] of freq:3.
	var row TableBaselineRow
	if err := auditTable(&row, ours, readPattern(t, ours, pattern(t, ours, map[string]string{"a1/b1": "primary"}, nil)), ""); err != nil {
		t.Fatal(err)
	}
	if row.Primaries != 1 || row.PrimaryMismatch != 0 || row.Suppressed != 1 || row.SuppressedValue != 1 ||
		row.Secondary != 0 || row.SecondaryValue != 0 || row.UnderProtected != 1 || row.DisclosedPrimary != 1 || row.DisclosedSecondary != 0 {
		t.Errorf("lone primary: %+v", row)
	}
	if !strings.Contains(row.DisclosedExample, "A=a1, B=b1") || !strings.Contains(row.DisclosedExample, "1 in [1, 1]") ||
		!strings.Contains(row.UnderExample, "needs [0.9, 1.1]") {
		t.Errorf("examples: %q, %q", row.UnderExample, row.DisclosedExample)
	}

	// The four inner cells suppressed, the margins published: with
	// x11 + x12 = 6, x21 + x22 = 10, x11 + x21 = 5, x12 + x22 = 11 and
	// x ≥ 0, x11 ranges over [max(0, 6 − 11, 5 − 10), min(6, 5)] = [0, 5],
	// which holds [0.9, 1.1]; no suppressed cell is a point (x12 ∈ [1, 6],
	// x21 ∈ [0, 5], x22 ∈ [5, 10]). Suppressed total 1 + 5 + 4 + 6 = 16.
	inner := map[string]string{"a1/b1": "primary", "a1/b2": "secondary", "a2/b1": "secondary", "a2/b2": "secondary"}
	row = TableBaselineRow{}
	if err := auditTable(&row, ours, readPattern(t, ours, pattern(t, ours, inner, nil)), ""); err != nil {
		t.Fatal(err)
	}
	if row.Primaries != 1 || row.Suppressed != 4 || row.SuppressedValue != 16 || row.Secondary != 3 ||
		row.SecondaryValue != 15 || row.UnderProtected != 0 ||
		row.DisclosedPrimary != 0 || row.DisclosedSecondary != 0 || row.Engine == "" || row.AuditSeconds <= 0 {
		t.Errorf("inner cells: %+v", row)
	}

	// A tool that calls (a2,b1) primary too (freq 4, safe under freq:3)
	// differs from our rule on one cell; that cell gets no levels.
	inner["a2/b1"] = "primary"
	row = TableBaselineRow{}
	if err := auditTable(&row, ours, readPattern(t, ours, pattern(t, ours, inner, nil)), ""); err != nil {
		t.Fatal(err)
	}
	if row.Primaries != 2 || row.PrimaryMismatch != 1 || !strings.Contains(row.MismatchExample, "A=a2, B=b1") {
		t.Errorf("mismatch: %+v", row)
	}

	// A tool whose table is not ours (a value differs) is refused, naming
	// the cell.
	err := auditTable(&row, ours, readPattern(t, ours, pattern(t, ours, nil, map[string]string{"a2/b2": "7"})), "")
	if err == nil || !strings.Contains(err.Error(), "A=a2, B=b2") {
		t.Errorf("value mismatch: %v", err)
	}
}

// auditPattern reads the files the R script writes and refuses a
// hierarchy that is not the table's.
func TestAuditPatternFiles(t *testing.T) {
	ours := baselineTable(t)
	dir := t.TempDir()
	prefix := filepath.Join(dir, "tool")
	write := func(name, text string) {
		if err := os.WriteFile(prefix+name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".csv", pattern(t, ours, map[string]string{"a1/b1": "primary", "a1/b2": "secondary", "a2/b1": "secondary", "a2/b2": "secondary"}, nil))
	write(".A.hrc", "a1\na2\n")
	write(".B.hrc", "b1\nb2\n")
	var row TableBaselineRow
	if err := auditPattern(&row, ours, prefix, ""); err != nil {
		t.Fatal(err)
	}
	if row.Suppressed != 4 || row.DisclosedPrimary != 0 {
		t.Errorf("%+v", row)
	}
	write(".B.hrc", "b1\n@b2\n")
	if err := auditPattern(&row, ours, prefix, ""); err == nil || !strings.Contains(err.Error(), "not the hierarchy of dimension B") {
		t.Errorf("other hierarchy: %v", err)
	}
}

// The info file of a tool run: numbers, NA and a missing column.
func TestReadToolInfo(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.info.csv")
	text := `"tool","method","version","status","seconds","protect_seconds","check","check_seconds","check_cells","check_failures","message"` + "\n" +
		`"sdcTable:GAUSS","GAUSS","0.32.7","ok",1.5,NA,"attack",0.25,10,2,""` + "\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := readToolInfo(p)
	if err != nil {
		t.Fatal(err)
	}
	var row TableBaselineRow
	row.fill(info)
	if row.Status != "ok" || row.Version != "0.32.7" || row.ToolSeconds == nil || *row.ToolSeconds != 1.5 || row.ProtectSeconds != nil ||
		row.CheckSeconds == nil || *row.CheckSeconds != 0.25 || row.CheckFailures == nil || *row.CheckFailures != 2 || row.Check != "attack" {
		t.Errorf("%+v", row)
	}
	if err := os.WriteFile(p, []byte("tool,status\nx,ok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readToolInfo(p); err == nil || !strings.Contains(err.Error(), `no column "version"`) {
		t.Errorf("missing column: %v", err)
	}
}

// With R and the packages installed, and SDCOPT_BASELINES=1 (so that `make
// test` never depends on R or spends minutes in it): both tools on the
// 2-way preset. The tools apply the same rule as ours (under freq:3 the
// preset's 188 primary cells, tabular/synth's presets.go), publish our
// table's values, and GaussSuppression's own interval check counts the same
// exactly disclosed primary cells as our audit: both solve the attacker's
// LP over the same polytope (non-negative cells, the published ones
// fixed). So does sdcTable's attack() on the frequency table; on a
// magnitude table it bounds the frequencies, not the values, so it is not
// compared there. sdcopt:optimal runs alongside: its pattern must meet
// every level of our rule (its Solve audits against them).
func TestTableBaselinesR(t *testing.T) {
	if testing.Short() || os.Getenv("SDCOPT_BASELINES") != "1" {
		t.Skip("runs R for minutes: set SDCOPT_BASELINES=1 (without -short)")
	}
	for _, rules := range []string{"freq:3", "p:15"} {
		o := DefaultTableBaselinesOptions()
		o.Cases = []string{"2way-1300"}
		o.Tools = []string{"sdcTable:SIMPLEHEURISTIC", "GaussSuppression", SdcoptOptimalTool}
		o.Rules = rules
		rep, err := TableBaselines(o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Skipped != "" {
			t.Skip(rep.Skipped)
		}
		for _, r := range rep.Rows {
			if r.Status != "ok" {
				t.Errorf("%s %s: %s: %s", rules, r.Tool, r.Status, r.Message)
				continue
			}
			if r.PrimaryMismatch != 0 || r.Suppressed < r.Primaries || r.Cells != 1296 || (rules == "freq:3" && r.Primaries != 188) {
				t.Errorf("%s %s: %+v", rules, r.Tool, r)
			}
			if rules == "freq:3" || r.Tool == "GaussSuppression" {
				if r.CheckFailures == nil || *r.CheckFailures != r.DisclosedPrimary {
					t.Errorf("%s %s: the tool's check finds %v primary cells disclosed, our audit %d", rules, r.Tool, r.CheckFailures, r.DisclosedPrimary)
				}
			}
			if r.Tool == SdcoptOptimalTool && (r.UnderProtected != 0 || r.Suppressed != r.Primaries+r.Secondary) {
				t.Errorf("%s %s: our own pattern fails our audit: %+v", rules, r.Tool, r)
			}
			if r.ToolSeconds == nil || !(*r.ToolSeconds >= 0) || math.IsInf(*r.ToolSeconds, 0) {
				t.Errorf("%s %s: tool seconds %v", rules, r.Tool, r.ToolSeconds)
			}
		}
	}
}

// sdcopt:optimal on baselineTable, by hand: the primary cell (a1,b1) = 1
// needs another suppressed cell in its row (a1,b2) = 5 or (a1,Total) = 6,
// and one in its column (a2,b1) = 4 or (Total,b1) = 5, and the pattern
// must close into a cycle of relations. The four cycles through (a1,b1)
// cost (secondary values) 5 + 4 + 6 = 15 (the inner cells), 5 + 5 + 11 =
// 21 (with (Total,b1), (Total,b2)), 6 + 4 + 10 = 20 (with (a1,Total),
// (a2,Total)) and 6 + 5 + 16 = 27 (the margins and the grand total); any
// other protecting pattern contains one of them. So the optimum is the
// inner rectangle: 3 secondary cells of value 15, 16 with the primary,
// and the lower bound is 15 (within the MIP's relative gap, 1e-4 by
// default; we allow 1e-3). TestAuditTable audits the same pattern.
func TestTableBaselinesOptimalHand(t *testing.T) {
	ours := baselineTable(t)
	before := make([]tabular.Status, ours.Len())
	for i, c := range ours.Cells {
		before[i] = c.Status
	}
	row := TableBaselineRow{Tool: SdcoptOptimalTool}
	runOptimal(&row, ours, time.Minute, "")
	skipEngines(t, row)
	if row.Status != "ok" {
		t.Fatalf("%s: %s", row.Status, row.Message)
	}
	if row.Primaries != 1 || row.PrimaryMismatch != 0 || row.Secondary != 3 || row.Suppressed != 4 ||
		math.Abs(row.SecondaryValue-15) > 1e-9 || math.Abs(row.SuppressedValue-16) > 1e-9 {
		t.Errorf("pattern: %+v", row)
	}
	if row.Cost == nil || row.LowerBound == nil || row.Gap == nil || math.Abs(*row.Cost-15) > 1e-9 ||
		*row.LowerBound > *row.Cost+1e-9 || *row.LowerBound < 15*(1-1e-3) || *row.Gap > 1e-3 || row.Stop != "optimal" {
		t.Errorf("cost %v, bound %v, gap %v, stop %q; want 15, 15, 0, optimal", row.Cost, row.LowerBound, row.Gap, row.Stop)
	}
	if row.UnderProtected != 0 || row.DisclosedPrimary != 0 || row.DisclosedSecondary != 0 || row.CheckFailures == nil ||
		*row.CheckFailures != 0 || row.ToolSeconds == nil || row.Engine == "" {
		t.Errorf("audit: %+v", row)
	}
	for i, c := range ours.Cells {
		if c.Status != before[i] {
			t.Fatalf("cell %s: status changed to %v; the table must be left as it was", ours.CellName(i), c.Status)
		}
	}
}

// skipEngines skips the test when the row failed because no engine can
// run here (as elsewhere in the repo, unless SDCOPT_REQUIRE_ENGINES is set).
func skipEngines(t *testing.T, row TableBaselineRow) {
	t.Helper()
	if row.Status == "error" && strings.Contains(row.Message, "unavailable") && os.Getenv("SDCOPT_REQUIRE_ENGINES") == "" {
		t.Skip(row.Message)
	}
}

// Without R the sdcopt:optimal row still runs, on the same table and
// primary cells as the tools would get: the preset 2way-1300 under freq:3
// has 188 primary cells (tabular/synth's presets.go), and the pattern is
// safe by our audit. The report says why the R tools were skipped, in the
// text too.
func TestTableBaselinesOptimalWithoutR(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a 1,296-cell table")
	}
	o := DefaultTableBaselinesOptions()
	o.Rscript = filepath.Join(t.TempDir(), "no-such-Rscript")
	o.Cases = []string{"2way-1300"}
	o.Tools = []string{"GaussSuppression", SdcoptOptimalTool}
	o.TimeLimit = 5 * time.Minute
	rep, err := TableBaselines(o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Skipped, "R/sdcTable not installed") || len(rep.Rows) != 1 {
		t.Fatalf("skipped %q, %d rows; want the R tools skipped and one row", rep.Skipped, len(rep.Rows))
	}
	r := rep.Rows[0]
	skipEngines(t, r)
	if r.Tool != SdcoptOptimalTool || r.Status != "ok" || r.Cells != 1296 || r.Primaries != 188 || r.PrimaryMismatch != 0 {
		t.Fatalf("%+v", r)
	}
	if r.UnderProtected != 0 || r.DisclosedPrimary != 0 || r.DisclosedSecondary != 0 || r.Secondary <= 0 ||
		r.Suppressed != r.Primaries+r.Secondary || r.SecondaryValue >= r.SuppressedValue {
		t.Errorf("pattern or audit: %+v", r)
	}
	// The cost of the pattern is its secondary value (costs are values).
	if r.Cost == nil || math.Abs(*r.Cost-r.SecondaryValue) > 1e-6*math.Max(1, r.SecondaryValue) ||
		r.LowerBound == nil || *r.LowerBound > *r.Cost*(1+1e-9) || r.Gap == nil || *r.Gap < 0 || *r.Gap > 1 {
		t.Errorf("cost %v, bound %v, gap %v; secondary value %g", r.Cost, r.LowerBound, r.Gap, r.SecondaryValue)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.Contains(text, "skipped: R/sdcTable not installed") || !strings.Contains(text, "2way-1300  1296   sdcopt:optimal") ||
		!strings.Contains(text, "VALUE SEC") {
		t.Errorf("text:\n%s", text)
	}
}
