package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// snakeKey is a JSON key of the CLI contract: lower_snake_case.
var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// dataKeys are the objects whose keys come from the data (variable names,
// model column names) rather than from sdcopt.
var dataKeys = map[string]bool{"labels": true, "x": true}

// checkKeys walks a JSON value and reports every key that is not
// lower_snake_case.
func checkKeys(t *testing.T, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if !snakeKey.MatchString(k) {
				t.Errorf("key %s.%s is not lower_snake_case", path, k)
			}
			if dataKeys[k] {
				continue
			}
			checkKeys(t, path+"."+k, x)
		}
	case []any:
		for _, x := range v {
			checkKeys(t, path+"[]", x)
		}
	}
}

// TestJSONContract: every command's JSON result has lower_snake_case keys,
// "method" and "seconds".
func TestJSONContract(t *testing.T) {
	dir := t.TempDir()
	pub, graph := fixturePublication(t)
	writeFixture(t, dir, pub, graph)
	p := func(name string) string { return filepath.Join(dir, name) }
	kanonArgs := []string{"--data", p(fxQI), "--qi", "age,zip,sex", "--categorical", "sex", "--k", "2"}
	cases := map[string][]string{
		"solve":           {"solve", p(fxModel)},
		"solve all":       {"solve", p(fxModel), "--solver", "all"},
		"solvers":         {"solvers"},
		"microagg":        {"microagg", "--data", p(fxMicrodata), "--cols", "x,y", "--k", "3"},
		"microagg icsm":   {"microagg", "--data", p(fxMicrodata), "--cols", "x,y", "--k", "3", "--method", "icsm"},
		"microagg colgen": {"microagg", "--data", p(fxMicrodata), "--cols", "x,y", "--k", "3", "--method", "colgen"},
		"bounds":          {"bounds", "--table", p(fxTable), "--margins", "A:B,B:C", "--compare", "lp,ip"},
		"kanon":           append([]string{"kanon"}, kanonArgs...),
		"kanon mip":       append([]string{"kanon", "--method", "mip"}, kanonArgs...),
		"kanon verify":    append([]string{"kanon", "verify", "--published", p(fxPublished), "--graph", p(fxGraph)}, kanonArgs...),
		"audit":           {"audit", "--table", p(fxTable), "--history", p("h.json"), "--request", "A:B", "--update", "--create"},
		"audit public":    {"audit", "--table", p(fxTable), "--history", p("h2.json"), "--request", "B:C", "--update", "--create", "--public"},
		"audit replay":    {"audit", "replay", "--table", p(fxTable), "--requests", "A:B,B:C,A"},
	}
	// The inputs that define the result, where the command's JSON lacked
	// them.
	inputs := map[string][]string{
		"audit":        {"table", "history", "request", "seed", "policy", "mode"},
		"audit replay": {"table", "requests", "seed", "policy", "mode"},
	}
	if _, ok := sharedDataDir(); ok && !testing.Short() {
		cases["bench mdav"] = []string{"bench", "mdav"}
		cases["bench dobra"] = []string{"bench", "dobra", "--tables", "table2"}
		cases["bench icsm"] = []string{"bench", "icsm", "--tables", "2", "--data", "tarragona", "--k", "3"}
		cases["bench colgen"] = []string{"bench", "colgen", "--n", "30", "--k", "3", "--instances", "1", "--criteria", "cons"}
		cases["bench kanon"] = []string{"bench", "kanon", "--k", "2", "--methods", "greedy", "--mip-n", "8", "--mip-k", "2", "--samples", "1", "--scale-n", "1000"}
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			out, msg, code := run(t, append(args, "--format", "json", "--quiet")...)
			if strings.Contains(msg, "unknown flag: --quiet") {
				out, msg, code = run(t, append(args, "--format", "json")...)
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, msg)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, out)
			}
			checkKeys(t, "", doc)
			for _, k := range append([]string{"method", "seconds"}, inputs[name]...) {
				if _, ok := doc[k]; !ok {
					t.Errorf("no %q at the top level", k)
				}
			}
		})
	}
}
