package bench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// AuditOptions configure Audit; nil means DefaultAuditOptions().
type AuditOptions struct {
	// Cases are tables with the largest margin requested: "autoworkers:3"
	// (the autoworkers table, margins of 1-3 variables), "2^10:3" (a
	// seeded table as in Bounds, counts 0..9), or microdata audited
	// without the full table (audit.NewMicrodata): "adult:3" (the Adult
	// training file over its 9 categorical variables) and
	// "synthetic20:3" (100,000 seeded records of 20 variables with 2-6
	// levels, datasets.SyntheticMicrodata). "4^5:3@0.5" is a sparse
	// seeded table whose counts are Poisson with mean 0.5 (run
	// incrementally only).
	Cases []string
	// Requests is the length of every request sequence; Sequences the
	// number of sequences per case (seeds 1..Sequences).
	Requests, Sequences int
	// Policy is the auditor's policy (zero value: audit.DefaultPolicy()).
	Policy *audit.Policy
	// TimeLimit bounds each bounds computation (audit.Options.TimeLimit).
	TimeLimit time.Duration
	Solver    string
	Progress  Progress
}

// DefaultAuditCases are the tables of the audit benchmark.
var DefaultAuditCases = []string{"autoworkers:3", "autoworkers:5", "2^6:3", "2^8:3", "2^10:2", "2^12:2"}

// DefaultAuditOptions: every default case, 3 sequences of 12 requests.
func DefaultAuditOptions() *AuditOptions {
	return &AuditOptions{Cases: DefaultAuditCases, Requests: 12, Sequences: 3, TimeLimit: 60 * time.Second}
}

// AuditRow is one case run incrementally or from scratch.
type AuditRow struct {
	Case      string `json:"case"`
	Cells     int    `json:"cells"`
	Mode      string `json:"mode"` // "incremental" or "scratch"
	Decisions int    `json:"decisions"`
	Released  int    `json:"released"`
	Denied    int    `json:"denied"`
	Implied   int    `json:"implied"`
	Cached    int    `json:"cached"`
	Warm      int    `json:"warm"`
	// Latencies of one decision, in milliseconds.
	MedianMs float64 `json:"median_ms"`
	P95Ms    float64 `json:"p95_ms"`
	MaxMs    float64 `json:"max_ms"`
	Seconds  float64 `json:"seconds"`
	// Speedup is the scratch run's seconds over the incremental run's
	// (incremental rows only).
	Speedup *float64 `json:"speedup"`
	// Agree: the incremental and scratch runs made the same decisions.
	Agree *bool `json:"agree"`
	// Undecided counts the decisions with cells left undecided (denied
	// for want of evidence); Evidence sums the cells of every decision by
	// what decided them (audit.Evidence).
	Undecided int            `json:"undecided"`
	Evidence  audit.Evidence `json:"evidence"`
	// TooLarge counts the undecided decisions whose table was over the
	// cell limit (no bounds computed).
	TooLarge int `json:"too_large"`
}

// AuditReport is the outcome of Audit.
type AuditReport struct {
	Method  string     `json:"method"` // "audit"
	Policy  string     `json:"policy"`
	Rows    []AuditRow `json:"rows"`
	Seconds float64    `json:"seconds"`
}

type auditCase struct {
	name string
	tab  *model.Table
	md   *datasets.Microdata
	way  int
	// incrementalOnly: no run from scratch (sparse cases, whose
	// decisions take seconds).
	incrementalOnly bool
}

func (c auditCase) vars() []model.Variable {
	if c.md != nil {
		return c.md.Vars
	}
	return c.tab.Vars
}

// syntheticLevels are the levels of the 20 variables of synthetic20.
func syntheticLevels() []int {
	r := rand.New(rand.NewPCG(20, 6))
	out := make([]int, 20)
	for i := range out {
		out[i] = 2 + r.IntN(5)
	}
	return out
}

func parseAuditCase(s string) (auditCase, error) {
	c := auditCase{name: s}
	for _, kind := range []string{"adult:", "synthetic20:"} {
		rest, ok := strings.CutPrefix(s, kind)
		if !ok {
			continue
		}
		w, err := strconv.Atoi(rest)
		if err != nil || w < 1 || w > 4 {
			return c, settingsErr("cases", "%q: want %sWAY with WAY in 1..4", s, kind)
		}
		c.way = w
		if kind == "adult:" {
			c.md, err = datasets.LoadAdultMicrodata()
		} else {
			c.md, err = datasets.SyntheticMicrodata(100000, syntheticLevels(), 20)
		}
		return c, err
	}
	if rest, ok := strings.CutPrefix(s, "autoworkers:"); ok {
		w, err := strconv.Atoi(rest)
		if err != nil || w < 1 || w > 5 {
			return c, settingsErr("cases", "%q: want autoworkers:WAY with WAY in 1..5", s)
		}
		bc := BoundsCase{Name: s, Autoworkers: "/"}
		t, err := bc.Table()
		if err != nil {
			return c, err
		}
		c.tab, c.way = t, w
		return c, nil
	}
	spec, mean, sparse := strings.Cut(s, "@")
	bc, err := ParseBoundsCase(spec)
	if err != nil {
		return c, err
	}
	if bc.Way >= len(bc.Dims) {
		return c, settingsErr("cases", "%q: requests of %d of %d variables release the table", s, bc.Way, len(bc.Dims))
	}
	if sparse {
		m, err := strconv.ParseFloat(mean, 64)
		if err != nil || !(m > 0 && m <= 100) {
			return c, settingsErr("cases", "%q: the mean count after @ must be a number in (0, 100]", s)
		}
		t, err := datasets.PoissonTable(bc.Dims, m, 1)
		if err != nil {
			return c, err
		}
		c.tab, c.way, c.incrementalOnly = t, bc.Way, true
		return c, nil
	}
	t, err := bc.Table()
	if err != nil {
		return c, err
	}
	c.tab, c.way = t, bc.Way
	return c, nil
}

// auditSequence draws a seeded request sequence as users make them:
// margins of 1..way variables (larger ones likelier), and one request in
// three goes back to an earlier one, repeated (a retry after a denial) or
// with one variable dropped.
func auditSequence(vars []model.Variable, way, n int, seed uint64) [][]string {
	r := rand.New(rand.NewPCG(seed, 0x6175646974))
	out := make([][]string, n)
	for i := range out {
		if i > 0 && r.IntN(3) == 0 {
			prev := slices.Clone(out[r.IntN(i)])
			if len(prev) > 1 && r.IntN(2) == 0 {
				k := r.IntN(len(prev))
				prev = append(prev[:k], prev[k+1:]...)
			}
			out[i] = prev
			continue
		}
		size := way - r.IntN(r.IntN(way)+1)
		perm := r.Perm(len(vars))[:size]
		slices.Sort(perm)
		for _, j := range perm {
			out[i] = append(out[i], vars[j].Name)
		}
	}
	return out
}

// Audit replays seeded request sequences through the release auditor,
// incrementally (implied margins, cached views, the shuttle warm-started
// from the history's bounds) and from scratch, and reports the latency of
// a decision (median, p95, max) and whether both made the same decisions.
func Audit(opt *AuditOptions) (*AuditReport, error) {
	if opt == nil {
		opt = DefaultAuditOptions()
	}
	if opt.Requests < 1 || opt.Sequences < 1 {
		return nil, settingsErr("requests", "need at least one request and one sequence (have %d, %d)", opt.Requests, opt.Sequences)
	}
	pol := audit.DefaultPolicy()
	if opt.Policy != nil {
		pol = *opt.Policy
	}
	cases := make([]auditCase, len(opt.Cases))
	for i, s := range opt.Cases {
		c, err := parseAuditCase(s)
		if err != nil {
			return nil, err
		}
		cases[i] = c
	}
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &AuditReport{Method: "audit", Policy: pol.Version()}
	for _, c := range cases {
		var rows [2]AuditRow
		var outcomes [2][]string
		modes := []bool{false, true}
		if c.md != nil || c.incrementalOnly {
			modes = modes[:1] // microdata and sparse tables: the incremental run only
		}
		for m, scratch := range modes {
			row := AuditRow{Case: c.name, Mode: "incremental"}
			if c.tab != nil {
				row.Cells = len(c.tab.Counts)
			} else {
				row.Mode = "microdata"
				row.Cells = -1 // never built
			}
			if scratch {
				row.Mode = "scratch"
			}
			prog.Printf("audit %s: %s", c.name, row.Mode)
			var lat []float64
			t0 := time.Now()
			for seq := 1; seq <= opt.Sequences; seq++ {
				aopt := audit.Options{Solver: opt.Solver, TimeLimit: opt.TimeLimit, FromScratch: scratch}
				var a *audit.Auditor
				var err error
				if c.md != nil {
					a, err = audit.NewMicrodata(c.md, pol, aopt, audit.MicrodataOptions{})
				} else {
					a, err = audit.New(c.tab, pol, aopt)
				}
				if err != nil {
					return nil, err
				}
				h := a.NewHistory()
				for _, margin := range auditSequence(c.vars(), c.way, opt.Requests, uint64(seq)) {
					d0 := time.Now()
					d, err := a.Decide(h, audit.Request{Margin: margin})
					if err != nil {
						return nil, fmt.Errorf("bench audit: %s %v: %w", c.name, margin, err)
					}
					lat = append(lat, 1000*time.Since(d0).Seconds())
					h.Append(d)
					row.Decisions++
					outcomes[m] = append(outcomes[m], d.Outcome)
					switch d.Outcome {
					case audit.Released:
						row.Released++
					case audit.Denied:
						row.Denied++
					}
					if d.Operator.Implied {
						row.Implied++
					}
					if d.Operator.Cached {
						row.Cached++
					}
					if d.Operator.Warm {
						row.Warm++
					}
					if len(d.Operator.Undecided) > 0 {
						row.Undecided++
						if d.Operator.Evidence == nil {
							row.TooLarge++
						}
					}
					if e := d.Operator.Evidence; e != nil {
						row.Evidence.Add(*e)
					}
				}
			}
			row.Seconds = time.Since(t0).Seconds()
			slices.Sort(lat)
			row.MedianMs, row.P95Ms, row.MaxMs = quantile(lat, 0.5), quantile(lat, 0.95), lat[len(lat)-1]
			rows[m] = row
		}
		if len(modes) == 1 {
			rep.Rows = append(rep.Rows, rows[0])
			continue
		}
		sp := rows[1].Seconds / max(rows[0].Seconds, 1e-9)
		agree := slices.Equal(outcomes[0], outcomes[1])
		rows[0].Speedup, rows[0].Agree = &sp, &agree
		rep.Rows = append(rep.Rows, rows[0], rows[1])
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// quantile of sorted values, nearest rank (gonum's empirical quantile, as
// server.LoadTest reports them).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return stat.Quantile(q, stat.Empirical, sorted, nil)
}

// Tables returns the rows.
func (r *AuditReport) Tables() []*Table {
	t := &Table{Name: "audit", Columns: []string{"case", "cells", "mode", "decisions", "released", "denied", "implied", "cached", "warm",
		"median_ms", "p95_ms", "max_ms", "seconds", "speedup", "agree", "undecided_decisions", "too_large",
		"cells_sharp", "cells_proven", "cells_witness", "cells_search", "cells_moves", "cells_undecided"}}
	for _, x := range r.Rows {
		t.add(x.Case, x.Cells, x.Mode, x.Decisions, x.Released, x.Denied, x.Implied, x.Cached, x.Warm, x.MedianMs, x.P95Ms, x.MaxMs,
			x.Seconds, x.Speedup, x.Agree, x.Undecided, x.TooLarge, x.Evidence.Sharp, x.Evidence.Proven, x.Evidence.Witness, x.Evidence.Search, x.Evidence.Moves,
			x.Evidence.Undecided)
	}
	return []*Table{t}
}

// WriteText writes one line per case and mode.
func (r *AuditReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Release auditor: decision latency over seeded request sequences (policy %s)\n", r.Policy)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tCELLS\tMODE\tDECISIONS\tREL/DENIED\tIMPLIED/CACHED/WARM\tMEDIAN MS\tP95 MS\tMAX MS\tSECONDS\tSPEEDUP\tSAME DECISIONS\tUNDECIDED (TOO LARGE)\tCELLS SHARP/PROVEN/WITNESS/SEARCH/MOVES/UNDECIDED")
	for _, x := range r.Rows {
		sp, agree := "-", "-"
		if x.Speedup != nil {
			sp = fmt.Sprintf("%.2f", *x.Speedup)
			agree = strconv.FormatBool(*x.Agree)
		}
		cells := strconv.Itoa(x.Cells)
		if x.Cells < 0 {
			cells = "(microdata)"
		}
		e := x.Evidence
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d/%d\t%d/%d/%d\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t%s\t%d (%.0f%%, %d)\t%d/%d/%d/%d/%d/%d\n", x.Case, cells, x.Mode, x.Decisions,
			x.Released, x.Denied, x.Implied, x.Cached, x.Warm, x.MedianMs, x.P95Ms, x.MaxMs, x.Seconds, sp, agree,
			x.Undecided, 100*float64(x.Undecided)/float64(max(x.Decisions, 1)), x.TooLarge, e.Sharp, e.Proven, e.Witness, e.Search, e.Moves, e.Undecided)
	}
	return tw.Flush()
}
