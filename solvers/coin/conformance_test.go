//go:build cgo && coin

package coin

import (
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

func TestConformanceCLP(t *testing.T) {
	solvertest.Run(t, func() (solvers.Solver, error) { return solvers.New(clpName, false) })
}

func TestConformanceCBC(t *testing.T) {
	solvertest.Run(t, func() (solvers.Solver, error) { return solvers.New(cbcName, true) })
}
