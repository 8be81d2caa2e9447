// Package highs is the HiGHS backend of package solvers: HiGHS 1.15 compiled
// to WebAssembly (the Emscripten build shipped in the npm package highs),
// run in-process by the pure-Go runtime wazero. No cgo and no native
// library are needed; the two runtime files highs.wasm and highs.js are
// installed by `make deps` (scripts/fetch-highs.sh) into
// ~/.local/share/sdcopt/highs-1.15.3, or the directory named by
// SDCOPT_HIGHS_DIR, and are verified by sha256 before use. Missing or
// mismatched files make the engine unavailable (solvers.ErrUnavailable)
// with a message saying what to do.
//
// # Loading
//
// The wasm module imports 20 small host functions and exports the whole
// HiGHS C API, all under minified names. The mapping is not hard-coded: it
// is parsed from the JavaScript glue at load time, from the object literal
// `var wasmImports={a:___cxa_throw,...}` (import name -> JS function), the
// assignments `_Highs_run=Module["_Highs_run"]=wasmExports["N"]` (C function
// -> export) and the static-constructor call `wasmExports["v"]()` inside
// initRuntime(). The loader checks every import's signature against the Go
// implementation and that every C function it uses is exported.
//
// The host functions are minimal: stdout/stderr writes go to os.Stderr when
// Params.Verbose is set and are discarded otherwise, file syscalls fail
// with an errno, clocks come from package time, and
// emscripten_resize_heap grows the memory like the glue does. abort, exit
// and __cxa_throw (a C++ exception: the build cannot catch them) panic with
// a typed value; wazero turns the panic into an error of the call, which
// the backend reports as an error wrapping solvers.ErrEngine, and the
// instance is discarded.
//
// The module is compiled once per process (about 3 s); wazero's on-disk
// compilation cache under os.UserCacheDir()/sdcopt/wazero/<wazero version>
// cuts later starts to about 0.1 s. Instantiation takes a few milliseconds.
//
// # Memory
//
// Each instance's linear memory is one anonymous mapping of the module's
// maximum size (2 GiB) reserved without access rights and made accessible
// as HiGHS grows its heap, so growing never copies the memory (wazero's
// default allocator copies the whole memory at every grow). Where no
// address space can be reserved a Go slice with capacity doubling is used.
//
// # Instances and concurrency
//
// An instance is single-threaded; HiGHS's threads option must stay at 1
// (more aborts the wasm build), so Params.Threads > 1 is reported in
// Result.Warnings. Instances are independent, so solves in different
// goroutines run in parallel. Instances live in a process-wide pool: a
// Solve borrows one and returns it afterwards (instances whose memory grew
// beyond 256 MiB are closed instead, returning the memory to the system),
// and a Session owns one until Close. Context cancellation is not wired
// into wazero for most solves (it made a MIP 2.8x slower,
// BenchmarkStoppable); Params.TimeLimit and Params.Deadline map to HiGHS's
// own time_limit option. Because HiGHS checks that only between certain
// steps, a solve with a limit is also stopped from outside at the limit
// plus a grace of 0.5 s + 5 %: by the host's clock functions, and for a
// MIP (whose root node can run minutes without reading the clock) by
// running it in a second, stoppable compilation of the module. The result
// is then TimeLimit without a solution, with a warning. This holds for a
// Session's solves too (a MIP session with a limit or deadline runs on the
// stoppable compilation): each solve gets the time left before
// Params.Deadline as its time_limit, and is stopped at that plus the
// grace; the session's HiGHS object dies with the stop and the next solve
// rebuilds it, cold. (Before, a session's solves were never stopped from
// outside: bounds --method ip with a 5 s limit on 4^6 with all 3-way
// margins ran 10.9 s, HiGHS's root node going seconds without a clock
// read.)
//
// # Model and results
//
// Problems are passed column-wise with Highs_passLp or Highs_passMip
// (binary columns become integer columns with bounds clipped to [0, 1]).
// HiGHS's infinity is +Inf, so infinite bounds pass through unchanged. The
// HiGHS row duals y and column duals d satisfy d = c - Aᵀy for both
// objective senses, with the signs of package solvers (for a maximization
// a row at its upper bound has y >= 0), so they are returned as they are;
// TestMaxDualConvention checks this by hand on a maximization LP.
//
// A Session keeps the model in one HiGHS object and applies changes with
// Highs_addCols, Highs_addRows, Highs_changeColsCostBySet,
// Highs_changeObjectiveSense, Highs_changeColBounds and
// Highs_changeRowBounds; a re-solve starts from the previous basis. The
// session also keeps a copy of the model, which validates changes and
// lets it rebuild the HiGHS object (cold) after an engine failure.
package highs
