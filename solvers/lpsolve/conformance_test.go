//go:build cgo && lpsolve

package lpsolve

import (
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, func() (solvers.Solver, error) { return New(), nil })
}
