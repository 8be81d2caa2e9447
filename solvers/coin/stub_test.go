//go:build !(cgo && coin)

package coin

import (
	"errors"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

func TestStubUnavailable(t *testing.T) {
	for _, name := range []string{clpName, cbcName} {
		if _, _, err := solvers.Lookup(name); !errors.Is(err, solvers.ErrUnavailable) {
			t.Errorf("%s: err %v, want ErrUnavailable", name, err)
		}
		if _, err := solvers.New(name, false); !errors.Is(err, solvers.ErrUnavailable) {
			t.Errorf("%s: New err %v, want ErrUnavailable", name, err)
		}
	}
}
