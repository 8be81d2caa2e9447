package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// TestMicroaggMissingAdvice: issue 44, item 19. The error on a missing
// value advised "see --missing", a flag sdcopt-pipeline microagg did not
// have: every flag an error names must be one of the command's, and
// --missing drop and impute-mean work as in sdcopt microagg.
func TestMicroaggMissingAdvice(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "miss.csv")
	if err := os.WriteFile(data, []byte("a,b\n1.5,2\n,3\n4,5\n6,7\n8,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := run("microagg", "--data", data, "--cols", "a,b", "--k", "2")
	if cli.Code(err) != cli.ExitBadInput || !strings.Contains(err.Error(), "miss.csv:3") {
		t.Fatalf("exit %d (%v), want 2 naming miss.csv:3", cli.Code(err), err)
	}
	flags := newMicroaggCmd().Flags()
	for _, m := range regexp.MustCompile(`--[a-z][a-z-]*`).FindAllString(err.Error(), -1) {
		if flags.Lookup(m[2:]) == nil {
			t.Errorf("the message advises %s, which sdcopt-pipeline microagg does not have: %v", m, err)
		}
	}
	for policy, rows := range map[string]int{"drop": 4, "impute-mean": 5} {
		out := filepath.Join(dir, policy+".csv")
		if _, err := run("microagg", "--data", data, "--cols", "a,b", "--k", "2", "--missing", policy, "--out", out); err != nil {
			t.Fatalf("--missing %s: %v", policy, err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(b), "\n") - 1; got != rows {
			t.Errorf("--missing %s: %d records published, want %d:\n%s", policy, got, rows, b)
		}
	}
	if _, err := run("microagg", "--data", data, "--cols", "a,b", "--k", "2", "--missing", "zero"); cli.Code(err) != cli.ExitBadInput {
		t.Errorf("--missing zero: exit %d (%v), want 2", cli.Code(err), err)
	}
}

// TestMicroaggDigits: issue 44, item 19. The protected file was written
// in full precision (0.9107999999999999 for data of two decimals), with
// no --digits: as in sdcopt microagg, --digits source (the default) gives
// each column its file's decimals, full the full precision, N decimals N.
func TestMicroaggDigits(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 60 {
		// a has two decimals, b none.
		b.WriteString(strings.Join([]string{
			[]string{"0.91", "0.92", "0.95", "1.07", "0.33", "2.18", "0.05"}[i%7],
			[]string{"10", "11", "13", "17", "19"}[i%5]}, ",") + "\n")
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	decimals := regexp.MustCompile(`\.([0-9]+)`)
	for _, tc := range []struct {
		digits  string
		maxA    int // most decimals in column a
		maxB    int
		minLong int // at least one value of a with this many decimals
	}{
		{"", 2, 0, 0},
		{"source", 2, 0, 0},
		{"1", 1, 1, 0},
		{"full", 17, 17, 10},
	} {
		out := filepath.Join(dir, "p"+tc.digits+".csv")
		args := []string{"microagg", "--data", data, "--cols", "a,b", "--k", "3", "--out", out}
		if tc.digits != "" {
			args = append(args, "--digits", tc.digits)
		}
		if _, err := run(args...); err != nil {
			t.Fatalf("--digits %q: %v", tc.digits, err)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		long := 0
		for _, rec := range recs[1:] {
			for j, most := range []int{tc.maxA, tc.maxB} {
				d := 0
				if m := decimals.FindStringSubmatch(rec[j]); m != nil {
					d = len(m[1])
				}
				if d > most {
					t.Errorf("--digits %q: %s = %s has %d decimals, want at most %d", tc.digits, recs[0][j], rec[j], d, most)
				}
				if j == 0 {
					long = max(long, d)
				}
			}
		}
		if long < tc.minLong {
			t.Errorf("--digits %q: at most %d decimals in a, want full precision", tc.digits, long)
		}
	}
	if _, err := run("microagg", "--data", data, "--cols", "a,b", "--k", "3", "--digits", "18"); cli.Code(err) != cli.ExitBadInput {
		t.Errorf("--digits 18: exit %d (%v), want 2", cli.Code(err), err)
	}
}

// TestResultFormats: issue 44, item 19. sdcopt-pipeline kanon and
// microagg had no --format: their result is text, JSON (lower_snake_case
// keys, with data, n, k, method and seconds, as sdcopt's) or CSV (a
// header and one row of the same fields).
func TestResultFormats(t *testing.T) {
	dir := t.TempDir()
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for _, args := range [][]string{
		{"kanon", "--synthetic", "600", "--k", "3", "--method", "greedy", "--coarse", "300", "--partition", "100"},
		{"microagg", "--data", "synthetic:gauss-300-2-3", "--k", "3", "--coarse", "200", "--out", filepath.Join(dir, "p.csv")},
	} {
		out, err := run(append(args, "--format", "json")...)
		if err != nil {
			t.Fatalf("%v --format json: %v", args, err)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v --format json: %v\n%s", args, err, out)
		}
		for _, key := range []string{"data", "n", "k", "method", "runner", "coarse", "parts", "seed", "seconds"} {
			if _, ok := doc[key]; !ok {
				t.Errorf("%s --format json: no %q in %s", args[0], key, out)
			}
		}
		for key := range doc {
			if !snake.MatchString(key) {
				t.Errorf("%s --format json: key %q is not lower_snake_case", args[0], key)
			}
		}
		out, err = run(append(args, "--format", "csv")...)
		if err != nil {
			t.Fatalf("%v --format csv: %v", args, err)
		}
		recs, err := csv.NewReader(bytes.NewReader([]byte(out))).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Fatalf("%s --format csv: %d rows (%v), want a header and one row:\n%s", args[0], len(recs), err, out)
		}
		for x, h := range recs[0] {
			if !snake.MatchString(h) {
				t.Errorf("%s --format csv: column %q is not lower_snake_case", args[0], h)
			}
			if _, ok := doc[h]; !ok {
				t.Errorf("%s --format csv: column %q is not a field of the JSON result", args[0], h)
			}
			if h == "k" && recs[1][x] != "3" {
				t.Errorf("%s --format csv: k = %q", args[0], recs[1][x])
			}
		}
		if _, err := run(append(args, "--format", "xml")...); cli.Code(err) != cli.ExitBadInput {
			t.Errorf("%s --format xml: exit %d (%v), want 2", args[0], cli.Code(err), err)
		}
	}
}
