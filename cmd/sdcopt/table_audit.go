package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// tableAuditSettings are the flags of `sdcopt table audit`.
type tableAuditSettings struct {
	table, dims, sep     string
	jj                   string
	integer, verify, all bool
	insiders             bool // --insiders: the insider audit (table_audit_insiders.go)
	maxInsiders          int
	prior, certs         string
	out, format          string
	engine               engineFlags
}

func newTableAuditCmd() *cobra.Command {
	var s tableAuditSettings
	c := &cobra.Command{
		Use:   "audit",
		Short: "Audit a suppressed table: the attacker's interval of every suppressed cell against its protection levels",
		Long: "sdcopt table audit reads a table file with statuses (and protection levels, as\n" +
			"`sdcopt table primary --out` writes it, or a hand-suppressed table with a status\n" +
			"column), computes for every suppressed cell the interval an attacker derives from\n" +
			"the published cells and the table's relations (LP; --integer: integer tables, via\n" +
			"a MIP engine), and checks it against the cell's upper and lower protection levels.\n\n" +
			"Exit 0 when the audit passes; exit 1 when a primary cell is under-protected or a\n" +
			"suppressed cell is exactly disclosed (the report is still written, naming them).\n" +
			"--certificates FILE writes the LP bounds' dual certificates (JSON, created 0600:\n" +
			"they involve the confidential values); --verify re-checks such a file against the\n" +
			"table without an engine and exits 1 naming the first refused bound. With --integer\n" +
			"each end's certificate is an integer table reaching it (checked exactly) and the\n" +
			"LP bound rounded inward; an end where they differ is reported engine-claimed.\n\n" +
			"--jj FILE audits a cell suppression problem in the JJ format (τ-ARGUS, sdcTable)\n" +
			"instead of --table/--dims: its statuses, relations (any coefficients), prior\n" +
			"bounds (lb, ub) and protection levels (LPL, UPL, SPL). A cell's prior bounds\n" +
			"(--table: prior_lower, prior_upper columns) are the attacker's prior unless\n" +
			"--prior is given; a sliding level needs the interval at least that wide.\n\n" +
			"With a freq column, insiders are audited too (--insiders=false skips them): each\n" +
			"suppressed cell of 1 or 2 contributors is known exactly to them; a primary cell\n" +
			"that such an insider can narrow below its levels fails the audit (exit 1).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runTableAudit(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.table, "table", "", "table file with a status column (codes, value, status[, upper, lower, ...]) (this or --jj)")
	f.StringVar(&s.dims, "dims", "", "spanning variables of --table, e.g. region:region.hrc,sector")
	f.StringVar(&s.jj, "jj", "", "JJ file to audit instead of --table (statuses, relations, prior bounds, protection levels)")
	f.StringVar(&s.sep, "sep", ",", "field separator of the input files: , or ; or tab")
	f.BoolVar(&s.integer, "integer", false, "integer intervals (sharp for frequency tables; a MIP engine; certificates: witness tables and LP bounds)")
	f.StringVar(&s.prior, "prior", "", "attacker's prior: percent=P (each value known within P %); default the cells' prior bounds, else [0, +inf) on non-negative tables")
	f.StringVar(&s.certs, "certificates", "", "write the dual certificates to this file (JSON, created 0600); with --verify, the file to check")
	f.BoolVar(&s.verify, "verify", false, "re-check --certificates against --table (or --jj) without an engine")
	f.BoolVar(&s.all, "all", false, "text format: list every suppressed cell's interval, not only the failures")
	f.StringVar(&s.format, "format", "text", "report format: text|json|csv")
	f.BoolVar(&s.insiders, "insiders", true, "also audit insiders (singletons, pairs, largest contributors) when the table has a freq column")
	f.IntVar(&s.maxInsiders, "max-insiders", 0, "insiders audited at most (0 = 50, -1 = all); each costs one interval computation")
	f.StringVar(&s.out, "out", "", "write the report to this file, atomically (created 0600: it holds the confidential values)")
	s.engine.registerSolver(c, false, "time limit of each bound in seconds (0 = none); an end cut short is the prior bound")
	return c
}

// auditCell is one suppressed cell of the audit report.
type auditCell struct {
	Cell           int      `json:"cell"`
	Name           string   `json:"name"`
	Status         string   `json:"status"`
	Value          float64  `json:"value"`
	Lower          *float64 `json:"lower"` // null: −∞
	Upper          *float64 `json:"upper"` // null: +∞
	LowerStatus    string   `json:"lower_status"`
	UpperStatus    string   `json:"upper_status"`
	RequiredLower  float64  `json:"required_lower"`
	RequiredUpper  float64  `json:"required_upper"`
	RequiredSlide  float64  `json:"required_sliding"`
	ShortBelow     float64  `json:"short_below"`
	ShortAbove     float64  `json:"short_above"`
	ShortWidth     float64  `json:"short_width"`
	UnderProtected bool     `json:"under_protected"`
	Disclosed      bool     `json:"disclosed"`
	Verdict        string   `json:"verdict"` // ok, under_protected, disclosed, under_protected+disclosed

	// Integer intervals: whether each end is certified (a witness table
	// reaches it and the rounded LP bound equals it) or engine-claimed.
	LowerCertified *bool `json:"lower_certified,omitempty"`
	UpperCertified *bool `json:"upper_certified,omitempty"`
}

// tableAuditReport is the report of `sdcopt table audit` (JSON).
type tableAuditReport struct {
	Method         string      `json:"method"` // "audit" or "verify"
	Table          string      `json:"table,omitempty"`
	JJ             string      `json:"jj,omitempty"`
	Dims           []string    `json:"dims"`
	Engine         string      `json:"engine,omitempty"`
	Integer        bool        `json:"integer"`
	Prior          string      `json:"prior,omitempty"`
	Certificates   string      `json:"certificates,omitempty"`
	Verified       bool        `json:"certificates_verified,omitempty"`
	EngineClaimed  int         `json:"engine_claimed_ends,omitempty"` // integer ends not certified
	Suppressed     int         `json:"suppressed"`
	Primary        int         `json:"primary"`
	UnderProtected int         `json:"under_protected"`
	Disclosed      int         `json:"disclosed"`
	Pass           bool        `json:"pass"`
	Solves         int         `json:"solves"`
	Seconds        float64     `json:"seconds"`
	Cells          []auditCell `json:"cells"`

	// Insiders is the insider audit (table_audit_insiders.go); nil with --insiders=false or --verify.
	Insiders *insidersSection `json:"insiders,omitempty"`
}

// parsePrior reads --prior: "" or percent=P.
func parsePrior(spec string, nonNeg bool) (func(int, float64) (float64, float64), error) {
	if spec == "" {
		return nil, nil
	}
	p, ok := strings.CutPrefix(spec, "percent=")
	if !ok {
		return nil, cli.BadInput("--prior %q: want percent=P", spec)
	}
	p = strings.TrimSpace(p)
	v, err := strconv.ParseFloat(p, 64)
	if err != nil || strings.Trim(p, "0123456789.eE+-") != "" || v < 0 || v > 1e6 || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, cli.BadInput("--prior %q: want percent=P with 0 <= P <= 1e6", spec)
	}
	return intervals.PercentPrior(v, nonNeg), nil
}

// loadTableWithDims reads a --table file over the --dims hierarchies.
func loadTableWithDims(table, dimSpec string, sep rune) (*tabular.Table, error) {
	dims, err := parseDims(dimSpec)
	if err != nil {
		return nil, err
	}
	return loadTableFile(table, dims, sep)
}

// loadTableFile reads a table file over the dimensions of --dims (a
// hierarchy file each, or flat; a prefix rule needs the data's codes, so
// it is refused here).
func loadTableFile(table string, dims []dimFlag, sep rune) (*tabular.Table, error) {
	return loadTableFileWith(table, dims, &tabular.TableFileSettings{Sep: sep})
}

// loadTableFileWith is loadTableFile with the table file's settings.
func loadTableFileWith(table string, dims []dimFlag, ts *tabular.TableFileSettings) (*tabular.Table, error) {
	sep := ts.Sep
	tdims := make([]tabular.Dimension, len(dims))
	for i, d := range dims {
		tdims[i].Name = d.name
		if d.prefix != nil {
			return nil, cli.BadInput("--dims %s:prefix=...: with --table give the hierarchy as a file (or none: flat)", d.name)
		}
		if d.file != "" {
			var err error
			if tdims[i].H, err = loadHierarchy(d.file, sep); err != nil {
				return nil, libraryError("--dims", err)
			}
		}
	}
	tab, err := tabular.LoadTableFile(table, tdims, ts)
	if err != nil {
		return nil, libraryError("", err)
	}
	return tab, nil
}

// nonNegative reports whether every cell value of t is ≥ 0.
func finitePtr(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

func runTableAudit(w io.Writer, s *tableAuditSettings) error {
	start := time.Now()
	if err := cli.CheckFormat(s.format, "text", "json", "csv"); err != nil {
		return err
	}
	switch {
	case s.jj != "" && (s.table != "" || s.dims != ""):
		return cli.BadInput("--jj replaces --table and --dims; give one or the other")
	case s.jj == "" && s.table == "":
		return cli.BadInput("--table FILE (a table file with a status column) or --jj FILE is required")
	case s.jj == "" && s.dims == "":
		return cli.BadInput("--dims is required with --table (e.g. --dims region:region.hrc,sector)")
	case s.verify && s.certs == "":
		return cli.BadInput("--verify needs --certificates FILE")
	case s.verify && s.prior != "":
		return cli.BadInput("--verify reads the prior from the certificates file; leave --prior out")
	case s.verify && s.integer:
		return cli.BadInput("--verify reads --integer from the certificates file; leave --integer out")
	}
	if err := s.engine.check(false); err != nil {
		return err
	}
	params, err := s.engine.params()
	if err != nil {
		return err
	}
	sep, err := datasets.ParseSep(s.sep)
	if err != nil {
		return cli.BadInput("--sep: %v", err)
	}
	var dims []dimFlag
	if s.jj == "" {
		if dims, err = parseDims(s.dims); err != nil {
			return err
		}
	}
	var files cli.Files
	files.Input("--table", s.table)
	files.Input("--jj", s.jj)
	for _, d := range dims {
		if d.file != "" {
			files.Input("--dims", d.file)
		}
	}
	if s.verify {
		files.Input("--certificates", s.certs)
	} else {
		files.Output("--certificates", s.certs)
	}
	files.Output("--out", s.out)
	if err := files.Check(); err != nil {
		return err
	}
	in, err := loadAuditInput(s, dims, sep)
	if err != nil {
		return err
	}
	rep := &tableAuditReport{Method: "audit", Table: s.table, JJ: s.jj, Integer: s.integer, Prior: s.prior, Certificates: s.certs,
		Dims: in.dims}
	var res *intervals.Result
	var verifyErr error
	if s.verify {
		rep.Method = "verify"
		var cf intervals.CertificatesInfo
		if res, cf, err = readCertFile(s.certs); err != nil {
			return err
		}
		rep.Prior, rep.Engine, rep.Integer = cf.Prior, cf.Engine, res.Integer
		prior, err := parsePrior(cf.Prior, in.nonNeg)
		if err != nil {
			return cli.BadInput("--certificates %s: prior: %v", s.certs, err)
		}
		verifyErr = in.verify(res, &intervals.Settings{Prior: prior, Integer: res.Integer})
		if verifyErr != nil && !errors.Is(verifyErr, intervals.ErrCertificate) {
			verifyErr = fmt.Errorf("%w: %v", intervals.ErrCertificate, verifyErr)
		}
		if verifyErr != nil {
			return cli.NoSolution("--certificates %s: %v", s.certs, strings.TrimPrefix(verifyErr.Error(), "intervals: "))
		}
		// The verified claims carry the table's values.
		for i := range res.Intervals {
			iv := &res.Intervals[i]
			iv.Value, iv.Status = in.cells[iv.Cell].Value, in.cells[iv.Cell].Status
			iv.LowerStatus, iv.UpperStatus = solvers.Optimal, solvers.Optimal
		}
		rep.Verified = true
	} else {
		prior, err := parsePrior(s.prior, in.nonNeg)
		if err != nil {
			return err
		}
		set := &intervals.Settings{Solver: s.engine.solver, Params: params, Integer: s.integer,
			Prior: prior, NoCertificates: s.certs == ""}
		res, err = in.compute(set)
		if err != nil {
			return err
		}
		rep.Engine, rep.Solves = res.Engine, res.Solves
		if s.insiders {
			if rep.Insiders, err = runInsiders(in.tab, res, set, s.maxInsiders); err != nil {
				return err
			}
		}
	}
	audit := intervals.AuditProtection(res, intervals.CellProtection(in.cells))
	fill(rep, res, audit)
	rep.Pass = rep.Pass && (rep.Insiders == nil || rep.Insiders.Pass)
	var outs cli.Outputs
	defer outs.Abort()
	if s.certs != "" && !s.verify {
		if err := outs.WritePrivate(s.certs, func(w io.Writer) error {
			return intervals.WriteCertificates(w, intervals.CertificatesInfo{Table: s.table, JJ: s.jj, Prior: s.prior}, res)
		}); err != nil {
			return cli.BadInput("--certificates: %v", err)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	err = emitPrivate(w, s.out, true, func(w io.Writer) error {
		if err := outs.Commit(); err != nil {
			return cli.BadInput("--certificates: %v", err)
		}
		if err := rep.write(w, s.format, s.all); err != nil || rep.Insiders == nil {
			return err
		}
		return rep.Insiders.write(w, s.format)
	})
	if err != nil {
		return err
	}
	if !rep.Pass {
		first := ""
		for _, c := range rep.Cells {
			if c.Verdict != "ok" {
				first = fmt.Sprintf("; first: (%s) %s in [%s, %s]", c.Name, datasets.FormatValue(c.Value),
					fmtEnd(c.Lower, "-inf"), fmtEnd(c.Upper, "+inf"))
				break
			}
		}
		return cli.NoSolution("audit failed: %d under-protected primary cell(s), %d exactly disclosed cell(s)%s%s (%s)",
			rep.UnderProtected, rep.Disclosed, first, rep.Insiders.summary(), in.name)
	}
	return nil
}

func fill(rep *tableAuditReport, res *intervals.Result, a *intervals.Report) {
	under := map[int]intervals.Finding{}
	for _, f := range a.UnderProtected {
		under[f.Cell] = f
	}
	disclosed := map[int]bool{}
	for _, f := range a.Disclosed {
		disclosed[f.Cell] = true
	}
	rep.Suppressed, rep.Primary = len(res.Intervals), a.Primary
	rep.UnderProtected, rep.Disclosed, rep.Pass = len(a.UnderProtected), len(a.Disclosed), a.OK()
	rep.Cells = make([]auditCell, 0, len(res.Intervals))
	for _, iv := range res.Intervals {
		c := auditCell{Cell: iv.Cell, Name: iv.Name, Status: iv.Status.String(), Value: iv.Value,
			Lower: finitePtr(iv.Lower), Upper: finitePtr(iv.Upper),
			LowerStatus: iv.LowerStatus.String(), UpperStatus: iv.UpperStatus.String(), Verdict: "ok"}
		if f, ok := under[iv.Cell]; ok {
			c.RequiredLower, c.RequiredUpper, c.ShortBelow, c.ShortAbove = f.RequiredLower, f.RequiredUpper, f.ShortBelow, f.ShortAbove
			c.RequiredSlide, c.ShortWidth = f.RequiredSliding, f.ShortWidth
			c.UnderProtected, c.Verdict = true, "under_protected"
		}
		for _, e := range []struct {
			ie  *intervals.IntegerEnd
			dst **bool
		}{{iv.LowerInt, &c.LowerCertified}, {iv.UpperInt, &c.UpperCertified}} {
			if e.ie != nil {
				ok := e.ie.Certified
				*e.dst = &ok
				if !ok {
					rep.EngineClaimed++
				}
			}
		}
		if disclosed[iv.Cell] {
			c.Disclosed, c.Verdict = true, "disclosed"
			if c.UnderProtected {
				c.Verdict = "under_protected+disclosed"
			}
		}
		rep.Cells = append(rep.Cells, c)
	}
}

// readCertFile reads a --certificates file back into a Result for Verify.
func readCertFile(path string) (*intervals.Result, intervals.CertificatesInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, intervals.CertificatesInfo{}, cli.BadInput("--certificates: %v", err)
	}
	defer f.Close()
	r, info, err := intervals.ReadCertificates(f)
	if err != nil {
		return nil, info, cli.BadInput("--certificates %s: %s", path, strings.TrimPrefix(err.Error(), "intervals: "))
	}
	return r, info, nil
}

func fmtEnd(p *float64, inf string) string {
	if p == nil {
		return inf
	}
	return datasets.FormatValue(*p)
}

func (r *tableAuditReport) write(w io.Writer, format string, all bool) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"cell", "name", "status", "value", "lower", "upper", "required_lower", "required_upper",
			"required_sliding", "short_below", "short_above", "short_width", "verdict"})
		for _, c := range r.Cells {
			cw.Write([]string{strconv.Itoa(c.Cell), c.Name, c.Status, datasets.FormatValue(c.Value), fmtEnd(c.Lower, "-inf"),
				fmtEnd(c.Upper, "+inf"), datasets.FormatValue(c.RequiredLower), datasets.FormatValue(c.RequiredUpper),
				datasets.FormatValue(c.RequiredSlide), datasets.FormatValue(c.ShortBelow), datasets.FormatValue(c.ShortAbove),
				datasets.FormatValue(c.ShortWidth), c.Verdict})
		}
		cw.Flush()
		return cw.Error()
	}
	if r.JJ != "" {
		fmt.Fprintf(w, "jj file         %s\n", r.JJ)
	} else {
		fmt.Fprintf(w, "table           %s over %s\n", r.Table, strings.Join(r.Dims, " × "))
	}
	if r.Verified {
		fmt.Fprintf(w, "certificates    %s: every bound verified (exact arithmetic, no engine)\n", r.Certificates)
	}
	if r.Integer && r.Certificates != "" {
		fmt.Fprintf(w, "integer ends    %d engine-claimed (not met by both a witness table and the rounded LP bound)\n", r.EngineClaimed)
	}
	fmt.Fprintf(w, "suppressed      %d\n", r.Suppressed)
	fmt.Fprintf(w, "primary         %d\n", r.Primary)
	fmt.Fprintf(w, "under-protected %d\n", r.UnderProtected)
	fmt.Fprintf(w, "disclosed       %d (exactly)\n", r.Disclosed)
	verdict := "pass"
	if !r.Pass {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "audit           %s\n", verdict)
	if r.Engine != "" && !r.Verified {
		kind := "LP"
		if r.Integer {
			kind = "integer"
		}
		fmt.Fprintf(w, "engine          %s (%s intervals, %d solves)\n", r.Engine, kind, r.Solves)
	}
	fmt.Fprintf(w, "seconds         %.3f\n", r.Seconds)
	for _, c := range r.Cells {
		if c.Verdict == "ok" {
			continue
		}
		fmt.Fprintf(w, "%-15s (%s) %s: %s in [%s, %s]", strings.ReplaceAll(strings.ReplaceAll(c.Verdict, "_", "-"), "+", ", exactly "), c.Name, c.Status,
			datasets.FormatValue(c.Value), fmtEnd(c.Lower, "-inf"), fmtEnd(c.Upper, "+inf"))
		if c.UnderProtected {
			fmt.Fprintf(w, ", needs [%s, %s]", datasets.FormatValue(c.Value-c.RequiredLower), datasets.FormatValue(c.Value+c.RequiredUpper))
			if c.RequiredSlide > 0 {
				fmt.Fprintf(w, " and width %s", datasets.FormatValue(c.RequiredSlide))
			}
		}
		fmt.Fprintln(w)
	}
	if all {
		for _, c := range r.Cells {
			fmt.Fprintf(w, "interval        (%s) %s: %s in [%s, %s] %s%s\n", c.Name, c.Status, datasets.FormatValue(c.Value),
				fmtEnd(c.Lower, "-inf"), fmtEnd(c.Upper, "+inf"), c.Verdict, claimedEnds(c))
		}
	}
	return nil
}

// claimedEnds notes the integer ends of c that are engine-claimed.
func claimedEnds(c auditCell) string {
	var ends []string
	if c.LowerCertified != nil && !*c.LowerCertified {
		ends = append(ends, "lower")
	}
	if c.UpperCertified != nil && !*c.UpperCertified {
		ends = append(ends, "upper")
	}
	if ends == nil {
		return ""
	}
	return " (" + strings.Join(ends, " and ") + " end engine-claimed)"
}
