package bench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// BoundsCase is one table of the cell-bounds benchmark: a seeded table of
// the given dimensions (counts uniform in 0..MaxCount) with all its
// Way-way margins released, or, with Autoworkers set, a margin set of
// Dobra & Fienberg's autoworkers table.
type BoundsCase struct {
	Name     string `json:"name"`
	Dims     []int  `json:"dims,omitempty"`
	Way      int    `json:"way,omitempty"`
	MaxCount int    `json:"max_count,omitempty"`
	Seed     uint64 `json:"seed,omitempty"`
	// Autoworkers, when set, is "VARS/MARGINS" (VARS "" for all six).
	Autoworkers string `json:"autoworkers,omitempty"`
}

// ParseBoundsCase reads a case name: "2^10:3" (ten binary variables, all
// 3-way margins), "5^5:2", "3x4x5:2", "autoworkers:ABCE/AB,AC,AE,BC,BE,CE"
// or "autoworkers:/BF,ABCE,ADE"; seed 1 and counts 0..9 for the generated
// ones.
func ParseBoundsCase(s string) (BoundsCase, error) {
	c := BoundsCase{Name: s, MaxCount: 9, Seed: 1}
	if rest, ok := strings.CutPrefix(s, "autoworkers:"); ok {
		if !strings.Contains(rest, "/") {
			return c, settingsErr("cases", "%q: want autoworkers:VARS/MARGINS", s)
		}
		c.Autoworkers = rest
		return c, nil
	}
	shape, way, ok := strings.Cut(s, ":")
	w, err := strconv.Atoi(way)
	if !ok || err != nil || w < 1 {
		return c, settingsErr("cases", "%q: want DIMS:WAY, e.g. 2^10:3 or 3x4x5:2", s)
	}
	c.Way = w
	if base, exp, ok := strings.Cut(shape, "^"); ok {
		b, err1 := strconv.Atoi(base)
		e, err2 := strconv.Atoi(exp)
		if err1 != nil || err2 != nil || b < 2 || e < 1 || e > 30 {
			return c, settingsErr("cases", "%q: bad dimensions %q", s, shape)
		}
		for i := 0; i < e; i++ {
			c.Dims = append(c.Dims, b)
		}
	} else {
		for _, f := range strings.Split(shape, "x") {
			d, err := strconv.Atoi(f)
			if err != nil || d < 2 {
				return c, settingsErr("cases", "%q: bad dimensions %q", s, shape)
			}
			c.Dims = append(c.Dims, d)
		}
	}
	if w > len(c.Dims) {
		return c, settingsErr("cases", "%q: %d-way margins of %d variables", s, w, len(c.Dims))
	}
	return c, nil
}

// MarginSet builds the case: the seeded table (or the autoworkers table)
// with its margins released.
func (c *BoundsCase) MarginSet() (*model.MarginSet, error) {
	t, err := c.Table()
	if err != nil {
		return nil, err
	}
	if c.Autoworkers != "" {
		_, margins, _ := strings.Cut(c.Autoworkers, "/")
		return t.ReleaseSpec(margins)
	}
	var subs [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == c.Way {
			subs = append(subs, slices.Clone(cur))
			return
		}
		for i := start; i < len(c.Dims); i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return t.Released(subs)
}

// Table builds the case's table: seeded counts uniform in 0..MaxCount for
// generated cases, the autoworkers table (collapsed onto the case's
// variables) otherwise.
func (c *BoundsCase) Table() (*model.Table, error) {
	if c.Autoworkers != "" {
		vars, _, _ := strings.Cut(c.Autoworkers, "/")
		dir, err := datasets.SharedDir()
		if err != nil {
			return nil, err
		}
		var keep []string
		for _, r := range vars {
			keep = append(keep, string(r))
		}
		return datasets.LoadTableCSV(filepath.Join(dir, "autoworkers.csv"), keep)
	}
	cells := 1
	for _, d := range c.Dims {
		if cells > 1<<26/d {
			return nil, settingsErr("cases", "%s: more than 2^26 cells", c.Name)
		}
		cells *= d
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x626f756e64))
	vars := make([]model.Variable, len(c.Dims))
	for i, d := range c.Dims {
		vars[i].Name = "V" + strconv.Itoa(i+1)
		for l := 0; l < d; l++ {
			vars[i].Levels = append(vars[i].Levels, strconv.Itoa(l))
		}
	}
	counts := make([]int64, cells)
	for i := range counts {
		counts[i] = int64(r.IntN(c.MaxCount + 1))
	}
	return model.NewTable(vars, counts)
}

// BoundsOptions configure Bounds; nil means DefaultBoundsOptions().
type BoundsOptions struct {
	Cases   []BoundsCase
	Methods []string // cellbounds methods; "lp" is the reference of the ratios
	// TimeLimit bounds each run (cellbounds.Settings.TimeLimit; 0 = none).
	TimeLimit time.Duration
	// Solver is the engine ("" = auto).
	Solver   string
	Progress Progress
}

// DefaultBoundsCases are the generated tables of the benchmark.
var DefaultBoundsCases = []string{"2^8:2", "2^8:3", "2^10:2", "2^10:3", "2^12:2", "2^12:3", "2^14:2", "5^5:2", "5^5:3", "4^6:2", "4^6:3",
	"autoworkers:ABCE/AB,AC,AE,BC,BE,CE", "autoworkers:/BF,BC,BE,AB,AC,AE,CE,DE,AD"}

// DefaultBoundsOptions returns every default case with the methods
// certified and lp and a limit of 10 minutes per run.
func DefaultBoundsOptions() *BoundsOptions {
	o := &BoundsOptions{Methods: []string{cellbounds.Certified, cellbounds.LP}, TimeLimit: 10 * time.Minute}
	for _, s := range DefaultBoundsCases {
		c, _ := ParseBoundsCase(s)
		o.Cases = append(o.Cases, c)
	}
	return o
}

// BoundsRow is one (case, method) run.
type BoundsRow struct {
	Case    string  `json:"case"`
	Cells   int     `json:"cells"`
	Margins int     `json:"margins"`
	Method  string  `json:"method"`
	Solver  string  `json:"solver"`
	Seconds float64 `json:"seconds"`
	// PeakMB is the largest resident set size of the process sampled
	// during the run (engines' memory included), in megabytes.
	PeakMB     float64 `json:"peak_mb"`
	Stopped    string  `json:"stopped"`
	SharpCells int     `json:"sharp_cells"`
	// Per bound (2 per cell), for the certified method: how each is
	// proven and whether attained.
	DualProven    int `json:"dual_proven"`
	TrivialProven int `json:"trivial_proven"`
	IPProven      int `json:"ip_proven"`
	SharpBounds   int `json:"sharp_bounds"`
	Witnesses     int `json:"witnesses"`
	LPSolves      int `json:"lp_solves"`
	// MsPerLP is the wall time of the LP phases per solve and core;
	// EngineMsPerLP the engine's own time per solve (certified only).
	MsPerLP       float64  `json:"ms_per_lp"`
	EngineMsPerLP float64  `json:"engine_ms_per_lp"`
	ItersPerLP    float64  `json:"iterations_per_lp"`
	RatioToLP     *float64 `json:"ratio_to_lp"` // seconds / the lp method's seconds on the case
	Note          string   `json:"note"`
}

// BoundsReport is the outcome of Bounds.
type BoundsReport struct {
	Method    string      `json:"method"` // "bounds"
	TimeLimit float64     `json:"time_limit"`
	Rows      []BoundsRow `json:"rows"`
	Seconds   float64     `json:"seconds"`
}

// Bounds runs every method on every case and reports time, memory and how
// the bounds were proven.
func Bounds(opt *BoundsOptions) (*BoundsReport, error) {
	if opt == nil {
		opt = DefaultBoundsOptions()
	}
	for _, m := range opt.Methods {
		if !slices.Contains(cellbounds.Methods, m) {
			return nil, settingsErr("methods", "unknown method %q (want some of %s)", m, strings.Join(cellbounds.Methods, ", "))
		}
	}
	if opt.TimeLimit < 0 {
		return nil, settingsErr("time-limit", "negative time limit %v", opt.TimeLimit)
	}
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &BoundsReport{Method: "bounds", TimeLimit: opt.TimeLimit.Seconds()}
	// Every case is built before the first run: a missing data file
	// fails at once, not after an hour of runs.
	sets := make([]*model.MarginSet, len(opt.Cases))
	for i, c := range opt.Cases {
		ms, err := c.MarginSet()
		if err != nil {
			return nil, fmt.Errorf("bench bounds: %s: %w", c.Name, err)
		}
		sets[i] = ms
	}
	for i, c := range opt.Cases {
		ms := sets[i]
		var lpSecs float64
		var rows []BoundsRow
		for _, m := range opt.Methods {
			prog.Printf("bounds %s: %s", c.Name, m)
			row, err := boundsRun(ms, c.Name, m, opt)
			if err != nil {
				return nil, fmt.Errorf("bench bounds: %s, %s: %w", c.Name, m, err)
			}
			if m == cellbounds.LP && row.Stopped == "" {
				lpSecs = row.Seconds
			}
			rows = append(rows, row)
		}
		for i := range rows {
			if lpSecs > 0 {
				r := rows[i].Seconds / lpSecs
				rows[i].RatioToLP = &r
			}
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func boundsRun(ms *model.MarginSet, name, method string, opt *BoundsOptions) (BoundsRow, error) {
	peak := newRSSSampler()
	res, err := cellbounds.Compute(ms, cellbounds.Settings{Method: method, Solver: opt.Solver, TimeLimit: opt.TimeLimit})
	mb := peak.stop()
	if err != nil {
		return BoundsRow{}, err
	}
	row := BoundsRow{Case: name, Cells: len(res.Bounds.Lower), Margins: len(ms.Margins), Method: method, Solver: res.Solver,
		Seconds: res.Seconds, PeakMB: mb, Stopped: res.Stopped, SharpCells: res.SharpCells, Note: res.Note}
	if st := res.CertifiedStats; st != nil {
		row.DualProven, row.TrivialProven, row.IPProven, row.SharpBounds = st.DualProven, st.TrivialProven, st.IPProven, st.Sharp
		row.Witnesses, row.LPSolves = st.Witnesses, st.LPSolves
		if st.LPSolves > 0 {
			workers := float64(max(1, min(2, row.Cells/64)))
			row.MsPerLP = 1000 * (st.UpperSeconds + st.LowerSeconds) * workers / float64(st.LPSolves)
			row.EngineMsPerLP = 1000 * st.LPSeconds / float64(st.LPSolves)
			row.ItersPerLP = float64(st.LPIterations) / float64(st.LPSolves)
		}
	}
	return row, nil
}

// rssSampler samples the process's resident set size every 20 ms.
type rssSampler struct {
	mu   sync.Mutex
	peak int64
	done chan struct{}
	wg   sync.WaitGroup
}

func newRSSSampler() *rssSampler {
	s := &rssSampler{done: make(chan struct{}), peak: rss()}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-t.C:
				if v := rss(); v > 0 {
					s.mu.Lock()
					s.peak = max(s.peak, v)
					s.mu.Unlock()
				}
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the peak in megabytes (0 where the
// resident set size cannot be read).
func (s *rssSampler) stop() float64 {
	close(s.done)
	s.wg.Wait()
	return float64(max(s.peak, rss())) / 1e6
}

// rss reads the resident set size from /proc/self/statm (0 elsewhere).
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// Tables returns the runs.
func (r *BoundsReport) Tables() []*Table {
	t := &Table{Name: "bounds", Columns: []string{"case", "cells", "margins", "method", "solver", "seconds", "peak_mb", "stopped", "sharp_cells",
		"dual_proven", "trivial_proven", "ip_proven", "sharp_bounds", "witnesses", "lp_solves", "ms_per_lp", "engine_ms_per_lp",
		"iterations_per_lp", "ratio_to_lp"}}
	for _, x := range r.Rows {
		t.add(x.Case, x.Cells, x.Margins, x.Method, x.Solver, x.Seconds, x.PeakMB, x.Stopped, x.SharpCells, x.DualProven,
			x.TrivialProven, x.IPProven, x.SharpBounds, x.Witnesses, x.LPSolves, x.MsPerLP, x.EngineMsPerLP, x.ItersPerLP, x.RatioToLP)
	}
	return []*Table{t}
}

// WriteText writes one line per run.
func (r *BoundsReport) WriteText(w io.Writer) error {
	fmt.Fprintln(w, "Cell bounds of seeded tables (counts 0..9) with all k-way margins, and the autoworkers cases")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tCELLS\tMETHOD\tSECONDS\tPEAK MB\tSHARP CELLS\tBOUNDS: DUAL/TRIVIAL/IP/SHARP\tWITNESSES\tLP SOLVES\tMS/LP (ENGINE)\tRATIO TO LP\tSTOPPED")
	for _, x := range r.Rows {
		ratio := "-"
		if x.RatioToLP != nil {
			ratio = fmt.Sprintf("%.2f", *x.RatioToLP)
		}
		proofs, lps := "-", "-"
		if x.Method == cellbounds.Certified {
			proofs = fmt.Sprintf("%d/%d/%d/%d", x.DualProven, x.TrivialProven, x.IPProven, x.SharpBounds)
			lps = fmt.Sprintf("%.1f (%.1f)", x.MsPerLP, x.EngineMsPerLP)
		}
		stopped := x.Stopped
		if stopped == "" {
			stopped = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.2f\t%.0f\t%d\t%s\t%d\t%d\t%s\t%s\t%s\n", x.Case, x.Cells, x.Method, x.Seconds, x.PeakMB,
			x.SharpCells, proofs, x.Witnesses, x.LPSolves, lps, ratio, stopped)
	}
	return tw.Flush()
}
