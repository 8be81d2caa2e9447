package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/pipeline"
)

// With mainEnv set to 1 the test binary is sdcopt-pipeline itself: it
// runs main (signals_test.go starts it so).
const mainEnv = "SDCOPT_PIPELINE_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		os.Args = append([]string{"sdcopt-pipeline"}, os.Args[1:]...)
		main() // exits
	}
	beam.Init()
	os.Exit(m.Run())
}

func run(args ...string) (string, error) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// TestKanonCommandVerifies writes a data file, runs the kanon pipeline on
// it and checks the published and graph files as sdcopt kanon verify does.
func TestKanonCommandVerifies(t *testing.T) {
	dir := t.TempDir()
	q := pipeline.QIDataOf(datasets.SyntheticQI(1200, 4))
	data := filepath.Join(dir, "data.csv")
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(q.Header)
	w.WriteAll(q.Records)
	if err := os.WriteFile(data, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	qi := strings.Join(q.Header, ",")
	cat := strings.Join(q.Header[2:], ",")
	pub, graph := filepath.Join(dir, "pub.csv"), filepath.Join(dir, "graph.csv")
	out, err := run("kanon", "--data", data, "--qi", qi, "--categorical", cat, "--k", "4", "--method", "greedy",
		"--partition", "200", "--coarse", "400", "--out", pub, "--graph-out", graph)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "verified") || !strings.Contains(out, "coarse parts") {
		t.Fatalf("report:\n%s", out)
	}
	loaded, err := datasets.LoadQI(data, q.Header, q.Header[2:], false)
	if err != nil {
		t.Fatal(err)
	}
	pf, _ := os.Open(pub)
	defer pf.Close()
	gf, _ := os.Open(graph)
	defer gf.Close()
	pp, err := kanon.ReadPublished(pf, pub, loaded)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := kanon.ReadGraph(gf, graph)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kanon.VerifyPublication(loaded, pp, edges, 4, nil, pub, graph); err != nil {
		t.Fatal(err)
	}
}

func TestBadFlags(t *testing.T) {
	missing, file := filepath.Join(t.TempDir(), "none", "work"), filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"kanon", "--synthetic", "100", "--k", "3", "--runner", "portable"},
		{"kanon", "--synthetic", "100", "--k", "3", "--runner", "portable", "--endpoint", "host"},
		{"kanon", "--synthetic", "100", "--k", "3", "--endpoint", "localhost:8099"},
		{"kanon", "--synthetic", "100", "--k", "3", "--runner", "flink"},
		{"kanon", "--synthetic", "100", "--k", "3", "--method", "mondrian"},
		{"kanon", "--synthetic", "100"},
		{"kanon", "--k", "3"},
		{"microagg", "--data", "synthetic:gauss-100-2-2", "--k", "1"},
		{"bench", "--spec", "/nonexistent/grid.json"},
		// issue 44, item 1: --work-dir must be an existing directory.
		{"microagg", "--data", "synthetic:gauss-100-2-2", "--k", "3", "--work-dir", missing},
		{"microagg", "--data", "synthetic:gauss-100-2-2", "--k", "3", "--work-dir", file},
	} {
		_, err := run(args...)
		if err == nil || cli.Code(err) != 2 {
			t.Errorf("%v: error %v (exit %d), want exit 2", args, err, cli.Code(err))
		}
	}
}

func TestMicroaggCommand(t *testing.T) {
	out, err := run("microagg", "--data", "synthetic:gauss-600-3-4", "--k", "3", "--coarse", "300", "--out", filepath.Join(t.TempDir(), "prot.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "IL ") || !strings.Contains(out, "IL1s ") || !strings.Contains(out, "DBRL within parts") {
		t.Fatalf("report:\n%s", out)
	}
	out, err = run("microagg", "--data", "synthetic:gauss-600-3-4", "--k", "3", "--coarse", "300", "--icsm", "--icsm-rounds", "3")
	if err != nil || !strings.Contains(out, "MDAV + ICSM") {
		t.Fatalf("%v:\n%s", err, out)
	}
	if _, err := run("microagg", "--data", "synthetic:gauss-600-3-4", "--k", "3", "--icsm-rounds", "3"); cli.Code(err) != 2 {
		t.Fatalf("--icsm-rounds without --icsm: %v", err)
	}
}

// TestKanonCommandRoles: an identifier is removed, a sensitive column is
// published unchanged (the published file passes the verification with
// it), a column in no role is not published, and a column that copies a
// quasi-identifier is refused unless named with --keep-risky.
func TestKanonCommandRoles(t *testing.T) {
	dir := t.TempDir()
	q := pipeline.QIDataOf(datasets.SyntheticQI(900, 5))
	header := append([]string{"id"}, append(slices.Clone(q.Header), "disease", "note", "sexcopy")...)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	for i, rec := range q.Records {
		w.Write(append([]string{fmt.Sprint("p", i)}, append(slices.Clone(rec), []string{"flu", "cold", "x"}[i%3], "n", rec[7])...))
	}
	w.Flush()
	data := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(data, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	qi := strings.Join(q.Header, ",")
	cat := strings.Join(q.Header[2:], ",")
	pub, graph := filepath.Join(dir, "pub.csv"), filepath.Join(dir, "graph.csv")
	args := []string{"kanon", "--data", data, "--qi", qi, "--categorical", cat, "--k", "3", "--coarse", "400", "--partition", "200",
		"--identifier", "id", "--sensitive", "disease", "--out", pub, "--graph-out", graph}
	if _, err := run(append(args, "--insensitive", "sexcopy")...); cli.Code(err) != 2 || !strings.Contains(err.Error(), "sexcopy") {
		t.Fatalf("a column copying a quasi-identifier was not refused: %v", err)
	}
	if _, err := os.Stat(pub); !os.IsNotExist(err) {
		t.Fatal("a refused run wrote the published file")
	}
	out, err := run(args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "published "+qi[:3]) || !strings.Contains(out, "identifiers id; in no role note, sexcopy") {
		t.Fatalf("report:\n%s", out)
	}
	loaded, err := datasets.LoadQI(data, q.Header, q.Header[2:], false)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := os.ReadFile(pub)
	if first, _, _ := strings.Cut(string(pb), "\n"); first != qi+",disease" {
		t.Fatalf("published header %q", first)
	}
	pp, err := kanon.ReadPublished(bytes.NewReader(pb), pub, loaded)
	if err != nil {
		t.Fatal(err)
	}
	gf, _ := os.Open(graph)
	defer gf.Close()
	edges, err := kanon.ReadGraph(gf, graph)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kanon.VerifyPublication(loaded, pp, edges, 3, nil, pub, graph); err != nil {
		t.Fatal(err)
	}
	// A column kept by --keep-risky is in the result's kept_risky, as in
	// microagg's and sdcopt kanon's (issue 44, found while fixing item 8:
	// kanon's JSON lacked it).
	js, err := run(append(args, "--insensitive", "sexcopy", "--keep-risky", "sexcopy", "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		KeptRisky []struct {
			Column   string `json:"column"`
			Kind     string `json:"kind"`
			Evidence string `json:"evidence"`
		} `json:"kept_risky"`
	}
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.KeptRisky) == 0 || res.KeptRisky[0].Column != "sexcopy" || res.KeptRisky[0].Kind == "" || res.KeptRisky[0].Evidence == "" {
		t.Fatalf("kept_risky %+v, want the finding on sexcopy:\n%s", res.KeptRisky, js)
	}
	if _, err := run("kanon", "--synthetic", "100", "--k", "3", "--sensitive", "x"); cli.Code(err) != 2 {
		t.Fatalf("roles with --synthetic: %v", err)
	}
}
