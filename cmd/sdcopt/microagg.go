package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sdcopt/datasets"
	"sdcopt/internal/cli"
	"sdcopt/microagg"
	"sdcopt/model"
)

// microaggSettings are the flags of `sdcopt microagg`.
type microaggSettings struct {
	data   string
	cols   []string
	k      int
	method string
	gamma  float64
	out    string // protected file
	groups string // record,group file
	format string
	quiet  bool
}

func newMicroaggCmd() *cobra.Command {
	var s microaggSettings
	c := &cobra.Command{
		Use:   "microagg --data FILE|tarragona|census|eia|synthetic:NAME[:SEED] --k K --method METHOD",
		Short: "Microaggregate numerical microdata (groups of at least k records)",
		Long: "Microaggregate numerical microdata: z-score the selected attributes, partition\n" +
			"the records into groups of at least k, and replace every record by its group\n" +
			"centroid (in original units). Reports SSE, SST and IL = 100*SSE/SST on the\n" +
			"standardized data.\n\n" +
			"--data is a CSV file with a header row, a CASC benchmark data set\n" +
			"(tarragona, census, eia; read from the shared data directory, checksum verified)\n" +
			"or synthetic:NAME[:SEED] with NAME synthetic|sim1|sim2|sim3|gauss-N-D-C.\n" +
			"Methods: mdav (fixed groups of k), vmdav (variable sizes, --gamma),\n" +
			"univariate (optimal; one attribute: select it with --cols), projection (first\n" +
			"principal component order, then the optimal partition of that order).",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !c.Flags().Changed("k") {
				return cli.BadInput("--k is required (the minimum group size, at least 2)")
			}
			return runMicroagg(c.OutOrStdout(), &s, c.Flags().Changed("gamma"))
		},
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "data: CSV FILE, tarragona|census|eia, or synthetic:NAME[:SEED] (required)")
	f.StringSliceVar(&s.cols, "cols", nil, "columns to microaggregate, by name (default: every numeric column)")
	f.IntVar(&s.k, "k", 0, "minimum group size k >= 2 (required)")
	f.StringVar(&s.method, "method", "mdav", "method: "+strings.Join(microagg.Methods(), "|"))
	f.Float64Var(&s.gamma, "gamma", 0, fmt.Sprintf("V-MDAV extension parameter gamma >= 0 (vmdav only; default %g)", microagg.DefaultGamma))
	f.StringVar(&s.out, "out", "", "write the protected data set (CSV, input columns and order) to this file")
	f.StringVar(&s.groups, "groups", "", "write the groups (CSV record,group, both 1-based) to this file")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.BoolVar(&s.quiet, "quiet", false, "no progress messages on stderr")
	return c
}

// microaggResult is the JSON document of `sdcopt microagg`.
type microaggResult struct {
	Data            string   `json:"data"`
	Columns         []string `json:"columns"`
	N               int      `json:"n"`
	D               int      `json:"d"`
	K               int      `json:"k"`
	Method          string   `json:"method"`
	Gamma           *float64 `json:"gamma,omitempty"`
	SSE             float64  `json:"sse"`
	SST             float64  `json:"sst"`
	IL              float64  `json:"il"`
	Groups          int      `json:"groups"`
	MinGroup        int      `json:"min_group"`
	MaxGroup        int      `json:"max_group"`
	LargeGroups     int      `json:"large_groups"`
	ConstantColumns []string `json:"constant_columns,omitempty"`
	Seconds         float64  `json:"seconds"`
	Out             string   `json:"out,omitempty"`
	GroupsFile      string   `json:"groups_file,omitempty"`
}

// progress reports on stderr when it is a terminal and --quiet is off.
func progress(quiet bool, format string, args ...any) {
	if quiet {
		return
	}
	if st, err := os.Stderr.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return
	}
	fmt.Fprintf(os.Stderr, "sdcopt: "+format+"\n", args...)
}

func runMicroagg(w io.Writer, s *microaggSettings, gammaSet bool) error {
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return err
	}
	if !slices.Contains(microagg.Methods(), s.method) {
		return cli.BadInput("unknown --method %q (want one of %s)", s.method, strings.Join(microagg.Methods(), ", "))
	}
	if s.k < 2 {
		return cli.BadInput("--k must be at least 2, got %d", s.k)
	}
	if gammaSet && s.method != "vmdav" {
		return cli.BadInput("--gamma applies to --method vmdav only, not %s", s.method)
	}
	if s.data == "" {
		return cli.BadInput("--data is required (a CSV file, tarragona|census|eia, or synthetic:NAME[:SEED])")
	}
	if s.out != "" && s.out == s.groups {
		return cli.BadInput("--out and --groups name the same file %s", s.out)
	}
	spec, err := datasets.ParseSpec(s.data)
	if err != nil {
		return cli.BadInput("--data: %v", err)
	}
	progress(s.quiet, "loading %s", spec)
	tab, err := spec.Load(s.cols)
	if err != nil {
		return cli.BadInput("%v", err)
	}
	raw := tab.Data
	if s.k > raw.N {
		return cli.BadInput("--k %d exceeds the number of records of %s (n = %d)", s.k, spec, raw.N)
	}
	z, std := model.Standardize(raw)
	var constant []string
	for j, isConst := range std.Constant {
		if isConst {
			constant = append(constant, raw.Names[j])
			fmt.Fprintf(os.Stderr, "sdcopt: warning: column %q is constant (%s in every record): z = 0, it adds nothing to SSE or SST and keeps its value\n",
				raw.Names[j], datasets.FormatValue(std.Mean[j]))
		}
	}
	progress(s.quiet, "%s on %d x %d records, k = %d", s.method, raw.N, raw.D, s.k)
	start := time.Now()
	var cl *model.Clustering
	if gammaSet {
		// Explicitly, so that --gamma 0 means γ = 0 (fixed groups), not
		// the default that Options{Gamma: 0} stands for.
		cl, err = microagg.VMDAV(z, s.k, s.gamma)
	} else {
		cl, err = microagg.Run(s.method, z, s.k, microagg.Options{})
	}
	secs := time.Since(start).Seconds()
	if err != nil {
		return cli.BadInput("%s: %v", spec, err)
	}
	large, err := cl.CheckK(raw.N, s.k)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: %s returned an invalid clustering: %w", s.method, err)}
	}
	sizes := cl.Sizes()
	res := microaggResult{
		Data: spec.String(), Columns: raw.Names, N: raw.N, D: raw.D, K: s.k, Method: s.method,
		SSE: model.SSE(z, cl), SST: model.SST(z), Groups: cl.NumGroups,
		MinGroup: slices.Min(sizes), MaxGroup: slices.Max(sizes), LargeGroups: large,
		ConstantColumns: constant, Seconds: secs, Out: s.out, GroupsFile: s.groups,
	}
	if res.SST > 0 {
		res.IL = 100 * res.SSE / res.SST
	}
	if s.method == microagg.MethodVMDAV {
		g := microagg.DefaultGamma
		if gammaSet {
			g = s.gamma
		}
		res.Gamma = &g
	}
	if s.out != "" {
		prot := model.Protect(raw, cl)
		if err := writeBuffered(s.out, func(bw *bufio.Writer) error { return tab.WriteProtected(bw, prot) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if s.groups != "" {
		err := writeBuffered(s.groups, func(bw *bufio.Writer) error {
			bw.WriteString("record,group\n")
			for i, g := range cl.Group {
				fmt.Fprintf(bw, "%d,%d\n", i+1, g+1)
			}
			return nil
		})
		if err != nil {
			if s.out != "" {
				os.Remove(s.out) // no partial set of outputs
			}
			return cli.BadInput("--groups: %v", err)
		}
	}
	if s.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	writeMicroaggText(w, &res)
	return nil
}

// writeBuffered writes a file atomically through a buffered writer.
func writeBuffered(path string, write func(*bufio.Writer) error) error {
	return cli.WriteFileAtomic(path, func(f *os.File) error {
		bw := bufio.NewWriterSize(f, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

func writeMicroaggText(w io.Writer, r *microaggResult) {
	fmt.Fprintf(w, "data      %s: %d records x %d attributes (%s)\n", r.Data, r.N, r.D, strings.Join(r.Columns, ", "))
	method := r.Method
	if r.Gamma != nil {
		method += fmt.Sprintf(" (gamma %g)", *r.Gamma)
	}
	fmt.Fprintf(w, "method    %s, k = %d\n", method, r.K)
	fmt.Fprintf(w, "groups    %d, sizes %d..%d, %d larger than 2k-1 = %d\n", r.Groups, r.MinGroup, r.MaxGroup, r.LargeGroups, 2*r.K-1)
	fmt.Fprintf(w, "SSE       %.6g\n", r.SSE)
	fmt.Fprintf(w, "SST       %.6g\n", r.SST)
	fmt.Fprintf(w, "IL        %.4f %%\n", r.IL)
	fmt.Fprintf(w, "seconds   %.3f\n", r.Seconds)
	if len(r.ConstantColumns) > 0 {
		fmt.Fprintf(w, "constant  %s (left as is)\n", strings.Join(r.ConstantColumns, ", "))
	}
	if r.Out != "" {
		fmt.Fprintf(w, "protected %s\n", r.Out)
	}
	if r.GroupsFile != "" {
		fmt.Fprintf(w, "groups to %s\n", r.GroupsFile)
	}
}
