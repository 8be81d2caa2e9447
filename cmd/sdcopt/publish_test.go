package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/roles"
)

// The safety of what kanon and microagg publish: only the columns of the
// declared roles, and no column published unchanged that determines a
// protected quasi-identifier or singles records out. The leak measures are
// recomputed here independently of package roles (maps of maps over the
// raw file), with the package's thresholds.

// publishDoc is the roles part of the JSON reports.
type publishDoc struct {
	Published []string `json:"published_columns"`
	Dropped   []string `json:"dropped_columns"`
	Roles     struct {
		QuasiIdentifier []string `json:"quasi_identifier"`
		Sensitive       []string `json:"sensitive"`
		Insensitive     []string `json:"insensitive"`
		Identifier      []string `json:"identifier"`
		Unclassified    []string `json:"unclassified"`
	} `json:"roles"`
	KeptRisky []struct {
		Column   string `json:"column"`
		Kind     string `json:"kind"`
		Evidence string `json:"evidence"`
	} `json:"kept_risky"`
}

// rawTable is a CSV file read independently: header and trimmed cells.
type rawTable struct {
	header []string
	rows   [][]string
}

func readRaw(t *testing.T, path string) *rawTable {
	t.Helper()
	recs := readCSV(t, path)
	for _, r := range recs {
		for j := range r {
			r[j] = strings.TrimSpace(r[j])
		}
	}
	return &rawTable{header: recs[0], rows: recs[1:]}
}

func (r *rawTable) col(t *testing.T, name string) int {
	t.Helper()
	j := slices.Index(r.header, name)
	if j < 0 {
		t.Fatalf("no column %q in %v", name, r.header)
	}
	return j
}

// complete keeps the rows without a missing ('?' or empty) cell in cols,
// as kanon drops them.
func (r *rawTable) complete(t *testing.T, cols []string) *rawTable {
	out := &rawTable{header: r.header}
	for _, row := range r.rows {
		ok := true
		for _, c := range cols {
			v := row[r.col(t, c)]
			ok = ok && v != "?" && v != ""
		}
		if ok {
			out.rows = append(out.rows, row)
		}
	}
	return out
}

// gain is Goodman and Kruskal's lambda of guessing q from c, the values
// of c that occur once counted as misses (roles' definition).
func (r *rawTable) gain(t *testing.T, c, q string) float64 {
	jc, jq := r.col(t, c), r.col(t, q)
	byC := map[string]map[string]int{}
	qCount := map[string]int{}
	for _, row := range r.rows {
		if byC[row[jc]] == nil {
			byC[row[jc]] = map[string]int{}
		}
		byC[row[jc]][row[jq]]++
		qCount[row[jq]]++
	}
	hits := 0
	for _, m := range byC {
		total, best := 0, 0
		for _, v := range m {
			total += v
			best = max(best, v)
		}
		if total >= 2 {
			hits += best
		}
	}
	modal := 0
	for _, v := range qCount {
		modal = max(modal, v)
	}
	n := float64(len(r.rows))
	if modal == len(r.rows) {
		return 0
	}
	return (float64(hits)/n - float64(modal)/n) / (1 - float64(modal)/n)
}

// uniqueShare is the share of records whose value of c no other record has.
func (r *rawTable) uniqueShare(t *testing.T, c string) float64 {
	j := r.col(t, c)
	count := map[string]int{}
	for _, row := range r.rows {
		count[row[j]]++
	}
	u := 0
	for _, v := range count {
		if v == 1 {
			u++
		}
	}
	return float64(u) / float64(len(r.rows))
}

// checkPublished asserts that the published file has exactly the columns
// of the declared roles (quasi-identifiers, sensitive, insensitive) in the
// input's order, that the report says so, and that no column published
// unchanged (except those in kept) determines a quasi-identifier or is
// nearly unique on the records data.
func checkPublished(t *testing.T, pubPath string, data *rawTable, doc *publishDoc, qi, sensitive, insensitive, kept []string) {
	t.Helper()
	declared := append(append(append([]string{}, qi...), sensitive...), insensitive...)
	var want []string
	for _, h := range data.header {
		if slices.Contains(declared, h) {
			want = append(want, h)
		}
	}
	pub := readCSV(t, pubPath)
	if !slices.Equal(pub[0], want) {
		t.Errorf("published columns %v, want those of the declared roles %v", pub[0], want)
	}
	if !slices.Equal(doc.Published, want) {
		t.Errorf("reported published columns %v, want %v", doc.Published, want)
	}
	for _, h := range data.header {
		if slices.Contains(want, h) == slices.Contains(doc.Dropped, h) {
			t.Errorf("column %q: published %v, reported dropped %v", h, slices.Contains(want, h), doc.Dropped)
		}
	}
	if len(pub)-1 != len(data.rows) {
		t.Errorf("%d published rows, %d records", len(pub)-1, len(data.rows))
	}
	for _, c := range append(append([]string{}, sensitive...), insensitive...) {
		if slices.Contains(kept, c) {
			continue
		}
		if u := data.uniqueShare(t, c); u >= roles.DefaultMaxUnique {
			t.Errorf("published column %q is unique for %.3f of the records", c, u)
		}
		for _, q := range qi {
			if g := data.gain(t, c, q); g >= roles.DefaultMinGain {
				t.Errorf("published column %q determines %q: gain %.3f", c, q, g)
			}
		}
	}
}

func runPublishJSON(t *testing.T, args ...string) *publishDoc {
	t.Helper()
	out, msg, code := run(t, append(args, "--format", "json", "--quiet")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s\n%s", args, code, msg, out)
	}
	var doc publishDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	return &doc
}

// idCSV has a record id, two quasi-identifiers, a sensitive column and a
// label that is a one-to-one renaming of the quasi-identifier "grade".
const idCSV = `id,age,grade,label,disease
1,30,1,low,flu
2,31,1,low,cold
3,35,2,mid,flu
4,40,2,mid,cold
5,41,3,high,flu
6,45,3,high,asthma
7,50,1,low,asthma
8,52,2,mid,flu
9,58,3,high,cold
10,60,1,low,flu
`

// TestPublishKanonSafely: kanon with its default roles on Adult, on Census
// and on a CSV with an id column publishes only the declared roles and
// nothing that undoes the generalization; a leaking column is refused
// (exit 2, naming it and the evidence) unless --keep-risky.
func TestPublishKanonSafely(t *testing.T) {
	dir := t.TempDir()
	pub, graph := filepath.Join(dir, "pub.csv"), filepath.Join(dir, "graph.csv")

	t.Run("adult", func(t *testing.T) {
		skipWithoutShared(t)
		path, err := datasets.AdultPath()
		if err != nil {
			t.Fatal(err)
		}
		qi := datasets.AdultQI()
		data := readRaw(t, path).complete(t, qi)
		doc := runPublishJSON(t, "kanon", "--data", "adult", "--k", "5", "--method", "mondrian", "--out", pub, "--graph-out", graph)
		checkPublished(t, pub, data, doc, qi, datasets.AdultSensitive(), nil, nil)
		for _, c := range []string{"education", "fnlwgt", "relationship"} {
			if !slices.Contains(doc.Roles.Unclassified, c) || slices.Contains(doc.Published, c) {
				t.Errorf("%s: roles %+v", c, doc.Roles)
			}
		}
		// The published file verifies against the data and graph.
		if out, msg, code := run(t, "kanon", "verify", "--data", "adult", "--published", pub, "--graph", graph, "--k", "5"); code != 0 {
			t.Errorf("verify: exit %d %s %s", code, msg, out)
		}
		// education beside education-num is refused, with its evidence.
		out, msg, code := run(t, "kanon", "--data", "adult", "--k", "5", "--method", "mondrian", "--insensitive", "education", "--out", pub)
		if code != 2 || !strings.Contains(msg, `column "education" (determines)`) ||
			!strings.Contains(msg, "education determines education-num for 100.0% of records") || !strings.Contains(msg, "--keep-risky education") {
			t.Errorf("education: exit %d %q %s", code, msg, out)
		}
		// --keep-risky publishes it anyway, and says so.
		doc = runPublishJSON(t, "kanon", "--data", "adult", "--k", "5", "--method", "mondrian", "--insensitive", "education", "--keep-risky", "education", "--out", pub, "--graph-out", graph)
		checkPublished(t, pub, data, doc, qi, datasets.AdultSensitive(), []string{"education"}, []string{"education"})
		if len(doc.KeptRisky) != 1 || doc.KeptRisky[0].Column != "education" || doc.KeptRisky[0].Kind != "determines" {
			t.Errorf("kept risky %+v", doc.KeptRisky)
		}
		out, msg, code = run(t, "kanon", "verify", "--data", "adult", "--published", pub, "--graph", graph, "--k", "5", "--format", "json")
		var v struct {
			Columns []string `json:"published_columns"`
		}
		if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || !slices.Equal(v.Columns, doc.Published) {
			t.Errorf("verify with education: exit %d %s %v: columns %v, want %v", code, msg, err, v.Columns, doc.Published)
		}
	})

	t.Run("census", func(t *testing.T) {
		skipWithoutShared(t)
		dirData, err := datasets.SharedDir()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dirData, "census.csv")
		data := readRaw(t, path)
		qi := []string{"AFNLWGT", "AGI", "FEDTAX"}
		doc := runPublishJSON(t, "kanon", "--data", path, "--qi", strings.Join(qi, ","), "--k", "3", "--method", "mondrian", "--out", pub)
		checkPublished(t, pub, data, doc, qi, nil, nil, nil)
		if len(doc.Roles.Unclassified) != 10 {
			t.Errorf("unclassified %v", doc.Roles.Unclassified)
		}
		// Census values are nearly unique: publishing one unchanged is refused.
		if _, msg, code := run(t, "kanon", "--data", path, "--qi", strings.Join(qi, ","), "--k", "3", "--method", "mondrian", "--sensitive", "PTOTVAL"); code != 2 || !strings.Contains(msg, `column "PTOTVAL" (unique)`) {
			t.Errorf("PTOTVAL: exit %d %q", code, msg)
		}
	})

	t.Run("id column", func(t *testing.T) {
		path := writeTemp(t, "id.csv", idCSV)
		data := readRaw(t, path)
		qi := []string{"age", "grade"}
		base := []string{"kanon", "--data", path, "--qi", "age,grade", "--k", "2", "--method", "hungarian", "--out", pub}
		doc := runPublishJSON(t, append(base, "--identifier", "id", "--sensitive", "disease")...)
		checkPublished(t, pub, data, doc, qi, []string{"disease"}, nil, nil)
		if !slices.Equal(doc.Roles.Identifier, []string{"id"}) || !slices.Equal(doc.Roles.Unclassified, []string{"label"}) {
			t.Errorf("roles %+v", doc.Roles)
		}
		// Without roles only the quasi-identifiers are published.
		doc = runPublishJSON(t, base...)
		checkPublished(t, pub, data, doc, qi, nil, nil, nil)
		for _, c := range []struct {
			args []string
			want []string
		}{
			{[]string{"--insensitive", "id"}, []string{`column "id" (unique)`, "id is unique for 100.0% of records", "--keep-risky id"}},
			{[]string{"--insensitive", "label,disease"}, []string{`column "label" (determines)`, "label determines grade", "--keep-risky label"}},
			{[]string{"--sensitive", "age"}, []string{`column "age" is in --qi (quasi-identifier) and in --sensitive`}},
			{[]string{"--identifier", "nope"}, []string{`--identifier: unknown column "nope" (columns: id, age, grade, label, disease)`}},
			{[]string{"--keep-risky", "label"}, []string{`--keep-risky: column "label" is unclassified`}},
		} {
			out, msg, code := run(t, append(base, c.args...)...)
			for _, w := range c.want {
				if code != 2 || !strings.Contains(msg, w) {
					t.Errorf("%v: exit %d %q, want 2 and %q\n%s", c.args, code, msg, w, out)
				}
			}
		}
		doc = runPublishJSON(t, append(base, "--insensitive", "id", "--keep-risky", "id")...)
		checkPublished(t, pub, data, doc, qi, nil, []string{"id"}, []string{"id"})
	})
}

// TestPublishMicroaggSafely: microagg with its defaults on Census (every
// column microaggregated, as in the literature), on Adult and on a CSV
// with an id column (--cols required) publishes only the declared roles
// and nothing that undoes the microaggregation.
func TestPublishMicroaggSafely(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "prot.csv")

	t.Run("census", func(t *testing.T) {
		skipWithoutShared(t)
		dirData, err := datasets.SharedDir()
		if err != nil {
			t.Fatal(err)
		}
		data := readRaw(t, filepath.Join(dirData, "census.csv"))
		doc := runPublishJSON(t, "microagg", "--data", "census", "--k", "3", "--out", out)
		checkPublished(t, out, data, doc, data.header, nil, nil, nil)
		if len(doc.Dropped) != 0 {
			t.Errorf("dropped %v", doc.Dropped)
		}
		// A role flag takes its column out of the default.
		doc = runPublishJSON(t, "microagg", "--data", "census", "--k", "3", "--identifier", "AFNLWGT", "--out", out)
		checkPublished(t, out, data, doc, data.header[1:], nil, nil, nil)
		if !slices.Equal(doc.Dropped, []string{"AFNLWGT"}) {
			t.Errorf("dropped %v", doc.Dropped)
		}
		// With --cols, the other columns follow the roles.
		doc = runPublishJSON(t, "microagg", "--data", "census", "--k", "3", "--cols", "AGI,FEDTAX", "--out", out)
		checkPublished(t, out, data, doc, []string{"AGI", "FEDTAX"}, nil, nil, nil)
		if len(doc.Roles.Unclassified) != 11 {
			t.Errorf("unclassified %v", doc.Roles.Unclassified)
		}
	})

	t.Run("adult", func(t *testing.T) {
		skipWithoutShared(t)
		path, err := datasets.AdultPath()
		if err != nil {
			t.Fatal(err)
		}
		data := readRaw(t, path)
		qi := []string{"age", "education-num", "hours-per-week"}
		base := []string{"microagg", "--data", path, "--k", "5", "--cols", strings.Join(qi, ","), "--out", out}
		doc := runPublishJSON(t, append(base, "--sensitive", "income")...)
		checkPublished(t, out, data, doc, qi, []string{"income"}, nil, nil)
		// education reveals the microaggregated education-num.
		if _, msg, code := run(t, append(base, "--sensitive", "income", "--insensitive", "education")...); code != 2 ||
			!strings.Contains(msg, "education determines education-num for 100.0% of records") {
			t.Errorf("education: exit %d %q", code, msg)
		}
	})

	t.Run("id column", func(t *testing.T) {
		path := writeTemp(t, "id.csv", idCSV)
		data := readRaw(t, path)
		if _, msg, code := run(t, "microagg", "--data", path, "--k", "2"); code != 2 || !strings.Contains(msg, "--cols is required") {
			t.Errorf("without --cols: exit %d %q", code, msg)
		}
		base := []string{"microagg", "--data", path, "--k", "2", "--cols", "age,grade", "--out", out}
		doc := runPublishJSON(t, base...)
		checkPublished(t, out, data, doc, []string{"age", "grade"}, nil, nil, nil)
		if !slices.Equal(doc.Dropped, []string{"id", "label", "disease"}) {
			t.Errorf("dropped %v", doc.Dropped)
		}
		doc = runPublishJSON(t, append(base, "--identifier", "id", "--sensitive", "disease")...)
		checkPublished(t, out, data, doc, []string{"age", "grade"}, []string{"disease"}, nil, nil)
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"--insensitive", "id"}, `column "id" (unique)`},
			{[]string{"--sensitive", "label"}, "label determines grade for 100.0% of records"},
		} {
			if _, msg, code := run(t, append(base, c.args...)...); code != 2 || !strings.Contains(msg, c.want) || !strings.Contains(msg, "--keep-risky") {
				t.Errorf("%v: exit %d %q, want 2 and %q", c.args, code, msg, c.want)
			}
		}
		doc = runPublishJSON(t, append(base, "--sensitive", "label", "--keep-risky", "label")...)
		checkPublished(t, out, data, doc, []string{"age", "grade"}, []string{"label"}, nil, []string{"label"})
		if len(doc.KeptRisky) != 1 || doc.KeptRisky[0].Column != "label" {
			t.Errorf("kept risky %+v", doc.KeptRisky)
		}
	})
}

// TestPublishStderr: the run says on stderr which columns it does not
// publish, and --quiet silences it.
func TestPublishStderr(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "id.csv"), []byte(idCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	p := runSdcopt(t, dir, "kanon", "--data", "id.csv", "--qi", "age,grade", "--k", "2", "--identifier", "id")
	if p.code != 0 || !strings.Contains(p.stderr, "removed (identifiers): id") || !strings.Contains(p.stderr, "not published (in no role") ||
		!strings.Contains(p.stderr, "label, disease") {
		t.Errorf("exit %d, stderr %q", p.code, p.stderr)
	}
	if !strings.Contains(p.stdout, "published   age, grade") || !strings.Contains(p.stdout, "dropped     identifiers id; in no role label, disease") {
		t.Errorf("report:\n%s", p.stdout)
	}
	p = runSdcopt(t, dir, "microagg", "--data", "id.csv", "--cols", "age,grade", "--k", "2", "--quiet")
	if p.code != 0 || p.stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", p.code, p.stderr)
	}
	if !strings.Contains(p.stdout, "published age, grade") {
		t.Errorf("report:\n%s", p.stdout)
	}
}
