package audit

import (
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

// RefEngine is the second engine of the tests' reference bounds: the
// auditor uses the shuttle, Fréchet bounds or CLP/CBC; the reference
// solves every cell's integer programs with lp_solve (HiGHS when lp_solve
// is not linked). It skips the test when neither is.
func RefEngine(t testing.TB) string {
	t.Helper()
	for _, e := range []string{"lpsolve", "highs"} {
		if _, _, err := solvers.Lookup(e); err == nil {
			return e
		}
	}
	t.Skip("no second integer engine")
	return ""
}

// WithoutFirstMoves returns opt with the local moves before the search and
// the bounds turned off: every checked cell the view leaves open goes to
// the neighbourhood search (where it runs) and the bounds, so that tests
// on small tables reach them.
func WithoutFirstMoves(opt Options) Options {
	opt.noFirstMoves = true
	return opt
}
