package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// colgenDoc is the JSON of `sdcopt microagg --method colgen`.
type colgenDoc struct {
	Method        string             `json:"method"`
	N             int                `json:"n"`
	K             int                `json:"k"`
	SSE           float64            `json:"sse"`
	SST           float64            `json:"sst"`
	IL            float64            `json:"il"`
	MinGroup      int                `json:"min_group"`
	Solver        string             `json:"solver"`
	PricingSolver string             `json:"pricing_solver"`
	LowerBound    *float64           `json:"lower_bound"`
	LPBound       *float64           `json:"lp_bound"`
	GapPercent    *float64           `json:"gap_percent"`
	Exact         *bool              `json:"exact"`
	Converged     bool               `json:"converged"`
	Iterations    *int               `json:"iterations"`
	Columns       *int               `json:"columns"`
	Stopped       string             `json:"stopped"`
	StoppedPhase  string             `json:"stopped_phase"`
	BoundKind     string             `json:"bound_kind"`
	MaxGroup      int                `json:"max_group"`
	Nodes         *int               `json:"nodes"`
	Heuristics    map[string]float64 `json:"heuristic_sse"`
	SubsetRowCuts int                `json:"subset_row_cuts"`
}

func runColgenJSON(t *testing.T, args ...string) colgenDoc {
	t.Helper()
	out, msg, code := run(t, append([]string{"microagg", "--format", "json", "--method", "colgen"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var doc colgenDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if doc.LowerBound == nil || doc.GapPercent == nil || doc.Exact == nil || doc.Iterations == nil || doc.Columns == nil || doc.LPBound == nil {
		t.Fatalf("JSON lacks a colgen field:\n%s", out)
	}
	return doc
}

func TestMicroaggColgen(t *testing.T) {
	data := []string{"--data", "synthetic:gauss-60-3-4:7", "--k", "3"}
	mdav := runMicroaggJSON(t, append(data, "--method", "mdav")...)
	doc := runColgenJSON(t, data...)
	if doc.Method != "colgen" || doc.N != 60 || doc.MinGroup < 3 || *doc.Iterations < 1 || *doc.Columns < 1 {
		t.Fatalf("unexpected document %+v", doc)
	}
	if *doc.LowerBound > doc.SSE*(1+1e-9) || *doc.LPBound > *doc.LowerBound*(1+1e-9) {
		t.Errorf("bounds %g (LP %g) above the SSE %g", *doc.LowerBound, *doc.LPBound, doc.SSE)
	}
	if doc.SSE > mdav.SSE*(1+1e-12) || math.Abs(doc.Heuristics["mdav"]-mdav.SSE) > 1e-9*mdav.SSE {
		t.Errorf("SSE %g, MDAV %g (reported %g)", doc.SSE, mdav.SSE, doc.Heuristics["mdav"])
	}
	if want := 100 * (doc.SSE - *doc.LowerBound) / doc.SSE; math.Abs(*doc.GapPercent-want) > 1e-9 {
		t.Errorf("gap_percent %g, want %g", *doc.GapPercent, want)
	}
	if !doc.Converged || doc.Stopped != "converged" {
		t.Errorf("not converged: %s", doc.Stopped)
	}
	// Two engines on one model: the converged master LP value is unique.
	// (HiGHS-wasm is slow on the set-partitioning IP of the closing stage:
	// left out; lp_solve also solves the pricing ILP here.)
	for engine, extra := range map[string][]string{"highs": {"--no-close"}, "lpsolve": {"--exact", "ep"}} {
		other := runColgenJSON(t, append(append(data, "--solver", engine), extra...)...)
		if other.Solver != engine || math.Abs(*other.LPBound-*doc.LPBound) > 1e-6*math.Max(1, *doc.LPBound) {
			t.Errorf("--solver %s: solver %s, LP bound %.10g, default %.10g", engine, other.Solver, *other.LPBound, *doc.LPBound)
		}
		if other.PricingSolver != engine {
			t.Errorf("--solver %s: pricing solver %s", engine, other.PricingSolver)
		}
	}
	// A time limit still returns a valid clustering and bound.
	lim := runColgenJSON(t, append(data, "--time-limit", "0.000001")...)
	if lim.MinGroup < 3 || *lim.LowerBound > lim.SSE*(1+1e-9) {
		t.Errorf("time limit: %+v", lim)
	}
	// Even stopped at once, a positive bound (the nearest-neighbour
	// bound) and the phase that hit the limit are reported.
	if !(*lim.LowerBound > 0) || lim.BoundKind == "" || lim.Stopped != "time_limit" || lim.StoppedPhase == "" {
		t.Errorf("time limit: bound %g (%q), stopped %q in %q", *lim.LowerBound, lim.BoundKind, lim.Stopped, lim.StoppedPhase)
	}
	// The default run starts from ICSM: never worse than --method icsm.
	icsm := runMicroaggJSON(t, append(data, "--method", "icsm")...)
	if doc.SSE > icsm.SSE*(1+1e-12) || doc.MaxGroup >= 6 || doc.Nodes == nil || doc.BoundKind == "" {
		t.Errorf("colgen SSE %g (max group %d, bound kind %q), icsm %g", doc.SSE, doc.MaxGroup, doc.BoundKind, icsm.SSE)
	}
	out, msg, code := run(t, append(append([]string{"microagg"}, data...), "--method", "colgen")...)
	for _, want := range []string{"method    colgen", "bound     ", "gap ", "exact: ", "heuristic mdav", "master solves"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("text output lacks %q: exit %d %s\n%s", want, code, msg, out)
		}
	}
}

// TestMicroaggColgenSubsetRowCuts: the default run (with subset-row
// cuts) gives a bound between the LP bound of the run with
// --no-subset-row-cuts and the SSE, and reports its cuts.
func TestMicroaggColgenSubsetRowCuts(t *testing.T) {
	data := []string{"--data", "synthetic:gauss-60-3-4:7", "--k", "3", "--no-close", "--no-branch", "--no-icsm"}
	plain := runColgenJSON(t, append(data, "--no-subset-row-cuts")...)
	cuts := runColgenJSON(t, data...)
	if *cuts.LowerBound > cuts.SSE*(1+1e-9) || *cuts.LowerBound < *plain.LPBound*(1-1e-9) {
		t.Errorf("bound with cuts %.10g, plain LP bound %.10g, SSE %.10g", *cuts.LowerBound, *plain.LPBound, cuts.SSE)
	}
	if cuts.SubsetRowCuts == 0 || plain.SubsetRowCuts != 0 {
		t.Errorf("cuts in the master: %d by default, %d with --no-subset-row-cuts", cuts.SubsetRowCuts, plain.SubsetRowCuts)
	}
	// The deprecated --subset-row-cuts=false turns them off too.
	if off := runColgenJSON(t, append(data, "--subset-row-cuts=false")...); off.SubsetRowCuts != 0 {
		t.Errorf("--subset-row-cuts=false: %d cuts", off.SubsetRowCuts)
	}
}

func TestMicroaggColgenBadInput(t *testing.T) {
	data := []string{"--data", "synthetic:gauss-60-3-4:7", "--k", "3"}
	cases := []badInputCase{
		{[]string{"--exact", "ce"}, []string{"--exact", "colgen only", "mdav"}},
		{[]string{"--method", "icsm", "--solver", "clp"}, []string{"--solver", "colgen only", "icsm"}},
		{[]string{"--method", "colgen", "--exact", "bogus"}, []string{`unknown --exact "bogus"`}},
		{[]string{"--method", "colgen", "--solver", "nosuch"}, []string{"--solver", "nosuch"}},
		{[]string{"--method", "colgen", "--pricing-solver", "clp"}, []string{"--pricing-solver clp", "MIP"}},
		{[]string{"--method", "colgen", "--ce-columns", "-1"}, []string{"--ce-columns", "-1"}},
		{[]string{"--method", "colgen", "--close-columns", "-1"}, []string{"--close-columns", "-1"}},
		{[]string{"--method", "colgen", "--time-limit", "-1"}, []string{"--time-limit", "-1"}},
		{[]string{"--method", "colgen", "--max-iter", "-1"}, []string{"--max-iter", "-1"}},
		{[]string{"--method", "colgen", "--icsm-time-limit", "-1"}, []string{"--icsm-time-limit", "-1"}},
		{[]string{"--method", "colgen", "--no-icsm", "--icsm-time-limit", "5"}, []string{"--icsm-time-limit", "--no-icsm"}},
		{[]string{"--method", "mdav", "--no-branch"}, []string{"--no-branch", "colgen only"}},
		{[]string{"--method", "colgen", "--stabilize", "bogus"}, []string{`unknown --stabilize "bogus"`}},
		{[]string{"--method", "mdav", "--stabilize", "box"}, []string{"--stabilize", "colgen only"}},
		{[]string{"--method", "icsm", "--no-subset-row-cuts"}, []string{"--no-subset-row-cuts", "colgen only"}},
		{[]string{"--method", "colgen", "--k", "61"}, []string{"--k 61 exceeds"}},
	}
	expectBadInput(t, append([]string{"microagg"}, data...), cases)
}

func TestBenchColgen(t *testing.T) {
	skipWithoutShared(t)
	out, msg, code := run(t, "bench", "colgen", "--data", "census", "--n", "30", "--k", "3,5", "--criteria", "rand,l2d",
		"--instances", "2", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	var doc struct {
		Rows []struct {
			N, K      int
			Criterion string  `json:"criterion"`
			GapMDAV   float64 `json:"gap_mdav"`
			GapBest   float64 `json:"gap_best"`
			BoundOK   bool    `json:"bound_below_every_heuristic"`
			Published *struct {
				MSTH float64
			} `json:"published"`
			Instances []struct {
				SSE        float64 `json:"sse"`
				LowerBound float64 `json:"lower_bound"`
				MDAV       float64 `json:"sse_mdav"`
			} `json:"instances"`
		} `json:"rows"`
		BoundFailures int `json:"bound_failures"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if len(doc.Rows) != 4 || doc.BoundFailures != 0 {
		t.Fatalf("%d rows, %d bound failures", len(doc.Rows), doc.BoundFailures)
	}
	for _, r := range doc.Rows {
		if len(r.Instances) != 2 || !r.BoundOK || r.Published == nil || r.GapBest > r.GapMDAV {
			t.Errorf("row n=%d k=%d %s: %+v", r.N, r.K, r.Criterion, r)
		}
		for _, in := range r.Instances {
			if in.LowerBound > in.SSE*(1+1e-9) || in.SSE > in.MDAV*(1+1e-12) {
				t.Errorf("row n=%d k=%d %s: %+v", r.N, r.K, r.Criterion, in)
			}
		}
	}
	// Text: the table and the published columns.
	txt, msg, code := run(t, "bench", "colgen", "--data", "tarragona", "--n", "30", "--k", "3", "--criteria", "cons", "--instances", "1", "--quiet")
	for _, want := range []string{"Table 4 (Tarragona)", "P.MSTH", "PI*", "lower bound <= SSE of every heuristic on every instance: yes"} {
		if code != 0 || !strings.Contains(txt, want) {
			t.Errorf("text lacks %q: exit %d %s\n%s", want, code, msg, txt)
		}
	}
	for _, bad := range [][]string{{"--data", "eia"}, {"--criteria", "foo"}, {"--n", "1"}, {"--instances", "0"}, {"--k", "1"},
		{"--n", "2000"}, {"--exact", "x"}, {"--format", "yaml"}, {"--close-columns", "-1"}, {"--max-iter", "-1"}} {
		_, msg, code := run(t, append([]string{"bench", "colgen", "--quiet"}, bad...)...)
		if code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, msg)
		}
	}
}

func TestBenchMicroaggFull(t *testing.T) {
	for _, bad := range [][]string{{"--data", "adult"}, {"--k", "1"}, {"--time-limit", "0"}, {"--groups", "/nonexistent/dir"},
		{"--exact", "x"}, {"--restarts", "-1"}} {
		_, msg, code := run(t, append([]string{"bench", "microagg-full", "--quiet"}, bad...)...)
		if code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, msg)
		}
	}
	if testing.Short() {
		t.Skip("a 10 s run on Tarragona")
	}
	skipWithoutShared(t)
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.json")
	out, msg, code := run(t, "bench", "microagg-full", "--data", "tarragona", "--k", "5", "--time-limit", "10", "--groups", dir, "--quiet",
		"--certificates", cert, "--plot", dir)
	for _, want := range []string{"P.ICSM", "tarragona", "20.2500", "BOUND AT s"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("text lacks %q: exit %d %s\n%s", want, code, msg, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "microagg-full-tarragona-k5.png")); err != nil {
		t.Errorf("no trace figure: %v", err)
	}
	// The certificate is recomputed from the data without an engine.
	out, msg, code = run(t, "bench", "check-certificates", "--in", cert, "--quiet")
	if code != 0 || !strings.Contains(out, "1 of 1 certificates prove their bound") {
		t.Errorf("check-certificates: exit %d %s\n%s", code, msg, out)
	}
	// A raised bound is refused: the report says which case fails, exit 1.
	b, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`"bound": [0-9.e+-]+`).ReplaceAll(b, []byte(`"bound": 1e9`))
	if err := os.WriteFile(cert, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	out, msg, code = run(t, "bench", "check-certificates", "--in", cert, "--quiet")
	if code != 1 || !strings.Contains(out, "0 of 1 certificates prove their bound") || !strings.Contains(msg, "tarragona k = 5") {
		t.Errorf("raised bound not refused: exit %d %s\n%s", code, msg, out)
	}
	if _, msg, code := run(t, "bench", "check-certificates", "--in", filepath.Join(dir, "none.json"), "--quiet"); code != 2 {
		t.Errorf("missing file: exit %d (%s), want 2", code, msg)
	}
}

// TestColgenProgressNamesPhases: piped, the progress lines name every
// phase the run went through with the bound, its kind, the incumbent and
// the gap (a change of phase is never held back by the rate limit).
func TestColgenProgressNamesPhases(t *testing.T) {
	p := runSdcopt(t, t.TempDir(), "microagg", "--format", "json", "--method", "colgen", "--data", "synthetic:gauss-60-3-4:7", "--k", "3", "--no-branch")
	msg := p.stderr
	if p.code != 0 {
		t.Fatalf("exit %d: %s", p.code, msg)
	}
	for _, want := range []string{"colgen: start (MDAV, V-MDAV, ICSM): bound ", "colgen: master: iteration 1, ", "(nearest_neighbour), best SSE ", ", gap ", "colgen: gap closing: bound "} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr lacks %q:\n%s", want, msg)
		}
	}
}
