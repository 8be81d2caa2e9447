package pipeline

import (
	"bufio"
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/sdcopt/sdcopt/model"
)

// Runners.
const (
	RunnerPrism    = "prism"    // Beam's prism runner, started in this process (the default)
	RunnerPortable = "portable" // a portable job endpoint (Flink or Spark job server) at Runner.Endpoint
	// RunnerSingle runs without Beam: the same coarse parts solved one
	// after the other in this process (KanonLocal, MicroaggLocal), the
	// single-process reference of a pipeline run.
	RunnerSingle = "single"
)

// Runner selects where a pipeline runs.
type Runner struct {
	Name     string // RunnerPrism ("") or RunnerPortable
	Endpoint string // host:port of the job service (RunnerPortable only)
	// Environment is the worker environment of the portable runner:
	// "" (Beam's default, the Go SDK container), "loopback" (workers in
	// this process: a job server on this machine) or "process".
	Environment string
	// WorkDir holds the staged input and the per-part results; on a
	// cluster it must be storage every worker reaches (a Beam filesystem
	// path). "" = a fresh directory under os.TempDir(), removed after the
	// run.
	WorkDir string
	// LogLevel is the level of Beam's log on stderr (Go's slog default
	// logger, which the run replaces): "" (warn), debug, info, warn or
	// error.
	LogLevel string
}

// Check validates the runner settings.
func (r Runner) Check() error {
	switch r.Name {
	case "", RunnerPrism, RunnerSingle:
		if r.Endpoint != "" {
			return fmt.Errorf("pipeline: --endpoint is for the portable runner (runner %q runs in this process)", r.Name)
		}
	case RunnerPortable:
		host, port, ok := strings.Cut(r.Endpoint, ":")
		if !ok || host == "" || port == "" {
			return fmt.Errorf("pipeline: the portable runner needs --endpoint host:port of a job service, got %q", r.Endpoint)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return fmt.Errorf("pipeline: --endpoint %q: port %q is not a number in 1..65535", r.Endpoint, port)
		}
	default:
		return fmt.Errorf("pipeline: unknown runner %q (want %q, %q or %q)", r.Name, RunnerPrism, RunnerPortable, RunnerSingle)
	}
	switch r.Environment {
	case "", "loopback", "process", "docker":
	default:
		return fmt.Errorf("pipeline: unknown worker environment %q (want loopback, process or docker)", r.Environment)
	}
	switch r.LogLevel {
	case "", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("pipeline: unknown log level %q (want debug, info, warn or error)", r.LogLevel)
	}
	return nil
}

var execMu sync.Mutex

// execute runs p on the runner. Beam's job options are process-wide
// flags, so runs are serialized.
func (r Runner) execute(ctx context.Context, p *beam.Pipeline) error {
	if err := r.Check(); err != nil {
		return err
	}
	execMu.Lock()
	defer execMu.Unlock()
	if !beam.Initialized() {
		beam.Init()
	}
	level := r.LogLevel
	if level == "" {
		level = "warn"
	}
	log.SetupLogging(level, "text")
	var err error
	if r.Name == RunnerPortable {
		old, oldEnv := *jobopts.Endpoint, *jobopts.EnvironmentType
		*jobopts.Endpoint, *jobopts.EnvironmentType = r.Endpoint, r.Environment
		defer func() { *jobopts.Endpoint, *jobopts.EnvironmentType = old, oldEnv }()
		_, err = universal.Execute(ctx, p)
	} else {
		_, err = prism.Execute(ctx, p)
	}
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// workDir returns the run's directory and a cleanup function.
func (r Runner) workDir() (string, func(), error) {
	if r.WorkDir != "" {
		return r.WorkDir, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "sdcopt-pipeline-")
	if err != nil {
		return "", nil, fmt.Errorf("pipeline: work directory: %w", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// Rec is a batch of records in a pipeline: their indices in the loaded
// data and their values (quasi-identifiers, or microaggregation
// attributes), row-major. Records travel in batches (of StageBatch from
// the input) because a runner encodes every element between stages: one
// element per record made the runner's own work dominate.
type Rec struct {
	I []int64
	X []float64
}

// StageBatch is the number of records per staged line (one input element).
const StageBatch = 1024

func init() {
	beam.RegisterType(reflect.TypeOf((*Rec)(nil)).Elem())
	beam.RegisterFunction(parseRec)
}

// stage writes the n records of row-major x (d values each) as text lines
// of StageBatch records "index,v1,...,vd;index,v1,...,vd;..." (shortest
// exact float formatting) to dir/input.txt, the pipeline's input.
func stage(ctx context.Context, dir string, x []float64, n, d int) (string, error) {
	path := joinPath(dir, "input.txt")
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", fmt.Errorf("pipeline: %w", err)
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return "", fmt.Errorf("pipeline: staging the input: %w", err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	buf := make([]byte, 0, 256)
	for i := range n {
		buf = buf[:0]
		if i%StageBatch != 0 {
			buf = append(buf, ';')
		}
		buf = strconv.AppendInt(buf, int64(i), 10)
		for _, v := range x[i*d : (i+1)*d] {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		if i%StageBatch == StageBatch-1 || i == n-1 {
			buf = append(buf, '\n')
		}
		if _, err := bw.Write(buf); err != nil {
			w.Close()
			return "", fmt.Errorf("pipeline: staging the input: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return "", fmt.Errorf("pipeline: staging the input: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("pipeline: staging the input: %w", err)
	}
	return path, nil
}

func joinPath(dir, name string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return filepath.Join(dir, name)
}

// parseRec parses a staged line.
func parseRec(line string, emit func(Rec)) error {
	var r Rec
	for _, rec := range strings.Split(line, ";") {
		f := strings.Split(rec, ",")
		i, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return fmt.Errorf("pipeline: staged record %q: %w", rec, err)
		}
		r.I = append(r.I, i)
		for _, c := range f[1:] {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				return fmt.Errorf("pipeline: staged record %q: %w", rec, err)
			}
			r.X = append(r.X, v)
		}
	}
	emit(r)
	return nil
}

// readStaged reads the staged records into the pipeline.
func readStaged(s beam.Scope, path string) beam.PCollection {
	return beam.ParDo(s, parseRec, textio.Read(s, path))
}

// writeGob writes v gob-encoded to path on a Beam filesystem.
func writeGob(ctx context.Context, path string, v any) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(w).Encode(v); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// readGobs decodes every file of dir matching pattern into a new T each.
func readGobs[T any](ctx context.Context, dir, pattern string) ([]*T, error) {
	glob := joinPath(dir, pattern)
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	names, err := fs.List(ctx, glob)
	if err != nil {
		return nil, err
	}
	var out []*T
	for _, name := range names {
		r, err := fs.OpenRead(ctx, name)
		if err != nil {
			return nil, err
		}
		v := new(T)
		err = gob.NewDecoder(r).Decode(v)
		r.Close()
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// attrsJSON encodes attributes for a DoFn field.
func attrsJSON(attrs []model.QIAttr) (string, error) {
	b, err := json.Marshal(attrs)
	return string(b), err
}

func decodeAttrs(s string) ([]model.QIAttr, error) {
	var attrs []model.QIAttr
	if err := json.Unmarshal([]byte(s), &attrs); err != nil {
		return nil, fmt.Errorf("pipeline: attributes: %w", err)
	}
	return attrs, nil
}
