//go:build !(cgo && lpsolve)

package lpsolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

func TestStubUnavailable(t *testing.T) {
	_, _, err := solvers.Lookup("lpsolve")
	if !errors.Is(err, solvers.ErrUnavailable) || !strings.Contains(err.Error(), "lpsolve build tag") {
		t.Fatalf("Lookup: err %v, want ErrUnavailable naming the build tag", err)
	}
	if _, err := solvers.New("lpsolve", false); !errors.Is(err, solvers.ErrUnavailable) {
		t.Fatalf("New: err %v", err)
	}
}
