package bench

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// KanonOptions configure Kanon; nil means DefaultKanonOptions(). An empty
// Ks, MIPNs or ScaleNs skips that table.
type KanonOptions struct {
	// Table 1: GCP and time vs k on Adult for every method of Methods
	// (mip excluded; mondrian is the baseline of the ratio column),
	// partitions of Partition records (0 = automatic: kanon.AutoPartition
	// with Budget, 0 = kanon.DefaultBudget).
	Ks        []int
	Methods   []string
	Partition int
	Budget    time.Duration
	// Table 2: the exact MIP against the heuristics on Samples seeded
	// samples of each size in MIPNs of Adult, at every k of MIPKs;
	// MIPSolver ("" = auto) with TimeLimit per sample.
	MIPNs, MIPKs []int
	Samples      int
	MIPSolver    string
	TimeLimit    time.Duration
	// Table 3: SortGreedy time vs n on SyntheticQI (k = KanonScaleK)
	// with partitions of ScalePartition (0 = automatic, with Budget).
	ScaleNs        []int
	ScalePartition int
	// Table 4: GCP and time vs partition size on Adult at k = SweepK (0 =
	// KanonSweepK) for every method of Methods but mondrian and mip, one
	// run per size of SweepPartitions (Mondrian, which has no partitions,
	// once as the reference).
	SweepPartitions []int
	SweepK          int
	// Seed seeds the samples, the synthetic data and the assignments.
	Seed     uint64
	Progress Progress
}

// KanonScaleK is the k of the scaling table.
const KanonScaleK = 10

// KanonSweepK is the default k of the partition-size table.
const KanonSweepK = 10

// DefaultKanonOptions returns k = 2, 5, 10, 25, 50 with greedy,
// sortgreedy, hungarian, flow and mondrian, partitions chosen
// automatically (kanon.DefaultBudget); MIP samples of 8, 10 and 12
// records at k = 2, 3, three each, 60 s; SortGreedy on 10^4, 10^5 and
// 5·10^5 synthetic records with automatic partitions; seed 1.
func DefaultKanonOptions() *KanonOptions {
	return &KanonOptions{
		Ks:      []int{2, 5, 10, 25, 50},
		Methods: []string{kanon.MethodGreedy, kanon.MethodSortGreedy, kanon.MethodHungarian, kanon.MethodFlow, kanon.MethodMondrian},
		MIPNs:   []int{8, 10, 12}, MIPKs: []int{2, 3}, Samples: 3, TimeLimit: 60 * time.Second,
		ScaleNs: []int{10_000, 100_000, 500_000}, Seed: 1,
	}
}

// streamKanon seeds the Adult samples of the MIP table.
const streamKanon = 0x6b61_6e6f_6e10

// KanonKRow is a row of table 1.
type KanonKRow struct {
	Method     string  `json:"method"`
	K          int     `json:"k"`
	N          int     `json:"n"`
	GCP        float64 `json:"gcp"`
	Partitions int     `json:"partitions"`
	Partition  int     `json:"partition"` // records per partition used (0 = one partition; mondrian: 0)
	Classes    int     `json:"classes"`   // mondrian: equivalence classes; 0 otherwise
	Seconds    float64 `json:"seconds"`
	Verified   bool    `json:"verified"`
	// VsMondrian is GCP / Mondrian's GCP at the same k (when mondrian is
	// among the methods and its GCP is positive); null otherwise.
	VsMondrian *float64 `json:"vs_mondrian"`
	// The disclosure risk of the publication (kanon.Risk, see package
	// risk): the largest and the mean re-identification probability over
	// the published records (prosecutor model, at most 1/k) and the mean
	// success of the linkage attack on the boxes (the expected share of
	// originals linked to their own record); RiskExact false when the
	// means were estimated on a sample.
	MaxReidentification  float64 `json:"max_reidentification"`
	MeanReidentification float64 `json:"mean_reidentification"`
	Linkage              float64 `json:"linkage"`
	RiskExact            bool    `json:"risk_exact"`
}

// KanonSweepRow is a row of table 4: one method at one partition size
// (Partition 0 for mondrian, which has none).
type KanonSweepRow struct {
	Method     string  `json:"method"`
	K          int     `json:"k"`
	Partition  int     `json:"partition"`
	Partitions int     `json:"partitions"`
	GCP        float64 `json:"gcp"`
	Seconds    float64 `json:"seconds"`
	Verified   bool    `json:"verified"`
}

// KanonMIPRow is a row of table 2.
type KanonMIPRow struct {
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

// KanonScaleRow is a row of table 3.
type KanonScaleRow struct {
	N          int     `json:"n"`
	K          int     `json:"k"`
	Method     string  `json:"method"`
	Partition  int     `json:"partition"`
	Partitions int     `json:"partitions"`
	GCP        float64 `json:"gcp"`
	Seconds    float64 `json:"seconds"`
	Verified   bool    `json:"verified"`
}

// KanonReport is the outcome of Kanon.
type KanonReport struct {
	Method     string          `json:"method"` // "kanon"
	Data       string          `json:"data"`
	N          int             `json:"n"`
	Dropped    int             `json:"dropped"`
	QI         []string        `json:"qi"`
	Partition  int             `json:"partition"` // 0: automatic
	Budget     float64         `json:"budget"`    // seconds, automatic partitioning
	Seed       uint64          `json:"seed"`
	Heuristics []string        `json:"heuristics"`
	VsK        []KanonKRow     `json:"vs_k"`
	MIP        []KanonMIPRow   `json:"mip"`
	Scale      []KanonScaleRow `json:"scale"`
	Sweep      []KanonSweepRow `json:"sweep"`
	Seconds    float64         `json:"seconds"`
}

func (o *KanonOptions) check() error {
	for _, m := range o.Methods {
		if !slices.Contains(kanon.Methods(), m) {
			return settingsErr("methods", "unknown method %q (want some of %s)", m, strings.Join(kanon.Methods(), ", "))
		}
	}
	switch {
	case o.Partition < 0:
		return settingsErr("partition", "must be >= 0 (0 = automatic), got %d", o.Partition)
	case o.Budget < 0:
		return settingsErr("budget", "negative time budget %v", o.Budget)
	case len(o.ScaleNs) > 0 && o.ScalePartition != 0 && o.ScalePartition < KanonScaleK:
		return settingsErr("scale-partition", "must be 0 (automatic) or at least %d, got %d", KanonScaleK, o.ScalePartition)
	case o.Samples < 1 && len(o.MIPNs) > 0:
		return settingsErr("samples", "must be at least 1, got %d", o.Samples)
	case o.TimeLimit < 0:
		return settingsErr("time-limit", "negative time limit %v", o.TimeLimit)
	}
	for _, k := range o.Ks {
		if k < 1 {
			return settingsErr("k", "must be at least 1, got %d", k)
		}
		if o.Partition > 0 && o.Partition < k {
			return settingsErr("partition", "%d is below k = %d", o.Partition, k)
		}
	}
	for _, n := range o.MIPNs {
		for _, k := range o.MIPKs {
			if k < 1 || k > n {
				return settingsErr("mip-k", "%d must be between 1 and the sample size %d", k, n)
			}
		}
	}
	if o.SweepK < 0 {
		return settingsErr("sweep-k", "must be at least 1 (0 = %d), got %d", KanonSweepK, o.SweepK)
	}
	sk := o.SweepK
	if sk == 0 {
		sk = KanonSweepK
	}
	for _, p := range o.SweepPartitions {
		if p < sk {
			return settingsErr("sweep-partition", "%d is below k = %d", p, sk)
		}
		if p > kanon.MaxDense {
			return settingsErr("sweep-partition", "%d is above %d, the largest partition of the dense methods", p, kanon.MaxDense)
		}
	}
	for _, n := range o.ScaleNs {
		if n < KanonScaleK {
			return settingsErr("scale-n", "%d is below k = %d", n, KanonScaleK)
		}
	}
	return nil
}

// Kanon runs the experiments of Doka et al. (Sections 8-9) on UCI Adult
// with the 8 quasi-identifiers that mirror their CENSUS data (rows with
// '?' dropped): GCP and time vs k per method, the exact MIP against the
// heuristics on seeded samples, and SortGreedy's time vs n on synthetic
// records with Adult's cardinalities. Every result is verified.
func Kanon(opt *KanonOptions) (*KanonReport, error) {
	if opt == nil {
		opt = DefaultKanonOptions()
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	heur := slices.DeleteFunc(slices.Clone(opt.Methods), func(m string) bool { return m == kanon.MethodMIP })
	prog := progressOf(opt.Progress)
	start := time.Now()
	rep := &KanonReport{Method: "kanon", Data: "adult", Partition: opt.Partition, Budget: opt.Budget.Seconds(), Seed: opt.Seed, Heuristics: heur}
	if opt.Budget == 0 {
		rep.Budget = kanon.DefaultBudget.Seconds()
	}
	var t *model.QITable
	if len(opt.Ks) > 0 || len(opt.MIPNs) > 0 || len(opt.SweepPartitions) > 0 {
		q, err := datasets.LoadAdult(false)
		if err != nil {
			return nil, err
		}
		t = q.Table
		rep.N, rep.Dropped = t.N, q.Dropped
		for a := range t.Attrs {
			rep.QI = append(rep.QI, t.Attrs[a].Name)
		}
	}
	for _, k := range opt.Ks {
		first := len(rep.VsK)
		mondrian := math.NaN()
		for _, m := range heur {
			prog.Printf("Adult: %s, k = %d", m, k)
			o := &kanon.Options{Method: m, Seed: opt.Seed, Budget: opt.Budget}
			if m != kanon.MethodMondrian {
				o.Partition = opt.Partition
			}
			res, err := kanon.Anonymize(t, k, o)
			if err != nil {
				return nil, fmt.Errorf("bench kanon: Adult, %s, k = %d: %w", m, k, err)
			}
			if err := kanon.CheckResult(t, k, res); err != nil {
				return nil, checkErr("Adult, %s, k = %d: %v", m, k, err)
			}
			if m == kanon.MethodMondrian {
				mondrian = res.GCP
			}
			row := KanonKRow{Method: m, K: k, N: t.N, GCP: res.GCP, Partitions: res.Partitions, Partition: res.Partition,
				Classes: res.Classes, Seconds: res.Seconds, Verified: true}
			if rk := res.Risk; rk != nil {
				row.MaxReidentification, row.MeanReidentification, row.Linkage, row.RiskExact = rk.MaxReidentification, rk.MeanReidentification, rk.LinkageMean, rk.Exact
			}
			rep.VsK = append(rep.VsK, row)
		}
		if mondrian > 0 {
			for x := first; x < len(rep.VsK); x++ {
				r := rep.VsK[x].GCP / mondrian
				rep.VsK[x].VsMondrian = &r
			}
		}
	}
	r := rand.New(rand.NewPCG(opt.Seed, streamKanon))
	for _, n := range opt.MIPNs {
		if n > t.N {
			return nil, settingsErr("mip-n", "sample size %d exceeds the %d records of Adult", n, t.N)
		}
		for smp := 0; smp < opt.Samples; smp++ {
			sub := sampleQITable(t, r.Perm(t.N)[:n])
			for _, k := range opt.MIPKs {
				prog.Printf("MIP: n = %d, k = %d, sample %d", n, k, smp+1)
				mr, err := ip.SolveKAnonMIP(sub, k, opt.MIPSolver, &solvers.Params{TimeLimit: opt.TimeLimit})
				if err != nil {
					return nil, fmt.Errorf("bench kanon: MIP, n = %d, k = %d, sample %d: %w", n, k, smp+1, err)
				}
				if err := kanon.Verify(sub, sub.Boxes(mr.Graph), mr.Graph, k, mr.GCP); err != nil {
					return nil, checkErr("MIP, n = %d, k = %d: %v", n, k, err)
				}
				row := KanonMIPRow{N: n, K: k, Sample: smp + 1, Optimum: mr.GCP, Optimal: mr.Optimal, MIPSeconds: mr.Seconds,
					Solver: mr.Solver, GCP: map[string]float64{}, Gap: map[string]*float64{}}
				if !math.IsNaN(mr.Bound) {
					b := mr.Bound
					row.Bound = &b
				}
				for _, m := range heur {
					res, err := kanon.Anonymize(sub, k, &kanon.Options{Method: m, Partition: kanon.OnePartition, Seed: opt.Seed})
					if err != nil {
						return nil, fmt.Errorf("bench kanon: sample n = %d, %s, k = %d: %w", n, m, k, err)
					}
					if err := kanon.CheckResult(sub, k, res); err != nil {
						return nil, checkErr("sample n = %d, %s, k = %d: %v", n, m, k, err)
					}
					row.GCP[m] = res.GCP
					if g := relGap(res.GCP, mr.GCP); !math.IsInf(g, 0) {
						row.Gap[m] = &g
					}
				}
				rep.MIP = append(rep.MIP, row)
			}
		}
	}
	for _, n := range opt.ScaleNs {
		prog.Printf("SyntheticQI: n = %d, sortgreedy", n)
		syn, err := datasets.NewSyntheticQI(n, opt.Seed)
		if err != nil {
			return nil, err
		}
		res, err := kanon.Anonymize(syn, KanonScaleK, &kanon.Options{Method: kanon.MethodSortGreedy, Partition: opt.ScalePartition, Budget: opt.Budget, Seed: opt.Seed, SkipRisk: true}) // time and GCP only
		if err != nil {
			return nil, fmt.Errorf("bench kanon: SyntheticQI n = %d: %w", n, err)
		}
		if err := kanon.CheckResult(syn, KanonScaleK, res); err != nil {
			return nil, checkErr("SyntheticQI n = %d: %v", n, err)
		}
		rep.Scale = append(rep.Scale, KanonScaleRow{N: n, K: KanonScaleK, Method: kanon.MethodSortGreedy, Partition: res.Partition,
			Partitions: res.Partitions, GCP: res.GCP, Seconds: res.Seconds, Verified: true})
	}
	if err := kanonSweep(rep, t, opt, heur, prog); err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// kanonSweep runs table 4: every heuristic but mondrian at every
// partition size, Mondrian once.
func kanonSweep(rep *KanonReport, t *model.QITable, opt *KanonOptions, heur []string, prog Progress) error {
	k := opt.SweepK
	if k == 0 {
		k = KanonSweepK
	}
	for _, m := range heur {
		sizes := opt.SweepPartitions
		if m == kanon.MethodMondrian {
			sizes = []int{0}
		}
		for _, part := range sizes {
			if len(opt.SweepPartitions) == 0 {
				break
			}
			prog.Printf("Adult: %s, k = %d, partitions of %d", m, k, part)
			o := &kanon.Options{Method: m, Seed: opt.Seed, Partition: part, SkipRisk: true} // GCP and time only
			res, err := kanon.Anonymize(t, k, o)
			if err != nil {
				return fmt.Errorf("bench kanon: Adult, %s, k = %d, partitions of %d: %w", m, k, part, err)
			}
			if err := kanon.CheckResult(t, k, res); err != nil {
				return checkErr("Adult, %s, k = %d, partitions of %d: %v", m, k, part, err)
			}
			rep.Sweep = append(rep.Sweep, KanonSweepRow{Method: m, K: k, Partition: res.Partition, Partitions: res.Partitions,
				GCP: res.GCP, Seconds: res.Seconds, Verified: true})
		}
	}
	return nil
}

// partLabel names a partition size (0 = all records).
func partLabel(p int) string {
	if p == 0 {
		return "all"
	}
	return fmt.Sprint(p)
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

// Tables returns the three tables (the MIP table with one row per sample
// and heuristic).
func (r *KanonReport) Tables() []*Table {
	vs := &Table{Name: "vs_k", Columns: []string{"method", "k", "n", "gcp", "vs_mondrian", "partition", "partitions", "classes", "seconds", "verified",
		"max_reidentification", "mean_reidentification", "linkage", "risk_exact"}}
	for _, x := range r.VsK {
		vs.add(x.Method, x.K, x.N, x.GCP, x.VsMondrian, x.Partition, x.Partitions, x.Classes, x.Seconds, x.Verified,
			x.MaxReidentification, x.MeanReidentification, x.Linkage, x.RiskExact)
	}
	mip := &Table{Name: "mip", Columns: []string{"n", "k", "sample", "optimum", "bound", "optimal", "mip_seconds", "solver", "method", "gcp", "gap"}}
	for _, x := range r.MIP {
		for _, m := range r.Heuristics {
			mip.add(x.N, x.K, x.Sample, x.Optimum, x.Bound, x.Optimal, x.MIPSeconds, x.Solver, m, x.GCP[m], x.Gap[m])
		}
	}
	sc := &Table{Name: "scale", Columns: []string{"n", "k", "method", "partition", "partitions", "gcp", "seconds", "verified"}}
	for _, x := range r.Scale {
		sc.add(x.N, x.K, x.Method, x.Partition, x.Partitions, x.GCP, x.Seconds, x.Verified)
	}
	sw := &Table{Name: "sweep", Columns: []string{"method", "k", "partition", "partitions", "gcp", "seconds", "verified"}}
	for _, x := range r.Sweep {
		sw.add(x.Method, x.K, x.Partition, x.Partitions, x.GCP, x.Seconds, x.Verified)
	}
	return []*Table{vs, mip, sc, sw}
}

// WriteText writes the three tables.
func (r *KanonReport) WriteText(w io.Writer) error {
	heur := r.Heuristics
	if len(r.VsK) > 0 {
		var ks []int
		for _, x := range r.VsK {
			if !slices.Contains(ks, x.K) {
				ks = append(ks, x.K)
			}
		}
		part := fmt.Sprintf("partitions chosen automatically (budget %g s)", r.Budget)
		if r.Partition > 0 {
			part = fmt.Sprintf("partitions of %d", r.Partition)
		}
		fmt.Fprintf(w, "Adult (%d records, %d dropped for '?'), %d quasi-identifiers; %s; GCP (seconds, partition size)\n",
			r.N, r.Dropped, len(r.QI), part)
		hasMondrian := slices.Contains(heur, kanon.MethodMondrian)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "K")
		for _, m := range heur {
			fmt.Fprintf(tw, "\t%s", strings.ToUpper(m))
		}
		if hasMondrian {
			fmt.Fprint(tw, "\tBEST/MONDRIAN")
		}
		fmt.Fprintln(tw)
		for _, k := range ks {
			fmt.Fprintf(tw, "%d", k)
			best, bestM, ratio := math.Inf(1), "", math.NaN()
			for _, m := range heur {
				for _, x := range r.VsK {
					if x.K != k || x.Method != m {
						continue
					}
					if m == kanon.MethodMondrian {
						fmt.Fprintf(tw, "\t%.4f (%.1f, %d classes)", x.GCP, x.Seconds, x.Classes)
						continue
					}
					fmt.Fprintf(tw, "\t%.4f (%.1f, %s)", x.GCP, x.Seconds, partLabel(x.Partition))
					if x.GCP < best {
						best, bestM = x.GCP, m
						if x.VsMondrian != nil {
							ratio = *x.VsMondrian
						}
					}
				}
			}
			if hasMondrian {
				fmt.Fprintf(tw, "\t%.3f (%s)", ratio, bestM)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Disclosure risk of the publications: largest / mean re-identification probability over the published records, mean success of the linkage attack (%)")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "K")
		for _, m := range heur {
			fmt.Fprintf(tw, "\t%s", strings.ToUpper(m))
		}
		fmt.Fprintln(tw)
		sampled := false
		for _, k := range ks {
			fmt.Fprintf(tw, "%d", k)
			for _, m := range heur {
				for _, x := range r.VsK {
					if x.K == k && x.Method == m {
						fmt.Fprintf(tw, "\t%.2f / %.2f / %.2f", 100*x.MaxReidentification, 100*x.MeanReidentification, 100*x.Linkage)
						sampled = sampled || !x.RiskExact
					}
				}
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if sampled {
			fmt.Fprintln(w, "(some means estimated on a seeded sample of records: risk_exact = false in --format csv/json)")
		}
		fmt.Fprintln(w)
	}
	if len(r.MIP) > 0 {
		fmt.Fprintln(w, "Exact MIP vs heuristics on seeded Adult samples: optimum GCP, heuristic GCP (gap = GCP/optimum - 1)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "N\tK\tSAMPLE\tOPTIMUM\tPROVEN\tMIP_S")
		for _, m := range heur {
			fmt.Fprintf(tw, "\t%s", strings.ToUpper(m))
		}
		fmt.Fprintln(tw)
		mean := map[string]float64{}
		for _, x := range r.MIP {
			proven := "yes"
			if !x.Optimal {
				proven = "no"
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%.4f\t%s\t%.1f", x.N, x.K, x.Sample, x.Optimum, proven, x.MIPSeconds)
			for _, m := range heur {
				g := x.Gap[m]
				if g == nil {
					fmt.Fprintf(tw, "\t%.4f (opt 0)", x.GCP[m])
					mean[m] = math.Inf(1)
					continue
				}
				fmt.Fprintf(tw, "\t%.4f (%+.1f%%)", x.GCP[m], 100**g)
				mean[m] += *g / float64(len(r.MIP))
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
	if len(r.Scale) > 0 {
		fmt.Fprintf(w, "SortGreedy on SyntheticQI (Adult cardinalities), k = %d\n", KanonScaleK)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "N\tPARTITION\tPARTITIONS\tGCP\tSECONDS")
		for _, x := range r.Scale {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%.4f\t%.1f\n", x.N, x.Partition, x.Partitions, x.GCP, x.Seconds)
		}
		tw.Flush()
	}
	if len(r.Sweep) > 0 {
		fmt.Fprintf(w, "Adult, k = %d: GCP (seconds) vs records per partition\n", r.Sweep[0].K)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "METHOD\tPARTITION\tPARTITIONS\tGCP\tSECONDS")
		for _, x := range r.Sweep {
			part := fmt.Sprint(x.Partition)
			if x.Method == kanon.MethodMondrian {
				part = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.4f\t%.1f\n", x.Method, part, x.Partitions, x.GCP, x.Seconds)
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w, "every result verified: k-regular (Mondrian: complete classes of at least k records) with the identity round, boxes contain their originals, GCP recomputed")
	return err
}
