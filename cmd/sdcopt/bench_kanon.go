package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// `sdcopt bench kanon`: the experiments of Doka et al. (Sections 8-9) on
// UCI Adult with the 8 quasi-identifiers that mirror their CENSUS data.

type benchKanonSettings struct {
	ks        string
	methods   []string
	partition int
	mipN      string
	mipK      string
	samples   int
	solver    string
	timeLimit float64
	scaleN    string
	scaleP    int
	seed      uint64
	format    string
	quiet     bool
}

// streamBenchKanon seeds the Adult samples of the MIP table.
const streamBenchKanon = 0x6b61_6e6f_6e10

func newBenchKanonCmd() *cobra.Command {
	var s benchKanonSettings
	c := &cobra.Command{
		Use:   "kanon",
		Short: "k-anonymity by freeform generalization on Adult: GCP and time vs k, MIP optimality gaps, scaling",
		Long: "Three tables on UCI Adult (../shared/datasets/adult.csv, rows with '?' dropped)\n" +
			"with the 8 quasi-identifiers age, education-num (numeric), sex, marital-status,\n" +
			"race, workclass, native-country, occupation (categorical), after Doka et al.:\n\n" +
			"1. GCP and time vs k for every method (--methods, --k, --partition);\n" +
			"2. the exact MIP against the heuristics on seeded samples of --mip-n records of\n" +
			"   Adult (--mip-k, --samples, --solver, --time-limit): the optimality gap\n" +
			"   (GCP - optimum) / optimum of each heuristic (the NCP ranges and cardinalities\n" +
			"   are those of the whole of Adult);\n" +
			"3. time vs n for SortGreedy on SyntheticQI (seeded records with Adult's\n" +
			"   cardinalities and skew; --scale-n, --scale-partition, k = 5).\n\n" +
			"Every result is verified (k-regular, identity round, containment, GCP).\n" +
			"An empty list (--k '', --mip-n '', --scale-n '') skips a table.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runBenchKanon(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.ks, "k", "2..10", "k values of table 1: A..B or a comma list")
	f.StringSliceVar(&s.methods, "methods", []string{kanon.MethodGreedy, kanon.MethodSortGreedy, kanon.MethodHungarian, kanon.MethodFlow},
		"methods of tables 1 and 2 (mip is always the reference of table 2, never run on the whole of Adult)")
	f.IntVar(&s.partition, "partition", 500, "table 1: records per partition (0 = one partition; the dense methods accept at most 16384)")
	f.StringVar(&s.mipN, "mip-n", "8,10,12", "table 2: sample sizes (comma list)")
	f.StringVar(&s.mipK, "mip-k", "2,3", "table 2: k values (comma list)")
	f.IntVar(&s.samples, "samples", 3, "table 2: seeded samples per size")
	f.StringVar(&s.solver, "solver", "", "table 2: MIP engine (highs|cbc; default auto)")
	f.Float64Var(&s.timeLimit, "time-limit", 60, "table 2: MIP time limit per sample in seconds (0 = none)")
	f.StringVar(&s.scaleN, "scale-n", "10000,100000,500000", "table 3: numbers of synthetic records (comma list)")
	f.IntVar(&s.scaleP, "scale-partition", 500, "table 3: records per partition")
	f.Uint64Var(&s.seed, "seed", 1, "seed of the samples, the synthetic data and the assignments")
	f.StringVar(&s.format, "format", "text", "output format: text|json")
	f.BoolVar(&s.quiet, "quiet", false, "no progress messages on stderr")
	return c
}

// parseIntList reads "A..B" (inclusive) or "a,b,c"; "" is the empty list.
func parseIntList(flag, s string, least int) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []int
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if err1 != nil || err2 != nil || lo > hi {
			return nil, cli.BadInput("--%s %q: want A..B with integers A <= B, or a comma list", flag, s)
		}
		for v := lo; v <= hi; v++ {
			out = append(out, v)
		}
	} else {
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, cli.BadInput("--%s %q: %q is not an integer", flag, s, f)
			}
			out = append(out, v)
		}
	}
	for _, v := range out {
		if v < least {
			return nil, cli.BadInput("--%s: %d is below %d", flag, v, least)
		}
	}
	return out, nil
}

type benchKanonKRow struct {
	Method     string  `json:"method"`
	K          int     `json:"k"`
	N          int     `json:"n"`
	GCP        float64 `json:"gcp"`
	Partitions int     `json:"partitions"`
	Seconds    float64 `json:"seconds"`
	Verified   bool    `json:"verified"`
}

type benchKanonMIPRow struct {
	N          int                 `json:"n"`
	K          int                 `json:"k"`
	Sample     int                 `json:"sample"`
	Optimum    float64             `json:"optimum"` // the MIP's GCP (optimal when Optimal)
	Bound      *float64            `json:"bound"`
	Optimal    bool                `json:"optimal"`
	MIPSeconds float64             `json:"mip_seconds"`
	Solver     string              `json:"solver"`
	GCP        map[string]float64  `json:"gcp"` // per heuristic
	Gap        map[string]*float64 `json:"gap"` // (GCP - optimum) / optimum; null when the optimum is 0 and the GCP is not
}

type benchKanonScaleRow struct {
	N          int     `json:"n"`
	K          int     `json:"k"`
	Method     string  `json:"method"`
	Partition  int     `json:"partition"`
	Partitions int     `json:"partitions"`
	GCP        float64 `json:"gcp"`
	Seconds    float64 `json:"seconds"`
	Verified   bool    `json:"verified"`
}

type benchKanonDoc struct {
	Method    string               `json:"method"`
	Seconds   float64              `json:"seconds"`
	Data      string               `json:"data"`
	N         int                  `json:"n"`
	Dropped   int                  `json:"dropped"`
	QI        []string             `json:"qi"`
	Partition int                  `json:"partition"`
	Seed      uint64               `json:"seed"`
	VsK       []benchKanonKRow     `json:"vs_k"`
	MIP       []benchKanonMIPRow   `json:"mip"`
	Scale     []benchKanonScaleRow `json:"scale"`
}

// benchScaleK is the k of the scaling table.
const benchScaleK = 5

func runBenchKanon(w io.Writer, s *benchKanonSettings) error {
	if err := cli.CheckFormat(s.format, "text", "json"); err != nil {
		return err
	}
	ks, err := parseIntList("k", s.ks, 1)
	if err != nil {
		return err
	}
	mipN, err := parseIntList("mip-n", s.mipN, 1)
	if err != nil {
		return err
	}
	mipK, err := parseIntList("mip-k", s.mipK, 1)
	if err != nil {
		return err
	}
	scaleN, err := parseIntList("scale-n", s.scaleN, benchScaleK)
	if err != nil {
		return err
	}
	for _, m := range s.methods {
		if !slices.Contains(kanon.Methods(), m) {
			return cli.BadInput("unknown method %q in --methods (want some of %s)", m, strings.Join(kanon.Methods(), ", "))
		}
	}
	heur := slices.DeleteFunc(slices.Clone(s.methods), func(m string) bool { return m == kanon.MethodMIP })
	if s.partition < 0 || s.scaleP < benchScaleK {
		return cli.BadInput("--partition must be >= 0 and --scale-partition >= %d", benchScaleK)
	}
	if s.samples < 1 {
		return cli.BadInput("--samples must be at least 1, got %d", s.samples)
	}
	if err := checkTimeLimit(s.timeLimit); err != nil {
		return err
	}
	for _, n := range mipN {
		for _, k := range mipK {
			if k > n {
				return cli.BadInput("--mip-k %d exceeds the sample size %d of --mip-n", k, n)
			}
		}
	}
	start := time.Now()
	doc := benchKanonDoc{Method: "kanon", Data: "adult", Partition: s.partition, Seed: s.seed}
	prog := cli.NewProgress(s.quiet)
	defer prog.Finish()
	var t *model.QITable
	if len(ks) > 0 || len(mipN) > 0 {
		q, err := datasets.LoadAdult(false)
		if err != nil {
			return cli.BadInput("%v", err)
		}
		t = q.Table
		doc.N, doc.Dropped, doc.QI = t.N, q.Dropped, qiNames(t)
	}
	for _, k := range ks {
		for _, m := range heur {
			prog.Printf("Adult: %s, k = %d, partition %d", m, k, s.partition)
			res, err := kanon.Anonymize(t, k, &kanon.Options{Method: m, Partition: s.partition, Seed: s.seed})
			if err != nil {
				return fmt.Errorf("Adult, %s, k = %d: %w", m, k, err)
			}
			if err := kanon.CheckResult(t, k, res); err != nil {
				return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: Adult, %s, k = %d: %w", m, k, err)}
			}
			doc.VsK = append(doc.VsK, benchKanonKRow{Method: m, K: k, N: t.N, GCP: res.GCP, Partitions: res.Partitions, Seconds: res.Seconds, Verified: true})
		}
	}
	r := rand.New(rand.NewPCG(s.seed, streamBenchKanon))
	for _, n := range mipN {
		if n > t.N {
			return cli.BadInput("--mip-n %d exceeds the %d records of Adult", n, t.N)
		}
		for smp := 0; smp < s.samples; smp++ {
			sub := sampleQITable(t, r.Perm(t.N)[:n])
			for _, k := range mipK {
				prog.Printf("MIP: n = %d, k = %d, sample %d", n, k, smp+1)
				mr, err := ip.SolveKAnonMIP(sub, k, s.solver, &solvers.Params{TimeLimit: secondsDuration(s.timeLimit)})
				if err != nil {
					return fmt.Errorf("MIP, n = %d, k = %d, sample %d: %w", n, k, smp+1, err)
				}
				if err := kanon.Verify(sub, sub.Boxes(mr.Graph), mr.Graph, k, mr.GCP); err != nil {
					return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: MIP, n = %d, k = %d: %w", n, k, err)}
				}
				row := benchKanonMIPRow{N: n, K: k, Sample: smp + 1, Optimum: mr.GCP, Optimal: mr.Optimal, MIPSeconds: mr.Seconds,
					Solver: mr.Solver, GCP: map[string]float64{}, Gap: map[string]*float64{}}
				if !math.IsNaN(mr.Bound) {
					b := mr.Bound
					row.Bound = &b
				}
				for _, m := range heur {
					res, err := kanon.Anonymize(sub, k, &kanon.Options{Method: m, Seed: s.seed})
					if err != nil {
						return fmt.Errorf("sample n = %d, %s, k = %d: %w", n, m, k, err)
					}
					if err := kanon.CheckResult(sub, k, res); err != nil {
						return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: sample n = %d, %s, k = %d: %w", n, m, k, err)}
					}
					row.GCP[m] = res.GCP
					if g := relGap(res.GCP, mr.GCP); !math.IsInf(g, 0) {
						row.Gap[m] = &g
					}
				}
				doc.MIP = append(doc.MIP, row)
			}
		}
	}
	for _, n := range scaleN {
		prog.Printf("SyntheticQI: n = %d, sortgreedy, partition %d", n, s.scaleP)
		syn, err := datasets.NewSyntheticQI(n, s.seed)
		if err != nil {
			return cli.BadInput("--scale-n: %v", err)
		}
		res, err := kanon.Anonymize(syn, benchScaleK, &kanon.Options{Method: kanon.MethodSortGreedy, Partition: s.scaleP, Seed: s.seed})
		if err != nil {
			return fmt.Errorf("SyntheticQI n = %d: %w", n, err)
		}
		if err := kanon.CheckResult(syn, benchScaleK, res); err != nil {
			return &cli.ExitError{Code: cli.ExitEngine, Err: fmt.Errorf("internal error: SyntheticQI n = %d: %w", n, err)}
		}
		doc.Scale = append(doc.Scale, benchKanonScaleRow{N: n, K: benchScaleK, Method: kanon.MethodSortGreedy, Partition: s.scaleP,
			Partitions: res.Partitions, GCP: res.GCP, Seconds: res.Seconds, Verified: true})
	}
	doc.Seconds = time.Since(start).Seconds()
	if s.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	writeBenchKanonText(w, &doc, heur, ks)
	return nil
}

// relGap is (h - opt)/opt, 0 when both are 0 and +Inf when only opt is;
// gaps within the MIP's relative tolerance (solvers.DefaultMIPRelGap)
// count as 0, so that a heuristic that ties the optimum does not show a
// negative gap.
func relGap(h, opt float64) float64 {
	if opt == 0 {
		if h == 0 {
			return 0
		}
		return math.Inf(1)
	}
	g := (h - opt) / opt
	if math.Abs(g) <= solvers.DefaultMIPRelGap {
		return 0
	}
	return g
}

// sampleQITable returns the records idx of t with t's attributes (ranges
// and categories of the whole table).
func sampleQITable(t *model.QITable, idx []int) *model.QITable {
	d := t.D()
	s := &model.QITable{Attrs: t.Attrs, N: len(idx), X: make([]float64, 0, len(idx)*d)}
	for _, i := range idx {
		s.X = append(s.X, t.Row(i)...)
	}
	return s
}

func writeBenchKanonText(w io.Writer, doc *benchKanonDoc, heur []string, ks []int) {
	if len(doc.VsK) > 0 {
		fmt.Fprintf(w, "Adult (%d records, %d dropped for '?'), %d quasi-identifiers; partition %d; GCP (seconds)\n",
			doc.N, doc.Dropped, len(doc.QI), doc.Partition)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "K")
		for _, m := range heur {
			fmt.Fprintf(tw, "\t%s", strings.ToUpper(m))
		}
		fmt.Fprintln(tw)
		for _, k := range ks {
			fmt.Fprintf(tw, "%d", k)
			for _, m := range heur {
				for _, r := range doc.VsK {
					if r.K == k && r.Method == m {
						fmt.Fprintf(tw, "\t%.4f (%.1f)", r.GCP, r.Seconds)
					}
				}
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	if len(doc.MIP) > 0 {
		fmt.Fprintln(w, "Exact MIP vs heuristics on seeded Adult samples: optimum GCP, heuristic GCP (gap = GCP/optimum - 1)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "N\tK\tSAMPLE\tOPTIMUM\tPROVEN\tMIP_S")
		for _, m := range heur {
			fmt.Fprintf(tw, "\t%s", strings.ToUpper(m))
		}
		fmt.Fprintln(tw)
		mean := map[string]float64{}
		for _, r := range doc.MIP {
			proven := "yes"
			if !r.Optimal {
				proven = "no"
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%.4f\t%s\t%.1f", r.N, r.K, r.Sample, r.Optimum, proven, r.MIPSeconds)
			for _, m := range heur {
				g := r.Gap[m]
				if g == nil {
					fmt.Fprintf(tw, "\t%.4f (opt 0)", r.GCP[m])
					mean[m] = math.Inf(1)
					continue
				}
				fmt.Fprintf(tw, "\t%.4f (%+.1f%%)", r.GCP[m], 100**g)
				mean[m] += *g / float64(len(doc.MIP))
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprint(tw, "mean\t\t\t\t\t")
		for _, m := range heur {
			fmt.Fprintf(tw, "\t%+.1f%%", 100*mean[m])
		}
		fmt.Fprintln(tw)
		tw.Flush()
		fmt.Fprintln(w)
	}
	if len(doc.Scale) > 0 {
		fmt.Fprintf(w, "SortGreedy on SyntheticQI (Adult cardinalities), k = %d\n", benchScaleK)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "N\tPARTITION\tPARTITIONS\tGCP\tSECONDS")
		for _, r := range doc.Scale {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%.4f\t%.1f\n", r.N, r.Partition, r.Partitions, r.GCP, r.Seconds)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "every result verified: k-regular with the identity round, boxes contain their originals, GCP recomputed")
}
