// Package mps writes a solvers.Problem as free-format MPS and reads MPS
// back, so that every model sdcopt builds can be replayed in any LP/MIP
// engine, and models that users bring can be solved by sdcopt.
//
// Read and Decode parse MPS text from an io.Reader (Decode also names the
// file in messages and returns the warnings of the reading conventions
// below); ReadFile and DecodeFile read a file; Write and WriteFile write
// one. A model read this way is solved like any other Problem:
//
//	p, err := mps.ReadFile("model.mps")
//	if err != nil { ... }                  // I/O error, or *ParseError (file, line)
//	r, err := solvers.Solve("auto", p, nil) // import _ ".../solvers/all"
//
// # Model
//
// A Problem is
//
//	minimize or maximize  c'x + offset
//	subject to            RowLower <= A x <= RowUpper
//	                      ColLower <=   x <= ColUpper
//	                      x_j integer (binary: also within [0, 1])
//
// and is written with these sections, in this order:
//
//	NAME      the problem name (whitespace runs collapsed to one space)
//	OBJSENSE  only when maximizing: the header alone, "    MAX" on the next line
//	ROWS      " N  obj" first, then one line per row (see Rows)
//	COLUMNS   column-wise entries; integer and binary columns between
//	          MARKER 'MARKER' 'INTORG' / 'INTEND' lines
//	RHS       set name RHS; right-hand sides and the objective constant
//	RANGES    set name RNG; only when some row is ranged
//	BOUNDS    set name BND; only when some column has non-default bounds
//	ENDATA
//
// Numbers are written with strconv.FormatFloat(v, 'g', -1, 64), the
// shortest text that parses back to the same float64, so every value
// round-trips exactly (except the computed bound of a ranged row, below).
//
// # Names
//
// Row and column names are p.RowNames and p.ColNames when all of them are
// valid: non-empty, without whitespace, and unique within their kind. If any
// one is invalid, every name of that kind is replaced by a generated one
// (x0, x1, ... for columns; r0, r1, ... for rows). The objective row is
// named "obj", or "obj_1", "obj_2", ... if a row already has that name.
// The reader keeps every name it reads; the objective row's name is not
// part of a Problem and is dropped.
//
// # Rows
//
// Row bounds [lo, up] map to row types as follows:
//
//	lo = up             E, RHS lo
//	lo = -inf, up < inf L, RHS up
//	lo > -inf, up = inf G, RHS lo
//	both infinite       N (a free row)
//	both finite, lo<up  G with RHS lo or L with RHS up, plus a RANGES entry R
//
// RANGES follow the standard rule: G gives [rhs, rhs+|R|], L gives
// [rhs-|R|, rhs], E gives [rhs, rhs+R] when R > 0 and [rhs+R, rhs] when
// R < 0. One bound of a ranged row is the RHS and is exact; the other is
// recomputed as rhs ± |R| and so rounds. The writer searches a few ulps
// around up-lo in both the G and the L form for an R that reproduces it
// exactly; for integer and ordinary decimal data one always exists, but
// for some pairs of arbitrary floats none does, and the bound read back
// then differs from the original by about one ulp. Finite bounds lo > up
// cannot be expressed and make Write fail.
//
// Free rows are written as N rows after the first. The reader follows the
// same convention: the FIRST N row is the objective, every further N row
// becomes a free row (bounds -inf, +inf) with its coefficients kept; a
// file without any N row has a zero objective. RHS
// and RANGES entries on free rows are ignored with a warning.
//
// # Objective constant
//
// The objective constant is stored as the RHS entry of the objective row
// with the opposite sign: RHS on the objective row = -offset, whatever the
// objective sense (the objective row reads c'x - rhs). The reader applies
// offset = -RHS. This is the sign CBC's MPS reader applies; lp_solve 5.5's
// reader applies the opposite one (offset = +RHS), so a model with an
// objective constant replayed through lp_solve's MPS reader reports an
// objective shifted by twice the constant.
//
// OBJSENSE is not understood by every reader either: the CoinMpsIO reader
// of the COIN-OR packages we build against prints "MAX found after
// OBJSENSE - Coin ignores" and minimizes. Replaying a maximization there
// needs the sense set explicitly.
//
// # Columns and bounds
//
// A column with no entries and a zero objective coefficient is declared by
// an explicit zero objective entry. Explicit zero matrix entries are
// written and read back as entries. The writer sums duplicate (row,
// column) entries of a Problem; the reader rejects them.
//
// Default bounds are [0, +inf) for every column, including integer columns
// declared between markers (no "upper bound 1" default). The writer always
// writes an upper bound (UP, or PL when infinite) for integer columns so
// that readers with other defaults agree. Bound types:
//
//	LO v  lower = v             UP v  upper = v
//	FX v  lower = upper = v     FR    lower = -inf, upper = +inf
//	MI    lower = -inf          PL    upper = +inf
//	BV    binary: type Binary, bounds [0, 1]
//	LI v  integer, lower = v    UI v  integer, upper = v
//
// Entries apply in file order. A Binary column is written as an integer
// column with a BV bound, followed by LO/UP/MI/PL/FX entries only when its
// stored bounds differ from [0, 1]; the reader keeps the column Binary
// after such entries. SC (semi-continuous) bounds are rejected.
//
// Negative upper bounds follow the classic MPS rule: an UP (or UI) bound
// below zero on a column whose lower bound was never set in BOUNDS (still
// the default 0) makes the lower bound -inf, and Decode reports a warning.
// The writer emits an explicit "LO 0" before a negative upper bound when
// the lower bound really is 0, so its files never depend on the rule.
//
// # Reading
//
// The reader accepts free MPS and fixed MPS whose names contain no spaces
// (then fixed fields split correctly on whitespace). Lines starting with
// '*' are comments; blank lines are skipped; section headers start in
// column 1 and data lines are indented. Keywords (section names, row and
// bound types, MAX/MIN) are case-insensitive. Set names in RHS, RANGES and
// BOUNDS are optional (recognized by the field count); only one set per
// section is supported. OBJSENSE is accepted either as a header followed
// by a data line, or on one line ("OBJSENSE MAX"); MAXIMIZE and MINIMIZE
// are accepted too. RHS, RANGES and BOUNDS may come in any order after
// COLUMNS. The entries of one column must be contiguous.
//
// A UTF-8 byte-order mark at the start of the file is skipped. Integer
// markers must pair up inside COLUMNS: an INTEND without an open INTORG
// block, an INTORG inside one, and a block still open when COLUMNS ends
// (at the next section header or ENDATA) are errors.
//
// A file must end with ENDATA: a missing ENDATA is an error, because it
// most likely means a truncated file. Anything after ENDATA is ignored.
// Values that overflow float64 (e.g. 1e400) read as infinite; infinities
// are accepted only where they are meaningful (LO -inf, UP +inf) and
// coefficients, right-hand sides and ranges must be finite. Values such as
// 1e30 are NOT treated as infinite.
//
// Errors are *ParseError values with the file (ReadFile), the line and a
// message, e.g. `model.mps:12: unknown row "c7" in COLUMNS`. ReadFile and
// WriteFile handle gzip-compressed files named *.gz; WriteFile is atomic.
package mps
