package solvertest

import (
	"errors"
	"testing"
)

// Run runs every conformance check against the engine made by factory, one
// subtest per check, with a fresh engine instance per check. Checks marked
// as long are skipped under go test -short.
func Run(t *testing.T, factory Factory) {
	t.Helper()
	for _, c := range Checks() {
		t.Run(c.Name, func(t *testing.T) {
			if testing.Short() && !c.Short {
				t.Skip("long check skipped in -short mode")
			}
			s, err := factory()
			if err != nil {
				t.Fatalf("factory: %v", err)
			}
			switch err := c.Run(s); {
			case errors.Is(err, ErrSkip):
				t.Skipf("%s: %v", s.Name(), err)
			case err != nil:
				t.Errorf("%s: %v", s.Name(), err)
			}
		})
	}
}
