package highs

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// trapError is what the host functions panic with when the engine aborts,
// throws a C++ exception or exits. wazero recovers the panic and returns it
// (wrapped) from the exported-function call; the instance is then unusable.
type trapError struct {
	kind   string // "C++ exception", "abort", "exit"
	detail string
}

func (e *trapError) Error() string {
	if e.detail == "" {
		return "HiGHS " + e.kind
	}
	return "HiGHS " + e.kind + ": " + e.detail
}

// hostState is the per-instance state of the host functions, carried in
// the context passed to every call into the instance.
type hostState struct {
	verbose bool
	out     io.Writer
	start   time.Time
	stopAt  time.Time // when set, a clock read after it ends the call (see checkStop)
}

// checkStop ends the running call with a trap once the state's stopAt has
// passed. HiGHS reads the clock often (measured: at most 0.48 s apart over
// 70 s of a k-anonymity MIP, 30,954 reads, including its root node where
// it overruns its own time_limit), so a solve is stopped within about half
// a second of stopAt, without wazero's context checks (which made MIP
// solves 2.8x slower).
func checkStop(st *hostState, now time.Time) {
	if !st.stopAt.IsZero() && now.After(st.stopAt) {
		panic(&trapError{kind: "stop", detail: "hard time limit reached"})
	}
}

type hostStateKey struct{}

func stateOf(ctx context.Context) *hostState {
	if s, ok := ctx.Value(hostStateKey{}).(*hostState); ok {
		return s
	}
	return &hostState{out: io.Discard, start: time.Now()}
}

// WASI/Emscripten errno values.
const (
	errnoBADF   = 8
	errnoNOENT  = 44
	errnoNOSYS  = 52
	errnoNOTTY  = 59
	errnoSPIPE  = 70
	maxHeapSize = 2 << 30 // the glue's getHeapMax
)

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
	f64 = api.ValueTypeF64
)

type hostFunc struct {
	params, results []api.ValueType
	fn              api.GoModuleFunc
}

func sig(params []api.ValueType, results []api.ValueType, fn api.GoModuleFunction) hostFunc {
	return hostFunc{params: params, results: results, fn: fn.Call}
}

type goFn func(ctx context.Context, m api.Module, stack []uint64)

func (f goFn) Call(ctx context.Context, m api.Module, stack []uint64) { f(ctx, m, stack) }

func none() []api.ValueType { return []api.ValueType{} }

func types(t ...api.ValueType) []api.ValueType { return t }

func putU32(m api.Module, ptr uint64, v uint32) {
	if !m.Memory().WriteUint32Le(uint32(ptr), v) {
		panic(&trapError{kind: "abort", detail: "host write out of bounds"})
	}
}

// cString reads a NUL-terminated string at ptr (at most max bytes).
func cString(mem api.Memory, ptr uint32, max uint32) string {
	size := mem.Size()
	if ptr == 0 || ptr >= size {
		return ""
	}
	n := min(max, size-ptr)
	b, _ := mem.Read(ptr, n)
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// hostFuncs implements the glue's imports, by their JavaScript names.
var hostFuncs = map[string]hostFunc{
	"___cxa_throw": sig(types(i32, i32, i32), none(), goFn(func(ctx context.Context, m api.Module, s []uint64) {
		// The second argument is the std::type_info of the thrown object;
		// its mangled name pointer sits after the vtable pointer.
		detail := ""
		if namePtr, ok := m.Memory().ReadUint32Le(uint32(s[1]) + 4); ok {
			detail = cString(m.Memory(), namePtr, 128)
		}
		panic(&trapError{kind: "C++ exception", detail: detail})
	})),
	"___syscall_fcntl64": sig(types(i32, i32, i32), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI32(-errnoNOSYS)
	})),
	"___syscall_ioctl": sig(types(i32, i32, i32), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI32(-errnoNOTTY)
	})),
	"___syscall_openat": sig(types(i32, i32, i32, i32), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI32(-errnoNOENT)
	})),
	"__abort_js": sig(none(), none(), goFn(func(context.Context, api.Module, []uint64) {
		panic(&trapError{kind: "abort"})
	})),
	"__emscripten_runtime_keepalive_clear": sig(none(), none(), goFn(func(context.Context, api.Module, []uint64) {})),
	"__setitimer_js": sig(types(i32, f64), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = 0
	})),
	"__tzset_js": sig(types(i32, i32, i32, i32), none(), goFn(func(_ context.Context, m api.Module, s []uint64) {
		putU32(m, s[0], 0) // timezone offset in seconds
		putU32(m, s[1], 0) // no daylight saving
		m.Memory().Write(uint32(s[2]), []byte("UTC\x00"))
		m.Memory().Write(uint32(s[3]), []byte("UTC\x00"))
	})),
	"_clock_time_get": sig(types(i32, i64, i32), types(i32), goFn(func(ctx context.Context, m api.Module, s []uint64) {
		st, now := stateOf(ctx), time.Now()
		checkStop(st, now)
		var ns uint64
		if uint32(s[0]) == 0 { // realtime
			ns = uint64(now.UnixNano())
		} else { // monotonic and CPU-time clocks
			ns = uint64(now.Sub(st.start).Nanoseconds())
		}
		if !m.Memory().WriteUint64Le(uint32(s[2]), ns) {
			panic(&trapError{kind: "abort", detail: "host write out of bounds"})
		}
		s[0] = 0
	})),
	"_emscripten_date_now": sig(none(), types(f64), goFn(func(ctx context.Context, _ api.Module, s []uint64) {
		now := time.Now()
		checkStop(stateOf(ctx), now)
		s[0] = api.EncodeF64(float64(now.UnixNano()) / 1e6)
	})),
	"_emscripten_get_now": sig(none(), types(f64), goFn(func(ctx context.Context, _ api.Module, s []uint64) {
		st, now := stateOf(ctx), time.Now()
		checkStop(st, now)
		s[0] = api.EncodeF64(float64(now.Sub(st.start).Nanoseconds()) / 1e6)
	})),
	"_emscripten_resize_heap": sig(types(i32), types(i32), goFn(func(_ context.Context, m api.Module, s []uint64) {
		ok := resizeHeap(m.Memory(), uint64(uint32(s[0])))
		s[0] = 0
		if ok {
			s[0] = 1
		}
	})),
	"_environ_get": sig(types(i32, i32), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = 0
	})),
	"_environ_sizes_get": sig(types(i32, i32), types(i32), goFn(func(_ context.Context, m api.Module, s []uint64) {
		putU32(m, s[0], 0)
		putU32(m, s[1], 0)
		s[0] = 0
	})),
	"_exit": sig(types(i32), none(), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		panic(&trapError{kind: "exit", detail: fmt.Sprintf("status %d", int32(s[0]))})
	})),
	"_proc_exit": sig(types(i32), none(), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		panic(&trapError{kind: "exit", detail: fmt.Sprintf("status %d", int32(s[0]))})
	})),
	"_fd_close": sig(types(i32), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = errnoBADF
	})),
	"_fd_read": sig(types(i32, i32, i32, i32), types(i32), goFn(func(_ context.Context, m api.Module, s []uint64) {
		if uint32(s[0]) == 0 { // stdin: end of file
			putU32(m, s[3], 0)
			s[0] = 0
			return
		}
		s[0] = errnoBADF
	})),
	"_fd_seek": sig(types(i32, i64, i32, i32), types(i32), goFn(func(_ context.Context, _ api.Module, s []uint64) {
		if uint32(s[0]) <= 2 {
			s[0] = errnoSPIPE
			return
		}
		s[0] = errnoBADF
	})),
	"_fd_write": sig(types(i32, i32, i32, i32), types(i32), goFn(fdWrite)),
}

// fdWrite writes stdout/stderr to the instance's log writer when verbose
// and discards it otherwise, reporting every byte as written.
func fdWrite(ctx context.Context, m api.Module, s []uint64) {
	fd, iov, n, pnum := uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[3])
	if fd != 1 && fd != 2 {
		s[0] = errnoBADF
		return
	}
	st := stateOf(ctx)
	mem := m.Memory()
	iovs, ok := mem.Read(iov, 8*n)
	if !ok {
		panic(&trapError{kind: "abort", detail: "fd_write: iovec out of bounds"})
	}
	var total uint32
	for k := uint32(0); k < n; k++ {
		ptr := binary.LittleEndian.Uint32(iovs[8*k:])
		l := binary.LittleEndian.Uint32(iovs[8*k+4:])
		if st.verbose && l > 0 {
			if b, ok := mem.Read(ptr, l); ok {
				st.out.Write(b)
			}
		}
		total += l
	}
	putU32(m, uint64(pnum), total)
	s[0] = 0
}

// resizeHeap grows the memory to at least req bytes, overallocating like
// the glue does (by 20%, at most 96 MiB beyond the request, backing off to
// smaller steps when the larger ones fail).
func resizeHeap(mem api.Memory, req uint64) bool {
	old := uint64(mem.Size())
	limit := uint64(maxHeapSize)
	if mx, ok := mem.Definition().Max(); ok {
		limit = min(limit, uint64(mx)*65536)
	}
	if req > limit {
		return false
	}
	for cut := uint64(1); cut <= 4; cut *= 2 {
		over := old + old/(5*cut)
		over = min(over, req+96<<20)
		size := max(req, over)
		size = min((size+65535)&^65535, limit)
		if size <= old {
			return true
		}
		if _, ok := mem.Grow(uint32((size - old) / 65536)); ok {
			return true
		}
	}
	return false
}

// instantiateHost registers the host functions as module modName, under the
// minified import names the guest uses.
func instantiateHost(ctx context.Context, rt wazero.Runtime, modName string, imports map[string]string, cm wazero.CompiledModule) error {
	b := rt.NewHostModuleBuilder(modName)
	for _, f := range cm.ImportedFunctions() {
		_, name, _ := f.Import()
		h := hostFuncs[imports[name]]
		b.NewFunctionBuilder().WithGoModuleFunction(h.fn, h.params, h.results).WithName(imports[name]).Export(name)
	}
	_, err := b.Instantiate(ctx)
	return err
}

// logWriter is where verbose engine output goes.
var logWriter io.Writer = os.Stderr
