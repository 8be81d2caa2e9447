package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/sdcopt/sdcopt/bench"
	"github.com/sdcopt/sdcopt/datasets"
)

// Grid is a benchmark grid spec file (JSON): the cases of `sdcopt bench
// icsm`, `sdcopt bench kanon` (its table of GCP vs k) or `sdcopt bench
// mdav` that it selects, each run as one element of a pipeline.
//
//	{"bench": "icsm", "tables": [2], "data": ["tarragona", "census"],
//	 "k": [3, 5, 10], "seeds": [1], "restarts": 20, "time_limit": 0}
//	{"bench": "kanon", "k": [2, 5, 10], "methods": ["sortgreedy", "mondrian"],
//	 "partition": 1000, "seeds": [1]}
//	{"bench": "mdav", "data": ["tarragona", "census"], "k": [3, 5]}
//
// bench is the benchmark. icsm: ICSM from MDAV, Mortazavi & Jalili's
// Tables 2 and 4; tables, data and k select the cases as the flags of
// `sdcopt bench icsm` do (empty: all); restarts and time_limit (seconds
// per ICSM call, 0 = none) are those flags' values (restarts default
// bench.DefaultICSMRestarts). kanon: GCP and time vs k on Adult, one case
// per k and method (default: bench.DefaultKanonOptions' k and methods),
// partition records per partition (0: automatic, chosen for budget
// seconds; the automatic choice depends on the machine's speed, so give a
// partition to compare runs). mdav: MDAV's IL on the CASC data sets at
// each k (default: all sets, bench.MDAVKs). seeds: one report per seed
// (default [1]; the seed of Table 4's restarts, or of kanon's
// assignments; mdav has none).
type Grid struct {
	Bench     string   `json:"bench"`
	Tables    []int    `json:"tables"`
	Data      []string `json:"data"`
	K         []int    `json:"k"`
	Seeds     []uint64 `json:"seeds"`
	Restarts  *int     `json:"restarts"`
	TimeLimit float64  `json:"time_limit"`
	Methods   []string `json:"methods"`
	Partition int      `json:"partition"`
	Budget    float64  `json:"budget"`

	name string // the spec file's name, for messages
}

// GridError is a grid that its data cannot run (a k above the number of
// records, shared data that is missing): bad input, found before the
// pipeline starts. The message names the spec file and the field.
type GridError struct{ Msg string }

func (e *GridError) Error() string { return e.Msg }

// CheckData loads the data sets the grid's cases use (the CASC sets of
// icsm and mdav, Adult for kanon) and returns a *GridError when one is
// missing or when a k of the grid exceeds a data set's number of records,
// which would otherwise fail inside a worker. Bench calls it first.
func (g *Grid) CheckData() error {
	name := g.name
	if name == "" {
		name = "grid"
	}
	bad := func(format string, args ...any) error {
		return &GridError{Msg: name + ": " + fmt.Sprintf(format, args...)}
	}
	checkK := func(data string, n int) error {
		for _, k := range g.K {
			if k > n {
				return bad("field k: %d exceeds the %d records of %s", k, n, data)
			}
		}
		return nil
	}
	switch g.Bench {
	case "kanon":
		o := g.kanonOptions(1)
		if len(o.Ks) == 0 {
			return nil
		}
		q, err := datasets.LoadAdult(false)
		if err != nil {
			return bad("%v", err)
		}
		if err := checkK("adult", q.Table.N); err != nil {
			return err
		}
	case "icsm", "mdav":
		data := g.Data
		if len(data) == 0 {
			data = datasets.CASCNames()
		}
		for _, d := range data {
			z, err := datasets.LoadCASC(d)
			if err != nil {
				return bad("%v", err)
			}
			if g.Bench == "mdav" {
				if err := checkK(d, z.N); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ParseGrid reads a grid spec file; errors name the file, the line and
// the field.
func ParseGrid(r io.Reader, name string) (*Grid, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var g Grid
	if err := dec.Decode(&g); err != nil {
		line := 1 + bytes.Count(b[:min(int(dec.InputOffset()), len(b))], []byte("\n"))
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			line = 1 + bytes.Count(b[:min(int(te.Offset), len(b))], []byte("\n"))
			return nil, fmt.Errorf("%s:%d: field %s: %s where %s is wanted", name, line, te.Field, te.Value, te.Type)
		case errors.As(err, &se):
			line = 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		}
		return nil, fmt.Errorf("%s:%d: %v", name, line, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", name)
	}
	g.name = name
	// Fields of another benchmark are mistakes, not defaults.
	unused := func(field string, set bool) error {
		if set {
			return fmt.Errorf("%s: field %s: not a setting of bench %q", name, field, g.Bench)
		}
		return nil
	}
	var errs []error
	switch g.Bench {
	case "icsm":
		errs = append(errs, unused("methods", g.Methods != nil), unused("partition", g.Partition != 0), unused("budget", g.Budget != 0))
	case "kanon":
		errs = append(errs, unused("tables", g.Tables != nil), unused("data", g.Data != nil), unused("restarts", g.Restarts != nil), unused("time_limit", g.TimeLimit != 0))
	case "mdav":
		errs = append(errs, unused("tables", g.Tables != nil), unused("restarts", g.Restarts != nil), unused("time_limit", g.TimeLimit != 0),
			unused("methods", g.Methods != nil), unused("partition", g.Partition != 0), unused("budget", g.Budget != 0), unused("seeds", g.Seeds != nil))
	default:
		return nil, fmt.Errorf("%s: field bench: %q (want \"icsm\", \"kanon\" or \"mdav\")", name, g.Bench)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	switch {
	case g.TimeLimit < 0:
		return nil, fmt.Errorf("%s: field time_limit: %v (want >= 0 seconds)", name, g.TimeLimit)
	case g.Budget < 0:
		return nil, fmt.Errorf("%s: field budget: %v (want >= 0 seconds)", name, g.Budget)
	}
	if len(g.Seeds) == 0 {
		g.Seeds = []uint64{1}
	}
	for _, seed := range g.Seeds {
		if _, err := g.count(seed); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return &g, nil
}

// options are the bench options of the grid with seed.
func (g *Grid) options(seed uint64) *bench.ICSMOptions {
	o := bench.DefaultICSMOptions()
	o.Tables, o.Data, o.Ks, o.Seed = g.Tables, g.Data, g.K, seed
	if g.Restarts != nil {
		o.Restarts = *g.Restarts
	}
	o.TimeLimit = time.Duration(g.TimeLimit * float64(time.Second))
	return o
}

// kanonOptions are the kanon bench options of the grid with seed.
func (g *Grid) kanonOptions(seed uint64) *bench.KanonOptions {
	o := bench.DefaultKanonOptions()
	o.MIPNs, o.ScaleNs, o.Seed = nil, nil, seed
	if len(g.K) > 0 {
		o.Ks = g.K
	}
	if len(g.Methods) > 0 {
		o.Methods = g.Methods
	}
	o.Partition, o.Budget = g.Partition, time.Duration(g.Budget*float64(time.Second))
	return o
}

func (g *Grid) mdavOptions() *bench.MDAVOptions {
	return &bench.MDAVOptions{Data: g.Data, Ks: g.K}
}

// count is the number of cases of the grid with seed.
func (g *Grid) count(seed uint64) (int, error) {
	switch g.Bench {
	case "kanon":
		return bench.KanonCaseCount(g.kanonOptions(seed))
	case "mdav":
		return bench.MDAVCaseCount(g.mdavOptions())
	}
	return bench.ICSMCaseCount(g.options(seed))
}

// runCase computes case i of the grid with seed.
func (g *Grid) runCase(seed uint64, i int) (bench.Report, error) {
	switch g.Bench {
	case "kanon":
		return bench.KanonCase(g.kanonOptions(seed), i)
	case "mdav":
		return bench.MDAVCase(g.mdavOptions(), i)
	}
	return bench.ICSMCase(g.options(seed), i)
}

// merge merges the one-case reports of one seed, in case order.
func (g *Grid) merge(reps []bench.Report) (bench.Report, error) {
	switch g.Bench {
	case "kanon":
		return mergeAs(reps, bench.MergeKanon)
	case "mdav":
		return mergeAs(reps, bench.MergeMDAV)
	}
	return mergeAs(reps, bench.MergeICSM)
}

func mergeAs[T any](reps []bench.Report, merge func([]*T) (*T, error)) (bench.Report, error) {
	ts := make([]*T, len(reps))
	for x, r := range reps {
		t, ok := any(r).(*T)
		if !ok {
			return nil, fmt.Errorf("pipeline: internal error: case report %T", r)
		}
		ts[x] = t
	}
	m, err := merge(ts)
	if err != nil {
		return nil, err
	}
	return any(m).(bench.Report), nil
}

// readCase reads the report of a case written by a worker.
func (g *Grid) readCase(ctx context.Context, dir, name string) (bench.Report, error) {
	switch g.Bench {
	case "kanon":
		return readOne[bench.KanonReport](ctx, dir, name)
	case "mdav":
		return readOne[bench.MDAVReport](ctx, dir, name)
	}
	return readOne[bench.ICSMReport](ctx, dir, name)
}

func readOne[T any](ctx context.Context, dir, name string) (bench.Report, error) {
	r, err := readGobs[T](ctx, dir, name)
	if err != nil || len(r) != 1 {
		return nil, fmt.Errorf("no result (%v)", err)
	}
	return any(r[0]).(bench.Report), nil
}

// benchCase is one element of the bench pipeline.
type benchCase struct {
	Seed  uint64
	Index int
}

type benchFn struct {
	Grid string // the Grid, JSON
	Dir  string
}

func init() {
	beam.RegisterType(reflect.TypeOf((*benchCase)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*benchFn)(nil)).Elem())
}

func caseName(seed uint64, i int) string { return fmt.Sprintf("bench-%020d-%06d.gob", seed, i) }

func (f *benchFn) ProcessElement(ctx context.Context, c benchCase) error {
	var g Grid
	if err := json.Unmarshal([]byte(f.Grid), &g); err != nil {
		return err
	}
	rep, err := g.runCase(c.Seed, c.Index)
	if err != nil {
		return err
	}
	return writeGob(ctx, joinPath(f.Dir, caseName(c.Seed, c.Index)), rep)
}

// Bench runs the grid's cases as one pipeline element each and merges
// them (bench.MergeICSM, MergeKanon, MergeMDAV) into one report per seed,
// in the order of g.Seeds: the report `sdcopt bench icsm`, `kanon` (its
// GCP vs k table) or `mdav` gives for the same selection, settings and
// seed (Seconds: the sum of the cases' times). mdav has one report.
func Bench(ctx context.Context, g *Grid, run Runner) ([]bench.Report, error) {
	if err := run.Check(); err != nil {
		return nil, err
	}
	if err := g.CheckData(); err != nil {
		return nil, err
	}
	seeds := g.Seeds
	if g.Bench == "mdav" {
		seeds = []uint64{0}
	}
	var cases []benchCase
	counts := map[uint64]int{}
	for _, seed := range seeds {
		n, err := g.count(seed)
		if err != nil {
			return nil, err
		}
		counts[seed] = n
		for i := range n {
			cases = append(cases, benchCase{Seed: seed, Index: i})
		}
	}
	if run.Name == RunnerSingle {
		var out []bench.Report
		for _, seed := range seeds {
			var reps []bench.Report
			for i := range counts[seed] {
				rep, err := g.runCase(seed, i)
				if err != nil {
					return nil, err
				}
				reps = append(reps, rep)
			}
			m, err := g.merge(reps)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		return out, nil
	}
	gj, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	dir, cleanup, err := run.workDir(ctx)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	p, s := beam.NewPipelineWithRoot()
	elems := beam.CreateList(s, cases)
	beam.ParDo0(s.Scope("case"), &benchFn{Grid: string(gj), Dir: dir}, beam.Reshuffle(s, elems))
	if err := run.execute(ctx, p, dir); err != nil {
		return nil, err
	}
	var out []bench.Report
	for _, seed := range seeds {
		var reps []bench.Report
		for i := range counts[seed] {
			r, err := g.readCase(ctx, dir, caseName(seed, i))
			if err != nil {
				return nil, fmt.Errorf("pipeline: case %d of seed %d: %w", i, seed, err)
			}
			reps = append(reps, r)
		}
		m, err := g.merge(reps)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return slices.Clip(out), nil
}
