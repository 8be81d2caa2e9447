package coin

import "github.com/sdcopt/sdcopt/solvers"

// Registry entries shared by the cgo build and the stub build.
const (
	clpName        = "clp"
	cbcName        = "cbc"
	clpDescription = "COIN-OR CLP 1.17 (cgo, Debian coinor-libclp-dev)"
	cbcDescription = "COIN-OR CBC 2.10 (cgo, Debian coinor-libcbc-dev)"
)

var (
	clpCaps = solvers.Capabilities{LP: true, Duals: true, Incremental: true, WarmStart: true, TimeLimit: true}
	// cbc solves LPs through the CLP path (hence Duals); MIP sessions
	// reload and re-solve from scratch (no WarmStart).
	cbcCaps = solvers.Capabilities{LP: true, Integer: true, Duals: true, Incremental: true, TimeLimit: true}
)
