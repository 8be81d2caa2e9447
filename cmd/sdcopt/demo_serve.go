package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/server"
)

// runServeDemo starts the query service on a free loopback port over a
// temporary SQLite database holding the autoworkers table, makes a few
// requests with the Go client, prints the decisions and stops it.
func runServeDemo(w io.Writer) error {
	dir, err := datasets.SharedDir()
	if err != nil {
		fmt.Fprintf(w, "\n== sdcopt demo: query service skipped (%v)\n", err)
		return nil
	}
	csvPath := filepath.Join(dir, "autoworkers.csv")
	data, err := os.ReadFile(csvPath)
	if err != nil {
		return err
	}
	tab, err := datasets.LoadTableCSV(csvPath, nil)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "sdcopt-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	store, err := server.Open(filepath.Join(tmp, "demo.db"))
	if err != nil {
		return err
	}
	defer store.Close()
	ctx := context.Background()
	// Simulation is off by default; the demo's operator turns it on.
	pol := audit.DefaultPolicy()
	pol.AllowSimulate = true
	if err := store.LoadTable(ctx, "autoworkers", tab, pol, csvPath, data); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: server.New(store, server.Config{}).Handler(), ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(w, "\n== sdcopt demo: query service (sdcopt serve) on %s, SQLite database, autoworkers table\n", base)
	c := &server.Client{Base: base, HTTP: &http.Client{Timeout: time.Minute}}
	reqs := []struct {
		margin []string
		mode   string
		key    string
	}{
		{[]string{"B", "F"}, audit.ModeRelease, "demo-1"},
		{[]string{"A", "B", "C", "E"}, audit.ModeRelease, "demo-2"},
		{[]string{"A", "D", "E"}, audit.ModeRelease, "demo-3"},
		{[]string{"A", "B"}, audit.ModeRelease, "demo-4"},
		{[]string{"A", "B", "C", "D", "E", "F"}, audit.ModeRelease, "demo-5"},
		{[]string{"A", "B", "C", "D", "E", "F"}, audit.ModeSimulate, "demo-6"},
		{[]string{"B", "F"}, audit.ModeRelease, "demo-1"}, // a retry
	}
	for _, r := range reqs {
		t0 := time.Now()
		d, replay, err := c.Request(ctx, "autoworkers", r.margin, r.mode, r.key, "demo")
		if err != nil {
			return err
		}
		note := ""
		if replay {
			note = " (retry: the stored decision)"
		}
		fmt.Fprintf(w, "POST /v1/tables/autoworkers/requests [%s] %s key %s -> %s", strings.Join(r.margin, ":"), r.mode, r.key, d.Outcome)
		if d.Counts != nil {
			fmt.Fprintf(w, " (%d cells)", len(d.Counts))
		}
		fmt.Fprintf(w, " in %.1f ms%s\n", 1000*time.Since(t0).Seconds(), note)
	}
	rel, err := c.Releases(ctx, "autoworkers")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "GET /v1/tables/autoworkers/releases -> %d public releases (", len(rel))
	for i, r := range rel {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "#%d [%s]", r.Seq, strings.Join(r.Margin, ":"))
		if r.Simulated {
			fmt.Fprint(w, " simulated")
		}
	}
	fmt.Fprintln(w, ")")
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	fmt.Fprintln(w, "server stopped")
	return nil
}
