package kanon

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// Partitioning schemes (Options.Split).
const (
	SplitMedian = "median" // MedianPartitions: Mondrian's median splits (the default)
	SplitLex    = "lex"    // Partitions: consecutive blocks of the lexicographic order
)

// Method names.
const (
	MethodGreedy     = "greedy"
	MethodSortGreedy = "sortgreedy"
	MethodHungarian  = "hungarian"
	MethodFlow       = "flow"
	MethodMIP        = "mip"
	MethodMondrian   = "mondrian" // the baseline: strict multidimensional partitioning (see Mondrian)
)

// Methods lists the method names Anonymize accepts.
func Methods() []string {
	return []string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow, MethodMIP, MethodMondrian}
}

// Freeform lists the freeform methods (those with a k-regular graph; all
// but Mondrian).
func Freeform() []string {
	return []string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow, MethodMIP}
}

// Errors returned (wrapped) by Anonymize and the helpers.
var (
	ErrK         = errors.New("kanon: bad k")
	ErrMethod    = errors.New("kanon: unknown method")
	ErrPartition = errors.New("kanon: bad partition size")
	ErrTooLarge  = errors.New("kanon: partition too large for a dense n x n method")
)

// MaxDense is the largest partition (records) the dense methods (every
// method but greedy) accept: they hold an n x n weight matrix (8n² bytes,
// 2 GiB at 16384) and SortGreedy also an n² sort key array.
const MaxDense = 16384

// Second PCG words for the seeded streams.
const (
	streamExtract = 0x6b61_6e6f_6e01
	streamPublish = 0x6b61_6e6f_6e02
)

// Options configure Anonymize. A nil *Options means the zero value; an
// empty Method means MethodSortGreedy.
type Options struct {
	Method string // one of Methods() ("" = MethodSortGreedy)
	// Partition is the number of records per partition; see Split. 0 (the
	// default): chosen from Budget by AutoPartition for greedy,
	// sortgreedy, hungarian and flow (one partition for mip and
	// mondrian), as sdcopt kanon does without --partition; OnePartition:
	// the whole table as one partition.
	Partition int
	Split     string // how partitions are cut: SplitMedian ("", MedianPartitions) or SplitLex (Partitions)
	// Budget is the time budget of the heuristics (0 = DefaultBudget):
	// the automatic partition size is chosen from it. A Budget that is
	// set (> 0) is also their deadline, checked inside the partitions of
	// greedy, sortgreedy and hungarian: partitions running at it or
	// starting after it get the quick fallback graph (FallbackQuick,
	// Result.Fallbacks, FallbackParts). Budget 0 sets no deadline (DefaultBudget only
	// sizes the partitions), so that the result depends on the data, k,
	// the options and the seed alone, never on the machine's speed or
	// load.
	Budget  time.Duration
	Workers int    // partitions solved in parallel (0 = runtime.GOMAXPROCS(0))
	Seed    uint64 // randomized assignment extraction and publish order; same seed => same output
	// Assign selects hungarian's assignment per round: AssignAuto (""),
	// AssignDense or AssignSparse (the candidate graph of Candidates
	// nearest records per record).
	Assign     string
	Candidates int    // sparse hungarian: lightest edges per record and per published record (0 = DefaultCandidates(k))
	Pool       int    // sparse hungarian: the candidates come from the Pool nearest records of each (0 = DefaultPool(k); >= n-1: all records)
	MIPSolver  string // engine of the exact MIP ("" = auto)
	// TimeLimit is the MIP's deadline for the whole run (0 = none): every
	// partition's engine gets the time left, and a partition whose engine
	// has not returned shortly after the deadline (or that starts after
	// it) is solved by the hungarian heuristic instead (Result.Fallbacks).
	TimeLimit time.Duration
	// SkipRisk leaves Result.Risk nil: by default Anonymize measures the
	// re-identification risk of its publication (Risk).
	SkipRisk bool
	// Progress, when not nil, is told how the run advances: phase
	// "partitions" with done of total partitions solved (first with done =
	// 0, then after each partition), then "extract" (0 of 1, 1 of 1:
	// the assignment and publish order) and, unless SkipRisk, "risk" (0 of
	// 1, 1 of 1). Calls never overlap (they come from the workers, one at
	// a time) and should return quickly.
	Progress func(phase string, done, total int)
}

// OnePartition as Options.Partition solves the whole table as one
// partition (the zero value chooses the partition size automatically).
const OnePartition = -1

// Result is a k-anonymous freeform generalization.
type Result struct {
	// Graph is k-regular (freeform methods) or, for Mondrian, the complete
	// bipartite graph of every class (degree = class size >= k; the
	// Matched slices of one class are shared); global record indices,
	// identity round included.
	Graph      *model.GenGraph
	GCP        float64 // the graph's GCP (model.QITable.GCP), in [0, 1]
	Partitions int     // partitions solved (1 without Options.Partition and for Mondrian)
	Partition  int     // the partition size used (Options.Partition or the automatic choice; 0 = one partition)
	Classes    int     // Mondrian: the equivalence classes; 0 otherwise
	Repairs    int     // sparse hungarian: rounds whose candidate graph needed the greedy repair
	// Assignment[j] = the original whose non-QI attributes are published
	// with box j (a perfect matching of Graph drawn with Options.Seed).
	Assignment []int
	// PublishOrder is the seeded shuffled order in which the published
	// records are listed.
	PublishOrder []int
	MIPBound     float64 // MIP only: lower bound on the optimal GCP (the partition-weighted sum of the partitions' bounds); NaN otherwise
	MIPOptimal   bool    // MIP only: every partition solved to optimality
	// Fallbacks counts the partitions solved by a cheaper method because
	// of the deadline: MIP partitions solved by the hungarian heuristic
	// because the engine had not returned by Options.TimeLimit (or
	// stopped there without a feasible graph; MIPBound is NaN then), and
	// heuristic partitions interrupted by the budget (Options.Budget,
	// when set) or started after it, finished by the quick fallback
	// (FallbackQuick). FallbackParts lists them, FallbackRecords counts
	// their records.
	Fallbacks       int
	FallbackRecords int
	FallbackParts   []Fallback
	Solver          string  // MIP only: the engine's registry name
	Seconds         float64 // wall-clock time of Anonymize, the risk measurement excluded (see Risk.Seconds)
	// Risk is the re-identification risk of the published boxes (see
	// Risk; nil with Options.SkipRisk): its largest probability is
	// checked to be at most 1/k.
	Risk *risk.GeneralizationReport
}

// partResult is the solution of one partition in local indices.
type partResult struct {
	matched [][]int32
	bound   float64 // MIP: bound on the partition's GCP
	optimal bool
	solver  string // MIP: the engine
	repairs int    // sparse hungarian: rounds completed by the greedy repair
	// fellBack: MIP, the engine missed the deadline and the hungarian
	// heuristic solved the partition; the other methods, the quick
	// fallback (quickGraph) solved it at the deadline.
	fellBack bool
	// interrupted: the partition had started before the deadline and its
	// rounds stopped there.
	interrupted bool
}

// FallbackQuick names the fallback of the round-based methods at the
// deadline (Fallback.Method): quickGraph, Mondrian's median splits into
// parts of k to 2k-1 records, each given the circulant graph of its
// lexicographic order.
const FallbackQuick = "median-circulant"

// Fallback describes a partition that the deadline left to a fallback
// method (Result.FallbackParts).
type Fallback struct {
	Partition int // index of the partition (0-based, in the order of the split)
	Records   int // its records
	// Interrupted: the partition had started before the deadline and was
	// stopped at it (its rounds check the deadline inside the partition;
	// for mip, the engine had not returned); false: it started after the
	// deadline.
	Interrupted bool
	Method      string // the method that finished it: FallbackQuick, or MethodHungarian for mip
}

// sparseHungarian reports whether hungarian solves a partition of n
// records on the candidate graph.
func sparseHungarian(o *Options, n int) bool {
	return o.Assign == AssignSparse || (o.Assign == AssignAuto && n > SparseMin)
}

// Anonymize builds a k-regular generalization graph of t with the chosen
// method (see the package documentation) on partitions of
// Options.Partition records (by default chosen by AutoPartition),
// extracts a seeded assignment and a seeded publish order, and returns
// the graph's GCP. MethodMondrian instead returns Mondrian's classes as
// complete bipartite blocks (see Mondrian) with a seeded assignment
// within each class.
//
// Unless Options.SkipRisk, Result.Risk holds the re-identification risk of
// the published boxes (Risk), measured after the anonymization.
func Anonymize(t *model.QITable, k int, opt *Options) (*Result, error) {
	res, err := anonymize(t, k, opt)
	if err != nil || (opt != nil && opt.SkipRisk) {
		return res, err
	}
	o := Options{}
	if opt != nil {
		o = *opt
	}
	o.report("risk", 0, 1)
	if res.Risk, err = Risk(t, k, res, &risk.GeneralizationOptions{Seed: o.Seed, Workers: o.Workers}); err != nil {
		return nil, fmt.Errorf("kanon: internal error: %w", err)
	}
	o.report("risk", 1, 1)
	return res, nil
}

// Risk measures the disclosure risk of the published boxes of res (the
// boxes of its graph over t): the largest and mean re-identification
// probability over published records and the linkage attack on the boxes
// (risk.Generalization, which fails with risk.ErrExceeds if a box holds
// fewer than k originals). opt may be nil (risk's defaults).
func Risk(t *model.QITable, k int, res *Result, opt *risk.GeneralizationOptions) (*risk.GeneralizationReport, error) {
	if res == nil || res.Graph == nil || res.Graph.N != t.N {
		return nil, errors.New("kanon: Risk: no result for this table")
	}
	return risk.Generalization(t, t.Boxes(res.Graph), k, opt)
}

// report calls the Progress callback, if any.
func (o *Options) report(phase string, done, total int) {
	if o.Progress != nil {
		o.Progress(phase, done, total)
	}
}

// anonymize is Anonymize without the risk measurement.
func anonymize(t *model.QITable, k int, opt *Options) (*Result, error) {
	start := time.Now()
	o := Options{}
	if opt != nil {
		o = *opt
	}
	if o.Method == "" {
		o.Method = MethodSortGreedy
	}
	if t == nil {
		return nil, errors.New("kanon: nil table")
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("kanon: %w", err)
	}
	if t.N == 0 {
		return nil, errors.New("kanon: empty table")
	}
	if !slices.Contains(Methods(), o.Method) {
		return nil, fmt.Errorf("%w %q (want one of %v)", ErrMethod, o.Method, Methods())
	}
	if k < 1 || k > t.N {
		return nil, fmt.Errorf("%w: k = %d for %d records (want 1 <= k <= n)", ErrK, k, t.N)
	}
	if o.Partition < OnePartition || (o.Partition > 0 && o.Partition < k) {
		return nil, fmt.Errorf("%w: %d (want 0 = automatic, OnePartition = -1, or at least k = %d)", ErrPartition, o.Partition, k)
	}
	if o.TimeLimit < 0 || o.Budget < 0 {
		return nil, fmt.Errorf("kanon: negative time limit %v or budget %v", o.TimeLimit, o.Budget)
	}
	if !slices.Contains([]string{AssignAuto, AssignDense, AssignSparse}, o.Assign) {
		return nil, fmt.Errorf("kanon: unknown assignment %q (want \"\", %q or %q)", o.Assign, AssignDense, AssignSparse)
	}
	if o.Candidates < 0 || o.Pool < 0 {
		return nil, fmt.Errorf("kanon: candidates %d or pool %d < 0", o.Candidates, o.Pool)
	}
	if !slices.Contains([]string{"", SplitMedian, SplitLex}, o.Split) {
		return nil, fmt.Errorf("kanon: unknown split %q (want %q or %q)", o.Split, SplitMedian, SplitLex)
	}
	if o.Method == MethodMondrian {
		if o.Partition > 0 {
			return nil, fmt.Errorf("%w: %d: Mondrian partitions the data itself (want 0)", ErrPartition, o.Partition)
		}
		classes, err := Mondrian(t, k)
		if err != nil {
			return nil, err
		}
		res := mondrianResult(t, classes, o.Seed)
		res.MIPBound = math.NaN()
		res.PublishOrder = rand.New(rand.NewPCG(o.Seed, streamPublish)).Perm(t.N)
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	auto := o.Partition == 0 && o.Method != MethodMIP
	if auto {
		p, err := AutoPartition(o.Method, t.N, k, workers, o.Budget)
		if err != nil {
			return nil, err
		}
		o.Partition = p
	}
	if o.Partition == OnePartition {
		o.Partition = 0
	}
	var parts [][]int
	if o.Split == SplitLex {
		parts = Partitions(t, k, o.Partition)
	} else {
		parts = MedianPartitions(t, k, o.Partition)
	}
	if o.Method != MethodGreedy {
		for _, p := range parts {
			if len(p) > MaxDense && !(o.Method == MethodHungarian && sparseHungarian(&o, len(p))) {
				return nil, fmt.Errorf("%w: %d records with method %s (at most %d; set Options.Partition)", ErrTooLarge, len(p), o.Method, MaxDense)
			}
		}
	}
	workers = min(workers, len(parts))
	// The deadline: the MIP's TimeLimit, or the heuristics' budget. The
	// round-based methods check it inside a partition; a partition
	// interrupted there or starting after it gets the quick fallback
	// (quickGraph, O(n log² n), no rounds), so the run ends shortly after
	// the budget even when the cost model underestimates this machine or
	// the partition size is given.
	var deadline time.Time
	switch {
	case o.Method == MethodMIP && o.TimeLimit > 0:
		deadline = start.Add(o.TimeLimit)
	case o.Method != MethodMIP && o.Budget > 0:
		deadline = start.Add(o.Budget)
	}

	results := make([]partResult, len(parts))
	errs := make([]error, len(parts))
	var next, done int
	var mu sync.Mutex
	o.report("partitions", 0, len(parts))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				p := next
				next++
				failed := false
				for _, e := range errs {
					failed = failed || e != nil
				}
				mu.Unlock()
				if p >= len(parts) || failed {
					return
				}
				sub := subTable(t, parts[p])
				var r partResult
				var err error
				if o.Method != MethodMIP && !deadline.IsZero() && time.Now().After(deadline) {
					r = partResult{matched: quickGraph(sub, k), bound: math.NaN(), fellBack: true}
				} else {
					r, err = solvePartition(sub, k, &o, deadline)
					if o.Method != MethodMIP && errors.Is(err, errDeadline) {
						// Interrupted at the deadline: the quick
						// fallback finishes the partition.
						r, err = partResult{matched: quickGraph(sub, k), bound: math.NaN(), fellBack: true, interrupted: true}, nil
					}
				}
				mu.Lock()
				results[p], errs[p] = r, err
				if err == nil {
					done++
					o.report("partitions", done, len(parts))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for p, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("kanon: partition %d of %d (%d records): %w", p, len(parts), len(parts[p]), err)
		}
	}

	g := &model.GenGraph{N: t.N, Matched: make([][]int32, t.N)}
	bound, optimal, solver, repairs, fallbacks, fbRecords := 0.0, true, "", 0, 0, 0
	var fbParts []Fallback
	for p, idx := range parts {
		for lj, m := range results[p].matched {
			gm := make([]int32, len(m))
			for x, li := range m {
				gm[x] = int32(idx[li])
			}
			slices.Sort(gm)
			g.Matched[idx[lj]] = gm
		}
		bound += results[p].bound * float64(len(idx))
		optimal = optimal && results[p].optimal
		repairs += results[p].repairs
		if results[p].fellBack {
			fallbacks++
			fbRecords += len(idx)
			f := Fallback{Partition: p, Records: len(idx), Interrupted: results[p].interrupted, Method: FallbackQuick}
			if o.Method == MethodMIP {
				f.Method = MethodHungarian
			}
			fbParts = append(fbParts, f)
		}
		if results[p].solver != "" {
			solver = results[p].solver
		}
	}
	if err := g.CheckRegular(k); err != nil {
		return nil, fmt.Errorf("kanon: internal error: %w", err)
	}
	res := &Result{Graph: g, GCP: t.GCP(g), Partitions: len(parts), Partition: o.Partition, MIPBound: math.NaN(), Repairs: repairs,
		Fallbacks: fallbacks, FallbackRecords: fbRecords, FallbackParts: fbParts}
	if o.Method == MethodMIP {
		res.MIPBound, res.MIPOptimal, res.Solver = bound/float64(t.N), optimal, solver
	}
	var err error
	o.report("extract", 0, 1)
	if res.Assignment, err = Extract(g, k, o.Seed); err != nil {
		return nil, fmt.Errorf("kanon: internal error: %w", err)
	}
	o.report("extract", 1, 1)
	res.PublishOrder = rand.New(rand.NewPCG(o.Seed, streamPublish)).Perm(t.N)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// solvePartition solves one partition. The round-based methods (greedy,
// sortgreedy, hungarian) check deadline inside the partition and return
// errDeadline (wrapped) when it passes; mip handles its deadline itself
// (solveMIP); flow does not check it.
func solvePartition(t *model.QITable, k int, o *Options, deadline time.Time) (partResult, error) {
	rounds := func(next roundFunc) ([][]int32, error) {
		st := newRounds(t, k)
		st.deadline = deadline
		return st.run(k, next)
	}
	switch o.Method {
	case MethodGreedy:
		m, err := rounds(roundGreedy)
		return partResult{matched: m, bound: math.NaN()}, err
	case MethodSortGreedy:
		m, err := rounds(roundSortGreedy)
		return partResult{matched: m, bound: math.NaN()}, err
	case MethodHungarian:
		if !sparseHungarian(o, t.N) {
			m, err := rounds(roundHungarian)
			return partResult{matched: m, bound: math.NaN()}, err
		}
		L, M := o.Candidates, o.Pool
		if L == 0 {
			L = DefaultCandidates(k)
		}
		if M == 0 {
			M = DefaultPool(k)
		}
		st := newRounds(t, k)
		st.deadline = deadline
		if err := st.initSparse(L, M); err != nil {
			return partResult{}, err
		}
		m, err := st.run(k, roundSparse)
		return partResult{matched: m, bound: math.NaN(), repairs: st.repairs}, err
	case MethodFlow:
		m, err := solveFlow(t, k)
		return partResult{matched: m, bound: math.NaN()}, err
	case MethodMIP:
		return solveMIP(t, k, o, deadline)
	}
	return partResult{}, fmt.Errorf("%w %q", ErrMethod, o.Method)
}

// LexOrder returns the record indices of t sorted lexicographically by
// their quasi-identifier tuples (numeric attributes by value, a missing
// value after every value, categorical ones by code, in attribute order;
// ties by index).
func LexOrder(t *model.QITable) []int {
	ord := make([]int, t.N)
	for i := range ord {
		ord[i] = i
	}
	d := t.D()
	slices.SortFunc(ord, func(a, b int) int {
		ra, rb := t.X[a*d:(a+1)*d], t.X[b*d:(b+1)*d]
		for x := range ra {
			if c := compareValues(ra[x], rb[x]); c != 0 {
				return c
			}
		}
		return a - b
	})
	return ord
}

// orderKey is the sort key of a quasi-identifier value: the value, or
// +Inf for a missing numeric value (model.IsMissing), which so sorts after
// every value (the data hold no infinite value).
func orderKey(v float64) float64 {
	if model.IsMissing(v) {
		return math.Inf(1)
	}
	return v
}

// compareValues orders two quasi-identifier values by orderKey.
func compareValues(x, y float64) int {
	x, y = orderKey(x), orderKey(y)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Partitions cuts the lexicographic order of t's records into consecutive
// partitions of size p (p = 0: one partition); a last partition of fewer
// than k records is merged into the previous one. Every partition has at
// least k records when t.N >= k and p is 0 or at least k.
func Partitions(t *model.QITable, k, p int) [][]int {
	ord := LexOrder(t)
	if p <= 0 || p >= t.N {
		return [][]int{ord}
	}
	var parts [][]int
	for s := 0; s < t.N; s += p {
		parts = append(parts, ord[s:min(s+p, t.N)])
	}
	if last := parts[len(parts)-1]; len(parts) > 1 && len(last) < k {
		prev := parts[len(parts)-2]
		parts[len(parts)-2] = ord[len(ord)-len(prev)-len(last):]
		parts = parts[:len(parts)-1]
	}
	return parts
}

// subTable returns the records idx of t as a table that shares t's
// attributes (so NCP denominators stay global).
func subTable(t *model.QITable, idx []int) *model.QITable {
	d := t.D()
	s := &model.QITable{Attrs: t.Attrs, N: len(idx), X: make([]float64, len(idx)*d)}
	for x, i := range idx {
		copy(s.X[x*d:(x+1)*d], t.Row(i))
	}
	return s
}

// MedianPartitions splits the records of t by Mondrian's median rule
// (Mondrian with minimum part size max(k, ⌈p/2⌉)) into parts compact in
// every quasi-identifier, most of p/2 to p records; a part that equal
// values keep above p records is cut into consecutive chunks of p records
// of its lexicographic order (a last chunk of fewer than k records merged
// into the previous one). p = 0 or p >= n: one partition, in
// lexicographic order. Every partition has at least k records when
// k <= n.
func MedianPartitions(t *model.QITable, k, p int) [][]int {
	if p <= 0 || p >= t.N {
		return [][]int{LexOrder(t)}
	}
	classes, err := Mondrian(t, max(k, (p+1)/2))
	if err != nil {
		return [][]int{LexOrder(t)}
	}
	var parts [][]int
	for _, c := range classes {
		if len(c) <= p {
			parts = append(parts, c)
			continue
		}
		sub := subTable(t, c)
		for _, chunk := range Partitions(sub, k, p) {
			g := make([]int, len(chunk))
			for x, li := range chunk {
				g[x] = c[li]
			}
			parts = append(parts, g)
		}
	}
	return parts
}

// quickGraph is the fallback of a round-based partition at the deadline
// (interrupted there, or started after it): the partition is split by
// Mondrian's median rule into parts of k to 2k-1 records
// (MedianPartitions with p = 2k; a part that equal values keep larger is
// cut into lexicographic chunks of 2k), and every part gets the circulant
// graph of its lexicographic order (circulant). Each part's graph is
// k-regular with the identity, so the partition's is too; the boxes are
// at most the part's box, so the GCP is at most Mondrian's on the same
// records. O(n log² n), no rounds: Adult's 30,162 records at k = 10 in
// 0.4 s on a loaded machine, GCP 0.062 (the circulant graph of the whole
// lexicographic order, the fallback before: 0.07 s, GCP 0.173;
// Mondrian: 0.071).
func quickGraph(t *model.QITable, k int) [][]int32 {
	m := make([][]int32, t.N)
	for _, part := range MedianPartitions(t, k, 2*k) {
		sub := subTable(t, part)
		for lj, row := range circulant(sub, k) {
			g := make([]int32, len(row))
			for x, li := range row {
				g[x] = int32(part[li])
			}
			slices.Sort(g)
			m[part[lj]] = g
		}
	}
	return m
}

// circulant is the fallback graph of one part (quickGraph): in the
// lexicographic order x_0..x_{n-1} of the part's records, published record x_p is matched with the originals
// x_p, x_{p+1}, ..., x_{p+k-1} (indices mod n). Every original is matched
// k times (by x_{p-k+1}..x_p), so the graph is k-regular and contains the
// identity; consecutive records of the order are close in the first
// quasi-identifiers, so the boxes stay small. O(n log n + nk): cheaper
// than any round-based method.
func circulant(t *model.QITable, k int) [][]int32 {
	ord := LexOrder(t)
	n := len(ord)
	m := make([][]int32, n)
	for p, j := range ord {
		row := make([]int32, k)
		for s := range k {
			row[s] = int32(ord[(p+s)%n])
		}
		slices.Sort(row)
		m[j] = row
	}
	return m
}
