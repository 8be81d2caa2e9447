package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/model"
)

// boundsVerifySettings are the flags of `sdcopt bounds verify`.
type boundsVerifySettings struct {
	boundsSettings
	bounds string // the bounds result (JSON of sdcopt bounds)
}

func newBoundsVerifyCmd() *cobra.Command {
	var s boundsVerifySettings
	c := &cobra.Command{
		Use:   "verify --table FILE | --margin-files F1,F2,... --margins SPEC --bounds RESULT.json --certificates FILE",
		Short: "Re-check the certificates of cell bounds without trusting any engine",
		Long: "Re-check every bound of RESULT.json (the JSON output of sdcopt bounds) against\n" +
			"its certificate (sdcopt bounds --certificates): witness tables are checked in\n" +
			"integer arithmetic (non-negative, every released margin reproduced exactly),\n" +
			"dual vectors by the integer bound they prove exactly (rational arithmetic; an\n" +
			"engine's round-off can only weaken that bound). Per cell and bound: proven\n" +
			"(a witness and a dual vector or trivial proof), attained only, dual only,\n" +
			"engine's word (an integer program), valid but not sharp (looser than the\n" +
			"proven bound of the certificate), no evidence, or invalid (also when it\n" +
			"excludes the cell's count, which must be the table's).\n\n" +
			"Every other claim of RESULT.json is checked too, or listed under \"not\n" +
			"checked\" with the reason: each cell's labels (they determine its index),\n" +
			"attained values (a witness table has them), gap, the gap summary, the\n" +
			"counts of sharp bounds and cells, the certified counts of the evidence,\n" +
			"the variables and margins; every witness table, referenced or not. A bound\n" +
			"is sharp when proven and attained by a witness table (one definition for\n" +
			"bounds, its gap line and verify). Exit 1 when any bound is invalid or any\n" +
			"claim refused; an unknown field is refused.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runBoundsVerify(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.table, "table", "", "the full table, long CSV (variables + count)")
	f.StringSliceVar(&s.marginFiles, "margin-files", nil, "released marginal tables, long CSV, comma-separated")
	addTableFlags(f, &s.tableFlags)
	f.StringVar(&s.vars, "vars", "", "variables to keep (collapse the others), e.g. A,B,C,E or ABCE")
	f.StringVar(&s.margins, "margins", "", "released margins, e.g. BF,ABCE,ADE or B:F,A:B:C:E,A:D:E, or all:K (every K-way margin)")
	f.StringVar(&s.bounds, "bounds", "", "the bounds to check: JSON of sdcopt bounds --format json (required)")
	f.StringVar(&s.certs, "certificates", "", "the certificates of sdcopt bounds --certificates (required)")
	f.StringVar(&s.format, "format", "text", "output format: text|json|csv")
	f.StringVar(&s.out, "out", "", "write the report to this file (atomically) instead of stdout")
	return c
}

// verifyReport is the JSON document of `sdcopt bounds verify`.
type verifyReport struct {
	Method       string                        `json:"method"`
	Bounds       string                        `json:"bounds"`
	Certificates string                        `json:"certificates"`
	Cells        int                           `json:"n_cells"`
	Witnesses    int                           `json:"witnesses"`
	Counts       map[string]int                `json:"counts"`
	Invalid      int                           `json:"invalid"`
	SharpBounds  int                           `json:"sharp_bounds"`
	SharpCells   int                           `json:"sharp_cells"`
	Refused      []string                      `json:"refused"`
	NotChecked   []cellbounds.FieldNote        `json:"not_checked"`
	Seconds      float64                       `json:"seconds"`
	Results      []cellbounds.CellVerification `json:"cells"`
}

func runBoundsVerify(w io.Writer, s *boundsVerifySettings) error {
	if err := cli.CheckFormat(s.format, "text", "json", "csv"); err != nil {
		return err
	}
	if s.bounds == "" || s.certs == "" {
		return cli.BadInput("--bounds and --certificates are required")
	}
	in := []string{"--table", s.table, "--bounds", s.bounds, "--certificates", s.certs}
	for _, f := range s.marginFiles {
		in = append(in, "--margin-files", f)
	}
	if err := checkFiles(in, []string{"--out", s.out}); err != nil {
		return err
	}
	inst, err := loadBoundsInstance(&s.boundsSettings)
	if err != nil {
		return err
	}
	if err := inst.ms.Check(); err != nil {
		return libraryError("", err)
	}
	n := model.NumCells(model.Dims(inst.ms.Vars))
	rf, err := readResultFile(s.bounds)
	if err != nil {
		return err
	}
	certs, err := readCertificatesFile(s.certs)
	if err != nil {
		return err
	}
	var table []int64
	if inst.table != nil {
		table = inst.table.Counts
	}
	start := time.Now()
	v, err := cellbounds.VerifyResult(inst.ms, table, rf, certs)
	switch {
	case errors.Is(err, cellbounds.ErrResult):
		return cli.BadInput("--bounds %s: %v", s.bounds, err)
	case err != nil:
		return cli.BadInput("--certificates %s: %v", s.certs, err)
	}
	rep := verifyReport{Method: "verify", Bounds: s.bounds, Certificates: s.certs, Cells: n, Witnesses: len(certs.Witnesses),
		Counts: v.Counts, Invalid: v.Invalid, SharpBounds: v.SharpBounds, SharpCells: v.SharpCells, Refused: v.Refused,
		NotChecked: v.NotChecked, Seconds: time.Since(start).Seconds(), Results: v.Cells}
	err = emit(w, s.out, func(w io.Writer) error {
		switch s.format {
		case "json":
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		case "csv":
			fmt.Fprintln(w, "cell,lower_status,upper_status,reason")
			for _, c := range v.Cells {
				fmt.Fprintf(w, "%d,%s,%s,%q\n", c.Cell, c.LowerStatus, c.UpperStatus, c.Reason)
			}
			return nil
		}
		return writeVerifyText(w, inst, &rep)
	})
	if err != nil {
		return err
	}
	var msg []string
	if v.Invalid > 0 {
		for _, c := range v.Cells {
			if c.Reason != "" {
				msg = append(msg, fmt.Sprintf("%d cell(s) with an invalid bound or claim; first: cell %d (%s): %s",
					v.Invalid, c.Cell, model.CellLabel(inst.ms.Vars, nil, c.Cell), c.Reason))
				break
			}
		}
	}
	if len(v.Refused) > 0 {
		msg = append(msg, fmt.Sprintf("%d other claim(s) refused; first: %s", len(v.Refused), v.Refused[0]))
	}
	if len(msg) > 0 {
		return cli.NoSolution("%s (%s, %s)", strings.Join(msg, "; "), s.bounds, s.certs)
	}
	return nil
}

func writeVerifyText(w io.Writer, inst *boundsInstance, r *verifyReport) error {
	fmt.Fprintf(w, "verified %d cells (%d bounds) against %d witness tables in %.3f s\n", r.Cells, 2*r.Cells, r.Witnesses, r.Seconds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, st := range []string{cellbounds.StatusProven, cellbounds.StatusEngineWord, cellbounds.StatusAttained,
		cellbounds.StatusDualOnly, cellbounds.StatusLoose, cellbounds.StatusNoEvidence, cellbounds.StatusInvalid} {
		fmt.Fprintf(tw, "  %s\t%d bounds\n", st, r.Counts[st])
	}
	tw.Flush()
	fmt.Fprintf(w, "sharp: %d of %d bounds (proven and attained by a witness table), %d of %d cells with both bounds sharp\n",
		r.SharpBounds, 2*r.Cells, r.SharpCells, r.Cells)
	for _, f := range r.Refused {
		fmt.Fprintf(w, "  refused: %s\n", f)
	}
	if len(r.NotChecked) > 0 {
		fmt.Fprintln(w, "not checked:")
		for _, f := range r.NotChecked {
			fmt.Fprintf(w, "  %s: %s\n", f.Field, f.Reason)
		}
	}
	shown := 0
	for _, c := range r.Results {
		if c.LowerStatus == cellbounds.StatusProven && c.UpperStatus == cellbounds.StatusProven {
			continue
		}
		if shown == 20 {
			fmt.Fprintln(w, "  ... (--format json lists every cell)")
			break
		}
		fmt.Fprintf(w, "  cell %d (%s): lower %s, upper %s", c.Cell, model.CellLabel(inst.ms.Vars, nil, c.Cell), c.LowerStatus, c.UpperStatus)
		if c.Reason != "" {
			fmt.Fprintf(w, ": %s", c.Reason)
		}
		fmt.Fprintln(w)
		shown++
	}
	return nil
}

// readResultFile reads a `sdcopt bounds --format json` result.
func readResultFile(path string) (*cellbounds.ResultFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, cli.BadInput("--bounds: %v", err)
	}
	defer f.Close()
	rf, err := cellbounds.ReadResultFile(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, cli.BadInput("--bounds %s: %v", path, err)
	}
	return rf, nil
}

func readCertificatesFile(path string) (*cellbounds.Certificates, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, cli.BadInput("--certificates: %v", err)
	}
	defer f.Close()
	c, err := cellbounds.ReadCertificates(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, cli.BadInput("--certificates %s: %v", path, err)
	}
	return c, nil
}
