package bench

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"

	"github.com/sdcopt/sdcopt/tabular"
)

// TestTableProtectLinked protects the small linked preset jointly with
// the fast method and checks the row: the System's size (1,872 cells,
// the hand computation of synth's linked-2000: 36·36 + 36·17 − 36), two
// tables, a pattern with secondary cells, and our audit finding no
// primary cell under-protected or disclosed, in agreement with Solve's
// own audit. The text report names the case.
func TestTableProtectLinked(t *testing.T) {
	o := DefaultTableProtectOptions()
	o.Cases = []string{"linked-2000:fast"}
	o.Keep = t.TempDir()
	rep, err := TableProtect(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	r := rep.Rows[0]
	if r.Status != "ok" {
		t.Fatalf("status %s: %s", r.Status, r.Message)
	}
	if r.Cells != 1872 || r.Tables != 2 || r.Method != "fast" || r.Primary == 0 {
		t.Errorf("row %+v", r)
	}
	if r.Secondary == 0 || !(r.Cost > 0) {
		t.Errorf("secondary %d, cost %g: a freq:3 pattern needs secondary cells", r.Secondary, r.Cost)
	}
	if r.Failures != 0 || r.UnderProtected != 0 || r.DisclosedPrimary != 0 || !r.SolveAuditOK {
		t.Errorf("audit: %d failures (%d under-protected, %d disclosed), Solve's audit ok %v; %s", r.Failures, r.UnderProtected,
			r.DisclosedPrimary, r.SolveAuditOK, r.Example)
	}
	if r.LowerBound != nil || r.Gap != nil {
		t.Errorf("the fast method proves no bound, got %v, %v", r.LowerBound, r.Gap)
	}
	// The kept JJ file is the protected system: every cell, the pattern's
	// secondary cells, and mode 0600.
	path := filepath.Join(o.Keep, "linked-2000-fast.jj")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v, %v; want 0600", path, st.Mode().Perm(), err)
	}
	ls, err := tabular.ReadJJ(f, path)
	if err != nil {
		t.Fatal(err)
	}
	sec := 0
	for _, c := range ls.Cells {
		if c.Status == tabular.Secondary {
			sec++
		}
	}
	if len(ls.Cells) != r.Cells || sec != r.Secondary {
		t.Errorf("kept JJ: %d cells, %d secondary; want %d, %d", len(ls.Cells), sec, r.Cells, r.Secondary)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "linked-2000:fast") {
		t.Errorf("text report without the case:\n%s", buf.String())
	}
	if figs, err := rep.Figures(); err != nil || len(figs) != 0 {
		t.Errorf("fast case: %d figures, %v; want none (no lower bound to draw)", len(figs), err)
	}
	// With a row of the optimal method beside it (a made-up trace), the
	// report renders as text, CSV and JSON and draws that row's figure.
	lb, gap := 230.0, 0.01
	both := *rep
	both.Rows = append(slices.Clone(rep.Rows), TableProtectRow{Case: "x:optimal", Preset: "x", Method: "optimal", Status: "ok",
		Cost: 232, LowerBound: &lb, Gap: &gap, Trace: []TracePoint{{1, 0, 0}, {2, 9000, 200}, {3, 232, 230}}})
	checkRenders(t, &both)
}

// TestTableProtectOptimal runs the optimal method on 2way-1300 (skipped
// under -short: seconds) and checks that the known optimum lies between
// the proven bound and the pattern's cost, that our audit passes and
// that the trace draws one figure on a log axis. The optimum, 232, is
// sdcopt:optimal's on this case in bench/README.md (table-baselines,
// freq:3: cost 232, bound 232, gap 0.00 %); any correct run brackets it,
// whether it stops at the optimum or at the limit.
func TestTableProtectOptimal(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of branch and cut")
	}
	o := DefaultTableProtectOptions()
	o.Cases = []string{"2way-1300:optimal"}
	o.TimeLimit = 5 * time.Minute
	rep, err := TableProtect(o)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Rows[0]
	if r.Status != "ok" || r.LowerBound == nil || r.Gap == nil {
		t.Fatalf("row %+v", r)
	}
	const optimum = 232
	if *r.LowerBound > optimum+1e-6 || r.Cost < optimum-1e-6 {
		t.Errorf("bound %g, cost %g: the optimum %d is not between them", *r.LowerBound, r.Cost, optimum)
	}
	if r.Failures != 0 {
		t.Errorf("%d audit failures: %s", r.Failures, r.Example)
	}
	figs, err := rep.Figures()
	if err != nil || len(figs) != 1 || figs[0].Name != "suppress-trace-2way-1300" {
		t.Fatalf("figures %v, %v", figs, err)
	}
	if _, ok := figs[0].Plot.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("cost axis %T, want log (the first incumbent is far above the optimum)", figs[0].Plot.Y.Scale)
	}
}

// TestTableProtectSettings: bad cases and options are SettingsErrors
// naming the field.
func TestTableProtectSettings(t *testing.T) {
	for _, c := range []struct {
		mod   func(*TableProtectOptions)
		field string
	}{
		{func(o *TableProtectOptions) { o.Cases = []string{"4way-9:fast"} }, "cases"},
		{func(o *TableProtectOptions) { o.Cases = []string{"2way-1300:slow"} }, "cases"},
		{func(o *TableProtectOptions) { o.Cases = nil }, "cases"},
		{func(o *TableProtectOptions) { o.Rules = "freq:x" }, "rules"},
		{func(o *TableProtectOptions) { o.Cost = "gold" }, "cost"},
		{func(o *TableProtectOptions) { o.Zero = "sometimes" }, "zero"},
		{func(o *TableProtectOptions) { o.TimeLimit = -time.Second }, "time-limit"},
	} {
		o := DefaultTableProtectOptions()
		c.mod(o)
		_, err := TableProtect(o)
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != c.field {
			t.Errorf("%s: err %v, want a SettingsError on %s", c.field, err, c.field)
		}
	}
}
