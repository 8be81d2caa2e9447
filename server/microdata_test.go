package server

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
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
