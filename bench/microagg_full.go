package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// MicroaggFullOptions configure MicroaggFull; nil means
// DefaultMicroaggFullOptions().
type MicroaggFullOptions struct {
	// Data and Ks are the cases: every CASC data set (census, tarragona,
	// eia) with every k.
	Data []string
	Ks   []int
	// TimeLimit bounds each case (default: 10 minutes, DefaultMicroaggFullTimeLimit).
	TimeLimit time.Duration
	// Colgen is the template of the column generation's options (its
	// TimeLimit is replaced by TimeLimit, its Seed by Seed).
	Colgen colgen.Options
	Seed   uint64
	// GroupsDir, when not empty, receives one CSV file per case,
	// DATA-kK.csv with the header record,group (both 1-based, the format
	// of `sdcopt microagg --groups`), written atomically, so that anyone
	// can recompute the IL.
	GroupsDir string
	Progress  Progress

	// solve and load replace colgen.Run and the data sets in tests.
	solve func(z *model.Dataset, k int, opt *colgen.Options) (*colgen.Result, error)
	load  func(name string) ([]*model.Dataset, error)
}

// DefaultMicroaggFullTimeLimit is the default time limit per case.
const DefaultMicroaggFullTimeLimit = 10 * time.Minute

// DefaultMicroaggFullOptions returns the 12 cases of Mortazavi & Jalili
// Table 4 (census, tarragona, eia; k = 3, 4, 5, 10), 10 minutes each,
// seed 1, no groups files.
func DefaultMicroaggFullOptions() *MicroaggFullOptions {
	return &MicroaggFullOptions{Data: []string{"census", "tarragona", "eia"}, Ks: []int{3, 4, 5, 10},
		TimeLimit: DefaultMicroaggFullTimeLimit, Seed: 1}
}

// MicroaggFullRow is one case.
type MicroaggFullRow struct {
	Data          string   `json:"data"`
	N             int      `json:"n"`
	D             int      `json:"d"`
	K             int      `json:"k"`
	IL            float64  `json:"il"`             // 100·SSE/SST of the returned clustering
	LowerBoundIL  float64  `json:"lower_bound_il"` // 100·bound/SST
	GapPercent    float64  `json:"gap_percent"`    // 100·(SSE − bound)/SSE
	BoundKind     string   `json:"bound_kind"`
	BoundSeconds  float64  `json:"bound_seconds"` // when the run reached its bound (colgen.Result.BoundSeconds)
	Exact         bool     `json:"exact"`
	Source        string   `json:"source"` // the method that found the clustering
	ILMDAV        float64  `json:"il_mdav"`
	ILICSM        *float64 `json:"il_icsm_start"` // our ICSM start (null with NoICSM)
	ICSMTimeBoxed bool     `json:"icsm_time_boxed"`
	Published     *float64 `json:"published_il_icsm"` // Mortazavi & Jalili Table 4 (best of 1,600 restarts)
	PublishedMDAV *float64 `json:"published_il_mdav"` // Mortazavi & Jalili Table 2
	Seconds       float64  `json:"seconds"`
	Stopped       string   `json:"stopped"`
	StoppedPhase  string   `json:"stopped_phase,omitempty"`
	Iterations    int      `json:"iterations"`
	Columns       int      `json:"columns"`
	Nodes         int      `json:"nodes"`                     // branch-and-price tree size
	Cuts          int      `json:"subset_row_cuts,omitempty"` // subset-row cuts in the master (unless colgen.Options.NoSubsetRowCuts)
	CloseColumns  int      `json:"close_columns,omitempty"`   // groups of the gap-closing stage's last integer program
	CloseStatus   string   `json:"close_status,omitempty"`    // what the gap-closing stage did (colgen.Result.CloseStatus)
	CloseSeconds  float64  `json:"close_seconds,omitempty"`   // its time
	// Where the master loop's time went (colgen.Stats): the master LP's
	// solves and the steps of the subgradient ascent on the per-record
	// bound (AscentSeconds over AscentSteps is the mean time of a step).
	MasterSolves  int     `json:"master_solves"`
	MasterSeconds float64 `json:"master_seconds"`
	AscentSteps   int     `json:"ascent_steps"`
	AscentSeconds float64 `json:"ascent_seconds"`
	// ModelSteps of the ascent's steps were the share model's (its tail;
	// colgen/sharemodel.go), ModelSerious of them raised the bound;
	// ModelCuts is the model's size and ModelEngineSeconds its LP
	// engine's time (part of AscentSeconds).
	ModelSteps         int     `json:"model_steps,omitempty"`
	ModelSerious       int     `json:"model_serious,omitempty"`
	ModelCuts          int     `json:"model_cuts,omitempty"`
	ModelEngineSeconds float64 `json:"model_engine_seconds,omitempty"`
	// The region bound (colgen/region.go) after a master loop without a
	// bound of its own: its value as IL, the region's records, the groups
	// of its packing program, what happened and its time.
	RegionBoundIL float64 `json:"region_bound_il,omitempty"`
	RegionRecords int     `json:"region_records,omitempty"`
	RegionGroups  int     `json:"region_groups,omitempty"`
	RegionStatus  string  `json:"region_status,omitempty"`
	RegionSeconds float64 `json:"region_seconds,omitempty"`
	GroupsFile    string  `json:"groups_file,omitempty"`
	// Trace is the run over time as IL: the bound and the incumbent
	// whenever one improved (colgen.Result.Trace).
	Trace []TraceIL `json:"trace"`
	// Certificate is the run's certificate of its best engine-free bound
	// (colgen.Result.Certificate; nil when none), written by
	// WriteCertificates rather than with the rows (its duals are long).
	Certificate *colgen.Certificate `json:"-"`
	// Status is ok when IL is at most the published ICSM IL (+0.005, half
	// its last printed digit), ABOVE otherwise, - without a published
	// value.
	Status string `json:"status"`
}

// TraceIL is a point of a run's trace as IL (100·x/SST): the best lower
// bound and the incumbent Seconds after the start.
type TraceIL struct {
	Seconds      float64 `json:"seconds"`
	LowerBoundIL float64 `json:"lower_bound_il"`
	IL           float64 `json:"il"`
}

// MicroaggFullReport is the outcome of MicroaggFull.
type MicroaggFullReport struct {
	Method    string            `json:"method"` // "microagg-full"
	Source    string            `json:"published"`
	TimeLimit float64           `json:"time_limit"`
	Seed      uint64            `json:"seed"`
	Solver    string            `json:"solver"`
	Rows      []MicroaggFullRow `json:"rows"`
	AtOrBelow int               `json:"at_or_below"`
	Exact     int               `json:"exact"`
	Seconds   float64           `json:"seconds"`
}

func (o *MicroaggFullOptions) check() error {
	if len(o.Data) == 0 || len(o.Ks) == 0 {
		return settingsErr("data", "data and k need at least one value")
	}
	for _, name := range o.Data {
		if !datasets.IsCASC(name) {
			return settingsErr("data", "unknown data set %q (want one of %s)", name, strings.Join(datasets.CASCNames(), ", "))
		}
	}
	for _, k := range o.Ks {
		if k < 2 {
			return settingsErr("k", "values must be at least 2, got %d", k)
		}
	}
	if o.TimeLimit <= 0 {
		return settingsErr("time-limit", "must be positive (a case may not finish), got %v", o.TimeLimit)
	}
	if o.GroupsDir != "" {
		if fi, err := os.Stat(o.GroupsDir); err != nil || !fi.IsDir() {
			return settingsErr("groups", "%q is not a directory", o.GroupsDir)
		}
	}
	return nil
}

// MicroaggFull runs the column generation (colgen.Run, with its ICSM
// start and polish) on the full CASC data sets, every case under
// TimeLimit, and lists our IL, lower bound and gap beside the best
// published IL (Mortazavi & Jalili, Table 4: ICSM, best of 1,600
// restarts; Table 2: MDAV). Every result is checked (colgen.Result.Check,
// and the bound against MDAV's SSE); a failed check is ErrCheck.
func MicroaggFull(opt *MicroaggFullOptions) (*MicroaggFullReport, error) {
	if opt == nil {
		opt = DefaultMicroaggFullOptions()
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	lpName, _, err := colgen.ResolveEngines(opt.Colgen.LPSolver, opt.Colgen.MIPSolver)
	if err != nil {
		return nil, err
	}
	solve, load := opt.solve, opt.load
	if solve == nil {
		solve = colgen.Run
	}
	if load == nil {
		load = cascLoader()
	}
	start := time.Now()
	prog := progressOf(opt.Progress)
	prog.Start("bench microagg-full", len(opt.Data)*len(opt.Ks))
	rep := &MicroaggFullReport{Method: "microagg-full", Source: ICSMPublishedSource, TimeLimit: opt.TimeLimit.Seconds(),
		Seed: opt.Seed, Solver: lpName}
	for _, name := range opt.Data {
		zs, err := load(name)
		if err != nil {
			return nil, err
		}
		z := zs[0]
		sst := model.SST(z)
		for _, k := range opt.Ks {
			prog.Describe(fmt.Sprintf("%s k=%d", name, k))
			o := opt.Colgen
			o.TimeLimit, o.Seed = opt.TimeLimit, opt.Seed
			r, err := solve(z, k, &o)
			if err != nil {
				return nil, fmt.Errorf("bench microagg-full: %s k=%d: %w", name, k, err)
			}
			rep.Solver = r.LPSolver
			if err := r.Check(z, k); err != nil {
				return nil, fmt.Errorf("%w: %s k=%d: %v", ErrCheck, name, k, err)
			}
			if r.LowerBound > r.MDAV*(1+1e-9) {
				return nil, checkErr("%s k=%d: lower bound %.12g above the MDAV SSE %.12g", name, k, r.LowerBound, r.MDAV)
			}
			row := MicroaggFullRow{Data: name, N: z.N, D: z.D, K: k, IL: il(r.SSE, sst), LowerBoundIL: il(r.LowerBound, sst),
				GapPercent: r.GapPercent, BoundKind: r.BoundKind, BoundSeconds: r.BoundSeconds, Exact: r.Exact, Source: r.Source, ILMDAV: il(r.MDAV, sst),
				ICSMTimeBoxed: r.ICSMTimeBoxed, Seconds: r.Seconds, Stopped: r.Stopped, StoppedPhase: r.StoppedPhase,
				Iterations: r.Iterations, Columns: r.Columns, Nodes: r.Nodes, Cuts: r.Cuts, CloseColumns: r.CloseColumns, CloseStatus: r.CloseStatus, CloseSeconds: r.Stats.CloseSeconds,
				Certificate: r.Certificate, Status: "-",
				MasterSolves: r.Stats.MasterSolves, MasterSeconds: r.Stats.MasterSeconds, AscentSteps: r.Stats.AscentSteps, AscentSeconds: r.Stats.AscentSeconds,
				ModelSteps: r.Stats.ModelSteps, ModelSerious: r.Stats.ModelSerious, ModelCuts: r.Stats.ModelCuts, ModelEngineSeconds: r.Stats.ModelEngineSeconds,
				RegionBoundIL: il(r.RegionBound, sst), RegionRecords: r.RegionRecords, RegionGroups: r.RegionGroups, RegionStatus: r.RegionStatus, RegionSeconds: r.Stats.RegionSeconds}
			for _, p := range r.Trace {
				row.Trace = append(row.Trace, TraceIL{Seconds: p.Seconds, LowerBoundIL: il(p.LowerBound, sst), IL: il(p.SSE, sst)})
			}
			if !math.IsInf(r.ICSM, 1) {
				v := il(r.ICSM, sst)
				row.ILICSM = &v
			}
			if i := slices.IndexFunc(icsmTable4, func(p icsmPub4) bool { return p.data == name && p.k == k }); i >= 0 {
				v := icsmTable4[i].icsm
				row.Published = &v
				row.Status = icsmStatus(row.IL, v)
			}
			if i := slices.IndexFunc(icsmTable2, func(p icsmPub2) bool { return p.data == name && p.k == k }); i >= 0 {
				v := icsmTable2[i].mdav
				row.PublishedMDAV = &v
			}
			if opt.GroupsDir != "" {
				row.GroupsFile = filepath.Join(opt.GroupsDir, fmt.Sprintf("%s-k%d.csv", name, k))
				if err := writeGroupsFile(row.GroupsFile, r.Clustering); err != nil {
					return nil, err
				}
			}
			if row.Status == "ok" {
				rep.AtOrBelow++
			}
			if row.Exact {
				rep.Exact++
			}
			rep.Rows = append(rep.Rows, row)
			prog.Add(1)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func il(sse, sst float64) float64 {
	if sst <= 0 {
		return 0
	}
	return 100 * sse / sst
}

// writeGroupsFile writes a clustering as CSV record,group (both 1-based)
// to a temporary file in the same directory, then renames it.
func writeGroupsFile(path string, cl *model.Clustering) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".groups-*.csv")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	var b strings.Builder
	b.WriteString("record,group\n")
	for i, g := range cl.Group {
		fmt.Fprintf(&b, "%d,%d\n", i+1, g+1)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Tables returns the rows.
func (r *MicroaggFullReport) Tables() []*Table {
	t := &Table{Name: "rows", Columns: []string{"data", "n", "d", "k", "il", "lower_bound_il", "gap_percent", "bound_kind", "bound_seconds", "exact",
		"source", "il_mdav", "il_icsm_start", "icsm_time_boxed", "published_il_icsm", "published_il_mdav", "seconds", "stopped",
		"stopped_phase", "iterations", "columns", "nodes", "groups_file", "status"}}
	for _, x := range r.Rows {
		t.add(x.Data, x.N, x.D, x.K, x.IL, x.LowerBoundIL, x.GapPercent, x.BoundKind, x.BoundSeconds, x.Exact, x.Source, x.ILMDAV, x.ILICSM,
			x.ICSMTimeBoxed, x.Published, x.PublishedMDAV, x.Seconds, x.Stopped, x.StoppedPhase, x.Iterations, x.Columns,
			x.Nodes, x.GroupsFile, x.Status)
	}
	return []*Table{t}
}

// WriteText writes the table.
func (r *MicroaggFullReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Microaggregation of the full CASC data sets by column generation (ICSM start and polish), %.0f s per case, seed %d, master %s\n",
		r.TimeLimit, r.Seed, r.Solver)
	fmt.Fprintf(w, "IL = 100*SSE/SST; LB IL = 100*bound/SST; gap = 100*(SSE-bound)/SSE; published: %s\n", r.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "DATA\tK\tIL\tLB IL\tGAP %\tBOUND\tBOUND AT s\tEXACT\tNODES\tFROM\tICSM START\tMDAV\tTIME s\tSTOPPED\t|\tP.ICSM\tP.MDAV\tSTATUS\t")
	opt := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.4f", *p)
	}
	for _, x := range r.Rows {
		stopped := x.Stopped
		if x.StoppedPhase != "" {
			stopped += " (" + x.StoppedPhase + ")"
		}
		icsm := opt(x.ILICSM)
		if x.ICSMTimeBoxed {
			icsm += "*"
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.2f\t%s\t%.1f\t%v\t%d\t%s\t%s\t%.4f\t%.1f\t%s\t|\t%s\t%s\t%s\t\n", x.Data, x.K, x.IL, x.LowerBoundIL,
			x.GapPercent, x.BoundKind, x.BoundSeconds, x.Exact, x.Nodes, x.Source, icsm, x.ILMDAV, x.Seconds, stopped, opt(x.Published), opt(x.PublishedMDAV), x.Status)
	}
	tw.Flush()
	fmt.Fprintf(w, "cases at or below the published ICSM IL (+0.005): %d of %d; proven optimal: %d\n", r.AtOrBelow, len(r.Rows), r.Exact)
	_, err := fmt.Fprintln(w, "(* the ICSM start stopped on its time box)")
	return err
}

// CaseCertificate is the certificate of one case in a certificates file.
type CaseCertificate struct {
	Data        string              `json:"data"`
	K           int                 `json:"k"`
	Certificate *colgen.Certificate `json:"certificate"`
}

// CertificatesFile is the JSON document WriteCertificates writes and
// CheckCertificates reads.
type CertificatesFile struct {
	Method string            `json:"method"` // "microagg-full"
	Cases  []CaseCertificate `json:"cases"`
}

// WriteCertificates writes the certificates of the report's cases (those
// that have one) as JSON (CertificatesFile).
func (r *MicroaggFullReport) WriteCertificates(w io.Writer) error {
	doc := CertificatesFile{Method: r.Method}
	for _, x := range r.Rows {
		if x.Certificate != nil {
			doc.Cases = append(doc.Cases, CaseCertificate{Data: x.Data, K: x.K, Certificate: x.Certificate})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}

// CertificateCheck is the outcome of re-checking one case's certificate.
type CertificateCheck struct {
	Data       string  `json:"data"`
	K          int     `json:"k"`
	Form       string  `json:"form"`
	Bound      float64 `json:"bound"`      // stated
	Recomputed float64 `json:"recomputed"` // from the data alone
	OK         bool    `json:"ok"`
	Error      string  `json:"error,omitempty"`
}

// CheckCertificates reads a certificates file (CertificatesFile, named
// name in errors) and recomputes every bound from the CASC data with
// colgen.CheckCertificate, without an LP engine. A certificate that does
// not prove its bound is a row with OK false; an unreadable file or an
// unknown data set is an error wrapping ErrSettings.
func CheckCertificates(rd io.Reader, name string) (*CertificateReport, error) {
	start := time.Now()
	var doc CertificatesFile
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, settingsErr("certificates", "%s: %v", name, err)
	}
	var out []CertificateCheck
	for i, c := range doc.Cases {
		if !datasets.IsCASC(c.Data) || c.Certificate == nil {
			return nil, settingsErr("certificates", "%s: case %d: unknown data set %q or no certificate", name, i+1, c.Data)
		}
		raw, err := datasets.LoadCASC(c.Data)
		if err != nil {
			return nil, err
		}
		z, _ := model.Standardize(raw)
		chk := CertificateCheck{Data: c.Data, K: c.K, Form: c.Certificate.Form, Bound: c.Certificate.Bound}
		if c.Certificate.K != c.K {
			chk.Error = fmt.Sprintf("certificate for k = %d in the case of k = %d", c.Certificate.K, c.K)
		} else if b, err := colgen.CheckCertificate(z, c.Certificate); err != nil {
			chk.Recomputed, chk.Error = b, err.Error()
		} else {
			chk.Recomputed, chk.OK = b, true
		}
		out = append(out, chk)
	}
	rep := &CertificateReport{Method: "check-certificates", File: name, Rows: out, Seconds: time.Since(start).Seconds()}
	for _, c := range out {
		if c.OK {
			rep.OK++
		}
	}
	return rep, nil
}

// CertificateReport is the outcome of CheckCertificates.
type CertificateReport struct {
	Method  string             `json:"method"` // "check-certificates"
	File    string             `json:"file"`
	Rows    []CertificateCheck `json:"rows"`
	OK      int                `json:"ok"`
	Seconds float64            `json:"seconds"`
}

// Verdict is nil when every certificate proves its bound, else an error
// naming the cases that do not.
func (r *CertificateReport) Verdict() error {
	var bad []string
	for _, c := range r.Rows {
		if !c.OK {
			bad = append(bad, fmt.Sprintf("%s k = %d", c.Data, c.K))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %d of %d certificates do not prove their bound (%s)", r.File, len(bad), len(r.Rows), strings.Join(bad, ", "))
}

// Tables returns the rows.
func (r *CertificateReport) Tables() []*Table {
	t := &Table{Name: "rows", Columns: []string{"data", "k", "form", "bound", "recomputed", "ok", "error"}}
	for _, x := range r.Rows {
		t.add(x.Data, x.K, x.Form, x.Bound, x.Recomputed, x.OK, x.Error)
	}
	return []*Table{t}
}

// WriteText writes the table.
func (r *CertificateReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Lower-bound certificates of %s recomputed from the data (no LP engine)\n", r.File)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "DATA\tK\tFORM\tSTATED SSE\tRECOMPUTED\tOK\t")
	for _, x := range r.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.6f\t%.6f\t%v\t\n", x.Data, x.K, x.Form, x.Bound, x.Recomputed, x.OK)
	}
	tw.Flush()
	for _, x := range r.Rows {
		if x.Error != "" {
			fmt.Fprintf(w, "%s k=%d: %s\n", x.Data, x.K, x.Error)
		}
	}
	_, err := fmt.Fprintf(w, "%d of %d certificates prove their bound\n", r.OK, len(r.Rows))
	return err
}
