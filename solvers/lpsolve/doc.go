// Package lpsolve is the lp_solve 5.5 backend of package solvers: a narrow
// cgo binding to Debian's liblpsolve55-dev (the static library
// /usr/lib/liblpsolve55.a with headers in /usr/include/lpsolve, linked with
// -llpsolve55 -lcolamd -ldl -lm). It registers the engine "lpsolve".
//
// The binding is compiled only with cgo and the build tag lpsolve (`make`
// passes it); otherwise a stub registers the same name as unavailable, its
// Probe failing with solvers.ErrUnavailable. All C types live in capi.go,
// behind unexported functions that take Go slices and numbers.
//
// # What is covered
//
// Solve builds a fresh model (make_lp with the rows, then add_columnex per
// column with the objective as row 0), solves it and frees it. NewSession
// keeps the model: AddCols (add_columnex), AddRows (add_constraintex),
// SetObjective (set_obj), SetSense (set_minim/set_maxim), SetColBounds,
// SetRowBounds, Solve. Close calls delete_lp; a runtime cleanup frees the
// model of a session that is dropped without Close. Duplicate entries of a
// column or row are summed before they reach lp_solve.
//
// Bounds: ±Inf (and anything beyond ±1e30) become ±1e30, the value given to
// set_infinite. Columns use set_bounds, or set_unbounded when free; Integer
// and Binary columns are set_int, Binary bounds being intersected with
// [0, 1] in Go (set_binary would overwrite them). A row [lo, up] becomes
//
//	lo = up            EQ, rh = lo
//	lo = -inf          LE, rh = up
//	up = +inf          GE, rh = lo
//	both finite        LE, rh = up, then set_rh_range(up - lo)
//	both infinite      LE, rh = 1e30 (a free row)
//
// always in the order set_constr_type, set_rh, set_rh_range, because
// set_constr_type drops any range. Crossed bounds (lo > up, also a Binary
// column with lo > 1) make the result Infeasible without running the
// engine. A model without columns is solved in Go: Optimal with the offset
// as objective when every row admits 0, Infeasible otherwise (lp_solve's
// solve returns NOTRUN on it). The objective offset is set_rh(lp, 0,
// offset); in lp_solve 5.5.2.5 this adds +offset to get_objective for both
// senses and survives set_maxim/set_minim.
//
// # Parameters
//
// TimeLimit goes to set_timeout, which takes whole seconds: the limit is
// rounded up (1.2 s becomes 2 s, 100 ms becomes 1 s) and a warning says so.
// MIPAbsGap and MIPRelGap go to set_mip_gap(TRUE, ·) and set_mip_gap(FALSE,
// ·); zero or negative values mean the package defaults (lp_solve's own are
// 1e-11 and 1e-9). FeasTol, when positive, is set_epsb (lp_solve's primal
// feasibility tolerance, default 1e-10); the integrality tolerance epsint
// keeps its default 1e-7 unless the raw option sets it. Threads > 1 is
// reported as ignored: lp_solve is single-threaded. Verbose sets
// set_verbose(NORMAL) and sends lp_solve's report stream to stderr (its
// default, stdout, is a C stdio buffer that a Go program never flushes);
// otherwise set_verbose(NEUTRAL) and set_outputfile(lp, "").
//
// Raw options (Params.Raw), anything else fails with solvers.ErrUnsupported:
//
//	scaling        set_scaling mode, integer or none|default (196)
//	presolve       set_presolve bits 1 rows, 2 cols, 4 lindep, or
//	               none|rows|cols|lindep|rows+cols|rows+cols+lindep;
//	               Solve only (a session refuses it: presolve deletes rows
//	               and columns from the engine's model), and no duals
//	pivoting       set_pivoting, integer or firstindex|dantzig|devex|
//	               steepestedge (each with PRICE_ADAPTIVE)
//	improve        set_improve, integer or none|default (6)
//	bb_rule        set_bb_rule, integer or first|gap|range|fraction|
//	               pseudocost|pseudononint|pseudoratio
//	bb_depthlimit  set_bb_depthlimit (negative: relative to the integer count)
//	bb_floorfirst  set_bb_floorfirst, integer or ceiling|floor|automatic
//	simplex_type   set_simplextype, integer or primal_primal|dual_primal|
//	               primal_dual|dual_dual
//	epslevel       set_epslevel tight|medium|loose|baggy (applied before
//	               FeasTol and the other eps options, since it resets them)
//	epsint, epsel, epsd, epspivot   the corresponding set_eps* (positive)
//
// # Status
//
// solve() codes map as: OPTIMAL and PRESOLVED → Optimal; SUBOPTIMAL (a MIP
// stopped with an incumbent) → TimeLimit with a solution when a time limit
// was set and at least 90 % of it was used, else Interrupted with a warning;
// INFEASIBLE → Infeasible; UNBOUNDED → Unbounded; TIMEOUT → TimeLimit (with
// a solution only for a MIP whose solution count is positive; in practice
// lp_solve returns SUBOPTIMAL in that case); USERABORT → Interrupted;
// PROCBREAK → SolutionLimit; NUMFAILURE, ACCURACYERROR, DEGENERATE →
// NumericalTrouble; NOMEMORY, NOBFP, PROCFAIL, NOTRUN → an error wrapping
// solvers.ErrEngine. Iterations are get_total_iter, Nodes get_total_nodes
// (0 for LPs). lp_solve 5.5 reports OPTIMAL for a column without matrix
// entries whose objective drives it to an infinite bound, with the column
// at 1e30: a solution with a value at ±1e30 is reported as Unbounded.
// Infeasible and Unbounded results carry no solution (solvers.Result).
//
// BestBound is the objective at optimality (LP or MIP; for a MIP this is
// the incumbent proven within the gaps). After an early MIP stop it is
// lp_solve's lprec.bb_limitOF, which holds the root LP relaxation bound
// (rounded by lp_solve when the objective is integral: 4 instead of 4.8 on a
// max problem with integer objective and columns); it is reported only when
// it lies on the correct side of the incumbent, else NaN. lp_solve does not
// track the bound of the open nodes, so this bound does not improve during
// the search.
//
// # Duals
//
// Duals are computed only for LPs (set_presolve with PRESOLVE_DUALS, set
// before every LP solve and cleared for MIPs, which would otherwise pay for
// them at every improved solution). Row duals are read from
// get_ptr_sensitivity_rhs (the first Nrows entries; the remaining Ncolumns
// entries are lp_solve's reduced costs). Checked on minimization and
// maximization LPs with rows and columns at either bound, lp_solve's row
// duals already follow the package convention (d = c - Aᵀy for both
// senses: on a max problem a ≤ row at its upper bound has y ≥ 0), so they
// are passed unchanged.
//
// lp_solve's own reduced costs are not used: they are wrong in two cases
// found by the conformance suite. A column without matrix entries gets 0
// instead of its cost, and a column with only a finite upper bound (which
// lp_solve stores internally as a negated column) gets the opposite sign.
// The backend therefore computes d = c - Aᵀy itself, reading each column
// from the engine with get_columnex.
//
// # Warm start
//
// lp_solve keeps its last basis inside the model. It keeps it across
// set_obj, bound changes and add_columnex, but starts from the slack basis
// after add_constraintex. The session therefore saves the final basis of
// every optimal LP solve (get_basis) and, after rows or columns were added,
// re-installs it with set_basis: old rows and columns keep their status,
// the slacks of new rows are basic and new columns are nonbasic at their
// lower bound. Measured on the LP relaxation of a 100 x 1000 set
// partitioning problem: adding back the 10 columns of the optimum takes
// 232 iterations against 716 for a cold solve; adding a cut row takes 20
// against 744 (about 650 without set_basis); single cheaper columns take
// 15 to 50.
//
// # Signals
//
// lp_solve installs no signal handlers: liblpsolve55.a imports neither
// signal nor sigaction (nm), so unlike CLP and CBC (package coin) its calls
// need no bracket. TestSolveKeepsSignalActions checks that solves leave
// the Go runtime's SIGINT and SIGTERM handlers untouched.
package lpsolve
