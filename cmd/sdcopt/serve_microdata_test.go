package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/server"
)

// writeMicro writes seeded microdata (a column that is not a variable,
// then A, B binary, C with 3 levels, D with 4) and returns its path.
func writeMicro(t *testing.T, dir string, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(24, 25))
	var b strings.Builder
	b.WriteString("id,A,B,C,D\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "r%d,a%d,b%d,c%d,d%d\n", i, r.IntN(2), r.IntN(2), r.IntN(3), r.IntN(4))
	}
	p := filepath.Join(dir, "micro.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServeMicrodata: `serve load --microdata --vars` stores microdata
// (bad input exits 2 naming the problem); the running service decides on
// it over HTTP as audit.NewMicrodata does, keeps the history, and the
// analysts' page in headless Chromium requests a margin and shows it in
// the history.
func TestServeMicrodata(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	micro := writeMicro(t, dir, 80)
	for _, bad := range [][]string{
		{"--microdata", micro},
		{"--microdata", micro, "--vars", "A,Z"},
		{"--microdata", micro, "--vars", "A", "--table", micro},
		{"--vars", "A"},
	} {
		args := append([]string{"serve", "load", "--db", db, "--name", "bad"}, bad...)
		if _, msg, code := run(t, args...); code != 2 || msg == "" {
			t.Errorf("%v: exit %d %q, want 2 with a message", bad, code, msg)
		}
	}
	out, msg, code := run(t, "serve", "load", "--db", db, "--name", "micro", "--microdata", micro, "--vars", "A,B,C,D", "--max-cells", "100000")
	if code != 0 || !strings.Contains(out, "microdata, 80 records over 4 variables (48 cells, never built)") {
		t.Fatalf("serve load --microdata: exit %d %q %s", code, out, msg)
	}
	md, err := datasets.LoadMicrodata(micro, []string{"A", "B", "C", "D"}, "")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := audit.NewMicrodata(md, audit.DefaultPolicy(), audit.Options{}, audit.MicrodataOptions{MaxCells: 100000})
	if err != nil {
		t.Fatal(err)
	}
	h := ref.NewHistory()
	s := startServer(t, db)
	bg := context.Background()
	outcomes := map[string]int{}
	for i, m := range [][]string{{"A"}, {"B", "C"}, {"A", "D"}, {"C", "D"}, {"A", "B", "D"}} {
		got, _, err := s.client.Request(bg, "micro", m, "", fmt.Sprintf("m%d", i), "tester")
		if err != nil {
			t.Fatalf("request %v: %v", m, err)
		}
		want, err := ref.Decide(h, audit.Request{Margin: m})
		if err != nil {
			t.Fatal(err)
		}
		h.Append(want)
		outcomes[want.Outcome]++
		if got.Outcome != want.Outcome || !slices.Equal(got.Counts, want.Counts) {
			t.Errorf("request %v: service %s %v, auditor %s %v", m, got.Outcome, got.Counts, want.Outcome, want.Counts)
		}
	}
	rel, err := s.client.Releases(bg, "micro")
	if err != nil || len(rel) != len(h.Releases) || outcomes[audit.Released] == 0 {
		t.Fatalf("releases: %d stored, %d in the history (%v), outcomes %v", len(rel), len(h.Releases), err, outcomes)
	}

	// The page: request B alone (implied by B x C) and find it in the
	// history.
	ctx := browser(t)
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/"),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
		chromedp.Click(css(`#var-B`)),
		chromedp.Click(css(`#request`)),
		chromedp.WaitVisible(css(`#outcome`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	outcome, err := chromedp.Run(ctx, chromedp.Text(css(`#outcome`)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Decide(h, audit.Request{Margin: []string{"B"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(outcome), want.Outcome) {
		t.Errorf("page outcome %q, the auditor says %s", outcome, want.Outcome)
	}
	if want.Outcome == audit.Released {
		id := fmt.Sprintf(`#history tr#release-%d`, len(h.Releases)+1)
		if err := chromedp.Do(ctx, chromedp.WaitVisible(css(id))); err != nil {
			t.Errorf("the page's history lacks %s: %v", id, err)
		}
	}
	summary, err := chromedp.Run(ctx, chromedp.Text(css(`#table-summary`)))
	if err != nil || !strings.Contains(summary, "4 variables") {
		t.Errorf("table summary %q %v", summary, err)
	}
	// The operator's page shows the options of the load (issue 44,
	// item 13).
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.client.Base+"/operator.html"),
		chromedp.SetValue(css(`#op-token`), testToken),
		chromedp.Click(css(`#op-signin`)),
		chromedp.WaitVisible(css(`body[data-ready="true"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	info, err := chromedp.Run(ctx, chromedp.Text(css(`#op-info`)))
	if err != nil || !strings.Contains(info, "80 records; levels sorted; no level merged; max cells 100,000; protect collapsed: no") {
		t.Errorf("operator's table view %q %v", info, err)
	}
}

// `serve load --microdata` stores the levels in canonical order, not in
// order of first appearance (the first record, alone in c2 and in 10,
// would be published with them); --min-level-count merges the levels
// held by fewer records into "(other)"; the load line and the operator's
// view show the options (issue 44, item 3).
func TestServeLoadMicrodataLevels(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sdc.db")
	micro := writeTemp(t, "rare.csv", "id,A,C,D\n1,a1,c2,10\n2,a0,c0,9\n3,a0,c1,2\n4,a1,c0,9\n5,a0,c1,2\n6,a1,c0,9\n")
	for _, tc := range []struct {
		name string
		args []string
		out  string
		want map[string][]string
	}{
		{"sorted", nil, "levels sorted", map[string][]string{"A": {"a0", "a1"}, "C": {"c0", "c1", "c2"}, "D": {"2", "9", "10"}}},
		{"merged", []string{"--min-level-count", "2"}, "levels held by fewer than 2 records merged into (other)",
			map[string][]string{"A": {"a0", "a1"}, "C": {"c0", "c1", "(other)"}, "D": {"2", "9", "(other)"}}},
	} {
		args := append([]string{"serve", "load", "--db", db, "--name", tc.name, "--microdata", micro, "--vars", "A,C,D"}, tc.args...)
		out, msg, code := run(t, args...)
		if code != 0 || !strings.Contains(out, tc.out) {
			t.Errorf("%v: exit %d %q %s, want %q", tc.args, code, out, msg, tc.out)
			continue
		}
		store, err := server.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		info, err := store.Table(context.Background(), tc.name)
		store.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range info.Vars {
			if !slices.Equal(v.Levels, tc.want[v.Name]) {
				t.Errorf("%v: levels of %s %v, want %v", tc.args, v.Name, v.Levels, tc.want[v.Name])
			}
		}
	}
	// --min-level-count needs --microdata, and a count.
	for _, bad := range [][]string{
		{"--table", micro, "--min-level-count", "2"},
		{"--microdata", micro, "--vars", "A", "--min-level-count", "-1"},
	} {
		args := append([]string{"serve", "load", "--db", db, "--name", "bad"}, bad...)
		if _, msg, code := run(t, args...); code != 2 || !strings.Contains(msg, "--min-level-count") {
			t.Errorf("%v: exit %d %q, want 2 naming --min-level-count", bad, code, msg)
		}
	}
}
