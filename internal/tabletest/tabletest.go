// Package tabletest holds the test helpers of sdcopt's searches for
// integer tables with given margins (native/fiber, cellbounds): seeded
// binary tables with all their k-way margins.
package tabletest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// Binary returns a seeded 2^d table (counts uniform in 0..maxCount,
// variables V1..Vd with levels "0" and "1") and all its k-way margins.
func Binary(t testing.TB, d, k, maxCount int, seed uint64) (*model.Table, *model.MarginSet) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	vars := make([]model.Variable, d)
	for i := range vars {
		vars[i] = model.Variable{Name: fmt.Sprintf("V%d", i+1), Levels: []string{"0", "1"}}
	}
	counts := make([]int64, 1<<d)
	for i := range counts {
		counts[i] = int64(rng.IntN(maxCount + 1))
	}
	tab, err := model.NewTable(vars, counts)
	if err != nil {
		t.Fatal(err)
	}
	subs, err := model.AllMargins(d, k)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := tab.Released(subs)
	if err != nil {
		t.Fatal(err)
	}
	return tab, ms
}
