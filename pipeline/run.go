package pipeline

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
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
	// WorkDir is where the run makes its private work directory, which
	// holds the staged input and the per-part results and is removed
	// after the run (see workDir); on a cluster it must be storage every
	// worker reaches (a Beam filesystem path). "" = os.TempDir(). A local
	// WorkDir must be an existing directory; nothing in it but the run's
	// own new directory is written. While a pipeline runs, the process's
	// TMPDIR names that directory, so that Beam's own temporary files go
	// there too and are removed with it.
	WorkDir string
	// TempDir, when set, makes the local work directory instead of
	// os.MkdirTemp(base, pattern) and returns the function that removes
	// it with its contents instead of os.RemoveAll: a command sets it to
	// have the directory removed when a signal stops the process too
	// (cli.MkdirTemp).
	TempDir func(base, pattern string) (dir string, remove func(), err error)
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
	if r.WorkDir != "" && !strings.Contains(r.WorkDir, "://") {
		st, err := os.Stat(r.WorkDir)
		switch {
		case err != nil:
			return fmt.Errorf("pipeline: --work-dir %s: %w", r.WorkDir, unwrapPathErr(err))
		case !st.IsDir():
			return fmt.Errorf("pipeline: --work-dir %s: not a directory", r.WorkDir)
		}
	}
	switch r.LogLevel {
	case "", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("pipeline: unknown log level %q (want debug, info, warn or error)", r.LogLevel)
	}
	return nil
}

// unwrapPathErr drops the operation and path of an *fs.PathError.
func unwrapPathErr(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

var execMu sync.Mutex

// execute runs p on the runner, with the run's work directory dir. Beam's
// job options are process-wide flags, so runs are serialized.
func (r Runner) execute(ctx context.Context, p *beam.Pipeline, dir string) error {
	if err := r.Check(); err != nil {
		return err
	}
	execMu.Lock()
	defer execMu.Unlock()
	if !strings.Contains(dir, "://") {
		// Beam's loopback worker leaves an empty file in os.TempDir() per
		// job (beamloopbackworker-*): with TMPDIR in the run's own work
		// directory it is removed with it, as are Beam's other temporary
		// files, on every exit path. No other code of this process is
		// meant to make temporary files while a pipeline runs.
		old, had := os.LookupEnv("TMPDIR")
		os.Setenv("TMPDIR", dir)
		defer func() {
			if had {
				os.Setenv("TMPDIR", old)
			} else {
				os.Unsetenv("TMPDIR")
			}
		}()
	}
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

// workDir creates the run's private work directory and returns it with
// the function that removes it and everything in it. The directory is
// always a fresh one, made for this run: a local one by os.MkdirTemp
// (mode 0700) in r.WorkDir, or in os.TempDir() when r.WorkDir is "", so
// that the staged input (the confidential records) and the parts' files
// are neither readable by other users nor written over anything that
// was in r.WorkDir (a data file named input.txt, say); on a Beam
// filesystem of another scheme (gs://, ...) a new name with a random
// suffix under r.WorkDir, whose files are removed at the end where the
// filesystem can remove files. Nothing else in r.WorkDir is written. The
// directory is created through r.TempDir when it is set.
func (r Runner) workDir(ctx context.Context) (string, func(), error) {
	if strings.Contains(r.WorkDir, "://") {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", nil, fmt.Errorf("pipeline: work directory: %w", err)
		}
		dir := joinPath(r.WorkDir, workDirPrefix+hex.EncodeToString(b[:]))
		return dir, func() { removeRemote(context.WithoutCancel(ctx), dir) }, nil
	}
	mk := r.TempDir
	if mk == nil {
		mk = func(base, pattern string) (string, func(), error) {
			dir, err := os.MkdirTemp(base, pattern)
			if err != nil {
				return "", nil, err
			}
			return dir, func() { os.RemoveAll(dir) }, nil
		}
	}
	dir, remove, err := mk(r.WorkDir, workDirPrefix+"*")
	if err != nil {
		return "", nil, fmt.Errorf("pipeline: work directory: %w", err)
	}
	return dir, remove, nil
}

// workDirPrefix begins the name of every run's work directory.
const workDirPrefix = "sdcopt-pipeline-"

// removeRemote removes the files of dir on a Beam filesystem that can
// remove files (best effort: the run's result does not depend on it).
func removeRemote(ctx context.Context, dir string) {
	glob := joinPath(dir, "*")
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return
	}
	names, err := fs.List(ctx, glob)
	if err != nil {
		return
	}
	for _, name := range names {
		rm.Remove(ctx, name)
	}
}

// Rec is a batch of records in a pipeline: their indices in the loaded
// data, their values (quasi-identifiers, or microaggregation attributes),
// row-major, and, for a publication, their 0-based data rows in the input
// file (Row; nil when they are the indices) and the cells published
// unchanged (Rest, row-major). Records travel in batches (of StageBatch
// from the input) because a runner encodes every element between stages:
// one element per record made the runner's own work dominate. Their Beam
// coder is the compact encoding of encodeRec.
type Rec struct {
	I    []int64
	X    []float64
	Row  []int64
	Rest []string
}

// StageBatch is the number of records per staged line (one input element).
const StageBatch = 1024

func init() {
	beam.RegisterCoder(reflect.TypeOf((*Rec)(nil)).Elem(), encodeRec, decodeRec)
	beam.RegisterFunction(parseRec)
}

// stager writes the staged input: one line per batch of StageBatch
// records, the base64 of encodeRec. Records are added one at a time, so
// the input never needs to be in memory.
type stager struct {
	w     io.WriteCloser
	bw    *bufio.Writer
	path  string
	batch Rec
	n     int
}

func newStager(ctx context.Context, dir string) (*stager, error) {
	path := joinPath(dir, "input.txt")
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("pipeline: staging the input: %w", err)
	}
	return &stager{w: w, bw: bufio.NewWriterSize(w, 1<<20), path: path}, nil
}

// add stages record i (values x, data row row, cells rest; the slices are
// copied).
func (s *stager) add(i int64, x []float64, row int64, rest []string) error {
	b := &s.batch
	b.I = append(b.I, i)
	b.X = append(b.X, x...)
	if row != i || b.Row != nil {
		if b.Row == nil {
			b.Row = append(make([]int64, 0, StageBatch), b.I[:len(b.I)-1]...)
		}
		b.Row = append(b.Row, row)
	}
	b.Rest = append(b.Rest, rest...)
	s.n++
	if len(b.I) == StageBatch {
		return s.flush()
	}
	return nil
}

func (s *stager) flush() error {
	if len(s.batch.I) == 0 {
		return nil
	}
	enc := encodeRec(s.batch)
	line := make([]byte, base64.StdEncoding.EncodedLen(len(enc))+1)
	base64.StdEncoding.Encode(line, enc)
	line[len(line)-1] = '\n'
	s.batch = Rec{I: s.batch.I[:0], X: s.batch.X[:0], Rest: s.batch.Rest[:0]}
	if _, err := s.bw.Write(line); err != nil {
		return fmt.Errorf("pipeline: staging the input: %w", err)
	}
	return nil
}

// close finishes the staged file and returns its path.
func (s *stager) close() (string, error) {
	err := s.flush()
	if err == nil {
		err = s.bw.Flush()
	}
	if cerr := s.w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("pipeline: staging the input: %w", cerr)
	}
	return s.path, err
}

// abort closes the staged file after a failure.
func (s *stager) abort() { s.w.Close() }

// stage writes the n records of row-major x (d values each) as the
// staged input of dir.
func stage(ctx context.Context, dir string, x []float64, n, d int) (string, error) {
	st, err := newStager(ctx, dir)
	if err != nil {
		return "", err
	}
	for i := range n {
		if err := st.add(int64(i), x[i*d:(i+1)*d], int64(i), nil); err != nil {
			st.abort()
			return "", err
		}
	}
	return st.close()
}

func joinPath(dir, name string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return filepath.Join(dir, name)
}

// parseRec decodes a staged line.
func parseRec(line string, emit func(Rec)) error {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(line))
	if err != nil {
		return fmt.Errorf("pipeline: staged line: %w", err)
	}
	r, err := decodeRec(b)
	if err != nil {
		return fmt.Errorf("pipeline: staged line: %w", err)
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
