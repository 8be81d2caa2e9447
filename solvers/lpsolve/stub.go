//go:build !(cgo && lpsolve)

package lpsolve

import (
	"fmt"

	"github.com/sdcopt/sdcopt/solvers"
)

const engineName = "lpsolve"

const unavailable = "built without the lpsolve build tag (needs cgo and liblpsolve55-dev; use make)"

func init() {
	solvers.Register(solvers.Engine{
		Name:        engineName,
		Description: "lp_solve 5.5 (cgo, Debian liblpsolve55-dev)",
		Probe: func() (string, error) {
			return "", &solvers.Error{Engine: engineName, Op: "probe", Err: fmt.Errorf("%w: %s", solvers.ErrUnavailable, unavailable)}
		},
		New: func() (solvers.Solver, error) {
			return nil, &solvers.Error{Engine: engineName, Op: "new", Err: fmt.Errorf("%w: %s", solvers.ErrUnavailable, unavailable)}
		},
		LPRank:  3,
		MIPRank: 3,
	})
}
