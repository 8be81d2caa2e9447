package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/server"
)

// ServeOptions configure Serve; nil means DefaultServeOptions().
type ServeOptions struct {
	// Rounds is the number of table copies each latency phase runs on.
	Rounds int
	// Clients and Requests size the load test (LoadRequests requests
	// from Clients concurrent clients).
	Clients, LoadRequests int
	Progress              Progress
}

// DefaultServeOptions: 20 rounds, 32 clients, 2,000 requests.
func DefaultServeOptions() *ServeOptions {
	return &ServeOptions{Rounds: 20, Clients: 32, LoadRequests: 2000}
}

// ServeRow is one kind of request.
type ServeRow struct {
	Kind       string  `json:"kind"`
	Requests   int     `json:"requests"`
	Clients    int     `json:"clients"`
	P50Ms      float64 `json:"p50_ms"`
	P95Ms      float64 `json:"p95_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	Throughput float64 `json:"requests_per_second"`
	Errors     int     `json:"errors"`
}

// ServeReport is the outcome of Serve.
type ServeReport struct {
	Method  string     `json:"method"` // "serve"
	Rows    []ServeRow `json:"rows"`
	Seconds float64    `json:"seconds"`
}

// Serve measures the query service end to end on loopback: a server
// (package server) over a temporary SQLite database with copies of the
// autoworkers table, requests over HTTP by the Go client. Latency phases
// are sequential (one client): requests that need new bounds (the paper's
// [BF], [ABCE], [ADE] and further margins, each on a fresh table copy so
// nothing is cached), requests implied by an earlier release, and retries
// of a stored decision. The load phase is LoadRequests requests from
// Clients concurrent clients over four copies.
func Serve(opt *ServeOptions) (*ServeReport, error) {
	if opt == nil {
		opt = DefaultServeOptions()
	}
	if opt.Rounds < 1 || opt.Clients < 1 || opt.LoadRequests < 1 {
		return nil, settingsErr("rounds", "rounds, clients and requests must be positive")
	}
	dir, err := datasets.SharedDir()
	if err != nil {
		return nil, err
	}
	csvPath := filepath.Join(dir, "autoworkers.csv")
	data, err := os.ReadFile(csvPath)
	if err != nil {
		return nil, err
	}
	tab, err := datasets.LoadTableCSV(csvPath, nil)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "sdcopt-bench-serve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	store, err := server.Open(filepath.Join(tmp, "bench.db"))
	if err != nil {
		return nil, err
	}
	defer store.Close()
	ctx := context.Background()
	var names []string
	for i := 0; i < max(opt.Rounds, 4); i++ {
		n := fmt.Sprintf("aw%d", i)
		if err := store.LoadTable(ctx, n, tab, audit.DefaultPolicy(), csvPath, data); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: server.New(store, server.Config{}).Handler(), ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	c := &server.Client{Base: "http://" + ln.Addr().String(), HTTP: &http.Client{Timeout: time.Minute}}
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &ServeReport{Method: "serve"}

	fresh := [][]string{{"B", "F"}, {"A", "B", "C", "E"}, {"A", "D", "E"}, {"A", "C", "F"}, {"B", "D", "E", "F"}}
	implied := [][]string{{"A", "B"}, {"B", "C"}, {"A", "E"}, {"C", "E"}, {"B"}, {"F"}, {"D", "E"}}
	var newLat, impLat, retryLat []float64
	errs := [3]int{}
	timed := func(lat *[]float64, e *int, table string, m []string, key string) {
		t0 := time.Now()
		if _, _, err := c.Request(ctx, table, m, "", key, "bench"); err != nil {
			*e++
		}
		*lat = append(*lat, 1000*time.Since(t0).Seconds())
	}
	prog.Printf("serve: latency phases on %d table copies", opt.Rounds)
	for r := 0; r < opt.Rounds; r++ {
		n := names[r]
		for i, m := range fresh {
			timed(&newLat, &errs[0], n, m, fmt.Sprintf("new-%d", i))
		}
		for i, m := range implied {
			timed(&impLat, &errs[1], n, m, fmt.Sprintf("implied-%d", i))
		}
		for i, m := range fresh {
			timed(&retryLat, &errs[2], n, m, fmt.Sprintf("new-%d", i))
		}
	}
	for i, x := range []struct {
		kind string
		lat  []float64
	}{{"new bounds", newLat}, {"implied by history", impLat}, {"retry (stored decision)", retryLat}} {
		rep.Rows = append(rep.Rows, latencyRow(x.kind, x.lat, errs[i]))
	}
	prog.Printf("serve: load test, %d clients, %d requests", opt.Clients, opt.LoadRequests)
	load := server.LoadTest(ctx, c, names[len(names)-4:], append(fresh, implied...), opt.Clients, opt.LoadRequests, "load")
	rep.Rows = append(rep.Rows, ServeRow{Kind: "load (mixed)", Requests: load.Requests, Clients: load.Clients, P50Ms: load.P50Ms,
		P95Ms: load.P95Ms, P99Ms: load.P99Ms, MaxMs: load.MaxMs, Throughput: load.Throughput, Errors: load.Errors})
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func latencyRow(kind string, lat []float64, errs int) ServeRow {
	s := slices.Clone(lat)
	slices.Sort(s)
	total := 0.0
	for _, x := range s {
		total += x
	}
	return ServeRow{Kind: kind, Requests: len(s), Clients: 1, P50Ms: quantile(s, 0.5), P95Ms: quantile(s, 0.95), P99Ms: quantile(s, 0.99),
		MaxMs: s[len(s)-1], Throughput: 1000 * float64(len(s)) / total, Errors: errs}
}

// Tables returns the rows.
func (r *ServeReport) Tables() []*Table {
	t := &Table{Name: "serve", Columns: []string{"kind", "requests", "clients", "p50_ms", "p95_ms", "p99_ms", "max_ms", "requests_per_second", "errors"}}
	for _, x := range r.Rows {
		t.add(x.Kind, x.Requests, x.Clients, x.P50Ms, x.P95Ms, x.P99Ms, x.MaxMs, x.Throughput, x.Errors)
	}
	return []*Table{t}
}

// WriteText writes one line per kind of request.
func (r *ServeReport) WriteText(w io.Writer) error {
	fmt.Fprintln(w, "Query service on loopback (autoworkers copies, SQLite WAL + synchronous=FULL): latency per request over HTTP")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tREQUESTS\tCLIENTS\tP50 MS\tP95 MS\tP99 MS\tMAX MS\tREQ/S\tERRORS")
	for _, x := range r.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%d\n", x.Kind, x.Requests, x.Clients, x.P50Ms, x.P95Ms, x.P99Ms, x.MaxMs, x.Throughput, x.Errors)
	}
	return tw.Flush()
}
