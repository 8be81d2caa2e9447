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
)

// Grid is a benchmark grid spec file (JSON): the cases of `sdcopt bench
// icsm` that it selects, each run as one element of a pipeline.
//
//	{"bench": "icsm", "tables": [2], "data": ["tarragona", "census"],
//	 "k": [3, 5, 10], "seeds": [1], "restarts": 20, "time_limit": 0}
//
// bench is the benchmark ("icsm", the only one so far: ICSM from MDAV,
// Mortazavi & Jalili's Tables 2 and 4); tables, data and k select the
// cases as the flags of `sdcopt bench icsm` do (empty: all); seeds are
// the seeds of Table 4's perturbed restarts, one report per seed (default
// [1]); restarts and time_limit (seconds per ICSM call, 0 = none) are
// those flags' values (restarts default bench.DefaultICSMRestarts).
type Grid struct {
	Bench     string   `json:"bench"`
	Tables    []int    `json:"tables"`
	Data      []string `json:"data"`
	K         []int    `json:"k"`
	Seeds     []uint64 `json:"seeds"`
	Restarts  *int     `json:"restarts"`
	TimeLimit float64  `json:"time_limit"`
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
	if g.Bench != "icsm" {
		return nil, fmt.Errorf("%s: field bench: %q (want \"icsm\")", name, g.Bench)
	}
	if g.TimeLimit < 0 {
		return nil, fmt.Errorf("%s: field time_limit: %v (want >= 0 seconds)", name, g.TimeLimit)
	}
	if len(g.Seeds) == 0 {
		g.Seeds = []uint64{1}
	}
	for _, seed := range g.Seeds {
		if _, err := bench.ICSMCaseCount(g.options(seed)); err != nil {
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

func (f *benchFn) ProcessElement(ctx context.Context, c benchCase) error {
	var g Grid
	if err := json.Unmarshal([]byte(f.Grid), &g); err != nil {
		return err
	}
	rep, err := bench.ICSMCase(g.options(c.Seed), c.Index)
	if err != nil {
		return err
	}
	return writeGob(ctx, joinPath(f.Dir, fmt.Sprintf("bench-%020d-%06d.gob", c.Seed, c.Index)), rep)
}

// Bench runs the grid's cases as one pipeline element each and merges
// them (bench.MergeICSM) into one report per seed, in the order of
// g.Seeds: the report `sdcopt bench icsm` gives for the same selection,
// restarts and seed (Seconds: the sum of the cases' times).
func Bench(ctx context.Context, g *Grid, run Runner) ([]*bench.ICSMReport, error) {
	if err := run.Check(); err != nil {
		return nil, err
	}
	var cases []benchCase
	counts := map[uint64]int{}
	for _, seed := range g.Seeds {
		n, err := bench.ICSMCaseCount(g.options(seed))
		if err != nil {
			return nil, err
		}
		counts[seed] = n
		for i := range n {
			cases = append(cases, benchCase{Seed: seed, Index: i})
		}
	}
	if run.Name == RunnerSingle {
		var out []*bench.ICSMReport
		for _, seed := range g.Seeds {
			var reps []*bench.ICSMReport
			for i := range counts[seed] {
				rep, err := bench.ICSMCase(g.options(seed), i)
				if err != nil {
					return nil, err
				}
				reps = append(reps, rep)
			}
			m, err := bench.MergeICSM(reps)
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
	dir, cleanup, err := run.workDir()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	p, s := beam.NewPipelineWithRoot()
	elems := beam.CreateList(s, cases)
	beam.ParDo0(s.Scope("case"), &benchFn{Grid: string(gj), Dir: dir}, beam.Reshuffle(s, elems))
	if err := run.execute(ctx, p); err != nil {
		return nil, err
	}
	var out []*bench.ICSMReport
	for _, seed := range g.Seeds {
		var reps []*bench.ICSMReport
		for i := range counts[seed] {
			r, err := readGobs[bench.ICSMReport](ctx, dir, fmt.Sprintf("bench-%020d-%06d.gob", seed, i))
			if err != nil || len(r) != 1 {
				return nil, fmt.Errorf("pipeline: case %d of seed %d: no result (%v)", i, seed, err)
			}
			reps = append(reps, r[0])
		}
		m, err := bench.MergeICSM(reps)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return slices.Clip(out), nil
}
