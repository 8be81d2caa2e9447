//go:build !(cgo && coin)

package coin

import (
	"fmt"

	"github.com/sdcopt/sdcopt/solvers"
)

func unavailable(name string) error {
	return &solvers.Error{Engine: name, Op: "probe", Err: fmt.Errorf("%w: built without the coin build tag (needs cgo and coinor-libclp-dev/coinor-libcbc-dev; use make)", solvers.ErrUnavailable)}
}

func init() {
	for _, e := range []struct {
		name, desc string
		caps       solvers.Capabilities
		lp, mip    int
	}{{clpName, clpDescription, clpCaps, 1, -1}, {cbcName, cbcDescription, cbcCaps, 4, 2}} {
		name := e.name
		solvers.Register(solvers.Engine{
			Name:        name,
			Description: e.desc,
			Caps:        e.caps,
			Probe:       func() (string, error) { return "", unavailable(name) },
			New:         func() (solvers.Solver, error) { return nil, unavailable(name) },
			LPRank:      e.lp,
			MIPRank:     e.mip,
		})
	}
}
