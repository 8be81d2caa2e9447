package highs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/sdcopt/sdcopt/solvers"
)

// Pinned runtime: build/highs.wasm and build/highs.js of the npm package
// highs@1.15.3 (HiGHS 1.15.1), installed by scripts/fetch-highs.sh.
const (
	runtimeVersion = "1.15.3"
	wasmSHA256     = "528be4365bea1d4188988646b244263f50320df55782e14d6af5bce7cd45c840"
	jsSHA256       = "0bd23843c9795753f2276e9901eb2a1e66288547b6bcba84fa0665dc037b5c7c"
)

// cFuncs are the C functions of the wasm module that the backend calls,
// by their C names (the glue prefixes them with an underscore).
var cFuncs = []string{
	"malloc", "free",
	"Highs_create", "Highs_destroy", "Highs_version", "Highs_getSizeofHighsInt", "Highs_getInfinity",
	"Highs_run", "Highs_zeroAllClocks", "Highs_passLp", "Highs_passMip",
	"Highs_setBoolOptionValue", "Highs_setIntOptionValue", "Highs_setDoubleOptionValue", "Highs_setStringOptionValue",
	"Highs_getOptionType",
	"Highs_getIntInfoValue", "Highs_getDoubleInfoValue", "Highs_getInt64InfoValue",
	"Highs_getModelStatus", "Highs_getSolution",
	"Highs_addCols", "Highs_addRows", "Highs_changeColsCostBySet", "Highs_changeObjectiveSense",
	"Highs_changeColBounds", "Highs_changeRowBounds", "Highs_changeColsIntegralityBySet",
	"Highs_getNumCol", "Highs_getNumRow",
}

// compiled is the process-wide compiled module together with the name
// mapping parsed from the glue.
type compiled struct {
	dir       string
	rt        wazero.Runtime
	mod       wazero.CompiledModule
	importMod string            // import module name of the host functions
	exports   map[string]string // C name -> minified export name
	ctor      string            // static-constructor export
	memory    string            // memory export
	version   string            // HiGHS version, read from a first instance
	inf       float64           // Highs_getInfinity
	compile   time.Duration     // how long CompileModule took
	wasm      []byte            // the verified module (for stoppableRuntime)
	glue      *glue

	poolMu sync.Mutex
	idle   []*instance // idle instances of this runtime (see getInstance)

	// stoppable is the same module compiled in a second runtime whose
	// calls end when their context is done (see stoppableRuntime).
	stoppableOnce sync.Once
	stoppable     *compiled
	stoppableErr  error
}

var (
	loadOnce   sync.Once
	loadResult *compiled
	loadErr    error
)

// load locates, verifies and compiles the runtime once per process.
func load() (*compiled, error) {
	loadOnce.Do(func() {
		loadResult, loadErr = doLoad()
		if loadErr != nil {
			loadErr = &solvers.Error{Engine: engineName, Op: "load", Err: loadErr}
		}
	})
	return loadResult, loadErr
}

// runtimeDir is the directory that holds highs.wasm and highs.js.
func runtimeDir() string {
	if d := os.Getenv("SDCOPT_HIGHS_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".local", "share", "sdcopt", "highs-"+runtimeVersion)
	}
	return filepath.Join(home, ".local", "share", "sdcopt", "highs-"+runtimeVersion)
}

func unavailable(format string, args ...any) error {
	return fmt.Errorf("%w: %s (run `make deps` to install the HiGHS WebAssembly runtime, or set SDCOPT_HIGHS_DIR)",
		solvers.ErrUnavailable, fmt.Sprintf(format, args...))
}

func readVerified(path, want string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, unavailable("%s is missing", path)
		}
		return nil, unavailable("cannot read %s: %v", path, err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, unavailable("%s has sha256 %s, want %s", path, got, want)
	}
	return b, nil
}

func doLoad() (*compiled, error) {
	dir := runtimeDir()
	wasm, err := readVerified(filepath.Join(dir, "highs.wasm"), wasmSHA256)
	if err != nil {
		return nil, err
	}
	js, err := readVerified(filepath.Join(dir, "highs.js"), jsSHA256)
	if err != nil {
		return nil, err
	}
	g, err := parseGlue(js)
	if err != nil {
		return nil, unavailable("%v", err)
	}
	c := &compiled{dir: dir, exports: g.exports, ctor: g.ctor, memory: g.memory, wasm: wasm, glue: g}
	if err := c.compileIn(wazero.NewRuntimeConfig()); err != nil {
		return nil, err
	}
	// A first instance reads the version and checks the ABI; it is kept in
	// the pool for the first Solve.
	in, err := c.newInstance()
	if err != nil {
		return nil, fmt.Errorf("%w: instantiating highs.wasm: %v", solvers.ErrUnavailable, err)
	}
	if err := in.checkABI(c); err != nil {
		in.close()
		return nil, fmt.Errorf("%w: %v", solvers.ErrUnavailable, err)
	}
	putInstance(in)
	return c, nil
}

// compileIn compiles c's module in a new runtime with configuration cfg
// (plus the process's compilation cache) and instantiates the host
// functions.
func (c *compiled) compileIn(cfg wazero.RuntimeConfig) error {
	ctx := context.Background()
	c.rt = wazero.NewRuntimeWithConfig(ctx, cfg.WithCompilationCache(sharedCache()))
	t0 := time.Now()
	var err error
	c.mod, err = c.rt.CompileModule(ctx, c.wasm)
	c.compile = time.Since(t0)
	if err != nil {
		return fmt.Errorf("%w: compiling highs.wasm: %v", solvers.ErrUnavailable, err)
	}
	if err := c.checkModule(c.glue); err != nil {
		return fmt.Errorf("%w: %v", solvers.ErrUnavailable, err)
	}
	if err := instantiateHost(ctx, c.rt, c.importMod, c.glue.imports, c.mod); err != nil {
		return fmt.Errorf("%w: %v", solvers.ErrUnavailable, err)
	}
	return nil
}

// stoppableRuntime returns the module compiled a second time with
// wazero's context checks (RuntimeConfig.WithCloseOnContextDone): a call
// into one of its instances ends, killing the instance, when the call's
// context is done. The compiled code polls the context at function
// entries and loop heads, which made a MIP solve 2.8x slower
// (BenchmarkStoppable), so only MIP solves with a time limit use it; the
// first use compiles it (or reads it from the on-disk compilation cache).
func (c *compiled) stoppableRuntime() (*compiled, error) {
	c.stoppableOnce.Do(func() {
		s := &compiled{dir: c.dir, exports: c.exports, ctor: c.ctor, memory: c.memory, wasm: c.wasm, glue: c.glue,
			version: c.version, inf: c.inf}
		if err := s.compileIn(wazero.NewRuntimeConfig().WithCloseOnContextDone(true)); err != nil {
			c.stoppableErr = err
			return
		}
		c.stoppable = s
	})
	return c.stoppable, c.stoppableErr
}

var (
	cacheOnce sync.Once
	cache     wazero.CompilationCache
)

// sharedCache is the process's compilation cache (see compilationCache).
func sharedCache() wazero.CompilationCache {
	cacheOnce.Do(func() { cache = compilationCache() })
	return cache
}

// compilationCache returns an on-disk cache under the user cache directory,
// or an in-memory one when that is not writable or the wazero version is
// unknown. The directory is keyed by the wazero version, because wazero
// itself names its cache "dev" when the binary carries no module
// information (as in test binaries), and a cache written by another wazero
// version must never be read.
func compilationCache() wazero.CompilationCache {
	ver := wazeroVersion()
	if base, err := os.UserCacheDir(); err == nil && ver != "" {
		dir := filepath.Join(base, "sdcopt", "wazero", ver)
		if err := os.MkdirAll(dir, 0o755); err == nil {
			if probe, err := os.CreateTemp(dir, ".probe-*"); err == nil {
				name := probe.Name()
				probe.Close()
				os.Remove(name)
				if cc, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
					return cc
				}
			}
		}
	}
	return wazero.NewCompilationCache()
}

var reVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+[A-Za-z0-9.+-]*$`)

// wazeroVersion is the version of the linked wazero module, from the build
// information or else from the module-cache path of its source files.
func wazeroVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/tetratelabs/wazero" && reVersion.MatchString(d.Version) {
				return d.Version
			}
		}
	}
	file, _ := runtime.FuncForPC(reflect.ValueOf(wazero.NewRuntimeConfig).Pointer()).FileLine(0)
	if _, rest, ok := strings.Cut(filepath.ToSlash(file), "github.com/tetratelabs/wazero@"); ok {
		if v, _, ok := strings.Cut(rest, "/"); ok && reVersion.MatchString(v) {
			return v
		}
	}
	return ""
}

// glue is what parseGlue extracts from the Emscripten JavaScript glue.
type glue struct {
	imports map[string]string // minified import name -> JS function name
	exports map[string]string // C name (no underscore) -> minified export name
	ctor    string
	memory  string
}

var (
	reImports = regexp.MustCompile(`var wasmImports\s*=\s*\{([^}]*)\}`)
	reExport  = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_$]*)\s*=\s*(?:Module\["[A-Za-z0-9_$]+"\]\s*=\s*)?wasmExports\["([^"]+)"\]`)
	reInitRT  = regexp.MustCompile(`function initRuntime\(\)\{([^}]*)\}`)
	reCall    = regexp.MustCompile(`wasmExports\["([^"]+)"\]\(\)`)
)

// parseGlue reads the import and export name mapping from highs.js: the
// object literal `var wasmImports={a:___cxa_throw,...}`, the assignments
// `_Highs_run=Module["_Highs_run"]=wasmExports["N"]` (and the plain
// `wasmMemory=wasmExports["u"]`), and the static-constructor call
// `wasmExports["v"]()` inside initRuntime().
func parseGlue(js []byte) (*glue, error) {
	g := &glue{imports: map[string]string{}, exports: map[string]string{}}
	m := reImports.FindSubmatch(js)
	if m == nil {
		return nil, errors.New("highs.js: wasmImports not found")
	}
	for _, kv := range bytes.Split(m[1], []byte(",")) {
		k, v, ok := strings.Cut(strings.TrimSpace(string(kv)), ":")
		if !ok {
			return nil, fmt.Errorf("highs.js: cannot parse import entry %q", kv)
		}
		g.imports[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	for _, m := range reExport.FindAllSubmatch(js, -1) {
		name, exp := string(m[1]), string(m[2])
		if name == "wasmMemory" {
			g.memory = exp
			continue
		}
		g.exports[strings.TrimPrefix(name, "_")] = exp
	}
	if g.memory == "" {
		return nil, errors.New("highs.js: memory export not found")
	}
	m = reInitRT.FindSubmatch(js)
	if m == nil {
		return nil, errors.New("highs.js: initRuntime not found")
	}
	calls := reCall.FindAllSubmatch(m[1], -1)
	if len(calls) != 1 {
		return nil, fmt.Errorf("highs.js: initRuntime calls %d exports, want 1", len(calls))
	}
	g.ctor = string(calls[0][1])
	for _, f := range cFuncs {
		if _, ok := g.exports[f]; !ok {
			return nil, fmt.Errorf("highs.js: export %s not found", f)
		}
	}
	return g, nil
}

// checkModule checks the compiled module against the glue and the host
// functions: one import module, every import known with the expected
// signature, every needed export present.
func (c *compiled) checkModule(g *glue) error {
	exp := c.mod.ExportedFunctions()
	for _, f := range cFuncs {
		if _, ok := exp[g.exports[f]]; !ok {
			return fmt.Errorf("highs.wasm does not export %s (%s)", f, g.exports[f])
		}
	}
	if _, ok := exp[g.ctor]; !ok {
		return fmt.Errorf("highs.wasm does not export the constructor %s", g.ctor)
	}
	if _, ok := c.mod.ExportedMemories()[g.memory]; !ok {
		return fmt.Errorf("highs.wasm does not export memory %s", g.memory)
	}
	for _, f := range c.mod.ImportedFunctions() {
		mod, name, _ := f.Import()
		if c.importMod == "" {
			c.importMod = mod
		} else if mod != c.importMod {
			return fmt.Errorf("highs.wasm imports from modules %q and %q", c.importMod, mod)
		}
		js, ok := g.imports[name]
		if !ok {
			return fmt.Errorf("highs.wasm import %s is not in the glue", name)
		}
		h, ok := hostFuncs[js]
		if !ok {
			return fmt.Errorf("highs.wasm imports %s, which the backend does not implement", js)
		}
		if !slices.Equal(h.params, f.ParamTypes()) || !slices.Equal(h.results, f.ResultTypes()) {
			return fmt.Errorf("import %s has signature %v -> %v, want %v -> %v", js,
				f.ParamTypes(), f.ResultTypes(), h.params, h.results)
		}
	}
	if len(c.mod.ImportedMemories()) != 0 {
		return errors.New("highs.wasm imports its memory, expected an exported one")
	}
	return nil
}
