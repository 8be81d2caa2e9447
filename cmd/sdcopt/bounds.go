package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers/mps"
)

// boundsSettings are the flags of `sdcopt bounds`.
type boundsSettings struct {
	tableFlags
	table       string
	marginFiles []string
	vars        string
	margins     string
	method      string
	compare     []string
	format      string
	out         string
	quiet       bool
	cold        bool
	certs       string
	seed        uint64
	ef          engineFlags
}

func newBoundsCmd() *cobra.Command {
	var s boundsSettings
	c := &cobra.Command{
		Use:   "bounds --table FILE | --margin-files F1,F2,... --margins SPEC",
		Short: "Bounds for the cells of a contingency table given released marginals",
		Long: "Lower and upper bounds for every cell of a k-way table of counts that an\n" +
			"intruder can infer from released marginal tables.\n\n" +
			"--table FILE is the full table in long CSV (one column per variable plus\n" +
			"count); its marginals named by --margins are released. --margin-files reads\n" +
			"released marginal tables instead (same format, one file per margin; the\n" +
			"intruder's view): --margins then defaults to every file's margin.\n" +
			"SPEC lists margins separated by commas, each margin's variables separated\n" +
			"by ':' (B:F,A:B:C:E,A:D:E); with one-character names BF,ABCE,ADE is the same;\n" +
			"all:K names every K-way margin of the variables (all:2: every pair).\n" +
			"--vars collapses the table onto some variables first (A,B,C,E or ABCE).\n\n" +
			"Methods: auto (Fréchet when the margins are decomposable, else the reducible\n" +
			"decomposition, else the generalized shuttle with correction: sharp integer\n" +
			"bounds), lp, ip (via an engine), shuttle, frechet, reducible.\n" +
			"--compare lp,ip also computes those methods and flags the cells where\n" +
			"they differ (F: an LP bound is fractional; *: LP and IP bounds differ).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runBounds(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.table, "table", "", "the full table, long CSV (variables + count)")
	f.StringSliceVar(&s.marginFiles, "margin-files", nil, "released marginal tables, long CSV, comma-separated")
	addTableFlags(f, &s.tableFlags)
	f.StringVar(&s.vars, "vars", "", "variables to keep (collapse the others), e.g. A,B,C,E or ABCE")
	f.StringVar(&s.margins, "margins", "", "released margins, e.g. BF,ABCE,ADE or B:F,A:B:C:E,A:D:E, or all:K (every K-way margin)")
	f.StringVar(&s.method, "method", cellbounds.Auto, "method: "+strings.Join(cellbounds.Methods, "|"))
	f.StringSliceVar(&s.compare, "compare", nil, "further methods to compute and compare, e.g. lp,ip")
	f.StringVar(&s.format, "format", "text", "output format: text|json|csv")
	f.StringVar(&s.out, "out", "", "write the result to this file (atomically) instead of stdout")
	f.BoolVar(&s.quiet, "quiet", false, "no progress messages on stderr")
	f.BoolVar(&s.cold, "cold", false, "lp/ip: re-solve every model from scratch (no warm start)")
	f.StringVar(&s.certs, "certificates", "", "write a certificate for every bound to this file (JSON: witness tables, dual vectors); with --method auto or certified; with --table the witnesses include the table and tables near it: as confidential as the table (created 0600, as --out)")
	f.Uint64Var(&s.seed, "seed", 1, "certified with --table: seed of the search for integer tables with the margins (the attained values)")
	c.AddCommand(newBoundsVerifyCmd())
	s.ef.register(c, false, "time limit for the whole run in seconds, from the start (reading the input, every method and --compare included; writing the result comes after it): the bounds not proven by then are reported as valid, unproven bounds (0 = none)")
	return c
}

// boundsInstance is what the bounds are computed for.
type boundsInstance struct {
	ms    *model.MarginSet
	table *model.Table // nil with --margin-files
	specs []string     // the margins, as A:B:C specs
}

func loadBoundsInstance(s *boundsSettings) (*boundsInstance, error) {
	switch {
	case s.table == "" && len(s.marginFiles) == 0:
		return nil, cli.BadInput("give --table FILE or --margin-files F1,F2,...")
	case s.table != "" && len(s.marginFiles) > 0:
		return nil, cli.BadInput("give either --table or --margin-files, not both")
	}
	opt, err := s.tableFlags.options()
	if err != nil {
		return nil, err
	}
	inst := &boundsInstance{}
	if s.table != "" {
		if s.margins == "" {
			return nil, cli.BadInput("--margins SPEC is required with --table")
		}
		// --vars collapses the table while it is read (the full table of
		// a file with many variables may not fit in memory).
		var names []string
		if s.vars != "" {
			all, err := datasets.TableVarNames(s.table, opt)
			if err != nil {
				return nil, cli.BadInput("%v", err)
			}
			vs := make([]model.Variable, len(all))
			for i, n := range all {
				vs[i].Name = n
			}
			names = splitVarList(s.vars, vs)
		}
		t, err := datasets.LoadTableCSVWith(s.table, names, opt)
		if err != nil {
			return nil, cli.BadInput("%v", err)
		}
		if inst.ms, err = t.ReleaseSpec(s.margins); err != nil {
			return nil, cli.BadInput("--margins: %v", err)
		}
		inst.table = t
	} else {
		var names []string
		if s.vars != "" {
			// Names are known only after reading: read once to learn them.
			ms0, err := datasets.LoadMarginFilesWith(s.marginFiles, nil, opt)
			if err != nil {
				return nil, cli.BadInput("%v", err)
			}
			names = splitVarList(s.vars, ms0.Vars)
		}
		ms, err := datasets.LoadMarginFilesWith(s.marginFiles, names, opt)
		if err != nil {
			return nil, cli.BadInput("%v", err)
		}
		if s.margins != "" {
			subs, err := model.ParseMarginSpec(ms.Vars, s.margins)
			if err != nil {
				return nil, cli.BadInput("--margins: %v", err)
			}
			var keep []*model.Marginal
			for _, sub := range subs {
				m, ok := ms.MarginalOf(sub)
				if !ok {
					return nil, cli.BadInput("--margins: margin %s is not among the margin files (%s)",
						model.MarginalName(ms.Vars, sub), ms.Name())
				}
				keep = append(keep, m)
			}
			ms.Margins = keep
		}
		inst.ms = ms
	}
	for _, m := range inst.ms.Margins {
		names := make([]string, len(m.Vars))
		for i, j := range m.Vars {
			names[i] = inst.ms.Vars[j].Name
		}
		inst.specs = append(inst.specs, strings.Join(names, ":"))
	}
	return inst, nil
}

// splitVarList splits a --vars value: by ',' or ':' when present, else
// into characters when every variable name is one character.
func splitVarList(spec string, vars []model.Variable) []string {
	if strings.ContainsAny(spec, ",:") {
		return strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ':' })
	}
	oneChar := true
	for _, v := range vars {
		oneChar = oneChar && len(v.Name) == 1
	}
	if !oneChar {
		return []string{spec}
	}
	var out []string
	for _, r := range spec {
		out = append(out, string(r))
	}
	return out
}

func runBounds(w io.Writer, s *boundsSettings) error {
	start := time.Now() // --time-limit counts from here: reading the input is part of the run
	if err := cli.CheckFormat(s.format, "text", "json", "csv"); err != nil {
		return err
	}
	for _, m := range append([]string{s.method}, s.compare...) {
		if !slices.Contains(cellbounds.Methods, m) {
			return cli.BadInput("unknown method %q (want one of %s)", m, strings.Join(cellbounds.Methods, ", "))
		}
	}
	if err := s.ef.check(false); err != nil {
		return err
	}
	prm, _ := s.ef.params()
	var files cli.Files
	files.Input("--table", s.table)
	for _, f := range s.marginFiles {
		files.Input("--margin-files", f)
	}
	files.Output("--out", s.out)
	files.Output("--write-model", s.ef.writeModel)
	files.Output("--certificates", s.certs)
	if s.certs != "" && s.method != cellbounds.Auto && s.method != cellbounds.Certified {
		return cli.BadInput("--certificates come from --method certified (or auto), not %s", s.method)
	}
	if err := files.Check(); err != nil {
		return err
	}
	inst, err := loadBoundsInstance(s)
	if err != nil {
		return err
	}
	if s.format == "csv" {
		if _, err := boundsCSVHeader(inst, dedupe(s.compare)); err != nil {
			return err
		}
	}
	if err := inst.ms.Check(); err != nil {
		var ie *model.InconsistencyError
		if errors.As(err, &ie) {
			return cli.NoSolution("%v", err)
		}
		return cli.BadInput("%v", err)
	}
	var outs cli.Outputs
	defer outs.Abort()
	if s.ef.writeModel != "" {
		p := lp.CellBoundsProblem(inst.ms, s.method == cellbounds.IP)
		if err := outs.Write(s.ef.writeModel, func(w io.Writer) error { return mps.Write(w, p) }); err != nil {
			return cli.BadInput("--write-model: %v", err)
		}
	}
	// --time-limit bounds the whole run from the start of the command
	// (reading the input included; writing the result comes after it);
	// the methods give each solve the time left.
	var deadline time.Time // of the whole run, the local moves of the gap report included
	limit := prm.TimeLimit
	if limit > 0 {
		deadline = start.Add(limit)
		// Compute reads a zero limit as none: past the deadline already,
		// it gets the least limit, and every method then returns its
		// valid bounds without a solve.
		limit = max(time.Until(deadline), time.Nanosecond)
	}
	set := cellbounds.Settings{Method: s.method, Compare: s.compare, Solver: s.ef.solver, Cold: s.cold, TimeLimit: limit,
		Certify: s.certs != ""}
	prm.TimeLimit = 0
	set.Params = prm
	prog := cli.NewProgress(s.quiet)
	defer prog.Finish()
	if prog != nil {
		current := ""
		set.Progress = func(method string, done, total int) {
			if method != current {
				current = method
				prog.Start("bounds "+method, total)
			}
			prog.Set(done)
		}
	}
	res, err := cellbounds.Compute(inst.ms, set)
	if err != nil {
		return libraryError("", err)
	}
	prog.Finish()
	rep := newBoundsReport(inst, s, res)
	rep.widen(deadline)
	// The tables the gap report found are witnesses of the certificates
	// now: the note and the sharp cells count them, as the gap line and
	// bounds verify do.
	res.RecountCertified()
	write := func(w io.Writer) error {
		switch s.format {
		case "json":
			return rep.writeJSON(w)
		case "csv":
			return rep.writeCSV(w)
		}
		return rep.writeText(w)
	}
	// With --table the result holds every cell's confidential count and
	// the certificates the table and tables near it: private outputs.
	put := outs.Write
	if s.table != "" {
		put = outs.WritePrivate
	}
	if s.certs != "" {
		if res.Certificates == nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %s produced no certificates", s.method)}
		}
		if err := put(s.certs, func(w io.Writer) error { return cellbounds.WriteCertificates(w, res.Certificates) }); err != nil {
			return cli.BadInput("--certificates: %v", err)
		}
	}
	if s.out == "" {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		if err := outs.Commit(); err != nil {
			return cli.BadInput("%v", err)
		}
		_, err = w.Write(buf.Bytes())
		return err
	}
	if err := put(s.out, write); err != nil {
		return cli.BadInput("--out: %v", err)
	}
	if err := outs.Commit(); err != nil {
		return cli.BadInput("%v", err)
	}
	return nil
}

// boundsReport is the result laid out for output.
type boundsReport struct {
	inst    *boundsInstance
	s       *boundsSettings
	res     *cellbounds.Result
	compare []string // compared methods, in the order asked
	// gaps compare attained and proven bounds (certified runs; with
	// --table the table itself is one of the integer tables known).
	gaps *cellbounds.Gaps
	// searchErr says why the slab search did not run (nil: it ran).
	searchErr error
}

func newBoundsReport(inst *boundsInstance, s *boundsSettings, res *cellbounds.Result) *boundsReport {
	r := &boundsReport{inst: inst, s: s, res: res, compare: dedupe(s.compare)}
	if res.Certificates != nil {
		var truth []int64
		if inst.table != nil {
			truth = inst.table.Counts
		}
		r.gaps = cellbounds.CertifiedGaps(res.Certificates, truth)
	}
	return r
}

// widen narrows the gaps by local moves from the table (with --table:
// it has the margins), then by the slab search from it, until deadline
// (zero: none; the slab search then ends after its first upward round).
func (r *boundsReport) widen(deadline time.Time) {
	if r.gaps == nil || r.inst.table == nil {
		return
	}
	var margins [][]int
	for _, m := range r.inst.ms.Margins {
		margins = append(margins, m.Vars)
	}
	r.gaps.Widen(r.inst.table, margins, deadline)
	r.searchErr = r.gaps.Search(r.inst.table, r.inst.ms, cellbounds.SearchOptions{Solver: r.s.ef.solver, Seed: r.s.seed, Deadline: deadline})
}

// gapSummary says how far the attained values are from the proven ones.
func (r *boundsReport) gapSummary() string {
	g := r.gaps
	out := fmt.Sprintf("attained vs proven: %d of %d bounds sharp; gap per cell median %g, max %d, total %d",
		g.SharpBounds, g.Bounds, g.MedianGap, g.MaxGap, g.TotalGap)
	if g.Unrecorded > 0 {
		out += fmt.Sprintf(" (%d tables found not kept as witnesses: %d witness counts at most)", g.Unrecorded, cellbounds.GapWitnessValues)
	}
	if g.Moved > 0 || g.MovesStopped {
		out += fmt.Sprintf(" (%d attained values widened by local moves from the table", g.Moved)
		if g.MovesStopped {
			out += ", stopped by the time limit"
		}
		out += ")"
	}
	switch {
	case r.searchErr != nil:
		out += fmt.Sprintf("; no slab search: %v", r.searchErr)
	case g.SearchTables > 0 || g.SearchStopped:
		out += fmt.Sprintf("; %d attained values widened by the slab search (%d tables with the margins, %d upward rounds", g.Searched, g.SearchTables, g.SearchRounds)
		if g.SearchStopped {
			out += ", stopped by the time limit"
		}
		out += ")"
	}
	return out
}

// flags returns the cell's flags: "F" when an LP bound (main or compared)
// is fractional, "*" when compared methods' bounds differ from each other
// or from the main method's.
func (r *boundsReport) flags(c int) string {
	var f string
	frac := false
	runs := []*cellbounds.Run{&r.res.Run}
	for _, m := range r.compare {
		runs = append(runs, r.res.Compare[m])
	}
	for _, run := range runs {
		if run.Method == cellbounds.LP && (cellbounds.Fractional(run.Bounds.Lower[c]) || cellbounds.Fractional(run.Bounds.Upper[c])) {
			frac = true
		}
	}
	if frac {
		f += "F"
	}
	for _, run := range runs[1:] {
		if math.Abs(run.Bounds.Lower[c]-runs[0].Bounds.Lower[c]) > cellbounds.FracTol ||
			math.Abs(run.Bounds.Upper[c]-runs[0].Bounds.Upper[c]) > cellbounds.FracTol {
			f += "*"
			break
		}
	}
	if f == "" && len(runs) > 1 {
		// Compared runs may differ among themselves only.
		for _, run := range runs[2:] {
			if math.Abs(run.Bounds.Lower[c]-runs[1].Bounds.Lower[c]) > cellbounds.FracTol ||
				math.Abs(run.Bounds.Upper[c]-runs[1].Bounds.Upper[c]) > cellbounds.FracTol {
				f += "*"
				break
			}
		}
	}
	return f
}

func (r *boundsReport) methodSummary() string {
	counts := map[string]int{}
	var order []string
	for _, m := range r.res.Bounds.Method {
		if counts[m] == 0 {
			order = append(order, m)
		}
		counts[m]++
	}
	if len(order) == 1 {
		return order[0]
	}
	parts := make([]string, len(order))
	for i, m := range order {
		parts[i] = fmt.Sprintf("%s: %d cells", m, counts[m])
	}
	return strings.Join(parts, ", ")
}

func (r *boundsReport) writeText(w io.Writer) error {
	ms := r.inst.ms
	src := r.s.table
	if src == "" {
		src = strings.Join(r.s.marginFiles, ",")
	}
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	sharp := fmt.Sprintf("%d of %d cells with proven sharp bounds, the others valid", r.res.SharpCells, n)
	if r.res.Sharp {
		sharp = "sharp integer bounds"
	}
	if r.res.Stopped != "" {
		sharp += " (stopped: " + r.res.Stopped + ")"
	}
	fmt.Fprintf(w, "cell bounds for %s given %s\n", src, ms.Name())
	fmt.Fprintf(w, "method %s (%s); %d cells; %s; %.3f s\n", r.s.method, r.methodSummary(), n, sharp, r.res.Seconds)
	if r.res.Solver != "" {
		fmt.Fprintf(w, "engine %s\n", r.res.Solver)
	}
	if r.res.Note != "" {
		fmt.Fprintf(w, "note: %s\n", r.res.Note)
	}
	if r.gaps != nil {
		fmt.Fprintln(w, r.gapSummary())
	}
	for _, m := range r.compare {
		run := r.res.Compare[m]
		eng := ""
		if run.Solver != "" {
			eng = " (" + run.Solver + ")"
		}
		fmt.Fprintf(w, "compare %s%s: %.3f s; %s\n", m, eng, run.Seconds, run.Note)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', 0)
	var head []string
	for _, v := range ms.Vars {
		head = append(head, v.Name)
	}
	if r.inst.table != nil {
		head = append(head, "count")
	}
	head = append(head, "bounds")
	if r.gaps != nil {
		head = append(head, "attained", "gap")
	}
	for _, m := range r.compare {
		head = append(head, m)
	}
	head = append(head, "flags")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	lv := make([]int, len(dims))
	nflag := 0
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		var row []string
		for i, v := range ms.Vars {
			row = append(row, v.Levels[lv[i]])
		}
		if r.inst.table != nil {
			row = append(row, strconv.FormatInt(r.inst.table.Counts[c], 10))
		}
		b := r.res.Bounds
		row = append(row, cellbounds.FormatInterval(b.Lower[c], b.Upper[c]))
		if g := r.gaps; g != nil {
			att := "-"
			if g.Attained {
				att = cellbounds.FormatInterval(float64(g.AttainedLower[c]), float64(g.AttainedUpper[c]))
			}
			row = append(row, att, strconv.FormatInt(g.Gap[c], 10))
		}
		for _, m := range r.compare {
			cb := r.res.Compare[m].Bounds
			row = append(row, cellbounds.FormatInterval(cb.Lower[c], cb.Upper[c]))
		}
		fl := r.flags(c)
		if fl != "" {
			nflag++
		}
		row = append(row, fl)
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.compare) > 0 || r.s.method == cellbounds.LP {
		fmt.Fprintf(w, "\nflags: F = an LP bound is fractional, * = the methods' bounds differ; %d cell(s) flagged\n", nflag)
	}
	return nil
}

// boundsCSVHeader returns the header of the CSV result: the variables,
// then count (with --table), lower, upper, method, the compared methods'
// bounds and flags. A variable named like one of the result's columns
// would make two columns of one name: that is bad input, refused before
// anything is computed.
func boundsCSVHeader(inst *boundsInstance, compare []string) ([]string, error) {
	var head []string
	for _, v := range inst.ms.Vars {
		head = append(head, v.Name)
	}
	if inst.table != nil {
		head = append(head, "count")
	}
	head = append(head, "lower", "upper", "method")
	for _, m := range compare {
		head = append(head, m+"_lower", m+"_upper")
	}
	head = append(head, "flags")
	for j, h := range head[len(inst.ms.Vars):] {
		if i := slices.Index(head, h); i < len(inst.ms.Vars) {
			return nil, cli.BadInput("--format csv: variable %q has the name of the result's column %d (%s): rename the variable, or use --format json or text",
				h, len(inst.ms.Vars)+j+1, strings.Join(head[len(inst.ms.Vars):], ","))
		}
	}
	return head, nil
}

// dedupe returns names without repetitions, in first-seen order.
func dedupe(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func (r *boundsReport) writeCSV(w io.Writer) error {
	ms := r.inst.ms
	cw := csv.NewWriter(w)
	head, err := boundsCSVHeader(r.inst, r.compare)
	if err != nil {
		return err
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	dims := model.Dims(ms.Vars)
	lv := make([]int, len(dims))
	for c := 0; c < model.NumCells(dims); c++ {
		model.CellLevels(dims, c, lv)
		var row []string
		for i, v := range ms.Vars {
			row = append(row, v.Levels[lv[i]])
		}
		if r.inst.table != nil {
			row = append(row, strconv.FormatInt(r.inst.table.Counts[c], 10))
		}
		b := r.res.Bounds
		row = append(row, csvFloat(b.Lower[c]), csvFloat(b.Upper[c]), b.Method[c])
		for _, m := range r.compare {
			cb := r.res.Compare[m].Bounds
			row = append(row, csvFloat(cb.Lower[c]), csvFloat(cb.Upper[c]))
		}
		row = append(row, r.flags(c))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// jsonObj is a JSON object that keeps its keys in insertion order.
type jsonObj []jsonKV

type jsonKV struct {
	k string
	v any
}

func (o jsonObj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(kv.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSON writes the report as one indented JSON document. The cells
// (one object each, millions for large tables) are streamed by
// cellJSONWriter rather than built as values for encoding/json, which took
// 25 s and 1.3 GB for a table of 10^6 cells; the bytes are the same as
// encoding/json's with two-space indentation (a test checks).
func (r *boundsReport) writeJSON(w io.Writer) error {
	ms := r.inst.ms
	var vars []jsonObj
	for _, v := range ms.Vars {
		vars = append(vars, jsonObj{{"name", v.Name}, {"levels", v.Levels}})
	}
	doc := jsonObj{
		{"method", r.s.method},
		{"methods_used", r.methodSummary()},
	}
	if r.res.Solver != "" {
		doc = append(doc, jsonKV{"solver", r.res.Solver})
	}
	if r.res.CertifiedStats != nil {
		doc = append(doc, jsonKV{"certified", r.res.CertifiedStats})
	}
	if g := r.gaps; g != nil {
		doc = append(doc, jsonKV{"gaps", jsonObj{{"bounds", g.Bounds}, {"sharp_bounds", g.SharpBounds}, {"median_gap", g.MedianGap},
			{"max_gap", g.MaxGap}, {"total_gap", g.TotalGap}, {"attained", g.Attained}, {"moved", g.Moved}, {"moves_stopped", g.MovesStopped},
			{"searched", g.Searched}, {"search_tables", g.SearchTables}, {"search_rounds", g.SearchRounds}, {"search_stopped", g.SearchStopped}}})
	}
	doc = append(doc, jsonKV{"seconds", r.res.Seconds}, jsonKV{"sharp", r.res.Sharp}, jsonKV{"sharp_cells", r.res.SharpCells},
		jsonKV{"valid_cells", r.res.ValidCells}, jsonKV{"stopped", stoppedOrComplete(r.res.Stopped)}, jsonKV{"note", r.res.Note})
	if r.s.table != "" {
		doc = append(doc, jsonKV{"table", r.s.table})
	} else {
		doc = append(doc, jsonKV{"margin_files", r.s.marginFiles})
	}
	doc = append(doc, jsonKV{"margins", r.inst.specs}, jsonKV{"vars", vars})
	if len(r.compare) > 0 {
		cmp := jsonObj{}
		for _, m := range r.compare {
			run := r.res.Compare[m]
			o := jsonObj{}
			if run.Solver != "" {
				o = append(o, jsonKV{"solver", run.Solver})
			}
			o = append(o, jsonKV{"seconds", run.Seconds}, jsonKV{"sharp", run.Sharp}, jsonKV{"sharp_cells", run.SharpCells},
				jsonKV{"valid_cells", run.ValidCells}, jsonKV{"stopped", stoppedOrComplete(run.Stopped)}, jsonKV{"note", run.Note})
			cmp = append(cmp, jsonKV{m, o})
		}
		doc = append(doc, jsonKV{"compare", cmp})
	}
	head, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	// head ends with "\n}": the cells go in before the closing brace.
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(head[:len(head)-2])
	n := model.NumCells(model.Dims(ms.Vars))
	if n == 0 {
		bw.WriteString(",\n  \"cells\": null\n}\n")
		return bw.Flush()
	}
	bw.WriteString(",\n  \"cells\": [")
	cw := newCellJSONWriter(r)
	var buf []byte
	for c := range n {
		if c > 0 {
			buf = append(buf, ',')
		}
		buf = cw.appendCell(buf, c)
		if len(buf) > 1<<15 {
			if _, err := bw.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = append(buf, "\n  ]\n}\n"...)
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

// cellJSONWriter appends the JSON object of a cell, indented as element of
// the document's "cells" array, with the keys' and labels' encodings
// computed once.
type cellJSONWriter struct {
	r      *boundsReport
	dims   []int
	lv     []int
	labels [][][]byte // per variable and level: the line `"NAME": "LEVEL"`
	quoted map[string][]byte
}

func newCellJSONWriter(r *boundsReport) *cellJSONWriter {
	ms := r.inst.ms
	cw := &cellJSONWriter{r: r, dims: model.Dims(ms.Vars), lv: make([]int, len(ms.Vars)), quoted: map[string][]byte{}}
	for _, v := range ms.Vars {
		var ls [][]byte
		for _, l := range v.Levels {
			ls = append(ls, append(append(cw.quote(v.Name), ": "...), cw.quote(l)...))
		}
		cw.labels = append(cw.labels, ls)
	}
	return cw
}

// quote returns the JSON string of s, cached.
func (cw *cellJSONWriter) quote(s string) []byte {
	if q, ok := cw.quoted[s]; ok {
		return q
	}
	q, _ := json.Marshal(s) // a string always encodes
	cw.quoted[s] = q
	return q
}

const (
	cellIndent  = "\n    "
	fieldIndent = "\n      "
	labelIndent = "\n        "
)

// field appends `,\n      "key": ` (first: without the comma).
func (cw *cellJSONWriter) field(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, fieldIndent...)
	b = append(b, cw.quote(key)...)
	return append(b, ": "...)
}

func (cw *cellJSONWriter) appendCell(b []byte, c int) []byte {
	r := cw.r
	model.CellLevels(cw.dims, c, cw.lv)
	b = append(b, cellIndent+"{"...)
	b = cw.field(b, "labels", true)
	if len(cw.labels) == 0 {
		b = append(b, "{}"...)
	} else {
		b = append(b, '{')
		for i, ls := range cw.labels {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, labelIndent...)
			b = append(b, ls[cw.lv[i]]...)
		}
		b = append(b, fieldIndent+"}"...)
	}
	if r.inst.table != nil {
		b = strconv.AppendInt(cw.field(b, "count", false), r.inst.table.Counts[c], 10)
	}
	bd := r.res.Bounds
	b = appendJSONBound(cw.field(b, "lower", false), bd.Lower[c])
	b = appendJSONBound(cw.field(b, "upper", false), bd.Upper[c])
	b = append(cw.field(b, "method", false), cw.quote(bd.Method[c])...)
	if g := r.gaps; g != nil {
		if g.Attained {
			b = strconv.AppendInt(cw.field(b, "attained_lower", false), g.AttainedLower[c], 10)
			b = strconv.AppendInt(cw.field(b, "attained_upper", false), g.AttainedUpper[c], 10)
		} else {
			b = append(cw.field(b, "attained_lower", false), "null"...)
			b = append(cw.field(b, "attained_upper", false), "null"...)
		}
		b = strconv.AppendInt(cw.field(b, "gap", false), g.Gap[c], 10)
	}
	for _, m := range r.compare {
		cb := r.res.Compare[m].Bounds
		b = appendJSONBound(cw.field(b, m+"_lower", false), cb.Lower[c])
		b = appendJSONBound(cw.field(b, m+"_upper", false), cb.Upper[c])
	}
	if len(r.compare) > 0 {
		fl := r.flags(c)
		b = strconv.AppendBool(cw.field(b, "fractional", false), strings.Contains(fl, "F"))
		b = strconv.AppendBool(cw.field(b, "differs", false), strings.Contains(fl, "*"))
	}
	return append(b, cellIndent+"}"...)
}

// appendJSONBound appends a bound as JSON: null when infinite or not computed, else the float in encoding/json's
// format (the shortest representation; exponent form below 1e-6 and from
// 1e21 on, with the exponent's leading zero dropped).
func appendJSONBound(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	f := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		f = 'e'
	}
	b = strconv.AppendFloat(b, v, f, -1, 64)
	if f == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// stoppedOrComplete is a run's stop reason for JSON: "complete" when it
// ran to the end, else cellbounds' reason (time_limit, memory_limit).
func stoppedOrComplete(s string) string {
	if s == "" {
		return "complete"
	}
	return s
}
