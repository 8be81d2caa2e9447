//go:build cgo && coin

package coin

// This file and signals.go are the whole cgo surface of the package: a
// narrow binding to the C interfaces of CLP (Clp_C_Interface.h) and CBC
// (Cbc_C_Interface.h), and the signal bracket around engine calls
// (signals.c). C types appear only here; the engine logic in clp.go and
// cbc.go sees Go types. Every array handed to C is copied by the library before the call
// returns (loadProblem, addColumns, addRows, chg*), so Go memory is never
// retained by C. Arrays returned by the libraries are copied into Go slices
// before the next call into the engine.

/*
#cgo pkg-config: clp cbc
#include <stdlib.h>
#include <float.h>
#include <Clp_C_Interface.h>
#include <Cbc_C_Interface.h>

// The binding passes []int32 as CoinBigIndex*: fail the build if the
// library was configured with 64-bit CoinBigIndex.
typedef char coin_bigindex_is_int[(sizeof(CoinBigIndex) == sizeof(int)) ? 1 : -1];

// wallclock.cpp
int sdcopt_clp_check(Clp_Simplex *m, int nrows, int ncols);
void sdcopt_clp_set_wall_seconds(Clp_Simplex *m, double secs);
int sdcopt_clp_hit_limit(Clp_Simplex *m);
#cgo LDFLAGS: -lstdc++
*/
import "C"

import (
	"math"
	"runtime"
	"sync"
	"unsafe"
)

// coinInf is COIN_DBL_MAX, CLP's and CBC's infinity.
const coinInf = math.MaxFloat64

// ---------------------------------------------------------------- converters

// cInts converts Go ints to a C int array (as int32; C int is 32 bits on
// every platform cgo supports).
func cInts(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		if x > math.MaxInt32 || x < math.MinInt32 {
			panic("coin: index does not fit in a C int")
		}
		out[i] = int32(x)
	}
	return out
}

func intPtr(v []int32) *C.int {
	if len(v) == 0 {
		return nil
	}
	return (*C.int)(unsafe.Pointer(&v[0]))
}

func dblPtr(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

// bigPtr passes an []int32 as CoinBigIndex* (int, checked at build time).
func bigPtr(v []int32) *C.CoinBigIndex {
	if len(v) == 0 {
		return nil
	}
	return (*C.CoinBigIndex)(unsafe.Pointer(&v[0]))
}

// coinBounds copies v replacing ±Inf by ±COIN_DBL_MAX.
func coinBounds(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		switch {
		case math.IsInf(x, 1):
			out[i] = coinInf
		case math.IsInf(x, -1):
			out[i] = -coinInf
		default:
			out[i] = x
		}
	}
	return out
}

// goFloats copies n doubles from C memory (nil when p is NULL).
func goFloats(p *C.double, n int) []float64 {
	if p == nil {
		return nil
	}
	if n == 0 {
		return []float64{}
	}
	return append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(p)), n)...)
}

// dummyStart is a valid column-start array for a matrix without columns.
var dummyStart = []int32{0}

// ------------------------------------------------------------------- CLP

func clpVersion() string { return C.GoString(C.Clp_Version()) }

// clpModel owns one Clp_Simplex. free releases it; a cleanup releases it if
// the owner forgets.
type clpModel struct {
	p       unsafe.Pointer
	cleanup runtime.Cleanup
}

func newClpModel() *clpModel {
	m := &clpModel{p: unsafe.Pointer(C.Clp_newModel())}
	m.cleanup = runtime.AddCleanup(m, func(p unsafe.Pointer) { C.Clp_deleteModel(p) }, m.p)
	return m
}

func (m *clpModel) free() {
	if m == nil || m.p == nil {
		return
	}
	m.cleanup.Stop()
	C.Clp_deleteModel(m.p)
	m.p = nil
}

// load loads a CSC matrix; bounds may contain ±Inf.
func (m *clpModel) load(ncols, nrows int, start, index []int, value, colLo, colUp, obj, rowLo, rowUp []float64) {
	st := dummyStart
	if ncols > 0 {
		st = cInts(start)
	}
	idx := cInts(index)
	cl, cu := coinBounds(colLo), coinBounds(colUp)
	rl, ru := coinBounds(rowLo), coinBounds(rowUp)
	C.Clp_loadProblem(m.p, C.int(ncols), C.int(nrows), bigPtr(st), intPtr(idx), dblPtr(value),
		dblPtr(cl), dblPtr(cu), dblPtr(obj), dblPtr(rl), dblPtr(ru))
	runtime.KeepAlive(st)
	runtime.KeepAlive(idx)
}

func (m *clpModel) addColumns(lo, up, obj []float64, start, rows []int, vals []float64) {
	if len(obj) == 0 {
		return
	}
	st, ri := cInts(start), cInts(rows)
	cl, cu := coinBounds(lo), coinBounds(up)
	C.Clp_addColumns(m.p, C.int(len(obj)), dblPtr(cl), dblPtr(cu), dblPtr(obj), bigPtr(st), intPtr(ri), dblPtr(vals))
	runtime.KeepAlive(ri)
}

func (m *clpModel) addRows(lo, up []float64, start, cols []int, vals []float64) {
	if len(lo) == 0 {
		return
	}
	st, ci := cInts(start), cInts(cols)
	rl, ru := coinBounds(lo), coinBounds(up)
	C.Clp_addRows(m.p, C.int(len(lo)), dblPtr(rl), dblPtr(ru), bigPtr(st), intPtr(ci), dblPtr(vals))
	runtime.KeepAlive(ci)
}

func (m *clpModel) numCols() int { return int(C.Clp_numberColumns(m.p)) }
func (m *clpModel) numRows() int { return int(C.Clp_numberRows(m.p)) }

// Direct access to CLP's rim arrays: writing into them is how single
// entries are changed without passing whole vectors.
func (m *clpModel) setColLower(j int, v float64) { setAt(C.Clp_columnLower(m.p), j, v) }
func (m *clpModel) setColUpper(j int, v float64) { setAt(C.Clp_columnUpper(m.p), j, v) }
func (m *clpModel) setRowLower(i int, v float64) { setAt(C.Clp_rowLower(m.p), i, v) }
func (m *clpModel) setRowUpper(i int, v float64) { setAt(C.Clp_rowUpper(m.p), i, v) }
func (m *clpModel) setObj(j int, v float64)      { setAt(C.Clp_objective(m.p), j, v) }

// chgColBounds and chgRowBounds pass whole vectors through Clp_chg*, which
// also tells CLP that its internal (scaled) copies are stale.
func (m *clpModel) chgColBounds(lo, up []float64) {
	l, u := coinBounds(lo), coinBounds(up)
	C.Clp_chgColumnLower(m.p, dblPtr(l))
	C.Clp_chgColumnUpper(m.p, dblPtr(u))
}

func (m *clpModel) chgRowBounds(lo, up []float64) {
	l, u := coinBounds(lo), coinBounds(up)
	C.Clp_chgRowLower(m.p, dblPtr(l))
	C.Clp_chgRowUpper(m.p, dblPtr(u))
}

func (m *clpModel) chgObj(obj []float64) { C.Clp_chgObjCoefficients(m.p, dblPtr(obj)) }

func setAt(p *C.double, k int, v float64) {
	switch {
	case math.IsInf(v, 1):
		v = coinInf
	case math.IsInf(v, -1):
		v = -coinInf
	}
	unsafe.Slice((*float64)(unsafe.Pointer(p)), k+1)[k] = v
}

func (m *clpModel) setDirection(d float64)      { C.Clp_setOptimizationDirection(m.p, C.double(d)) }
func (m *clpModel) setLogLevel(l int)           { C.Clp_setLogLevel(m.p, C.int(l)) }
func (m *clpModel) setMaximumSeconds(s float64) { C.Clp_setMaximumSeconds(m.p, C.double(s)) }

// setMaximumWallSeconds sets the wall-clock limit of the next solves, s
// seconds from now (s < 0: none), and reports false when the C++ side is
// not reachable (see wallclock.cpp; the caller falls back to the CPU-time
// limit).
func (m *clpModel) setMaximumWallSeconds(s float64) bool {
	if !clpWallOK() {
		return false
	}
	C.sdcopt_clp_set_wall_seconds(m.p, C.double(s))
	return true
}

// hitLimit reports CLP's own check of its iteration and time limits.
func (m *clpModel) hitLimit() bool { return C.sdcopt_clp_hit_limit(m.p) == 1 }

// clpWallOK reports whether wallclock.cpp's view of Clp_Simplex matches
// this library (checked once on a model of 1 row and 2 columns).
var clpWallOK = sync.OnceValue(func() bool {
	m := newClpModel()
	defer m.free()
	m.load(2, 1, []int{0, 1, 2}, []int{0, 0}, []float64{1, 1}, []float64{0, 0}, []float64{1, 1}, []float64{0, 0}, []float64{0}, []float64{1})
	return C.sdcopt_clp_check(m.p, 1, 2) == 1
})

func (m *clpModel) setMaximumIterations(n int)   { C.Clp_setMaximumIterations(m.p, C.int(n)) }
func (m *clpModel) setPrimalTolerance(t float64) { C.Clp_setPrimalTolerance(m.p, C.double(t)) }
func (m *clpModel) setDualTolerance(t float64)   { C.Clp_setDualTolerance(m.p, C.double(t)) }
func (m *clpModel) setScaling(mode int)          { C.Clp_scaling(m.p, C.int(mode)) }
func (m *clpModel) setPerturbation(v int)        { C.Clp_setPerturbation(m.p, C.int(v)) }
func (m *clpModel) status() int                  { return int(C.Clp_status(m.p)) }
func (m *clpModel) secondaryStatus() int         { return int(C.Clp_secondaryStatus(m.p)) }
func (m *clpModel) objectiveValue() float64      { return float64(C.Clp_objectiveValue(m.p)) }
func (m *clpModel) iterations() int              { return int(C.Clp_numberIterations(m.p)) }
func (m *clpModel) isProvenOptimal() bool        { return C.Clp_isProvenOptimal(m.p) != 0 }
func (m *clpModel) checkSolution()               { C.Clp_checkSolution(m.p) }
func (m *clpModel) primalInfeasibilities() int   { return int(C.Clp_numberPrimalInfeasibilities(m.p)) }
func (m *clpModel) sumPrimalInfeasibilities() float64 {
	return float64(C.Clp_sumPrimalInfeasibilities(m.p))
}

// Solution arrays, copied.
func (m *clpModel) colSolution() []float64 { return goFloats(C.Clp_getColSolution(m.p), m.numCols()) }
func (m *clpModel) rowActivity() []float64 { return goFloats(C.Clp_getRowActivity(m.p), m.numRows()) }
func (m *clpModel) rowPrice() []float64    { return goFloats(C.Clp_getRowPrice(m.p), m.numRows()) }
func (m *clpModel) reducedCost() []float64 { return goFloats(C.Clp_getReducedCost(m.p), m.numCols()) }

// CLP solve methods, as ClpSolve::SolveType.
const (
	clpMethodDual      = 0
	clpMethodPrimal    = 1
	clpMethodBarrier   = 3
	clpMethodAutomatic = 5
)

// initialSolve runs CLP's general driver with the given method and
// presolve on or off. It returns the driver's return code.
func (m *clpModel) initialSolve(method int, presolve bool) int {
	opt := C.ClpSolve_new()
	defer C.ClpSolve_delete(opt)
	C.ClpSolve_setSolveType(opt, C.int(method), -1)
	if presolve {
		C.ClpSolve_setPresolveType(opt, 0, -1)
	} else {
		C.ClpSolve_setPresolveType(opt, 1, -1)
	}
	// Special option 2 = 1: no SIGINT handler of CLP's own (see
	// signals.c); the bracket below holds should CLP install one anyway.
	C.ClpSolve_setSpecialOption(opt, clpSpecialInterrupt, 1, -1)
	enterEngine()
	defer leaveEngine()
	return int(C.Clp_initialSolveWithOptions(m.p, opt))
}

// clpSpecialInterrupt is ClpSolve's special option for interrupt handling
// (ClpSolve.hpp: "2 - interrupt handling - 0 yes, 1 no (for threadsafe)").
const clpSpecialInterrupt = 2

// primal and dual re-optimize from the model's current basis. Neither
// touches signal handlers in CLP 1.17; they are bracketed all the same.
func (m *clpModel) primal() int {
	enterEngine()
	defer leaveEngine()
	return int(C.Clp_primal(m.p, 0))
}

func (m *clpModel) dual() int {
	enterEngine()
	defer leaveEngine()
	return int(C.Clp_dual(m.p, 0))
}

// ------------------------------------------------------------------- CBC

func cbcVersion() string { return C.GoString(C.Cbc_getVersion()) }

// cbcModel owns one Cbc_Model. CBC's documentation advises against
// modifying or re-solving a model after Cbc_solve, so a cbcModel is used
// for exactly one solve.
type cbcModel struct {
	p       unsafe.Pointer
	cleanup runtime.Cleanup
}

func newCbcModel() *cbcModel {
	m := &cbcModel{p: unsafe.Pointer(C.Cbc_newModel())}
	m.cleanup = runtime.AddCleanup(m, func(p unsafe.Pointer) { C.Cbc_deleteModel(p) }, m.p)
	return m
}

func (m *cbcModel) free() {
	if m == nil || m.p == nil {
		return
	}
	m.cleanup.Stop()
	C.Cbc_deleteModel(m.p)
	m.p = nil
}

func (m *cbcModel) load(ncols, nrows int, start, index []int, value, colLo, colUp, obj, rowLo, rowUp []float64) {
	st := dummyStart
	if ncols > 0 {
		st = cInts(start)
	}
	idx := cInts(index)
	cl, cu := coinBounds(colLo), coinBounds(colUp)
	rl, ru := coinBounds(rowLo), coinBounds(rowUp)
	C.Cbc_loadProblem(m.p, C.int(ncols), C.int(nrows), bigPtr(st), intPtr(idx), dblPtr(value),
		dblPtr(cl), dblPtr(cu), dblPtr(obj), dblPtr(rl), dblPtr(ru))
	runtime.KeepAlive(st)
	runtime.KeepAlive(idx)
}

func (m *cbcModel) setInteger(j int)            { C.Cbc_setInteger(m.p, C.int(j)) }
func (m *cbcModel) setObjSense(s float64)       { C.Cbc_setObjSense(m.p, C.double(s)) }
func (m *cbcModel) setMaximumSeconds(s float64) { C.Cbc_setMaximumSeconds(m.p, C.double(s)) }
func (m *cbcModel) setAllowableGap(g float64)   { C.Cbc_setAllowableGap(m.p, C.double(g)) }
func (m *cbcModel) setAllowableFracGap(g float64) {
	C.Cbc_setAllowableFractionGap(m.p, C.double(g))
}
func (m *cbcModel) setLogLevel(l int) { C.Cbc_setLogLevel(m.p, C.int(l)) }

// setParameter appends "-name value" to the command line that Cbc_solve
// hands to CBC's standalone driver.
func (m *cbcModel) setParameter(name, value string) {
	cn, cv := C.CString(name), C.CString(value)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cv))
	C.Cbc_setParameter(m.p, cn, cv)
}

func (m *cbcModel) status() int                  { return int(C.Cbc_status(m.p)) }
func (m *cbcModel) secondaryStatus() int         { return int(C.Cbc_secondaryStatus(m.p)) }
func (m *cbcModel) isProvenOptimal() bool        { return C.Cbc_isProvenOptimal(m.p) != 0 }
func (m *cbcModel) isProvenInfeasible() bool     { return C.Cbc_isProvenInfeasible(m.p) != 0 }
func (m *cbcModel) isContinuousUnbounded() bool  { return C.Cbc_isContinuousUnbounded(m.p) != 0 }
func (m *cbcModel) isSecondsLimitReached() bool  { return C.Cbc_isSecondsLimitReached(m.p) != 0 }
func (m *cbcModel) isNodeLimitReached() bool     { return C.Cbc_isNodeLimitReached(m.p) != 0 }
func (m *cbcModel) isSolutionLimitReached() bool { return C.Cbc_isSolutionLimitReached(m.p) != 0 }
func (m *cbcModel) isAbandoned() bool            { return C.Cbc_isAbandoned(m.p) != 0 }
func (m *cbcModel) objValue() float64            { return float64(C.Cbc_getObjValue(m.p)) }
func (m *cbcModel) bestPossible() float64        { return float64(C.Cbc_getBestPossibleObjValue(m.p)) }
func (m *cbcModel) nodeCount() int               { return int(C.Cbc_getNodeCount(m.p)) }
func (m *cbcModel) iterationCount() int          { return int(C.Cbc_getIterationCount(m.p)) }
func (m *cbcModel) numberSavedSolutions() int    { return int(C.Cbc_numberSavedSolutions(m.p)) }

// solve runs CBC's driver (CbcMain1), which solves the root LP with CLP's
// initialSolve and so tries to install CLP's SIGINT handler (see
// signals.c).
func (m *cbcModel) solve() int {
	enterEngine()
	defer leaveEngine()
	return int(C.Cbc_solve(m.p))
}

// bestSolution copies the incumbent (nil when CBC has none).
func (m *cbcModel) bestSolution(n int) []float64 { return goFloats(C.Cbc_bestSolution(m.p), n) }
