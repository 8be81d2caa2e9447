package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
)

// microCSV is seeded microdata over A, B (binary), C (3 levels) and an
// extra column that is not a variable.
func microCSV(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	b.WriteString("id,A,B,C\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%s,%s\n", i, []string{"a0", "a1"}[r.IntN(2)], []string{"b0", "b1"}[r.IntN(2)], []string{"c0", "c1", "c2"}[r.IntN(3)])
	}
	return b.String()
}

// TestMicrodataService: a microdata table loaded through the store
// (LoadMicrodata) and one uploaded (PUT ...?vars=) are decided by the
// service as audit.NewMicrodata decides them directly, request after
// request with the history in between; the history survives a restart
// of the server over the same database, and the public and operator
// descriptions say it is microdata without any file metadata in public.
func TestMicrodataService(t *testing.T) {
	ctx := context.Background()
	store, err := Open(filepath.Join(t.TempDir(), "sdc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	data := microCSV(60, 25)
	md, err := datasets.ReadMicrodata(strings.NewReader(data), "micro.csv", []string{"A", "B", "C"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pol := audit.DefaultPolicy()
	if err := store.LoadMicrodata(ctx, "micro", md, audit.MicrodataOptions{}, pol, nil, "/srv/secret/micro.csv", []byte(data)); err != nil {
		t.Fatal(err)
	}
	serve := func() *fixture {
		srv := httptest.NewServer(New(store, Config{AdminToken: token, Log: log.New(&syncBuffer{}, "", 0)}).Handler())
		t.Cleanup(srv.Close)
		return &fixture{store: store, srv: srv, client: &Client{Base: srv.URL, Token: token}}
	}
	start := func() *Client { return serve().client }
	c := start()
	if _, err := c.LoadTable(ctx, "up", nil, ""); err == nil {
		t.Error("an empty upload accepted")
	}
	// The same records uploaded as microdata.
	code, body := serve().do(t, "PUT", "/v1/admin/tables/up?vars=A,B,C", data, true)
	if code != http.StatusCreated || !strings.Contains(body, `"microdata": true`) || !strings.Contains(body, `"records": 60`) {
		t.Fatalf("upload of microdata: %d %s", code, body)
	}
	pub, err := c.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pub {
		if !p.Microdata || p.Cells != 12 {
			t.Errorf("public description %+v: want microdata of 12 cells", p)
		}
	}
	ref, err := audit.NewMicrodata(md, pol, audit.Options{}, audit.MicrodataOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := ref.NewHistory()
	reqs := [][]string{{"A"}, {"B", "A"}, {"C"}, {"A", "C"}, {"B", "C"}, {"A", "B", "C"}, {"C", "A"}}
	released := 0
	for i, m := range reqs {
		if i == 4 {
			c = start() // a restart: the history comes from the database
		}
		for _, table := range []string{"micro", "up"} {
			got, _, err := c.Request(ctx, table, m, "", fmt.Sprintf("k%d", i), "tester")
			if err != nil {
				t.Fatalf("request %d %v on %s: %v", i, m, table, err)
			}
			want, err := ref.Decide(h, audit.Request{Margin: m})
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != want.Outcome || !slices.Equal(got.Counts, want.Counts) {
				t.Errorf("request %d %v on %s: service %s %v, auditor %s %v (%s)", i, m, table, got.Outcome, got.Counts, want.Outcome, want.Counts, want.Operator.Explanation)
			}
		}
		d, _ := ref.Decide(h, audit.Request{Margin: m})
		h.Append(d)
		if d.Outcome == audit.Released {
			released++
		}
	}
	if released == 0 {
		t.Error("nothing released: the comparison says little")
	}
	for _, table := range []string{"micro", "up"} {
		rels, err := c.Releases(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if len(rels) != len(h.Releases) {
			t.Errorf("%s: %d releases in the service, %d in the auditor's history", table, len(rels), len(h.Releases))
		}
		for i := range min(len(rels), len(h.Releases)) {
			if !slices.Equal(rels[i].Counts, h.Releases[i].Counts) {
				t.Errorf("%s release %d: %v, want %v", table, i+1, rels[i].Counts, h.Releases[i].Counts)
			}
		}
	}
	// The public page's data never carry the source file.
	_, body = serve().do(t, "GET", "/v1/tables/micro", "", false)
	if strings.Contains(body, "secret") || strings.Contains(body, "records") {
		t.Errorf("public description of microdata shows file metadata or the record count: %s", body)
	}
}

// microFixture is a Server over an empty database behind an httptest
// server.
func microFixture(t *testing.T) *fixture {
	t.Helper()
	store, err := Open(filepath.Join(t.TempDir(), "sdc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := httptest.NewServer(New(store, Config{AdminToken: token, Log: log.New(&syncBuffer{}, "", 0)}).Handler())
	t.Cleanup(srv.Close)
	return &fixture{store: store, srv: srv, client: &Client{Base: srv.URL, Token: token}}
}

// levelsOf decodes the variables' levels of a table description.
func levelsOf(t *testing.T, body string) map[string][]string {
	t.Helper()
	var d struct {
		Variables []VariableInfo `json:"variables"`
	}
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	out := map[string][]string{}
	for _, v := range d.Variables {
		out[v.Name] = v.Levels
	}
	return out
}

// multipartBody is a multipart/form-data body with the given parts (name,
// content), and its content type.
func multipartBody(t *testing.T, parts ...[2]string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		w, err := mw.CreateFormFile(p[0], p[0]+".csv")
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(p[1]))
	}
	mw.Close()
	return b.String(), mw.FormDataContentType()
}

// doType is fixture.do with a content type, as the operator.
func (f *fixture) doType(t *testing.T, method, path, body, ctype string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", ctype)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// rareCSV is microdata whose first record (a1, b1, c2, 10) is the only
// one with c2 and with 10: listed in order of first appearance, the
// levels would publish its whole combination and two categories held by
// one respondent.
const rareCSV = "id,A,B,C,D\n1,a1,b1,c2,10\n2,a0,b0,c0,9\n3,a0,b1,c1,2\n4,a1,b0,c0,9\n5,a0,b0,c1,2\n6,a1,b1,c0,9\n7,a0,b0,c1,2\n"

// The levels of uploaded microdata are published in canonical order
// (natural-numeric, datasets.CompareLabels), whatever the order of the
// records; a levels file uploaded with the data (multipart part
// "levels") gives its own order; min_level_count merges the levels held
// by fewer records into "(other)" (issue 44, item 3).
func TestMicrodataLevelsCanonical(t *testing.T) {
	f := microFixture(t)
	lines := strings.Split(strings.TrimSpace(rareCSV), "\n")
	rev := []string{lines[0]}
	for i := len(lines) - 1; i >= 1; i-- {
		rev = append(rev, lines[i])
	}
	levelsCSV := "variable,level\nD,10\nD,9\nD,2\nD,99\n"
	mp, mpType := multipartBody(t, [2]string{"data", rareCSV}, [2]string{"levels", levelsCSV})
	sorted := map[string][]string{"A": {"a0", "a1"}, "B": {"b0", "b1"}, "C": {"c0", "c1", "c2"}, "D": {"2", "9", "10"}}
	for _, tc := range []struct {
		name, query, body, ctype string
		want                     map[string][]string
	}{
		{"first", "?vars=A,B,C,D", rareCSV, "text/csv", sorted},
		{"reversed", "?vars=A,B,C,D", strings.Join(rev, "\n") + "\n", "text/csv", sorted},
		{"given", "?vars=A,B,C,D", mp, mpType, map[string][]string{"A": {"a0", "a1"}, "B": {"b0", "b1"}, "C": {"c0", "c1", "c2"}, "D": {"10", "9", "2", "99"}}},
		{"merged", "?vars=A,B,C,D&min_level_count=2", rareCSV, "text/csv",
			map[string][]string{"A": {"a0", "a1"}, "B": {"b0", "b1"}, "C": {"c0", "c1", "(other)"}, "D": {"2", "9", "(other)"}}},
	} {
		code, body := f.doType(t, "PUT", "/v1/admin/tables/"+tc.name+tc.query, tc.body, tc.ctype)
		if code != http.StatusCreated {
			t.Errorf("%s: upload: %d %s", tc.name, code, body)
			continue
		}
		_, body = f.do(t, "GET", "/v1/tables/"+tc.name, "", false)
		got := levelsOf(t, body)
		for v, want := range tc.want {
			if !slices.Equal(got[v], want) {
				t.Errorf("%s: public levels of %s %v, want %v", tc.name, v, got[v], want)
			}
		}
	}
	// The operator sees how the levels were formed; the public does not.
	for name, want := range map[string]string{"merged": `"min_level_count": 2`, "given": `"levels_given": [
      "D"
    ]`, "first": `"min_level_count": 0`} {
		_, body := f.do(t, "GET", "/v1/admin/tables/"+name, "", true)
		if !strings.Contains(body, want) {
			t.Errorf("operator view of %s lacks %s: %s", name, want, body)
		}
		if _, body = f.do(t, "GET", "/v1/tables/"+name, "", false); strings.Contains(body, "microdata_options") {
			t.Errorf("public view of %s shows the load options: %s", name, body)
		}
	}
	// The merged table decides on the merged levels: its one-way margin
	// of C counts c2's record under "(other)".
	got, _, err := f.client.Request(context.Background(), "merged", []string{"C"}, "", "m1", "tester")
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome == audit.Released && !slices.Equal(got.Counts, []int64{3, 3, 1}) {
		t.Errorf("margin C of the merged table: %v, want [3 3 1]", got.Counts)
	}
}

// The query parameters of an upload are checked, never ignored (issue 44,
// item 13): max_cells and protect_collapsed are options of a microdata
// table's auditor, so they are accepted with vars=..., stored, applied
// and shown in the operator's view; an unknown parameter, a repeated one,
// a bad value, or a microdata parameter on a table is a 400 naming the
// parameter.
func TestMicrodataUploadOptions(t *testing.T) {
	f := microFixture(t)
	data := microCSV(30, 7)
	for i, tc := range []struct {
		query, body string
		status      int
		want        string // in the error, or in the operator's view
		mopt        audit.MicrodataOptions
	}{
		{"?vars=A,B,C&protect_collapsed=true&max_cells=1000", data, 201, `"max_cells": 1000,
    "protect_collapsed": true`, audit.MicrodataOptions{MaxCells: 1000, ProtectCollapsed: true}},
		{"?vars=A,B,C", data, 201, `"max_cells": 4194304,
    "protect_collapsed": false`, audit.MicrodataOptions{}},
		{"?vars=A,B,C&max_cell=1000", data, 400, `unknown query parameter "max_cell"`, audit.MicrodataOptions{}},
		{"?vars=A,B,C&protect_collapsed=yes", data, 400, `query parameter protect_collapsed="yes"`, audit.MicrodataOptions{}},
		{"?vars=A,B,C&max_cells=-5", data, 400, `query parameter max_cells="-5"`, audit.MicrodataOptions{}},
		{"?vars=A,B,C&max_cells=10&max_cells=20", data, 400, `query parameter "max_cells" given 2 times`, audit.MicrodataOptions{}},
		{"?vars=A,B,C&min_level_count=x", data, 400, `query parameter min_level_count="x"`, audit.MicrodataOptions{}},
		{"?protect_collapsed=true", confidentialCSV, 400, `query parameter "protect_collapsed" applies to microdata only`, audit.MicrodataOptions{}},
		{"?max_cells=10", confidentialCSV, 400, `query parameter "max_cells" applies to microdata only`, audit.MicrodataOptions{}},
		{"?policy=small=2&polcy=small=9", confidentialCSV, 400, `unknown query parameter "polcy"`, audit.MicrodataOptions{}},
	} {
		name := fmt.Sprintf("t%d", i)
		code, body := f.doType(t, "PUT", "/v1/admin/tables/"+name+tc.query, tc.body, "text/csv")
		if code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.query, code, body, tc.status)
			continue
		}
		if code != 201 {
			var e apiError
			if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.Contains(e.Error, tc.want) {
				t.Errorf("%s: %s, want an error with %s", tc.query, body, tc.want)
			}
			if _, err := f.store.Table(context.Background(), name); err == nil {
				t.Errorf("%s: refused but stored", tc.query)
			}
			continue
		}
		if _, view := f.do(t, "GET", "/v1/admin/tables/"+name, "", true); !strings.Contains(view, tc.want) {
			t.Errorf("%s: the operator's view lacks %s: %s", tc.query, tc.want, view)
		}
		info, err := f.store.Table(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		conf, err := f.store.loadTable(context.Background(), info)
		if err != nil {
			t.Fatal(err)
		}
		if conf.mopt != tc.mopt {
			t.Errorf("%s: the auditor's options %+v, want %+v", tc.query, conf.mopt, tc.mopt)
		}
	}
}

// A multipart upload is checked part by part: the levels part's rows of
// an undeclared variable (issue 44, item 13), unknown, repeated or
// missing parts, and a multipart table are 400 naming the problem, and
// nothing is stored.
func TestMicrodataUploadMultipart(t *testing.T) {
	f := microFixture(t)
	data := microCSV(20, 3)
	for i, tc := range []struct {
		query string
		parts [][2]string
		want  string
	}{
		{"?vars=A,B", [][2]string{{"data", data}, {"levels", "variable,level\nA,a0\nA,a1\nC,c0\n"}}, `levels:4: column "variable": "C" is not among the declared variables A,B`},
		{"?vars=A,B", [][2]string{{"data", data}, {"levels", "variable,level\nA,a0\n"}}, `label "a1" is not among the 1 levels of the levels file`},
		{"?vars=A,B", [][2]string{{"data", data}, {"level", "variable,level\nA,a0\n"}}, `multipart part "level"`},
		{"?vars=A,B", [][2]string{{"data", data}, {"data", data}}, `multipart part "data" given twice`},
		{"?vars=A,B", [][2]string{{"levels", "variable,level\nA,a0\n"}}, `without the part "data"`},
		{"?vars=A,B&min_level_count=2", [][2]string{{"data", data}, {"levels", "variable,level\nA,a0\nA,a1\nB,b0\nB,b1\n"}}, "applies to no variable"},
		{"", [][2]string{{"data", confidentialCSV}}, "a multipart upload is for microdata"},
	} {
		body, ctype := multipartBody(t, tc.parts...)
		name := fmt.Sprintf("m%d", i)
		code, answer := f.doType(t, "PUT", "/v1/admin/tables/"+name+tc.query, body, ctype)
		var e apiError
		if code != http.StatusBadRequest || json.Unmarshal([]byte(answer), &e) != nil || !strings.Contains(e.Error, tc.want) {
			t.Errorf("%s %v: %d %s, want 400 with %s", tc.query, tc.parts, code, answer, tc.want)
		}
		if _, err := f.store.Table(context.Background(), name); err == nil {
			t.Errorf("%s: refused but stored", tc.query)
		}
	}
}
