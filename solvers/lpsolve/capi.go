//go:build cgo && lpsolve

package lpsolve

// This file is the whole cgo surface of the package: every C type stays in
// here, behind unexported Go functions that take and return Go types.

/*
#cgo CFLAGS: -I/usr/include/lpsolve
#cgo LDFLAGS: -llpsolve55 -lcolamd -ldl -lm
#include <stdlib.h>
#include <lp_lib.h>

// sdc_log_to_stderr sends lp_solve's report stream (stdout by default, where
// the C stdio buffer may never be flushed from a Go program) to stderr.
static void sdc_log_to_stderr(lprec *lp) { set_outputstream(lp, stderr); }
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Row types of lp_solve (lp_lib.h: LE, GE, EQ).
const (
	rowLE = int(C.LE)
	rowGE = int(C.GE)
	rowEQ = int(C.EQ)
)

// solve() return codes of lp_solve (lp_lib.h).
const (
	retNoBFP      = int(C.NOBFP)
	retNoMemory   = int(C.NOMEMORY)
	retNotRun     = int(C.NOTRUN)
	retOptimal    = int(C.OPTIMAL)
	retSubOptimal = int(C.SUBOPTIMAL)
	retInfeasible = int(C.INFEASIBLE)
	retUnbounded  = int(C.UNBOUNDED)
	retDegenerate = int(C.DEGENERATE)
	retNumFailure = int(C.NUMFAILURE)
	retUserAbort  = int(C.USERABORT)
	retTimeout    = int(C.TIMEOUT)
	retPresolved  = int(C.PRESOLVED)
	retAccuracy   = int(C.ACCURACYERROR)
	retProcFail   = int(C.PROCFAIL)
	retProcBreak  = int(C.PROCBREAK)
)

// Option constants used by the raw-option parser.
const (
	presolveDuals  = int(C.PRESOLVE_DUALS)
	verboseNeutral = int(C.NEUTRAL)
	verboseNormal  = int(C.NORMAL)
)

// lpInf is the value handed to set_infinite; ±Inf bounds are mapped to ±lpInf.
const lpInf = 1e30

// cVersion returns lp_solve's version as "major.minor.release.build".
func cVersion() string {
	var a, b, c, d C.int
	C.lp_solve_version(&a, &b, &c, &d)
	return fmt.Sprintf("%d.%d.%d.%d", int(a), int(b), int(c), int(d))
}

// lprec is an owned lp_solve model. The zero value (nil p) is a deleted model.
type lprec struct {
	p *C.lprec
}

// newLprec creates a model with rows empty rows and no columns.
func newLprec(rows int) (*lprec, bool) {
	p := C.make_lp(C.int(rows), 0)
	if p == nil {
		return nil, false
	}
	C.set_infinite(p, C.double(lpInf))
	return &lprec{p: p}, true
}

// freeOnCleanup frees the C model when owner becomes unreachable: the
// safety net for a Session that is dropped without Close. The returned
// Cleanup must be stopped when the model is freed explicitly.
func freeOnCleanup[T any](owner *T, l *lprec) runtime.Cleanup {
	return runtime.AddCleanup(owner, func(p *C.lprec) { C.delete_lp(p) }, l.p)
}

func (l *lprec) free() {
	if l.p != nil {
		C.delete_lp(l.p)
		l.p = nil
	}
}

func ok(b C.MYBOOL) bool { return b != 0 }

func cbool(b bool) C.MYBOOL {
	if b {
		return 1
	}
	return 0
}

// dptr / iptr give C views of Go slices (nil for empty slices). C never keeps
// these pointers beyond the call.
func dptr(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

func iptr(v []int32) *C.int {
	if len(v) == 0 {
		return nil
	}
	return (*C.int)(unsafe.Pointer(&v[0]))
}

func (l *lprec) setQuiet(verbose bool) {
	if verbose {
		C.set_verbose(l.p, C.int(verboseNormal))
		C.sdc_log_to_stderr(l.p)
		return
	}
	C.set_verbose(l.p, C.int(verboseNeutral))
	empty := C.CString("")
	C.set_outputfile(l.p, empty)
	C.free(unsafe.Pointer(empty))
}

func (l *lprec) nrows() int { return int(C.get_Nrows(l.p)) }
func (l *lprec) ncols() int { return int(C.get_Ncolumns(l.p)) }

func (l *lprec) resize(rows, cols int) bool {
	return ok(C.resize_lp(l.p, C.int(rows), C.int(cols)))
}

// addColumn appends a column; rows are 1-based row numbers (0 is the
// objective) and must be distinct.
func (l *lprec) addColumn(rows []int32, vals []float64) bool {
	return ok(C.add_columnex(l.p, C.int(len(rows)), dptr(vals), iptr(rows)))
}

// addRow appends a row; cols are 1-based column numbers.
func (l *lprec) addRow(cols []int32, vals []float64, typ int, rh float64) bool {
	return ok(C.add_constraintex(l.p, C.int(len(cols)), dptr(vals), iptr(cols), C.int(typ), C.double(rh)))
}

func (l *lprec) setRowAddMode(on bool) bool { return ok(C.set_add_rowmode(l.p, cbool(on))) }

func (l *lprec) setConstrType(row, typ int) bool {
	return ok(C.set_constr_type(l.p, C.int(row), C.int(typ)))
}
func (l *lprec) setRH(row int, v float64) bool { return ok(C.set_rh(l.p, C.int(row), C.double(v))) }
func (l *lprec) setRHRange(row int, width float64) bool {
	return ok(C.set_rh_range(l.p, C.int(row), C.double(width)))
}
func (l *lprec) setBounds(col int, lo, up float64) bool {
	return ok(C.set_bounds(l.p, C.int(col), C.double(lo), C.double(up)))
}
func (l *lprec) setUnbounded(col int) bool { return ok(C.set_unbounded(l.p, C.int(col))) }
func (l *lprec) setInt(col int, on bool) bool {
	return ok(C.set_int(l.p, C.int(col), cbool(on)))
}
func (l *lprec) setObj(col int, v float64) bool { return ok(C.set_obj(l.p, C.int(col), C.double(v))) }
func (l *lprec) setMat(row, col int, v float64) bool {
	return ok(C.set_mat(l.p, C.int(row), C.int(col), C.double(v)))
}
func (l *lprec) setMaxim(maxim bool) {
	if maxim {
		C.set_maxim(l.p)
	} else {
		C.set_minim(l.p)
	}
}

func (l *lprec) setTimeout(sec int64)               { C.set_timeout(l.p, C.long(sec)) }
func (l *lprec) setMIPGap(absolute bool, v float64) { C.set_mip_gap(l.p, cbool(absolute), C.double(v)) }
func (l *lprec) setEpsB(v float64)                  { C.set_epsb(l.p, C.double(v)) }
func (l *lprec) setEpsD(v float64)                  { C.set_epsd(l.p, C.double(v)) }
func (l *lprec) setEpsEl(v float64)                 { C.set_epsel(l.p, C.double(v)) }
func (l *lprec) setEpsInt(v float64)                { C.set_epsint(l.p, C.double(v)) }
func (l *lprec) setEpsPivot(v float64)              { C.set_epspivot(l.p, C.double(v)) }
func (l *lprec) setEpsLevel(v int) bool             { return ok(C.set_epslevel(l.p, C.int(v))) }
func (l *lprec) setScaling(v int)                   { C.set_scaling(l.p, C.int(v)) }
func (l *lprec) setPivoting(v int)                  { C.set_pivoting(l.p, C.int(v)) }
func (l *lprec) setImprove(v int)                   { C.set_improve(l.p, C.int(v)) }
func (l *lprec) setBBRule(v int)                    { C.set_bb_rule(l.p, C.int(v)) }
func (l *lprec) setBBDepthLimit(v int)              { C.set_bb_depthlimit(l.p, C.int(v)) }
func (l *lprec) setBBFloorFirst(v int)              { C.set_bb_floorfirst(l.p, C.int(v)) }
func (l *lprec) setSimplexType(v int)               { C.set_simplextype(l.p, C.int(v)) }
func (l *lprec) setPresolve(mode int)               { C.set_presolve(l.p, C.int(mode), C.get_presolveloops(l.p)) }
func (l *lprec) presolve() int                      { return int(C.get_presolve(l.p)) }
func (l *lprec) solve() int                         { return int(C.solve(l.p)) }
func (l *lprec) objective() float64                 { return float64(C.get_objective(l.p)) }
func (l *lprec) totalIter() int64                   { return int64(C.get_total_iter(l.p)) }
func (l *lprec) totalNodes() int64                  { return int64(C.get_total_nodes(l.p)) }
func (l *lprec) solutionCount() int                 { return int(C.get_solutioncount(l.p)) }
func (l *lprec) isMaxim() bool                      { return ok(C.is_maxim(l.p)) }
func (l *lprec) defaultBasis()                      { C.default_basis(l.p) }

// bbLimitOF is lp_solve's internal "dual bound / limit to final optimal MIP
// solution" (lprec.bb_limitOF), in the user's objective sense.
func (l *lprec) bbLimitOF() float64 { return float64(l.p.bb_limitOF) }

// variables copies the column values into dst (len = ncols).
func (l *lprec) variables(dst []float64) bool {
	var p *C.double
	if !ok(C.get_ptr_variables(l.p, &p)) || p == nil {
		return false
	}
	copy(dst, unsafe.Slice((*float64)(unsafe.Pointer(p)), len(dst)))
	return true
}

// constraints copies the row activities into dst (len = nrows).
func (l *lprec) constraints(dst []float64) bool {
	if len(dst) == 0 {
		return true
	}
	var p *C.double
	if !ok(C.get_ptr_constraints(l.p, &p)) || p == nil {
		return false
	}
	copy(dst, unsafe.Slice((*float64)(unsafe.Pointer(p)), len(dst)))
	return true
}

// duals copies lp_solve's sensitivity duals: rows first (len(y) = nrows),
// then the reduced costs of the columns (len(d) = ncols).
func (l *lprec) duals(y, d []float64) bool {
	var p, from, till *C.double
	if !ok(C.get_ptr_sensitivity_rhs(l.p, &p, &from, &till)) || p == nil {
		return false
	}
	all := unsafe.Slice((*float64)(unsafe.Pointer(p)), len(y)+len(d))
	copy(y, all[:len(y)])
	copy(d, all[len(y):])
	return true
}

// basis reads the full basis (1 + nrows + ncols entries, lp_solve layout:
// entry 0 unused, then the basic indices, then the nonbasic ones, negative
// when at the lower bound).
func (l *lprec) basis(dst []int32) bool {
	return ok(C.get_basis(l.p, iptr(dst), 1))
}

// setBasis installs a full basis in the layout of basis.
func (l *lprec) setBasis(src []int32) bool {
	return ok(C.set_basis(l.p, iptr(src), 1))
}

// column reads column j's nonzeros (1-based j) into vals/rows, which need
// room for 1 + nrows entries; row 0 is the objective. It returns the count,
// or -1 on failure.
func (l *lprec) column(j int, vals []float64, rows []int32) int {
	return int(C.get_columnex(l.p, C.int(j), dptr(vals), iptr(rows)))
}

// origCounts returns the row and column counts of the model before presolve.
func (l *lprec) origCounts() (rows, cols int) {
	return int(C.get_Norig_rows(l.p)), int(C.get_Norig_columns(l.p))
}

// primalResult returns the value of original index k (0 objective, 1..rows
// the rows, rows+1.. the columns), valid also after presolve removed it.
func (l *lprec) primalResult(k int) float64 {
	return float64(C.get_var_primalresult(l.p, C.int(k)))
}
