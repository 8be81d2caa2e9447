package highs

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/sdcopt/sdcopt/solvers"
)

// instance is one instantiation of highs.wasm: its own linear memory and
// C heap, used by one goroutine at a time. After a trap (C++ exception,
// abort, exit, wasm trap) it is dead and must be discarded.
type instance struct {
	c     *compiled // the runtime it was instantiated in (its pool)
	mod   api.Module
	mem   api.Memory
	ctx   context.Context
	state *hostState
	fns   map[string]api.Function
	stack []uint64
	inf   float64
	dead  error // non-nil once the instance trapped
}

// newInstance instantiates the compiled module with reserved memory and
// runs the static constructors.
func (c *compiled) newInstance() (*instance, error) {
	st := &hostState{out: io.Discard, start: time.Now()}
	ctx := context.WithValue(context.Background(), hostStateKey{}, st)
	ictx := experimental.WithMemoryAllocator(ctx, newMemoryAllocator())
	mod, err := c.rt.InstantiateModule(ictx, c.mod, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	in := &instance{c: c, mod: mod, mem: mod.ExportedMemory(c.memory), ctx: ctx, state: st,
		fns: make(map[string]api.Function, len(cFuncs)), stack: make([]uint64, 32), inf: c.inf}
	for _, f := range cFuncs {
		in.fns[f] = mod.ExportedFunction(c.exports[f])
	}
	if _, err := mod.ExportedFunction(c.ctor).Call(ctx); err != nil {
		mod.Close(context.Background())
		return nil, fmt.Errorf("static constructors: %v", err)
	}
	return in, nil
}

// checkABI reads the version, the size of HighsInt and HiGHS's infinity
// into c (called on the first instance).
func (in *instance) checkABI(c *compiled) error {
	h, err := in.call("Highs_create")
	if err != nil {
		return err
	}
	defer in.call("Highs_destroy", h)
	size, err := in.call("Highs_getSizeofHighsInt", h)
	if err != nil {
		return err
	}
	if int32(size) != 4 {
		return fmt.Errorf("highs.wasm has %d-byte HighsInt, want 4", int32(size))
	}
	inf, err := in.call("Highs_getInfinity", h)
	if err != nil {
		return err
	}
	c.inf = api.DecodeF64(inf)
	in.inf = c.inf
	v, err := in.call("Highs_version")
	if err != nil {
		return err
	}
	c.version = cString(in.mem, uint32(v), 64)
	if c.version == "" {
		return errors.New("Highs_version returned an empty string")
	}
	return nil
}

func (in *instance) close() {
	if in.mod != nil {
		in.mod.Close(context.Background())
		in.mod = nil
	}
}

// call calls the C function name with raw wasm arguments and returns the
// raw first result (0 for void functions). A trap kills the instance and
// returns an error wrapping solvers.ErrEngine.
func (in *instance) call(name string, args ...uint64) (uint64, error) {
	if in.dead != nil {
		return 0, in.dead
	}
	f := in.fns[name]
	n := max(len(args), 1)
	if cap(in.stack) < n {
		in.stack = make([]uint64, n)
	}
	st := in.stack[:n]
	copy(st, args)
	if err := f.CallWithStack(in.ctx, st); err != nil {
		in.dead = engineFailure(name, err)
		return 0, in.dead
	}
	return st[0], nil
}

// engineFailure turns an error from a call into the instance into the
// backend's typed error.
func engineFailure(fn string, err error) error {
	var te *trapError
	if errors.As(err, &te) {
		return &solvers.Error{Engine: engineName, Op: fn, Err: fmt.Errorf("%w: %w", solvers.ErrEngine, te)}
	}
	// A wasm trap (unreachable, out-of-bounds access, stack exhaustion):
	// keep only the first line, the rest is a wasm stack trace.
	msg := err.Error()
	for i := range len(msg) {
		if msg[i] == '\n' {
			msg = msg[:i]
			break
		}
	}
	return &solvers.Error{Engine: engineName, Op: fn, Err: fmt.Errorf("%w: wasm trap: %s", solvers.ErrEngine, msg)}
}

// Argument encoders.
func ptr(p uint32) uint64 { return uint64(p) }
func i(v int) uint64      { return api.EncodeI32(int32(v)) }
func f(v float64) uint64  { return api.EncodeF64(v) }
func bval(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
func status(r uint64) int32    { return int32(uint32(r)) }
func decodeF(r uint64) float64 { return api.DecodeF64(r) }

// arena collects wasm allocations of one operation so that they are freed
// together.
type arena struct {
	in   *instance
	ptrs []uint32
	err  error
}

func (in *instance) arena() *arena { return &arena{in: in} }

// alloc returns size bytes of wasm heap (never 0 for size 0).
func (a *arena) alloc(size int) uint32 {
	if a.err != nil {
		return 0
	}
	if size > math.MaxInt32 {
		a.err = solvers.Errorf(engineName, "malloc", solvers.ErrEngine, "allocation of %d bytes exceeds the wasm address space", size)
		return 0
	}
	r, err := a.in.call("malloc", i(max(size, 8)))
	if err != nil {
		a.err = err
		return 0
	}
	p := uint32(r)
	if p == 0 {
		a.err = solvers.Errorf(engineName, "malloc", solvers.ErrEngine, "out of wasm memory allocating %d bytes", size)
		return 0
	}
	a.ptrs = append(a.ptrs, p)
	return p
}

// view returns the wasm memory [p, p+size) (valid until the memory grows).
func (a *arena) view(p uint32, size int) []byte {
	b, ok := a.in.mem.Read(p, uint32(size))
	if !ok {
		panic("highs: wasm memory view out of range")
	}
	return b
}

// doubles copies v into wasm memory, mapping infinities to HiGHS's
// infinity.
func (a *arena) doubles(v []float64) uint32 {
	p := a.alloc(8 * len(v))
	if a.err != nil {
		return 0
	}
	b := a.view(p, 8*len(v))
	inf := a.in.inf
	for k, x := range v {
		if x >= inf {
			x = inf
		} else if x <= -inf {
			x = -inf
		}
		binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(x))
	}
	return p
}

// ints copies v into wasm memory as 32-bit HighsInt.
func (a *arena) ints(v []int) uint32 {
	p := a.alloc(4 * len(v))
	if a.err != nil {
		return 0
	}
	b := a.view(p, 4*len(v))
	for k, x := range v {
		binary.LittleEndian.PutUint32(b[4*k:], uint32(int32(x)))
	}
	return p
}

// cstr copies s into wasm memory with a terminating NUL.
func (a *arena) cstr(s string) uint32 {
	p := a.alloc(len(s) + 1)
	if a.err != nil {
		return 0
	}
	b := a.view(p, len(s)+1)
	copy(b, s)
	b[len(s)] = 0
	return p
}

// readDoubles reads n doubles at p into a new slice.
func (a *arena) readDoubles(p uint32, n int) []float64 {
	out := make([]float64, n)
	b := a.view(p, 8*n)
	for k := range out {
		out[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
	}
	return out
}

func (a *arena) readI32(p uint32) int32 {
	v, _ := a.in.mem.ReadUint32Le(p)
	return int32(v)
}

func (a *arena) readI64(p uint32) int64 {
	v, _ := a.in.mem.ReadUint64Le(p)
	return int64(v)
}

func (a *arena) readF64(p uint32) float64 {
	v, _ := a.in.mem.ReadFloat64Le(p)
	return v
}

// free releases every allocation (unless the instance died).
func (a *arena) free() {
	for _, p := range a.ptrs {
		if _, err := a.in.call("free", ptr(p)); err != nil {
			break
		}
	}
	a.ptrs = a.ptrs[:0]
}

// The pool keeps idle instances for reuse: a Solver takes one for the
// duration of a Solve, a Session for its lifetime. At most GOMAXPROCS
// instances are kept, and none whose memory grew beyond maxIdleMemory, so
// that a large solve's memory is returned to the system afterwards.
const maxIdleMemory = 256 << 20

// getInstance returns an idle instance of c or a new one.
func getInstance(c *compiled) (*instance, error) {
	c.poolMu.Lock()
	if k := len(c.idle); k > 0 {
		in := c.idle[k-1]
		c.idle = c.idle[:k-1]
		c.poolMu.Unlock()
		return in, nil
	}
	c.poolMu.Unlock()
	in, err := c.newInstance()
	if err != nil {
		return nil, solvers.Errorf(engineName, "instantiate", solvers.ErrEngine, "%v", err)
	}
	return in, nil
}

// putInstance returns in to its runtime's pool, or closes it when it is
// dead, large, or the pool is full.
func putInstance(in *instance) {
	if in == nil || in.mod == nil {
		return
	}
	if c := in.c; in.dead == nil && in.mem.Size() <= maxIdleMemory {
		in.state.verbose = false
		c.poolMu.Lock()
		if len(c.idle) < runtime.GOMAXPROCS(0) {
			c.idle = append(c.idle, in)
			c.poolMu.Unlock()
			return
		}
		c.poolMu.Unlock()
	}
	in.close()
}
