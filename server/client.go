package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/sdcopt/sdcopt/audit"
)

// Client is a Go client of the API.
type Client struct {
	// Base is the server's address, e.g. "http://127.0.0.1:8080".
	Base string
	// Token is the operator's bearer token (admin calls only).
	Token string
	// AnalystToken is an analyst's token (Store.AddAnalyst), sent with
	// the other calls; empty: anonymous.
	AnalystToken string
	// HTTP is the transport (nil: a client with a 2-minute timeout).
	HTTP *http.Client
}

// APIError is a 4xx/5xx answer.
type APIError struct {
	Status  int
	Message string
}

func (e *APIError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message) }

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 2 * time.Minute}
}

// do sends a request and decodes a JSON answer into out.
func (c *Client) do(ctx context.Context, method, path string, body io.Reader, ctype string, admin bool, out any) (http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, body)
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if admin {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	} else if c.AnalystToken != "" {
		req.Header.Set("Authorization", "Bearer "+c.AnalystToken)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		var e apiError
		json.Unmarshal(data, &e)
		return resp.Header, &APIError{Status: resp.StatusCode, Message: e.Error}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.Header, fmt.Errorf("server answer is not the expected JSON: %w", err)
		}
	}
	return resp.Header, nil
}

// Tables lists the tables as anyone sees them.
func (c *Client) Tables(ctx context.Context) ([]*PublicTable, error) {
	var out struct {
		Tables []*PublicTable `json:"tables"`
	}
	_, err := c.do(ctx, "GET", "/v1/tables", nil, "", false, &out)
	return out.Tables, err
}

// AdminTables lists the tables with the operator's metadata (operator).
func (c *Client) AdminTables(ctx context.Context) ([]*TableInfo, error) {
	var out struct {
		Tables []*TableInfo `json:"tables"`
	}
	_, err := c.do(ctx, "GET", "/v1/admin/tables", nil, "", true, &out)
	return out.Tables, err
}

// Request asks for a margin; key is the idempotency key. replay reports a
// stored decision returned for a retry.
func (c *Client) Request(ctx context.Context, table string, margin []string, mode, key, requester string) (d Answer, replay bool, err error) {
	m, _ := json.Marshal(margin)
	body, _ := json.Marshal(MarginRequest{Margin: m, Mode: mode, IdempotencyKey: key, Requester: requester})
	h, err := c.do(ctx, "POST", "/v1/tables/"+url.PathEscape(table)+"/requests", bytes.NewReader(body), "application/json", false, &d)
	return d, h != nil && h.Get("Idempotent-Replay") == "true", err
}

// WhoAmI says who the server takes the caller for.
func (c *Client) WhoAmI(ctx context.Context) (Identity, error) {
	var id Identity
	_, err := c.do(ctx, "GET", "/v1/whoami", nil, "", false, &id)
	return id, err
}

// Analysts lists the analysts (operator).
func (c *Client) Analysts(ctx context.Context) ([]Analyst, error) {
	var out struct {
		Analysts []Analyst `json:"analysts"`
	}
	_, err := c.do(ctx, "GET", "/v1/admin/analysts", nil, "", true, &out)
	return out.Analysts, err
}

// Releases lists a table's public releases.
func (c *Client) Releases(ctx context.Context, table string) ([]PublicRelease, error) {
	var out struct {
		Releases []PublicRelease `json:"releases"`
	}
	_, err := c.do(ctx, "GET", "/v1/tables/"+url.PathEscape(table)+"/releases", nil, "", false, &out)
	return out.Releases, err
}

// LoadTable uploads a long CSV table (operator).
func (c *Client) LoadTable(ctx context.Context, name string, csv []byte, policy string) (*TableInfo, error) {
	var out TableInfo
	q := ""
	if policy != "" {
		q = "?policy=" + url.QueryEscape(policy)
	}
	_, err := c.do(ctx, "PUT", "/v1/admin/tables/"+url.PathEscape(name)+q, bytes.NewReader(csv), "text/csv", true, &out)
	return &out, err
}

// SetPolicy sets every field of a table's policy (operator).
func (c *Client) SetPolicy(ctx context.Context, name string, p audit.Policy) error {
	_, err := c.UpdatePolicy(ctx, name, audit.PolicyUpdate{Small: &p.Small, MinWidth: &p.MinWidth, MinRelWidth: &p.MinRelWidth, AllowSimulate: &p.AllowSimulate})
	return err
}

// UpdatePolicy changes the fields u sets in a table's policy and returns
// the policy now in force (operator).
func (c *Client) UpdatePolicy(ctx context.Context, name string, u audit.PolicyUpdate) (audit.Policy, error) {
	body, _ := json.Marshal(u)
	var out PolicyAnswer
	_, err := c.do(ctx, "PUT", "/v1/admin/tables/"+url.PathEscape(name)+"/policy", bytes.NewReader(body), "application/json", true, &out)
	return out.Policy, err
}

// AuditLog reads a table's decisions with their evidence (operator).
func (c *Client) AuditLog(ctx context.Context, name string) ([]LogEntry, error) {
	var out struct {
		Decisions []LogEntry `json:"decisions"`
	}
	_, err := c.do(ctx, "GET", "/v1/admin/tables/"+url.PathEscape(name)+"/audit", nil, "", true, &out)
	return out.Decisions, err
}

// LoadReport is the outcome of LoadTest.
type LoadReport struct {
	Clients    int     `json:"clients"`
	Requests   int     `json:"requests"`
	Errors     int     `json:"errors"`
	Released   int     `json:"released"`
	Denied     int     `json:"denied"`
	Simulated  int     `json:"simulated"`
	Replays    int     `json:"replays"`
	Seconds    float64 `json:"seconds"`
	Throughput float64 `json:"requests_per_second"`
	P50Ms      float64 `json:"p50_ms"`
	P95Ms      float64 `json:"p95_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	FirstError string  `json:"first_error,omitempty"`
}

// LoadTest sends requests margin requests from clients concurrent clients:
// request i asks for margins[i % len(margins)] on tables[i % len(tables)]
// with key prefix+i, so a second run with the same prefix is all retries.
func LoadTest(ctx context.Context, c *Client, tables []string, margins [][]string, clients, requests int, prefix string) *LoadReport {
	rep := &LoadReport{Clients: clients, Requests: requests}
	lat := make([]float64, requests)
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				d, replay, err := c.Request(ctx, tables[i%len(tables)], margins[i%len(margins)], audit.ModeRelease, fmt.Sprintf("%s-%d", prefix, i), "load")
				lat[i] = 1000 * time.Since(t0).Seconds()
				mu.Lock()
				switch {
				case err != nil:
					rep.Errors++
					if rep.FirstError == "" {
						rep.FirstError = err.Error()
					}
				case d.Outcome == audit.Released:
					rep.Released++
				case d.Outcome == audit.Denied:
					rep.Denied++
				case d.Outcome == audit.Simulated:
					rep.Simulated++
				}
				if replay {
					rep.Replays++
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < requests; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	rep.Seconds = time.Since(start).Seconds()
	rep.Throughput = float64(requests) / rep.Seconds
	slices.Sort(lat)
	// Nearest-rank percentiles (gonum's empirical quantile).
	q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, lat, nil) }
	rep.P50Ms, rep.P95Ms, rep.P99Ms, rep.MaxMs = q(0.5), q(0.95), q(0.99), lat[len(lat)-1]
	return rep
}
