package bench

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/plotter"

	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
	"github.com/sdcopt/sdcopt/tabular/synth"
)

// TableAuditOptions configure TableAudit; nil means
// DefaultTableAuditOptions().
type TableAuditOptions struct {
	// Sizes are the target numbers of cells; each gives the 2-way and
	// 3-way table of two-level dimensions (total → g groups → k leaves)
	// nearest to it (TableAuditShape).
	Sizes []int
	// Ways are the numbers of dimensions to run (2, 3 or both).
	Ways []int
	// Patterns are the suppression patterns: "random" and "concentrated"
	// (see TableAudit).
	Patterns []string
	// Suppressed is the share of cells suppressed (primary and extra).
	Suppressed float64
	// Solver is the engine ("auto": the default LP engine), Workers the
	// goroutines of intervals.Settings.
	Solver  string
	Workers int
	Seed    uint64
	// NoLocal is intervals.Settings.NoLocal (to measure without the local
	// relaxations).
	NoLocal bool
	// Progress shows the runs under way; nil none.
	Progress Progress
}

// DefaultTableAuditOptions: 1,000 to 100,000 cells, 2-way and 3-way,
// both patterns, 40 % suppressed, the default engine, one worker, seed 1.
func DefaultTableAuditOptions() *TableAuditOptions {
	return &TableAuditOptions{Sizes: []int{1000, 5000, 20000, 100000}, Ways: []int{2, 3},
		Patterns: []string{"random", "concentrated"}, Suppressed: 0.4, Solver: "auto", Workers: 1, Seed: 1}
}

// tableAuditRecordsPerLeaf is the number of synthetic records per leaf
// cell (a cell whose every code is a leaf).
const tableAuditRecordsPerLeaf = 2.5

// tableAuditDensity is the share of the non-primary cells of the hot
// subtrees that the "concentrated" pattern suppresses (at least).
const tableAuditDensity = 0.8

// tableAuditSkew is the Zipf exponent of the presets of package synth.
const tableAuditSkew = 0.8

// TableAuditShape returns the branching (g groups of k leaves, k ≥ 2,
// g ≥ 2) of every one of ways dimensions whose table has the number of
// cells (1 + g + g·k)^ways nearest to cells on a log scale; ties go to
// the smallest |g − k| (so 5,000 and 100,000 cells give the 3-way shapes
// of synth's presets "3way-5000" and "3way-100k").
func TableAuditShape(cells, ways int) (g, k int) {
	best := math.Inf(1)
	for gg := 2; gg <= 40; gg++ {
		for kk := 2; kk <= 40; kk++ {
			n := math.Pow(float64(1+gg+gg*kk), float64(ways))
			d := math.Abs(math.Log(n / float64(cells)))
			if d < best-1e-12 || math.Abs(d-best) <= 1e-12 && abs(gg-kk) < abs(g-k) {
				best, g, k = d, gg, kk
			}
		}
	}
	return g, k
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TableAuditRow is one audit.
type TableAuditRow struct {
	Ways       int     `json:"ways"`
	Pattern    string  `json:"pattern"`
	Groups     int     `json:"groups"` // g: every dimension is total → g groups → k leaves
	Leaves     int     `json:"leaves"` // k
	Records    int     `json:"records"`
	Cells      int     `json:"cells"`
	Primary    int     `json:"primary"`
	Suppressed int     `json:"suppressed"`
	Disclosed  int     `json:"disclosed"`  // suppressed cells whose interval is a point
	Determined int     `json:"determined"` // by differencing, without an LP (Skipped/2 at least)
	Components int     `json:"components"`
	Largest    int     `json:"largest"` // suppressed cells of the largest component
	Rows       int     `json:"rows"`
	Solves     int     `json:"solves"`
	Skipped    int     `json:"skipped"`
	Local      int     `json:"local"`        // ends proven by local relaxations (intervals.Result.Local)
	LocalLPs   int     `json:"local_solves"` // their small LPs, not among Solves
	Iterations int64   `json:"iterations"`
	Engine     string  `json:"engine"`
	Seconds    float64 `json:"seconds"` // intervals.Compute, certificates kept
}

// TableAuditFit is log(seconds) = a + b·log(cells) over one way and
// pattern: b is the empirical exponent.
type TableAuditFit struct {
	Ways      int     `json:"ways"`
	Pattern   string  `json:"pattern"`
	Exponent  float64 `json:"exponent"`
	Intercept float64 `json:"intercept"`
	R2        float64 `json:"r2"`
}

// TableAuditReport is the outcome of TableAudit.
type TableAuditReport struct {
	Method     string          `json:"method"` // "table-audit"
	Solver     string          `json:"solver"`
	Workers    int             `json:"workers"`
	Suppressed float64         `json:"suppressed_share"`
	Seed       uint64          `json:"seed"`
	Rows       []TableAuditRow `json:"rows"`
	Fits       []TableAuditFit `json:"fits"`
	Seconds    float64         `json:"seconds"`
}

// TableAudit times the interval audit (intervals.Compute, LP intervals
// with certificates) of synthetic hierarchical frequency tables against
// their number of cells, and fits seconds ~ cells^b per way and pattern
// (gonum/stat, least squares on logs).
//
// Each table tabulates synth microdata (Skew 0.8 as synth's presets,
// 2.5 records per leaf cell) over ways dimensions of shape
// TableAuditShape.
// Primary cells are those the minimum-frequency rule freq(3) marks (1 or
// 2 contributors: 22-26 % of the cells of the 3-way tables, 29-36 % of the
// 2-way ones). Secondary suppression proper is
// another feature; here extra cells, drawn with the seed, are suppressed
// until Suppressed·cells cells are:
//
//   - "random": uniformly among the other cells;
//   - "concentrated": uniformly among the other cells in a few subtrees:
//     groups of the first dimension, drawn one by one, until the other
//     cells of their subtrees (the group and its leaves, crossed with
//     every code of the other dimensions) number at least the extra cells
//     needed divided by 0.8 (tableAuditDensity), so that 80 % or more of
//     them are suppressed, and relations with several suppressed cells,
//     which no single relation discloses, make large components.
//
// Finally Verify re-checks every certificate (outside the timing); a
// refusal is ErrCheck.
func TableAudit(opt *TableAuditOptions) (*TableAuditReport, error) {
	if opt == nil {
		opt = DefaultTableAuditOptions()
	}
	if opt.Suppressed <= 0 || opt.Suppressed >= 1 {
		return nil, settingsErr("suppressed", "the share of suppressed cells must be in (0, 1), not %g", opt.Suppressed)
	}
	if opt.Workers < 1 {
		return nil, settingsErr("workers", "at least 1 worker, not %d", opt.Workers)
	}
	for _, n := range opt.Sizes {
		if n < 27 || n > 10_000_000 {
			return nil, settingsErr("sizes", "a size of %d cells is outside [27, 10000000]", n)
		}
	}
	for _, w := range opt.Ways {
		if w != 2 && w != 3 {
			return nil, settingsErr("ways", "2 or 3 dimensions, not %d", w)
		}
	}
	for _, p := range opt.Patterns {
		if p != "random" && p != "concentrated" {
			return nil, settingsErr("patterns", "unknown pattern %q (want random or concentrated)", p)
		}
	}
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &TableAuditReport{Method: "table-audit", Solver: opt.Solver, Workers: opt.Workers, Suppressed: opt.Suppressed, Seed: opt.Seed}
	prog.Start("table-audit", len(opt.Sizes)*len(opt.Ways)*len(opt.Patterns))
	for _, ways := range opt.Ways {
		for _, size := range opt.Sizes {
			g, k := TableAuditShape(size, ways)
			dims := make([]synth.Dim, ways)
			for d := range dims {
				dims[d] = synth.Dim{Name: []string{"region", "activity", "size"}[d], Branching: []int{g, k}}
			}
			cells := synth.Cells(dims)
			spec := synth.Spec{Dims: dims, Records: int(math.Round(tableAuditRecordsPerLeaf * math.Pow(float64(g*k), float64(ways)))), Skew: tableAuditSkew, Seed: opt.Seed}
			data, err := synth.Generate(spec)
			if err != nil {
				return nil, err
			}
			for _, pat := range opt.Patterns {
				prog.Describe(fmt.Sprintf("table-audit: %d-way, %d cells, %s", ways, cells, pat))
				t, err := data.Table()
				if err != nil {
					return nil, err
				}
				row := TableAuditRow{Ways: ways, Pattern: pat, Groups: g, Leaves: k, Records: spec.Records, Cells: len(t.Cells)}
				row.Primary, row.Suppressed = suppressForAudit(t, data.Hierarchies[0], pat, opt.Suppressed, opt.Seed)
				s := &intervals.Settings{Solver: opt.Solver, Workers: opt.Workers, NoLocal: opt.NoLocal}
				r, err := intervals.Compute(t, s)
				if err != nil {
					return nil, fmt.Errorf("bench table-audit: %d-way, %d cells, %s: %w", ways, cells, pat, err)
				}
				if err := intervals.Verify(t, r, s); err != nil {
					return nil, checkErr("%d-way, %d cells, %s: %v", ways, cells, pat, err)
				}
				row.Disclosed = len(intervals.Audit(r, nil).Disclosed)
				row.Determined = r.Determined
				row.Components, row.Largest, row.Rows = r.Components, r.LargestComponent, r.Rows
				row.Solves, row.Skipped, row.Iterations = r.Solves, r.Skipped, r.Iterations
				row.Local, row.LocalLPs = r.Local, r.LocalSolves
				row.Engine, row.Seconds = r.Engine, r.Seconds
				rep.Rows = append(rep.Rows, row)
				prog.Add(1)
			}
		}
	}
	for _, ways := range opt.Ways {
		for _, pat := range opt.Patterns {
			if f, ok := fitTableAudit(rep.Rows, ways, pat); ok {
				rep.Fits = append(rep.Fits, f)
			}
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// suppressForAudit marks the primary cells (freq(3): 1 or 2
// contributors) and extra Secondary cells by pattern (see TableAudit)
// until share·cells are suppressed, and returns both counts.
func suppressForAudit(t *tabular.Table, h0 *tabular.Hierarchy, pattern string, share float64, seed uint64) (primary, suppressed int) {
	rng := rand.New(rand.NewPCG(seed, 0x7a61))
	for i := range t.Cells {
		t.Cells[i].Status = tabular.Safe
		if f := t.Cells[i].Freq; f > 0 && f < 3 {
			t.Cells[i].Status = tabular.Primary
			primary++
		}
	}
	need := int(math.Round(share*float64(len(t.Cells)))) - primary
	if need <= 0 {
		return primary, primary
	}
	// group of each code of the first dimension (-1 for the total).
	group := make([]int, h0.Len())
	for c := range group {
		group[c] = -1
		for a := c; a >= 0 && h0.Parent(a) >= 0; a = h0.Parent(a) {
			group[c] = a
		}
	}
	var codes []int
	inGroup := func(i int, hot map[int]bool) bool {
		codes = t.CodeIndices(i, codes[:0])
		return hot[group[codes[0]]]
	}
	var pool []int
	if pattern == "concentrated" {
		var groups []int
		for c := range group {
			if group[c] == c {
				groups = append(groups, c)
			}
		}
		rng.Shuffle(len(groups), func(a, b int) { groups[a], groups[b] = groups[b], groups[a] })
		hot := map[int]bool{}
		for _, gr := range groups {
			hot[gr] = true
			pool = pool[:0]
			for i := range t.Cells {
				if t.Cells[i].Status == tabular.Safe && inGroup(i, hot) {
					pool = append(pool, i)
				}
			}
			if float64(len(pool))*tableAuditDensity >= float64(need) {
				break
			}
		}
	}
	if len(pool) < need { // random, or hot subtrees too small
		pool = pool[:0]
		for i := range t.Cells {
			if t.Cells[i].Status == tabular.Safe {
				pool = append(pool, i)
			}
		}
	}
	slices.Sort(pool)
	for _, k := range rng.Perm(len(pool))[:min(need, len(pool))] {
		t.Cells[pool[k]].Status = tabular.Secondary
	}
	return primary, primary + min(need, len(pool))
}

// fitTableAudit fits log(seconds) = a + b·log(cells) over the rows of one
// way and pattern (at least two sizes).
func fitTableAudit(rows []TableAuditRow, ways int, pattern string) (TableAuditFit, bool) {
	var x, y []float64
	for _, r := range rows {
		if r.Ways == ways && r.Pattern == pattern && r.Seconds > 0 {
			x = append(x, math.Log(float64(r.Cells)))
			y = append(y, math.Log(r.Seconds))
		}
	}
	if len(x) < 2 {
		return TableAuditFit{}, false
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	return TableAuditFit{Ways: ways, Pattern: pattern, Exponent: b, Intercept: a, R2: stat.RSquared(x, y, nil, a, b)}, true
}

// Tables returns the audits and the fits.
func (r *TableAuditReport) Tables() []*Table {
	rows := &Table{Name: "runs", Columns: []string{"ways", "pattern", "groups", "leaves", "records", "cells", "primary", "suppressed",
		"disclosed", "determined", "components", "largest", "rows", "solves", "skipped", "local", "local_solves", "iterations", "engine", "seconds"}}
	for _, x := range r.Rows {
		rows.add(x.Ways, x.Pattern, x.Groups, x.Leaves, x.Records, x.Cells, x.Primary, x.Suppressed, x.Disclosed, x.Determined,
			x.Components, x.Largest, x.Rows, x.Solves, x.Skipped, x.Local, x.LocalLPs, int(x.Iterations), x.Engine, x.Seconds)
	}
	fits := &Table{Name: "fits", Columns: []string{"ways", "pattern", "exponent", "intercept", "r2"}}
	for _, f := range r.Fits {
		fits.add(f.Ways, f.Pattern, f.Exponent, f.Intercept, f.R2)
	}
	return []*Table{rows, fits}
}

// WriteText writes the audits and the fitted exponents.
func (r *TableAuditReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Interval audit time vs table size (synthetic hierarchical frequency tables, %.0f %% suppressed, seed %d; one run each)\n",
		100*r.Suppressed, r.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "WAYS\tPATTERN\tCELLS\tPRIMARY\tSUPPRESSED\tDISCLOSED\tDETERMINED\tCOMPONENTS\tLARGEST\tROWS\tSOLVES\tSKIPPED\tLOCAL\tENGINE\tSECONDS\t")
	for _, x := range r.Rows {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%.2f\t\n", x.Ways, x.Pattern, x.Cells, x.Primary, x.Suppressed,
			x.Disclosed, x.Determined, x.Components, x.Largest, x.Rows, x.Solves, x.Skipped, x.Local, x.Engine, x.Seconds)
	}
	tw.Flush()
	for _, f := range r.Fits {
		fmt.Fprintf(w, "%d-way %s: seconds ~ cells^%.2f (R² %.3f)\n", f.Ways, f.Pattern, f.Exponent, f.R2)
	}
	return nil
}

// Figures draws seconds against cells on log-log axes with the fits.
func (r *TableAuditReport) Figures() ([]*Figure, error) {
	p := newPlot("Interval audit: time vs table size", "cells", "seconds")
	setLog(&p.X)
	setLog(&p.Y)
	for i, f := range r.Fits {
		var xy, fit plotter.XYs
		for _, x := range r.Rows {
			if x.Ways == f.Ways && x.Pattern == f.Pattern && x.Seconds > 0 {
				xy = append(xy, plotter.XY{X: float64(x.Cells), Y: x.Seconds})
				fit = append(fit, plotter.XY{X: float64(x.Cells), Y: math.Exp(f.Intercept + f.Exponent*math.Log(float64(x.Cells)))})
			}
		}
		c := figColor(i)
		label := fmt.Sprintf("%d-way %s", f.Ways, f.Pattern)
		err := addSeries(p,
			series{label: label, xy: xy, color: c, shape: figShape(i), noLine: true},
			series{label: fmt.Sprintf("fit: cells^%.2f", f.Exponent), xy: fit, color: c, dash: dashed, plain: true},
		)
		if err != nil {
			return nil, err
		}
	}
	return []*Figure{newFigure("table-audit-time", p)}, nil
}
