package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
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
			"excludes the cell's count, which must be the table's). Exit 1 when any\n" +
			"bound is invalid.",
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
	lower, upper, counts, err := readBoundsJSON(s.bounds, n)
	if err != nil {
		return err
	}
	if inst.table != nil {
		for j, c := range counts {
			if c >= 0 && c != inst.table.Counts[j] {
				return cli.BadInput("--bounds %s: cell %d (%s) has the count %d, the table %s has %d: bounds of another table",
					s.bounds, j, model.CellLabel(inst.ms.Vars, nil, j), c, s.table, inst.table.Counts[j])
			}
		}
	}
	certs, err := readCertificatesFile(s.certs)
	if err != nil {
		return err
	}
	start := time.Now()
	v, err := cellbounds.Verify(inst.ms, lower, upper, certs)
	if err != nil {
		return cli.BadInput("%s: %v", s.certs, err)
	}
	v.CheckCounts(counts, lower, upper)
	rep := verifyReport{Method: "verify", Bounds: s.bounds, Certificates: s.certs, Cells: n, Witnesses: len(certs.Witnesses),
		Counts: v.Counts, Invalid: v.Invalid, Seconds: time.Since(start).Seconds(), Results: v.Cells}
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
	if v.Invalid > 0 {
		first := ""
		for _, c := range v.Cells {
			if c.Reason != "" {
				first = fmt.Sprintf("cell %d (%s): %s", c.Cell, model.CellLabel(inst.ms.Vars, nil, c.Cell), c.Reason)
				break
			}
		}
		return cli.NoSolution("%d cell(s) with an invalid bound; first: %s", v.Invalid, first)
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

// readBoundsJSON reads the per-cell bounds and counts of a `sdcopt bounds
// --format json` result, in cell order (count -1 where none is reported,
// as with --margin-files).
func readBoundsJSON(path string, n int) (lower, upper []float64, counts []int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, cli.BadInput("--bounds: %v", err)
	}
	defer f.Close()
	var doc struct {
		Cells []struct {
			Count *int64   `json:"count"`
			Lower *float64 `json:"lower"`
			Upper *float64 `json:"upper"`
		} `json:"cells"`
	}
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&doc); err != nil {
		return nil, nil, nil, cli.BadInput("--bounds %s: not the JSON of sdcopt bounds: %v", path, err)
	}
	if len(doc.Cells) != n {
		return nil, nil, nil, cli.BadInput("--bounds %s: %d cells, the table has %d", path, len(doc.Cells), n)
	}
	lower, upper, counts = make([]float64, n), make([]float64, n), make([]int64, n)
	for i, c := range doc.Cells {
		lower[i], upper[i], counts[i] = math.NaN(), math.NaN(), -1
		if c.Lower != nil {
			lower[i] = *c.Lower
		}
		if c.Upper != nil {
			upper[i] = *c.Upper
		}
		if c.Count != nil {
			if *c.Count < 0 {
				return nil, nil, nil, cli.BadInput("--bounds %s: cell %d has the negative count %d", path, i, *c.Count)
			}
			counts[i] = *c.Count
		}
	}
	return lower, upper, counts, nil
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
